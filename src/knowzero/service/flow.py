"""One service turn (the ``tools`` path), before any interrupt: triage → handoff? → slot filling →
safe tools now, or a sensitive action prepared for confirmation.

Everything the next turn needs lives in ``state["service"]``, a :class:`~knowzero.service.state.ServiceState`
(checkpointed with the thread; every key is declared and documented there): the pending action and
its slots, the handoff, last turn's triage, the tools tried, the action counter, the next node.

It never interrupts and never moves money: those happen in the approval nodes
(``knowzero.graph.nodes.tools``), after the interrupt, with the idempotency key prepared here.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from knowzero.config import Settings
from knowzero.errors import KnowZeroError, ProviderError
from knowzero.knowledge.answer.pipeline import Answer
from knowzero.llm.base import ChatProvider, within_deadline
from knowzero.preferences import reply_language
from knowzero.routing.signals import service_signals
from knowzero.service import slots as sl
from knowzero.service.handoff import build_brief
from knowzero.service.registry import SIGN_IN, ToolContext, get_tool, run_tool
from knowzero.service.state import Lang, PendingAction, ServiceState, Slots, Step, record_step, service_state
from knowzero.service.store import OrderSystem, SqlStore, yuan
from knowzero.service.tools import approval_note, refund_approval_reason, refund_order_check, refund_precheck
from knowzero.service.triage import assess, llm_sentiment
from knowzero.streaming import Emit, llm_fallback, silent
from knowzero.users import User
from knowzero.vocabulary.service import HANDOFF_ACTION_NAME, HANDOFF_PASSED_ON, SERVICE_HELP

ACTION_NAMES = {
    "request_refund": ("退款申请", "refund request"), "create_ticket": ("工单", "ticket"),
    "get_order_status": ("订单查询", "order lookup"), "get_ticket": ("工单查询", "ticket lookup"),
    "cancel_request": ("取消申请", "cancellation"), "list_my_orders": ("订单列表", "order list"),
    "transfer_to_human": HANDOFF_ACTION_NAME,
}
HELP = SERVICE_HELP
NOTHING_PENDING = ("当前没有待确认的操作。还有什么可以帮您？", "There is nothing waiting for your confirmation. Anything else?")


@dataclass(frozen=True)
class ServiceContext:
    """What a service turn may use, handed in by the graph's service node (from the container)."""

    user: User
    settings: Settings
    store: SqlStore
    orders: OrderSystem
    thread_id: str
    provider: ChatProvider | None = None
    emit: Emit = silent
    ask_knowledge: Callable[[str], Awaitable[Answer]] | None = None
    """Answers a knowledge question mid-flow (the one knowledge pipeline); None: no detour."""
    ui_language: Lang | None = None
    """The asker's UI language: the reply language of a message without one of its own ("123", "XH-1001")."""

    def tool_context(self, lang: str, **changes: Any) -> ToolContext:
        ctx = ToolContext(self.user.id, self.user.role, self.thread_id, self.settings, self.store, self.orders, lang)
        for k, v in changes.items():
            setattr(ctx, k, v)
        return ctx


@dataclass
class Turn:
    """Mutable working set of one service turn."""

    sc: ServiceContext
    text: str
    thread_id: str
    svc: ServiceState
    lang: Lang
    lines: list[str] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    answer: Answer | None = None
    """The knowledge detour's answer this turn (its verdict and citations go out with the reply)."""

    @property
    def user(self) -> User:
        return self.sc.user

    @property
    def zh(self) -> bool:
        return self.lang == "zh"

    def say(self, zh: str, en: str) -> None:
        self.lines.append(zh if self.zh else en)

    def ctx(self) -> ToolContext:
        return self.sc.tool_context(self.lang)

    def emit(self, event_type: str, **data: Any) -> None:
        self.sc.emit(event_type, **data)

    def next_seq(self) -> int:
        self.svc["seq"] = int(self.svc.get("seq", 0)) + 1
        return self.svc["seq"]

    def call(self, name: str, args: dict[str, Any], ctx: ToolContext | None = None) -> dict[str, Any]:
        """Run a tool with events; failures become an ``error`` event and a clear line for the user."""
        self.emit("tool_call_start", tool=name, args=args)
        result = run_tool(name, args, ctx or self.ctx())
        self.emit("tool_call_end", tool=name, result=result)
        step: Step = {"tool": name, "ok": bool(result.get("ok"))}
        if not result.get("ok"):
            err = result.get("error") or {}
            step["error"] = err.get("code")
            self.emit("error", code=err.get("code", "tool_error"), message=err.get("message", ""))
        record_step(self.svc, step)
        self.log.append({"agent": "service", "action": "tool", "tool": name, "ok": step["ok"]})
        return result


def _lang(svc: ServiceState, prefs: dict[str, Any], text: str, ui: Lang | None) -> Lang:
    """The stored preference, else the message's language, else the UI's, else the thread's (Chinese at first)."""
    return reply_language(prefs, text, ui or svc.get("lang") or "zh")


def _needs_account(action: str) -> bool:
    spec = get_tool(action)
    return bool(spec and spec.requires_account)


def _run_ready(t: Turn, p: PendingAction) -> None:
    """Run a non-sensitive action whose slots are complete."""
    action, s = p["action"], p.get("slots") or Slots()
    key = f"{t.thread_id}:{p['seq']}:{action}"
    args: dict[str, Any] = {}
    if action == "get_order_status":
        args = {"order_id": str(s["order_id"])}
    elif action == "get_ticket":
        args = {"ticket_id": s["ticket_id"]}
    elif action == "cancel_request":
        args = {"request_id": s["request_id"]}
    elif action == "create_ticket":
        tri = t.svc.get("triage") or {}
        args = {"subject": s["subject"], "body": t.text, "idempotency_key": key,
                "priority": tri.get("urgency", "P2")}
        if s.get("order_id"):
            args["order_id"] = str(s["order_id"])
    result = t.call(action, args)
    if result.get("ok"):
        t.lines.append(result.get("summary", ""))
    else:
        t.lines.append((result.get("error") or {}).get("message", ""))


def _prepare_refund(t: Turn, p: PendingAction) -> PendingAction | None:
    """Check the money rules now; on success the action waits for the customer's confirmation."""
    s = p["slots"]
    try:
        order, amount_cents = refund_precheck(str(s["order_id"]), s["amount"], t.ctx())
    except KnowZeroError as exc:
        t.emit("error", code=exc.code, message=exc.message)
        record_step(t.svc, {"tool": "request_refund", "ok": False, "error": exc.code})
        t.lines.append(exc.message)
        rule = (exc.details or [{}])[0].get("rule") if exc.details else None
        if exc.code == "not_found":
            s.pop("order_id", None)
        elif rule in ("amount_too_high", "invalid_amount") or exc.code == "invalid_input" and rule is None:
            s.pop("amount", None)
        else:
            return None  # not refundable / refund already open: drop the action
        return p
    key = f"{t.thread_id}:{p['seq']}:request_refund"
    p["stage"], p["key"], p["amount_cents"], p["order_id"] = "confirm", key, amount_cents, str(order["id"])
    p["expecting"], p["owner"], p["owner_role"] = None, t.user.id, t.user.role
    amount = yuan(amount_cents)
    ctx = t.ctx()
    why = refund_approval_reason(order, amount_cents, ctx)  # the order's or the customer's refunds in total
    over = why is not None
    note = approval_note(why, order, amount_cents, ctx)
    t.say(f"请确认：为订单 {order['id']} 申请退款 ¥{amount:.2f}，原因：{s['reason']}。"
          + note + "确认请回复“确认”，不需要请回复“算了”。",
          f"Please confirm: refund ¥{amount:.2f} for order {order['id']}, reason: {s['reason']}. "
          + note + "Reply \"confirm\" to go ahead or \"cancel\" to stop.")
    t.emit("human_review_request", kind="refund_confirmation", thread_id=t.thread_id, action="request_refund",
           order_id=order["id"], amount=amount, reason=s["reason"], idempotency_key=key,
         needs_agent_approval=over, message=t.lines[-1])
    t.svc["next"], t.svc["announced"] = "confirm_action", "refund_confirmation"
    return p


def _check_refund_order(t: Turn, p: PendingAction) -> Literal["ok", "ask", "drop"]:
    """As soon as the order is known: is it the caller's, and refundable at all? On failure the
    order slot is cleared (unknown order: ask again) or the action dropped (state rule), with a clear message."""
    try:
        refund_order_check(str(p["slots"]["order_id"]), t.ctx())
    except KnowZeroError as exc:
        t.emit("error", code=exc.code, message=exc.message)
        record_step(t.svc, {"tool": "request_refund", "ok": False, "error": exc.code})
        t.lines.append(exc.message)
        if exc.code == "not_found":
            p["slots"].pop("order_id", None)
            return "ask"
        return "drop"
    p["order_checked"] = p["slots"]["order_id"]
    return "ok"


def _finish_pending(t: Turn, p: PendingAction | None) -> PendingAction | None:
    """Ask for the ONE next missing slot, or act when all are there."""
    if not p:
        return None
    if p["action"] == "request_refund" and p["slots"].get("order_id") and p.get("order_checked") != p["slots"]["order_id"]:
        checked = _check_refund_order(t, p)
        if checked != "ok":
            return _finish_pending(t, p) if checked == "ask" else None
    missing = sl.next_missing(p["action"], p["slots"])
    if missing:
        again = p.get("expecting") == missing and not t.lines  # asked just before, and nothing else said now
        if again and missing == "amount" and (p.get("slots") or {}).get("reason"):
            t.say(f"好的，退款原因已记下：{p['slots']['reason']}。", f"OK, noted the reason: {p['slots']['reason']}.")
        p["expecting"] = missing
        t.lines.append(sl.question_again(missing, t.lang) if again else sl.question_for(missing, t.lang))
        return p
    if p["action"] in sl.SENSITIVE:
        p = _prepare_refund(t, p)
        if p is not None and p.get("stage") != "confirm":
            return _finish_pending(t, p)
        return p
    _run_ready(t, p)
    return None


def _handoff(t: Turn, messages: list[Any], reason: str) -> None:
    tri = t.svc.get("triage") or {}
    user = {"id": t.user.id, "name": t.user.name, "role": t.user.role}
    brief = build_brief(messages, t.svc, tri, user, t.text, t.lang)
    seq = t.next_seq()
    result = t.call("transfer_to_human", {"reason": reason or "customer asked for a human", "urgency": tri.get("urgency", "P2"),
                                          "brief": brief, "idempotency_key": f"{t.thread_id}:{seq}:transfer_to_human"})
    if not result.get("ok"):
        t.lines.append((result.get("error") or {}).get("message", ""))
        return
    h = result["handoff"]
    t.lines.append(result["summary"])
    t.emit("human_review_request", kind="handoff", thread_id=t.thread_id, handoff_id=h["id"], urgency=h["urgency"],
         reason=reason, brief=brief, message=result["summary"])
    t.svc["handoff"] = {"id": h["id"], "status": "open", "replies": 0, "customer_notes": 0}
    t.svc["pending"] = {"action": "transfer_to_human", "stage": "human", "seq": seq}
    t.svc["next"], t.svc["announced"] = "await_human", "handoff"


async def _knowledge_detour(t: Turn) -> bool:
    """Mid-flow knowledge question: answer it from the documents, keep the pending action."""
    if t.sc.ask_knowledge is None:
        return False
    try:
        ans = await t.sc.ask_knowledge(t.text)
    except Exception as exc:  # the detour must never break the service flow
        t.emit("reasoning", text=f"knowledge detour failed: {type(exc).__name__}")
        t.log.append({"agent": "service", "action": "knowledge_detour_failed", "error": type(exc).__name__})
        return False
    if ans.reply:
        t.lines.append(ans.reply)
        t.answer = ans
        t.log.append({"agent": "service", "action": "knowledge_detour", "verdict": ans.verdict.level,
                      "citations": len(ans.citations)})
        return True
    return False


async def _sentiment(t: Turn) -> float | None:
    """The model's sentiment when one is configured (bounded by the deadline); None: the lexicon decides."""
    if t.sc.provider is None:
        return None
    try:
        return await within_deadline(llm_sentiment, t.sc.provider, t.text, deadline_s=t.sc.settings.llm_timeout_s)
    except ProviderError as exc:
        llm_fallback(t.sc.emit, "triage", exc.message, "the sentiment lexicon")
        t.log.append({"agent": "service", "action": "triage_fallback", "fallback": True, "fallback_reason": exc.message})
        return None


async def service_turn(state: dict[str, Any], sc: ServiceContext, prefs: dict[str, Any]) -> dict[str, Any]:
    """The service node's work; returns the state update (reply, service, agent_log)."""
    text = (state.get("question") or "").strip()
    thread_id = sc.thread_id
    svc = copy.deepcopy(service_state(state.get("service")))
    svc["next"], svc["announced"] = "", None
    t = Turn(sc, text, thread_id, svc, _lang(svc, prefs, text, sc.ui_language))
    svc["lang"] = t.lang
    prev = svc.get("triage")
    tri = assess(text, prev, await _sentiment(t))
    svc["triage"] = tri.to_dict()
    t.emit("reasoning", text=f"triage: {tri.urgency}, sentiment {tri.sentiment:+.2f} ({tri.label}), angry streak {tri.angry_streak}")
    t.log.append({"agent": "service", "action": "triage", "urgency": tri.urgency, "sentiment": tri.sentiment,
                  "label": tri.label})
    pending = svc.get("pending") or None
    handoff = svc.get("handoff") or None

    if handoff is not None and handoff.get("status") in ("open", "answered"):
        n = int(handoff.get("customer_notes", 0)) + 1
        sc.store.add_handoff_message(key=f"{handoff['id']}:customer:{n}:{thread_id}", handoff_id=handoff["id"],
                                     thread_id=thread_id, author_id=sc.user.id, author_role="customer", text=text)
        handoff["customer_notes"] = n
        t.say(*HANDOFF_PASSED_ON)
        svc["next"] = "await_human"
        return _out(t)

    if tri.handoff:
        _handoff(t, list(state.get("messages") or []), tri.reason)
        return _out(t)

    if pending and pending.get("stage") == "confirm":
        yn = sl.yes_no(text)
        if yn is True:
            pending["confirmed_by"] = sc.user.id
            svc["pending"], svc["next"] = pending, "confirm_action"
            return _out(t)
        if yn is False:
            svc["pending"] = None
            t.say("好的，已取消这次退款申请。还有什么可以帮您？", "OK, the refund request is cancelled. Anything else?")
            return _out(t)
        if sl.is_correction(text):
            pending["stage"] = "collect"  # "不对，金额是 80" re-enters slot filling

    if pending and (sl.is_cancel(text) or sl.after_cancel(text)):  # "算了，<a new request of any length>"
        _cancel(t, pending)
        rest = sl.after_cancel(text)
        if not rest or (sl.detect_action(rest) is None and not sl.extract_slots(rest)):
            return _out(t)
        pending, text = None, rest  # "算了，帮我查一下订单123的物流": the old request dropped, the new one served
        svc["pending"] = None
    if not pending and service_signals(text).bare_answer:  # a left-over "确认"/"算了" button, or typed
        t.say(*NOTHING_PENDING)
        return _out(t)

    locked = pending if pending and pending.get("stage") in ("confirm", "approval") else None
    active: PendingAction | None = None if locked else pending
    unmatched: list[str] = []
    for clause in sl.split_clauses(text):
        action = sl.detect_action(clause)
        if active and action is not None and action != active["action"] and sl.is_weak(action, clause, active.get("expecting")):
            action = None
        if active and (action is None or action == active["action"]):
            active, changed = sl.merge_slots(active, clause)
            if not changed and action is None:
                unmatched.append(clause)
            continue
        if action is None:
            found = sl.extract_slots(clause)
            action = "get_order_status" if "order_id" in found else "get_ticket" if "ticket_id" in found else None
            if action is None:
                unmatched.append(clause)
                continue
        if _needs_account(action) and sc.user.role == "anonymous":
            t.say(*SIGN_IN)
            continue
        found = sl.only_slots(sl.extract_slots(clause), sl.REQUIRED[action] + (("order_id",) if action == "create_ticket" else ()))
        new: PendingAction = {"action": action, "slots": found, "seq": t.next_seq(), "stage": "collect", "owner": sc.user.id,
               "expecting": None, "last_filled": next(reversed(list(found)), None)}
        ready = sl.next_missing(action, found) is None and action not in sl.SENSITIVE
        if ready and (active or locked):
            _run_ready(t, new)  # a quick action mid-flow; the pending one stays
            continue
        if locked:
            t.say("您有一笔退款申请正在等待确认或审批，请先处理完它（或回复“算了”取消）。",
                  "A refund request is waiting for confirmation or approval; please finish it first (or say \"cancel\").")
            continue
        if active and active["action"] != action:
            old = ACTION_NAMES.get(active["action"], ("申请", "request"))
            t.say(f"（已放下之前的{old[0]}。）", f"(I've set aside the earlier {old[1]}.)")
        active = _finish_pending(t, new) if ready else new

    if active and active.get("stage") == "collect":
        if unmatched and (state.get("intent") or {}).get("intent") == "knowledge":
            await _knowledge_detour(t)
        active = _finish_pending(t, active)
    elif not t.lines and unmatched and not locked:
        if not ((state.get("intent") or {}).get("intent") == "knowledge" and await _knowledge_detour(t)):
            if tri.label in ("angry", "negative"):
                t.say("非常抱歉给您带来不好的体验。", "I'm sorry about the trouble.")
            t.say(*HELP)
    if locked:
        _still_waiting(t, locked)
        svc["pending"] = locked
    else:
        svc["pending"] = active
    return _out(t)


def _cancel(t: Turn, pending: PendingAction) -> None:
    """'算了': drop the pending action; a refund already waiting for an agent is cancelled in the store."""
    name = ACTION_NAMES.get(pending["action"], ("申请", "request"))
    if pending.get("stage") == "approval" and pending.get("refund_id"):
        ctx = t.ctx()
        ctx.user_id, ctx.role = pending.get("owner", ctx.user_id), pending.get("owner_role", ctx.role)
        result = t.call("cancel_request", {"request_id": pending["refund_id"]}, ctx)
        t.lines.append(result.get("summary") or (result.get("error") or {}).get("message", ""))
    else:
        t.say(f"好的，已取消{name[0]}。还有什么可以帮您？", f"OK, the {name[1]} is cancelled. Anything else?")
    t.svc["pending"] = None
    t.log.append({"agent": "service", "action": "cancel", "tool": pending["action"]})


def _still_waiting(t: Turn, p: PendingAction) -> None:
    """Keep the thread waiting at its approval interrupt after answering something else."""
    amount = yuan(int(p.get("amount_cents", 0)))
    if p.get("stage") == "confirm":
        t.say(f"另外，订单 {p.get('order_id')} 的退款 ¥{amount:.2f} 还在等您确认（回复“确认”或“算了”）。",
              f"Also, the ¥{amount:.2f} refund for order {p.get('order_id')} still needs your confirmation (\"confirm\" or \"cancel\").")
        t.emit("human_review_request", kind="refund_confirmation", thread_id=t.thread_id, action="request_refund",
               order_id=p.get("order_id"), amount=amount, reason=(p.get("slots") or {}).get("reason"),
             idempotency_key=p.get("key"), message=t.lines[-1])
        t.svc["next"], t.svc["announced"] = "confirm_action", "refund_confirmation"
    else:
        t.say(f"另外，退款申请 {p.get('refund_id')} 正在等待客服审批，结果会在此对话通知您。",
              f"Also, refund request {p.get('refund_id')} is waiting for an agent's approval; you'll be told here.")
        t.svc["next"] = "approve_action"


def _out(t: Turn) -> dict[str, Any]:
    reply = "\n".join(x for x in t.lines if x)
    t.log.append({"agent": "service", "action": "reply", "next": t.svc.get("next") or "finish",
                  "pending": (t.svc.get("pending") or {}).get("action")})
    out: dict[str, Any] = {"reply": reply, "service": t.svc, "agent_log": t.log}
    if t.answer is not None:  # the detour's answer is checked like any knowledge answer: say how it went
        out.update(verdict=t.answer.verdict, citations=t.answer.citations)
    return out


def quick_replies(service: ServiceState | None, zh: bool = True) -> list[str]:
    """Options the client can offer as buttons for the pending service step (empty when open-ended)."""
    pending: PendingAction = (service or {}).get("pending") or {}
    stage, expecting = pending.get("stage"), pending.get("expecting")
    if stage == "confirm":
        return ["确认", "算了"] if zh else ["confirm", "cancel"]
    if stage == "collect" and expecting == "amount":
        return ["全额", "算了"] if zh else ["full", "cancel"]
    if stage == "collect" and expecting == "reason":
        return ["商品损坏", "发错货", "不想要了"] if zh else ["damaged", "wrong item", "changed my mind"]
    return []
