"""Found on the dev half of the ninth blind set (a car rental company, a museum trust; session 39) and on the
seventh set's learning comments: a day band in a price table's header ("3–6天（元/天）"), the rate asked per day
(not its total), a yes/no column named by the head of its subject ("送车上门" of 准驾送车), a state said in other
words ("正租出去" of 在租), a superlative in time ranked by the year column, a yes/no question answered by a roster
row's flag in the question's own modal ("不可以"), a length asked ("多高") that a sentence without one does not
answer, "Who is the <role>?" read from the roster's name field, an English word the documents write only in the
plural, and the organisation's name left out of a counted noun. The documents below are written for these tests."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

PRICES = """# 青岩租车 租车价目表（2026年）

租期自取车时间起每24小时为1天。日租价格按整个租期的天数确定档位，例如租5天的，5天都按3–6天的价格计算。

| 车型组 | 1–2天（元/天） | 3–6天（元/天） | 7–29天（元/天） |
|---|---|---|---|
| A组 经济型 | 168 | 148 | 128 |
| B组 舒适型 | 228 | 198 | 178 |
| D组 商务型 | 368 | 328 | 288 |

## 送车上门

送车上门和上门取车只能由员工名册中“准驾送车”为“是”的员工承担，客户在租车时预约。

## 仓储服务

标准托盘为1.2米×1.0米，货物码放高度不超过1.5米、重量不超过1吨。超高或超重的托盘按1.5个托盘计费。
"""
ROSTER = """工号,姓名,岗位,准驾送车,入职日期
QY01,沈一鸣,店长,是,2014-03-10
QY02,陆小芳,租赁顾问,否,2020-06-15
QY03,曹东,车辆专员,否,2024-08-19
QY04,卢俊杰,车辆专员,是,2019-04-01
QY05,许多,车辆专员,是,2016-09-12
"""
FLEET = """编号,车型组,能源类型,购入年份,累计里程(公里),状态
CL01,A,燃油,2021,98200,在租
CL02,C,纯电,2024,28400,在租
CL03,C,纯电,2023,51200,维修中
CL04,B,燃油,2020,132600,在租
CL05,C,纯电,2022,48640,在租
CL06,A,燃油,2019,150000,在库
"""
STAFF = """staff_id,name,role,keyholder
DM01,Eleanor Stroud,Director,Yes
DM02,Owen Price,Marina Manager,No
DM03,Ruth Hale,Collections Officer,Yes
"""
HANDBOOK = """# Harbourside Trust Staff Handbook

## Berths

LOA is measured including bowsprits, davits and anything else that sticks out.

Shore power is included for boats up to 12.00 m LOA.
"""
CHARGES = """# Harbourside Trust Charges 2026

Adult tickets cost £12.00.
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("blind9") / "kz")
    for collection, name, text in [("rental", "价目表.md", PRICES), ("rental", "员工名册.csv", ROSTER),
                                   ("rental", "车辆清单.csv", FLEET), ("trust", "staff.csv", STAFF),
                                   ("trust", "Staff_Handbook.md", HANDBOOK), ("trust", "Charges.md", CHARGES)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


async def test_a_day_band_in_the_header_chooses_the_rate_asked_per_day(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("B组舒适型租5天的话，每天多少钱？", kb, collections=("rental",))
    assert out["reply"].startswith("198元/天"), out["reply"]  # the rate asked, not 5 × 198
    out = await answer_dict("D组车租10天要多少钱？", kb, collections=("rental",))
    assert out["reply"].startswith("2880元"), out["reply"]  # a total asked: 288元/天 × 10天


@pytest.mark.parametrize(("question", "value"), [
    ("员工名册里登记了可以送车上门的员工一共几个？", 3.0),  # 准驾送车 named by its head, 送车
    ("现在正租出去的纯电车，平均累计里程是多少公里？", 38520.0),  # 在租 said as 正租出去
])
def test_a_flag_named_by_its_head_and_a_state_in_other_words_filter(kb, question: str, value: float) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(kb.sql, question)
    assert c is not None and c.value == value, c


def test_a_superlative_in_time_ranks_by_the_year_and_needs_a_named_cell(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(kb.sql, "眼下正在租出去的车里，哪一辆是最早买的？")
    assert c is not None and c.keys == ("CL04",) and c.value == 2020, c
    assert aggregate.compute(kb.sql, "哪一辆车是最新买的？") is None  # nothing of the fleet list named: no roster guess


async def test_a_row_flag_answers_yes_or_no_in_the_question_s_modal(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("车辆专员曹东可以送车吗？", kb, collections=("rental",))
    assert out["reply"].startswith("不可以") and "曹东" in out["reply"], out["reply"]
    out = await answer_dict("曹东准驾送车吗？", kb, collections=("rental",))
    assert out["reply"].startswith("不是"), out["reply"]  # her row says 否, not the first row quoted (沈一鸣: 是)
    out = await answer_dict("Is Ruth Hale a keyholder?", kb, collections=("trust",))
    assert out["reply"].startswith("Yes"), out["reply"]


async def test_a_length_asked_is_answered_by_a_length(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("多高多重算超高超重？", kb, collections=("rental",))
    assert "1.5米" in out["reply"] and "1吨" in out["reply"], out["reply"]


async def test_who_is_the_role_reads_the_name_field(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("Who is the Marina Manager?", kb, collections=("trust",))
    assert out["verdict"]["level"] == "confirmed" and "Owen Price" in out["reply"], out["reply"]


async def test_a_word_written_only_in_the_plural_is_found(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("Is the bowsprit included in the LOA?", kb, collections=("trust",))
    lead = out["reply"].split("[1]")[0]
    assert lead.startswith("Yes") and "LOA is measured including bowsprits" in lead, out["reply"]


def test_a_count_says_its_noun_without_the_organisation(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(kb.sql, "How many Harbourside staff are keyholders?",
                          context=["Harbourside Trust Staff Handbook", "Harbourside Trust Charges 2026"])
    assert c is not None and c.value == 2.0 and c.noun == "staff", c
