"""Issue 33: context carries across a thread — the order in discussion for a later "它", a new request typed in
the same breath as dropping the old one, and a follow-up with no subject keeping the previous question's topic."""

from __future__ import annotations

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import api_client


@pytest.fixture()
async def api(tmp_path):
    async with api_client(tmp_path / "data", demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def _say(api, message: str, thread_id: str, key: str = "demo-alice") -> dict:
    body = {"message": message, "stream": False, "thread_id": thread_id}
    r = await api.post("/v1/chat", json=body, headers={"Authorization": f"Bearer {key}"})
    assert r.status_code == 200, r.text
    return r.json()


def _understood(body: dict) -> list[tuple[str, str]]:
    return [(e["data"]["understood"], e["data"]["text"]) for e in body["events"]
            if e["type"] == "reasoning" and e["data"].get("understood")]


async def test_it_means_the_order_in_discussion(api):
    first = await _say(api, "订单123到哪了", "order-it")
    assert first["path"] == "service" and "SF1234567890" in first["reply"]
    then = await _say(api, "那它什么时候发的货？", "order-it")
    assert _understood(then) == [("follow_up", "理解为：订单123什么时候发的货？")]
    assert then["path"] == "service" and "订单 123" in then["reply"], then["reply"]


async def test_a_new_request_after_dropping_the_old_one_is_served(api):
    await _say(api, "帮我开个工单", "mid-flow")
    await _say(api, "订单124", "mid-flow")
    body = await _say(api, "算了，帮我查一下订单123的物流", "mid-flow")
    assert "已取消工单" in body["reply"] and "SF1234567890" in body["reply"], body["reply"]
    tickets = (await api.get("/v1/me/tickets", headers={"Authorization": "Bearer demo-alice"})).json()["tickets"]
    assert tickets == [] or all(t["order_id"] != "124" for t in tickets)  # the dropped ticket was not filed
    state = (await api.get("/v1/threads/mid-flow", headers={"Authorization": "Bearer demo-alice"})).json()["state"]
    assert not (state["service"] or {}).get("pending")


async def test_who_approves_keeps_the_topic_and_is_not_confirmed_without_a_role(api):
    await _say(api, "员工的年假有几天？", "approve", "demo-editor")
    body = await _say(api, "需要谁批准？", "approve", "demo-editor")
    assert _understood(body) == [("follow_up", "理解为：员工的年假需要谁批准？")]
    # the photographing rule of the workshop is not an answer about leave, and days are not an approver
    assert "拍照" not in body["reply"]
    assert body["verdict"]["level"] != "confirmed" or any(
        w in body["reply"] for w in ("上级", "经理", "总监")), body["reply"]


async def test_a_long_new_request_after_a_cancel_word_drops_the_old_one(api):
    """A cancel word that opens a long message cancels too (a reviewer's ¥100 went to the dropped order)."""
    await _say(api, "我要给订单123退款", "long-cancel")
    body = await _say(api, "算了，帮我给订单125退款100元吧谢谢", "long-cancel")
    assert "已取消" in body["reply"], body["reply"]
    state = (await api.get("/v1/threads/long-cancel", headers={"Authorization": "Bearer demo-alice"})).json()["state"]
    pending = (state["service"] or {}).get("pending") or {}
    assert pending.get("slots", {}).get("order_id") == "125", pending


async def test_a_cancel_word_with_a_new_request_while_a_refund_waits_for_confirmation(api):
    await _say(api, "订单123退款50元，原因质量问题", "confirm-cancel")
    body = await _say(api, "算了，帮我给订单124退款100元，原因质量问题", "confirm-cancel")
    assert "已取消" in body["reply"], body["reply"]
    done = await _say(api, "确认", "confirm-cancel")
    refunds = (await api.get("/v1/me/refunds", headers={"Authorization": "Bearer demo-alice"})).json()["refunds"]
    assert all(r["order_id"] != "123" for r in refunds), (done["reply"], refunds)  # the dropped one never ran


FEES = ("# 出入境证件收费\n\n| 收费项目 | 工本费（元） |\n| --- | --- |\n| 普通护照 | 120 |\n| 往来港澳通行证 | 60 |\n\n"
        "# 不动产登记\n\n办理不动产转移登记，材料齐全的当场受理。\n")


async def test_a_message_read_with_the_threads_topic_must_still_be_answered_by_its_own_words(api):
    """"那二手房过户要几天？" after a passport fee: read with the passport fee in front, the fee row names none of
    the message's words (二手房, 过户) — it declines instead of answering "120元" for the topic."""
    editor = {"Authorization": "Bearer demo-editor"}
    r = await api.post("/v1/kb/upload", files={"files": ("收费.md", FEES.encode(), "text/markdown")},
                       data={"collection": "centre"}, headers=editor)
    assert r.status_code == 200, r.text
    body = {"stream": False, "thread_id": "topic-in-front", "collections": ["centre"]}
    first = (await api.post("/v1/chat", json={**body, "message": "办普通护照的工本费是多少？"}, headers=editor)).json()
    assert "120" in first["reply"], first["reply"]
    then = (await api.post("/v1/chat", json={**body, "message": "那二手房过户要几天？"}, headers=editor)).json()
    assert "120" not in then["reply"] and then["verdict"]["level"] == "insufficient", then["reply"]


STAFF_CSV = b"""staff_id,name,role,start_date
HV01,Ann Weller,Vet,2009-03-01
HV02,Ben Hart,Vet,2016-09-12
HV03,Cara Lodge,Nurse,2019-01-07
"""
AFTERCARE_MD = b"""# Harbourside Vets: euthanasia and aftercare

| Service | Cat | Dog up to 25 kg | Dog over 25 kg |
|---|---|---|---|
| Communal cremation | \xc2\xa345 | \xc2\xa375 | \xc2\xa3110 |
| Individual cremation, ashes returned | \xc2\xa3140 | \xc2\xa3195 | \xc2\xa3260 |
"""


async def _upload(api, files: list[tuple[str, bytes, str]]) -> None:
    body = [("files", (name, data, mime)) for name, data, mime in files]
    r = await api.post("/v1/kb/upload", data={"collection": "harbourside"}, files=body,
                       headers={"Authorization": "Bearer demo-editor"})
    assert r.status_code == 200, r.text


async def test_he_or_she_is_the_person_the_previous_answer_named(api):
    await _upload(api, [("staff.csv", STAFF_CSV, "text/csv")])
    first = await _say(api, "Which vet has been with us the longest?", "who-she", "demo-editor")
    assert "Ann Weller" in first["reply"], first["reply"]
    then = await _say(api, "What role does she have, and when did she start?", "who-she", "demo-editor")
    assert any("Ann Weller" in text for _how, text in _understood(then)), _understood(then)


async def test_a_continuation_of_a_price_stays_a_question(api):
    await _upload(api, [("aftercare.md", AFTERCARE_MD, "text/markdown")])
    await _say(api, "How much is communal cremation for a dog over 25 kg?", "go-on", "demo-editor")
    then = await _say(api, "And individual, with the ashes back?", "go-on", "demo-editor")
    assert then["path"] == "knowledge", (then["path"], then["reply"])  # never a new learning document
