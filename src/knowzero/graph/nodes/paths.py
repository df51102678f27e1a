"""Path decision: intent → path, emitted as an event with the reason."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.trace import emit

LEARNING_INTENTS = ("new_topic", "follow_up", "comparison", "optimize_content", "navigate", "plan")
PATH_BY_INTENT = {"knowledge": "knowledge", "realtime": "tools", "action": "tools", "chitchat": "chitchat",
                  "clarify": "clarify", "mixed": "react", **{i: "learning" for i in LEARNING_INTENTS}}


def choose_path(intent: dict[str, Any], threshold: float, service_pending: bool = False) -> tuple[str, str]:
    name = intent.get("intent", "clarify")
    conf = float(intent.get("confidence", 0.0))
    if service_pending and name not in ("chitchat",) and intent.get("method") != "source":
        return "tools", "a service action is waiting for details from the user"
    if intent.get("method") == "source":
        return PATH_BY_INTENT.get(name, "learning"), f"input source maps to {name}"
    if name == "mixed":
        return "react", "several tasks in one message"
    if conf < threshold and name != "clarify":
        return "react", f"confidence {conf:.2f} below {threshold}"
    return PATH_BY_INTENT.get(name, "react"), f"{name} ({conf:.2f})"


async def decide_path(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    intent = state.get("intent") or {}
    pending = bool((state.get("service") or {}).get("pending"))
    path, reason = choose_path(intent, runtime.context.settings.route_threshold, pending)
    if path != "tools" and intent.get("method") != "source":
        from knowzero.service.flow import service_signal  # triage, handoff, "算了"/"确认" on a pending action

        signal = service_signal(state.get("question", ""), state.get("service"), path)
        if signal:
            path, reason = "tools", signal
    emit("path_decision", path=path, intent=intent.get("intent"), reason=reason)
    return {"path": path, "agent_log": [{"agent": "router", "action": "path", "path": path, "reason": reason}]}
