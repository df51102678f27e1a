"""Thread metadata for listing and renaming (the conversation itself lives in the checkpointer)."""

from __future__ import annotations

import time

from sqlalchemy import Column, Float, String, Table, select, update

from knowzero.persistence.db import app_engine, metadata

threads = Table(
    "threads", metadata,
    Column("id", String(100), primary_key=True),
    Column("user_id", String(100), nullable=False, index=True),
    Column("title", String(200), nullable=False, default=""),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)


def touch_thread(thread_id: str, user_id: str, title: str) -> None:
    eng = app_engine()
    now = time.time()
    with eng.begin() as conn:
        row = conn.execute(select(threads.c.id).where(threads.c.id == thread_id)).first()
        if row is None:
            conn.execute(threads.insert().values(id=thread_id, user_id=user_id, title=title[:60] or "新对话",
                                                 created_at=now, updated_at=now))
        else:
            conn.execute(update(threads).where(threads.c.id == thread_id).values(updated_at=now))


def thread_owner(thread_id: str) -> str | None:
    with app_engine().connect() as conn:
        return conn.execute(select(threads.c.user_id).where(threads.c.id == thread_id)).scalar()


def list_threads(user_id: str) -> list[dict[str, object]]:
    with app_engine().connect() as conn:
        rows = conn.execute(select(threads).where(threads.c.user_id == user_id).order_by(threads.c.updated_at.desc())
                            .limit(200)).all()
    return [dict(r._mapping) for r in rows]


def rename_thread(thread_id: str, title: str) -> None:
    with app_engine().begin() as conn:
        conn.execute(update(threads).where(threads.c.id == thread_id).values(title=title[:200]))
