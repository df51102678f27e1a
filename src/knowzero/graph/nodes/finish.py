"""End of every turn: the user's stated preferences, then the reply joins the thread's messages
(unless it is already the last one: a prompt stored when the thread paused at an interrupt).

Preferences (``knowzero.preferences``) are explicit statements only ("以后回答简短一点", "reply in
English"): they are remembered across threads for signed-in users and shape the reply. A store
problem is reported as a ``reasoning`` event and the reply goes out unchanged. No path's own work
happens here (the review queue is the knowledge path's ``queue_review`` node).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.trace import emit
from knowzero.preferences import (
    acknowledgement,
    apply_preferences,
    detect_preferences,
    get_preferences,
    remember,
    reply_language,
)
from knowzero.users import is_ephemeral


async def _with_preferences(state: dict[str, Any], runtime: Runtime[Deps], reply: str) -> str:
    user = runtime.context.user
    question = state.get("question") or ""
    store = runtime.store
    anonymous = user.id == "anonymous" or is_ephemeral(user)  # nobody to remember them for
    try:
        prefs = {} if anonymous else await get_preferences(store, user.id)
        found = detect_preferences(question) if (state.get("input") or {}).get("source", "chat") == "chat" else {}
        if found and store is not None and not anonymous:
            prefs = await remember(store, user.id, found)
            emit("reasoning", text=f"remembered preferences: {sorted(found)}")
        reply = apply_preferences(reply, prefs)
        if found and store is not None and not anonymous:
            ack = acknowledgement(found, reply_language(prefs, question))
            reply = f"{reply}\n{ack}" if reply else ack
    except Exception as exc:  # preferences are a nicety: never fail the turn for them
        emit("reasoning", text=f"preferences unavailable ({type(exc).__name__})")
    return reply


async def finish_turn(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    reply = await _with_preferences(state, runtime, state.get("reply") or "")
    meta = {"intent": (state.get("intent") or {}).get("intent"), "path": state.get("path"),
            "verdict": (state.get("verdict") or {}).get("level"), "citations": state.get("citations") or []}
    last = (state.get("messages") or [None])[-1]
    if isinstance(last, AIMessage) and last.content == reply:
        return {"reply": reply}  # stored when the thread paused at an interrupt and nothing new was said
    return {"reply": reply, "messages": [AIMessage(content=reply, additional_kwargs={"knowzero": meta})]}
