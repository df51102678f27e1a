"""Found on the dev half of the fifth blind set (a pharmacy chain, a school; session 35): a fine stated in a
column headed 处理, a roster's flag column against a job title of the same name, a sum asked with 多大, the row that
holds a maximum named first, school year groups as bands — and two sums that must not be computed from the
wrong column (教龄 years for 教龄津贴; rows counted for "how many credits … add up to")."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

RULES = """# 员工考勤与请假制度

第五条　迟到、早退按下表处理：

| 迟到或早退时长 | 处理 |
|---|---|
| 15分钟以内（含15分钟） | 每次扣款20元 |
| 超过15分钟，不超过60分钟 | 每次扣款50元 |
| 超过60分钟 | 按旷工半天处理 |
"""
STAFF = """工号,姓名,门店,岗位,是否执业药师,教龄
YF01,李秀英,城南旗舰店,执业药师,是,12
YF02,王芳,城南旗舰店,店长,是,8
YF03,张伟,城南新村店,营业员,否,3
YF04,刘洋,城北店,执业药师,是,5
YF05,陈静,城北店,店长,是,9
"""
STORES = """门店编号,门店,区,面积(㎡)
YF01,城南旗舰店,城南区,420
YF02,城南新村店,城南区,135
YF03,城北店,城北区,200
"""
CLASSES = """class,year_group,room,pupils
7A,Year 7,S11,24
9A,Year 9,S21,26
12A,Year 12,S30,11
"""
FEES = """# Fees 2026-27

| Year group | Autumn term | Spring term | Summer term |
|---|---|---|---|
| Years 1–6 | £4,200 | £4,200 | £3,600 |
| Years 7–9 | £5,760 | £5,760 | £4,880 |
| Years 10–11 | £6,300 | £6,300 | £5,400 |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind5") / "kz", {
        "pharmacy/员工考勤与请假制度.md": RULES, "pharmacy/门店员工名册.csv": STAFF, "pharmacy/门店列表.csv": STORES,
        "school/class_list.csv": CLASSES, "school/Fees_2026-27.md": FEES})


@pytest.mark.parametrize(("question", "lead"), [
    ("我迟到了半个小时，扣多少钱？", "每次扣款50元"),  # 半个小时 in the 15–60 minute band; the fine under 处理
    ("名册上一共有多少个执业药师？", "共 4 人"),  # the flag 是否执业药师, not the job title 执业药师 as well (2)
    ("城南区的门店加起来一共多大面积？", "合计 555"),
    ("Which class has the most pupils?", "9A — Highest pupils: 26"),
    ("What's the Spring term fee for a Year 8 pupil?", "£5,760 (Years 7–9)"),
])
async def test_read_and_computed(kb, question: str, lead: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb)
    assert lead in out["reply"].splitlines()[0], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


@pytest.mark.parametrize("question", ["所有员工的教龄津贴加起来一共是多少？",  # a sum of 教龄 years is no allowance
                                      "How many pupils do all the classes add up to in Year 7 rooms?"])
def test_no_sum_of_another_measure_and_no_count_for_an_adding_up(kb, question: str) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(kb.sql, question)
    assert c is None or c.operation == "sum" and c.column is not None and "教龄" != c.column.label, c


RATIOS = """# Trips and Safeguarding

| Year group | Day visit | Residential or abroad |
|---|---|---|
| Years 1 to 3 | 1:6 | 1:6 |
| Years 4 to 6 | 1:8 | 1:8 |
| Years 10 to 13 | 1:12 | 1:10 |

Parent volunteers with an enhanced DBS check may count towards the ratio on day visits only, never on residential
visits or visits abroad.
"""


@pytest.fixture(scope="module")
def trips(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind5-trips") / "kz", {"school/Trips_and_Safeguarding.md": RATIOS,
                                                                    "school/class_list.csv": CLASSES})


async def test_a_year_group_is_no_column_and_a_ratio_no_count(trips) -> None:  # type: ignore[no-untyped-def]
    # the asking sentence of several is a yes/no one: its statement answers, not the year group's row
    out = await answer_dict("A dad with an enhanced DBS check has offered to help on the Year 5 residential trip. "
                            "Can he count towards the staff ratio?", trips)
    assert "day visits only" in out["reply"], out["reply"]
    # the ratio is what the table gives; the number of staff is still to be computed from the class's size
    out = await answer_dict("12A is going to a gallery in town for the day. How many staff do they need to take?", trips)
    assert out["verdict"]["level"] != "confirmed", out["reply"]


async def test_a_fee_after_a_discount_is_not_the_listed_fee(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("Our older daughter is in Year 9 and our son joins Year 8 in September. "
                            "What's his Spring term fee after the sibling discount?", kb)
    assert out["verdict"]["level"] != "confirmed", out["reply"]
