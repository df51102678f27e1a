"""Retriever agent: hybrid search with fusion, entity filter and budget; rewrites poor queries."""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.trace import emit
from knowzero.knowledge.retriever import Plan, evidence_quality, retrieve, rewrite


def passage_dict(s: Any) -> dict[str, Any]:
    p = s.passage
    return {"id": p.id, "source": p.path, "title": p.title, "section": p.section, "text": p.text, "start": p.start,
            "end": p.end, "domain": p.domain, "score": round(s.score, 5),
            "contributions": {k: round(v, 5) for k, v in s.contributions.items()}}


async def retrieve_passages(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = runtime.context
    kb = deps.knowledge_base()
    question = state.get("question", "")
    attempts = state.get("attempts", 0)
    plan = Plan(**{**state.get("plan", {}), "collections": tuple(state.get("plan", {}).get("collections", ()))})
    query, reason = state.get("query") or question, "first attempt"
    if attempts > 0:
        query, plan, reason = rewrite(kb, question, plan, attempts)
        emit("reasoning", text=f"evidence was poor; retry {attempts}: {reason}")
    r = await asyncio.to_thread(retrieve, kb, query, plan, budget_chars=deps.settings.context_budget_chars)
    quality = evidence_quality(kb, question, r)
    passages = [passage_dict(s) for s in r.passages]
    emit("retrieval", sources=[{k: v for k, v in p.items() if k != "text"} | {"snippet": p["text"][:160]}
                               for p in passages], query=query, attempt=attempts + 1)
    return {"passages": passages, "quality": round(quality, 4), "attempts": attempts + 1, "query": query,
            "plan": {**state.get("plan", {}), "strategy": plan.strategy, "top_k": plan.top_k,
                     "restrict_domain": plan.restrict_domain, "collections": list(plan.collections)},
            "agent_log": [{"agent": "retriever", "action": "retrieve" if attempts == 0 else "rewrite_and_retrieve",
                           "query": query, "reason": reason, "attempt": attempts + 1, "hits": len(passages),
                           "per_retriever": r.per_retriever, "entities": r.entities,
                           "filtered_by_entity": r.filtered_out, "quality": round(quality, 3),
                           "retrieval_ms": round(r.elapsed_ms, 2)}]}
