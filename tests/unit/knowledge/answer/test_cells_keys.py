"""Issue 27, deliver 2 (found on a blind question set, tests/data/orgdocs/questions_report.jsonl): a row key with a
bracketed aside ("Spay (cat)"), a key named by its leading characters (首次申领 of 首次申请), a column of durations for
多久, the one money column for "how much does … charge", and the guards that keep each from reading another
item's cell (the dog's row for a cat, "under 50 lb" for "over 50 lb", 上限 for 下限)."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import cells
from knowzero.understanding.analysis import analyse
from kz_testlib import make_kb

FEES = """service_code,service,category,species,price_usd,duration_min
EX-101,Wellness exam,Examination,Dog,68,30
EX-102,Wellness exam,Examination,Cat,62,30
VX-204,Bordetella vaccine,Vaccination,Dog,32,10
SG-501,Spay (cat),Surgery,Cat,295,60
SG-503,Spay (dog under 50 lb),Surgery,Dog,465,90
"""

PERMIT = """# 居住证办理指南

| 业务 | 办理时限 | 费用 |
|---|---|---|
| 首次申领 | 10个工作日 | 免费 |
| 换领 | 7个工作日 | 20元 |
| 补领 | 7个工作日 | 20元 |
"""

STIPEND = """# 研究生助研津贴

| 类别 | 基本津贴（元/月） | 绩效津贴上限（元/月） |
|---|---|---|
| 博士研究生 | 3600 | 2000 |
| 硕士研究生 | 1500 | 800 |
"""

RATES = """# 大型仪器收费

| 用户类别 | 收费倍数 |
|---|---|
| 本实验室成员 | 免收机时费 |
| 校外高校 | 2倍 |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("cell-keys") / "kz", {"Fee_Schedule.csv": FEES, "居住证.md": PERMIT,
                                                                "津贴.md": STIPEND, "收费.md": RATES})


def _cell(kb, question: str, kind: str | None = None):  # type: ignore[no-untyped-def]
    a = analyse(question)
    return cells.asked_cell(kb.sql, question, None, kind or a.asked_kind, terms=a.terms)


@pytest.mark.parametrize(("question", "kind", "lead"), [
    ("How much does it cost to spay a cat?", None, "$295（Spay (cat)）"),  # the head and the aside's word
    ("首次申请居住证需要多久？", "duration", "10个工作日（首次申领）"),  # 首次 sets the key apart; 多久: the durations
    ("补领居住证要多长时间？", "duration", "7个工作日（补领）"),
])
def test_the_asked_cell(kb, question: str, kind: str | None, lead: str) -> None:  # type: ignore[no-untyped-def]
    cell = _cell(kb, question, kind)
    assert cell is not None, question
    assert cell.lead() == lead


@pytest.mark.parametrize("question", [
    "How much is a Bordetella vaccine for a cat?",  # the one Bordetella row is the dog's
    "How much does a spay cost for a dog over 50 lb?",  # the row is under 50 lb
    "硕士研究生每月绩效津贴的下限是多少？",  # the column is the upper bound
    "实验室研究生参加会议最多资助多少钱？",  # 实验 is no key's own word (本实验室成员)
])
def test_no_other_items_cell(kb, question: str) -> None:  # type: ignore[no-untyped-def]
    assert _cell(kb, question) is None


def test_a_row_whose_asked_cell_is_empty_does_not_answer(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """mg-033 of the own set: "What is the hourly rate of Dr. Helen Okafor?" was answered, confirmed, with her roster
    row — whose hourly_rate_usd cell is empty (she is salaried)."""
    roster = ("employee_id,name,role,hourly_rate_usd\nMG-001,Dr. Helen Okafor,DVM,\n"
              "MG-004,Ana Ruiz,Technician,28\n")
    kb = make_kb(tmp_path / "kz", {"Staff_Roster.csv": roster})
    t = kb.sql.tables[0]
    assert cells.row_misses(kb.sql, t.row_id(0), "What is the hourly rate of Dr. Helen Okafor?", "number") \
        == "the row has no hourly_rate_usd"
    assert cells.row_misses(kb.sql, t.row_id(1), "What is the hourly rate of Ana Ruiz?", "number") is None
