"""Extractive reader: sentence choice and the span an answer quotes (pure functions, no models)."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import reader
from knowzero.knowledge.answer.reader import extractive_read, score_sentences, widen_span
from knowzero.knowledge.text import split_sentences
from knowzero.knowledge.types import Passage, Scored


def idf(term: str) -> float:
    return 1.0


def doc(path: str, text: str, title: str = "", start: int = 0) -> Scored:
    return Scored(Passage(f"id-{path}-{start}", path, title, "", text, start, start + len(text), "general", "pool"), 0.0)


def test_answer_is_verbatim_with_exact_offsets() -> None:
    text = "零件A是精密传动轴。零件A的外径公差为±0.01mm，由三坐标测量机检验。检验记录保存五年。"
    p = doc("a.md", text, start=100)
    d = extractive_read("零件A的外径公差是多少？", [p], idf)
    main = d.claims[0]
    assert "±0.01mm" in d.answer
    assert text[main.start - 100 : main.end - 100] == main.quote


def test_leaning_sentence_takes_the_one_before() -> None:
    text = "2004年，他第三次参加奥运会，三次试举全部失败。赛后，他正式结束运动生涯，着手行政工作。此后他担任体育局副局长。"
    d = extractive_read("他什么时候正式结束运动生涯？", [doc("b.md", text)], idf)
    assert d.answer.startswith("2004年，他第三次参加奥运会")
    assert "担任体育局副局长" not in d.answer  # a factual question gets no trailing sentence


def test_announcing_sentence_takes_what_follows() -> None:
    text = "乡里制始于秦汉。其特点主要有以下三点：第一，职官与长者并用。第二，刑禁与教化并施。第三，秩序与晋升一体。"
    sents = split_sentences(text)
    i = next(k for k, s in enumerate(sents) if s.text.startswith("其特点"))
    a, b = widen_span("乡里制有几个要点", sents, i, i)
    assert (a, b) == (i - 1, i + 2)  # "其…" leans back; "以下三点：" leads on


def test_why_question_gets_the_sentences_around_the_match() -> None:
    text = ("次磷酸是一种强还原剂。次磷酸可以将碘还原为氢碘酸，氢碘酸又可以把麻黄碱还原为冰毒。"
            "因此次磷酸被列为易制毒化学品，购买和使用受到严格管制。工业上用次磷酸钠制取。")
    d = extractive_read("为什么次磷酸的购买受到严格管制？", [doc("c.md", text)], idf)
    assert "还原为氢碘酸" in d.answer and "严格管制" in d.answer
    assert len(d.claims[0].quote) < len(text)


def test_alias_question_prefers_the_sentence_giving_another_name() -> None:
    # both sentences share only "龙胆" with the question; the one naming another name wins
    text = "龙胆常见于山坡草丛。龙胆也称为胆草。"
    scored = score_sentences("龙胆又被称之为什么？", [doc("d.md", text)], idf)
    assert scored[0][1].sent.text == "龙胆也称为胆草。"


def test_identity_question_prefers_the_document_lead_sentence() -> None:
    later = doc("yh.md", "杨昊加入陕西队。", start=40)
    lead = doc("yh.md", "杨昊，中国足球运动员。", start=0)
    assert score_sentences("杨昊是谁？", [later, lead], idf)[0][1].passage.start == 0
    assert score_sentences("杨昊加入过哪个队？", [later, lead], idf)[0][1].passage.start == 40


def test_a_passage_covering_the_whole_question_lifts_its_sentences(monkeypatch: pytest.MonkeyPatch) -> None:
    passages = [doc("x.md", "甲公司成立于1990年。总部设在杭州。")]
    with_cov = {c.sent.text: sc for sc, c in score_sentences("甲的总部在哪", passages, idf)}
    monkeypatch.setattr(reader, "PASSAGE_WEIGHT", 0.0)
    without = {c.sent.text: sc for sc, c in score_sentences("甲的总部在哪", passages, idf)}
    assert with_cov.keys() == without.keys()
    assert all(abs(with_cov[k] - without[k] - 0.1) < 1e-9 for k in with_cov)


def test_conflicting_documents_are_listed_and_both_quoted() -> None:
    """Two documents give the asked date with the same day and month (the old check skipped any pair sharing a number)."""
    a = doc("gal.md", "伽利略是意大利科学家。伽利略于1589年7月17日出任比萨大学教授。", title="伽利略")
    b = doc("gal~copy.md", "伽利略是意大利科学家。伽利略于1582年7月17日出任比萨大学教授。", title="伽利略")
    d = extractive_read("伽利略何时出任比萨大学教授？", [a, b], idf)
    assert len(d.conflicts) == 1
    assert d.conflicts[0]["values"] == [["1589年"], ["1582年"]]
    assert {c.source for c in d.claims} == {"gal.md", "gal~copy.md"}
    assert "1589年" in d.answer and "1582年" in d.answer


def test_conflicting_names_are_found_and_different_subjects_are_not() -> None:
    a = doc("hl.md", "《红楼梦》是中国古典小说。《红楼梦》的作者是曹雪芹。", title="红楼梦")
    b = doc("hl2.md", "《红楼梦》是中国古典小说。《红楼梦》的作者是高鹗。", title="红楼梦")
    assert extractive_read("《红楼梦》的作者是谁？", [a, b], idf).conflicts[0]["values"] == [["曹雪芹"], ["高鹗"]]
    pa = doc("a.md", "零件A的公差为±0.01mm。", title="零件A")
    pb = doc("b.md", "零件B的公差为±0.05mm。", title="零件B")
    assert extractive_read("零件B的公差是多少？", [pb, pa], idf).conflicts == []


def test_traditional_questions_and_sentences_read_like_simplified_ones() -> None:
    # the reader's patterns are Simplified: Traditional text is folded before they apply
    assert reader.answer_type("誰創立了這間公司？") == "person"
    assert reader.answer_type("網球比賽最多有幾盤？") == "number"
    assert reader.answer_type("梵語的書寫形式是什麼時候出現的？") == "time"
    assert reader.answer_type("關島哪裡人口最多？") == "place"
    # a number question prefers the sentence holding a number (both share only the subject with it)
    text = "該院位於台北市。該院共有學生三千名，教師兩百人。"
    assert "三千" in extractive_read("該院有多少學生？", [doc("t.md", text)], idf).claims[0].quote
    # "於是…" leans on the sentence before it, as 于是 does
    text = "1990年他參加選舉。於是他正式結束運動生涯。此後他擔任局長。"
    sents = split_sentences(text)
    assert widen_span("他何時結束運動生涯", sents, 1, 1) == (0, 1)
    # why-questions in Traditional get the sentences around the match
    assert widen_span("為什麼他結束運動生涯", sents, 1, 1) == (0, 2)


def test_a_value_question_takes_the_neighbour_holding_the_value() -> None:
    # the question paraphrases the second sentence; the year it asks for is in the first
    text = "1960年代起，台灣經濟快速成長。政府設立加工出口區來增加外貿收入。此後出口持續增加。"
    d = extractive_read("臺灣政府在哪一年代起設立加工出口區來增加外貿收入?", [doc("tw.md", text)], idf)
    assert "1960年代" in d.answer and "此後" not in d.answer
    # a sentence that already holds a value of the asked kind is not widened
    text = "政府於1966年設立加工出口區。此後出口持續增加。1970年出口翻倍。"
    d = extractive_read("政府在哪一年設立加工出口區?", [doc("tw2.md", text)], idf)
    assert d.claims[0].quote == "政府於1966年設立加工出口區。"


def test_the_sentence_giving_the_asked_value_wins_over_one_that_only_mentions_numbers() -> None:
    rules = doc("rules.md", "年假以半天为最小单位。申请3天以内的年假应至少提前3个工作日提交。")
    days = doc("days.md", "员工累计工作已满1年不满10年的，年假5天；已满10年的，年假10天。")
    d = extractive_read("年假有几天？", [rules, days], idf)
    assert d.claims[0].source == "days.md" and "年假5天" in d.answer


@pytest.mark.parametrize(("kind", "text", "held"), [
    ("number", "年假5天", True),
    ("number", "年假为5天", True),
    ("number", "| 年假 | 5天 |", True),
    ("number", "申请3天以内的年假应至少提前3个工作日提交", False),  # a condition on the leave, not its length
    ("number", "年假以半天为最小单位", False),  # the unit it is taken in
    ("number", "年假按标准的1.5倍计算", False),
    ("time", "该公司于1990年成立", True),
    ("time", "成立于1990年", True),
    ("clock", "午餐\n11:30-13:00", True),
    ("clock", "午餐收费10元", False),
])
def test_holds_slot_value(kind: str, text: str, held: bool) -> None:
    assert reader.holds_slot_value(kind, ["年假", "成立", "午餐"], text) is held


def test_a_conflicting_copy_below_the_readers_three_passages_is_still_found() -> None:
    # one document's chunks fill the reader's three passages; the other version of the text ranks fourth
    a1 = doc("a.md", "成公英，金城人，东汉末群雄韩遂的信任将领。", title="成公英")
    a2 = doc("a.md", "韩遂在潼关之战失败后，逃到湟中，唯独成公英跟随。", title="成公英", start=100)
    a3 = doc("a.md", "曹操见到成公英后十分高兴，任命他为军师。", title="成公英", start=200)
    b1 = doc("b.md", "成公英，金城人，东汉末魏舒的信任将领。", title="成公英")
    d = extractive_read("成公英是谁的将领？", [a1, a2, a3, b1], idf)
    assert d.claims[0].source == "a.md" and len(d.conflicts) == 1
    assert {"a.md", "b.md"} <= {c.source for c in d.claims}  # both versions quoted


def test_a_disagreement_about_another_kind_of_value_is_no_conflict() -> None:
    a = doc("a.md", "严长寿于1999年7月请辞圆山饭店总经理。", title="严长寿")
    b = doc("b.md", "严长寿于1999年9月请辞圆山饭店总经理。", title="严长寿")
    assert extractive_read("严长寿于1999年几月请辞？", [a, b], idf).conflicts  # the asked month: a conflict
    assert not extractive_read("严长寿是在哪里请辞的？", [a, b], idf).conflicts  # a place was asked


def test_a_models_verbatim_quote_gets_the_context_the_offline_reader_gives_a_sentence() -> None:
    # the model quotes only the sentence with "这项制度"; what the system was is in the sentence before
    import json

    from kz_testlib import ScriptedProvider

    text = "当一个队员成为职业选手后，他就不能参加业余选手赛。1968年，由于商业的压力导致这项制度的废弃，网球进入了开放年代。"
    quote = "1968年，由于商业的压力导致这项制度的废弃，网球进入了开放年代。"
    question = "网球因为什么制度的废弃而进入开放年代？"

    def model(text_: str) -> ScriptedProvider:
        return ScriptedProvider([json.dumps({"answer": text_, "claims": [{"text": text_, "passage": 1, "quote": quote}]},
                                            ensure_ascii=False)])

    d = reader.llm_read(model(quote), question, [doc("c.md", text)])
    assert d.claims[0].quote == text and d.claims[0].text == text, "widened like the offline reader's quote"
    assert extractive_read(question, [doc("c.md", text)], idf).claims[0].quote == text
    # a reworded claim keeps its own words and its quote: widening is for quotes shown as they are
    worded = "商业压力使这项制度被废弃。"
    d = reader.llm_read(model(worded), question, [doc("c.md", text)])
    assert d.claims[0].text == worded and d.claims[0].quote == quote


def test_two_versions_of_the_answers_document_disagreeing_in_a_sentence_it_does_not_quote_are_named() -> None:
    # the reader quotes the film's lead sentence; the asked year is two sentences on, changed in the copy
    def film(year: str) -> str:
        return ("The Great Outdoors is a 1988 American comedy film starring Annette Bening. It was shot in Wisconsin. "
                f"In {year}, she received a star on the Hollywood Walk of Fame.")
    a = doc("film.md", film("2006"), title="The Great Outdoors")
    b = doc("film~copy.md", film("2015"), title="The Great Outdoors")
    q = "The 1988 American comedy film The Great Outdoors starred an actress who received a star in what year?"
    d = extractive_read(q, [a, b], idf)
    assert d.conflicts and [[x.strip(",") for x in side] for side in d.conflicts[0]["values"]] == [["2006"], ["2015"]]
    assert "2006" in d.answer and "2015" in d.answer and {c.source for c in d.claims} == {"film.md", "film~copy.md"}


def test_two_versions_of_another_document_are_not_the_answers_conflict() -> None:
    # a third document's two versions disagree about its own figure: not about the question asked
    a = doc("fish.md", "The blue-lined sea bream is a fish of the Indo-Pacific. It grows to 80 cm long.", title="Blue-lined sea bream")
    c1 = doc("other.md", "The yellowfin goatfish is a reef fish. It grows to 50 cm long.", title="Yellowfin goatfish")
    c2 = doc("other~copy.md", "The yellowfin goatfish is a reef fish. It grows to 32 cm long.", title="Yellowfin goatfish")
    d = extractive_read("How long does the blue-lined sea bream grow?", [a, c1, c2], idf)
    assert d.claims[0].source == "fish.md" and d.conflicts == []
