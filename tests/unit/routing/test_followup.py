"""Issue 33, deliver 1: follow-ups are rewritten into standalone questions; a turn that stands alone is
left alone (a new topic is never rewritten)."""

from __future__ import annotations

import pytest

from knowzero.routing.followup import standalone

FOLLOW_UPS = [
    ("那零件B呢？", "零件A的公差是多少？", "", "零件B的公差是多少？"),
    ("那B呢", "零件A的公差是多少？", "", "零件B的公差是多少？"),
    ("需要谁批准？", "员工请假超过3天需要什么手续？", "", "员工请假需要谁批准？"),
    ("最多几天？", "年假有几天？", "", "年假最多几天？"),
    ("那它的公差呢？", "精密电机轴XH-1003的材料是什么？", "XH-1003", "XH-1003的公差呢？"),
    ("病假呢？", "年假有几天？", "", "病假有几天？"),
    ("What about contractors?", "How many days of annual leave do employees get?", "",
     "How many days of annual leave do contractors get?"),
    ("and for interns?", "How many days of annual leave do employees get?", "",
     "How many days of annual leave do interns get?"),
    # issue 33: "需要谁批准？" about the leave policy keeps the topic, not only the person
    ("需要谁批准？", "员工的年假有几天？", "", "员工的年假需要谁批准？"),
    ("那它什么时候发的货？", "订单123到哪了", "订单123", "订单123什么时候发的货？"),  # the order in discussion
    ("那事假呢？", "瀚陆物流员工每年有几天带薪病假？", "", "瀚陆物流员工每年有几天带薪事假？"),
    # session 30: a trailing 的 is no last character to match ("…多层住云溪苑的物业费" spliced it into 住宅的)
    ("那云溪苑的呢？", "江畔花园多层住宅的物业费多少钱一平？", "", "云溪苑的物业费多少钱一平？"),
    ("What about someone with 12 years?", "How many PTO days does an employee with 3 years of service get?", "",
     "How many PTO days does an employee with 12 years of service get?"),
    ("and sick leave?", "How many days of annual leave do employees get?", "",
     "How many days of sick leave do employees get?"),
    ("And part-time staff?", "How many days of annual leave do employees get?", "",
     "How many days of annual leave do part-time staff get?"),
]

STANDALONE = [
    ("婚假有几天？", "年假有几天？"),
    ("员工食堂的午餐几点开始供应？", "年假有几天？"),
    ("研发部一共有多少名员工？", "零件A的公差是多少？"),
    ("How many days of paid sick leave do employees get?", "How many days of annual leave do employees get?"),
    ("谢谢", "年假有几天？"),
    ("你好", ""),
    ("And how long does the canteen stay open?", "How many days of annual leave do employees get?"),
    ("那食堂几点开门？", "员工的年假有几天？"),
]


@pytest.mark.parametrize(("text", "previous", "subject", "want"), FOLLOW_UPS)
def test_a_follow_up_becomes_a_standalone_question(text: str, previous: str, subject: str, want: str) -> None:
    assert standalone(text, previous, subject) == want


@pytest.mark.parametrize(("text", "previous"), STANDALONE)
def test_a_question_that_stands_alone_is_left_alone(text: str, previous: str) -> None:
    assert standalone(text, previous) == text
