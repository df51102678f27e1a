"""The demo commerce store (app database) and the adapter seam for a real order system.

What it does:
* :class:`OrderSystem` — the small protocol the tools use for orders and refunds. A team points the
  tools at its own order system by implementing it and handing it to the dependency container
  (``Deps.orders``, see ``knowzero.wiring``); the demo :class:`SqlStore` implements it on the app database (SQLite by default, PostgreSQL by URL).
* :func:`refund_problem` — the money rules, as a pure function (refund ≤ paid amount minus what is
  already refunded or open, order in a refundable state, one open refund per order). Tools check it
  before asking for confirmation and ``create_refund`` checks it again inside its transaction.
* :class:`ApprovalRule` — when a refund waits for an agent: the order's refunds in all, or the
  customer's refunds within :data:`REFUND_WINDOW`, would exceed ``refund_agent_approval_above``
  (pending, approved and executed refunds count; splitting a refund does not avoid the agent).
  ``create_refund`` decides it on the totals it reads in its transaction, with the customer's row
  locked (``SELECT … FOR NO KEY UPDATE`` on PostgreSQL; SQLite's write lock, taken first), so
  concurrent refunds are decided one after the other.
* Idempotent side effects: every ``create_*`` takes an ``idempotency_key`` (UNIQUE column) and returns
  the first row when called again with the same key; state transitions are guarded
  (``UPDATE … WHERE status = 'pending'``), so replaying an approval changes nothing.
* :func:`seed_demo` — deterministic demo users and orders, and API keys (random on first start, or the
  fixed ``demo-alice``/``demo-bob``/``demo-agent``/``demo-admin`` when ``KNOWZERO_DEMO_KEYS=1``).

What it does not do: authorization (the tools decide who may see what), conversation state (the
graph checkpoint), or any HTTP.

Example::

    store = SqlStore(make_engine(settings.db_url))
    order = store.get_order("123")          # {"id": "123", "customer_id": "alice", ...} or None
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from knowzero.errors import Conflict, InvalidInput, NotFound
from knowzero.persistence.db import init_db
from knowzero.service.tables import (
    svc_handoffs,
    svc_human_replies,
    svc_order_items,
    svc_orders,
    svc_refunds,
    svc_review_items,
    svc_tickets,
    svc_users,
)

ROLES = ("customer", "editor", "agent", "admin")
REFUNDABLE = ("paid", "processing", "delivered")
OPEN_REFUND = ("pending", "approved")
COUNTED_REFUND = ("pending", "approved", "executed")
REFUND_WINDOW = timedelta(hours=24)
"""How far back a customer's refunds count towards the approval threshold (see :class:`ApprovalRule`)."""
STATUS_TEXT = {
    "pending_payment": ("待付款", "awaiting payment"), "paid": ("已付款，待发货", "paid, not yet shipped"),
    "processing": ("备货中", "being prepared"), "shipped": ("运输中", "in transit"),
    "delivered": ("已签收", "delivered"), "cancelled": ("已取消", "cancelled"), "refunded": ("已退款", "refunded"),
}


def derive_id(prefix: str, key: str) -> str:
    """Stable public id from an idempotency key: same key → same id (``RF-3FA2…``)."""
    return f"{prefix}-{hashlib.sha256(key.encode()).hexdigest()[:10].upper()}"


def hash_api_key(key: str) -> str:
    return hashlib.sha256(("knowzero:" + key).encode()).hexdigest()


def cents(amount: float) -> int:
    return int(round(float(amount) * 100))


def yuan(amount_cents: int) -> float:
    return round(amount_cents / 100, 2)


@runtime_checkable
class OrderSystem(Protocol):
    """What the tools need from an order system. Orders and refunds are plain dicts:

    order: ``{id, customer_id, status, paid_cents, currency, carrier, tracking_no, shipping_note,
    placed_at, items: [{sku, name, qty, unit_cents}]}``; refund: ``{id, idempotency_key, order_id,
    customer_id, amount_cents, reason, status, decided_by, note}``.

    ``create_refund`` must be idempotent on ``key`` (return the first refund) and must apply
    :func:`refund_problem` atomically with the insert; given ``approval``, a refund asked as
    ``executed`` must be stored ``pending`` when :meth:`ApprovalRule.needs_agent` says so on the
    totals read in that same atomic step; ``decide_refund`` must only move a refund
    along pending → approved → executed (or pending/approved → rejected/cancelled) and return the
    refund as it is after the call.
    """

    def get_order(self, order_id: str) -> dict[str, Any] | None: ...

    def list_orders(self, customer_id: str) -> list[dict[str, Any]]: ...

    def refunds_for(self, order_id: str) -> list[dict[str, Any]]: ...

    def create_refund(self, *, key: str, order_id: str, customer_id: str, amount_cents: int, reason: str,
                      status: str, thread_id: str, requested_by: str,
                      approval: ApprovalRule | None = None) -> dict[str, Any]: ...

    def get_refund(self, refund_id: str) -> dict[str, Any] | None: ...

    def decide_refund(self, refund_id: str, *, status: str, by: str, note: str = "") -> dict[str, Any]: ...


def refund_problem(order: dict[str, Any], amount_cents: int, refunds: list[dict[str, Any]],
                   key: str | None = None) -> tuple[str, str] | None:
    """The money rules. Returns ``(code, reason)`` when the refund is not allowed, else ``None``.

    Refunds with the same idempotency ``key`` are ignored (re-checking an action already taken).
    """
    others = [r for r in refunds if r.get("idempotency_key") != key]
    if amount_cents <= 0:
        return "invalid_amount", "amount must be greater than 0"
    if order["status"] not in REFUNDABLE:
        return "not_refundable", f"order {order['id']} is {order['status']} and cannot be refunded now"
    if any(r["status"] in OPEN_REFUND for r in others):
        return "refund_open", f"order {order['id']} already has an open refund request"
    used = sum(r["amount_cents"] for r in others if r["status"] in COUNTED_REFUND)
    left = order["paid_cents"] - used
    if amount_cents > left:
        return "amount_too_high", f"at most {yuan(max(left, 0)):.2f} can be refunded for order {order['id']}"
    return None


@dataclass(frozen=True)
class ApprovalRule:
    """When a refund waits for an agent's approval: totals, not one request.

    A refund needs an agent when, with it, the order's refunds in all (any age) exceed
    ``order_above_cents``, or the customer's refunds on all their orders within ``window`` exceed
    ``customer_above_cents``. Pending, approved and executed refunds count; rejected and cancelled
    ones do not. Both thresholds come from ``refund_agent_approval_above`` (¥500 by default), the
    window is :data:`REFUND_WINDOW` (24 h).
    """

    order_above_cents: int
    customer_above_cents: int
    window: timedelta = REFUND_WINDOW

    @classmethod
    def from_settings(cls, settings: Any) -> ApprovalRule:
        above = cents(settings.refund_agent_approval_above)
        return cls(order_above_cents=above, customer_above_cents=above)

    def needs_agent(self, *, order_total_cents: int, customer_window_cents: int) -> str | None:
        """``"order_total"`` or ``"customer_window"`` (the threshold the totals, new refund included,
        would exceed), else ``None``."""
        if order_total_cents > self.order_above_cents:
            return "order_total"
        if customer_window_cents > self.customer_above_cents:
            return "customer_window"
        return None


def _row(r: Any) -> dict[str, Any]:
    d = dict(r._mapping)
    for k in ("created_at", "updated_at"):
        if k in d and d[k] is not None and not isinstance(d[k], str):
            d[k] = d[k].isoformat()
    return d


class SqlStore:
    """Orders, refunds, tickets, handoffs, human replies and review items on the app database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = init_db(engine)
        self._pg = engine.dialect.name == "postgresql"

    # users -------------------------------------------------------------------------------------
    def get_user(self, user_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_users).where(svc_users.c.id == user_id)).first()
        return _row(r) if r else None

    def user_by_key(self, api_key: str) -> dict[str, Any] | None:
        h = hash_api_key(api_key)
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_users).where(svc_users.c.api_key_hash == h,
                                                     svc_users.c.key_revoked.is_(False))).first()
        return _row(r) if r else None

    def upsert_user(self, user_id: str, name: str, role: str) -> None:
        if role not in ROLES:
            raise InvalidInput(f"role must be one of {', '.join(ROLES)}")
        with self.engine.begin() as conn:
            if conn.execute(select(svc_users.c.id).where(svc_users.c.id == user_id)).first() is None:
                conn.execute(insert(svc_users).values(id=user_id, name=name, role=role))
            else:
                conn.execute(update(svc_users).where(svc_users.c.id == user_id).values(name=name, role=role))

    def set_api_key(self, user_id: str, api_key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(svc_users).where(svc_users.c.id == user_id).values(api_key_hash=hash_api_key(api_key)))

    def list_users(self) -> list[dict[str, Any]]:
        """Users with whether they have a key and whether it was revoked (never the hash)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(svc_users).order_by(svc_users.c.id)).all()
        return [{"id": r.id, "name": r.name, "role": r.role, "has_key": bool(r.api_key_hash) and not r.key_revoked,
                 "revoked": bool(r.key_revoked)} for r in rows]

    def issue_api_key(self, user_id: str) -> str:
        """A new random key for the user (replacing the old one); returned once, only its hash is kept.
        A revoked user gets none (Conflict): only :meth:`restore_user` lifts a revocation."""
        user = self.get_user(user_id)
        if user is None:
            raise NotFound(f"user {user_id} not found")
        if user["key_revoked"]:
            raise Conflict(f"{user_id}'s key was revoked; an admin restores the user first (knowzero keys restore {user_id})",
                           [{"rule": "revoked"}])
        key = "kz-" + secrets.token_urlsafe(18)
        self.set_api_key(user_id, key)
        return key

    def revoke_api_key(self, user_id: str) -> bool:
        """Remove the user's key and mark the user revoked: signing in fails from now on, and no key is
        issued again (not by ``issue_api_key``, not by a restart with demo keys) until :meth:`restore_user`.
        False when the user was revoked already."""
        with self.engine.begin() as conn:
            n = conn.execute(update(svc_users).where(svc_users.c.id == user_id, svc_users.c.key_revoked.is_(False))
                             .values(api_key_hash=None, key_revoked=True)).rowcount
        return bool(n)

    def restore_user(self, user_id: str) -> str:
        """Lift a revocation (an admin's explicit act) and issue a new key, returned once."""
        if self.get_user(user_id) is None:
            raise NotFound(f"user {user_id} not found")
        with self.engine.begin() as conn:
            conn.execute(update(svc_users).where(svc_users.c.id == user_id).values(key_revoked=False))
        return self.issue_api_key(user_id)

    def drop_demo_keys(self) -> list[str]:
        """Remove every fixed demo key (``demo-<id>``) an earlier start stored; the users whose key it was."""
        dropped = []
        with self.engine.begin() as conn:
            for uid in conn.execute(select(svc_users.c.id)).scalars().all():
                n = conn.execute(update(svc_users).where(svc_users.c.id == uid,
                                                         svc_users.c.api_key_hash == hash_api_key(demo_key(uid)))
                                 .values(api_key_hash=None)).rowcount
                if n:
                    dropped.append(uid)
        return dropped

    # orders (OrderSystem) ----------------------------------------------------------------------
    def _items(self, conn: Any, order_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        out: dict[str, list[dict[str, Any]]] = {o: [] for o in order_ids}
        if order_ids:
            rows = conn.execute(select(svc_order_items).where(svc_order_items.c.order_id.in_(order_ids))
                                .order_by(svc_order_items.c.id))
            for r in rows:
                out[r.order_id].append({"sku": r.sku, "name": r.name, "qty": r.qty, "unit_cents": r.unit_cents})
        return out

    def get_order(self, order_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_orders).where(svc_orders.c.id == order_id)).first()
            if r is None:
                return None
            order = _row(r)
            order["items"] = self._items(conn, [order_id])[order_id]
        return order

    def list_orders(self, customer_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            rows = [_row(r) for r in conn.execute(select(svc_orders).where(svc_orders.c.customer_id == customer_id)
                                                  .order_by(svc_orders.c.placed_at.desc(), svc_orders.c.id))]
            items = self._items(conn, [o["id"] for o in rows])
        for o in rows:
            o["items"] = items[o["id"]]
        return rows

    # refunds (OrderSystem) ---------------------------------------------------------------------
    def refunds_for(self, order_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(select(svc_refunds).where(svc_refunds.c.order_id == order_id)
                                                  .order_by(svc_refunds.c.created_at))]

    def get_refund(self, refund_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_refunds).where(svc_refunds.c.id == refund_id)).first()
        return _row(r) if r else None

    def refund_by_key(self, key: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_refunds).where(svc_refunds.c.idempotency_key == key)).first()
        return _row(r) if r else None

    def list_refunds(self, *, status: str | None = None, customer_id: str | None = None) -> list[dict[str, Any]]:
        q = select(svc_refunds).order_by(svc_refunds.c.created_at)
        if status:
            q = q.where(svc_refunds.c.status == status)
        if customer_id:
            q = q.where(svc_refunds.c.customer_id == customer_id)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(q)]

    def open_refunds(self, *, thread_id: str) -> list[dict[str, Any]]:
        """The refunds asked for in a thread that are not decided yet (pending or approved)."""
        q = (select(svc_refunds).where(svc_refunds.c.thread_id == thread_id)
             .where(svc_refunds.c.status.in_(OPEN_REFUND)).order_by(svc_refunds.c.created_at))
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(q)]

    def _window_cents(self, conn: Any, customer_id: str, window: timedelta, key: str | None) -> int:
        """What the customer has refunded (pending, approved, executed) on any order within ``window``."""
        since = datetime.now(UTC) - window
        q = (select(func.coalesce(func.sum(svc_refunds.c.amount_cents), 0))
             .where(svc_refunds.c.customer_id == customer_id, svc_refunds.c.status.in_(COUNTED_REFUND),
                    svc_refunds.c.created_at >= (since if self._pg else since.replace(tzinfo=None))))  # SQLite: UTC, no zone
        if key is not None:
            q = q.where(svc_refunds.c.idempotency_key != key)
        return int(conn.execute(q).scalar_one())

    def _needs_agent(self, conn: Any, rule: ApprovalRule, order_id: str, customer_id: str, amount_cents: int,
                     refunds: list[dict[str, Any]], key: str | None) -> str | None:
        order_total = sum(r["amount_cents"] for r in refunds
                          if r["status"] in COUNTED_REFUND and r.get("idempotency_key") != key) + amount_cents
        return rule.needs_agent(order_total_cents=order_total,
                                customer_window_cents=self._window_cents(conn, customer_id, rule.window, key) + amount_cents)

    def approval_needed(self, *, order_id: str, customer_id: str, amount_cents: int, rule: ApprovalRule) -> str | None:
        """What :meth:`create_refund` would decide now (for telling the customer before they confirm; it
        is decided again, atomically, when the refund is written)."""
        with self.engine.connect() as conn:
            refunds = [_row(x) for x in conn.execute(select(svc_refunds).where(svc_refunds.c.order_id == order_id))]
            return self._needs_agent(conn, rule, order_id, customer_id, amount_cents, refunds, None)

    def _lock_customer(self, conn: Any, customer_id: str) -> None:
        """Serialise refund decisions of one customer (all their orders) until the transaction ends.

        PostgreSQL: a row lock on the customer (``FOR NO KEY UPDATE``; the order row is then locked
        too). SQLite: a no-op write first, so the transaction holds the database's write lock before it
        reads anything, and a concurrent one waits (``timeout``) and then reads what this one wrote."""
        if self._pg:
            conn.execute(select(svc_users.c.id).where(svc_users.c.id == customer_id).with_for_update(key_share=True))
        else:
            conn.execute(update(svc_users).where(svc_users.c.id == customer_id).values(name=svc_users.c.name))

    def create_refund(self, *, key: str, order_id: str, customer_id: str, amount_cents: int, reason: str,
                      status: str, thread_id: str, requested_by: str,
                      approval: ApprovalRule | None = None) -> dict[str, Any]:
        """Insert a refund once per ``key``. In one transaction, with the customer locked: the money rules,
        and (given ``approval``) whether a refund asked as ``executed`` must wait for an agent instead —
        then it is stored ``pending``."""
        existing = self.refund_by_key(key)
        if existing is not None:
            return existing
        if status not in ("pending", "executed"):
            raise InvalidInput("a new refund is pending or executed")
        try:
            with self.engine.begin() as conn:
                self._lock_customer(conn, customer_id)
                q = select(svc_orders).where(svc_orders.c.id == order_id)
                if self._pg:
                    q = q.with_for_update()  # the order's row too (its status may change below)
                r = conn.execute(q).first()
                if r is None or r.customer_id != customer_id:
                    raise NotFound(f"order {order_id} not found")
                order = _row(r)
                refunds = [_row(x) for x in conn.execute(select(svc_refunds).where(svc_refunds.c.order_id == order_id))]
                problem = refund_problem(order, amount_cents, refunds, key)
                if problem:
                    raise Conflict(problem[1], details=[{"rule": problem[0]}])
                if status == "executed" and approval is not None and \
                        self._needs_agent(conn, approval, order_id, customer_id, amount_cents, refunds, key):
                    status = "pending"
                conn.execute(insert(svc_refunds).values(
                    id=derive_id("RF", key), idempotency_key=key, order_id=order_id, customer_id=customer_id,
                    amount_cents=amount_cents, reason=reason[:500], status=status, thread_id=thread_id,
                    requested_by=requested_by, decided_by=requested_by if status == "executed" else None))
                if status == "executed":
                    self._mark_refunded(conn, order, refunds, amount_cents)
        except IntegrityError:  # a concurrent call with the same key won the race
            pass
        out = self.refund_by_key(key)
        assert out is not None
        return out

    def _mark_refunded(self, conn: Any, order: dict[str, Any], refunds: list[dict[str, Any]], extra: int) -> None:
        done = sum(r["amount_cents"] for r in refunds if r["status"] == "executed") + extra
        if done >= order["paid_cents"]:
            conn.execute(update(svc_orders).where(svc_orders.c.id == order["id"])
                         .values(status="refunded", updated_at=func.now()))

    _TRANSITIONS = {"approved": ("pending",), "executed": ("pending", "approved"),
                    "rejected": ("pending", "approved"), "cancelled": ("pending", "approved")}

    def decide_refund(self, refund_id: str, *, status: str, by: str, note: str = "") -> dict[str, Any]:
        """Guarded transition; a replay (already in ``status``) or a late one changes nothing."""
        if status not in self._TRANSITIONS:
            raise InvalidInput(f"unknown refund status {status}")
        with self.engine.begin() as conn:
            q = select(svc_refunds).where(svc_refunds.c.id == refund_id)
            if self._pg:
                q = q.with_for_update()
            r = conn.execute(q).first()
            if r is None:
                raise NotFound(f"refund {refund_id} not found")
            if r.status in self._TRANSITIONS[status]:
                conn.execute(update(svc_refunds).where(svc_refunds.c.id == refund_id)
                             .where(svc_refunds.c.status.in_(self._TRANSITIONS[status]))
                             .values(status=status, decided_by=by, note=note[:500] or None, updated_at=func.now()))
                if status == "executed":
                    o = conn.execute(select(svc_orders).where(svc_orders.c.id == r.order_id)).first()
                    others = [_row(x) for x in conn.execute(select(svc_refunds).where(svc_refunds.c.order_id == r.order_id)
                                                            .where(svc_refunds.c.id != refund_id))]
                    if o is not None:
                        self._mark_refunded(conn, _row(o), others, r.amount_cents)
        out = self.get_refund(refund_id)
        assert out is not None
        return out

    # tickets -----------------------------------------------------------------------------------
    def create_ticket(self, *, key: str, customer_id: str, subject: str, body: str = "", order_id: str | None = None,
                      priority: str = "P2", thread_id: str = "") -> dict[str, Any]:
        tid = derive_id("TK", key)
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(svc_tickets.c.id).where(svc_tickets.c.idempotency_key == key)).first() is None:
                    conn.execute(insert(svc_tickets).values(
                        id=tid, idempotency_key=key, customer_id=customer_id, subject=subject[:300], body=body[:4000],
                        order_id=order_id, priority=priority, status="open", thread_id=thread_id))
        except IntegrityError:
            pass
        with self.engine.connect() as conn:
            return _row(conn.execute(select(svc_tickets).where(svc_tickets.c.idempotency_key == key)).one())

    def get_ticket(self, ticket_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_tickets).where(svc_tickets.c.id == ticket_id.upper())).first()
        return _row(r) if r else None

    def list_tickets(self, *, customer_id: str | None = None, status: str | None = None) -> list[dict[str, Any]]:
        q = select(svc_tickets).order_by(svc_tickets.c.created_at.desc())
        if customer_id:
            q = q.where(svc_tickets.c.customer_id == customer_id)
        if status:
            q = q.where(svc_tickets.c.status == status)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(q)]

    def set_ticket_status(self, ticket_id: str, status: str, *, only_from: tuple[str, ...] = ("open",)) -> dict[str, Any]:
        with self.engine.begin() as conn:
            conn.execute(update(svc_tickets).where(svc_tickets.c.id == ticket_id)
                         .where(svc_tickets.c.status.in_(only_from)).values(status=status, updated_at=func.now()))
        t = self.get_ticket(ticket_id)
        if t is None:
            raise NotFound(f"ticket {ticket_id} not found")
        return t

    # handoffs ----------------------------------------------------------------------------------
    def create_handoff(self, *, key: str, thread_id: str, customer_id: str, reason: str, urgency: str,
                       brief: dict[str, Any]) -> dict[str, Any]:
        hid = derive_id("HO", key)
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(svc_handoffs.c.id).where(svc_handoffs.c.idempotency_key == key)).first() is None:
                    conn.execute(insert(svc_handoffs).values(
                        id=hid, idempotency_key=key, thread_id=thread_id, customer_id=customer_id,
                        reason=reason[:300], urgency=urgency, brief=brief, status="open"))
        except IntegrityError:
            pass
        out = self.get_handoff(hid)
        assert out is not None
        return out

    def get_handoff(self, handoff_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_handoffs).where(svc_handoffs.c.id == handoff_id)).first()
        return _row(r) if r else None

    def list_handoffs(self, *, statuses: tuple[str, ...] = ("open", "answered"),
                      thread_id: str | None = None) -> list[dict[str, Any]]:
        q = select(svc_handoffs).where(svc_handoffs.c.status.in_(statuses)).order_by(svc_handoffs.c.created_at)
        if thread_id:
            q = q.where(svc_handoffs.c.thread_id == thread_id)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(q)]

    def set_handoff_status(self, handoff_id: str, status: str, assigned_to: str | None = None) -> None:
        values: dict[str, Any] = {"status": status, "updated_at": func.now()}
        if assigned_to:
            values["assigned_to"] = assigned_to
        with self.engine.begin() as conn:
            conn.execute(update(svc_handoffs).where(svc_handoffs.c.id == handoff_id).values(**values))

    def add_handoff_message(self, *, key: str, handoff_id: str, thread_id: str, author_id: str, author_role: str,
                            text: str) -> None:
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(svc_human_replies.c.id).where(svc_human_replies.c.idempotency_key == key)).first() is None:
                    conn.execute(insert(svc_human_replies).values(
                        idempotency_key=key, handoff_id=handoff_id, thread_id=thread_id, author_id=author_id,
                        author_role=author_role, text=text[:4000]))
        except IntegrityError:
            pass

    def handoff_messages(self, handoff_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(select(svc_human_replies).where(svc_human_replies.c.handoff_id == handoff_id)
                                                  .order_by(svc_human_replies.c.id))]

    # review queue ------------------------------------------------------------------------------
    def enqueue_review(self, *, thread_id: str, user_id: str | None, question: str, answer: str, verdict: str,
                       evidence: list[Any]) -> dict[str, Any]:
        key = "review:" + hashlib.sha256(f"{thread_id}\n{question}\n{answer}".encode()).hexdigest()
        rid = derive_id("RV", key)
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(svc_review_items.c.id).where(svc_review_items.c.id == rid)).first() is None:
                    conn.execute(insert(svc_review_items).values(
                        id=rid, idempotency_key=key, thread_id=thread_id, user_id=user_id, question=question[:4000],
                        answer=answer[:8000], verdict=verdict, evidence=evidence, status="pending"))
        except IntegrityError:
            pass
        out = self.get_review(rid)
        assert out is not None
        return out

    def enqueue_feedback(self, *, thread_id: str, message_id: str, user_id: str, rating: str, question: str,
                         answer: str, comment: str, trace: list[Any]) -> dict[str, Any]:
        """A user's thumbs up/down on one answer, as a review item (verdict ``user_up``/``user_down``).

        One item per (thread, message, user, rating): clicking twice changes nothing, and one
        person's rating (an agent reading the thread) never stands in for another's."""
        if rating not in ("up", "down"):
            raise InvalidInput("rating must be up or down")
        key = f"feedback:{thread_id}:{message_id}:{user_id}:{rating}"
        rid = derive_id("RV", key)
        evidence = [{"kind": "feedback", "rating": rating, "comment": comment[:2000], "message_id": message_id,
                     "trace": trace}]
        try:
            with self.engine.begin() as conn:
                if conn.execute(select(svc_review_items.c.id).where(svc_review_items.c.id == rid)).first() is None:
                    conn.execute(insert(svc_review_items).values(
                        id=rid, idempotency_key=key, thread_id=thread_id, user_id=user_id, question=question[:4000],
                        answer=answer[:8000], verdict="user_" + rating, evidence=evidence, status="pending"))
        except IntegrityError:
            pass
        out = self.get_review(rid)
        assert out is not None
        return out

    def get_review(self, review_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(svc_review_items).where(svc_review_items.c.id == review_id)).first()
        return _row(r) if r else None

    def list_reviews(self, status: str | None = "pending") -> list[dict[str, Any]]:
        q = select(svc_review_items).order_by(svc_review_items.c.created_at)
        if status:
            q = q.where(svc_review_items.c.status == status)
        with self.engine.connect() as conn:
            return [_row(r) for r in conn.execute(q)]

    def decide_review(self, review_id: str, *, status: str, by: str, edited_answer: str | None = None) -> dict[str, Any]:
        if status not in ("approved", "edited", "rejected"):
            raise InvalidInput("status must be approved, edited or rejected")
        if status == "edited" and not (edited_answer or "").strip():
            raise InvalidInput("edited_answer: an edit needs the corrected answer")
        if self.get_review(review_id) is None:
            raise NotFound(f"review item {review_id} not found")
        with self.engine.begin() as conn:
            conn.execute(update(svc_review_items).where(svc_review_items.c.id == review_id).values(
                status=status, reviewer_id=by, edited_answer=edited_answer if status == "edited" else None,
                updated_at=func.now()))
        out = self.get_review(review_id)
        assert out is not None
        return out


# demo data -----------------------------------------------------------------------------------
DEMO_USERS = [("alice", "张三", "customer"), ("bob", "李四", "customer"), ("agent", "王客服", "agent"),
              ("editor", "赵编辑", "editor"), ("admin", "管理员", "admin")]
DEMO_ORDERS: list[dict[str, Any]] = [
    {"id": "123", "customer_id": "alice", "status": "delivered", "carrier": "顺丰速运", "tracking_no": "SF1234567890",
     "shipping_note": "2025-03-03 已签收（苏州工业园区）", "placed_at": "2025-02-27",
     "items": [("XH-1001", "精密传动轴", 2, 6800), ("XH-2002", "标准连接法兰", 2, 7600)]},
    {"id": "124", "customer_id": "alice", "status": "shipped", "carrier": "中通快递", "tracking_no": "ZT7788990011",
     "shipping_note": "运输中：苏州 → 上海，预计 2025-03-12 送达", "placed_at": "2025-03-08",
     "items": [("XH-1002", "轻型导向轴", 5, 3200)]},
    {"id": "125", "customer_id": "alice", "status": "processing", "carrier": None, "tracking_no": None,
     "shipping_note": "仓库备货中，预计 2 个工作日内发货", "placed_at": "2025-03-10",
     "items": [("XH-2004", "真空密封法兰", 3, 32000)]},
    {"id": "126", "customer_id": "alice", "status": "cancelled", "carrier": None, "tracking_no": None,
     "shipping_note": "客户已取消", "placed_at": "2025-01-15", "items": [("XH-1006", "阶梯轴", 1, 5500)]},
    {"id": "200", "customer_id": "bob", "status": "delivered", "carrier": "京东物流", "tracking_no": "JD0001112223",
     "shipping_note": "2025-03-05 已签收（上海浦东）", "placed_at": "2025-03-01",
     "items": [("XH-1003", "精密电机轴", 1, 9600)]},
    {"id": "201", "customer_id": "bob", "status": "paid", "carrier": None, "tracking_no": None,
     "shipping_note": "已付款，等待仓库处理", "placed_at": "2025-03-11", "items": [("XH-2001", "精密法兰盘", 4, 18500)]},
]


def demo_key(user_id: str) -> str:
    """The fixed demo key of a user (``KNOWZERO_DEMO_KEYS=1``; refused in production)."""
    return f"demo-{user_id}"


def seed_demo(store: SqlStore, *, fixed_keys: bool = False) -> list[dict[str, str]]:
    """Create the demo users and orders when missing; returns keys issued by this call.

    A user without a key gets a fresh random key (printed once by ``knowzero serve``; only its hash
    is stored). With ``fixed_keys`` (``KNOWZERO_DEMO_KEYS=1``) every demo user's key is ``demo-<id>``.
    A revoked user gets no key either way. Running it again changes nothing (orders are inserted only when their id is missing).
    """
    issued: list[dict[str, str]] = []
    fixed = fixed_keys
    for uid, name, role in DEMO_USERS:
        user = store.get_user(uid)
        if user is None:
            store.upsert_user(uid, name, role)
        elif user["key_revoked"]:
            continue  # revoked stays revoked until an admin restores the user
        key = demo_key(uid) if fixed else None
        if key and (user is None or user.get("api_key_hash") != hash_api_key(key)):
            store.set_api_key(uid, key)
            issued.append({"user_id": uid, "name": name, "role": role, "api_key": key})
        elif not fixed and (user is None or not user.get("api_key_hash")):
            key = "kz-" + secrets.token_urlsafe(18)
            store.set_api_key(uid, key)
            issued.append({"user_id": uid, "name": name, "role": role, "api_key": key})
    with store.engine.begin() as conn:
        have = set(conn.execute(select(svc_orders.c.id)).scalars())
        for o in DEMO_ORDERS:
            if o["id"] in have:
                continue
            paid = sum(q * c for _, _, q, c in o["items"])
            conn.execute(insert(svc_orders).values(
                id=o["id"], customer_id=o["customer_id"], status=o["status"], paid_cents=paid, currency="CNY",
                carrier=o["carrier"], tracking_no=o["tracking_no"], shipping_note=o["shipping_note"],
                placed_at=o["placed_at"]))
            for sku, name, qty, unit in o["items"]:
                conn.execute(insert(svc_order_items).values(order_id=o["id"], sku=sku, name=name, qty=qty, unit_cents=unit))
    return issued
