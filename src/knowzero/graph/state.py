"""Graph state: a narrow input, the full working state with explicit reducers, and the output.

Typed where the knowledge pipeline's values travel: the input is an :class:`AgentInput`
(validated once, where the request entered), the plan a :class:`Plan`, passages are
:class:`Scored`, the draft a :class:`Draft`, the verdict a :class:`Verdict` — the same objects
``knowledge/answer/pipeline.py`` returns, never reshaped between nodes. They are checkpointed by
LangGraph's serializer with an explicit allowlist (:data:`CHECKPOINT_TYPES`). The service path's
state is a :class:`~knowzero.service.state.ServiceState`, a typed dict: checkpointed as the plain
dict it is at run time, so checkpoints written before it was typed still load. :func:`wire_values`
turns a state into plain JSON for HTTP and events.

Per-turn fields (intent, passages, verdict, reply …) are cleared by the normaliser at the
start of each turn; ``messages`` and the summary persist in the thread's checkpoint.
"""

from __future__ import annotations

from typing import Annotated, Any, TypedDict

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages

from knowzero.input import AgentInput, CommentInput
from knowzero.knowledge.answer.pipeline import passage_to_dict
from knowzero.knowledge.answer.policy import ClaimVerdict, Verdict
from knowzero.knowledge.answer.reader import Claim, Draft
from knowzero.knowledge.answer.retriever import Plan
from knowzero.knowledge.types import Passage, Scored
from knowzero.service.state import ServiceState

CHECKPOINT_TYPES: tuple[type, ...] = (AgentInput, CommentInput, Plan, Passage, Scored, Draft, Claim, Verdict,
                                      ClaimVerdict)
"""Our types a checkpoint may contain; nothing else is revived from one (strict msgpack allowlist)."""


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
    input: AgentInput
    """The turn's input, validated where it entered (``AgentInput.at_edge``)."""


class State(InputState, total=False):
    messages: Annotated[list[AnyMessage], add_messages]
    """The conversation (user and assistant turns), checkpointed per thread."""
    summary: str
    """Running summary of messages trimmed from the history."""
    topic: str
    """The thread's current topic, for resolving pronouns in follow-ups."""
    question: str
    """This turn's message with pronouns resolved against the history."""
    other_reading: str
    """The question in the documents' other language (English ↔ Chinese through the lexicon), read when the
    first reading finds no answer; "" when there is none or it was read."""
    reply_language: str
    """The language the turn's message is written in (or the UI's): the reply's, whatever the question was
    translated into for reading the documents."""
    last_question: str
    """The thread's previous question as understood (standalone): what a follow-up is rewritten against."""
    collections: list[str]
    """The knowledge collections the thread is limited to: set by an input that names some, kept for the
    thread's later turns; empty: the team's own documents (the demo only while it is all there is)."""
    intent: dict[str, Any]
    """IntentResult of this turn: intent, confidence, method, elapsed_ms, reasoning."""
    path: str
    """The path chosen for this turn (knowledge, tools, chitchat, clarify, learning, react)."""
    domain: str
    """Knowledge router: technical | hr | product | policy | general."""
    plan: Plan | None
    """Knowledge router: collections, strategy, top_k, weights."""
    query: str
    """Retriever: the current (possibly rewritten) query."""
    attempts: int
    """Retriever: retrieval attempts made this turn (≤ 1 + max_rewrites)."""
    passages: tuple[Scored, ...]
    """Retriever: fused, filtered, budgeted passages."""
    quality: float
    """Retriever: evidence quality of the last attempt (0..1)."""
    draft: Draft | None
    """Reader: claims (with offsets), conflicts, method; after the checker, the claims as shown."""
    verdict: Verdict | None
    """Fact checker (or the safe-mode loop's weakest sub-answer): level, reason, per-claim checks."""
    citations: list[dict[str, Any]]
    """Citations of the final answer: source, quote, start, end, title."""
    reply: str
    """The text the user sees for this turn."""
    document: dict[str, Any]
    """Learning: the document created or updated this turn."""
    service: ServiceState
    """Service: pending action, slots, triage, handoff state (kept across turns; every key in ``service/state.py``)."""
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
    verdict: Verdict | None
    citations: list[dict[str, Any]]
    passages: tuple[Scored, ...]
    document: dict[str, Any]
    service: ServiceState
    agent_log: list[dict[str, Any]]


def wire_values(values: dict[str, Any]) -> dict[str, Any]:
    """A state (or output) as plain JSON: typed values become the documented dict shapes."""
    out = dict(values)
    verdict = out.get("verdict")
    if isinstance(verdict, Verdict):
        out["verdict"] = verdict.to_dict()
    if "passages" in out:
        out["passages"] = [passage_to_dict(s) for s in out.get("passages") or ()]
    inp = out.get("input")
    if isinstance(inp, AgentInput):
        out["input"] = inp.model_dump()
    plan = out.get("plan")
    if isinstance(plan, Plan):
        out["plan"] = {"domain": plan.domain, "collections": list(plan.collections), "strategy": plan.strategy,
                       "top_k": plan.top_k, "restrict_domain": plan.restrict_domain}
    draft = out.get("draft")
    if isinstance(draft, Draft):
        out["draft"] = {"method": draft.method, "claims": len(draft.claims), "conflicts": draft.conflicts}
    return out
