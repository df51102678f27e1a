"""Thread locks: one turn per thread, released even when a stream is never read, never freeing a later turn."""

from __future__ import annotations

import pytest

from knowzero.api.runner import Runner, ThreadLocks
from knowzero.errors import Conflict
from knowzero.graph.context import Deps


async def test_second_turn_on_a_busy_thread_is_refused_and_release_is_token_bound() -> None:
    locks = ThreadLocks()
    first = await locks.acquire("t1")
    with pytest.raises(Conflict):
        await locks.acquire("t1")
    await locks.release("t1", first)
    second = await locks.acquire("t1")
    await locks.release("t1", first)  # a late release of the first turn must not free the second
    with pytest.raises(Conflict):
        await locks.acquire("t1")
    await locks.release("t1", second)
    await locks.acquire("t1")


async def test_a_stream_that_is_never_read_can_be_released() -> None:
    runner = Runner(graph=None, locks=ThreadLocks())
    turn = await runner.stream_turn("t2", Deps(), payload={"source": "chat", "message": "你好"})
    with pytest.raises(Conflict):
        await runner.stream_turn("t2", Deps(), payload={"source": "chat", "message": "你好"})
    await turn.release()  # the client went away before the stream started
    again = await runner.stream_turn("t2", Deps(), payload={"source": "chat", "message": "你好"})
    await again.release()
