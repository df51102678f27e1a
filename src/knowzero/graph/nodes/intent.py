"""Front of every turn: normalise the input (history, pronouns) and classify the intent."""

from __future__ import annotations

import asyncio
import re
from typing import Any, cast

from langchain_core.messages import HumanMessage, RemoveMessage
from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.graph.state import AgentLogEntry, IntentState, State
from knowzero.graph.trace import emit
from knowzero.input import AgentInput
from knowzero.knowledge.answer.pipeline import Readings, readings, scoped_by_question
from knowzero.knowledge.index.entities import first_mention
from knowzero.llm.base import within_deadline
from knowzero.routing.classifier import LLM_UNAVAILABLE, classify_source, unavailable_reason
from knowzero.routing.followup import Kinds, standalone, topic_of, with_context
from knowzero.routing.signals import service_signals
from knowzero.routing.types import IntentResult
from knowzero.streaming import llm_fallback
from knowzero.understanding.analysis import analyse
from knowzero.vocabulary.questions import NEW_TOPIC

_PRONOUN = re.compile(r"^(它|他|她|这个|那个|该|其|这|那)(?=[和与跟比的是有怎能可在呢吗])|^(it|this|that)\b", re.I)
_HAN = re.compile(r"[\u3400-\u9fff]")
_TOPIC = re.compile(r"(?:我想学(?:习)?|什么是|介绍一下|讲讲|学习|了解一下|teach me|what is|explain)\s*([^\s？?。，,]{2,30})", re.I)

PER_TURN_RESET: State = {"other_reading": "", "untranslated": [], "intent": {}, "path": "", "domain": "", "plan": None, "query": "", "attempts": 0,
                          "passages": (), "quality": 0.0, "draft": None, "verdict": None, "citations": [],
                          "reply": "", "document": {}, "react": {}, "quick_replies": []}


def resolve_pronouns(text: str, topic: str) -> str:
    """'它和 AutoGen 比呢？' with topic 'LangGraph' → 'LangGraph和 AutoGen 比呢？'."""
    if not topic:
        return text
    m = _PRONOUN.search(text.strip())
    if not m:
        return text
    return topic + text.strip()[m.end():]


def extract_topic(text: str) -> str:
    """What a message is about, for later pronouns: a learning topic, else the first named item."""
    m = _TOPIC.search(text)
    if m:
        return m.group(1).strip("的了吗呢")
    return first_mention(text)


def _order_in(text: str) -> str:
    """The order a message names, as a subject a later "它" stands for ("订单123", "order 123"), else ""."""
    ids = service_signals(text).order_ids
    if not ids:
        return ""
    return f"订单{ids[-1]}" if _HAN.search(text) else f"order {ids[-1]}"


def _summarise(messages: list[Any], old_summary: str, keep: int) -> tuple[str, list[Any]]:
    """Running summary of messages beyond ``keep``; returns (summary, messages to remove)."""
    if len(messages) <= keep:
        return old_summary, []
    drop = messages[: len(messages) - keep]
    lines = []
    for m in drop:
        role = "用户" if m.type == "human" else "助手"
        content = m.content if isinstance(m.content, str) else str(m.content)
        lines.append(f"{role}: {content[:80]}")
    summary = (old_summary + "\n" if old_summary else "") + "\n".join(lines)
    return summary[-2000:], [RemoveMessage(id=m.id) for m in drop if m.id]


async def normalize_input(state: State, runtime: Runtime[Deps]) -> State:
    """Resolve pronouns, trim the history into a running summary, and reset the per-turn fields.
    The input was validated where it entered (``AgentInput.at_edge``)."""
    inp: AgentInput = state["input"]
    text = inp.text()
    topic = state.get("topic", "")
    previous = state.get("last_question", "")
    question = text
    context = ""
    gaps: tuple[str, ...] = ()
    if inp.source in ("chat", "follow_up"):
        question = standalone(text, previous, topic, _kinds(runtime.context, inp, state)) if previous \
            else resolve_pronouns(text, topic)
        if previous and question == text:  # not rewritten: the thread's topic in front is the other reading
            context = with_context(text, previous, topic)
    # a question that stands alone sets the thread's topic; a follow-up keeps it (它 two turns later is still
    # the microscope, not "the microscope's owner"; "每次至少要休息多久？" names no topic of its own)
    new_topic = (_order_in(question) or extract_topic(question) or (inp.entity if inp.source == "entity" else "")
                 or (inp.topic or "") or (topic_of(question) if question == text and not context else "")
                 or ("" if NEW_TOPIC.match(text) else topic))  # "换个问题：…" leaves the old topic behind
    summary, removals = _summarise(list(state.get("messages") or []), state.get("summary", ""),
                                   runtime.context.settings.history_trim_messages)
    out: State = {**PER_TURN_RESET, "question": question, "topic": new_topic, "summary": summary,
                  "last_path": state.get("path", ""),  # the previous turn's (a continuation keeps to it)
                  "messages": [*removals, HumanMessage(content=text or inp.source)]}
    out["agent_log"] = None  # type: ignore[typeddict-item]  # None starts the turn's log afresh (log_reducer)
    if inp.collections is not None:  # [] clears the thread's choice
        out["collections"] = list(dict.fromkeys(inp.collections))
    if inp.source in ("chat", "follow_up"):
        out["last_question"] = question
        first, other, missed = await asyncio.to_thread(_readings, question, state, runtime.context, inp)
        out["other_reading"] = other or context
        out["untranslated"] = list(missed)  # the translation's gaps, whether it is read first or second
        if first != question:
            question = out["question"] = first  # the documents' language for reading and checking
            gaps = missed
    out["reply_language"] = inp.reply_language(text)
    out["analysis"] = analyse(question, typed=text, untranslated=gaps)  # the one reading every later step uses
    if question != text:
        zh = out["reply_language"] == "zh"
        how = "follow_up" if out.get("last_question", text) != text else "translation"
        emit("reasoning", text=("理解为：" if zh else "Understood as: ") + question, understood=how)
    return out


def _kinds(deps: Deps, inp: AgentInput, state: State) -> Kinds | None:
    """The thread's tables as names of one kind, for a follow-up's swap (:data:`knowzero.routing.followup.Kinds`)."""
    kb = deps.kb
    if kb is None:
        return None
    collections = tuple(_thread_collections(inp, state) or ())
    return lambda phrase: kb.same_kind(phrase, collections)


def _thread_collections(inp: AgentInput, state: State) -> list[str] | None:
    """The collections this turn searches: the request's choice, else the thread's (None: none chosen)."""
    return inp.collections if inp.collections is not None else state.get("collections")


def _readings(question: str, state: State, deps: Deps, inp: AgentInput) -> Readings:
    """The question to read first and its other reading (:func:`knowzero.knowledge.answer.pipeline.readings`)."""
    if deps.kb is None:
        return Readings(question)
    sig = service_signals(question)
    if (sig.entity or sig.human or sig.account or sig.bare_answer) and not sig.asks_rules:
        return Readings(question)  # a service request ("I'd like a refund…") is served as typed, never translated
    kdeps = scoped_by_question(deps.scoped(_thread_collections(inp, state)).knowledge(), analyse(question))
    return readings(question, kdeps, deps.lexicon)


def _result_dict(r: IntentResult) -> IntentState:
    d = cast(IntentState, r.to_dict())
    d["elapsed_ms"] = round(float(d.get("elapsed_ms", 0.0)), 3)
    return d


async def _classify_chat(deps: Deps, question: str) -> IntentResult:
    """The tiered router; the LLM tier runs only with a configured provider, within the deadline."""
    clf = deps.need_classifier()
    if deps.provider is None:
        return await asyncio.to_thread(clf.classify, question)
    try:
        result = await within_deadline(clf.classify, question, deps.provider, deadline_s=deps.settings.llm_timeout_s)
    except ProviderError as exc:
        llm_fallback(emit, "intent", exc.message, "the offline tiers")
        return await asyncio.to_thread(clf.classify, question)
    if (why := unavailable_reason(result.reasoning)) is not None:
        llm_fallback(emit, "intent", why, "the offline tiers")
    return result


async def classify_intent(state: State, runtime: Runtime[Deps]) -> State:
    deps = runtime.context
    inp: AgentInput = state["input"]
    source = inp.source
    if source == "chat":
        # routed as the asker wrote it (a follow-up made standalone), never as its translation for reading: a
        # term-by-term Chinese reading of an English question ("月度基础学生智能什么？") can look like a plan request
        result = await _classify_chat(deps, state.get("last_question") or state.get("question", ""))
    else:
        has_page = None
        if source == "entity" and deps.learning is not None:
            has_page = deps.learning.entity_page(inp.entity or "", deps.user.id) is not None
        result = classify_source(source, has_page)
    d = _result_dict(result)
    if source == "follow_up" and inp.intent_hint:
        d["intent"] = inp.intent_hint
        d["reasoning"] = f"the suggested question carries the intent hint {inp.intent_hint}"
    emit("intent_classified", intent=d["intent"], confidence=d["confidence"], method=d["method"],
         elapsed_ms=d["elapsed_ms"], reasoning=d.get("reasoning", ""))
    log: AgentLogEntry = {"agent": "intent", "action": "classify", "intent": d["intent"], "method": d["method"],
                          "confidence": d["confidence"]}
    if LLM_UNAVAILABLE in d.get("reasoning", ""):
        log["fallback"] = True
    return {"intent": d, "agent_log": [log]}
