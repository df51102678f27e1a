"""Thread metadata: who owns a thread, its title, when it was used (the conversation itself lives
in the checkpointer), and which threads have a turn running (``thread_turns``: a row is written
before a turn starts and deleted when it ends, so the rows left after a crash name exactly the
threads whose turn was cut short). :class:`ThreadDirectory` is the only writer; the runner is its
only caller for ownership decisions and turn recovery (see ``api/runner.py``)."""

from __future__ import annotations

import time

from sqlalchemy import Column, Engine, Float, String, Table, delete, select, update
from sqlalchemy.exc import IntegrityError

from knowzero.persistence.db import init_db, metadata

threads = Table(
    "threads", metadata,
    Column("id", String(100), primary_key=True),
    Column("user_id", String(100), nullable=False, index=True),
    Column("title", String(200), nullable=False, default=""),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

thread_turns = Table(
    "thread_turns", metadata,
    Column("thread_id", String(100), primary_key=True),
    Column("started_at", Float, nullable=False),
)


class ThreadDirectory:
    """Owners and titles of threads in the app database.

    >>> # d = ThreadDirectory(engine); d.claim("t1", "alice", "hi") → "alice"; d.owner("t1") → "alice"
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = init_db(engine)

    def owner(self, thread_id: str) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(select(threads.c.user_id).where(threads.c.id == thread_id)).scalar()

    def claim(self, thread_id: str, user_id: str, title: str) -> str:
        """Create the thread for ``user_id`` unless it exists; returns the owner either way (race-safe)."""
        now = time.time()
        try:
            with self.engine.begin() as conn:
                conn.execute(threads.insert().values(id=thread_id, user_id=user_id, title=title[:60] or "新对话",
                                                     created_at=now, updated_at=now))
            return user_id
        except IntegrityError:
            return self.owner(thread_id) or ""

    def touch(self, thread_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(threads).where(threads.c.id == thread_id).values(updated_at=time.time()))

    def transfer(self, thread_id: str, from_user: str, to_user: str) -> bool:
        """Hand a thread from one identity to another (an anonymous visitor who signs in)."""
        with self.engine.begin() as conn:
            n = conn.execute(update(threads).where(threads.c.id == thread_id, threads.c.user_id == from_user)
                             .values(user_id=to_user, updated_at=time.time())).rowcount
        return bool(n)

    def list(self, user_id: str) -> list[dict[str, object]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(threads).where(threads.c.user_id == user_id)
                                .order_by(threads.c.updated_at.desc()).limit(200)).all()
        return [dict(r._mapping) for r in rows]

    def rename(self, thread_id: str, title: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(threads).where(threads.c.id == thread_id).values(title=title[:200]))

    def turn_started(self, thread_id: str) -> None:
        """Record that a turn is running on the thread (before the graph runs)."""
        with self.engine.begin() as conn:
            if conn.execute(update(thread_turns).where(thread_turns.c.thread_id == thread_id)
                            .values(started_at=time.time())).rowcount == 0:
                try:
                    with conn.begin_nested():
                        conn.execute(thread_turns.insert().values(thread_id=thread_id, started_at=time.time()))
                except IntegrityError:
                    pass  # recorded concurrently: one row is enough

    def turn_ended(self, thread_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(thread_turns).where(thread_turns.c.thread_id == thread_id))

    def unfinished_turns(self) -> tuple[str, ...]:
        """Threads whose last turn started and never ended (the process died while it ran)."""
        with self.engine.connect() as conn:
            return tuple(conn.execute(select(thread_turns.c.thread_id).order_by(thread_turns.c.started_at)).scalars())

    def delete(self, thread_id: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(threads).where(threads.c.id == thread_id))
            conn.execute(delete(thread_turns).where(thread_turns.c.thread_id == thread_id))
