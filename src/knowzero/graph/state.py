"""Graph state: a narrow input, the full working state with explicit reducers, and the output.

Per-turn fields (intent, passages, verdict, reply …) are cleared by the normaliser at the
start of each turn; ``messages`` and the summary persist in the thread's checkpoint.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages


def log_reducer(left: list[dict[str, Any]] | None, right: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Append agent-log entries not already present (by ``id``); ``None`` starts a new turn's log.

    Ids make the merge idempotent, so a subgraph handing back its whole log adds nothing twice.
    """
    if right is None:
        return []
    out = list(left or [])
    seen = {e.get("id") for e in out if isinstance(e, dict)}
    for e in right:
        if not isinstance(e, dict) or e.get("id") is None or e.get("id") not in seen:
            out.append(e)
            seen.add(e.get("id") if isinstance(e, dict) else None)
    return out


class InputState(TypedDict, total=False):
    input: dict[str, Any]
    """The turn's AgentInput, as a dict (knowzero.input.AgentInput.model_dump())."""


class State(InputState, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation (user and assistant turns), checkpointed per thread."""
    summary: str
    """Running summary of messages trimmed from the history."""
    topic: str
    """The thread's current topic, for resolving pronouns in follow-ups."""
    question: str
    """This turn's message with pronouns resolved against the history."""
    intent: dict[str, Any]
    """IntentResult of this turn: intent, confidence, method, elapsed_ms, reasoning."""
    path: str
    """The path chosen for this turn (knowledge, tools, chitchat, clarify, learning, react)."""
    domain: str
    """Knowledge router: technical | hr | product | policy | general."""
    plan: dict[str, Any]
    """Knowledge router: collections, strategy, top_k, weights."""
    query: str
    """Retriever: the current (possibly rewritten) query."""
    attempts: int
    """Retriever: retrieval attempts made this turn (≤ 1 + max_rewrites)."""
    passages: list[dict[str, Any]]
    """Retriever: fused, filtered, budgeted passages."""
    quality: float
    """Retriever: evidence quality of the last attempt (0..1)."""
    draft: dict[str, Any]
    """Reader: answer, claims (with offsets), conflicts, method."""
    verdict: dict[str, Any]
    """Fact checker: level, reason, per-claim checks, needs_human_review."""
    citations: list[dict[str, Any]]
    """Citations of the final answer: source, quote, start, end, title."""
    reply: str
    """The text the user sees for this turn."""
    document: dict[str, Any]
    """Learning: the document created or updated this turn."""
    service: dict[str, Any]
    """Service: pending action, slots, triage, handoff state (kept across turns)."""
    react: dict[str, Any]
    """Safe-mode loop: steps taken, sub-tasks, stop reason."""
    quick_replies: list[str]
    """Buttons the client may offer for this turn's reply (a pending step's options, interpretations)."""
    agent_log: Annotated[list[dict[str, Any]], log_reducer]
    """One entry per node run this turn: {agent, action, elapsed_ms, ...}."""


class OutputState(TypedDict, total=False):
    reply: str
    intent: dict[str, Any]
    path: str
    domain: str
    verdict: dict[str, Any]
    citations: list[dict[str, Any]]
    passages: list[dict[str, Any]]
    document: dict[str, Any]
    service: dict[str, Any]
    agent_log: list[dict[str, Any]]
