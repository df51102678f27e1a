"""Answer one question with the knowledge graph alone (CLI ``ask``, benchmarks, learning)."""

from __future__ import annotations

import asyncio
import time
from functools import lru_cache
from typing import Any

from knowzero.graph.context import Deps


@lru_cache(maxsize=1)
def knowledge_app():  # type: ignore[no-untyped-def]
    from knowzero.graph.builder import build_knowledge_graph

    return build_knowledge_graph().compile()


async def aanswer(question: str, deps: Deps) -> dict[str, Any]:
    t0 = time.perf_counter()
    out = await knowledge_app().ainvoke({"question": question, "input": {"source": "chat", "message": question}},
                                        context=deps)
    out["elapsed_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    return out


def answer(question: str, deps: Deps) -> dict[str, Any]:
    return asyncio.run(aanswer(question, deps))


def to_public(question: str, out: dict[str, Any]) -> dict[str, Any]:
    """The ``knowzero ask --json`` shape."""
    verdict = out.get("verdict") or {}
    return {"question": question, "answer": out.get("reply", ""), "verdict": verdict.get("level", "insufficient"),
            "verdict_reason": verdict.get("reason", ""), "needs_human_review": bool(verdict.get("needs_human_review")),
            "citations": [{k: c[k] for k in ("source", "title", "quote", "start", "end")} for c in out.get("citations", [])],
            "domain": out.get("domain", ""), "elapsed_ms": out.get("elapsed_ms", 0.0),
            "agent_log": out.get("agent_log", [])}
