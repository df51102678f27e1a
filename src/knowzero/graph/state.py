"""Graph state: a narrow input, the full working state with explicit reducers, and the output.

Typed where the knowledge pipeline's values travel: the input is an :class:`AgentInput`
(validated once, where the request entered), the plan a :class:`Plan`, passages are
:class:`Scored`, the draft a :class:`Draft`, the verdict a :class:`Verdict` — the same objects
``knowledge/answer/pipeline.py`` returns, never reshaped between nodes. They are checkpointed by
LangGraph's serializer with an explicit allowlist (:data:`CHECKPOINT_TYPES`).

Every other field is a typed dict: the service path's :class:`~knowzero.service.state.ServiceState`,
the router's :class:`IntentState`, :class:`Citation`, the learning :class:`Document`, the safe-mode
loop's :class:`ReactState` and the :class:`AgentLogEntry` of every step. At run time a typed dict is
the plain dict it always was, so it is checkpointed as one (no allowlist entry) and checkpoints
written before it was typed still load; mypy checks every key the graph reads or writes, and the
test suite validates the values real turns produce against these shapes (``tests/graph/test_state_shapes.py``).
Values made outside the graph (the knowledge pipeline's logs and citations, the learning service's
documents, a service turn's update) are typed where they enter it (:func:`as_log`, :func:`as_citations`,
:func:`as_document`). :func:`wire_values` turns a state into plain JSON for HTTP and events.

Per-turn fields (intent, passages, verdict, reply …) are cleared by the normaliser at the
start of each turn; ``messages`` and the summary persist in the thread's checkpoint.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, Required, cast

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict  # pydantic validates typing_extensions' TypedDict on Python < 3.12

from knowzero.input import AgentInput, CommentInput
from knowzero.knowledge.answer.checks.constraints import Constraint
from knowzero.knowledge.answer.pipeline import passage_to_dict
from knowzero.knowledge.answer.policy import ClaimVerdict, Verdict
from knowzero.knowledge.answer.reader import Claim, Draft
from knowzero.knowledge.answer.retriever import Plan
from knowzero.knowledge.types import Passage, Scored
from knowzero.routing.signals import ServiceSignals
from knowzero.service.state import ServiceState
from knowzero.understanding.analysis import Analysis

CHECKPOINT_TYPES: tuple[type, ...] = (AgentInput, CommentInput, Analysis, Constraint, ServiceSignals, Plan, Passage, Scored, Draft,
                                      Claim, Verdict,
                                      ClaimVerdict)
"""Our types a checkpoint may contain; nothing else is revived from one (strict msgpack allowlist)."""

_closed = with_config(ConfigDict(extra="forbid"))
"""For pydantic (the tests validate real states against these shapes): a key not declared here is an error."""


@_closed
class IntentState(TypedDict, total=False):
    """``state["intent"]``: the router's decision (``IntentResult.to_dict()``); ``{}`` before classification."""

    intent: str
    """The decided intent (``routing/types.PRODUCT_INTENTS``, or a follow-up's intent hint)."""
    confidence: float
    """Calibrated probability in [0, 1]."""
    method: str
    """The tier that decided: rule, fuzzy, semantic, llm, source …"""
    elapsed_ms: float
    """Wall time of the classification (rounded to µs)."""
    reasoning: str
    """A short human-readable reason."""
    candidates: list[list[str | float]]
    """Up to three ``[intent, score]`` pairs, best first."""
    cached: bool
    """The classifier answered from its cache."""
    tiers: list[list[str | float]]
    """``[method, elapsed_ms]`` of every tier the chain ran."""


@_closed
class Citation(TypedDict, total=False):
    """One citation of the turn's answer (``knowledge/answer/pipeline.citations_for``)."""

    n: int
    """The citation mark's number in the reply ([1], [2] …)."""
    source: str
    """The cited document's path in the knowledge base."""
    title: str
    """Its title."""
    quote: str
    """The quoted span, exactly as the document has it."""
    start: int
    """Offset of the quote in the document's text."""
    end: int
    """End offset of the quote."""
    passage_id: str
    """The passage the quote was read from."""
    page: int | None
    """The page (or slide) where that passage starts; None for a document without pages."""
    ocr: bool
    """The page was read by OCR (a reader should check the image)."""


@_closed
class DocumentCitation(TypedDict, total=False):
    """A citation inside a learning document's section (``learning/compose.py``)."""

    n: int
    source: str
    title: str
    section: str
    """The cited passage's section heading in its source."""
    quote: str
    start: int
    end: int
    passage_id: str
    wording: Literal["source", "model"]
    """Whose words the cited line is: the quote's, or a configured model's (checked against the quote)."""


@_closed
class DocumentSection(TypedDict, total=False):
    id: str
    heading: str
    kind: str
    """overview, detail, comparison, notice, path …"""
    markdown: str
    citations: list[DocumentCitation]


@_closed
class DocumentEntity(TypedDict, total=False):
    """A term the document mentions (``learning/entities.py``): a link to its page when there is one."""

    name: str
    type: str
    aliases: list[str]
    sources: list[str]
    mentions: int
    document_id: str | None


@_closed
class DocumentLink(TypedDict):
    """A child document."""

    id: str
    title: str


@_closed
class AnchorMove(TypedDict):
    """A comment whose anchor moved when the document got a new version."""

    comment_id: str
    status: str
    section_id: str | None


@_closed
class PathStep(TypedDict, total=False):
    """One step of a learning path (``learning/planner.py``)."""

    order: int
    topic: str
    title: str
    source: str
    estimated_minutes: int
    prerequisites: list[str]
    reason: str
    learned: bool
    document_id: str | None
    relevance: float


@_closed
class Document(TypedDict, total=False):
    """``state["document"]``: the learning document created, opened or updated this turn (or a learning
    path, ``kind: "learning_path"``) as the client gets it (``graph/nodes/learning.public_document``);
    ``{}`` on other paths."""

    id: str | None
    """None for an ``insufficient`` document that was not stored."""
    title: str
    topic: str
    category_path: str
    parent_id: str | None
    level: str
    status: str
    """ready, generating, insufficient, updated …"""
    version: int
    change_summary: str
    entities: list[DocumentEntity]
    follow_ups: list[str]
    closest_topics: list[str]
    method: str
    """offline, llm or offline_fallback."""
    children: list[DocumentLink]
    anchors: list[AnchorMove]
    sections: list[DocumentSection]
    route: str
    """The learning route that produced it: new_document, navigate, update_current, merge_and_update,
    optimize_section, plan."""
    kind: Literal["learning_path"]
    steps: list[PathStep]
    total_minutes: int


@_closed
class SubtaskResult(TypedDict, total=False):
    """One sub-task the safe-mode loop ran (``graph/nodes/react.run_subtask``)."""

    task: Required[str]
    kind: Required[Literal["email", "tool", "chitchat", "knowledge"]]
    text: Required[str]
    tool: str
    """The service tool a ``tool`` sub-task ran."""
    verdict: str
    """A ``knowledge`` sub-task's verdict level."""
    warnings: list[str]
    citations: list[Citation]
    """A ``knowledge`` sub-task's citations (not kept in :class:`ReactState`)."""


@_closed
class ReactState(TypedDict, total=False):
    """``state["react"]``: what the safe-mode loop did this turn; ``{}`` on other paths."""

    steps: int
    stop_reason: str
    """completed, step limit, time limit, repeated step …"""
    planner: Literal["splitter", "llm"]
    tasks: list[SubtaskResult]


@_closed
class AgentLogEntry(TypedDict, total=False):
    """One step of the turn in ``state["agent_log"]``: ``agent`` and ``action``, then the step's own details
    (flat, as the API's ``agent_log`` and a stored message's trace show them). Every key any step writes is
    declared here; the ones a step does not write are absent."""

    agent: Required[str]
    """intent, router, retriever, reader, fact_checker, chitchat, clarify, learning, react, service."""
    action: Required[str]
    elapsed_ms: float
    """Set by ``graph/trace.traced``: the node's wall time."""
    id: str
    """Set by ``graph/trace.traced``: makes the log's merge idempotent (:func:`log_reducer`)."""
    fallback: bool
    """A configured model failed and the offline path did the step."""
    fallback_reason: str
    reason: str
    error: str
    ok: bool
    status: str | None
    verdict: str
    # router
    intent: str
    method: str
    confidence: float
    path: str
    domain: str
    collections: list[str]
    strategy: str
    top_k: int
    vague: bool
    # retriever
    query: str
    attempt: int
    hits: int
    per_retriever: dict[str, int]
    entities: list[str]
    filtered_by_entity: int
    quality: float
    retrieval_ms: float
    embeddings_pending: int
    # reader
    provider: str
    notes: list[str]
    claims: int
    conflicts: int
    operation: str
    value: str
    sql: str
    table: str
    rows: int
    row: int  # a table cell's row and column, a rule that scaled it, or the clause that answered in its place
    column: str
    rule: str
    override: str
    # fact checker
    level: str
    coverage: float
    needs_human_review: bool
    warnings: list[str]
    replaced_claims: int
    judge: str
    judge_reason: str
    review_id: str
    # chitchat, clarify
    streamed: bool
    options: list[str]
    # learning
    document_id: str | None
    version: int | None
    sections: int
    need: str
    comment_id: str
    anchor: str
    path_id: str | None
    steps: int
    sufficient: bool
    # safe-mode loop
    stop_reason: str
    planner: str
    # service
    tool: str
    by: str
    urgency: str
    sentiment: float
    label: str
    citations: int
    next: str
    pending: str | None


def as_log(entry: Mapping[str, Any]) -> AgentLogEntry:
    """A log entry made outside the graph (the knowledge pipeline's steps) as the typed entry it is."""
    return cast(AgentLogEntry, entry)


def as_citations(citations: Sequence[Mapping[str, Any]]) -> list[Citation]:
    """Citations made by the knowledge pipeline (``citations_for``) as typed citations."""
    return cast("list[Citation]", list(citations))


def as_document(doc: Mapping[str, Any]) -> Document:
    """A learning document from the learning service (a plain dict) as the typed document it is."""
    return cast(Document, doc)


def log_reducer(left: list[AgentLogEntry] | None, right: list[AgentLogEntry] | None) -> list[AgentLogEntry]:
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
    analysis: Analysis
    """What ``question`` says, read once when the turn entered (language, terms, the asked kind, yes/no,
    entities, service signals: :mod:`knowzero.understanding.analysis`); every later step reads it."""
    other_reading: str
    """The question read when the first reading finds no answer: in the documents' other language (English ↔
    Chinese through the lexicon), or a short message the follow-up rules left alone with the thread's
    topic in front (:func:`knowzero.routing.followup.with_context`); "" when there is none or it was read."""
    untranslated: list[str]
    """The translated reading's gaps: the typed question's content words it has no word for (an answer to it
    is never confirmed: :func:`knowzero.knowledge.answer.policy.untranslated`)."""
    reply_language: str
    """The language the turn's message is written in (or the UI's): the reply's, whatever the question was
    translated into for reading the documents."""
    last_question: str
    """The thread's previous question as understood (standalone): what a follow-up is rewritten against."""
    last_path: str
    """The path the thread's previous turn took: a message that continues a knowledge answer ("And individual?")
    stays a question, whatever a document-writing intent it resembles."""
    collections: list[str]
    """The knowledge collections the thread is limited to: set by an input that names some, kept for the
    thread's later turns; empty: the team's own documents (the demo only while it is all there is)."""
    intent: IntentState
    """The router's decision for this turn: intent, confidence, method, elapsed_ms, reasoning …"""
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
    citations: list[Citation]
    """Citations of the final answer: n, source, title, quote, start, end …"""
    reply: str
    """The text the user sees for this turn."""
    document: Document
    """Learning: the document created or updated this turn."""
    service: ServiceState
    """Service: pending action, slots, triage, handoff state (kept across turns; every key in ``service/state.py``)."""
    react: ReactState
    """Safe-mode loop: steps taken, sub-tasks, stop reason."""
    quick_replies: list[str]
    """Buttons the client may offer for this turn's reply (a pending step's options, interpretations)."""
    agent_log: Annotated[list[AgentLogEntry], log_reducer]
    """One entry per node run this turn: {agent, action, elapsed_ms, ...}. An update of None (the
    normaliser's) starts the turn's log afresh (:func:`log_reducer`)."""


class OutputState(TypedDict, total=False):
    reply: str
    intent: IntentState
    path: str
    domain: str
    verdict: Verdict | None
    citations: list[Citation]
    passages: tuple[Scored, ...]
    document: Document
    service: ServiceState
    agent_log: list[AgentLogEntry]


class KnowledgeOutput(OutputState, total=False):
    """What the knowledge subgraph hands back to the whole graph: the turn's output and the thread's topic when the
    answer names one (a who-question's person: the next turn's "he")."""

    topic: str


def wire_values(values: Mapping[str, Any]) -> dict[str, Any]:
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
