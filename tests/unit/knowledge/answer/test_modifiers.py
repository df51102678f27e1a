"""Issue 27 (conditions and exceptions): a rule beside a table that scales its value for a condition the question
names ("规培住院医师…按住院医师标准的80%发放", "法定节假日当天的夜班…2倍") is applied to the cell, with the row and the
rule both cited; a question that names no rule gets the cell; two rules named equally well give no one value; a
list-valued row key ("内科、外科、妇产科、儿科") is the row of each member; a "—" cell is no answer."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import modifiers
from kz_testlib import answer_dict, make_kb

DUTY = """# 医务人员值班补贴标准

## 一、适用范围

本标准适用于本院医务人员。规培住院医师参加值班的，按本标准第三条执行。

## 二、夜班补贴标准

夜班补贴按科室类别和岗位确定，单位：元/班。

| 科室类别 | 住院医师 | 主治医师 | 主管护师 |
|---|---|---|---|
| ICU、急诊科 | 280 | 320 | 260 |
| 内科、外科、妇产科、儿科 | 190 | 230 | 180 |
| 检验科、放射科 | 130 | 160 | — |

医技科室的技师、主管技师值夜班的，分别按本科室住院医师、主治医师的标准执行。

## 三、特殊情形

1. 法定节假日当天的夜班，补贴按标准的2倍发放；春节期间的夜班，按标准的3倍发放。
2. 规培住院医师值夜班的，按所在科室住院医师标准的80%发放。
3. 法定节假日白天的值班按日班计，补贴为同岗位夜班标准的50%。
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("rules") / "kz", {"hosp/值班补贴标准.md": DUTY})


@pytest.mark.parametrize(("question", "value", "rule"), [
    ("住院医师在外科值一个夜班，补贴是多少？", "190", None),  # no rule named: the cell (its row keyed by a list)
    ("规培住院医师在外科值一个夜班，补贴是多少？", "152", "80%"),
    ("急诊科主治医师在法定节假日值夜班，补贴是多少？", "640", "2倍"),  # not the daytime 50% rule: 夜班 is named too
    ("春节期间ICU住院医师值夜班补贴多少？", "840", "3倍"),
])
async def test_a_rule_the_question_names_scales_the_cell(kb, question: str, value: str, rule: str | None) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb)
    assert out["verdict"]["level"] == "confirmed", out["reply"]
    assert out["reply"].startswith(value), out["reply"]
    if rule is None:
        assert len(out["citations"]) == 1
    else:  # the row and the rule, both cited
        assert len(out["citations"]) == 2 and rule in out["reply"], out["reply"]


async def test_an_empty_cell_is_no_answer(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("检验科主管护师值夜班补贴多少？", kb)
    assert not out["reply"].startswith("—") and "— （" not in out["reply"]


def test_two_rules_named_equally_well_give_no_one_value() -> None:
    doc = "表\n甲类员工出差的，补贴按标准的2倍发放。\n甲类员工出差的，补贴按标准的3倍发放。"
    assert modifiers.applicable(doc, (0, 1), "甲类员工出差补贴多少？", "补贴 标准", "补贴") == modifiers.AMBIGUOUS


def test_a_raise_up_to_a_share_is_a_ceiling() -> None:
    doc = "住宿标准如下表。\n表\n展会期间当地酒店价格明显上涨的，经批准住宿标准可上浮，但上浮幅度不超过30%。"
    rule = modifiers.applicable(doc, (9, 10), "展会期间去上海住宿上限多少？", "住宿标准 城市 上限 620", "上限")
    assert isinstance(rule, modifiers.Rule) and rule.ceiling and rule.apply(620) == 806
