"""The embedding job queue: chunks are searchable at once, their dense vectors come later.

Ingest writes a chunk, its keyword row and — when no cached or shipped vector exists — its
embedding job in the same transaction, so a job exists exactly when a committed chunk lacks its
vector. Workers (``knowzero worker``, the server's background thread, or ``knowzero ingest``
itself while it waits) embed a batch outside any transaction, then store the vectors in one
transaction and bump the ``vectors`` revision (readers then load only the new vectors). A worker
killed mid-batch loses that batch's unfinished work only: the batch goes back to the queue and
another worker redoes it; a vector once stored is never computed again, because ingest looks in
``kb_embeddings`` before it queues anything and a worker skips keys that already have a vector.

Two engines keep these guarantees (one contract suite, ``tests/contract/test_embed_queue_contract.py``):

* SQLite (one machine): :class:`TableQueue`, our own ``kb_embed_queue`` table — a job per vector
  key, claimed under a lease; a worker on the same host whose process is gone loses its leases
  at once (``release_dead``).
* PostgreSQL (any number of machines): :class:`knowzero.knowledge.ingest.pgqueue.ProcrastinateQueue`,
  jobs in procrastinate's tables, deferred on ingest's own connection (same transaction); a
  killed worker's jobs come back once its heartbeat is stale.

:func:`knowzero.knowledge.ingest.queues.open_queue` picks the engine for a database (the one place that does).

    q = open_queue(engine, settings); run_worker(q, encoder.passages, drain=True) -> vectors computed
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from sqlalchemy import Connection, Engine, and_, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from knowzero.knowledge.index.tables import kb_embed_queue, kb_embeddings, kb_meta

log = logging.getLogger(__name__)
MAX_ATTEMPTS = 3


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _insert(conn: Connection, table: Any) -> Any:
    """An INSERT … ON CONFLICT DO NOTHING for the connection's dialect."""
    ins = postgresql.insert(table) if conn.dialect.name == "postgresql" else sqlite.insert(table)
    return ins.on_conflict_do_nothing()


def bump(conn: Connection, key: str) -> None:
    """A new random value for revision ``key`` (an upsert: concurrent writers on PostgreSQL never collide)."""
    ins = postgresql.insert(kb_meta) if conn.dialect.name == "postgresql" else sqlite.insert(kb_meta)
    value = uuid.uuid4().hex
    conn.execute(ins.values(key=key, value=value).on_conflict_do_update(index_elements=[kb_meta.c.key],
                                                                         set_={"value": value}))


def store_vectors(conn: Connection, vectors: dict[str, np.ndarray]) -> None:
    if vectors:
        conn.execute(_insert(conn, kb_embeddings), [
            {"key": k, "vector": np.asarray(v, dtype=np.float32).tobytes()} for k, v in vectors.items()])


@dataclass
class QueueStats:
    pending: int  # chunks (vector keys) whose job waits or runs
    failed: int  # chunks whose job was given up after MAX_ATTEMPTS errors


@dataclass
class WorkProgress:
    embedded: int
    pending: int
    rate: float  # vectors per second since the worker started


Encode = Callable[[list[str]], np.ndarray]


class JobQueue(Protocol):
    """What ingest, workers and status displays need of an embedding queue (either engine)."""

    def enqueue(self, conn: Connection, bodies: dict[str, str]) -> int:
        """Queue ``{vector key: body}`` in ingest's transaction (``conn``); returns how many were asked for."""

    def stats(self) -> QueueStats: ...

    def discard(self, conn: Connection, keys: set[str]) -> None:
        """Drop waiting jobs of ``keys`` (their chunks were deleted: no document holds them any more)."""

    def queued_keys(self) -> set[str]:
        """The vector keys with a job waiting or running (for checks; reads the whole queue)."""

    def work(self, encode: Encode, *, batch: int = 8, drain: bool = False, stop: threading.Event | None = None,
             idle_s: float = 1.0, progress: Callable[[WorkProgress], None] | None = None,
             who: str | None = None) -> int:
        """Embed queued chunks until stopped (or, with ``drain``, until none is left for us). Returns how many."""


class TableQueue:
    """Jobs in ``kb_embed_queue``, one per vector key (see module doc). ``lease_s``: how long a claim lasts."""

    def __init__(self, engine: Engine, lease_s: float = 120.0) -> None:
        self.engine = engine
        self.lease_s = lease_s

    def enqueue(self, conn: Connection, bodies: dict[str, str]) -> int:
        if bodies:
            now = time.time()
            conn.execute(_insert(conn, kb_embed_queue), [
                {"key": k, "body": b, "enqueued_at": now, "lease_until": None, "claimed_by": "", "attempts": 0,
                 "error": ""} for k, b in bodies.items()])
        return len(bodies)

    def discard(self, conn: Connection, keys: set[str]) -> None:
        if keys:
            conn.execute(delete(kb_embed_queue).where(kb_embed_queue.c.key.in_(sorted(keys))))

    def stats(self) -> QueueStats:
        with self.engine.connect() as conn:
            pending = conn.execute(select(func.count()).select_from(kb_embed_queue)
                                   .where(kb_embed_queue.c.attempts < MAX_ATTEMPTS)).scalar() or 0
            failed = conn.execute(select(func.count()).select_from(kb_embed_queue)
                                  .where(kb_embed_queue.c.attempts >= MAX_ATTEMPTS)).scalar() or 0
        return QueueStats(int(pending), int(failed))

    def queued_keys(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.execute(select(kb_embed_queue.c.key)
                                    .where(kb_embed_queue.c.attempts < MAX_ATTEMPTS)).scalars())

    def work(self, encode: Encode, *, batch: int = 8, drain: bool = False, stop: threading.Event | None = None,
             idle_s: float = 1.0, progress: Callable[[WorkProgress], None] | None = None,
             who: str | None = None) -> int:
        who = who or worker_id()
        self.release_dead()
        done = 0
        t0 = time.perf_counter()
        while stop is None or not stop.is_set():
            jobs = self.claim(batch, who)
            if not jobs:
                if drain:
                    # Jobs leased by a live worker elsewhere are its business; nothing is left for us.
                    break
                if stop is not None:
                    stop.wait(idle_s)
                else:
                    time.sleep(idle_s)
                continue
            try:
                mat = encode([b for _, b in jobs])
            except Exception as exc:  # noqa: BLE001 - a bad batch is recorded and retried, the worker goes on
                log.warning("embedding %d chunks failed: %s", len(jobs), exc)
                self.fail([k for k, _ in jobs], f"{type(exc).__name__}: {exc}")
                continue
            self.complete({k: v for (k, _), v in zip(jobs, mat, strict=True)})
            done += len(jobs)
            if progress is not None:
                elapsed = max(time.perf_counter() - t0, 1e-6)
                progress(WorkProgress(done, self.stats().pending, done / elapsed))
        return done

    def claim(self, n: int, who: str) -> list[tuple[str, str]]:
        """Up to ``n`` unclaimed (or expired) jobs, oldest first, leased to ``who``."""
        now = time.time()
        free = and_(kb_embed_queue.c.attempts < MAX_ATTEMPTS,
                    or_(kb_embed_queue.c.lease_until.is_(None), kb_embed_queue.c.lease_until < now))
        pick = select(kb_embed_queue.c.key).where(free).order_by(kb_embed_queue.c.enqueued_at, kb_embed_queue.c.key) \
            .limit(n)
        with self.engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                pick = pick.with_for_update(skip_locked=True)
            # One statement (UPDATE … WHERE key IN (SELECT … LIMIT n) RETURNING): two workers never
            # get the same job, and SQLite never has to upgrade a read transaction to a write.
            rows = conn.execute(update(kb_embed_queue).where(kb_embed_queue.c.key.in_(pick.scalar_subquery()))
                                .values(lease_until=now + self.lease_s, claimed_by=who,
                                        attempts=kb_embed_queue.c.attempts + 1)
                                .returning(kb_embed_queue.c.key, kb_embed_queue.c.body,
                                           kb_embed_queue.c.enqueued_at)).all()
        return [(r.key, r.body) for r in sorted(rows, key=lambda r: (r.enqueued_at, r.key))]

    def complete(self, vectors: dict[str, np.ndarray]) -> None:
        """Store the vectors and drop their jobs, in one transaction; readers see a new ``vectors`` revision."""
        with self.engine.begin() as conn:
            store_vectors(conn, vectors)
            conn.execute(delete(kb_embed_queue).where(kb_embed_queue.c.key.in_(list(vectors))))
            bump(conn, "vectors")

    def fail(self, keys: list[str], error: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(kb_embed_queue).where(kb_embed_queue.c.key.in_(keys))
                         .values(lease_until=None, claimed_by="", error=error[:2000]))

    def release_dead(self) -> int:
        """Free the leases of workers on this host whose process is gone (a kill -9 mid-batch)."""
        host = socket.gethostname()
        with self.engine.begin() as conn:
            rows = conn.execute(select(kb_embed_queue.c.claimed_by).distinct()
                                .where(kb_embed_queue.c.claimed_by.like(f"{host}:%"))).scalars().all()
            dead = [w for w in rows if not _alive(w)]
            if not dead:
                return 0
            res = conn.execute(update(kb_embed_queue).where(kb_embed_queue.c.claimed_by.in_(dead))
                               .values(lease_until=None, claimed_by="",
                                       attempts=func.max(kb_embed_queue.c.attempts - 1, 0)
                                       if conn.dialect.name == "sqlite"
                                       else func.greatest(kb_embed_queue.c.attempts - 1, 0)))
            return int(res.rowcount or 0)


def _alive(who: str) -> bool:
    try:
        pid = int(who.rsplit(":", 1)[1])
    except (IndexError, ValueError):
        return True
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:  # a zombie (killed, not yet reaped) is gone too
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(") ", 1)[1][:1] != "Z"
    except OSError:
        return True


def run_worker(queue: JobQueue, encode: Encode, *, batch: int = 8, drain: bool = False,
               stop: threading.Event | None = None, idle_s: float = 1.0,
               progress: Callable[[WorkProgress], None] | None = None, who: str | None = None) -> int:
    """Embed queued chunks until stopped (or, with ``drain``, until the queue is empty). Returns how many."""
    return queue.work(encode, batch=batch, drain=drain, stop=stop, idle_s=idle_s, progress=progress, who=who)
