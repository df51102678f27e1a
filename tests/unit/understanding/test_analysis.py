"""The message analysis: one typed value per question, made by the owners of each idea (pure)."""

from __future__ import annotations

from knowzero.knowledge.answer.checks.answerable import asked_kind
from knowzero.knowledge.answer.checks.premise import is_yes_no
from knowzero.understanding.analysis import analyse, of


def test_a_question_is_read_once_into_every_field_a_later_step_needs() -> None:
    a = analyse("研发部一共有多少名员工？")
    assert (a.language, a.asked_kind, a.computes, a.yes_no) == ("zh", "number", True, False)
    assert a.terms == ("研发部", "一共", "员工") and "多少" not in a.terms
    b = analyse("零件A的公差可以放宽吗？")
    assert b.yes_no and b.entities == ("零件a",) and not b.computes
    assert analyse("How many days of annual leave?").language == "en"


def test_service_signals_and_ids_come_with_the_analysis() -> None:
    a = analyse("我的订单124到哪了")
    assert a.service.order_ids == ("124",) and a.service.account and not a.service.human
    assert analyse("帮我转人工").service.human


def test_the_analysis_agrees_with_the_checks_it_replaces() -> None:
    for q in ("年假有几天？", "谁批准出差？", "公司在哪个城市？", "可以用个人网盘吗？", "What year was it founded?"):
        a = analyse(q)
        assert (a.asked_kind, a.yes_no) == (asked_kind(q), is_yes_no(q))


def test_a_rewrite_keeps_what_was_typed_and_a_stale_analysis_is_not_reused() -> None:
    a = analyse("零件B的公差是多少？", typed="那零件B呢？")
    assert a.rewritten and a.typed == "那零件B呢？" and not analyse("x", typed="x").rewritten
    assert of("零件B的公差是多少？", a) is a
    assert of("另一个问题？", a).text == "另一个问题？"
    assert analyse("你們公司在哪裡？").traditional and analyse("零件A").language == "zh"
