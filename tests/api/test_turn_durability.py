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

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from knowzero.input import AgentInput
from knowzero.service.registry import ToolContext, run_tool
from knowzero.users import User
from kz_testlib import knowzero_env, make_deps

ALICE = User("alice", "customer", "张三")
KEYS = {"alice": "demo-alice", "agent": "demo-agent"}


def hdr(who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[who]}"}


@contextlib.asynccontextmanager
async def served(data_dir: Path) -> AsyncIterator[httpx.AsyncClient]:
    """The app on ``data_dir`` with its lifespan running; leaving the block is a (clean) shutdown,
    entering it again on the same directory a restart."""
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys

    with knowzero_env(data_dir=str(data_dir), demo_keys="1", env="test"):
        deps = make_deps(Settings())
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


async def crash_after(client: httpx.AsyncClient, thread_id: str, message: str, node: str) -> None:
    """Run a turn that stops after ``node``'s checkpoint, as a process killed there would, with
    the turn still recorded as running."""
    runner = client.app.state.runner  # type: ignore[attr-defined]
    deps = client.app.state.make_deps(ALICE)  # type: ignore[attr-defined]
    runner.threads.turn_started(thread_id)
    config = {"configurable": {"thread_id": thread_id}}
    payload = AgentInput(source="chat", message=message, thread_id=thread_id, user_id="alice")
    async for _ in runner.graph.astream({"input": payload}, config, context=deps, durability="sync",
                                        interrupt_after=[node]):
        pass
    snap = await runner.graph.aget_state(config)
    assert snap.next and not any(t.interrupts for t in snap.tasks), "a cut-short turn: a step scheduled, no interrupt"


def refunds(client: httpx.AsyncClient, thread_id: str) -> list[dict[str, Any]]:
    store = client.app.state.deps.need_store()  # type: ignore[attr-defined]
    return [r for r in store.list_refunds() if r["thread_id"] == thread_id]


async def test_a_crash_after_the_refund_is_written_leaves_the_approval_waiting_after_restart(tmp_path: Path) -> None:
    tid = "crash-confirm"
    async with served(tmp_path) as api:
        body = await chat(api, "alice", tid, "订单125退款600元，因为不想要了")
        assert body["interrupted"], body
        await crash_after(api, tid, "确认", "confirm_action")  # refund written, approval interrupt not yet
        assert [r["status"] for r in refunds(api, tid)] == ["pending"]
        store_refund = refunds(api, tid)[0]
    async with served(tmp_path) as api:  # restart: the turn is finished at start-up, before any request
        runner = api.app.state.runner  # type: ignore[attr-defined]
        snap = await runner.graph.aget_state({"configurable": {"thread_id": tid}})
        assert [i.value["kind"] for t in snap.tasks for i in t.interrupts] == ["refund_approval"]
        assert runner.threads.unfinished_turns() == ()
        thread = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()
        assert thread["interrupted"] and thread["pending"][0]["refund_id"] == store_refund["id"]
        r = await api.post(f"/v1/service/refunds/{store_refund['id']}/decision", json={"approved": True},
                           headers=hdr("agent"))
        assert r.status_code == 200, r.text
        assert r.json()["refund"]["status"] == "executed"
        assert [x["status"] for x in refunds(api, tid)] == ["executed"]
        thread = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()
        assert not thread["interrupted"] and "已执行" in thread["messages"][-1]["content"]
        assert [m["content"] for m in thread["messages"] if m["role"] == "user"] == ["订单125退款600元，因为不想要了", "确认"]


async def test_a_refund_written_before_its_step_was_checkpointed_is_found_by_its_key(tmp_path: Path) -> None:
    """The crash hit inside ``confirm_action``: the refund row exists, the step's checkpoint does not.
    The step re-runs at the next use of the thread, finds the refund by its idempotency key, and
    the thread waits for the agent's decision: one refund, not two, and not a blocked order."""
    tid = "crash-inside-confirm"
    async with served(tmp_path) as api:
        await chat(api, "alice", tid, "订单125退款600元，因为不想要了")
        await crash_after(api, tid, "确认", "service")
        runner = api.app.state.runner  # type: ignore[attr-defined]
        snap = await runner.graph.aget_state({"configurable": {"thread_id": tid}})
        p = snap.values["service"]["pending"]
        deps = api.app.state.deps  # type: ignore[attr-defined]
        ctx = ToolContext("alice", "customer", tid, deps.settings, deps.need_store(), deps.need_orders(),
                          confirmed_by="alice")
        done = run_tool("request_refund", {"order_id": "125", "amount": 600, "reason": p["slots"]["reason"],
                                           "idempotency_key": p["key"]}, ctx)
        assert done["ok"] and done["refund"]["status"] == "pending"
    async with served(tmp_path) as api:
        # the start-up pass is the usual way; here the thread is read first by the customer
        api.app.state.runner.threads.turn_ended(tid)  # type: ignore[attr-defined]
        thread = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()
        assert thread["interrupted"] and thread["pending"][0]["kind"] == "refund_approval"
        assert [r["id"] for r in refunds(api, tid)] == [done["refund"]["id"]]
        approvals = (await api.get("/v1/service/approvals", headers=hdr("agent"))).json()["refunds"]
        assert [a["thread_id"] for a in approvals] == [tid]


async def test_a_crash_while_a_step_is_checkpointed_is_finished_at_restart(tmp_path: Path) -> None:
    """Killed after a step's writes were saved but before the checkpoint that applies them: the
    snapshot then has no ``next`` (the step counts as done) yet the turn never went on — seen in
    the crash suite as a thread ending with the user's "确认" and no interrupt."""
    tid = "crash-while-checkpointing"
    async with served(tmp_path) as api:
        await chat(api, "alice", tid, "订单125退款600元，因为不想要了")
        runner = api.app.state.runner  # type: ignore[attr-defined]
        saver = runner.graph.checkpointer
        real_aput, calls, stalled = saver.aput, [], asyncio.Event()

        async def dying_aput(*args: Any, **kwargs: Any) -> Any:
            calls.append(1)
            if len(calls) == 3:  # input, after __start__, then the one after normalize: the process dies
                stalled.set()
                await asyncio.Event().wait()
            return await real_aput(*args, **kwargs)

        saver.aput = dying_aput
        runner.threads.turn_started(tid)
        payload = AgentInput(source="chat", message="确认", thread_id=tid, user_id="alice")
        deps = api.app.state.make_deps(ALICE)  # type: ignore[attr-defined]

        async def turn() -> None:
            async for _ in runner.graph.astream({"input": payload}, {"configurable": {"thread_id": tid}},
                                                context=deps, durability="sync"):
                pass

        task = asyncio.create_task(turn())
        await asyncio.wait_for(stalled.wait(), 30)
        await asyncio.sleep(0.3)  # the step's own writes land
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        saver.aput = real_aput
        snap = await runner.graph.aget_state({"configurable": {"thread_id": tid}})
        assert snap.next == () and [t.name for t in snap.tasks] == ["normalize"] and not snap.tasks[0].interrupts
    async with served(tmp_path) as api:
        thread = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()
        assert thread["interrupted"] and thread["pending"][0]["kind"] == "refund_approval", thread["messages"]
        assert [r["status"] for r in refunds(api, tid)] == ["pending"]
        assert [m["role"] for m in thread["messages"]] == ["user", "assistant", "user", "assistant"]


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


async def _disconnect_after_first_event(app: Any, body: dict[str, Any], headers: dict[str, str]) -> list[bytes]:
    """Drive one ``POST /v1/chat`` through the ASGI interface and hang up after the first SSE event."""
    raw = json.dumps(body).encode()
    hung_up = asyncio.Event()
    sent: list[bytes] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": raw, "more_body": False}
        await hung_up.wait()
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body" and message.get("body"):
            sent.append(message["body"])
            if b"event:" in message["body"]:
                hung_up.set()

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": "/v1/chat", "raw_path": b"/v1/chat", "query_string": b"", "root_path": "",
             "server": ("kz.test", 80), "client": ("127.0.0.1", 1234),
             "headers": [(b"host", b"kz.test"), (b"content-type", b"application/json"),
                         (b"content-length", str(len(raw)).encode()),
                         *((k.lower().encode(), v.encode()) for k, v in headers.items())]}
    await asyncio.wait_for(app(scope, receive, send), 30)
    return sent


async def test_a_client_that_disconnects_after_the_first_event_still_gets_its_reply_stored(tmp_path: Path) -> None:
    tid = "hang-up"
    async with served(tmp_path) as api:
        app = api.app  # type: ignore[attr-defined]
        sent = await _disconnect_after_first_event(app, {"thread_id": tid, "message": "订单123到哪了"}, hdr("alice"))
        text = b"".join(sent).decode()
        assert text.count("event:") >= 1 and "event: done" not in text, "the client left before the end"
        await asyncio.wait_for(app.state.runner.drain(), 30)
        thread = (await api.get(f"/v1/threads/{tid}", headers=hdr("alice"))).json()
        assert [m["role"] for m in thread["messages"]] == ["user", "assistant"]
        assert "订单 123" in thread["messages"][-1]["content"]
        again = await chat(api, "alice", tid, "订单124到哪了")  # the lock was released by the run
        assert "124" in again["reply"]
