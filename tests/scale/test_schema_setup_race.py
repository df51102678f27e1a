"""Several processes setting up one new PostgreSQL database at once (security finding 8).

``knowzero serve --workers 2`` on a fresh database used to die in LangGraph's checkpointer set-up
(``UniqueViolation`` on ``checkpoint_migrations_pkey``, once ``DeadlockDetected``): our own tables
were created under the schema advisory lock, the checkpointer's and store's migrations were not.
Putting them under it is not enough alone: their ``CREATE INDEX CONCURRENTLY`` waits for every older
snapshot, including another worker's session blocked in ``pg_advisory_lock`` (an undetected
deadlock, seen here as a hang), so waiters poll ``pg_try_advisory_lock`` instead.
Here several processes each run a worker's whole start-up set-up (the dependency container, the
thread directory, then the checkpointer and store) on a throw-away database, released together by a
barrier, a few rounds; every one must succeed and find the finished schema.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import traceback
import uuid
from pathlib import Path

import pytest

ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"
PROCESSES = 4
ROUNDS = 3


def _set_up(url: str, data_dir: str, barrier, results) -> None:  # type: ignore[no-untyped-def]
    """One worker's start-up schema work (what ``create_app``'s lifespan does before serving)."""
    try:
        os.environ.update({"KNOWZERO_DATABASE_URL": url, "KNOWZERO_DATA_DIR": data_dir, "OMP_NUM_THREADS": "1"})
        from knowzero.config import Settings
        from knowzero.graph.state import CHECKPOINT_TYPES
        from knowzero.persistence.checkpoint import open_persistence
        from knowzero.wiring import build_deps, thread_directory

        settings = Settings()
        barrier.wait(timeout=120)
        deps = build_deps(settings, provider=None, classifier=False)
        thread_directory(deps)

        async def lg() -> None:
            async with open_persistence(settings, CHECKPOINT_TYPES) as (saver, store):
                assert saver is not None and store is not None

        asyncio.run(lg())
        deps.need_kb().engine.dispose()
        results.put("ok")
    except BaseException:
        results.put(traceback.format_exc(limit=3))


@pytest.fixture()
def new_database(pg_url: str):  # pg_url: skips when PostgreSQL is not running
    import psycopg

    made: list[str] = []

    def make() -> str:
        name = f"kz_test_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        made.append(name)
        return f"postgresql://postgres@127.0.0.1:5432/{name}"

    yield make
    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        for name in made:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
@pytest.mark.postgres
def test_workers_set_up_a_new_database_together(new_database, tmp_path: Path) -> None:
    import psycopg

    ctx = mp.get_context("spawn")
    for round_ in range(ROUNDS):
        url = new_database()
        barrier, results = ctx.Barrier(PROCESSES), ctx.Queue()
        procs = [ctx.Process(target=_set_up, args=(url, str(tmp_path / f"r{round_}w{i}"), barrier, results))
                 for i in range(PROCESSES)]
        for p in procs:
            p.start()
        try:
            outcomes = [results.get(timeout=180) for _ in procs]  # a deadlock fails here, not hangs
        finally:
            for p in procs:
                p.join(timeout=10)
                if p.is_alive():
                    p.kill()
        failures = [o for o in outcomes if o != "ok"]
        assert not failures, f"round {round_}: {len(failures)}/{PROCESSES} set-ups failed:\n" + "\n".join(failures)
        with psycopg.connect(url) as conn:
            tables = {r[0] for r in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'").fetchall()}
            assert {"checkpoints", "checkpoint_migrations", "store", "store_migrations",
                    "schema_migrations", "kb_chunks"} <= tables, sorted(tables)
            # each LangGraph migration recorded once (a lost race would have left a gap or failed)
            for table in ("checkpoint_migrations", "store_migrations"):
                versions = [r[0] for r in conn.execute(f"SELECT v FROM {table} ORDER BY v").fetchall()]
                assert versions == list(range(len(versions))) and versions, (table, versions)
