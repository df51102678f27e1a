"""The built-in service tools, registered in :mod:`knowzero.service.registry` on import.

Safe: ``get_order_status``, ``list_my_orders``, ``create_ticket``, ``get_ticket``, ``cancel_request``,
``transfer_to_human``. Sensitive: ``request_refund`` (runs only with the customer's confirmation in
``ctx.confirmed_by``; the graph's approval nodes supply it after the interrupt).

Authorization lives here, in code: a customer sees only their own orders, refunds and tickets —
anything else is "not found", exactly like an id that does not exist (no existence leak); agents
and admins may look up any order or ticket. Money rules come from ``store.refund_problem``.
Every side effect takes an ``idempotency_key`` (the graph derives it from thread + action seq).

Each tool returns a dict with a human ``summary`` (zh or en by ``ctx.lang``) plus data;
errors are raised as KnowZeroError and turned into ``{"ok": False, "error": …}`` by ``run_tool``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from knowzero.errors import Forbidden, InvalidInput, KnowZeroError, NotFound
from knowzero.service.registry import ToolContext, tool
from knowzero.service.store import STATUS_TEXT, ApprovalRule, cents, refund_problem, yuan
from knowzero.vocabulary.service import HANDOFF_TRANSFERRED, REQUEST_ID_FULL, TICKET_ID_FULL

_ID = r"^[A-Za-z0-9][A-Za-z0-9\-]{0,63}$"
STAFF = ("agent", "admin")


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class OrderArgs(_Args):
    order_id: str = Field(min_length=1, max_length=64, pattern=_ID, description="Order number, e.g. 123")


class NoArgs(_Args):
    pass


class RefundArgs(_Args):
    order_id: str = Field(min_length=1, max_length=64, pattern=_ID)
    amount: float | Literal["full"] = Field(description="Amount in CNY, or 'full' for what is left")
    reason: str = Field(min_length=1, max_length=500)
    idempotency_key: str = Field(min_length=8, max_length=200)


class TicketArgs(_Args):
    subject: str = Field(min_length=2, max_length=300)
    body: str = Field(default="", max_length=4000)
    order_id: str | None = Field(default=None, max_length=64, pattern=_ID)
    priority: Literal["P0", "P1", "P2"] = "P2"
    idempotency_key: str = Field(min_length=8, max_length=200)


class TicketIdArgs(_Args):
    ticket_id: str = Field(pattern=TICKET_ID_FULL, description="TK-XXXXXXXXXX")


class CancelArgs(_Args):
    request_id: str = Field(pattern=REQUEST_ID_FULL, description="A ticket (TK-…) or refund (RF-…)")


class TransferArgs(_Args):
    reason: str = Field(min_length=1, max_length=300)
    urgency: Literal["P0", "P1", "P2"] = "P2"
    brief: dict[str, Any] = Field(default_factory=dict)
    idempotency_key: str = Field(min_length=8, max_length=200)




def _zh(ctx: ToolContext) -> bool:
    return ctx.lang == "zh"


def _not_found(kind: str, ident: str, ctx: ToolContext) -> NotFound:
    return NotFound(f"没有找到{kind} {ident}，请核对号码。" if _zh(ctx) else f"{kind_en(kind)} {ident} was not found; please check the number.")


def kind_en(kind: str) -> str:
    return {"订单": "order", "工单": "ticket", "退款单": "refund", "申请": "request"}.get(kind, kind)


def visible_order(order_id: str, ctx: ToolContext) -> dict[str, Any]:
    """The order if this caller may see it; otherwise the same NotFound as for a missing id."""
    order = ctx.orders.get_order(order_id.strip().upper() if not order_id.isdigit() else order_id)
    if order is None or (ctx.role not in STAFF and order["customer_id"] != ctx.user_id):
        raise _not_found("订单", order_id, ctx)
    return order


def order_public(order: dict[str, Any]) -> dict[str, Any]:
    return {"id": order["id"], "status": order["status"], "paid": yuan(order["paid_cents"]),
            "currency": order.get("currency", "CNY"), "carrier": order.get("carrier"),
            "tracking_no": order.get("tracking_no"), "shipping_note": order.get("shipping_note"),
            "placed_at": order.get("placed_at"),
            "items": [{"sku": i["sku"], "name": i["name"], "qty": i["qty"], "unit_price": yuan(i["unit_cents"])}
                      for i in order.get("items", [])]}


def order_line(order: dict[str, Any], zh: bool) -> str:
    st = STATUS_TEXT.get(order["status"], (order["status"], order["status"]))[0 if zh else 1]
    items = "、".join(f"{i['name']}×{i['qty']}" for i in order.get("items", [])) if zh else \
        ", ".join(f"{i['sku']} ×{i['qty']}" for i in order.get("items", []))
    ship = order.get("shipping_note") or ""
    track = f"（{order['carrier']} {order['tracking_no']}）" if zh and order.get("tracking_no") else \
        (f" ({order['carrier']} {order['tracking_no']})" if order.get("tracking_no") else "")
    if zh:
        return f"订单 {order['id']}：{st}，实付 ¥{yuan(order['paid_cents']):.2f}，{items}。{ship}{track}"
    return f"Order {order['id']}: {st}, paid ¥{yuan(order['paid_cents']):.2f}, {items}{track}."


@tool("get_order_status", "Look up one of the caller's orders: status, items, paid amount, shipping.", OrderArgs,
      intents=("realtime",))
def get_order_status(args: OrderArgs, ctx: ToolContext) -> dict[str, Any]:
    order = visible_order(args.order_id, ctx)
    return {"order": order_public(order), "summary": order_line(order, _zh(ctx))}


@tool("list_my_orders", "List the caller's own orders, newest first.", NoArgs, intents=("realtime",))
def list_my_orders(args: NoArgs, ctx: ToolContext) -> dict[str, Any]:
    orders = ctx.orders.list_orders(ctx.user_id)
    zh = _zh(ctx)
    if not orders:
        return {"orders": [], "summary": "您目前没有订单。" if zh else "You have no orders yet."}
    head = f"您共有 {len(orders)} 个订单：" if zh else f"You have {len(orders)} orders:"
    return {"orders": [order_public(o) for o in orders],
            "summary": head + "\n" + "\n".join("- " + order_line(o, zh) for o in orders)}


def refund_order_check(order_id: str, ctx: ToolContext) -> dict[str, Any]:
    """Before asking for an amount: the order is the caller's and refundable in its state."""
    order = visible_order(order_id, ctx)
    refunds = ctx.orders.refunds_for(order["id"])
    problem = refund_problem(order, 1, [r for r in refunds if r["status"] != "executed"])
    if problem and problem[0] in ("not_refundable", "refund_open"):
        raise InvalidInput(_rule_text(problem[0], order, refunds, _zh(ctx)), details=[{"rule": problem[0]}])
    used = sum(r["amount_cents"] for r in refunds if r["status"] in ("pending", "approved", "executed"))
    if used >= order["paid_cents"]:
        raise InvalidInput(_rule_text("amount_too_high", order, refunds, _zh(ctx)), details=[{"rule": "amount_too_high"}])
    return order


def refund_precheck(order_id: str, amount: float | str, ctx: ToolContext) -> tuple[dict[str, Any], int]:
    """Check a refund before asking for confirmation: (order, amount in cents) or a clear error."""
    order = visible_order(order_id, ctx)
    if ctx.role in STAFF:
        raise Forbidden("退款须由下单客户本人申请。" if _zh(ctx) else "Only the customer who placed the order can request a refund.")
    refunds = ctx.orders.refunds_for(order["id"])
    if amount == "full":
        used = sum(r["amount_cents"] for r in refunds if r["status"] in ("pending", "approved", "executed"))
        amount_cents = max(order["paid_cents"] - used, 0)
    else:
        try:
            amount_cents = cents(float(amount))
        except (TypeError, ValueError):
            raise InvalidInput("退款金额需要是数字，例如 50。" if _zh(ctx) else "The amount must be a number, e.g. 50.") from None
    problem = refund_problem(order, amount_cents, refunds)
    if problem:
        raise InvalidInput(_rule_text(problem[0], order, refunds, _zh(ctx)), details=[{"rule": problem[0]}])
    return order, amount_cents


def refund_approval_reason(order: dict[str, Any], amount_cents: int, ctx: ToolContext) -> str | None:
    """Will this refund wait for an agent (``"order_total"``/``"customer_window"``) or not (``None``)?

    A preview for the confirmation prompt; ``create_refund`` decides it again, atomically."""
    rule = ApprovalRule.from_settings(ctx.settings)
    preview = getattr(ctx.orders, "approval_needed", None)
    if preview is not None:
        reason: str | None = preview(order_id=order["id"], customer_id=order["customer_id"],
                                     amount_cents=amount_cents, rule=rule)
        return reason
    used = sum(r["amount_cents"] for r in ctx.orders.refunds_for(order["id"]) if r["status"] in ("pending", "approved", "executed"))
    return rule.needs_agent(order_total_cents=used + amount_cents, customer_window_cents=amount_cents)


def approval_note(reason: str | None, order: dict[str, Any], amount_cents: int, ctx: ToolContext) -> str:
    """The confirmation prompt's sentence on an agent's approval ('' when none is needed)."""
    if reason is None:
        return ""
    above = ctx.settings.refund_agent_approval_above
    hours = ApprovalRule.from_settings(ctx.settings).window.total_seconds() / 3600
    if yuan(amount_cents) > above:
        return f"金额超过 ¥{above:.0f}，确认后还需客服审批。" if _zh(ctx) else f"Above ¥{above:.0f} an agent must also approve it. "
    if reason == "order_total":
        return (f"订单 {order['id']} 的退款累计将超过 ¥{above:.0f}，确认后还需客服审批。" if _zh(ctx) else
                f"Refunds on order {order['id']} would come to more than ¥{above:.0f} in all, so an agent must also approve it. ")
    return (f"您 {hours:.0f} 小时内的退款累计将超过 ¥{above:.0f}，确认后还需客服审批。" if _zh(ctx) else
            f"Your refunds in the last {hours:.0f} hours would come to more than ¥{above:.0f}, so an agent must also approve it. ")


def _rule_text(rule: str, order: dict[str, Any], refunds: list[dict[str, Any]], zh: bool) -> str:
    used = sum(r["amount_cents"] for r in refunds if r["status"] in ("pending", "approved", "executed"))
    left = yuan(max(order["paid_cents"] - used, 0))
    st = STATUS_TEXT.get(order["status"], (order["status"], order["status"]))[0 if zh else 1]
    texts = {
        "invalid_amount": ("退款金额必须大于 0。", "The refund amount must be greater than 0."),
        "not_refundable": (f"订单 {order['id']} 当前状态为“{st}”，暂不能退款" + ("（运输中的订单请签收后再申请）" if order["status"] == "shipped" else "") + "。",
                           f"Order {order['id']} is {st} and cannot be refunded now" + (" (please apply after delivery)" if order["status"] == "shipped" else "") + "."),
        "refund_open": (f"订单 {order['id']} 已有一笔处理中的退款申请，请等待处理完成。",
                        f"Order {order['id']} already has a refund request in progress."),
        "amount_too_high": (f"退款金额不能超过可退金额 ¥{left:.2f}（实付 ¥{yuan(order['paid_cents']):.2f}）。",
                            f"The refund cannot exceed ¥{left:.2f} (paid ¥{yuan(order['paid_cents']):.2f})."),
    }
    zh_t, en_t = texts.get(rule, ("该退款不符合规则。", "This refund is not allowed."))
    return zh_t if zh else en_t


@tool("request_refund", "Refund part or all of one of the caller's orders. Sensitive: needs the customer's "
      "confirmation; above the configured amount it waits for an agent's approval.", RefundArgs,
      sensitive=True, intents=("action",))
def request_refund(args: RefundArgs, ctx: ToolContext) -> dict[str, Any]:
    system = ctx.orders  # confirmed: the registry runs sensitive tools only after the confirmation node
    done = getattr(system, "refund_by_key", None)
    existing = done(args.idempotency_key) if done else None
    if existing is None:
        order, amount_cents = refund_precheck(args.order_id, args.amount, ctx)
        approval = ApprovalRule.from_settings(ctx.settings)
        # The store decides on the totals (the order's, the customer's in the window) in its transaction;
        # one large refund is asked as pending here as well.
        status = "pending" if amount_cents > approval.order_above_cents else "executed"
        try:
            refund = system.create_refund(key=args.idempotency_key, order_id=order["id"], customer_id=ctx.user_id,
                                          amount_cents=amount_cents, reason=args.reason, status=status,
                                          thread_id=ctx.thread_id, requested_by=ctx.user_id, approval=approval)
        except KnowZeroError as exc:  # the rules changed between the check and the write (a race): say it in ctx.lang
            rule = (exc.details or [{}])[0].get("rule") if exc.details else None
            if exc.code == "not_found":
                raise _not_found("订单", order["id"], ctx) from exc
            if rule is None:
                raise
            raise type(exc)(_rule_text(rule, order, ctx.orders.refunds_for(order["id"]), _zh(ctx)),
                            details=exc.details) from exc
    else:
        refund = existing
    return {"refund": refund_public(refund), "summary": refund_line(refund, _zh(ctx))}


def refund_public(r: dict[str, Any]) -> dict[str, Any]:
    return {"id": r["id"], "order_id": r["order_id"], "amount": yuan(r["amount_cents"]), "reason": r["reason"],
            "status": r["status"], "decided_by": r.get("decided_by"), "note": r.get("note")}


def refund_line(r: dict[str, Any], zh: bool) -> str:
    amt = yuan(r["amount_cents"])
    if zh:
        return {"executed": f"退款 {r['id']} 已执行：¥{amt:.2f} 将原路退回（订单 {r['order_id']}），一般 1-3 个工作日到账。",
                "pending": f"退款申请 {r['id']}（订单 {r['order_id']}，¥{amt:.2f}）已提交，金额较大，需要客服审批，结果会在此对话通知您。",
                "approved": f"退款 {r['id']} 已获批准，正在执行。",
                "rejected": f"很抱歉，退款申请 {r['id']} 未通过审批" + (f"：{r['note']}" if r.get("note") else "。"),
                "cancelled": f"退款申请 {r['id']} 已取消。"}.get(r["status"], f"退款 {r['id']}：{r['status']}")
    return {"executed": f"Refund {r['id']} executed: ¥{amt:.2f} goes back to your original payment method (order {r['order_id']}), usually within 1-3 business days.",
            "pending": f"Refund request {r['id']} (order {r['order_id']}, ¥{amt:.2f}) is submitted and needs an agent's approval; you will be told here.",
            "approved": f"Refund {r['id']} is approved and being executed.",
            "rejected": f"Sorry, refund request {r['id']} was not approved" + (f": {r['note']}" if r.get("note") else "."),
            "cancelled": f"Refund request {r['id']} is cancelled."}.get(r["status"], f"Refund {r['id']}: {r['status']}")


@tool("create_ticket", "Open a support ticket for the caller (optionally about one of their orders).", TicketArgs,
      intents=("action",))
def create_ticket(args: TicketArgs, ctx: ToolContext) -> dict[str, Any]:
    if args.order_id:
        visible_order(args.order_id, ctx)
    t = ctx.store.create_ticket(key=args.idempotency_key, customer_id=ctx.user_id, subject=args.subject,
                                                body=args.body, order_id=args.order_id, priority=args.priority,
                                                thread_id=ctx.thread_id)
    zh = _zh(ctx)
    summary = (f"已为您创建工单 {t['id']}（{t['priority']}）：{t['subject']}。客服会在 1 个工作日内处理。" if zh
               else f"Ticket {t['id']} ({t['priority']}) created: {t['subject']}. Support will handle it within one business day.")
    return {"ticket": ticket_public(t), "summary": summary}


def ticket_public(t: dict[str, Any]) -> dict[str, Any]:
    return {k: t.get(k) for k in ("id", "subject", "body", "order_id", "priority", "status", "created_at")}


def visible_ticket(ticket_id: str, ctx: ToolContext) -> dict[str, Any]:
    t = ctx.store.get_ticket(ticket_id)
    if t is None or (ctx.role not in STAFF and t["customer_id"] != ctx.user_id):
        raise _not_found("工单", ticket_id.upper(), ctx)
    return t


@tool("get_ticket", "Look up one of the caller's tickets.", TicketIdArgs)
def get_ticket(args: TicketIdArgs, ctx: ToolContext) -> dict[str, Any]:
    t = visible_ticket(args.ticket_id, ctx)
    st = {"open": ("处理中", "open"), "closed": ("已关闭", "closed"), "cancelled": ("已取消", "cancelled")}.get(t["status"], (t["status"], t["status"]))
    zh = _zh(ctx)
    summary = (f"工单 {t['id']}：{t['subject']}，状态：{st[0]}（优先级 {t['priority']}）。" if zh
               else f"Ticket {t['id']}: {t['subject']}, status: {st[1]} (priority {t['priority']}).")
    return {"ticket": ticket_public(t), "summary": summary}


@tool("cancel_request", "Cancel one of the caller's open tickets (TK-…) or refund requests still awaiting approval (RF-…).",
      CancelArgs, intents=("action",))
def cancel_request(args: CancelArgs, ctx: ToolContext) -> dict[str, Any]:
    rid = args.request_id.upper()
    zh = _zh(ctx)
    if rid.startswith("TK-"):
        t = visible_ticket(rid, ctx)
        if t["status"] != "open":
            raise InvalidInput(f"工单 {rid} 已{('关闭' if t['status'] == 'closed' else '取消')}，无需取消。" if zh
                               else f"Ticket {rid} is already {t['status']}.")
        t = ctx.store.set_ticket_status(rid, "cancelled")
        return {"ticket": ticket_public(t), "summary": f"工单 {rid} 已取消。" if zh else f"Ticket {rid} is cancelled."}
    system = ctx.orders
    r = system.get_refund(rid)
    if r is None or (ctx.role not in STAFF and r["customer_id"] != ctx.user_id):
        raise _not_found("退款单", rid, ctx)
    if r["status"] not in ("pending", "approved"):
        raise InvalidInput(f"退款 {rid} 当前状态为 {r['status']}，不能取消。" if zh else f"Refund {rid} is {r['status']} and cannot be cancelled.")
    r = system.decide_refund(rid, status="cancelled", by=ctx.user_id, note="cancelled by customer")
    return {"refund": refund_public(r), "summary": refund_line(r, zh)}


@tool("transfer_to_human", "Hand the conversation to a human agent with a summary brief.", TransferArgs,
      requires_account=False, intents=("action",))
def transfer_to_human(args: TransferArgs, ctx: ToolContext) -> dict[str, Any]:
    h = ctx.store.create_handoff(key=args.idempotency_key, thread_id=ctx.thread_id,
                                                 customer_id=ctx.user_id, reason=args.reason, urgency=args.urgency,
                                                 brief=args.brief)
    zh = _zh(ctx)
    summary = HANDOFF_TRANSFERRED.say(zh, id=h["id"], urgency=args.urgency)
    return {"handoff": {"id": h["id"], "status": h["status"], "urgency": h["urgency"]}, "summary": summary}
