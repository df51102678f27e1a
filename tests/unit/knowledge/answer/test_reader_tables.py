"""Table rows read as sentences (never a raw ``| … |`` fragment), and a question naming one row's key
gets that row, on the bundled demo knowledge base (issue 13, "answers people can read")."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.knowledge.rows import row_sentence
from kz_testlib import answer_dict, make_kb


def test_row_sentence() -> None:
    assert row_sentence("| 主要外径 | Φ20mm，公差±0.01mm |") == "主要外径：Φ20mm，公差±0.01mm"
    table = "共18名员工。\n\n| 项目 | 内容 |\n|-----|------|\n| 地址 | 上海 |\n| 电话 | 021-1 |"
    assert row_sentence(table) == "共18名员工。\n\n地址：上海；电话：021-1"
    assert row_sentence("没有表格。") == "没有表格。"


@pytest.fixture(scope="module")
def demo_kb(demo_data_dir: Path):  # type: ignore[no-untyped-def]
    return make_kb(demo_data_dir)


async def test_one_cell_question_gets_that_cell(demo_kb) -> None:  # type: ignore[no-untyped-def]
    a = await answer_dict("上海办事处的电话是多少？", demo_kb)
    assert "021-5083-7726" in a["reply"] and "电话" in a["reply"]
    assert "|" not in a["reply"] and "销售部" not in a["reply"] and "传真" not in a["reply"]
    assert a["verdict"]["level"] == "confirmed"
    assert a["citations"][0]["quote"].startswith("| 电话 |")  # the citation is still the exact source span


async def test_a_table_row_reads_as_a_sentence(demo_kb) -> None:  # type: ignore[no-untyped-def]
    a = await answer_dict("零件A的主要外径是多少？", demo_kb)
    assert "主要外径：Φ20mm" in a["reply"] and "|" not in a["reply"]


async def test_table_rows_keep_column_names_and_numbers_apart(demo_kb) -> None:  # type: ignore[no-untyped-def]
    a = await answer_dict("差旅报销标准是什么？", demo_kb)
    assert "普通员工：一类城市 500，二类城市 380" in a["reply"] and "|" not in a["reply"]
    assert a["verdict"]["level"] == "confirmed"  # "500，380，280" would read as one number the source lacks


async def test_the_quoted_sentence_holds_the_asked_number(demo_kb) -> None:  # type: ignore[no-untyped-def]
    # "申请3天以内的年假…" names the leave and has numbers, but not how many days it is: "…年假5天…" does
    a = await answer_dict("年假有几天？", demo_kb)
    assert "年假5天" in a["citations"][0]["quote"] and "5天" in a["reply"]
    assert a["verdict"]["level"] == "confirmed"


async def test_a_standard_is_its_table_not_a_multiple_of_it(demo_kb) -> None:  # type: ignore[no-untyped-def]
    # "住宿上限按单人标准的1.5倍计算" names every word of the question; the amounts are in the section's table
    a = await answer_dict("出差住宿标准是多少？", demo_kb)
    assert "500" in a["reply"] and "普通员工：一类城市 500" in a["reply"]
    assert "500" in a["citations"][0]["quote"]


async def test_a_rule_for_a_class_of_parts_is_no_conflict_with_the_parts_own_value(demo_kb) -> None:  # type: ignore[no-untyped-def]
    # "公差为±0.02mm及更严格的零件（如XH-1001零件A…）" is a bound and a part code, not another tolerance of part A
    a = await answer_dict("零件A的公差是多少？", demo_kb)
    assert "±0.01mm" in a["reply"] and "说法不一" not in a["reply"]
    assert a["verdict"]["level"] == "confirmed"


def _chunk(text: str, section: str = "年休假") -> list:  # type: ignore[type-arg]
    from knowzero.knowledge.types import Passage, Scored
    return [Scored(Passage("p1", "policy.md", "考勤与休假管理办法", section, text, 0, len(text), "hr", "acme"), 1.0)]


@pytest.mark.parametrize(("question", "row", "others"), [
    ("工作人员工作16年，年休假有几天？", "满15年及以上：14天", ("7天", "10天")),
    ("工作12年的员工有几天年假？", "满10年不满15年：12天", ("7天", "14天")),
    ("How many PTO days does an employee with 3 years of service earn?", "2 years to less than 5 years：15 days",
     ("10 days", "20 days")),
])
def test_the_row_whose_range_holds_the_asked_value_is_read(question: str, row: str, others: tuple[str, ...]) -> None:
    """A tenure table keyed by ranges: the row holding the asked years answers, not the header, not row one
    (issue 27: look-ups; before, the intro sentence and the header row were quoted)."""
    from knowzero.knowledge.answer.reader import extractive_read
    zh = "工作人员累计工作满1年的，按以下标准享受年休假：\n\n| 工作年限 | 年休假天数 |\n|---|---|\n" \
         "| 满1年不满10年 | 7天 |\n| 满10年不满15年 | 12天 |\n| 满15年及以上 | 14天 |\n"
    en = "Full-time employees earn PTO by length of service:\n\n| Length of service | PTO days per year |\n|---|---|\n" \
         "| Less than 2 years | 10 days |\n| 2 years to less than 5 years | 15 days |\n| 5 years or more | 20 days |\n"
    draft = extractive_read(question, _chunk(en if question.isascii() else zh), lambda _t: 1.0)
    assert draft.claims and draft.claims[0].text == row, draft.answer
    assert not any(o in draft.claims[0].text for o in others)


def test_a_row_of_another_table_is_not_read_for_a_value_the_question_names() -> None:
    """"那病假呢？" after a tenure question ("…工作满6年，病假有几天？"): the annual-leave table's 满5年 row is
    not the answer when another passage read has 病假."""
    from knowzero.knowledge.answer.reader import extractive_read
    from knowzero.knowledge.types import Passage, Scored
    table = "| 工作年限 | 年休假天数 |\n|---|---|\n| 满1年不满5年 | 7天 |\n| 满5年不满15年 | 10天 |\n"
    sick = "工作人员每年享有带薪病假5天；超过5天的，按有关规定核减绩效工资。"
    read = [Scored(Passage("t", "a.md", "办法", "年休假", table, 0, len(table), "hr", "acme"), 1.0),
            Scored(Passage("s", "a.md", "办法", "病假", sick, 200, 200 + len(sick), "hr", "acme"), 0.9)]
    draft = extractive_read("工作人员工作满6年，病假有几天？", read, lambda _t: 1.0)
    assert "病假5天" in draft.claims[0].text, draft.answer


def test_a_row_named_the_short_way_is_looked_up(tmp_path: Path) -> None:
    """"博士生每月基本津贴是多少？" reads the 博士研究生 row of the table whose column is 基本津贴, not a roster
    row whose 身份 cell is 博士生 (issue 33: a learning follow-up answered from the roster)."""
    docs = {"lab/津贴发放办法.md": "# 助研津贴发放办法\n\n| 类别 | 基本津贴（元/月） |\n|---|---|\n| 博士研究生 | 3600 |\n"
                                   "| 硕士研究生 | 1500 |\n",
            "lab/成员名单.csv": "姓名,身份,导师\n周子墨,博士生,顾明远\n陈思远,硕士生,顾明远\n"}
    kb = make_kb(tmp_path / "kz", docs)
    assert kb.sql is not None
    top = kb.passage(kb.sql.search("博士生每月基本津贴是多少？", 3)[0].id)
    assert top is not None and "3600" in top.text, top
