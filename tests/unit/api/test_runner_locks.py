"""Thread locks (one turn per thread, held by the run itself so it is released when the turn ends even
if its stream is never read, never freeing a later turn) and thread ownership, which the runner
decides for every entry point."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from knowzero.api.runner import Runner, ThreadLocks
from knowzero.errors import Conflict, NotFound
from knowzero.graph.context import Deps
from knowzero.persistence.db import init_db, make_engine
from knowzero.persistence.threads import ThreadDirectory
from knowzero.users import User, anonymous_for_client


class FakeGraph:
    """Streams ``intent_classified`` in the runner's first run of a message (up to the path decision,
    ``interrupt_after``), then waits for ``gate`` in the run that finishes the turn."""

    def __init__(self) -> None:
        self.gate = asyncio.Event()
        self.gate.set()

    async def astream(self, *_: Any, interrupt_after: Any = None, **__: Any) -> AsyncIterator[tuple[tuple[str, ...], str, Any]]:
        if interrupt_after:
            yield (), "custom", {"type": "intent_classified", "data": {"intent": "chitchat"}}
            return
        await self.gate.wait()
        if False:  # an async generator that yields nothing
            yield (), "custom", {}

    async def aget_state(self, *_: Any, **__: Any) -> Any:
        return SimpleNamespace(values={}, next=(), tasks=())


def _runner(tmp_path: Path) -> Runner:
    engine = init_db(make_engine(f"sqlite:///{tmp_path / 'threads.db'}"))
    return Runner(graph=FakeGraph(), locks=ThreadLocks(), threads=ThreadDirectory(engine))


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


async def test_a_turn_whose_stream_is_never_read_runs_to_its_end_and_frees_the_thread(tmp_path: Path) -> None:
    runner = _runner(tmp_path)
    runner.graph.gate.clear()
    turn = await runner.stream_turn("t2", Deps(), payload={"source": "chat", "message": "你好"})
    with pytest.raises(Conflict):
        await runner.stream_turn("t2", Deps(), payload={"source": "chat", "message": "你好"})
    assert runner.threads.unfinished_turns() == ("t2",), "a running turn is recorded"
    runner.graph.gate.set()  # nobody reads the events: the run still ends and releases the lock
    await asyncio.wait_for(turn.task, 5)
    assert runner.threads.unfinished_turns() == ()
    again = await runner.stream_turn("t2", Deps(), payload={"source": "chat", "message": "你好"})
    assert [e async for e, _ in again][-1] == "done"


ALICE = User("alice", "customer", "张三")
BOB = User("bob", "customer", "李四")
AGENT = User("agent", "agent", "王客服")


async def test_only_the_owner_sends_into_a_thread_and_staff_may_only_read_and_resume(tmp_path: Path) -> None:
    runner = _runner(tmp_path)
    turn = await runner.stream_turn("t-alice", Deps(user=ALICE), payload={"source": "chat", "message": "我的订单"})
    await turn.task
    assert runner.threads.owner("t-alice") == "alice"
    for intruder in (BOB, User(), anonymous_for_client("x" * 20)):
        with pytest.raises(NotFound):
            await runner.stream_turn("t-alice", Deps(user=intruder), payload={"source": "chat", "message": "算了"})
        with pytest.raises(NotFound):
            await runner.stream_turn("t-alice", Deps(user=intruder), resume={"approved": True})
        with pytest.raises(NotFound):
            runner.authorize("t-alice", intruder, "read")
    with pytest.raises(NotFound):
        await runner.stream_turn("t-alice", Deps(user=AGENT), payload={"source": "chat", "message": "hi"})
    with pytest.raises(NotFound):
        runner.authorize("t-alice", AGENT, "manage")
    runner.authorize("t-alice", AGENT, "read")
    with pytest.raises(Conflict):  # staff may resume (not NotFound), but the thread waits for nothing
        await runner.stream_turn("t-alice", Deps(user=AGENT), resume={"approved": True, "by": "agent"})
    assert runner.locks._local == {}, "a refused resume releases the thread lock"
    assert runner.threads.owner("t-alice") == "alice", "nobody but the first caller ever owns it"


async def test_resuming_a_thread_that_does_not_exist_is_not_found(tmp_path: Path) -> None:
    runner = _runner(tmp_path)
    with pytest.raises(NotFound):
        await runner.stream_turn("nope", Deps(user=AGENT), resume={"approved": True})
    assert runner.threads.owner("nope") is None
