"""Issue 27, found on the development half of the fifth blind set (session 30): a table row quoted because its
table holds a value the question names covers the question like any passage (a room of "the Lakes" does not
say when a booking may be cancelled), and the sentences of the asker's story ("we'll be driving up from
London") weigh nothing where no document uses their words."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

ROOMS = """room_no,hotel,room_type,floor,view,status
L-101,Lakes,Classic Double,1,Lake,In service
L-102,Lakes,Classic Double,1,Garden,In service
H-201,Harbour,Superior King,2,Sea,In service
H-202,Harbour,Superior King,2,Sea,Refurbishment
"""

POLICY = """# Kestrelmoor Hotels — Cancellation Policy (2026)

## 2. Flexible rate

A booking at the flexible rate may be cancelled free of charge up to 72 hours before 15:00 on the day of arrival.
Later cancellations are charged one night's room rate.

## 3. Arrival

Check-in is from 15:00 at every hotel. Rooms must be vacated by 11:00 on the day of departure.
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind4-dev") / "kz", {
        "kestrel/room_inventory.csv": ROOMS, "kestrel/Cancellation_Policy_2026.md": POLICY})


async def test_a_row_of_a_named_hotel_does_not_answer_a_policy_question(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("I booked a flexible-rate room at the Lakes back in November for a stay in April. "
                            "Up to when can I cancel without being charged?", kb)
    assert not any(c["source"].endswith("room_inventory.csv") for c in out["citations"]) \
        or out["verdict"]["level"] != "confirmed", out["reply"]


def test_the_askers_story_is_told_apart_from_the_question() -> None:
    from knowzero.knowledge.answer.retriever import told_and_asked

    assert told_and_asked("What time can we check in? We'll be driving up from London.") == \
        ("we'll be driving up from london.", "what time can we check in?")
    assert told_and_asked("我下周入住。几点可以办理入住？") == ("我下周入住。", "几点可以办理入住？")
    assert told_and_asked("Check-in time?") is None


async def test_a_question_with_a_story_after_it_is_answered(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("what time can we check in? we'll be driving up from london and probably arrive "
                            "around lunchtime", kb)
    assert "15:00" in out["reply"][:80], out["reply"]


def test_check_in_is_not_answered_by_check_out() -> None:
    from knowzero.knowledge.answer.checks.constraints import constraints_of, missed

    asked = constraints_of("What time can we check in?")
    assert [c.value for c in asked] == ["check-in"]
    assert [c.written for c in missed(asked, "Check-out time: 11:01 – 13:00; Charge: £25")] == ["check in"]
    assert missed(asked, "Check-in is from 15:00. Check-out is by 11:00.") == []
    assert missed(asked, "Rooms at the Lakes") == []  # names no check-in or check-out: neither meets nor breaks


SHIFTS = """# 澜庭物业 员工考勤与补贴办法

| 班次 | 时间 | 适用部门 |
|---|---|---|
| 白班 | 8:00–20:00 | 秩序维护部、工程部、环境部 |
| 夜班 | 20:00–次日8:00 | 秩序维护部、工程部 |
"""

ROSTER = """工号,姓名,部门,岗位
LT009,张军,秩序维护部,秩序维护队长
LT010,王海,秩序维护部,秩序维护员
LT011,李勇,秩序维护部,秩序维护员
LT012,赵丽,环境部,保洁员
"""


@pytest.fixture(scope="module")
def kb_zh(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind4-dev-zh") / "kz", {
        "lanting/员工考勤与补贴办法.md": SHIFTS, "lanting/员工花名册.csv": ROSTER})


async def test_a_roster_named_by_its_head_noun_counts_people(kb_zh) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("花名册上秩序维护部一共有几个人？", kb_zh)
    assert out["reply"].startswith("共 3 人（按《员工花名册》统计"), out["reply"]


TIERS = """# Kestrel Club — Membership Terms

| Tier | Annual fee | Who may join | Room discount |
|---|---|---|---|
| Blue | Free | anyone | 5% |
| Silver | £40 | anyone | 10% |

Members collect points on every stay. 12,000 points can be redeemed for a free night at any of our hotels.
"""


def test_a_value_cell_names_no_row(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import cells

    kb = make_kb(tmp_path / "kz", {"kestrel/Kestrel_Club_Membership.md": TIERS})
    assert cells.asked_cell(kb.sql, "How many points do I need to get a free night?", None, "number") is None
    cell = cells.asked_cell(kb.sql, "What is the annual fee for Silver?", None, "number")
    assert cell is not None and cell.value == "£40"


STAFF = """staff_id,name,hotel,role,start_date
KH001,Eleanor Hartley,Harbour,General manager,2008-05-12
KH002,Marcus Bell,Harbour,Receptionist,2019-03-04
KH027,Tessa Goodwin,City,Receptionist,2010-09-13
KH028,Owen Pryce,City,Porter,2021-01-11
"""


def test_a_tenure_superlative_ranks_by_the_start_date(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    kb = make_kb(tmp_path / "kz", {"kestrel/staff_roster.csv": STAFF})
    c = aggregate.compute(kb.sql, "Who's been working at the City hotel the longest?")
    assert c is not None and c.shown_value() == "2010-09-13" and len(c.rows) == 1
    # the row is named first (session 35): "Who…" is answered by the name
    assert aggregate.lead_line(c, False).startswith("Tessa Goodwin — Earliest start_date: 2010-09-13")
    c = aggregate.compute(kb.sql, "Who is the most recent hire at the Harbour?")
    assert c is not None and c.shown_value() == "2019-03-04"


FEES = """service_code,service,category,species,price_usd
EX-102,Wellness exam,Examination,Cat,62
VA-201,FVRCP vaccine,Vaccination,Cat,38
VA-202,Rabies vaccine (1-year),Vaccination,Cat,29
VA-301,DHPP vaccine,Vaccination,Dog,38
"""

LEDGER = """项目,房号,物业类型,使用状态
江畔花园,5-101,多层住宅,空置
江畔花园,5-102,多层住宅,自住
云溪苑,10-901,高层住宅,空置
云溪苑,10-902,高层住宅,出租
"""


def test_a_table_named_by_the_question_holds_what_it_counts(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    kb = make_kb(tmp_path / "kz", {"lanting/房屋台账.csv": LEDGER, "kestrel/room_inventory.csv": ROOMS,
                                   "maple/Fee_Schedule_2026.csv": FEES})
    c = aggregate.compute(kb.sql, "房屋台账上目前空置的房子有几套？")
    assert c is not None and c.shown_value() == "2"
    assert aggregate.compute(kb.sql, "空置的别墅有几套？") is None  # 别墅 names no cell of an unnamed table
    # a sentence that asks nothing still qualifies the count (tried: reading only the asking sentence made two held
    # answers of the fifth set wrong and confirmed)
    assert aggregate.compute(kb.sql, "How many rooms at the Harbour have a sea view? Count the one being refurbished too.") is None
    c = aggregate.compute(kb.sql, "How many vaccines for cats are on the fee schedule?")  # a category the cells name
    assert c is None or c.shown_value() == "2"
