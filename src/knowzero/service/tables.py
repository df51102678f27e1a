"""Service tables on the shared app ``metadata``: users, orders (+ items), refunds, tickets,
handoffs, human replies and the review queue.

Money is stored as integer cents (no float rounding, no Decimal warnings on SQLite). Every
side-effect row carries an ``idempotency_key`` with a UNIQUE constraint: inserting the same
action twice is refused by the database, which is what makes resume/replay exactly-once.
Nothing here reads or writes rows; see :mod:`knowzero.service.store`.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Connection,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    func,
    inspect,
    text,
)

from knowzero.persistence.db import MIGRATIONS, metadata


def _ts(name: str) -> Column:
    return Column(name, DateTime(timezone=True), server_default=func.now(), nullable=False)


svc_users = Table(
    "svc_users", metadata,
    Column("id", String(64), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("role", String(16), nullable=False),  # customer | agent | admin
    Column("api_key_hash", String(64), unique=True, nullable=True),
    Column("key_revoked", Boolean, nullable=False, server_default=text("false")),
    # An admin revoked this user's key: no key is issued again (not by `knowzero keys create`, not by a
    # restart with demo keys) until an admin restores the user (`knowzero keys restore`).
    _ts("created_at"),
)


def migrate_key_revoked(conn: Connection) -> None:
    """Users get ``key_revoked`` (so the next start does not issue a revoked user a new key)."""
    if "key_revoked" not in {c["name"] for c in inspect(conn).get_columns("svc_users")}:
        conn.execute(text("ALTER TABLE svc_users ADD COLUMN key_revoked BOOLEAN NOT NULL DEFAULT false"))


MIGRATIONS.append(("svc_users_key_revoked", migrate_key_revoked))

svc_orders = Table(
    "svc_orders", metadata,
    Column("id", String(64), primary_key=True),
    Column("customer_id", String(64), ForeignKey("svc_users.id"), nullable=False, index=True),
    # pending_payment | paid | processing | shipped | delivered | cancelled | refunded
    Column("status", String(24), nullable=False),
    Column("paid_cents", Integer, nullable=False),
    Column("currency", String(8), nullable=False, server_default="CNY"),
    Column("carrier", String(64), nullable=True),
    Column("tracking_no", String(64), nullable=True),
    Column("shipping_note", String(400), nullable=True),
    Column("placed_at", String(32), nullable=False),
    _ts("updated_at"),
)

svc_order_items = Table(
    "svc_order_items", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("order_id", String(64), ForeignKey("svc_orders.id"), nullable=False, index=True),
    Column("sku", String(64), nullable=False),
    Column("name", String(200), nullable=False),
    Column("qty", Integer, nullable=False),
    Column("unit_cents", Integer, nullable=False),
)

svc_refunds = Table(
    "svc_refunds", metadata,
    Column("id", String(32), primary_key=True),  # RF-… derived from the idempotency key
    Column("idempotency_key", String(200), unique=True, nullable=False),
    Column("order_id", String(64), nullable=False, index=True),
    Column("customer_id", String(64), nullable=False, index=True),
    Column("amount_cents", Integer, nullable=False),
    Column("reason", String(500), nullable=False),
    Column("status", String(16), nullable=False),  # pending | approved | rejected | executed | cancelled
    Column("thread_id", String(120), nullable=True),
    Column("requested_by", String(64), nullable=False),
    Column("decided_by", String(64), nullable=True),
    Column("note", String(500), nullable=True),
    _ts("created_at"),
    _ts("updated_at"),
)

svc_tickets = Table(
    "svc_tickets", metadata,
    Column("id", String(32), primary_key=True),  # TK-…
    Column("idempotency_key", String(200), unique=True, nullable=False),
    Column("customer_id", String(64), nullable=False, index=True),
    Column("subject", String(300), nullable=False),
    Column("body", Text, nullable=False, server_default=""),
    Column("order_id", String(64), nullable=True),
    Column("priority", String(4), nullable=False, server_default="P2"),
    Column("status", String(16), nullable=False),  # open | closed | cancelled
    Column("thread_id", String(120), nullable=True),
    _ts("created_at"),
    _ts("updated_at"),
)

svc_handoffs = Table(
    "svc_handoffs", metadata,
    Column("id", String(32), primary_key=True),  # HO-…
    Column("idempotency_key", String(200), unique=True, nullable=False),
    Column("thread_id", String(120), nullable=False, index=True),
    Column("customer_id", String(64), nullable=False),
    Column("reason", String(300), nullable=False),
    Column("urgency", String(4), nullable=False),
    Column("brief", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # open | answered | returned
    Column("assigned_to", String(64), nullable=True),
    _ts("created_at"),
    _ts("updated_at"),
)

svc_human_replies = Table(
    "svc_human_replies", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("idempotency_key", String(200), unique=True, nullable=False),
    Column("handoff_id", String(32), ForeignKey("svc_handoffs.id"), nullable=False, index=True),
    Column("thread_id", String(120), nullable=False),
    Column("author_id", String(64), nullable=False),  # the agent, or the customer writing while waiting
    Column("author_role", String(16), nullable=False),
    Column("text", Text, nullable=False),
    _ts("created_at"),
)

svc_review_items = Table(
    "svc_review_items", metadata,
    Column("id", String(32), primary_key=True),  # RV-…
    Column("idempotency_key", String(200), unique=True, nullable=False),
    Column("thread_id", String(120), nullable=True),
    Column("user_id", String(64), nullable=True),
    Column("question", Text, nullable=False),
    Column("answer", Text, nullable=False),
    Column("verdict", String(16), nullable=False),  # uncertain | contradicted
    Column("evidence", JSON, nullable=False),
    Column("status", String(16), nullable=False),  # pending | approved | edited | rejected
    Column("edited_answer", Text, nullable=True),
    Column("reviewer_id", String(64), nullable=True),
    _ts("created_at"),
    _ts("updated_at"),
)

Index("ix_svc_refunds_order_status", svc_refunds.c.order_id, svc_refunds.c.status)
Index("ix_svc_handoffs_status", svc_handoffs.c.status)
Index("ix_svc_review_status", svc_review_items.c.status)
