"""Issue 27, deliver 2 and 8: a question that names a table row and a column gets that cell with its row key,
as the reply's first line; a question that names no row, or no column, gets none (the reader answers it)."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import cells
from knowzero.understanding.analysis import analyse
from kz_testlib import answer_dict, make_kb

CANTEEN = """# 员工食堂与通勤安排

## 开放时间与价格

| 餐次 | 开放时间 | 餐标 | 员工自付 |
|-----|---------|-----|---------|
| 早餐 | 6:30-8:30 | 6元 | 3元 |
| 午餐 | 11:00-13:00 | 18元 | 6元 |
| 晚餐 | 17:00-19:00 | 15元 | 5元 |

食堂每日供应三餐，员工凭工卡刷卡就餐。
"""

LEAVE = """# 年休假规定

| 累计工作年限 | 年休假天数 |
|---|---|
| 满1年不满10年 | 5天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |
"""

PURCHASE = """# Purchase Approval Matrix

| Order total | Approver |
|---|---|
| Up to $500 | Department lead |
| More than $500 up to $5,000 | Practice Manager |
| More than $5,000 up to $25,000 | Medical Director |
| More than $25,000 | Medical Director and the Owner |
"""

TRAVEL = """# 差旅标准

员工出差的住宿费按每晚计，在下表上限内凭发票据实报销。

| 城市类别 | 住宿上限（元/晚） | 伙食补助（元/天） |
|---|---|---|
| 一类城市 | 550 | 120 |
| 二类城市 | 450 | 100 |

部门经理及以上人员的住宿上限在上表基础上上浮20%。
"""

LEAVE_PARTS = """# 年假规定

年假由法定年假和公司福利假组成，按累计工龄确定。

| 累计工龄 | 法定年假（天） | 公司福利假（天） | 合计（天） |
|---|---|---|---|
| 满1年不满10年 | 5 | 2 | 7 |
| 满10年不满20年 | 10 | 3 | 13 |

## 不良品

| 批次不良率 | 处理方式 |
|---|---|
| 0.5%及以下 | 仅更换不良品 |
| 0.5%以上至2%（含2%） | 整批复检 |
| 2%以上 | 整批退货 |
"""

ALLOWANCE = """# Continuing Education Policy

| Role | CE allowance per calendar year | Paid CE days per year |
|---|---|---|
| DVM | $1,500 | 3 days |
| Technician | $600 | 2 days |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("cells") / "kz", {"食堂.md": CANTEEN, "年休假.md": LEAVE,
                                                            "Purchase_Approval_Matrix.md": PURCHASE,
                                                            "Continuing_Education.md": ALLOWANCE, "差旅标准.md": TRAVEL,
                                                            "年假规定.md": LEAVE_PARTS})


@pytest.mark.parametrize(("question", "kind", "lead"), [
    ("午餐员工自己要付多少钱？", None, "6元（午餐）"),  # the header 员工自付 shares 员工 with the question
    ("晚餐的餐标是多少？", None, "15元（晚餐）"),
    ("早餐几点供应？", "time", "6:30-8:30（早餐）"),  # no header named: the one column of times answers 几点
    ("员工午餐几点开始供应？", "time", "11:00-13:00（午餐）"),  # not 员工自付, whose header shares 员工
    ("工作了12年的员工年休假天数是多少？", None, "10天（满10年不满20年）"),  # a range holding the asked value
    ("Who is the approver of a $3,000 purchase?", None, "Practice Manager（More than $500 up to $5,000）"),
    ("Who approves a $30,000 purchase?", None, "Medical Director and the Owner（More than $25,000）"),
    ("员工去一类城市出差，住宿上限每晚多少钱？", None, "550元/晚（一类城市）"),
    ("累计工龄12年的员工每年有多少天年假？", None, "13天（满10年不满20年）"),  # the total, not one part
    ("累计工龄12年的员工有几天法定年假？", None, "10天（满10年不满20年）"),  # the part the question names
    ("一批货的不良率是1.2%，应该怎么处理？", None, "整批复检（0.5%以上至2%（含2%））"),  # a percentage band
    ("不良率0.3%的批次怎么处理？", None, "仅更换不良品（0.5%及以下）"),
])
def test_the_asked_cell_is_read_with_its_row_key(kb, question: str, kind: str | None, lead: str) -> None:  # type: ignore[no-untyped-def]
    cell = cells.asked_cell(kb.sql, question, None, kind, terms=analyse(question).terms)
    assert cell is not None, question
    assert cell.lead() == lead


@pytest.mark.parametrize("question", [
    "夜宵几点供应？",  # no row named
    "午餐在哪里吃？",  # a row, but no column asked about (and no column of the asked kind)
    "餐费怎么付？",
    "Who approves a purchase?",  # no amount: no row
    # a row named ("DVM") and a header word shared ("paid"), in a table about something else
    "What is the on-call stipend for a DVM on a paid holiday?",
])
def test_no_cell_is_guessed(kb, question: str) -> None:  # type: ignore[no-untyped-def]
    assert cells.asked_cell(kb.sql, question, None, analyse(question).asked_kind, terms=analyse(question).terms) is None


async def test_a_rule_beside_the_table_scales_the_cell_it_changes(kb) -> None:  # type: ignore[no-untyped-def]
    # "部门经理…上浮20%" changes the asked column for what the question names: 550 × 1.2, both cited
    out = await answer_dict("部门经理去一类城市出差，住宿上限每晚多少钱？", kb)
    assert out["reply"].startswith("660元/晚（一类城市 住宿上限（元/晚） 550 × (1 + 20%)）"), out["reply"]
    assert len(out["citations"]) == 2


async def test_a_looked_up_cell_leads_the_reply_and_its_row_is_cited(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("午餐员工自己要付多少钱？", kb)
    assert out["reply"].startswith("6元（午餐）\n"), out["reply"]
    assert out["verdict"]["level"] == "confirmed"
    assert out["citations"][0]["quote"].strip() == "| 午餐 | 11:00-13:00 | 18元 | 6元 |"
    en = await answer_dict("Who approves a $3,000 purchase?", kb)
    assert en["reply"].startswith("Practice Manager (More than $500 up to $5,000)\n"), en["reply"]


def test_the_cell_leads_whatever_reply_language_the_graph_passes() -> None:
    """The graph passes the turn's reply language on every turn: a same-language question keeps the cell's lead;
    a question asked in the other language gets the value in the asker's words."""
    from knowzero.knowledge.answer import policy
    from knowzero.knowledge.answer.reader import Claim, Draft
    from knowzero.knowledge.answer.reply import compose_reply

    draft = Draft("6元（午餐）", [Claim("餐次: 午餐；员工自付: 6元。", "a.md", "| 午餐 | 6元 |", 0, 9, "sql:kbt_0:1")],
                  method="lookup", notes=["员工自付: 6元"])
    ok = policy.Verdict("confirmed", "", [], 1.0, False)
    assert compose_reply("午餐员工自付多少钱？", draft, ok, language="zh").startswith("6元（午餐）\n")
    assert compose_reply("午餐员工自付多少钱？", draft, ok, language="en").startswith("6 yuan — ")


def test_a_condition_written_beside_the_table_leaves_the_answer_to_the_reader(tmp_path) -> None:  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path / "kz", {"年休假.md": LEAVE + "\n连续服务满8年的员工，另增加司龄假2天。\n"})
    q = "连续服务了8年（累计工作年限也是8年）的员工，年休假天数一共有几天？"
    assert cells.asked_cell(kb.sql, q, None, None, terms=analyse(q).terms) is None
    q = "累计工作年限12年的员工年休假天数是多少？"  # no condition on 12年 beside the table
    assert cells.asked_cell(kb.sql, q, None, None, terms=analyse(q).terms) is not None


FEES = """service_code,service,species,price_usd
VX-201,Rabies vaccine,Dog,28
VX-202,Rabies vaccine,Cat,26
VX-204,Bordetella vaccine,Dog,32
DN-401,Dental cleaning,All,420
"""

RATES = """设备名称,所在房间,校内机时费_元每小时
透射电子显微镜,A302,800
"""

MULTIPLIERS = """用户类别,收费倍数
校内用户,1倍
校外高校,2倍
"""

ACCIDENTS = """事故等级,示例,上报时限,上报对象
一般事故,少量试剂泄漏,24小时内,实验室安全员
较大事故,设备起火已扑灭,2小时内,实验室主任、学院安全办
"""

ROSTER = """姓名,身份,导师,状态
林可欣,博士后,顾明远,在职
马晓雯,硕士生,顾明远,在读
"""


@pytest.fixture(scope="module")
def rows_kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("rows") / "kz", {"Fee_Schedule.csv": FEES, "成员名单.csv": ROSTER,
                                                             "仪器.csv": RATES, "收费倍数.csv": MULTIPLIERS,
                                                             "事故报告.csv": ACCIDENTS})


def _row(kb, path: str, n: int) -> str:  # type: ignore[no-untyped-def]
    t = next(t for t in kb.sql.tables if t.path.endswith(path))
    return t.row_id(n)


@pytest.mark.parametrize(("path", "row", "question", "misses"), [
    ("Fee_Schedule.csv", 2, "How much is a Bordetella vaccine for a cat?", True),  # the dog's row
    ("Fee_Schedule.csv", 2, "How much is a Bordetella vaccine for a dog?", False),
    ("Fee_Schedule.csv", 3, "How much is a dental cleaning for a cat?", False),  # "All" names every species
    ("成员名单.csv", 0, "博士后每月的津贴是多少？", True),  # a roster row has no allowance
    ("成员名单.csv", 0, "林可欣的导师是谁？", False),
    ("仪器.csv", 0, "透射电子显微镜每小时收费多少钱？", False),
    ("事故报告.csv", 1, "发生较大事故要报给谁？", False),  # no header word shared; a role is what 谁 asks
    ("仪器.csv", 0, "校外高校的用户使用透射电子显微镜每小时收费多少钱？", True),  # the multiplier's row too
])
def test_a_cited_row_about_another_item_or_without_the_asked_field_misses(rows_kb, path: str, row: int, question: str,  # type: ignore[no-untyped-def]
                                                                         misses: bool) -> None:
    why = cells.row_misses(rows_kb.sql, _row(rows_kb, path, row), question, analyse(question).asked_kind)
    assert (why is not None) == misses, why


@pytest.mark.parametrize(("label", "value", "lead"), [
    ("住宿上限（元/晚）", "550", "550元/晚（k）"),  # a bare number takes its header's unit
    ("price_usd", "385", "$385（k）"),
    ("Stipend (DVM)", "300", "300（k）"),  # a header's note that is not a unit
    ("餐标", "18元", "18元（k）"),
])
def test_a_bare_number_leads_with_its_headers_unit(label: str, value: str, lead: str) -> None:
    assert cells.Cell(None, 0, "k", label, value).lead() == lead  # type: ignore[arg-type]


def test_a_superlative_asks_the_column_it_ranks_by(rows_kb) -> None:  # type: ignore[no-untyped-def]
    question = "哪个服务最贵？"
    assert cells.row_misses(rows_kb.sql, _row(rows_kb, "Fee_Schedule.csv", 3), question, None) is None
