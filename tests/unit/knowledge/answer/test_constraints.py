"""Constraints a question sets (years, editions, dates), met or missed by the cited text as values (pure)."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import policy
from knowzero.knowledge.answer.checks.constraints import constraints_of, missed


@pytest.mark.parametrize(("question", "values"), [
    ("2021年香港GDP增长了多少？", ["2021", "gdp"]),   # a code in capitals: another of its family (GNP?) is not it
    ("第七届全国运动会在哪里举行？", ["7届"]),
    ("2022年春运首日1月17日的车票何时开售？", ["2022", "1日", "1-17"]),   # 首日: the first day
    ("澜州省首批示范校有多少所？", ["1批", "澜州"]),
    ("云州地铁4号线一期什么时候开通？", ["1期", "4号线"]),
    ("华屹电子2023年第二季度营收是多少？", ["2023", "Q2"]),
    ("前三季度吞吐量是多少？", ["9M"]),
    ("女子单打冠军是谁？", ["女", "1", "单打"]),   # 单打 qualifies 冠军: the doubles' winner is another
    ("2022年7月泊阳市的最高气温是多少？", ["2022", "M7", "泊阳", "最高"]),
    ("清渠市居民人均预期寿命是多少岁？", ["清渠", "人均"]),
    ("1990年代的流行音乐有哪些特点？", []),   # a decade is no year
    ("公司有多少名员工？", []),
    ("今年的年假有几天？", []),             # relative: no value to compare
])
def test_constraints_are_read_as_values(question: str, values: list[str]) -> None:
    assert [c.value for c in constraints_of(question)] == values


@pytest.mark.parametrize(("question", "evidence", "missing"), [
    ("2021年香港GDP增长了多少？", "上世纪60年代到80年代，香港经济腾飞，GDP年均增长速度近9%。", ["2021年"]),
    ("2021年香港GDP增长了多少？", "1960年至1980年间，香港GDP年均增长近9%。", ["2021年"]),
    ("2021年香港GDP增长了多少？", "2021年香港本地生产总值增长6.4%。", []),
    ("2021年香港GDP增长了多少？", "香港本地生产总值增长6.4%。", []),          # no time named: not a miss
    ("第七届全国运动会在哪里举行？", "第六届全国运动会在广州举行。", ["第七届"]),
    ("第七届全国运动会在哪里举行？", "第7届全国运动会在北京举行。", []),           # 七 = 7
    ("2022年春运首日1月17日的车票何时开售？", "2022年春运首日（1月17日）的火车票今天正式开售。", []),
    ("澜州省首批示范校有多少所？", "省教育厅公布第二批示范校名单，共36所。", ["首批"]),
    ("澜州省首批示范校有多少所？", "澜州省第一批示范校共48所。", []),
    ("第七届电影节最佳影片是哪部？", "第3场放映座无虚席。", []),               # a showing is no edition
    ("云州地铁4号线一期什么时候开通？", "4号线二期工程开工。", ["一期"]),
    ("华屹电子第二季度营收是多少？", "上半年累计实现营业收入74.6亿元。", ["第二季度"]),
    ("华屹电子第二季度营收是多少？", "上半年营收69.8亿元，其中第二季度38.6亿元。", []),
    ("女子单打冠军是谁？", "男子单打决赛中，何雨桐夺冠。", ["女子"]),
    ("男子全程冠军奖金是多少？", "周海川获得男子全程亚军，收获5万元奖金。", ["冠军"]),
    ("2023年前三季度吞吐量是多少？", "2023年9月完成集装箱吞吐量58万标箱。", ["前三季度"]),   # a month's figure
    ("2023年前三季度吞吐量是多少？", "2023年10月8日消息，前三季度完成512万标箱。", []),  # a date is no period
    ("清渠市二孩每年补贴多少钱？", "鹿原市对二孩家庭每年发放3600元。", ["清渠市"]),
    ("清渠市二孩每年补贴多少钱？", "清渠二孩家庭每年补贴3000元，高于鹿原市。", []),  # named without 市
    ("清渠市二孩每年补贴多少钱？", "全市二孩家庭每年补贴3000元。", []),      # 全市 names no other city
    ("2024年春运首日凤城站发送旅客多少人次？", "春运首日，凤城东站发送旅客5.2万人次。", ["凤城站"]),
])
def test_a_constraint_is_missed_only_when_the_source_names_another_value(question: str, evidence: str,
                                                                       missing: list[str]) -> None:
    assert [c.written for c in missed(constraints_of(question), evidence)] == missing


def test_the_policy_declines_an_answer_about_another_time() -> None:
    ok = policy.Verdict("confirmed", "quoted", [], 0.9, False)
    v = policy.constraint_missed(ok, "2021年")
    assert v.level == "insufficient" and "2021年" in v.reason and not v.needs_human_review
    declined = policy.Verdict("insufficient", "nothing", [], 0.1, False)
    assert policy.constraint_missed(declined, "2021年") is declined


@pytest.mark.parametrize(("question", "evidence", "is_missed"), [
    ("班车C线几点发车？", "A线：首站 萧山客运中心，早班发车 7:05；B线：首站 下沙地铁站，早班发车 7:15", True),
    ("班车C线几点发车？", "C线：首站 滨江，早班发车 7:20", False),
    ("B栋的食堂几点开门？", "食堂位于总部园区B栋一楼，11:00开门。", False),
    ("2号楼的会议室在几层？", "1号楼和3号楼各设两间会议室。", True),
    ("班车几点发车？", "A线早班发车 7:05", False),  # no item asked: nothing to miss
])
def test_an_item_named_by_a_letter_must_be_the_one_the_source_names(question: str, evidence: str,
                                                                    is_missed: bool) -> None:
    assert bool(missed(constraints_of(question), evidence)) == is_missed
