"""Issue 27, found on the development half of the fourth blind set (session 28): weight bands in kilograms, a
column named whole by a short label ("Zone B"), a row named by a member of its list cell, a rate times the
count of the item the question names, a grade range inside a header, a yes/no column headed by its subject,
a Chinese ordinal as a filter and a cohort or an English year the sources do not speak of (also for table rows)."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

RATES = """<html><head><title>Parcel Rate Card 2026</title></head><body>
<h1>Parcel Rate Card 2026</h1>
<p>Parcels up to 30 kg. A parcel is charged on its chargeable weight.</p>
<table>
<tr><th>Chargeable weight</th><th>Zone A</th><th>Zone B</th><th>Zone C</th></tr>
<tr><td>Up to 2 kg</td><td>&pound;4.20</td><td>&pound;5.10</td><td>&pound;6.40</td></tr>
<tr><td>2.01 &ndash; 5 kg</td><td>&pound;5.30</td><td>&pound;6.60</td><td>&pound;8.20</td></tr>
<tr><td>5.01 &ndash; 10 kg</td><td>&pound;6.90</td><td>&pound;8.70</td><td>&pound;10.90</td></tr>
</table>
</body></html>
"""

FEES = """# 学生收费标准（2026-2027学年）

| 序号 | 专业类别 | 所含专业 | 2026级（元/学年） | 2025级及以前（元/学年） |
|---|---|---|---|---|
| 1 | 文史财经类 | 会计、电子商务、旅游管理 | 5200 | 4800 |
| 2 | 医药卫生类 | 护理、药学、康复治疗技术 | 6200 | 5800 |

“2026级”指2026年秋季入学的新生；2025年及以前入学的在校生按“2025级及以前”一栏收费。

## 重修费

| 课程类型 | 重修费（元/学分） |
|---|---|
| 理论课 | 100 |
| 实训课 | 130 |
"""

COURSES = """课程代码,课程名称,课程类型,学分,开课学期
JD201,PLC编程与应用,理论课,4,3
JD202,PLC编程与应用实训,实训课,3,3
JD203,机械制图,理论课,4,1
JD204,液压实训,实训课,2,3
"""

STAFF_ZH = """工号,姓名,系部,教龄,班主任
QH001,王建华,机电工程系,26,否
QH002,李晓东,机电工程系,15,是
QH003,周敏,信息技术系,8,是
QH004,陈静,信息技术系,3,否
"""

SERVICES = """事项编号,事项名称,承诺时限_工作日,可网办
CD-18,个体工商户设立登记,2,是
CD-19,个体工商户注销登记,3,是
"""

SHIFTS = """# Overtime and Shift Allowances

## 4. Shift allowances

| Shift | Grades W1–W2 (per hour) | Grades W3–W4 (per hour) |
|---|---|---|
| Day | none | none |
| Night | £2.20 | £2.65 |
"""

STAFF_EN = """staff_id,name,depot,role,grade,shift
WS001,Callum Reid,Wakefield,Team leader,W4,Day
WS014,Nadia Rahman,Bristol,Forklift operator,W3,Night
WS015,Owen Hart,Bristol,Picker,W1,Night
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind3-dev") / "kz", {
        "north/Rate_Card_2026.html": RATES, "north/Shift_Allowances.md": SHIFTS, "north/warehouse_staff.csv": STAFF_EN,
        "college/学生收费标准.md": FEES, "college/课程目录.csv": COURSES, "college/教职工名册.csv": STAFF_ZH,
        "centre/服务事项清单.csv": SERVICES})


async def test_a_weight_in_kilograms_reads_its_band_and_the_zone_named_whole(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("What does it cost to send a 4 kg parcel to Zone B?", kb)
    assert out["reply"].startswith("£6.60"), out["reply"]
    assert out["verdict"]["level"] == "confirmed"


async def test_another_year_of_the_rate_card_is_declined_even_from_a_table_row(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("What did a 2 kg parcel to Zone A cost on the 2025 rate card?", kb)
    assert out["verdict"]["level"] == "insufficient", out["reply"]


def test_a_cohort_is_met_by_its_own_column_or_an_open_range_not_by_an_academic_years_title() -> None:
    from knowzero.knowledge.answer.checks.constraints import constraints_of, missed

    table = "学生收费标准（2026-2027学年） 2026级（元/学年）: 6200；2025级及以前（元/学年）: 5800"
    assert [c.written for c in missed(constraints_of("2027级新生的学费是多少？"), table)] == ["2027级"]
    assert missed(constraints_of("2024级的学生学费多少？"), table) == []  # 2025级及以前 holds it
    assert missed(constraints_of("2026级的学费多少？"), table) == []
    assert [c.value for c in constraints_of("What did a parcel cost on the 2025 rate card?")] == ["2025"]
    assert constraints_of("How many of the 2000 parcels were late?") == ()


async def test_a_row_named_by_a_member_of_its_list_and_a_column_by_its_cohort(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("2026级护理专业学费多少？", kb)
    assert out["reply"].startswith("6200"), out["reply"]


async def test_a_year_of_entry_chooses_its_cohort_column_beside_the_note_that_defines_it(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("我是2024年入学的护理专业学生，2026-2027学年的学费要交多少？", kb)
    assert out["reply"].startswith("5800"), out["reply"]


async def test_an_amount_asked_is_never_answered_with_a_category(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("今年刚入学的护理专业学生，一年学费多少钱？", kb)
    assert not out["reply"].startswith("医药卫生类"), out["reply"]
    assert out["verdict"]["level"] != "confirmed"


async def test_a_rate_per_credit_times_the_named_course_credits(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("《PLC编程与应用实训》挂了要重修，重修费交多少？", kb)
    assert out["reply"].startswith("390元（130元/学分 × 3学分）"), out["reply"]
    assert {c["source"] for c in out["citations"]} == {"kbdocs/college/学生收费标准.md", "kbdocs/college/课程目录.csv"}


def test_a_rate_is_not_multiplied_for_a_course_of_another_type(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import cells

    cell = cells.asked_cell(kb.sql, "理论课的重修费是多少？", None, "number")
    assert cell is not None and cell.value == "100"
    assert cells.per_unit(kb.sql, cell, "《液压实训》的重修费是多少？", None) is None  # a 实训课: not the 理论课 rate


async def test_a_persons_grade_and_shift_choose_the_allowance_cell(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("What hourly shift allowance does Nadia Rahman get?", kb)
    assert out["reply"].startswith("£2.65"), out["reply"]


def test_a_yes_no_column_headed_by_its_subject_and_a_chinese_ordinal_filter(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer.aggregate import compute, lead_line

    c = compute(kb.sql, "教职工名册上一共有几位老师担任班主任？")
    assert c is not None and c.value == 2
    assert lead_line(c, is_zh=True).startswith("共 2 位老师"), lead_line(c, is_zh=True)
    c = compute(kb.sql, "按课程目录，第三学期一共开了几门课？")
    assert c is not None and c.value == 3


def test_how_many_working_days_is_a_duration_not_a_count_of_rows(kb) -> None:  # type: ignore[no-untyped-def]
    """The counted noun now ends before its verb (工作日, not 工作日办完): a unit is still no thing to count."""
    from knowzero.knowledge.answer.aggregate import compute

    assert compute(kb.sql, "个体工商户注销登记，便民服务中心承诺几个工作日办完？") is None
