"""Issue 27, deliver 3: counts, sums and averages over a CSV table are computed by a query built from the
question and the table's schema and values, with the rows it used cited; no query from a guess."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.knowledge.answer import aggregate
from kz_testlib import answer_dict, make_kb

STAFF = """工号,姓名,部门,职级,状态
E01,张一,研发部,P8,在职
E02,张二,研发部,P7,在职
E03,张三,研发部,P8,离职
E04,李一,市场部,P8,在职
E05,李二,市场部,P6,在职
E06,王一,财务部,P7,在职
"""
DEVICES = """编号,名称,类型,使用部门,状态,单价_元
D01,ThinkPad X1,笔记本,研发部,在用,9800
D02,ThinkPad T14,笔记本,研发部,在用,7600
D03,MacBook Pro,笔记本,研发部,维修中,16800
D04,Dell U2723,显示器,研发部,在用,3200
D05,ThinkPad X1,笔记本,市场部,在用,9800
"""


DOCTORS = """姓名,科室,职称
甲医生,内科,主任医师
乙医生,外科,主任医师
丙医生,内科,副主任医师
丁医生,儿科,副主任医师
戊医生,外科,副主任医师
己医生,外科,主治医师
"""
VEHICLES = """车牌号,车型,所属科室,购置年份,状态
A1,厢式货车,运输科,2021,在用
A2,厢式货车,运输科,2024,在用
A3,冷藏车,运输科,2024,维修中
A4,轿车,行政科,2024,在用
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("agg") / "kz", {"hr/员工花名册.csv": STAFF, "it/设备清单.csv": DEVICES,
                                                          "fleet/Vehicle_Register.csv": VEHICLES,
                                                          "hosp/医师名册.csv": DOCTORS})


@pytest.mark.parametrize(("question", "operation", "value"), [
    ("研发部一共有多少名员工？", "count", 3),
    ("研发部有几台笔记本在用？", "count", 2),
    ("一共有多少名P8？", "count", 3),
    ("研发部笔记本的单价合计多少？", "sum", 34200),
    ("笔记本的平均单价是多少？", "avg", 11000),
    ("在职的P8有几名？", "count", 2),
    ("2024年购置的车辆有几辆？", "count", 3),  # a number the question names, in the column its header names
    ("运输科负责的车辆有几辆？", "count", 3),  # a verb is no qualifier
    ("How many 冷藏车 are on the vehicle register?", "count", 1),  # the file's name, spaced, is the table's
    ("哪台设备最贵？", "max", 16800),
    ("名册上有几位副主任医师或主任医师？", "count", 5),  # alternatives: one written inside the other counts too
    ("有几位主任医师？", "count", 2),  # a superlative over rows: the price column it ranks by
    ("研发部最便宜的笔记本多少钱？", "min", 7600),
    ("单价最高的设备是哪个？", "max", 16800),
])
def test_a_computed_question_gets_its_value(kb, question: str, operation: str, value: float) -> None:  # type: ignore[no-untyped-def]
    c = aggregate.compute(kb.sql, question)
    assert c is not None, question
    assert (c.operation, c.value) == (operation, value), c.sql
    assert len(c.rows) >= 1 and c.sql.startswith("SELECT")


@pytest.mark.parametrize("question", ["ThinkPad X1的单价是多少？", "年假有几天？", "公司地址在哪里？",
                                      "笔记本最多能报销多少钱？"])  # 最多: at most, a cap, no row ranked)
def test_no_query_is_built_from_a_guess(kb, question: str) -> None:  # type: ignore[no-untyped-def]
    assert aggregate.compute(kb.sql, question) is None


def test_a_maximum_cites_the_row_that_holds_it(kb) -> None:  # type: ignore[no-untyped-def]
    c = aggregate.compute(kb.sql, "哪台设备最贵？")
    assert c is not None and len(c.rows) == 1
    assert "MacBook Pro" in kb.sql.passage(c.table, c.rows[0]).text
    # the row is named first: "哪台设备" asks which one (session 35: "Which class has the most pupils?" → 9A)
    assert aggregate.lead_line(c, True).startswith("MacBook Pro")
    assert "单价_元最高 16800" in aggregate.lead_line(c, True)


@pytest.mark.parametrize("question", ["销售部一共有多少名员工？", "上海办公室一共有多少名员工？", "2019年购置的车辆有几辆？",
                                      "运输科有几辆新能源车？",  # 新能源 names no cell: not all of 运输科's cars
                                      "How many passengers can the 冷藏车 carry?"])  # a quantity of a row, no count
def test_a_qualifier_no_cell_matches_is_not_counted_over_the_whole_table(kb, question: str) -> None:  # type: ignore[no-untyped-def]
    assert aggregate.compute(kb.sql, question) is None


def test_the_whole_table_is_counted_when_nothing_qualifies_it(kb) -> None:  # type: ignore[no-untyped-def]
    c = aggregate.compute(kb.sql, "公司一共有多少名员工？")
    assert c is not None and c.value == 6 and c.filters == ()


async def test_the_reply_leads_with_the_value_and_cites_the_rows(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("研发部一共有多少名员工？", kb)
    assert out["reply"].startswith("共 3 名员工"), out["reply"]
    assert out["verdict"]["level"] == "confirmed"
    assert len(out["citations"]) == 3 and all(Path(c["source"]).name == "员工花名册.csv" for c in out["citations"])
    reader = next(e for e in out["agent_log"] if e.get("agent") == "reader")
    assert reader["action"] == "compute" and "count" in reader["sql"].lower()


def test_people_counted_with_a_general_measure_word_are_said_in_people(kb) -> None:  # type: ignore[no-untyped-def]
    c = aggregate.compute(kb.sql, "名册上有几个副主任医师或主任医师？")
    assert c is not None and aggregate.lead_line(c, True).startswith("共 5 人（副主任医师，按《医师名册》统计"), \
        aggregate.lead_line(c, True)
