"""Issue 27 (found on a second blind set, tests/data/orgdocs_blind): a column keyed by grade ranges ("P7–P8" for
"P7级别"), a row keyed by a tier the document defines by a list ("一类城市：北京、上海…" for "去上海"), a long key
named whole with few of the question's other words, one-value answers that show only the key and the asked cell,
a maximum, a sum over listed rows (one named by the head of a bracketed cell), a rules table narrowed to the
one rendered row that holds the question's words, and a number the policy defers to other rules declined."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import aggregate, cells
from knowzero.understanding.analysis import analyse
from kz_testlib import answer_dict, make_kb

TRAVEL = """# 费用报销制度

## 二、城市分类

- 一类城市：北京、上海、广州、深圳。
- 二类城市：各省会城市及计划单列市（含合肥、南京、西安）。
- 三类城市：其他城市及县城。

## 三、住宿标准

住宿费按下表标准凭发票实报实销。单位：元/人·晚。

| 城市类别 | P5–P6 | P7–P8 | P9及以上 |
|---|---|---|---|
| 一类城市 | 480 | 620 | 850 |
| 二类城市 | 380 | 480 | 650 |
| 三类城市 | 300 | 380 | 500 |
"""

FEES = """项目编码,项目名称,类别,单价（元）,医保类别,备注
MZ1005,血常规,检验,20,甲,五分类
MZ1006,尿常规,检验,12,甲,
MZ1007,肝功能（8项）,检验,68,甲,
MZ1028,口腔洁治（全口）,口腔,180,丙,医保不予报销
MZ1029,成人体检套餐A,体检,380,丙,含血常规、肝肾功能
"""

RULES = """# 信息安全规定

员工在日常工作中须遵守下表所列规则：

| 类别 | 规定 |
|---|---|
| 网盘 | 禁止使用个人网盘存储或传输公司数据；公司文件统一存放在公司企业网盘。 |
| USB存储 | 研发部、测试部的电脑默认禁用U盘、移动硬盘等USB存储设备；确需使用的，经信息安全组审批后临时开通。 |
| 离开工位 | 离开工位须锁屏；电脑须设置5分钟无操作自动锁屏。 |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("tables25") / "kz", {"费用报销制度.md": TRAVEL, "门诊收费项目.csv": FEES})


def _cell(kb, question: str):  # type: ignore[no-untyped-def]
    a = analyse(question)
    return cells.asked_cell(kb.sql, question, None, a.asked_kind, terms=a.terms)


@pytest.mark.parametrize(("label", "question", "holds"), [
    ("p7–p8", "p7级别的员工", True), ("p9及以上", "p10的总监", True), ("p5–p6", "p7级别", False),
    ("m2", "m2职级", True), ("p7–p8", "ip7地址", False),
])
def test_a_grade_range_holds_the_grade_the_question_names(label: str, question: str, holds: bool) -> None:
    assert cells.grade_holds(label, question) is holds


def test_a_grade_column_and_a_tier_defined_by_a_list_give_the_cell(kb) -> None:  # type: ignore[no-untyped-def]
    c = _cell(kb, "P7级别的员工去上海出差，酒店每晚最多能报多少钱？")
    assert c is not None and (c.key, c.label, c.value) == ("一类城市", "P7–P8", "620")
    assert c.asked_text == "城市类别: 一类城市；P7–P8: 620。"  # not the P5–P6 and P9 values of the row
    c = _cell(kb, "P9去西安出差住宿标准是多少？")
    assert c is not None and (c.key, c.value) == ("二类城市", "650")


def test_a_city_no_tier_lists_gives_no_cell(kb) -> None:  # type: ignore[no-untyped-def]
    assert _cell(kb, "P7去东京出差住宿标准是多少？") is None


def test_a_long_key_named_whole_is_read_with_the_askers_own_words_around_it(kb) -> None:  # type: ignore[no-untyped-def]
    c = _cell(kb, "在医院洗牙（口腔洁治）属于医保哪一类？")
    assert c is not None and (c.label, c.value) == ("医保类别", "丙")


def test_a_maximum_and_a_sum_over_listed_rows(kb) -> None:  # type: ignore[no-untyped-def]
    c = aggregate.compute(kb.sql, "门诊收费项目里最贵的是哪个？")
    assert c is not None and (c.operation, c.value) == ("max", 380)
    c = aggregate.compute(kb.sql, "医生让我查个血常规、尿常规和肝功能，一共要多少钱？")
    assert c is not None and (c.operation, c.value, len(c.rows)) == ("sum", 100, 3)  # 肝功能 names 肝功能（8项）
    assert aggregate.compute(kb.sql, "医生让我查个血常规，要多少钱？") is None  # one item: a cell, not a sum


async def test_a_rules_table_is_answered_by_its_one_row(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"信息安全规定.md": RULES})
    a = await answer_dict("研发部的电脑能用U盘吗？", kb)
    assert "禁用U盘" in a["reply"] and "网盘" not in a["reply"] and "锁屏" not in a["reply"], a["reply"]
    assert a["reply"].startswith("不能"), a["reply"]  # 禁用 says no, in the question's own modal


LEAVE = """# 职工休假管理办法

## 三、其他假期

婚假、生育假（产假）、护理假（陪产假）的天数，按国家和本省的有关规定执行，由人事科逐人核定。职工的父母、配偶、子女去世的，给予丧假3天。
"""


async def test_a_number_the_policy_defers_to_other_rules_is_declined(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"职工休假管理办法.md": LEAVE})
    a = await answer_dict("职工婚假有几天？", kb)
    assert a["verdict"]["level"] == "insufficient" and "3天" not in a["reply"], a["reply"]
    a = await answer_dict("职工的父母去世，丧假有几天？", kb)
    assert "3天" in a["reply"] and a["verdict"]["level"] != "insufficient", a["reply"]


ROSTER = """工号,姓名,部门,职级,入职日期
XY1001,林嘉树,研发部,P9,2013-04-08
XY1002,杜若晨,研发部,P7,2015-07-01
"""

TRAINS = """# 交通工具

员工出差乘坐飞机、火车或高铁的，按职级报销下表所列的舱位或座位：

| 职级 | 飞机 | 火车/高铁 |
|---|---|---|
| P5–P8 | 经济舱 | 二等座 |
| P9及以上 | 经济舱 | 一等座 |
"""


async def test_a_person_named_in_a_roster_gets_the_rule_for_her_grade(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"员工名单.csv": ROSTER, "交通工具.md": TRAINS})
    a = await answer_dict("林嘉树出差坐高铁，可以报销哪种座位？", kb)
    assert a["reply"].startswith("一等座") and "林嘉树" in a["reply"], a["reply"]  # her roster row is cited too
    a = await answer_dict("杜若晨出差坐高铁，可以报销哪种座位？", kb)
    assert a["reply"].startswith("二等座"), a["reply"]


async def test_a_rule_the_question_does_not_ask_for_is_not_joined(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"员工名单.csv": ROSTER, "交通工具.md": TRAINS})
    a = await answer_dict("林嘉树在哪个部门？", kb)  # the roster answers; no travel row chosen by her grade
    assert "经济舱" not in a["reply"] and "座" not in a["reply"].split("\n")[0], a["reply"]


def test_a_translation_missing_much_of_the_question_is_declined_and_a_repeated_gap_counts_once() -> None:
    from knowzero.knowledge.answer import policy

    v = policy.Verdict("confirmed", "every claim is quoted", [], 0.9, False)
    assert policy.untranslated(v, ["anaesthesia", "painless", "gastroscopy", "outpatient"]).level == "insufficient"
    assert policy.untranslated(v, ["here", "rent", "flat", "here"]).level == "uncertain"  # three gaps: read, for review
    assert policy.untranslated(v, ["hotel"]).level == "confirmed"  # one word: usually a paraphrase


STAFF = """姓名,科室,职称,入职年份,是否带教
季宏远,ICU,主任医师,2004,是
蓝若溪,ICU,主治医师,2014,是
韦一鸣,外科,主治医师,2016,否
"""

SHIFTS = """# 夜班补贴

| 科室类别 | 住院医师 | 主治医师 |
|---|---|---|
| ICU、急诊科 | 280 | 320 |
| 外科 | 190 | 230 |
"""


@pytest.mark.parametrize(("question", "value"), [
    ("科室人员名册里有多少位主治医师？", 2),  # the roster it names, not the allowance table's 主治医师 column
    ("名册里负责带教的有几人？", 2),  # 是否带教 = 是
    ("科室人员名册中不带教的有几个人？", 1),  # … = 否
    ("门诊收费项目里医保甲类的项目有几项？", 3),  # 医保类别 = 甲 (one character, named with its kind)
])
def test_counts_by_a_named_roster_a_yes_no_column_and_a_one_character_class(tmp_path, question: str, value: int) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"科室人员名册.csv": STAFF, "夜班补贴.md": SHIFTS, "门诊收费项目.csv": FEES})
    c = aggregate.compute(kb.sql, question)
    assert c is not None and (c.operation, c.value) == ("count", value), question
