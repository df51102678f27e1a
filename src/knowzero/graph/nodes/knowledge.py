"""The four knowledge agents — router, retriever, reader, fact checker — as thin adapters over the
steps of :mod:`knowzero.knowledge.answer.pipeline` (the one answerer). They translate state to the
pipeline's types and back; no knowledge logic lives here."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.state import State, as_citations, as_log
from knowzero.graph.trace import analysis_of, collections_of, emit, thread_id_of, ui_language_of
from knowzero.input import message_language
from knowzero.knowledge.answer import pipeline as kp
from knowzero.knowledge.answer.reader import Draft
from knowzero.knowledge.answer.reply import answered_name
from knowzero.knowledge.answer.retriever import Plan
from knowzero.understanding.analysis import analyse


def _kdeps(runtime: Runtime[Deps], state: State) -> kp.KnowledgeDeps:
    deps = runtime.context.scoped(collections_of(state)).knowledge(emit, ui_language_of(state))
    # the asker's language: a computed or looked-up lead of a translated question is worded in it
    deps = replace(deps, reply_language=state.get("reply_language") or None)
    return kp.scoped_by_question(deps, analysis_of(state))


async def route_domain(state: State, runtime: Runtime[Deps]) -> State:
    question = state.get("question", "")
    r = await kp.route_question(question, _kdeps(runtime, state))
    out: State = {"domain": r.domain, "plan": r.plan, "query": question, "attempts": 0, "agent_log": [as_log(r.log)]}
    if r.vague:
        out.update({"reply": kp.clarification(question, ui_language_of(state)), "verdict": kp.VAGUE_VERDICT,
                    "path": "clarify"})
    return out


async def retrieve_passages(state: State, runtime: Runtime[Deps]) -> State:
    plan = state.get("plan") or Plan()
    ev, logs = await asyncio.to_thread(kp.gather_until_good, state.get("question", ""), plan, _kdeps(runtime, state))
    return {"passages": ev.passages, "quality": ev.quality, "attempts": ev.attempts, "query": ev.query,
            "plan": ev.plan, "agent_log": [as_log(log) for log in logs]}


async def read_answer(state: State, runtime: Runtime[Deps]) -> State:
    draft, log = await kp.read_evidence(state.get("question", ""), state.get("passages") or (), _kdeps(runtime, state),
                                        analysis_of(state))
    return {"draft": draft, "agent_log": [as_log(log)]}


async def check_answer(state: State, runtime: Runtime[Deps]) -> State:
    question = state.get("question", "")
    draft = state.get("draft") or Draft("", [])
    verdict, shown, log = await kp.check_answer(question, draft, state.get("passages") or (), _kdeps(runtime, state),
                                                analysis_of(state))
    kb = _kdeps(runtime, state).kb
    out: State = {"verdict": verdict, "citations": as_citations(kp.citations_for(shown, verdict, kb.passage, kb.page_of)),
                  "draft": shown,
                  "reply": kp.compose_reply(question, shown, verdict, ui_language_of(state), state.get("reply_language"),
                                            kp.edition_notes(_kdeps(runtime, state).kb, shown)
                                            if verdict.level != "insufficient" else (), analysis_of(state)),
                  "agent_log": [as_log(log)]}
    if name := answered_name(analysis_of(state), shown, verdict):
        out["topic"] = name  # "who has the most experience?" answered by 郭大鹏: the thread's next "he" is him
    return out


def _typed(state: State) -> str:
    """What the user typed this turn (the other reading is a translation of it, never what was typed)."""
    a = analysis_of(state)
    return a.typed or a.text


async def reread(state: State, runtime: Runtime[Deps]) -> State:
    """The first reading found no answer: read the question's other reading afresh (its other language, or
    the message with the thread's topic in front)."""
    other = state.get("other_reading", "")
    zh = state.get("reply_language") == "zh"
    how = "translation" if message_language(other) != message_language(_typed(state)) else "follow_up"
    emit("reasoning", text=("理解为：" if zh else "Understood as: ") + other, understood=how)
    out: State = {"last_question": other} if how == "follow_up" else {}  # the next follow-up builds on it
    gaps = (state.get("untranslated") or []) if how == "translation" else []
    return {**out, "question": other,
            "analysis": analyse(other, typed=_typed(state), untranslated=gaps, in_context=how == "follow_up"),
            "other_reading": "",
            "attempts": 0, "passages": (), "quality": 0.0, "draft": None, "verdict": None, "citations": [], "query": other}


async def queue_review(state: State, runtime: Runtime[Deps]) -> State:
    """An answer the checker did not confirm and that needs a human goes to the review queue."""
    verdict = state.get("verdict")
    if verdict is None or not (verdict.needs_human_review and verdict.level in ("uncertain", "contradicted")):
        return {}
    deps = runtime.context
    if deps.store is None:
        return {}
    try:
        evidence = [{"source": c.get("source"), "title": c.get("title"), "quote": c.get("quote"),
                     "start": c.get("start"), "end": c.get("end")} for c in (state.get("citations") or [])]
        item = await asyncio.to_thread(deps.store.enqueue_review, thread_id=thread_id_of(state), user_id=deps.user.id,
                                       question=state.get("question") or "", answer=state.get("reply") or "",
                                       verdict=verdict.level, evidence=evidence)
    except Exception as exc:  # the queue is for people: never fail the answer for it
        emit("reasoning", text=f"review queue unavailable ({type(exc).__name__})")
        return {"agent_log": [{"agent": "fact_checker", "action": "queue_review", "ok": False,
                               "error": type(exc).__name__}]}
    emit("human_review_request", kind="answer_review", review_id=item["id"], verdict=verdict.level,
         question=state.get("question") or "")
    return {"agent_log": [{"agent": "fact_checker", "action": "queue_review", "ok": True, "review_id": item["id"]}]}
