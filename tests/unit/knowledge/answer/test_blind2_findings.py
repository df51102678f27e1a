"""Issue 27 (found on a third blind set, tests/data/orgdocs_blind2, odd ids): a key named by its head noun
("护照" of 普通护照), a tier named by a list cell of another table ("Seoul" in Tier B's cities) with an English rule
that scales the tier's rate (50% for a same-day trip, not for a trip too short for it), the unit of an English header
in the lead, a size the question names that the row gives otherwise (20V vs 18V) declined, and two editions whose
titles differ only by a bracketed year."""

from __future__ import annotations

import pytest

from knowzero.knowledge.index.versions import DocInfo, superseded
from kz_testlib import answer_dict, make_kb

FEES = """# 证件收费标准

| 收费项目 | 工本费（元） | 加急费（元） |
|---|---|---|
| 居民身份证（首次申领） | 20 | 40 |
| 普通护照 | 120 | 100 |
| 往来港澳通行证 | 60 | 100 |
"""

TRAVEL = """# Business Travel Policy

## City tiers

| Tier | Cities |
|---|---|
| Tier A | New York, London, Tokyo |
| Tier B | Shanghai, Dubai, Seoul |
| Tier C | All other cities |

## Meal per diem

A flat daily meal allowance is paid for each day away.

| City tier | Per diem (USD per day) |
|---|---|
| Tier A | 90 |
| Tier B | 70 |
| Tier C | 50 |

Same-day trips (no overnight stay) lasting more than 8 hours receive 50% of the daily rate; trips of 8 hours or less
receive no per diem.

## Leave

| Completed years of service | Annual leave (working days per year) |
|---|---|
| Less than 5 years | 14 |
| 5 years to less than 10 years | 18 |
"""

PRICES = """sku,product_name,category,unit_price_usd,stock_qty
HT-HW-001,Cordless Drill 18V,Hardware,46.0,150
HT-HW-002,Hammer 500g,Hardware,9.5,300
HT-LT-001,Desk Lamp,Lighting,22.0,120
HT-LT-002,LED Bulb 9W,Lighting,3.5,2000
"""

STAFF = """工号,姓名,部门,掌握语言
NH001,陈思远,综合受理,普通话;英语
NH002,刘雨涵,综合受理,普通话;手语
NH003,王志强,社保医保,普通话;手语;英语
NH004,赵晓燕,社保医保,普通话
"""

FLIGHTS = """# Air travel

| Scheduled flight time | G1–G5 | G6–G7 |
|---|---|---|
| Up to 6 hours | Economy | Economy |
| Over 6 hours, up to 9 hours | Economy | Premium economy |
| Over 9 hours | Economy | Business class |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind2") / "kz", {"centre/收费标准.md": FEES, "trade/Travel_Policy.md": TRAVEL,
                                                              "trade/price_list.csv": PRICES, "centre/窗口人员排班表.csv": STAFF,
                                                              "trade/Air_Travel.md": FLIGHTS})


async def test_a_key_is_named_by_its_head_noun(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("办护照想加急，加急费要多少？", kb)
    assert out["verdict"]["level"] == "confirmed" and out["reply"].startswith("100元（普通护照）"), out["reply"]


async def test_a_tier_named_by_a_list_cell_and_a_rule_that_scales_its_rate(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("Day trip to Seoul, about 10 hours in total, no overnight stay. What per diem can I claim?",
                            kb)
    assert out["verdict"]["level"] == "confirmed" and out["reply"].startswith("$35"), out["reply"]
    assert len(out["citations"]) == 3  # the rate's row, the tier's row, the rule
    # a 6-hour trip is not "more than 8 hours": that rule is no answer for it
    short = await answer_dict("Day trip to Seoul, about 6 hours in total, no overnight stay. What per diem can I claim?",
                              kb)
    assert not short["reply"].startswith("$35"), short["reply"]


async def test_an_english_header_gives_the_lead_its_unit(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("I've been here for 7 years, how many days of annual leave do I get?", kb)
    assert out["reply"].startswith("18 working days"), out["reply"]


async def test_a_size_the_row_gives_otherwise_is_another_item(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("How much is the 20V cordless drill?", kb)
    assert out["verdict"]["level"] == "insufficient", out["reply"]


def test_titles_that_differ_by_a_bracketed_year_are_editions() -> None:
    old = DocInfo("t/a.docx", "t", "Harbourline — Expense Approval Policy (2024)", "Effective 1 March 2024")
    new = DocInfo("t/b.docx", "t", "Harbourline — Expense Approval Policy (2026)", "Effective 1 January 2026")
    assert superseded([old, new]) == {"t/a.docx": "t/b.docx"}
    # editions without a year: the effective date, written day first, says which is newer
    a = DocInfo("t/c.docx", "t", "Leave Policy (v2)", "Version 2 · Effective 1 March 2024")
    b = DocInfo("t/d.docx", "t", "Leave Policy (v3)", "Effective 1 January 2026")
    assert superseded([b, a]) == {"t/c.docx": "t/d.docx"}


@pytest.mark.parametrize(("question", "lead"), [
    ("会手语的窗口人员有几名？", "共 2 名"),  # a member of list cells ("普通话;手语;英语")
    ("What's the total stock quantity of all Lighting products?", "Total stock_qty: 2120"),  # "qty" abbreviates quantity
])
async def test_counts_and_sums_over_list_cells_and_abbreviated_headers(kb, question: str, lead: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb)
    assert out["reply"].startswith(lead), out["reply"]


async def test_an_english_band_with_both_ends(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("G6 here, flying 10 hours to New York next month. Which cabin class can I book?", kb)
    assert "Business class (Over 9 hours)" in out["reply"].splitlines()[0], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


def test_a_plural_is_no_unknown_word_when_a_header_holds_its_singular() -> None:
    from knowzero.knowledge.answer.check import _singular

    assert (_singular("products"), _singular("policies"), _singular("class"), _singular("产品")) == \
        ("product", "policy", "class", "产品")




APPROVALS = """# Expense Approval Policy

| Amount of a single claim (USD) | Required approvals |
|---|---|
| Up to 1,000 | Line manager |
| 1,000.01 – 2,500 | Line manager and department head |
| 2,500.01 – 5,000 | Department head and Finance Manager |
| Over 5,000 | Department head, Finance Manager and CFO |
"""


async def test_an_amount_band_whose_unit_only_the_header_gives(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"fin/Expense_Approval_Policy.md": APPROVALS})
    out = await answer_dict("Who has to approve an expense claim of USD 4,000?", kb)
    assert out["reply"].startswith("Department head and Finance Manager"), out["reply"]

