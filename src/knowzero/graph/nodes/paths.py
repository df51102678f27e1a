"""Path decision: intent + explicit service signals → path, emitted as an event with the reason.

The service path is chosen only on explicit evidence (see ``routing/signals.py``):
1. a service stage pending in this thread (a human has it, an action waits for details or a
   confirmation) — unless the rule tier recognised a greeting or thanks ("123" answers the
   pending question whatever a statistical tier guessed);
2. a service intent from the rule tier (keywords the routing data lists);
3. a service intent from a statistical tier (fuzzy, semantic, LLM) backed by a service signal
   (an order/ticket/refund id, a request for a person, words about the user's own account);
4. a request for a person, or a complaint about the service, whatever the intent (triage decides
   on a handoff);
5. a turn naming an order/ticket/refund id when the router was unsure;
6. a bare confirmation or cancellation ("确认", "算了", a left-over quick reply) with nothing
   pending: the service path says there is nothing to confirm (not a knowledge question).
Otherwise a service-looking question goes to the knowledge path, which answers or abstains.
No service code runs here: the signals are recognised by the router's own module.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.state import IntentState, State
from knowzero.graph.trace import analysis_of, emit
from knowzero.routing.followup import continues_answer
from knowzero.routing.signals import ServiceSignals
from knowzero.service.state import ServiceState

LEARNING_INTENTS = ("new_topic", "follow_up", "comparison", "optimize_content", "navigate", "plan")
SERVICE_INTENTS = ("realtime", "action")
PATH_BY_INTENT = {"knowledge": "knowledge", "chitchat": "chitchat", "clarify": "clarify", "mixed": "react",
                  **{i: "service" for i in SERVICE_INTENTS}, **{i: "learning" for i in LEARNING_INTENTS}}


HUMAN_HAS_IT = "a human agent has this thread"


def service_pending(service: ServiceState | None) -> str | None:
    """Why this thread is in the middle of a service step (None when it is not)."""
    svc: ServiceState = service or {}
    if (svc.get("handoff") or {}).get("status") in ("open", "answered"):
        return HUMAN_HAS_IT
    pending = svc.get("pending") or {}
    if pending.get("stage") in ("confirm", "approval"):
        return "a service action is waiting for the customer's answer"
    if pending.get("stage") == "collect":
        return "a service action is waiting for details from the user"
    return None


def choose_path(intent: IntentState, threshold: float, signals: ServiceSignals,
                pending: str | None = None, asks_value: bool = False, continues: bool = False) -> tuple[str, str]:
    """(path, reason) from the router's result and the message's explicit service signals.
    ``asks_value``: the message asks for a number or a count ("重修费交多少？", "一共开了几门课？"); ``continues``: it
    continues the thread's previous knowledge answer ("And individual, with the ashes back?")."""
    name = intent.get("intent", "clarify")
    conf = float(intent.get("confidence", 0.0))
    method = intent.get("method", "")
    if method == "source":
        return PATH_BY_INTENT.get(name, "learning"), f"input source maps to {name}"
    if pending == HUMAN_HAS_IT or (pending and not (name == "chitchat" and method == "rule")):
        return "service", pending
    if signals.bare_answer:
        return "service", "a confirmation or cancellation with nothing pending: said so, never answered as a question"
    if signals.human:
        return "service", "the user asks for a person"
    if signals.complaint:
        return "service", "a complaint about the service: triage"
    if name in SERVICE_INTENTS:
        if method == "rule":
            return "service", f"{name} (rule tier)"
        if signals.any:
            return "service", f"{name} ({method} {conf:.2f}) with a service signal"
        return "knowledge", f"{name} by the {method} tier without an order, ticket or account signal: a question"
    if signals.entity and (name in ("mixed", "clarify") or conf < threshold):
        return "service", "names an order, ticket or refund"
    if name == "plan" and method != "rule" and asks_value:
        # a study plan is asked for, not a number: "第三学期一共开了几门课？" resembles a study plan's words only
        return "knowledge", f"plan by the {method} tier, but the message asks for a number: a question"
    if continues and name in LEARNING_INTENTS and method != "rule":
        # "And individual, with the ashes back?" after a price: the same question of another item, no document to write
        return "knowledge", f"{name} by the {method} tier, but the message continues the previous answer: a question"
    if name == "mixed":
        return "react", "several tasks in one message"
    if conf < threshold and name != "clarify":
        return "react", f"confidence {conf:.2f} below {threshold}"
    return PATH_BY_INTENT.get(name, "react"), f"{name} ({conf:.2f})"


async def decide_path(state: State, runtime: Runtime[Deps]) -> State:
    intent: IntentState = state.get("intent") or {}
    a = analysis_of(state)
    signals = a.service if intent.get("method") != "source" else ServiceSignals()
    path, reason = choose_path(intent, runtime.context.settings.route_threshold, signals,
                               service_pending(state.get("service")), asks_value=a.computes or a.asked_kind == "number",
                               continues=state.get("last_path") == "knowledge" and continues_answer(a.typed or a.text))
    emit("path_decision", path=path, intent=intent.get("intent"), reason=reason)
    return {"path": path, "agent_log": [{"agent": "router", "action": "path", "path": path, "reason": reason}]}
