"""Deleting a thread never strands money movement or a handoff (outside review 1, finding 1).

A thread whose refund waits for an agent's decision, or that a human agent has, answers 409 to
DELETE (with ``details[0].rule``); the agent can still decide / reply / return, and once that is
done the thread can be deleted. A thread with nothing open is deleted as before.
"""

from __future__ import annotations

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import api_client


def _as(who: str) -> dict[str, str]:
    return {"Authorization": f"Bearer demo-{who}"}


@pytest.fixture()
async def api(tmp_path):
    async with api_client(tmp_path / "data", demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def _say(api, who: str, thread_id: str, message: str) -> dict:
    r = await api.post("/v1/chat", headers=_as(who),
                       json={"source": "chat", "message": message, "thread_id": thread_id, "stream": False})
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_refund_waiting_for_approval_keeps_its_thread(api):
    await _say(api, "bob", "big-refund", "订单201退款600元，原因质量问题")
    body = await _say(api, "bob", "big-refund", "确认")
    assert body["interrupted"] and "审批" in body["reply"]
    r = await api.delete("/v1/threads/big-refund", headers=_as("bob"))
    assert r.status_code == 409, r.text
    assert r.json()["error"]["details"] == [{"rule": "refund_pending"}]
    # the thread, its refund and the agent's queue are untouched: the agent can still decide
    approvals = (await api.get("/v1/service/approvals", headers=_as("agent"))).json()["refunds"]
    assert [a["thread_id"] for a in approvals] == ["big-refund"]
    r = await api.post(f"/v1/service/refunds/{approvals[0]['id']}/decision", headers=_as("agent"),
                       json={"approved": False, "note": "need photos"})
    assert r.status_code == 200 and r.json()["refund"]["status"] == "rejected", r.text
    # decided: the thread may go, and the order takes a new refund request
    r = await api.delete("/v1/threads/big-refund", headers=_as("bob"))
    assert r.status_code == 200 and r.json()["deleted"], r.text
    body = await _say(api, "bob", "again", "订单201退款50元，原因质量问题")
    assert "处理中" not in body["reply"] and body["interrupted"], body["reply"]


async def test_an_open_handoff_keeps_its_thread(api):
    body = await _say(api, "bob", "human", "转人工")
    assert body["interrupted"]
    r = await api.delete("/v1/threads/human", headers=_as("bob"))
    assert r.status_code == 409 and r.json()["error"]["details"] == [{"rule": "handoff_open"}], r.text
    r = await api.post("/v1/service/threads/human/reply", headers=_as("agent"), json={"text": "您好"})
    assert r.status_code == 200, r.text
    # answered, but still with the human (no interrupt now: the state and the store say so)
    r = await api.delete("/v1/threads/human", headers=_as("bob"))
    assert r.status_code == 409 and r.json()["error"]["details"] == [{"rule": "handoff_open"}], r.text
    r = await api.post("/v1/service/threads/human/return", headers=_as("agent"))
    assert r.status_code == 200, r.text
    assert (await api.get("/v1/service/handoffs", headers=_as("agent"))).json()["handoffs"] == []
    r = await api.delete("/v1/threads/human", headers=_as("bob"))
    assert r.status_code == 200, r.text
    assert (await api.get("/v1/threads/human", headers=_as("bob"))).status_code == 404


async def test_a_thread_with_nothing_open_is_deleted(api):
    await _say(api, "bob", "plain", "订单200到哪了")
    await _say(api, "bob", "small", "订单200退款10元，原因质量问题")
    await _say(api, "bob", "small", "确认")  # a small refund executes at once: nothing stays open
    for tid in ("plain", "small"):
        r = await api.delete(f"/v1/threads/{tid}", headers=_as("bob"))
        assert r.status_code == 200, r.text
