"""Found on the dev half of the seventh blind set (a warehouse company, a marina; session 37): the spoken words of a
question that name nothing ("get", "right now", "一共", "一个"), a count asked as 几个人, a state asked in other words
(能正常用 for 在用), a length band in metres, the column of a size the question names (4.2米厢式货车) and of its count
("one night", not "7 nights"), a rate per night times the nights asked, a topic change that opens a message, and a
follow-up that swaps a season or a modifier. The documents below are written for these tests."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

TARIFF = """# Harbour Visitor Tariff 2026

Visiting yachts and motor boats pay by their length overall (LOA):

| Length overall (LOA) | Short stay (up to 4 hours, 09:00–17:00) | Per night | 7 nights |
|---|---|---|---|
| Up to 8.00 m | £12 | £28 | £168 |
| 8.01–10.00 m | £15 | £36 | £216 |
| 10.01–12.00 m | £18 | £44 | £264 |

A boat that comes in for shelter while a gale warning is in force pays nothing for its first night.
The speed limit inside the harbour is 4 knots. Report any accident within 24 hours to the harbour office.

## Fuel berth

| Season | Fuel berth open |
|---|---|
| April to September | 08:00–19:00 every day |
| October to March | 09:00–16:00, closed on Tuesdays |
"""
DELIVERY = """# 仓储与配送收费标准

配送费按车型和运输距离（从仓库送到收货地址）收取，每车次计一次：

| 运输距离 | 4.2米厢式货车（元/车次） | 7.6米厢式货车（元/车次） | 4.2米冷藏车（元/车次） |
|---|---|---|---|
| 20公里以内（含20公里） | 260 | 420 | 380 |
| 20–50公里（含50公里） | 380 | 600 | 560 |
| 50–100公里（含100公里） | 560 | 880 | 820 |
"""
FLEET = """编号,类别,所属仓库,状态
CL01,叉车,西岭仓,在用
CL02,叉车,西岭仓,在用
CL03,叉车,西岭仓,维修中
CL04,叉车,东港仓,在用
CL05,货车,西岭仓,在用
"""
STAFF = """工号,姓名,岗位,叉车证
LY01,黄启明,仓管员,有
LY02,吴海生,叉车司机,有
LY03,赵立峰,叉车司机,有
LY04,周晓燕,理货员,无
"""


BERTHS = """berth_id,pontoon,status,boat_name,holder_since
C01,C,Annual,Sea Pink,2019
C02,C,Visitor,,
C03,C,Visitor,,
D01,D,Annual,Ocean Lark,2014
D02,D,Visitor,,
E01,E,Visitor,,
E02,E,Annual,Morwenna,2012
"""


RETURNS = """# 退换货规定

已售出的商品按下表退换：

| 商品类别 | 非质量问题 | 质量问题 |
|---|---|---|
| 非处方药 | 7天内可退换 | 30天内可退换 |
| 处方药 | 不退换 | 30天内可退换 |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("blind7") / "kz")
    for collection, name, text in [("harbour", "Visitor_Tariff.md", TARIFF), ("depot", "配送收费标准.md", DELIVERY),
                                   ("depot", "车辆清单.csv", FLEET), ("depot", "员工名册.csv", STAFF),
                                   ("harbour", "berths.csv", BERTHS), ("depot", "退换货规定.md", RETURNS)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


@pytest.mark.parametrize(("question", "not_terms"), [
    ("If I have a crash on one of your hire boats, how long have I got to report it?", {"got"}),
    ("How many boats are available right now, across all the pontoons?", {"right", "now", "across"}),
    ("员工名册里持有叉车证的一共有几个人？", {"一共", "个人"}),
])
def test_spoken_words_name_nothing(kb, question: str, not_terms: set[str]) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer.retriever import key_terms

    terms = {t for t, w in key_terms(kb, question) if w > 0}
    assert not terms & not_terms, terms


def test_a_chinese_count_word_weighs_nothing(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer.retriever import key_terms

    weights = dict(key_terms(kb, "夜班餐补现在一个班给多少？"))
    assert weights.get("一个", 0.0) == 0.0, weights


async def test_a_count_asked_as_ji_ge_ren(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("员工名册里持有叉车证的一共有几个人？", kb, collections=("depot",))
    assert out["reply"].startswith("共 3 人"), out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


def test_a_state_asked_in_other_words(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(kb.sql, "西岭仓现在能正常用的叉车有几台？")
    assert c is not None and c.value == 2.0, c  # 在用, not the one 维修中
    c = aggregate.compute(kb.sql, "西岭仓的叉车有几台？")
    assert c is not None and c.value == 3.0, c  # no state named: every row


@pytest.mark.parametrize(("question", "lead"), [
    ("How much is one night for an 11 m yacht?", "£44"),
    ("What do 7 nights cost for a 9 m boat?", "£216"),
    ("What would three nights cost for my 9 m yacht?", "£108"),
])
async def test_a_length_band_and_the_column_its_count_names(kb, question: str, lead: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb, collections=("harbour",))
    assert out["reply"].startswith(lead), out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


async def test_no_rate_times_nights_when_a_rule_speaks_of_those_nights(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("A gale warning came out and we stayed three nights with our 8 m boat. What do we owe?", kb,
                            collections=("harbour",))
    assert not out["reply"].startswith("£84") and out["verdict"]["level"] != "confirmed", (out["reply"], out["verdict"])


async def test_a_size_the_headers_write_names_its_column(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("用4.2米冷藏车送到60公里外，配送费多少？", kb, collections=("depot",))
    assert out["reply"].startswith("820"), out["reply"]


async def test_a_speed_in_knots_answers_a_speed_limit(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("What's the speed limit once I'm inside the harbour?", kb, collections=("harbour",))
    assert "4 knots" in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]


def test_a_range_check_ignores_clock_times() -> None:
    from knowzero.knowledge.answer.check import number_unused_by_row

    row = "Length overall (LOA): 8.01–10.00 m；Short stay (up to 4 hours, 09:00–17:00): £15；Per night: £36"
    assert number_unused_by_row("A 9 m boat for 3 nights: what's the total?", [row]) == "3"
    assert number_unused_by_row("A 9 m boat for one night?", [row]) is None


def test_a_translation_skips_the_askers_request_and_relations() -> None:
    from knowzero.knowledge.answer.lexicon import Lexicon, translate_to_english

    lex = Lexicon()
    lex._index = {"label": ["标签"], "charge": ["收费"], "to help": ["帮忙"], "turn": ["帮忙"], "later": ["以后"]}
    from knowzero.knowledge.answer.lexicon import _reverse

    lex._english = _reverse(lex._index)
    t = translate_to_english("货进仓以后想让你们帮忙贴个标签，怎么收费？", lex, lambda g: g in {"turn", "later", "charge"},
                             lambda text: ["货", "进仓", "以后", "想", "让", "你们", "帮忙", "贴", "个", "标签", "怎么", "收费"])
    assert t.text is None, t  # one word (charge) is no reading of the question


@pytest.mark.parametrize(("message", "previous", "expected"), [
    ("And in winter?", "Different question: when is the fuel berth open in the summer?",
     "when is the fuel berth open in the winter?"),
    ("那普通货呢？", "换个问题：冷链货物到货发现坏了，要在多长时间内提出理赔？", "普通货物到货发现坏了，要在多长时间内提出理赔？"),
    ("Different question: when does the office open?", "How much is one night?", "Different question: when does the office open?"),
])
def test_follow_ups_swap_a_season_or_a_modifier_and_a_new_topic_stands_alone(message: str, previous: str,
                                                                               expected: str) -> None:
    from knowzero.routing.followup import standalone

    assert standalone(message, previous) == expected


def test_a_topic_change_is_no_part_of_the_question() -> None:
    from knowzero.knowledge.text import query_text

    assert query_text("换个问题：冷链货物坏了，多久内提出理赔？") == "冷链货物坏了，多久内提出理赔？"
    assert query_text("By the way, when is the fuel berth open?") == "when is the fuel berth open?"


@pytest.mark.parametrize(("question", "lead"), [
    ("When is the fuel berth open in the summer?", "08:00–19:00"),
    ("What are the fuel berth hours in January?", "09:00–16:00"),
])
async def test_a_season_or_a_month_names_its_row(kb, question: str, lead: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb, collections=("harbour",))
    assert out["reply"].startswith(lead), out["reply"]


async def test_a_superlative_answered_by_a_quoted_row_is_not_confirmed(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    assert aggregate.asks_to_compute("Among our drivers, who has the most years of total work experience?")
    assert not aggregate.asks_to_compute("零件A的公差是多少？")


def test_one_letter_values_after_their_column_and_a_register_named_by_the_question(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer import aggregate

    c = aggregate.compute(kb.sql, "How many berths on pontoons C and D are set aside for visitors?")
    assert c is not None and c.value == 3.0, c  # not E's visitor berth
    c = aggregate.compute(kb.sql, "Which boat has been berthed with us the longest, going by the berth register?")
    assert c is not None and c.keys == ("Morwenna",), c  # the earliest holder_since, named by its boat


async def test_a_yes_no_question_answered_by_its_rows_own_verb(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("处方药买了能退吗？", kb, collections=("depot",))
    assert "不退换" in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed", out["verdict"]

