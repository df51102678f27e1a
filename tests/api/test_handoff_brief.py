"""The handoff brief says what the customer wants now (outside review 1, finding 12): after two
executed refunds a "转人工" is not "想要申请退款"; a refund an agent rejected is still wanted."""

from __future__ import annotations

import pytest

from knowzero.service.handoff import build_brief, finished_actions
from knowzero.service.identity import announce_keys
from kz_testlib import api_client

BOB = {"Authorization": "Bearer demo-bob"}


@pytest.fixture()
async def api(tmp_path):
    async with api_client(tmp_path / "data", demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def _say(api, message: str) -> dict:
    r = await api.post("/v1/chat", headers=BOB, json={"source": "chat", "message": message, "thread_id": "brief",
                                                      "stream": False})
    assert r.status_code == 200, r.text
    return r.json()


async def test_finished_refunds_are_not_what_a_handoff_wants(api):
    for order in ("200", "201"):
        await _say(api, f"订单{order}退款10元，原因质量问题")
        assert "已执行" in (await _say(api, "确认"))["reply"]
    assert (await _say(api, "转人工"))["interrupted"]
    handoffs = (await api.get("/v1/service/handoffs", headers={"Authorization": "Bearer demo-agent"})).json()["handoffs"]
    brief = handoffs[0]["brief"]
    assert "想要申请退款" not in brief["headline"], brief["headline"]
    assert brief["action"] is None and "request_refund" in brief["done"]
    assert brief["headline"].startswith("客户（李四）想要咨询问题") and "已办理：申请退款" in brief["headline"]


def test_a_rejected_or_failed_request_is_still_wanted():
    turns = [{"role": "user", "content": "订单201退款600元，原因质量问题"}, {"role": "user", "content": "确认"}]
    rejected = {"steps": [{"tool": "request_refund", "ok": True}, {"tool": "request_refund", "ok": False}]}
    brief = build_brief(turns, rejected, {}, {"id": "bob", "name": "李四"}, "转人工")
    assert brief["action"] == "request_refund" and brief["headline"].startswith("客户（李四）想要申请退款")
    assert finished_actions([{"tool": "request_refund", "ok": True}, {"tool": "get_order_status", "ok": True},
                             {"tool": "request_refund", "ok": False}]) == ["get_order_status"]


def test_an_order_id_given_for_a_ticket_is_not_an_order_lookup():
    """"帮我开个工单" → "订单124" (the order the ticket is about) → the complaint → "转人工": the customer wants a
    ticket filed about order 124, not the order's status (a new user's walkthrough, issue 33)."""
    turns = [{"role": "user", "content": "帮我开个工单"}, {"role": "user", "content": "订单124"},
             {"role": "user", "content": "收到的货少了一件，包装也破了"}]
    brief = build_brief(turns, {}, {}, {"id": "bob", "name": "李四"}, "转人工")
    assert brief["action"] == "create_ticket" and brief["headline"].startswith("客户（李四）想要提交问题工单")
    assert brief["facts"]["order_ids"] == ["124"] and "涉及订单 124" in brief["headline"]
    status = build_brief([{"role": "user", "content": "订单124到哪了"}], {}, {}, {"id": "bob"}, "转人工")
    assert status["action"] == "get_order_status"
