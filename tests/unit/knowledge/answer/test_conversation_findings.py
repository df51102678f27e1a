"""Issue 33 (and 27, items 2 and 4), found on the development chains of session 34: the follow-up's rewrite was
right and the reading was not — a rule that lists several conditions with their own values is answered by the
clause whose condition the question states most exactly, and a floor ("18楼") is a number a floor band
("12–20层") holds, its row's cell asked by an abbreviated column name ("二次供水费" for 二次加压供水费)."""

from __future__ import annotations

import re

import pytest

from kz_testlib import answer_dict, make_kb

LEAVE = """# 星河软件 年假与请假制度

## 三、其他假期

- 婚假：员工依法登记结婚的，给予婚假3天。
- 丧假：父母、配偶、子女去世的，给予丧假3天；配偶的父母去世的，给予丧假2天。
"""
FEES = """# 物业服务收费标准

## 二、电梯运行费与二次加压供水费

| 所在楼层 | 电梯运行费（元/户·月） | 二次加压供水费（元/户·月） |
| --- | --- | --- |
| 1–2层 | 0 | 0 |
| 3–11层 | 25 | 8 |
| 12–20层 | 35 | 12 |
| 21层及以上 | 45 | 15 |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("conversation-findings") / "kz",
                   {"hr/年假与请假制度.md": LEAVE, "estate/收费标准.md": FEES})


@pytest.mark.parametrize(("question", "says", "not_says"), [
    ("配偶的父母去世的话，公司给几天丧假？", "2天", "3天"),
    ("父母去世的话，公司给几天丧假？", "3天", "2天"),
])
async def test_the_clause_whose_condition_the_question_states_answers(kb, question: str, says: str,  # type: ignore[no-untyped-def]
                                                                       not_says: str) -> None:
    out = await answer_dict(question, kb)
    assert says in out["reply"] and not_says not in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed"


@pytest.mark.parametrize(("question", "value", "other"), [
    ("我家住18楼，二次供水费每个月多少？", "12", "35"),
    ("我家住18楼，电梯运行费每个月多少？", "35", "12"),
])
async def test_a_floor_picks_its_band_and_the_column_asked(kb, question: str, value: str, other: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb)
    assert f"{value}元/户·月（12–20层）" in out["reply"], out["reply"]  # the cell leads, with its row key
    # the lead line names the asked column's value alone (the band's "12–20层" is its key, not a value)
    lead = out["reply"].splitlines()[0]
    assert not re.search(rf"(?<![\d.–-]){other}(?![\d.–-])", lead), out["reply"]


async def test_a_total_quoted_as_the_values_to_add_is_not_confirmed(kb) -> None:  # type: ignore[no-untyped-def]
    """"…加起来一共多少？" answered by the rows that hold the parts: the total itself was never computed."""
    out = await answer_dict("住15楼的，电梯运行费和二次加压供水费加起来一共每月多少？", kb)
    assert out["verdict"]["level"] != "confirmed" or "47" in out["reply"], out["reply"]
