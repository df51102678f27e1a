"""Durable threads and thread locks on the real servers of this machine: the SQLite restart test
again on PostgreSQL (127.0.0.1:5432, database ``test``), and the Redis lock that spans workers."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from knowzero.api.runner import ThreadLocks
from knowzero.errors import Conflict
from kz_testlib import (
    TEST_CLIENT_ID,
    api_client,
    assert_error_shape,
    postgres_url,
    redis_url,
    restart_and_resume,
    sse_events,
)

PG = postgres_url()
REDIS = redis_url()

needs_pg = pytest.mark.skipif(PG is None, reason="PostgreSQL at 127.0.0.1:5432 (db test) is not reachable")
needs_redis = pytest.mark.skipif(REDIS is None, reason="Redis at 127.0.0.1:6379 is not reachable")


@pytest.mark.postgres
@needs_pg
async def test_restart_and_resume_on_postgres(tmp_path: Path) -> None:
    assert PG is not None
    await restart_and_resume(tmp_path / "kz", f"pg-resume-{uuid.uuid4().hex}", database_url=PG)


@pytest.mark.postgres
@needs_pg
async def test_postgres_is_really_used(tmp_path: Path) -> None:
    import psycopg

    assert PG is not None
    tid = f"pg-check-{uuid.uuid4().hex}"
    async with api_client(tmp_path / "kz", database_url=PG) as client:
        assert (await client.get("/healthz")).json()["database"] == "postgresql"
        sse_events(await client.post("/v1/chat", json={"source": "chat", "message": "你好", "thread_id": tid}))
    assert not (tmp_path / "kz" / "checkpoints.db").exists(), "no SQLite checkpointer on a postgresql:// URL"
    with psycopg.connect(PG) as conn:
        n = conn.execute("SELECT count(*) FROM checkpoints WHERE thread_id = %s", (tid,)).fetchone()[0]
        owner = conn.execute("SELECT user_id FROM threads WHERE id = %s", (tid,)).fetchone()
    assert n > 0 and owner is not None and owner[0].startswith("anon:") and TEST_CLIENT_ID not in owner[0]


@pytest.mark.redis
@needs_redis
async def test_redis_lock_spans_workers() -> None:
    assert REDIS is not None
    worker_a, worker_b = ThreadLocks(REDIS), ThreadLocks(REDIS)
    tid = f"lock-{uuid.uuid4().hex}"
    token = await worker_a.acquire(tid)
    with pytest.raises(Conflict):
        await worker_b.acquire(tid)
    await worker_b.release(tid, "not-the-owner")  # a stranger's release does not free it
    with pytest.raises(Conflict):
        await worker_b.acquire(tid)
    await worker_a.release(tid, token)
    token_b = await worker_b.acquire(tid)
    await worker_b.release(tid, token_b)


@pytest.mark.redis
@needs_redis
async def test_api_refuses_a_thread_busy_on_another_worker(demo_data_dir: Path) -> None:
    import redis.asyncio as aioredis

    assert REDIS is not None
    tid = f"busy-elsewhere-{uuid.uuid4().hex}"
    r = aioredis.from_url(REDIS)
    try:
        await r.set(f"knowzero:lock:{tid}", "another-worker", ex=60)
        async with api_client(demo_data_dir, redis_url=REDIS) as client:
            body = {"source": "chat", "message": "你好", "thread_id": tid, "stream": False}
            assert_error_shape(await client.post("/v1/chat", json=body), 409, "conflict")
            await r.delete(f"knowzero:lock:{tid}")
            ok = await client.post("/v1/chat", json=body)
            assert ok.status_code == 200 and ok.json()["reply"]
        assert await r.get(f"knowzero:lock:{tid}") is None, "the lock is released after the turn"
    finally:
        await r.delete(f"knowzero:lock:{tid}")
        await r.aclose()
