"""End of every turn: record the assistant's reply in the thread's messages."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from knowzero.graph.context import Deps


async def finish_turn(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    from knowzero.service.turn_end import end_turn  # preferences (store) + review queue

    reply = await end_turn(state, runtime, state.get("reply") or "")
    meta = {"intent": (state.get("intent") or {}).get("intent"), "path": state.get("path"),
            "verdict": (state.get("verdict") or {}).get("level"), "citations": state.get("citations") or []}
    return {"reply": reply, "messages": [AIMessage(content=reply, additional_kwargs={"knowzero": meta})]}
