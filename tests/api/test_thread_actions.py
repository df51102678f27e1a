"""Actions on a thread outside a customer's turn (issue 10, open items of the last review):

- ``resume`` on a thread that waits for nothing is 409 ``conflict`` (it was 200, running nothing);
- an agent's reply and hand-back on a thread with no pending interrupt take the same lock as a
  turn, so they never interleave with one (a held lock: 409; concurrent customer turns: no lost write);
- ``/reply`` and ``/return`` on a thread that was never handed off both answer 409.
"""

from __future__ import annotations

import asyncio

import pytest
from httpx import ASGITransport, AsyncClient
from pydantic import TypeAdapter

from knowzero.service.state import ServiceState
from kz_testlib import make_deps

KEYS = {"alice": "demo-alice", "bob": "demo-bob", "agent": "demo-agent"}
SERVICE_STATE = TypeAdapter(ServiceState)


@pytest.fixture()
async def api(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KNOWZERO_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("KNOWZERO_DEMO_KEYS", "1")
    monkeypatch.delenv("KNOWZERO_DATABASE_URL", raising=False)
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys

    deps = make_deps(Settings())
    announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    app = create_app(deps.settings, warm=False, deps=deps)
    async with app.router.lifespan_context(app):
        async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test", timeout=120) as client:
            client.app = app  # type: ignore[attr-defined]
            yield client


def hdr(who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[who]}"}


async def chat(client, who, thread_id, message=None, resume=None):  # type: ignore[no-untyped-def]
    body = {"thread_id": thread_id, "stream": False}
    body.update({"resume": resume} if resume is not None else {"message": message})
    return await client.post("/v1/chat", json=body, headers=hdr(who))


def _error(r) -> dict:  # type: ignore[no-untyped-def]
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "details"}, body
    return body["error"]


async def test_resume_with_nothing_pending_is_a_conflict(api):  # type: ignore[no-untyped-def]
    r = await chat(api, "alice", "idle", "你好")
    assert r.status_code == 200 and not r.json()["interrupted"]
    before = (await api.get("/v1/threads/idle", headers=hdr("alice"))).json()["messages"]
    for stream in (False, True):
        r = await api.post("/v1/chat", json={"thread_id": "idle", "resume": {}, "stream": stream}, headers=hdr("alice"))
        assert r.status_code == 409, r.text
        assert _error(r)["code"] == "conflict"
    r = await chat(api, "alice", "idle", resume={"approved": True})
    assert r.status_code == 409 and _error(r)["code"] == "conflict"
    assert (await api.get("/v1/threads/idle", headers=hdr("alice"))).json()["messages"] == before
    # a thread that waits still resumes
    r = await chat(api, "alice", "wait", "订单125退款20元，因为不想要了")
    assert r.status_code == 200 and r.json()["interrupted"], r.text
    r = await chat(api, "alice", "wait", resume={"approved": False})
    assert r.status_code == 200 and "取消" in r.json()["reply"]
    r = await chat(api, "alice", "wait", resume={"approved": True})
    assert r.status_code == 409  # answered once: nothing is pending any more


async def test_reply_and_return_on_a_thread_never_handed_off_are_both_409(api):  # type: ignore[no-untyped-def]
    assert (await chat(api, "bob", "plain", "订单200到哪了")).status_code == 200
    for action, body in (("reply", {"text": "您好"}), ("return", {})):
        r = await api.post(f"/v1/service/threads/plain/{action}", json=body, headers=hdr("agent"))
        assert r.status_code == 409, (action, r.text)
        assert _error(r)["code"] == "conflict"
    r = await api.post("/v1/service/threads/no-such-thread/return", json={}, headers=hdr("agent"))
    assert r.status_code == 404


async def _handed_off_without_interrupt(api, thread: str) -> str:  # type: ignore[no-untyped-def]
    """A thread a human has, answered once, with no interrupt pending (the customer has not written since)."""
    r = await chat(api, "bob", thread, "转人工")
    assert r.status_code == 200 and r.json()["interrupted"]
    r = await api.post(f"/v1/service/threads/{thread}/reply", json={"text": "您好，我来帮您"}, headers=hdr("agent"))
    assert r.status_code == 200, r.text
    state = (await api.get(f"/v1/service/threads/{thread}", headers=hdr("agent"))).json()
    assert state["pending"] == [] and state["service"]["handoff"]["status"] == "answered"
    SERVICE_STATE.validate_python(state["service"])  # what the reply route wrote is declared in service/state.py
    return state["service"]["handoff"]["id"]


async def test_agent_actions_take_the_thread_lock(api):  # type: ignore[no-untyped-def]
    handoff = await _handed_off_without_interrupt(api, "h-lock")
    runner = api.app.state.runner
    store = api.app.state.deps.need_store()
    before = (await api.get("/v1/threads/h-lock", headers=hdr("bob"))).json()["messages"]
    token = await runner.locks.acquire("h-lock")  # a customer turn is running on the thread
    try:
        for action, body in (("reply", {"text": "还在吗？"}), ("return", {})):
            r = await api.post(f"/v1/service/threads/h-lock/{action}", json=body, headers=hdr("agent"))
            assert r.status_code == 409, (action, r.text)
            assert _error(r)["code"] == "conflict"
    finally:
        await runner.locks.release("h-lock", token)
    assert (await api.get("/v1/threads/h-lock", headers=hdr("bob"))).json()["messages"] == before
    assert [m["text"] for m in store.handoff_messages(handoff)] == ["您好，我来帮您"]
    assert store.get_handoff(handoff)["status"] == "answered"
    r = await api.post("/v1/service/threads/h-lock/reply", json={"text": "还在吗？"}, headers=hdr("agent"))
    assert r.status_code == 200
    r = await api.post("/v1/service/threads/h-lock/return", json={}, headers=hdr("agent"))
    assert r.status_code == 200 and r.json()["returned"]
    svc = (await api.get("/v1/service/threads/h-lock", headers=hdr("agent"))).json()["service"]
    assert svc["handoff"] is None and svc["triage"]["angry_streak"] == 0
    SERVICE_STATE.validate_python(svc)  # the reply and return routes wrote it without an interrupt


async def test_agent_reply_racing_customer_turns_loses_nothing(api):  # type: ignore[no-untyped-def]
    """Customer messages and agent replies sent at the same moment, 4 rounds: every call either
    lands or is refused with 409, and what landed is all in the thread state and the handoff log."""
    handoff = await _handed_off_without_interrupt(api, "h-race")
    store = api.app.state.deps.need_store()
    landed = {"customer": 0, "agent": 1}
    for i in range(4):
        customer, agent = await asyncio.gather(
            chat(api, "bob", "h-race", f"补充说明第{i}条"),
            api.post("/v1/service/threads/h-race/reply", json={"text": f"收到第{i}条"}, headers=hdr("agent")))
        assert customer.status_code in (200, 409) and agent.status_code in (200, 409), (customer.text, agent.text)
        landed["customer"] += customer.status_code == 200
        landed["agent"] += agent.status_code == 200
    state = (await api.get("/v1/service/threads/h-race", headers=hdr("agent"))).json()
    h = state["service"]["handoff"]
    log = store.handoff_messages(handoff)
    assert sum(m["author_role"] == "agent" for m in log) == landed["agent"] == h["replies"]
    assert sum(m["author_role"] == "customer" for m in log) == landed["customer"] == h.get("customer_notes", 0)
