"""The four knowledge agents — router, retriever, reader, fact checker — as thin adapters over the
steps of :mod:`knowzero.knowledge.pipeline` (the one answerer). They translate state to the
pipeline's types and back; no knowledge logic lives here."""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.trace import emit, thread_id_of
from knowzero.knowledge import pipeline as kp
from knowzero.knowledge.retriever import Plan


def _kdeps(runtime: Runtime[Deps]) -> kp.KnowledgeDeps:
    return runtime.context.knowledge(emit)


def plan_to_dict(plan: Plan) -> dict[str, Any]:
    return {"domain": plan.domain, "collections": list(plan.collections), "strategy": plan.strategy,
            "top_k": plan.top_k, "weights": dict(plan.weights), "restrict_domain": plan.restrict_domain}


def plan_from_dict(d: dict[str, Any]) -> Plan:
    return Plan(domain=d.get("domain", "general"), collections=tuple(d.get("collections") or ()),
                restrict_domain=bool(d.get("restrict_domain")), strategy=d.get("strategy", "hybrid"),
                top_k=int(d.get("top_k", 5)), weights=dict(d.get("weights") or {}))


async def route_domain(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    question = state.get("question", "")
    r = await kp.route_question(question, _kdeps(runtime))
    out: dict[str, Any] = {"domain": r.domain, "plan": plan_to_dict(r.plan), "query": question, "attempts": 0,
                           "agent_log": [r.log]}
    if r.vague:
        out.update(reply=kp.clarification(question), verdict=kp.VAGUE_VERDICT.to_dict(), path="clarify")
    return out


async def retrieve_passages(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    ev = await asyncio.to_thread(kp.gather_evidence, state.get("question", ""), plan_from_dict(state.get("plan") or {}),
                                 state.get("attempts", 0), _kdeps(runtime))
    return {"passages": [kp.passage_to_dict(s) for s in ev.passages], "quality": ev.quality, "attempts": ev.attempts,
            "query": ev.query, "plan": plan_to_dict(ev.plan), "agent_log": [ev.log]}


async def read_answer(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    passages = [kp.passage_from_dict(p) for p in state.get("passages") or []]
    draft, log = await kp.read_evidence(state.get("question", ""), passages, _kdeps(runtime))
    return {"draft": kp.draft_to_dict(draft), "agent_log": [log]}


async def check_answer(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    question = state.get("question", "")
    passages = [kp.passage_from_dict(p) for p in state.get("passages") or []]
    draft = kp.draft_from_dict(state.get("draft") or {})
    verdict, shown, log = await kp.check_answer(question, draft, passages, _kdeps(runtime))
    return {"verdict": verdict.to_dict(), "citations": kp.citations_for(shown, verdict), "draft": kp.draft_to_dict(shown),
            "reply": kp.compose_reply(question, shown, verdict), "agent_log": [log]}


async def queue_review(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    """An answer the checker did not confirm and that needs a human goes to the review queue."""
    verdict = state.get("verdict") or {}
    if not (verdict.get("needs_human_review") and verdict.get("level") in ("uncertain", "contradicted")):
        return {}
    deps = runtime.context
    if deps.store is None:
        return {}
    try:
        evidence = [{k: c.get(k) for k in ("source", "title", "quote", "start", "end")}
                    for c in (state.get("citations") or [])]
        item = await asyncio.to_thread(deps.store.enqueue_review, thread_id=thread_id_of(state), user_id=deps.user.id,
                                       question=state.get("question") or "", answer=state.get("reply") or "",
                                       verdict=verdict["level"], evidence=evidence)
    except Exception as exc:  # the queue is for people: never fail the answer for it
        emit("reasoning", text=f"review queue unavailable ({type(exc).__name__})")
        return {"agent_log": [{"agent": "fact_checker", "action": "queue_review", "ok": False,
                               "error": type(exc).__name__}]}
    emit("human_review_request", kind="answer_review", review_id=item["id"], verdict=verdict["level"],
         question=state.get("question") or "")
    return {"agent_log": [{"agent": "fact_checker", "action": "queue_review", "ok": True, "review_id": item["id"]}]}
