"""Found on the dev half of the sixth blind set (a community health centre, a cycle-hire co-op; session 36) and the
spent fifth set: a question's abbreviation of the documents' word (年假 for 年休假), a word the segmenter glued across
the documents' words (城北店能代煎 → 店能代 | 煎), "一年能休…" as a rate per year and not a year the asker names, a
two-character row key with its bracketed aside (推拿（30分钟）) and 一次 for the 单次 column, and a Chinese word no
document writes in either language (刮痧) that a translated reading must not answer around."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

LEAVE = """# 员工考勤与请假制度

第七条　员工享受带薪年休假，天数按在本公司的司龄确定：

| 司龄 | 年休假天数 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满3年 | 5天 |
| 满3年不满5年 | 7天 |
| 满5年不满10年 | 10天 |

第八条　年休假须至少提前5个工作日在系统中申请。
"""
FEES = """# 医疗服务收费标准

## 中医理疗

| 项目 | 单次（元） | 10次疗程卡（元） |
|---|---|---|
| 针灸 | 25 | 220 |
| 推拿（30分钟） | 40 | 360 |
| 拔罐 | 15 | 130 |

70岁及以上老人做单次理疗按8折收费；疗程卡已含优惠，不再打折。中医理疗须在中心本部中医科办理。

## 门诊诊疗费

| 就诊类别 | 收费（元/次） | 个人自付（元/次） |
|---|---|---|
| 普通门诊 | 10 | 2 |
| 副主任医师门诊 | 20 | 8 |

家庭医生签约居民就诊的，普通门诊的个人自付部分免收；副主任医师门诊的个人自付部分照常收取。

## 健康体检

| 年龄 | 体检套餐 | 价格（元） |
|---|---|---|
| 18–39岁 | 青年基础套餐 | 160 |
| 40–64岁 | 中年套餐 | 280 |
| 65岁及以上 | 老年人健康体检 | 免费 |

## 代煎

代煎服务只在城南旗舰店、城北店的煎药室提供。
"""
OTHER = """# 员工手册

年假按公司规定执行。
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    # another collection writes 年假, so the word is in the index: only the searched collection lacks it
    kb = make_kb(tmp_path_factory.mktemp("blind6") / "kz")
    for collection, name, text in [("clinic", "员工考勤与请假制度.md", LEAVE), ("clinic", "医疗服务收费标准.md", FEES),
                                   ("other", "员工手册.md", OTHER)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


def test_an_abbreviation_is_read_in_the_documents_word(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import pipeline
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.answer.lexicon import Lexicon

    deps = KnowledgeDeps(kb, kb.settings, None, ("clinic",))
    r = pipeline.readings("我在公司干了四年多了，一年能休几天年假？", deps, Lexicon())
    assert r.first == "我在公司干了四年多了，一年能休几天年休假？" and r.other.endswith("年假？"), r
    # where the searched documents write the word itself, the question is read as typed
    other = KnowledgeDeps(kb, kb.settings, None, ("other",))
    assert pipeline.readings("年假有几天？", other, Lexicon()).first == "年假有几天？"


async def test_a_rate_per_year_is_no_year_of_service(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("我在公司干了四年多了，一年能休几天年休假？", kb, collections=("clinic",))
    assert out["reply"].startswith("7天"), out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


def test_a_glued_word_is_recut_into_the_documents_words(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer.retriever import key_terms

    terms = [t for t, _w in key_terms(kb, "城北店能代煎中药吗？")]
    assert "代煎" in terms and "店能代" not in terms, terms


async def test_a_short_key_with_its_aside_and_one_occasion(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("腰不舒服，想去中医科做个推拿按摩，做一次多少钱？", kb, collections=("clinic",))
    assert out["reply"].startswith("40元"), out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


def test_a_word_no_document_writes_in_either_language_declines() -> None:
    from knowzero.knowledge.answer import policy

    v = policy.Verdict("uncertain", "x", [], 0.9, True)
    assert policy.untranslated(v, ["刮痧"], absent=["刮痧"]).level == "insufficient"
    assert policy.untranslated(v, ["grandmother"]).level == "uncertain"  # a paraphrase of a translated reading


ALLOWANCE = """# 员工排班与值班补贴办法

第六条　值班补贴按岗位和班次发放：

| 岗位 | 夜间值班（元/次） | 周末白班（元/次） |
|---|---|---|
| 医师 | 120 | 80 |
| 护士 | 90 | 60 |
"""
FLEET = """bike_id,type,depot,status,purchase_year,purchase_price_gbp
HC001,City,Station Yard,Available,2021,420
HC002,Cargo,Station Yard,Available,2023,3400
HC003,Cargo,Millbrook Quay,In repair,2024,3700
HC004,E-bike,Station Yard,Available,2023,1850
HC005,E-bike,Millbrook Quay,Available,2022,1790
HC006,E-bike,Millbrook Quay,In repair,2022,1790
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("blind6-shop") / "kz")
    for collection, name, text in [("clinic", "值班补贴办法.md", ALLOWANCE), ("cycles", "fleet.csv", FLEET)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


async def test_a_short_form_of_the_header_names_its_column(shop) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("护士值一个夜班，补贴多少钱？", shop, collections=("clinic",))  # 夜班 of 夜间值班
    assert out["reply"].startswith("90"), (out["reply"], out["verdict"])


@pytest.mark.parametrize(("question", "operation", "label", "value"), [
    ("What's the average purchase price of the cargo bikes in the fleet?", "avg", "purchase_price_gbp", 3550.0),
    ("How many e-bikes are available right now, across all the depots?", "count", None, 2.0),
])
def test_the_header_the_question_names_and_no_scope_word_as_qualifier(shop, question: str, operation: str,  # type: ignore[no-untyped-def]
                                                                      label: str | None, value: float) -> None:
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(shop.sql, question)
    assert c is not None and c.operation == operation and c.value == value, c
    assert (c.column.label if c.column is not None else None) == label


@pytest.mark.parametrize(("question", "lead"), [
    ("Which depot has the most e-bikes?", "Millbrook Quay — most: 2 e-bikes"),
    ("Which depot has the most bikes available?", "Station Yard — most: 3 bikes"),
])
async def test_groups_ranked_by_their_rows(shop, question: str, lead: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, shop, collections=("cycles",))
    assert out["reply"].startswith(lead), out["reply"]
    assert "GROUP BY" in str(out["agent_log"]), out["agent_log"]


def test_no_group_answers_when_groups_tie_or_the_fewest_has_none(shop) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    assert aggregate.compute(shop.sql, "Which depot has the fewest city bikes?") is None  # Millbrook Quay has none
    assert aggregate.compute(shop.sql, "Which depot has the most cargo bikes?") is None  # one each: a tie


@pytest.mark.parametrize(("question", "lead"), [
    ("我75岁了，做一次推拿理疗多少钱？", "32元"),  # 40 × 8折 for 70岁及以上 — not the check-up table's 65岁及以上 row
    ("我签了家庭医生，普通门诊个人自付多少钱？", "0元"),  # 免收 for the 签约居民
    ("普通门诊个人自付多少钱？", "2元"),  # no condition named: the cell as it is
    ("我今年45岁，做一次体检多少钱？", "280"),
])
async def test_a_discount_or_a_waiver_beside_the_table(kb, question: str, lead: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb, collections=("clinic",))
    assert lead in out["reply"].splitlines()[0] or lead in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


async def test_a_rule_whose_band_holds_the_asked_quantity_applies(kb) -> None:  # type: ignore[no-untyped-def]
    # 72岁 is in the rule's 70岁及以上 though the question names neither 老人 nor 理疗: 25 × 8折, never the bare 25
    out = await answer_dict("我爷爷今年72岁，想去做一次针灸，单次收多少钱？", kb, collections=("clinic",))
    assert out["reply"].startswith("20元"), out["reply"]
    out = await answer_dict("我爸68岁了，做一次拔罐多少钱？", kb, collections=("clinic",))
    assert out["reply"].startswith("15元"), out["reply"]


MEMBERS = """# 会员权益

| 会员等级 | 升级条件 | 会员折扣 | 每消费1元积分 |
|---|---|---|---|
| 银卡会员 | 满1000元 | 9.5折 | 1.2分 |
| 金卡会员 | 满3000元 | 9折 | 1.5分 |
"""


async def test_a_count_asked_in_a_unit_reads_the_cell_in_that_unit(tmp_path_factory: pytest.TempPathFactory) -> None:
    kb = make_kb(tmp_path_factory.mktemp("blind6-members") / "kz", {"shop/会员权益.md": MEMBERS})
    out = await answer_dict("金卡会员能打几折？", kb)  # 几折: the one cell counted in 折, though no header says 几折
    assert out["reply"].startswith("9折"), out["reply"]
