"""The app database: one SQLAlchemy engine per URL, one MetaData, ordered migrations.

Each domain declares its tables on :data:`metadata` in its own ``tables.py`` module
(knowledge, service, learning); :func:`init_db` imports them, creates what is missing and then
applies :data:`MIGRATIONS` in order, recording each in ``schema_migrations`` (simonw/llm style).
SQLite runs in WAL mode with foreign keys on. Nothing here knows about any domain's rows.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable
from functools import lru_cache

from sqlalchemy import Column, Connection, DateTime, Engine, MetaData, String, Table, create_engine, event, func, select

metadata = MetaData()

schema_migrations = Table(
    "schema_migrations", metadata,
    Column("name", String(200), primary_key=True),
    Column("applied_at", DateTime(timezone=True), server_default=func.now()),
)

TABLE_MODULES = ("knowzero.knowledge.tables", "knowzero.service.tables", "knowzero.learning.tables",
                 "knowzero.persistence.threads")

# Ordered (name, fn(conn)) pairs; append only. create_all covers new tables, these cover changes.
MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = []

_init_lock = threading.Lock()
_initialised: set[str] = set()


@lru_cache(maxsize=8)
def get_engine(url: str) -> Engine:
    """One engine (and pool) per URL per process."""
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


def import_table_modules() -> None:
    for name in TABLE_MODULES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise


def init_db(engine: Engine) -> Engine:
    """Create missing tables and apply pending migrations (idempotent, once per process per URL)."""
    key = str(engine.url)
    if key in _initialised:
        return engine
    with _init_lock:
        if key in _initialised:
            return engine
        import_table_modules()
        metadata.create_all(engine)
        with engine.begin() as conn:
            done = set(conn.execute(select(schema_migrations.c.name)).scalars())
            for name, fn in MIGRATIONS:
                if name not in done:
                    fn(conn)
                    conn.execute(schema_migrations.insert().values(name=name))
        _initialised.add(key)
    return engine


def app_engine() -> Engine:
    """The configured app database, initialised."""
    from knowzero.config import get_settings

    return init_db(get_engine(get_settings().db_url))
