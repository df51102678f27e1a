"""Reader agent: an answer with one citation per claim (extractive offline, LLM when configured)."""

from __future__ import annotations

import asyncio
from dataclasses import asdict
from typing import Any

from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.knowledge.reader import extractive_read, llm_read
from knowzero.knowledge.types import Passage, Scored


def to_scored(passages: list[dict[str, Any]]) -> list[Scored]:
    return [Scored(Passage(p["id"], p["source"], p["title"], p["section"], p["text"], p["start"], p["end"],
                           p.get("domain", "general"), p.get("collection", "")), p.get("score", 0.0))
            for p in passages]


async def read_answer(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    deps = runtime.context
    kb = deps.knowledge_base()
    question = state.get("question", "")
    scored = to_scored(state.get("passages", []))
    log: dict[str, Any] = {"agent": "reader", "action": "extract"}
    draft = None
    if deps.provider is not None and scored:
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in question)
        try:
            draft = await asyncio.to_thread(llm_read, deps.provider, question, scored,
                                            language_hint="Answer in Chinese." if zh else "Answer in English.")
            log = {"agent": "reader", "action": "generate", "provider": deps.provider.name, "notes": draft.notes}
        except ProviderError as exc:
            log = {"agent": "reader", "action": "extract", "fallback": True, "fallback_reason": exc.message}
    if draft is None:
        draft = extractive_read(question, scored, kb.keyword.term_idf)
    log["claims"] = len(draft.claims)
    log["conflicts"] = len(draft.conflicts)
    return {"draft": {"answer": draft.answer, "method": draft.method, "conflicts": draft.conflicts,
                      "notes": draft.notes, "claims": [asdict(c) for c in draft.claims]},
            "agent_log": [log]}
