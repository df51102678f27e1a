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
from knowzero.graph.state import State
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


async def _with_preferences(state: State, runtime: Runtime[Deps], reply: str) -> str:
    user = runtime.context.user
    question = state.get("question") or ""
    store = runtime.store
    anonymous = user.id == "anonymous" or is_ephemeral(user)  # nobody to remember them for
    try:
        prefs = {} if anonymous else await get_preferences(store, user.id)
        inp = state.get("input")
        found = detect_preferences(question) if inp is None or inp.source == "chat" else {}
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


def _compact_trace(state: State) -> list[dict[str, Any]]:
    """This turn's steps (router decision, then each agent's action), small enough to keep with the
    message so a reloaded thread still shows how the answer came about."""
    out: list[dict[str, Any]] = []
    intent = state.get("intent") or {}
    if intent.get("intent"):
        out.append({"agent": "router", "action": str(intent.get("intent")), "method": intent.get("method"),
                    "confidence": intent.get("confidence")})
    for e in (state.get("agent_log") or [])[:30]:
        if isinstance(e, dict):
            out.append({k: v for k, v in e.items() if k != "id" and isinstance(v, (str, int, float, bool)) and
                        (not isinstance(v, str) or len(v) <= 200)})
    return out


async def finish_turn(state: State, runtime: Runtime[Deps]) -> State:
    reply = await _with_preferences(state, runtime, state.get("reply") or "")
    verdict = state.get("verdict")
    meta = {"intent": (state.get("intent") or {}).get("intent"), "path": state.get("path"),
            "verdict": verdict.level if verdict is not None else None, "citations": state.get("citations") or [],
            "trace": _compact_trace(state)}
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    if isinstance(last, AIMessage) and last.content == reply:
        return {"reply": reply}  # stored when the thread paused at an interrupt and nothing new was said
    return {"reply": reply, "messages": [AIMessage(content=reply, additional_kwargs={"knowzero": meta})]}
