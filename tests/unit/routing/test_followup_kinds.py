"""Issue 33, deliver 1: a follow-up naming another name of one kind — another column of a table ("那云溪苑的呢？"
after 江畔花园's fee), another value of a column ("And for a W4?" after a W2's allowance) — swaps the previous
question's name of that kind, as the thread's own tables know them; a pronoun after an attribute question ("它"
after "…8栋602的建筑面积是多少？") stands for the thing, not its attribute. Real knowledge base, real tables."""

from __future__ import annotations

from typing import Any

import pytest

from knowzero.routing.followup import standalone
from kz_testlib import make_kb

FEES = """# 物业服务收费标准（2026年度）

| 物业类型 | 江畔花园（元/平方米·月） | 云溪苑（元/平方米·月） | 枫林里（元/平方米·月） |
| --- | --- | --- | --- |
| 多层住宅 | 1.20 | 1.35 | 1.10 |
| 高层住宅 | 1.80 | 1.95 | 1.60 |

| 所在楼层 | 电梯运行费（元/户·月） | 二次加压供水费（元/户·月） |
| --- | --- | --- |
| 1–2层 | 0 | 0 |
| 12–20层 | 35 | 12 |
"""
ROOMS = "项目,房号,建筑面积(㎡)\n云溪苑,8-602,96.5\n江畔花园,3-1101,120.0\n"
SHIFTS = "# Night shift allowance\n\n| Grade | Allowance per hour |\n| --- | --- |\n| W1 | £1.80 |\n| W2 | £2.20 |\n| W4 | £3.10 |\n"
OTHER = "| 区域 | 电梯运行费（元/户·月） |\n| --- | --- |\n| 甲区 | 99 |\n"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Any:
    kb = make_kb(tmp_path_factory.mktemp("kinds") / "kz")
    kb.ingest_bytes("收费标准.md", FEES.encode(), collection="estate")
    kb.ingest_bytes("房屋.csv", ROOMS.encode(), collection="estate")
    kb.ingest_bytes("shifts.md", SHIFTS.encode(), collection="depot")
    kb.ingest_bytes("other.md", ("# 其他\n\n" + OTHER).encode(), collection="elsewhere")
    return kb


def _kinds(kb: Any, collections: tuple[str, ...]) -> Any:
    return lambda phrase: kb.same_kind(phrase, collections)


@pytest.mark.parametrize(("text", "previous", "collections", "expected"), [
    ("那云溪苑的呢？", "江畔花园多层住宅的物业费多少钱一平？", ("estate",), "云溪苑多层住宅的物业费多少钱一平？"),
    ("二次供水费呢？", "我家住18楼，电梯运行费每个月多少？", ("estate",), "我家住18楼，二次供水费每个月多少？"),
    ("那高层住宅呢？", "江畔花园多层住宅的物业费多少钱一平？", ("estate",), "江畔花园高层住宅的物业费多少钱一平？"),
    ("And for a W4?", "What's the night shift allowance for a W2?", ("depot",),
     "What's the night shift allowance for a W4?"),
    ("那它每个月物业费多少？", "云溪苑8-602的建筑面积是多少？", ("estate",), "云溪苑8-602每个月物业费多少？"),
])
def test_a_name_of_the_same_kind_is_swapped(kb: Any, text: str, previous: str, collections: tuple[str, ...],
                                            expected: str) -> None:
    assert standalone(text, previous, "", _kinds(kb, collections)) == expected


def test_only_the_threads_collections_say_what_is_of_one_kind(kb: Any) -> None:
    # the depot's grades are no names of the estate's thread: the rules without tables decide
    assert standalone("And for a W4?", "What's the night shift allowance for a W2?", "", _kinds(kb, ("estate",))) \
        != "What's the night shift allowance for a W4?"
    assert kb.same_kind("甲区", ("estate",)) == ("", ())
    assert kb.same_kind("甲区", ("elsewhere",))[0] == "value"


def test_a_name_no_table_knows_and_a_new_topic_stay_as_they_were(kb: Any) -> None:
    assert kb.same_kind("食堂", ("estate",)) == ("", ())
    assert standalone("食堂几点开门？", "江畔花园多层住宅的物业费多少钱一平？", "", _kinds(kb, ("estate",))) == "食堂几点开门？"


def test_a_disabled_files_tables_name_nothing(kb: Any) -> None:
    assert kb.set_enabled("elsewhere/other.md", False)
    try:
        assert kb.same_kind("甲区", ("elsewhere",)) == ("", ())
    finally:
        kb.set_enabled("elsewhere/other.md", True)
    assert kb.same_kind("甲区", ("elsewhere",))[0] == "value"
