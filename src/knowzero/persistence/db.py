"""The app database: engines by URL, one MetaData, ordered migrations.

Each domain declares its tables on :data:`metadata` in its own ``tables.py`` module
(knowledge, service, learning, persistence.threads); the owner of those tables imports its module
and calls :func:`init_db`, which creates what is missing (persistence never imports a domain) and
applies :data:`MIGRATIONS` in order, recording each in ``schema_migrations`` (simonw/llm style).
SQLite runs in WAL mode with foreign keys on. Nothing here knows about any domain's rows, and
nothing here is cached per process: the dependency container (``knowzero.wiring``) makes one
engine and shares it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import (
    Column,
    Connection,
    DateTime,
    Engine,
    MetaData,
    String,
    Table,
    create_engine,
    event,
    func,
    select,
    text,
)

metadata = MetaData()

schema_migrations = Table(
    "schema_migrations", metadata,
    Column("name", String(200), primary_key=True),
    Column("applied_at", DateTime(timezone=True), server_default=func.now()),
)

# Ordered (name, fn(conn)) pairs; append only. create_all covers new tables, these cover changes.
MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = []

def make_engine(url: str) -> Engine:
    """A new engine (and connection pool) for ``url``; callers share the one they make."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _rec):  # type: ignore[no-untyped-def]
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=5, max_overflow=10)


SCHEMA_LOCK = 0x6B7A_0001
"""PostgreSQL advisory lock key held while a process creates or migrates the schema."""
DEMO_LOCK = 0x6B7A_0003
"""Held while a process seeds the demo knowledge base (0x6B7A_0002 is ``knowledge.pgqueue.REAP_LOCK``)."""


@contextmanager
def schema_lock(engine: Engine) -> Iterator[None]:
    """Serialise schema creation across processes: several API workers starting at once against a
    new database would otherwise race on ``CREATE … IF NOT EXISTS`` (PostgreSQL can fail one of
    them with a unique violation). A session-level advisory lock on PostgreSQL; nothing elsewhere.
    Not re-entrant: do not nest (a second connection of the same process would wait for the first)."""
    with advisory_lock(engine, SCHEMA_LOCK):
        yield


@contextmanager
def advisory_lock(engine: Engine, key: int) -> Iterator[None]:
    """One process at a time across every host sharing the database (a session-level PostgreSQL advisory
    lock on ``key``); nothing on SQLite, which serves one host. Not re-entrant for the same key."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as conn:
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
        conn.commit()
        try:
            yield
        finally:
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
            conn.commit()


def init_db(engine: Engine) -> Engine:
    """Create the missing tables of every imported ``tables`` module and apply pending migrations
    (idempotent: each owner of tables imports its module and calls this with its engine)."""
    with schema_lock(engine):
        metadata.create_all(engine)
        with engine.begin() as conn:
            done = set(conn.execute(select(schema_migrations.c.name)).scalars())
            for name, fn in MIGRATIONS:
                if name not in done:
                    fn(conn)
                    conn.execute(schema_migrations.insert().values(name=name))
    return engine
