"""The embedding queue on PostgreSQL: procrastinate jobs, one per batch of vector keys.

Ingest defers ``knowzero.embed_chunks(keys=[…])`` on its own psycopg connection, so the job row is
written in the same transaction as the chunk rows: a rolled-back ingest leaves no job, a
committed chunk without a vector always has one. A key is deferred only when no committed chunk
already carries it (that chunk's job covers it; the chunk rows are locked ``FOR KEY SHARE`` so
they cannot vanish before this transaction commits).

A job (run by ``knowzero worker`` on any host, the server's background thread, or an ingest that
waits) reads the bodies of its keys that still lack a vector from ``kb_chunks``, embeds them,
stores the vectors and bumps the ``vectors`` revision. It is idempotent, so a retried job never
recomputes a stored vector. Each key is held under a PostgreSQL advisory lock while it is
embedded: two workers never embed the same chunk at once, even when two jobs name it (a job that
finds a key locked does the rest first, then waits for that key and skips it if its vector came).

Workers heartbeat every ``stalled_s / 3`` seconds; a worker killed mid-batch stops, and any
worker (at start and every ``stalled_s / 2`` seconds) hands the jobs of workers silent for
``stalled_s`` back to the queue (procrastinate's ``get_stalled_jobs`` + ``retry_job``). A batch
that raises is retried (``MAX_ATTEMPTS`` runs in all), then left ``failed`` and counted as such.

procrastinate's schema is applied once per database, under the project's schema lock, when it is
absent; jobs left in ``kb_embed_queue`` by an earlier version move over at the same time.

    q = ProcrastinateQueue(engine, batch=8, stalled_s=30); q.work(encoder.passages, drain=True)
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from procrastinate import App, JobContext, PsycopgConnector, SyncPsycopgConnector
from procrastinate import worker as pworker
from procrastinate.schema import SchemaManager
from procrastinate.types import JSONDict
from sqlalchemy import Connection, Engine, text

from knowzero.knowledge.index.tables import embed_body
from knowzero.knowledge.ingest.embedqueue import (
    MAX_ATTEMPTS,
    Encode,
    QueueStats,
    WorkProgress,
    bump,
    store_vectors,
    worker_id,
)
from knowzero.persistence.db import schema_lock

log = logging.getLogger(__name__)

TASK = "knowzero.embed_chunks"
QUEUE = "embed"
REAP_LOCK = 0x6B7A_0002
"""Advisory lock held while one worker hands stalled jobs back (two reapers could otherwise
re-queue a job that a live worker has just taken)."""
_KEY_LOCK = "hashtextextended(k, 7)"


def conninfo(engine: Engine) -> str:
    """A libpq connection string for ``engine``'s database (procrastinate's own pool uses it)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass
class _Run:
    """One ``work`` call's state, handed to its jobs through procrastinate's ``additional_context``."""

    encode: Encode
    batch: int
    progress: Callable[[WorkProgress], None] | None
    stop: threading.Event | None = None
    worker: pworker.Worker | None = None
    t0: float = field(default_factory=time.perf_counter)
    done: int = 0
    job_done: int = 0  # of those, in the job running now (still counted as pending in the job table)
    pending_at: tuple[float, int, int] = (0.0, 0, 0)  # when last counted, what, and ``done`` then


class ProcrastinateQueue:
    """Embedding jobs in procrastinate's tables (see module doc)."""

    def __init__(self, engine: Engine, *, batch: int = 8, stalled_s: float = 30.0) -> None:
        self.engine = engine
        self.batch = batch
        self.stalled_s = stalled_s
        self._defer_app = App(connector=SyncPsycopgConnector())
        """Defers only on a caller's connection (ingest's transaction): its pool is never opened."""
        self._ensure_schema()

    # ----- schema -----
    def _ensure_schema(self) -> None:
        with self.engine.connect() as conn:
            if _has_schema(conn) and not _old_jobs(conn):
                return
        with schema_lock(self.engine), self.engine.begin() as conn:
            if not _has_schema(conn):  # several workers may start together: only the first applies it
                raw = conn.connection.driver_connection
                assert raw is not None
                raw.execute(SchemaManager.get_schema())
            if _old_jobs(conn):  # a database queued by the table queue of an earlier version
                rows = conn.execute(text("DELETE FROM kb_embed_queue RETURNING key, body")).all()
                self.enqueue(conn, {r.key: r.body for r in rows}, dedupe=False)
                log.info("moved %d queued embeddings from kb_embed_queue to procrastinate", len(rows))

    # ----- ingest side -----
    def enqueue(self, conn: Connection, bodies: dict[str, str], *, dedupe: bool = True) -> int:
        if not bodies:
            return 0
        keys = sorted(bodies)
        if dedupe:
            covered = set(conn.execute(text("SELECT vkey FROM kb_chunks WHERE vkey = ANY(:keys) FOR KEY SHARE"),
                                       {"keys": keys}).scalars())
            keys = [k for k in keys if k not in covered]
        if keys:
            deferrer = self._defer_app.configure_task(TASK, queue=QUEUE, connection=conn.connection.driver_connection)
            jobs: list[JSONDict] = [{"keys": list(keys[i : i + self.batch])} for i in range(0, len(keys), self.batch)]
            deferrer.batch_defer(*jobs)
        return len(bodies)

    def discard(self, conn: Connection, keys: set[str]) -> None:
        """Nothing to drop: a job holds keys only, and a key whose chunks are gone embeds nothing (the body is
        read from ``kb_chunks`` when the job runs)."""

    def stats(self) -> QueueStats:
        with self.engine.connect() as conn:
            row = conn.execute(text(
                "SELECT coalesce(sum(jsonb_array_length(args->'keys')) FILTER (WHERE status IN ('todo', 'doing')), 0),"
                " coalesce(sum(jsonb_array_length(args->'keys')) FILTER (WHERE status = 'failed'), 0)"
                " FROM procrastinate_jobs WHERE queue_name = :q AND task_name = :t"), {"q": QUEUE, "t": TASK}).one()
        return QueueStats(int(row[0]), int(row[1]))

    def queued_keys(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.execute(text(
                "SELECT DISTINCT k FROM procrastinate_jobs, jsonb_array_elements_text(args->'keys') k "
                "WHERE queue_name = :q AND task_name = :t AND status IN ('todo', 'doing')"),
                {"q": QUEUE, "t": TASK}).scalars())

    # ----- worker side -----
    def _worker_app(self) -> App:
        """A fresh app per ``work`` call: its async pool belongs to that call's event loop."""
        app = App(connector=PsycopgConnector(conninfo=conninfo(self.engine), min_size=1, max_size=4))
        app.task(name=TASK, queue=QUEUE, pass_context=True, retry=MAX_ATTEMPTS - 1)(self._run_job)
        return app

    def work(self, encode: Encode, *, batch: int = 8, drain: bool = False, stop: threading.Event | None = None,
             idle_s: float = 1.0, progress: Callable[[WorkProgress], None] | None = None,
             who: str | None = None) -> int:
        run = _Run(encode, batch, progress, stop)
        asyncio.run(self._work(run, drain=drain, stop=stop, idle_s=idle_s, name=who or worker_id()))
        return run.done

    async def _work(self, run: _Run, *, drain: bool, stop: threading.Event | None, idle_s: float, name: str) -> None:
        app = self._worker_app()
        async with app.open_async():
            await self._reap(app)  # a drain right after a crash still finds the dead worker's batches
            w = pworker.Worker(app=app, queues=[QUEUE], name=name, concurrency=1, wait=not drain,
                               fetch_job_polling_interval=idle_s, install_signal_handlers=False,
                               delete_jobs="successful", additional_context={"kz": run},
                               update_heartbeat_interval=self.stalled_s / 3, stalled_worker_timeout=self.stalled_s)
            run.worker = w

            async def watch() -> None:
                while True:
                    await asyncio.sleep(min(0.2, idle_s))
                    if stop is not None and stop.is_set():
                        w.stop()
                        return

            async def reap() -> None:
                while True:
                    await asyncio.sleep(self.stalled_s / 2)
                    try:
                        await self._reap(app)
                    except Exception as exc:  # noqa: BLE001 - the next round tries again
                        log.warning("handing back stalled embedding jobs failed: %s", exc)

            side = [asyncio.create_task(watch()), asyncio.create_task(reap())]
            try:
                await w.run()
            finally:
                for t in side:
                    t.cancel()
                await asyncio.gather(*side, return_exceptions=True)

    async def _reap(self, app: App) -> int:
        """Put the jobs of workers silent for ``stalled_s`` back in the queue (one reaper at a time)."""
        with self.engine.connect() as conn:
            if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": REAP_LOCK}).scalar():
                return 0
            try:
                stalled = list(await app.job_manager.get_stalled_jobs(queue=QUEUE, task_name=TASK,
                                                                       seconds_since_heartbeat=self.stalled_s))
                for job in stalled:
                    await app.job_manager.retry_job(job)
                if stalled:
                    log.info("%d embedding batches of stopped workers went back to the queue", len(stalled))
                return len(stalled)
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": REAP_LOCK})
                conn.commit()

    def _run_job(self, context: JobContext, keys: list[str]) -> int:
        """The task: embed those of ``keys`` that still lack a vector (idempotent)."""
        run: _Run = context.additional_context["kz"]
        run.job_done = 0
        n = 0
        with self.engine.connect() as conn:
            try:
                mine = set(conn.execute(text(f"SELECT k FROM unnest(CAST(:keys AS text[])) k "
                                             f"WHERE pg_try_advisory_lock({_KEY_LOCK})"), {"keys": keys}).scalars())
                conn.commit()
                n += self._embed(conn, sorted(mine), run)
                conn.execute(text("SELECT pg_advisory_unlock_all()"))
                conn.commit()
                # Keys another worker holds: wait for them (in order, holding nothing else), then
                # embed only those whose vector did not come meanwhile (a lock-hash collision, a
                # worker that died holding them).
                for k in sorted(set(keys) - mine):
                    conn.execute(text(f"SELECT pg_advisory_lock({_KEY_LOCK}) FROM (SELECT CAST(:k AS text) k) s"),
                                 {"k": k})
                    conn.commit()
                    n += self._embed(conn, [k], run)
                    conn.execute(text("SELECT pg_advisory_unlock_all()"))
                    conn.commit()
            finally:
                conn.rollback()
                conn.execute(text("SELECT pg_advisory_unlock_all()"))
                conn.commit()
        return n

    def _embed(self, conn: Connection, keys: list[str], run: _Run) -> int:
        if not keys:
            return 0
        rows = conn.execute(text(
            "SELECT DISTINCT ON (c.vkey) c.vkey, c.title, c.section, c.text FROM kb_chunks c "
            "WHERE c.vkey = ANY(:keys) AND NOT EXISTS (SELECT 1 FROM kb_embeddings e WHERE e.key = c.vkey) "
            "ORDER BY c.vkey"), {"keys": keys}).all()
        conn.commit()
        n = 0
        for i in range(0, len(rows), max(run.batch, 1)):
            part = rows[i : i + run.batch]
            mat = run.encode([embed_body(r.title, r.section, r.text) for r in part])
            with conn.begin():
                store_vectors(conn, {r.vkey: v for r, v in zip(part, mat, strict=True)})
                bump(conn, "vectors")
            n += len(part)
            run.done += len(part)
            run.job_done += len(part)
            if run.progress is not None:
                run.progress(WorkProgress(run.done, self._pending(run), run.done / max(time.perf_counter() - run.t0,
                                                                                       1e-6)))
        if run.stop is not None and run.stop.is_set() and run.worker is not None:
            run.worker.stop()  # before the worker fetches another job (``watch`` looks only every 0.2 s)
        return n

    def _pending(self, run: _Run) -> int:
        """The pending count, recounted at most every 2 s (a sum over the job table) and estimated between."""
        at, pending, done_then = run.pending_at
        if time.perf_counter() - at > 2.0:
            run.pending_at = (time.perf_counter(), max(self.stats().pending - run.job_done, 0), run.done)
            return run.pending_at[1]
        return max(pending - (run.done - done_then), 0)


def _has_schema(conn: Connection) -> bool:
    return conn.execute(text("SELECT to_regclass('procrastinate_jobs') IS NOT NULL")).scalar() is True


def _old_jobs(conn: Connection) -> bool:
    return conn.execute(text("SELECT to_regclass('kb_embed_queue') IS NOT NULL")).scalar() is True and \
        conn.execute(text("SELECT EXISTS (SELECT 1 FROM kb_embed_queue)")).scalar() is True

