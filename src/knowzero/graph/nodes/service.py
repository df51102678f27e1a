"""Service path nodes: ``run_service`` (triage, slot filling, safe tools) and the three nodes that wait
for people — ``confirm_action`` (the customer confirms a refund), ``approve_action`` (an agent
approves one whose order or 24-hour customer total passes ``refund_agent_approval_above``) and ``await_human`` (a human has the thread).

Exactly-once rules: a node that calls ``interrupt()`` re-runs from its first line on resume, so
nothing before an interrupt has side effects; side effects come after it and carry the idempotency
key prepared by ``run_service`` (UNIQUE in the store), so a replayed or retried resume returns the
first result. The same holds across a crash: turns are checkpointed after every step and the
runner re-runs a step a crash cut short (``api/runner.py``), so ``confirm_action`` re-running after
its refund was written finds that refund by its key and still hands the thread to
``approve_action``, whose interrupt is then checkpointed — a refund is never left ``pending``
without a thread waiting for its decision. A node that leaves the thread waiting stores its reply
in the history when it does (``with_quick_replies``). A resume value that is malformed or comes from the wrong person is ignored and the
node interrupts again (resume values: ``{"approved": bool, "by": user_id, "note"?: str}`` for
approvals; ``{"human_reply": str, "by": agent_id}`` or ``{"return_to_assistant": true, "by": agent_id}``
for a handoff).
"""

from __future__ import annotations

import copy
import functools
from typing import Any, cast

from langchain_core.messages import AIMessage, AnyMessage
from langgraph.runtime import Runtime
from langgraph.types import interrupt

from knowzero.graph.context import Deps
from knowzero.graph.state import AgentLogEntry, State
from knowzero.graph.trace import Node, collections_of, emit, thread_id_of, ui_language_of
from knowzero.knowledge.answer import pipeline as kp
from knowzero.preferences import get_preferences
from knowzero.service.flow import ServiceContext, quick_replies, service_turn
from knowzero.service.registry import ToolContext, run_tool
from knowzero.service.state import Handoff, PendingAction, ServiceState, record_step, service_state
from knowzero.service.store import yuan
from knowzero.service.tools import refund_line, refund_public
from knowzero.users import STAFF
from knowzero.vocabulary.service import AGENT_REPLY, HANDOFF_RETURNED


async def _prefs(runtime: Runtime[Deps]) -> dict[str, Any]:
    try:
        return await get_preferences(runtime.store, runtime.context.user.id)
    except Exception:  # a store outage must not break service turns
        return {}


def service_context(state: State, deps: Deps) -> ServiceContext:
    """What the service flow may use this turn, from the container (the knowledge detour included)."""

    ui = ui_language_of(state)

    async def ask_knowledge(question: str) -> kp.Answer:
        return await kp.answer(question, deps.knowledge(emit, ui))  # its retrieval and verdict events included

    return ServiceContext(user=deps.user, settings=deps.settings, store=deps.need_store(), orders=deps.need_orders(),
                          thread_id=thread_id_of(state), provider=deps.provider, emit=emit,
                          ask_knowledge=ask_knowledge if deps.kb is not None else None,
                          ui_language=ui)


WAITING_NODES = {"confirm_action": "refund_confirmation", "approve_action": "refund_approval", "await_human": "handoff"}
"""Nodes that wait for a person at an interrupt, and the kind of wait."""


def with_quick_replies(out: State, state: State) -> State:
    """Buttons for the pending service step ("确认"/"算了", reasons …), kept in state for the client;
    and when the node hands the thread to a waiting node, its reply (the "请确认…" prompt) joins the
    history now, in the same checkpoint — ``finish_turn`` only runs once the wait is over, and does
    not add the same reply twice."""
    svc = service_state(out.get("service", state.get("service")))
    zh = svc.get("lang", "zh") == "zh"
    out = {**out, "quick_replies": quick_replies(svc, zh=zh)}
    waiting = WAITING_NODES.get(svc.get("next") or "")
    if waiting and out.get("reply"):
        meta: dict[str, Any] = {"intent": (state.get("intent") or {}).get("intent"), "path": state.get("path") or "service",
                "verdict": None, "citations": [], "awaiting": waiting}
        out["messages"] = [*(out.get("messages") or []),
                           AIMessage(content=out["reply"], additional_kwargs={"knowzero": meta})]
    return out


def offers_quick_replies(fn: Node) -> Node:
    """A service node whose result carries the quick replies of the step it leaves the thread at."""

    @functools.wraps(fn)
    async def node(state: State, runtime: Runtime[Deps]) -> State:
        return with_quick_replies(await fn(state, runtime), state)

    return node


async def run_service(state: State, runtime: Runtime[Deps]) -> State:
    """The service path: one service turn (see ``knowzero.service.flow``)."""
    # service/flow.py takes the state, and returns its update, as plain dicts: the same values, untyped there
    out = await service_turn(cast("dict[str, Any]", state),
                             service_context(state, runtime.context.scoped(collections_of(state))), await _prefs(runtime))
    return with_quick_replies(cast(State, out), state)


def _zh(svc: ServiceState) -> bool:
    return svc.get("lang", "zh") == "zh"


def _is_staff(deps: Deps, user_id: Any) -> bool:
    if not isinstance(user_id, str) or not user_id:
        return False
    row = deps.need_store().get_user(user_id)
    return bool(row and row["role"] in STAFF)


@offers_quick_replies
async def confirm_action(state: State, runtime: Runtime[Deps]) -> State:
    """Wait for the customer's confirmation, then submit the refund (exactly once, by key)."""
    deps = runtime.context
    svc = copy.deepcopy(service_state(state.get("service")))
    p: PendingAction = svc.get("pending") or {}
    zh = _zh(svc)
    svc["next"] = ""
    if p.get("action") != "request_refund" or not p.get("key"):
        return {"service": svc}
    owner = p.get("owner") or ""
    if p.get("confirmed_by") != owner:
        payload = {"kind": "refund_confirmation", "thread_id": thread_id_of(state), "order_id": p.get("order_id"),
                   "amount": yuan(int(p.get("amount_cents", 0))), "reason": p["slots"].get("reason"),
                   "idempotency_key": p["key"], "respond_with": {"approved": "bool", "by": "customer id"}}
        announced = svc.get("announced") == "refund_confirmation"
        while True:
            answer = interrupt({**payload, "_emitted": announced})
            announced = False  # a re-ask after a bad answer is announced by the runner
            if isinstance(answer, dict) and isinstance(answer.get("approved"), bool) and answer.get("by") == owner:
                break
        asked: list[AnyMessage] = [_answered_card(state, payload, answer)]
        if not answer["approved"]:
            svc["pending"] = None
            return {"service": svc, "reply": "好的，已取消这次退款申请。" if zh else "OK, the refund request is cancelled.",
                    "messages": asked, "agent_log": [{"agent": "service", "action": "refund_declined_by_customer"}]}
        p["confirmed_by"] = owner
    else:
        asked = []
    ctx = ToolContext(str(owner), p.get("owner_role", "customer"), thread_id_of(state), deps.settings,
                      deps.need_store(), deps.need_orders(), svc.get("lang", "zh"), confirmed_by=str(owner))
    args = {"order_id": p["order_id"], "amount": yuan(int(p["amount_cents"])), "reason": p["slots"]["reason"],
            "idempotency_key": p["key"]}
    emit("tool_call_start", tool="request_refund", args=args)
    result = run_tool("request_refund", args, ctx)
    emit("tool_call_end", tool="request_refund", result=result)
    record_step(svc, {"tool": "request_refund", "ok": bool(result.get("ok"))})
    log: list[AgentLogEntry] = [{"agent": "service", "action": "tool", "tool": "request_refund",
                                 "ok": bool(result.get("ok"))}]
    if not result.get("ok"):
        err = result.get("error") or {}
        emit("error", code=err.get("code", "tool_error"), message=err.get("message", ""))
        svc["pending"] = None
        return {"service": svc, "reply": err.get("message", ""), "agent_log": log, "messages": asked}
    refund = result["refund"]
    if refund["status"] == "pending":
        p["stage"], p["refund_id"] = "approval", str(refund["id"])
        svc["pending"], svc["next"], svc["announced"] = p, "approve_action", "refund_approval"
        emit("human_review_request", kind="refund_approval", thread_id=thread_id_of(state), refund_id=refund["id"],
             order_id=refund["order_id"], amount=refund["amount"], reason=refund["reason"], customer_id=owner,
             message=result["summary"])
    else:
        svc["pending"] = None
    return {"service": svc, "reply": result["summary"], "agent_log": log, "messages": asked}


def _answered_card(state: State, payload: dict[str, Any], answer: dict[str, Any]) -> AIMessage:
    """The message that asked (its text and card), kept in the thread once answered, so a reloaded
    thread still shows the confirmation or approval card and what was chosen."""
    card = {k: v for k, v in payload.items() if k not in ("respond_with", "idempotency_key", "thread_id")}
    meta = {"intent": (state.get("intent") or {}).get("intent"), "path": "service",
            "card": {**card, "answered": {"approved": bool(answer.get("approved"))}}}
    # The prompt was stored when the thread paused (``with_quick_replies``): the answered card replaces
    # that message (same id), so the history holds the question once.
    for m in reversed(state.get("messages") or []):
        stored = (getattr(m, "additional_kwargs", {}) or {}).get("knowzero") or {}
        if isinstance(m, AIMessage) and stored.get("awaiting") == payload.get("kind") and m.id:
            return AIMessage(id=m.id, content=m.content, additional_kwargs={"knowzero": {**stored, **meta}})
    return AIMessage(content=str(state.get("reply") or ""), additional_kwargs={"knowzero": meta})


@offers_quick_replies
async def approve_action(state: State, runtime: Runtime[Deps]) -> State:
    """Wait for an agent's decision on a large refund, then execute or reject it (guarded, idempotent)."""
    deps = runtime.context
    svc = copy.deepcopy(service_state(state.get("service")))
    p: PendingAction = svc.get("pending") or {}
    svc["next"] = ""
    if p.get("stage") != "approval" or not p.get("refund_id"):
        return {"service": svc}
    payload = {"kind": "refund_approval", "thread_id": thread_id_of(state), "refund_id": p["refund_id"],
               "order_id": p.get("order_id"), "amount": yuan(int(p.get("amount_cents", 0))),
               "reason": p["slots"].get("reason"), "customer_id": p.get("owner"),
               "respond_with": {"approved": "bool", "by": "agent id", "note": "optional"}}
    announced = svc.get("announced") == "refund_approval"
    while True:
        answer = interrupt({**payload, "_emitted": announced})
        announced = False
        if isinstance(answer, dict) and isinstance(answer.get("approved"), bool) and _is_staff(deps, answer.get("by")):
            break
    system = deps.need_orders()
    waited = _answered_card(state, payload, answer)
    by, note = answer["by"], str(answer.get("note") or "")[:500]
    emit("tool_call_start", tool="request_refund", args={"refund_id": p["refund_id"], "approved": answer["approved"], "by": by})
    if answer["approved"]:
        refund = system.decide_refund(p["refund_id"], status="approved", by=by, note=note)
        if refund["status"] == "approved":
            refund = system.decide_refund(p["refund_id"], status="executed", by=by, note=note)
    else:
        refund = system.decide_refund(p["refund_id"], status="rejected", by=by, note=note)
    emit("tool_call_end", tool="request_refund", result={"ok": True, "refund": refund_public(refund)})
    svc["pending"] = None
    record_step(svc, {"tool": "request_refund", "ok": refund["status"] == "executed"})
    return {"service": svc, "reply": refund_line(refund, _zh(svc)), "messages": [waited],
            "agent_log": [{"agent": "service", "action": "refund_decision", "status": refund["status"], "by": by}]}


@offers_quick_replies
async def await_human(state: State, runtime: Runtime[Deps]) -> State:
    """A human has the thread: wait for their reply (or for them to hand it back)."""
    deps = runtime.context
    svc = copy.deepcopy(service_state(state.get("service")))
    h: Handoff = svc.get("handoff") or {}
    svc["next"] = ""
    if not h.get("id"):
        return {"service": svc}
    payload = {"kind": "handoff", "thread_id": thread_id_of(state), "handoff_id": h["id"],
               "respond_with": {"human_reply": "str", "by": "agent id", "return_to_assistant": "bool"}}
    announced = svc.get("announced") == "handoff"
    while True:
        answer = interrupt({**payload, "_emitted": announced})
        announced = False
        if isinstance(answer, dict) and _is_staff(deps, answer.get("by")) and (
                answer.get("return_to_assistant") is True or str(answer.get("human_reply") or "").strip()):
            break
    store = deps.need_store()
    zh = _zh(svc)
    if answer.get("return_to_assistant") is True:
        store.set_handoff_status(h["id"], "returned", assigned_to=answer["by"])
        svc["handoff"], svc["pending"] = None, None
        svc["triage"] = {**(svc.get("triage") or {}), "angry_streak": 0}
        return {"service": svc,
                "reply": HANDOFF_RETURNED.say(zh),
                "agent_log": [{"agent": "service", "action": "handoff_returned", "by": answer["by"]}]}
    text = str(answer["human_reply"]).strip()[:4000]
    n = int(h.get("replies", 0)) + 1
    store.add_handoff_message(key=f"{h['id']}:agent:{n}:{thread_id_of(state)}", handoff_id=h["id"],
                              thread_id=thread_id_of(state), author_id=answer["by"], author_role="agent", text=text)
    store.set_handoff_status(h["id"], "answered", assigned_to=answer["by"])
    agent = store.get_user(answer["by"]) or {}
    svc["handoff"] = {**h, "status": "answered", "replies": n}
    name = agent.get("name") or answer["by"]
    return {"service": svc, "reply": AGENT_REPLY.say(zh, name=name, text=text),
            "agent_log": [{"agent": "service", "action": "human_reply", "by": answer["by"]}]}
