"""Where a turn is checkpointed (issue 30): once its path is decided, then after every step when the
path has side effects (service), and only at the end when it has none (knowledge, small talk).

The crash behaviour these checkpoints buy is tested in ``test_turn_durability.py`` and, with real
processes killed at random points, ``test_service_kill_restart.py``.
"""

from __future__ import annotations

from pathlib import Path

from test_turn_durability import chat, served


async def _history(api, thread_id: str) -> list[tuple[str, ...]]:  # type: ignore[no-untyped-def]
    graph = api.app.state.runner.graph
    return [tuple(s.next) async for s in graph.aget_state_history({"configurable": {"thread_id": thread_id}})][::-1]


async def test_quiet_turns_are_checkpointed_at_their_path_and_at_their_end(tmp_path: Path) -> None:
    async with served(tmp_path) as api:
        for tid, message, path in (("k", "零件A的公差是多少？", "knowledge"), ("c", "你好", "chitchat")):
            body = await chat(api, "alice", tid, message)
            assert body["path"] == path and body["reply"]
            assert await _history(api, tid) == [(path,), ()]


async def test_a_service_turn_is_checkpointed_before_each_step(tmp_path: Path) -> None:
    async with served(tmp_path) as api:
        body = await chat(api, "alice", "s", "我的订单 201 到哪了？")
        assert body["path"] == "service" and "201" in body["reply"]
        assert await _history(api, "s") == [("service",), ("finish",), ()]
        again = await chat(api, "alice", "s", "你好")  # a second turn adds its own two checkpoints
        assert again["path"] == "chitchat"
        assert (await _history(api, "s"))[3:] == [("chitchat",), ()]
