"""Found on the dev half of the tenth blind set (a lake ferry operator, a removals company; session 40) and on the
ninth set's learning comments: bands in sterling and miles (in a header's bracket too), a deposit that is a share of
the amount the question gives, a route named by both its ends, a row named by its key's aside, a holiday rule that
names another row, an English rule beside a table ("Sunday … moves cost 25% more") scaling an amount with its
currency sign, a count joined to its noun ("a three-bedroom move"), the asker's everyday word for the documents'
(大人 for 成人), the rate asked "一天多少钱" with a code glued to a verb ("B组租5天"), and a policy that says in its
last lines which edition it replaces. The documents below are written for these tests."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

FARES = """# 湖渡轮渡 船票价目表（2026年）

| 航线 | 起讫码头 | 成人单程（元） | 儿童单程（元） |
|---|---|---|---|
| 1号线 | 东湾—芦岛 | 15 | 8 |
| 2号线 | 东湾—白沙 | 32 | 16 |
| 3号线 | 芦岛—松口 | 20 | 10 |
| 4号线（快船） | 东湾—松口 | 48 | 24 |

春节和国庆期间，4号线快船票价一律上浮20%；1号线至3号线票价不变。
"""
PRICES = """# Fenmoor Removals — Price Guide 2026

## 1. Moving prices

| Home size | Local (up to 25 miles) | Regional (26–100 miles) | Long distance (101–250 miles) |
|---|---|---|---|
| Studio or 1 bedroom | £420 | £690 | £1,150 |
| 2 bedrooms | £640 | £980 | £1,580 |
| 3 bedrooms | £890 | £1,350 | £2,150 |

Prices are for a move on a weekday (Monday to Friday).
Saturday moves cost 15% more, and Sunday and bank holiday moves cost 25% more.

## 2. Deposits

| Total price of the move | Deposit when booking |
|---|---|
| Under £600 | £100 |
| £600–£1,499 | 20% of the price |
| £1,500 and over | 25% of the price |
"""
COVER_2024 = """# Fenmoor Removals — Transit Cover 2024

Version 2024 · Effective 1 March 2024

## 1. Cover

The most we pay for one item is £500.
"""
COVER_2026 = """# Fenmoor Removals — Transit Cover 2026

## 1. Cover

The most we pay for one item is £750.

## 7. Effective date

These terms apply from 1 January 2026 and replace the Transit Cover 2024, which is withdrawn.
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("blind10") / "kz")
    for collection, name, text in [("ferry", "船票价目表.md", FARES), ("movers", "Price_Guide_2026.md", PRICES),
                                   ("movers", "Transit_Cover_2024.md", COVER_2024),
                                   ("movers", "Transit_Cover_2026.md", COVER_2026)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


async def test_a_deposit_that_is_a_share_of_the_amount_given_is_computed(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("The move costs £1,200 in total. How much is the deposit?", kb, collections=("movers",))
    assert out["reply"].startswith("£240"), out["reply"]
    assert out["verdict"]["level"] == "confirmed"


async def test_a_band_of_miles_in_a_header_and_a_count_joined_to_its_noun(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("What does a regional two-bedroom move of 60 miles cost on a weekday?", kb,
                            collections=("movers",))
    assert out["reply"].startswith("£980"), out["reply"]


async def test_an_english_rule_beside_the_table_scales_an_amount_in_pounds(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("What does a local three-bedroom move cost on a Sunday?", kb, collections=("movers",))
    assert out["reply"].startswith("£1,112.50"), out["reply"]  # £890 × 1.25, not the 15% of a Saturday
    out = await answer_dict("What does a local three-bedroom move cost on a Monday?", kb, collections=("movers",))
    assert out["reply"].startswith("£890"), out["reply"]


async def test_a_route_both_of_whose_ends_the_question_names(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("从东湾坐船去芦岛，成人单程票多少钱？", kb, collections=("ferry",))
    assert out["reply"].startswith("15元"), out["reply"]


async def test_a_holiday_rule_applies_to_the_row_it_names_only(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("国庆节坐快船，成人单程多少钱？", kb, collections=("ferry",))
    assert out["reply"].startswith("57.6元"), out["reply"]  # 4号线（快船）named by its aside, 48 × 1.2
    out = await answer_dict("国庆节坐1号线，成人单程多少钱？", kb, collections=("ferry",))
    assert out["reply"].startswith("15元"), out["reply"]  # the rule names 4号线, not 1号线


async def test_the_askers_everyday_word_is_read_as_the_documents(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("从东湾坐船去芦岛，大人单程票多少钱？", kb, collections=("ferry",))
    assert "15" in out["reply"].split("\n")[0], out["reply"]


def test_the_edition_a_policy_replaces_in_its_last_lines_is_superseded(kb) -> None:  # type: ignore[no-untyped-def]
    old = {p: new for p, new in kb.superseded().items()}
    assert any(p.endswith("Transit_Cover_2024.md") and new.endswith("Transit_Cover_2026.md") for p, new in old.items()), old
