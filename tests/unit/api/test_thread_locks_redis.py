"""The Redis thread lock across workers (two ``ThreadLocks`` = two API workers on one Redis).

A turn's lock is acquired with its token, released by Redis's token-checked script, renewed while the
turn runs and left to expire when a worker dies: a late release never frees a later turn's lock, and
a long turn keeps its lock past the TTL. Needs Redis at 127.0.0.1:6379 (marker ``redis``).
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import pytest

from knowzero.api.runner import ThreadLocks
from knowzero.errors import Conflict
from kz_testlib import redis_url

pytestmark = pytest.mark.redis

TTL = 0.6


@pytest.fixture()
async def workers() -> AsyncIterator[tuple[ThreadLocks, ThreadLocks, str]]:
    url = redis_url()
    if url is None:
        pytest.skip("Redis is not running at 127.0.0.1:6379")
    a, b = ThreadLocks(url, ttl_s=TTL), ThreadLocks(url, ttl_s=TTL)
    yield a, b, f"locktest-{uuid.uuid4().hex}"
    for w in (a, b):
        for _lock, renewer in list(w._held.values()):
            renewer.cancel()
        assert w._redis is not None
        await w._redis.aclose()


async def _value(w: ThreadLocks, thread_id: str) -> bytes | None:
    assert w._redis is not None
    return await w._redis.get(ThreadLocks.KEY.format(thread_id))


async def test_two_workers_exclude_each_other(workers: tuple[ThreadLocks, ThreadLocks, str]) -> None:
    a, b, tid = workers
    token = await a.acquire(tid)
    with pytest.raises(Conflict):
        await b.acquire(tid)
    with pytest.raises(Conflict):
        await a.acquire(tid)
    assert await _value(a, tid) == token.encode()
    await a.release(tid, token)
    assert await _value(a, tid) is None
    other = await b.acquire(tid)
    await b.release(tid, other)


async def test_a_dead_workers_lock_expires_and_its_late_release_frees_nothing(
        workers: tuple[ThreadLocks, ThreadLocks, str]) -> None:
    a, b, tid = workers
    first = await a.acquire(tid)
    a._held[tid][1].cancel()  # worker a freezes: no more renewals (and no release)
    await asyncio.sleep(TTL + 0.3)
    second = await b.acquire(tid)  # the thread is usable again after the TTL
    await a.release(tid, first)  # a wakes up and releases its long-expired turn
    assert await _value(b, tid) == second.encode(), "the later turn still holds the thread"
    with pytest.raises(Conflict):
        await a.acquire(tid)
    await b.release(tid, second)
    assert await _value(b, tid) is None


async def test_a_long_turn_keeps_its_lock(workers: tuple[ThreadLocks, ThreadLocks, str]) -> None:
    a, b, tid = workers
    token = await a.acquire(tid)
    for _ in range(4):  # 4 × TTL: only the renewal keeps the key alive
        await asyncio.sleep(TTL)
        with pytest.raises(Conflict):
            await b.acquire(tid)
        assert await _value(a, tid) == token.encode()
    await a.release(tid, token)
    again = await b.acquire(tid)
    await b.release(tid, again)


async def test_release_is_idempotent_and_token_bound(workers: tuple[ThreadLocks, ThreadLocks, str]) -> None:
    a, _b, tid = workers
    first = await a.acquire(tid)
    await a.release(tid, "not-the-token")
    assert await _value(a, tid) == first.encode()
    await a.release(tid, first)
    await a.release(tid, first)
    second = await a.acquire(tid)
    await a.release(tid, first)  # a late release of the first turn, in the same worker
    assert await _value(a, tid) == second.encode()
    await a.release(tid, second)


async def test_concurrent_acquires_in_one_worker_admit_exactly_one(workers: tuple[ThreadLocks, ThreadLocks, str]) -> None:
    a, b, tid = workers
    results = await asyncio.gather(*(w.acquire(tid) for w in (a, a, b, b, a)), return_exceptions=True)
    tokens = [r for r in results if isinstance(r, str)]
    assert len(tokens) == 1 and all(isinstance(r, Conflict) for r in results if not isinstance(r, str))
    owner = a if tid in a._local else b
    await owner.release(tid, tokens[0])
