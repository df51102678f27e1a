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

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager

import psycopg
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
"""PostgreSQL advisory lock key held while a process creates or migrates any schema on the database: our
tables (:func:`init_db`), the keyword index, pgvector's extension, procrastinate's schema, and
LangGraph's checkpointer and store migrations (:func:`async_schema_lock`)."""
DEMO_LOCK = 0x6B7A_0003
"""Held while a process seeds the demo knowledge base (0x6B7A_0002 is ``knowledge.ingest.pgqueue.REAP_LOCK``)."""


@contextmanager
def schema_lock(engine: Engine) -> Iterator[None]:
    """Serialise schema creation across processes: several API workers starting at once against a
    new database would otherwise race on ``CREATE … IF NOT EXISTS`` (PostgreSQL can fail one of
    them with a unique violation). A session-level advisory lock on PostgreSQL; nothing elsewhere.
    Every schema set-up on PostgreSQL holds it: ours through this, LangGraph's through
    :func:`async_schema_lock`. Not re-entrant: do not nest (a second connection of the same process
    would wait for the first)."""
    with advisory_lock(engine, SCHEMA_LOCK):
        yield


LOCK_POLL_S = (0.05, 0.5)
"""First and longest pause between two tries of an advisory lock another session holds."""


@asynccontextmanager
async def async_schema_lock(conninfo: str) -> AsyncIterator[None]:
    """:func:`schema_lock` for async set-up that holds a libpq ``conninfo`` rather than an engine
    (LangGraph's checkpointer and store ``setup()``, whose migrations otherwise race: duplicate
    ``checkpoint_migrations`` rows, ``pg_type`` unique violations, deadlocks). The same key, held on a
    dedicated idle connection for the whole block (closing it releases the lock if unlocking fails)."""
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        pause = LOCK_POLL_S[0]
        while True:
            row = await (await conn.execute("SELECT pg_try_advisory_lock(%s)", (SCHEMA_LOCK,))).fetchone()
            if row and row[0]:
                break
            await asyncio.sleep(pause)
            pause = min(pause * 2, LOCK_POLL_S[1])
        try:
            yield
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s)", (SCHEMA_LOCK,))


@contextmanager
def advisory_lock(engine: Engine, key: int) -> Iterator[None]:
    """One process at a time across every host sharing the database (a session-level PostgreSQL advisory
    lock on ``key``); nothing on SQLite, which serves one host. Not re-entrant for the same key.

    A waiter polls ``pg_try_advisory_lock`` with no transaction open between tries instead of blocking
    in ``pg_advisory_lock``: a blocked statement holds a snapshot, and LangGraph's migrations run
    ``CREATE INDEX CONCURRENTLY``, which waits for every older snapshot in the database, so a holder
    building such an index and a blocked waiter would wait for each other for ever (the holder's lock
    sits on another session, so PostgreSQL sees no deadlock)."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as conn:
        pause = LOCK_POLL_S[0]
        while not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar():
            conn.commit()
            time.sleep(pause)
            pause = min(pause * 2, LOCK_POLL_S[1])
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
