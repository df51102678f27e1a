"""Issue 27, deliver 2: a value inside a table's range picks that row ("司龄8年" → 满5年不满10年), compared as
numbers with the same unit, and the row alone answers (not the header, not the first row, not the table)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from knowzero.knowledge.index.bands import band, quantities
from kz_testlib import answer_dict, make_kb

LEAVE = "累计工作年限,年假天数\n不满1年,0天\n满1年不满5年,6天\n满5年不满10年,9天\n满10年不满20年,12天\n满20年及以上,16天\n"
TRIP = "单程里程,出车补贴_元\n300公里以下,50\n300-800公里,120\n800公里以上,200\n"
FLOORS = "所在楼层,电梯运行费_元每户每月\n1–2层,0\n3–11层,25\n12–20层,35\n21层及以上,45\n"


@pytest.mark.parametrize(("cell", "value", "unit", "holds"), [
    ("满5年不满10年", 8, "年", True), ("满5年不满10年", 10, "年", False), ("满5年不满10年", 5, "年", True),
    ("300-800公里", 500, "km", True), ("800公里以上", 800, "公里", True), ("不满1年", 0.5, "年", True),
    ("满20年及以上", 25, "年", True), ("5000元以上", 4000, "元", False), ("满5年不满10年", 8, "公里", False),
    ("12–20层", 18, "楼", True), ("21层及以上", 18, "楼", False),  # the 18th floor (18楼) is one of 12–20层
])
def test_a_band_holds_a_value_of_its_unit(cell: str, value: float, unit: str, holds: bool) -> None:
    b = band(cell)
    assert b is not None and b.holds(value, unit) is holds


def test_cells_that_are_no_range_and_questions_without_a_value() -> None:
    assert band("零件A") is None and band("研发部") is None
    assert quantities("年假有几天？") == [] and quantities("司龄三年半") == [(3.5, "年")]


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("bands") / "kz", {"hr/年假标准.csv": LEAVE, "ops/出车补贴标准.csv": TRIP,
                                                                  "estate/电梯运行费.csv": FLOORS})


@pytest.mark.parametrize(("question", "row", "absent"), [
    ("累计工作年限8年的员工年假有几天？", "满5年不满10年；年假天数: 9天", "0天"),
    ("工作了25年的员工年假几天？", "满20年及以上；年假天数: 16天", "6天"),
    ("单程500公里的出车补贴是多少？", "300-800公里；出车补贴_元: 120", "50"),
    ("我家住18楼，电梯运行费每个月多少？", "12–20层；电梯运行费_元每户每月: 35", "25"),
])
async def test_the_row_whose_range_holds_the_value_answers_alone(kb, question: str, row: str, absent: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb)
    assert row in out["reply"], out["reply"]
    # another row's value ("6天"), not a digit of the asked one ("16天" leads the reply)
    assert not re.search(rf"(?<![\d.]){re.escape(absent)}", out["reply"].replace(row, "")), out["reply"]
    assert len(out["citations"]) == 1 and Path(out["citations"][0]["source"]).suffix == ".csv"
