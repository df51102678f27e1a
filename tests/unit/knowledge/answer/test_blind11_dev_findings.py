"""Found on the dev half of the eleventh blind set (a farm-machinery co-operative, a scaffolding firm; session 41), on
the tenth set's learning comments and on the ninth set's learning documents: a rule beside a table that gives its own
value for a case the question names ("春节…一律收取票价的30%" beside the 10% row), two clauses of one sentence both for the
asker's case (neither applied alone), a list of parallel cases each with its value ("平时提前2天，农忙期提前5天"), the asker's 不是社员 for the documents' 非社员, a verb of the question the documents
do not write ("来收") that names no other subject, a yes/no question answered only by a table's listing, and a share due at booking ("30% when you book") of the
amount the question gives. The
documents below are written for these tests."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

REFUNDS = """# 湖渡轮渡 旅客乘船须知与退票规定

## 二、退票

| 退票时间 | 退票费 |
|---|---|
| 开航前24小时以上 | 免费 |
| 开航前2小时至24小时 | 票价的10% |
| 开航前不足2小时 | 票价的30% |

退票费按票价计算，不足2元的按2元收取。春节（除夕至正月初六）和国庆（10月1日至7日）期间的船票，开航前24小时以内退票的，一律收取票价的30%。
"""
JOBS = """# 丰田农机合作社 作业服务价目表

## 一、机耕

| 作业项目 | 社员价（元/亩） | 非社员价（元/亩） |
|---|---|---|
| 旋耕 | 50 | 60 |
| 深翻 | 70 | 85 |
| 水稻收割 | 90 | 110 |

丘陵坡地（坡度15度以上）的收获作业，单价上浮15%；倒伏面积超过地块三成的，收获作业单价上浮25%。

## 二、预约

农户请合作社作业的，作业须提前预约：平时提前2天，农忙期提前5天。
"""
YARD = """# Harbour Boatyard Prices 2026

## 1. Lifting

| LOA | Lift-out and relaunch | Hardstanding per week |
|---|---|---|
| Up to 8.00 m | £190 | £38 |
| 8.01–10.00 m | £260 | £48 |

## 2. Safety

Nobody may stay aboard a boat while it is being lifted.
"""


async def read_as_chat(question: str, kb, collection: str) -> dict:  # type: ignore[no-untyped-def]
    """The answer as chat reads the question: in the documents' own words first (``answer_in_either``)."""
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.answer.lexicon import Lexicon
    from knowzero.knowledge.answer.pipeline import answer_in_either

    a = await answer_in_either(question, KnowledgeDeps(kb, kb.settings, None, (collection,)), Lexicon())
    return {"reply": a.reply, "verdict": a.verdict.to_dict()}
TERMS = """# Wragg Scaffolding — Hire Terms

## 2. Paying for a job

| Quoted price of the job | When you pay |
|---|---|
| Under £1,000 | In full within 14 days of handover |
| £1,000–£4,999 | 30% when you book, the rest within 14 days of handover |
| £5,000 and over | 40% when you book, the rest in monthly instalments |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("blind11") / "kz")
    for collection, name, text in [("ferry", "退票规定.md", REFUNDS), ("coop", "作业服务价目表.md", JOBS),
                                   ("yard", "Boatyard_Prices_2026.md", YARD), ("scaff", "Hire_Terms.md", TERMS)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


async def test_a_rule_for_the_askers_case_gives_its_own_value_not_the_rows(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("春节期间的船票，开船前5个小时来退，扣多少钱？", kb, collections=("ferry",))
    assert out["reply"].startswith("一律收取票价的30%"), out["reply"]
    assert out["verdict"]["level"] == "confirmed"
    out = await answer_dict("开船前5个小时退票，扣多少钱？", kb, collections=("ferry",))
    assert out["reply"].startswith("票价的10%"), out["reply"]  # no holiday named: the row
    out = await answer_dict("春节期间的船票，开船前30个小时来退，扣多少钱？", kb, collections=("ferry",))
    assert out["reply"].startswith("免费"), out["reply"]  # the rule's 24小时以内 does not hold 30 hours


async def test_one_of_parallel_cases_is_quoted_alone(kb) -> None:  # type: ignore[no-untyped-def]
    out = await read_as_chat("农忙的时候请你们来收稻子，得提前几天约？", kb, "coop")
    assert "5天" in out["reply"] and "2天" not in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out  # 来收, a verb the documents do not write, names no other subject
    out = await answer_dict("作业要提前几天预约？", kb, collections=("coop",))
    assert "2天" in out["reply"] and "5天" in out["reply"], out["reply"]  # no case named: both


async def test_two_clauses_of_one_sentence_each_named_are_not_applied_one_alone(kb) -> None:  # type: ignore[no-untyped-def]
    out = await read_as_chat("社员的水稻种在坡地上（坡度20度），又倒伏了一大半，水稻收割一亩多少钱？", kb, "coop")
    assert out["verdict"]["level"] != "confirmed", out  # 15% and 25% both named: not one of them alone
    out = await read_as_chat("社员的水稻倒伏了一大半，水稻收割一亩多少钱？", kb, "coop")
    assert out["reply"].startswith("112.5元"), out["reply"]  # 90 × 1.25


async def test_not_a_member_is_read_as_the_documents_non_member(kb) -> None:  # type: ignore[no-untyped-def]
    out = await read_as_chat("我不是社员，请你们深翻一亩地要多少钱？", kb, "coop")
    assert out["reply"].startswith("85元"), out
    out = await answer_dict("社员深翻一亩地要多少钱？", kb, collections=("coop",))
    assert out["reply"].startswith("70元"), out["reply"]


async def test_a_yes_no_question_is_not_confirmed_by_a_tables_listing(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("boatyard prices: Can the owner stay on board during the lift-out?", kb,
                            collections=("yard",))
    assert out["verdict"]["level"] != "confirmed" or "Nobody may stay aboard" in out["reply"], out["reply"]
    assert "£190" not in out["reply"] or out["verdict"]["level"] != "confirmed", out["reply"]


def test_a_docx_row_whose_header_holds_a_time_is_a_row() -> None:
    from knowzero.learning.sentences import Cand
    from knowzero.learning.source_tables import is_row

    row = "Space: Board Room；Weekday daytime, per hour: £45；Evening 18:00–23:00, flat rate: £350。"
    assert is_row(Cand(row, "f", "t", "s", 0, len(row), "p", "general"))


def test_a_topics_price_word_reads_a_table_of_amounts_whose_heading_names_prices() -> None:
    from knowzero.learning.sentences import Cand
    from knowzero.learning.source_tables import _priced

    rows = [Cand(t, "f", "租车价目表", "s", 0, len(t), "p", "general", display=t) for t in (
        "车型组: A组；3–6天（元/天）: 148；车辆押金（元）: 3000。", "车型组: B组；3–6天（元/天）: 198；车辆押金（元）: 5000。")]
    assert _priced(rows, {"价格": 4.0, "会员": 4.5}, "车型组与租金", "租车价目表").split() == ["价格"]
    # a table of amounts whose heading and title say nothing of prices is no topic's prices
    assert _priced(rows, {"价格": 4.0}, "车型组", "车辆手册") == ""
    words = [Cand(t, "f", "t", "s", 0, len(t), "p", "general", display=t) for t in ("等级: 银卡；条件: 5次。", "等级: 金卡；条件: 12次。")]
    assert _priced(words, {"价格": 4.0}, "会员价格", "价目表") == ""  # no amounts in its rows


async def test_a_share_due_at_booking_is_computed_on_the_amount_given(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("Our scaffold quote came to £2,400. How much do we pay when we book?", kb,
                            collections=("scaff",))
    assert out["reply"].startswith("£720"), out["reply"]  # 30% of £2,400, the row the amount chose
    out = await answer_dict("Our scaffold quote came to £2,400. When do we pay the rest?", kb, collections=("scaff",))
    assert not out["reply"].startswith("£720"), out["reply"]  # no amount asked: the cell as written
