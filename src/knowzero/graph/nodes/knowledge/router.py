"""Knowledge router agent: question → domain → collections, strategy and top-k (or ask back)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.trace import emit
from knowzero.knowledge.domains import decide


async def route_domain(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = runtime.context
    question = state.get("question") or state.get("input", {}).get("message", "")
    kb = deps.knowledge_base()
    d = decide(question, provider=deps.provider, sql_available=kb.sql is not None)
    weights = deps.settings.fusion_weights.get(d.domain, {})
    requested = list(deps.extras.get("collections") or [])
    plan = {"domain": d.domain, "collections": requested or list(d.collections), "strategy": d.strategy, "top_k": d.top_k,
            "weights": weights, "restrict_domain": d.method == "rule" and d.confidence >= 0.9
            and bool(kb.domains.get(d.domain))}
    emit("reasoning", text=f"domain {d.domain} ({d.method}, {d.confidence:.2f}): {d.reasoning}")
    out: dict[str, Any] = {"domain": d.domain, "plan": plan, "query": question, "attempts": 0,
                           "agent_log": [{"agent": "router", "action": "route", "domain": d.domain,
                                          "method": d.method, "confidence": d.confidence,
                                          "strategy": d.strategy, "top_k": d.top_k, "vague": d.vague}]}
    if d.vague:
        lang_zh = any("\u4e00" <= ch <= "\u9fff" for ch in question)
        out["reply"] = ("您指的是哪一方面？例如：报销/请假等人事制度、零件工艺与公差、产品规格与价格、安全质量政策，或办公室联系方式？"
                        if lang_zh else "Which topic do you mean: HR rules, part processes and tolerances, product "
                        "specs and prices, safety/quality policies, or office contacts?")
        out["verdict"] = {"level": "insufficient", "reason": "the question is too vague to route",
                          "needs_human_review": False, "claims": [], "coverage": 0.0}
        out["path"] = "clarify"
    return out
