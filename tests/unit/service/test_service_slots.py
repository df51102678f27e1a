"""Slot filling: extraction (zh/en), corrections, cancellation, yes/no, one question at a time."""

import pytest

from knowzero.service import slots as sl


@pytest.mark.parametrize(("text", "expecting", "want"), [
    ("帮我给订单123退款50元，因为坏了", None, {"order_id": "123", "amount": 50.0, "reason": "坏了"}),
    ("refund order #123 of $20 because it is damaged", None, {"order_id": "123", "amount": 20.0, "reason": "it is damaged"}),
    ("123", "order_id", {"order_id": "123"}),
    ("50", "amount", {"amount": 50.0}),
    ("全额", "amount", {"amount": "full"}),
    ("质量问题，尺寸超差", "reason", {"reason": "质量问题，尺寸超差"}),
    ("订单号是125", None, {"order_id": "125"}),
    ("退300块", None, {"amount": 300.0}),
])
def test_extract_slots(text, expecting, want):
    got = sl.extract_slots(text, expecting)
    assert {k: got.get(k) for k in want} == want


@pytest.mark.parametrize(("text", "action"), [
    ("帮我申请退款", "request_refund"), ("I want a refund", "request_refund"), ("我的订单有哪些", "list_my_orders"),
    ("我的订单123到哪了", "get_order_status"), ("where is my order 123?", "get_order_status"),
    ("帮我开个工单，发票抬头错了", "create_ticket"), ("查一下工单 TK-ABCDEF1234 的进度", "get_ticket"),
    ("取消工单 TK-0123456789", "cancel_request"), ("转人工", "transfer_to_human"),
    ("I want to talk to a person", "transfer_to_human"), ("今天天气不错", None),
])
def test_detect_action(text, action):
    assert sl.detect_action(text) == action


def test_correction_replaces_the_slot_filled_last():
    p = {"action": "request_refund", "slots": {"order_id": "123"}, "expecting": "amount", "last_filled": "order_id"}
    p2, changed = sl.merge_slots(p, "不对，是 124")
    assert p2["slots"]["order_id"] == "124" and changed == ["order_id"]
    p3, _ = sl.merge_slots({**p2, "slots": {**p2["slots"], "amount": 30.0}, "last_filled": "amount"}, "不对，金额是 40")
    assert p3["slots"]["amount"] == 40.0 and p3["slots"]["order_id"] == "124"
    assert p["slots"] == {"order_id": "123"}  # inputs are not mutated


def test_cancel_and_yes_no():
    assert sl.is_cancel("算了") and sl.is_cancel("never mind") and sl.is_cancel("cancel")
    assert not sl.is_cancel("取消工单 TK-0123456789")
    assert sl.yes_no("确认") is True and sl.yes_no("yes") is True and sl.yes_no("不") is False and sl.yes_no("123") is None


def test_one_missing_slot_at_a_time():
    assert sl.next_missing("request_refund", {}) == "order_id"
    assert sl.next_missing("request_refund", {"order_id": "1"}) == "amount"
    assert sl.next_missing("request_refund", {"order_id": "1", "amount": 2.0}) == "reason"
    assert sl.next_missing("request_refund", {"order_id": "1", "amount": 2.0, "reason": "x"}) is None
    assert "订单" in sl.question_for("order_id", "zh") and "order" in sl.question_for("order_id", "en")


def test_weak_lookup_is_a_slot_answer():
    assert sl.is_weak("get_order_status", "order 123", "order_id")
    assert not sl.is_weak("get_order_status", "订单124到哪了", "order_id")
    assert sl.is_weak("get_order_status", "快递员态度很差", "subject")


@pytest.mark.parametrize(("text", "rest"), [
    ("算了，帮我查一下订单123的物流", "帮我查一下订单123的物流"),
    ("never mind, where is order 123?", "where is order 123?"),
    ("算了", ""),
    ("算了吧。", ""),
    ("取消工单 TK-0123456789", ""),  # cancelling a named ticket is a request of its own, not a cancel word
])
def test_a_new_request_after_a_cancel_word(text: str, rest: str) -> None:
    assert sl.after_cancel(text) == rest
