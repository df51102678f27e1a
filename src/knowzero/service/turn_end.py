"""End-of-turn service duties, called by the ``finish`` node for every path:

1. remember explicit preferences/facts the user stated this turn (cross-thread store);
2. shape the reply by the user's stored preferences (``apply_preferences``) and acknowledge new ones;
3. put ``uncertain``/``contradicted`` knowledge answers that need a human in the review queue.

Each duty fails soft: a store or database problem is reported as a ``reasoning`` event and the
reply goes out unchanged. It never changes routing and never talks to an LLM.
"""

from __future__ import annotations

from typing import Any

from knowzero.graph.trace import emit
from knowzero.service.preferences import (
    acknowledgement,
    apply_preferences,
    detect_preferences,
    get_preferences,
    remember,
    reply_language,
)


async def end_turn(state: dict[str, Any], runtime: Any, reply: str) -> str:
    """The reply to send, after preferences and the review queue have been handled."""
    deps = runtime.context
    user = deps.user
    question = state.get("question") or ""
    store = getattr(runtime, "store", None)
    try:
        prefs = await get_preferences(store, user.id)
        found = detect_preferences(question) if (state.get("input") or {}).get("source", "chat") == "chat" else {}
        if found and store is not None and user.id != "anonymous":
            prefs = await remember(store, user.id, found)
            emit("reasoning", text=f"remembered preferences: {sorted(found)}")
        reply = apply_preferences(reply, prefs)
        if found and user.id != "anonymous" and store is not None:
            ack = acknowledgement(found, reply_language(prefs, question))
            reply = f"{reply}\n{ack}" if reply else ack
    except Exception as exc:  # preferences are a nicety: never fail the turn for them
        emit("reasoning", text=f"preferences unavailable ({type(exc).__name__})")
    verdict = state.get("verdict") or {}
    if verdict.get("needs_human_review") and verdict.get("level") in ("uncertain", "contradicted"):
        try:
            from knowzero.graph.nodes.tools import thread_id_of
            from knowzero.service.store import store_for

            evidence = [{k: c.get(k) for k in ("source", "title", "quote", "start", "end")}
                        for c in (state.get("citations") or [])]
            item = store_for(deps.settings).enqueue_review(
                thread_id=thread_id_of(state), user_id=user.id, question=question, answer=state.get("reply") or "",
                verdict=verdict["level"], evidence=evidence)
            emit("human_review_request", kind="answer_review", review_id=item["id"], verdict=verdict["level"],
                 question=question)
        except Exception as exc:
            emit("reasoning", text=f"review queue unavailable ({type(exc).__name__})")
    return reply
