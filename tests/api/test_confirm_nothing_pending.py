"""A bare confirmation with nothing pending is answered as such (outside review 1, finding 3).

"确认"/"算了" — typed, or a quick-reply button left on screen — mean something only while a service
step waits for them. With nothing pending the reply says so; it is never a knowledge answer with
unrelated quotes marked "confirmed". While a step waits, the same words still answer it.
"""

from __future__ import annotations

import pytest

from knowzero.graph.nodes.paths import choose_path
from knowzero.routing.signals import service_signals
from knowzero.service.identity import announce_keys
from kz_testlib import api_client

NOTHING = "当前没有待确认的操作"


@pytest.fixture()
async def api(tmp_path):
    async with api_client(tmp_path / "data", demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def _say(api, message: str, thread_id: str | None = None, key: str | None = None) -> dict:
    body = {"source": "chat", "message": message, "stream": False, **({"thread_id": thread_id} if thread_id else {})}
    r = await api.post("/v1/chat", json=body, headers={"Authorization": f"Bearer {key}"} if key else {})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("word", ["确认", "算了", "确定。", "confirm", "cancel"])
async def test_a_bare_confirmation_in_a_new_thread(api, word):
    body = await _say(api, word)
    assert body["path"] == "service", body["path"]
    assert body["verdict"] is None and body["citations"] == [], body
    assert body["quick_replies"] == []
    expected = NOTHING if word not in ("confirm", "cancel") else "nothing waiting for your confirmation"
    assert expected in body["reply"], body["reply"]


async def test_the_left_over_button_after_a_finished_refund(api):
    first = await _say(api, "订单200退款10元，原因质量问题", "done-refund", "demo-bob")
    assert first["quick_replies"] == ["确认", "算了"]
    done = await _say(api, "确认", "done-refund", "demo-bob")
    assert "已执行" in done["reply"] or "退款" in done["reply"], done["reply"]
    again = await _say(api, "确认", "done-refund", "demo-bob")  # the chip clicked a second time
    assert NOTHING in again["reply"] and again["verdict"] is None, again
    refunds = (await api.get("/v1/me/refunds", headers={"Authorization": "Bearer demo-bob"})).json()["refunds"]
    assert len(refunds) == 1  # nothing was submitted twice


async def test_confirmation_words_still_answer_a_pending_step(api):
    await _say(api, "订单200退款10元，原因质量问题", "pending", "demo-bob")
    body = await _say(api, "算了", "pending", "demo-bob")
    assert "已取消" in body["reply"] and NOTHING not in body["reply"], body["reply"]


def test_the_signal_is_the_whole_message_only():
    assert service_signals("确认").bare_answer and service_signals("算了吧").bare_answer
    for text in ("确认一下订单123的物流", "请确认零件A的公差", "取消工单 TK-0123456789", "确认收货后多久可以退款？"):
        assert not service_signals(text).bare_answer, text
    path, _ = choose_path({"intent": "knowledge", "confidence": 0.9, "method": "semantic"}, 0.5, service_signals("确认"))
    assert path == "service"
