"""Checkpointer and store chosen by URL: SQLite file (default) or PostgreSQL.

``open_persistence(settings, types)`` is an async context manager yielding ``(checkpointer, store)``;
the API opens it once at start-up, the CLI once per command. ``types`` are the project's classes a
checkpoint may hold (the graph's typed state); nothing else is revived from a checkpoint. Tables are created on first use;
on PostgreSQL under the schema advisory lock (``persistence.db.SCHEMA_LOCK``), so workers starting
together on a new database run LangGraph's migrations one after the other.
Redis is not a checkpointer here (Debian's Redis lacks the modules langgraph-checkpoint-redis
needs); it serves locks and caches only.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.store.postgres.aio import AsyncPostgresStore
from langgraph.store.sqlite.aio import AsyncSqliteStore

from knowzero.config import Settings
from knowzero.persistence.db import async_schema_lock


def _pg_conninfo(url: str) -> str:
    for prefix in ("postgresql+psycopg://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql://" + url[len(prefix):]
    return url


def serializer(types: tuple[type, ...]) -> JsonPlusSerializer:
    """LangGraph's serializer, reviving only its own safe types and ``types`` from a checkpoint."""
    return JsonPlusSerializer(allowed_msgpack_modules=[(t.__module__, t.__name__) for t in types])


@asynccontextmanager
async def open_persistence(settings: Settings, types: tuple[type, ...] = ()) -> AsyncIterator[tuple[Any, Any]]:
    serde = serializer(types)
    if settings.is_postgres:
        conninfo = _pg_conninfo(settings.database_url)
        async with AsyncPostgresSaver.from_conn_string(conninfo, serde=serde) as saver, \
                AsyncPostgresStore.from_conn_string(conninfo) as store:
            async with async_schema_lock(conninfo):
                await saver.setup()
                await store.setup()
            yield saver, store
        return
    path = settings.data_path() / "checkpoints.db"
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    await conn.execute("PRAGMA journal_mode=WAL")
    await conn.execute("PRAGMA synchronous=NORMAL")
    store_conn = await aiosqlite.connect(str(settings.data_path() / "store.db"), isolation_level=None)
    await store_conn.execute("PRAGMA journal_mode=WAL")
    try:
        sqlite_saver = AsyncSqliteSaver(conn, serde=serde)
        await sqlite_saver.setup()
        sqlite_store = AsyncSqliteStore(store_conn)
        await sqlite_store.setup()
        yield sqlite_saver, sqlite_store
    finally:
        await conn.close()
        await store_conn.close()
