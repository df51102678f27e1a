"""Which embedding queue a database gets: procrastinate on PostgreSQL (:mod:`knowzero.knowledge.ingest.pgqueue`),
our table on SQLite (:class:`knowzero.knowledge.ingest.embedqueue.TableQueue`). The one place that chooses.

    q = open_queue(engine, settings); run_worker(q, encoder.passages, drain=True)
"""

from __future__ import annotations

from sqlalchemy import Engine

from knowzero.config import Settings
from knowzero.errors import KnowZeroError
from knowzero.knowledge.ingest.embedqueue import JobQueue, TableQueue


def open_queue(engine: Engine, settings: Settings) -> JobQueue:
    """The embedding queue for ``engine``'s database: procrastinate on PostgreSQL, our table on SQLite."""
    if engine.dialect.name == "postgresql":
        try:  # here, not at the top: pgqueue imports procrastinate, an optional dependency of PostgreSQL installs
            from knowzero.knowledge.ingest.pgqueue import ProcrastinateQueue
        except ModuleNotFoundError as exc:
            if exc.name != "procrastinate":
                raise
            raise KnowZeroError("PostgreSQL mode embeds through procrastinate: "
                                "pip install 'knowzero[postgres]'") from exc
        return ProcrastinateQueue(engine, batch=settings.embed_batch, stalled_s=settings.embed_stalled_s)
    return TableQueue(engine, lease_s=settings.embed_lease_s)
