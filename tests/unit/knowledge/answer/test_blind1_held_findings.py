"""Issue 27, found on the held half of the second blind set once it was spent for development (session 30): the
asker's own words (下个月, 问下, 自己) weigh nothing in coverage, a status cell written with 已 is named by 已经,
a grade bounded by 及以上 counts every grade above it, and an amount must stand in a sentence about the asked
subject (the hospitality cap beside the check-up leave is no check-up fee)."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

LEAVE = """# 星耀软件科技有限公司 年假与请假制度

## 五、其他假期

- 婚假：依法办理结婚登记的员工享有婚假10天（含法定婚假3天及公司增加的7天），须在登记之日起1年内一次性休完。
- 丧假：父母、配偶、子女去世的，给予丧假3天；配偶的父母去世的，给予丧假2天。
- 体检假：员工参加公司组织的年度体检，可享受半天带薪体检假。
"""

EXPENSES = """# 星耀软件科技有限公司 费用报销制度

## 业务招待

业务招待须事先在OA系统提交申请，人均标准不超过200元（含酒水），招待对象和人数须在申请中写明。

## 差旅住宿

出差住宿费按城市类别报销，一类城市每晚不超过500元。
"""

DEVICES = """编号,使用人,部门,设备类型,单价（元）,状态
XY-IT-001,林嘉树,研发部,笔记本电脑,21999,在用
XY-IT-002,杜若晨,研发部,笔记本电脑,12999,已报废
XY-IT-003,程一鸣,测试部,显示器,1899,已报废
XY-IT-004,秦朗,产品部,笔记本电脑,8999,维修中
"""

STAFF = """工号,姓名,部门,职级,入职日期
XY1001,林嘉树,研发部,P9,2013-04-08
XY1002,杜若晨,研发部,P8,2015-07-01
XY1003,程一鸣,测试部,P7,2018-03-12
XY1004,秦朗,产品部,P8,2016-02-22
XY1005,钟慧敏,人事行政部,P6,2020-09-01
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind1-held") / "kz", {
        "xingyao/年假与请假制度.md": LEAVE, "xingyao/费用报销制度.md": EXPENSES,
        "xingyao/员工设备清单.csv": DEVICES, "xingyao/员工名单.csv": STAFF})


def test_the_askers_own_words_weigh_nothing() -> None:
    from knowzero.knowledge.answer.retriever import askers_word

    tags = {"我": "r", "下个月": "t", "领证": "n", "想": "v", "问": "v", "下": "f", "婚假": "n", "自己": "r"}
    unseen = {"婚假", "自己"}.__contains__
    assert [askers_word(t, unseen, tags) for t in ("下个月", "问下", "自己", "婚假", "领证", "2026年")] == \
        [True, True, True, False, False, False]


async def test_a_question_with_the_askers_circumstances_is_answered(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("我下个月结婚，想问下自己能休几天婚假？", kb)
    assert "10天" in out["reply"][:80], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]["reason"]


async def test_an_amount_beside_another_subject_is_no_answer(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("公司组织的年度体检，每人的体检费用标准是多少钱？", kb)
    assert out["verdict"]["level"] == "insufficient", out["reply"]


async def test_a_status_written_with_already_filters_the_sum(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("设备清单里已经报废的设备，单价加起来一共多少钱？", kb)
    assert out["reply"].startswith("单价合计 14898元"), out["reply"]  # the header's unit after the value (session 35)


async def test_a_grade_and_above_counts_every_higher_grade(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("职级在P8及以上的员工一共有几位？", kb)
    assert out["reply"].startswith("共 3 位"), out["reply"]
    out = await answer_dict("职级是P8的员工有几位？", kb)
    assert out["reply"].startswith("共 2 位"), out["reply"]
