"""Answerability features (knowledge/answer/checks/answerable.py): pure functions over texts."""

from knowzero.knowledge.answer import policy
from knowzero.knowledge.answer.checks import answerable as an


def test_asked_kind_in_both_scripts():
    assert an.asked_kind("杨昊为什么加盟贵州人和？") == "reason"
    assert an.asked_kind("《越南亡国史》在什么时候被写成？") == "time"
    assert an.asked_kind("淮海中路街道的人口密度是多少？") == "number"
    assert an.asked_kind("成吉思汗的長子是誰?") == "person"  # Traditional: folded before matching
    assert an.asked_kind("2025年度年会在哪里举办？") == "place"
    assert an.asked_kind("零件A的公差是±0.01mm吗？") is None


def test_present_forgives_segmentation_artefacts_but_not_other_names():
    doc = "1865年林肯遇刺。兆康苑位于屯门。发生安全生产事故时须上报。"
    assert an.present("林肯", doc)
    assert an.present("年林肯", doc)       # a unit glued after a number
    assert an.present("以兆康苑", doc)     # a function character glued in front
    assert an.present("安全事故", doc)     # a compound the document writes apart
    assert not an.present("罗保铭", doc)
    assert not an.present("宠物", doc)


def _f(question, doc, quote, title="", terms=None):
    terms = terms or [("罗保铭", 8.0), ("担任", 3.0), ("职务", 3.5)]
    return an.features(question, terms, doc_text=f"{title} {doc}", title=title, quotes=[quote], contexts=[quote])


def test_subject_missing_from_the_cited_document():
    """Another official's career paragraph: predicate and dates match, the subject does not."""
    doc = "2017年4月，叶盛茂担任国家安全部副部长。"
    f = _f("2017年4月，罗保铭担任什么职务？", doc, doc, title="叶盛茂")
    assert f.subject < 1.0
    g = _f("2017年4月，罗保铭担任什么职务？", doc.replace("叶盛茂", "罗保铭"), doc.replace("叶盛茂", "罗保铭"), title="罗保铭")
    assert g.subject == 1.0


def test_slot_must_fill_the_predicate_clause_with_a_new_value():
    terms = [("越南亡国史", 6.0), ("写成", 4.0)]
    q = "《越南亡国史》在哪一年被写成？"
    near = _f(q, "潘佩珠写成《越南亡国史》，该书影响深远，1920年再版。", "潘佩珠写成《越南亡国史》，该书影响深远。", terms=terms)
    hit = _f(q, "1905年，潘佩珠写成《越南亡国史》。", "1905年，潘佩珠写成《越南亡国史》。", terms=terms)
    assert near.slot == 0.0 and hit.slot == 1.0
    # a number the question already holds is not an answer
    echo = _f("2017年4月罗保铭担任什么职务，任期几年？", "2017年4月罗保铭担任书记。", "2017年4月罗保铭担任书记。")
    assert echo.slot == 0.0


def test_shipped_model_never_lowers_answerability_for_more_evidence():
    assert len(an.WEIGHTS) == len(an.FEATURES) and all(w >= 0 for w in an.WEIGHTS)
    weak = an.Features(*(0.2 for _ in an.FEATURES))
    strong = an.Features(*(1.0 for _ in an.FEATURES))
    assert an.score(weak) < an.THRESHOLD <= an.score(strong)


def test_a_question_word_the_knowledge_base_never_uses_is_named():
    """"员工宠物医疗保险的报销比例是多少？" against the medical-insurance page: 宠物 occurs in no document."""
    doc = "补充商业医疗保险 员工补充商业医疗保险的报销比例为80%。"
    terms = [("员工", 1.3), ("宠物", 6.6), ("医疗保险", 5.0), ("报销", 2.9), ("比例", 4.7), ("几日", 6.6)]
    df = {"员工": 40, "医疗保险": 3, "报销": 9, "比例": 5}.get
    assert an.unknown_terms("员工宠物医疗保险的报销比例是多少？", terms, doc, lambda t: df(t, 0)) == ["宠物"]


def test_question_words_are_no_key_terms_in_either_script(small_kb):
    """"何年", "哪一位", Taiwanese "甚麼" are how a question asks, not what it is about: counted as terms
    (no passage holds them, so they had the highest IDF) they sank coverage of right answers."""
    from knowzero.knowledge.answer.retriever import key_terms
    from knowzero.knowledge.text import question_word

    assert [t for t in ("何年", "哪一位", "甚么", "几世纪", "几乎", "几何", "何韵诗") if question_word(t)] == \
        ["何年", "哪一位", "甚么", "几世纪"]
    for q in ("零件A的外圆公差是在何年規定的？", "零件A的外圓公差是甚麼？", "哪一位員工負責零件A的外圓公差？"):
        terms = [t for t, _ in key_terms(small_kb, q)]
        assert "公差" in terms and not any(question_word(t) for t in terms), (q, terms)
    assert an.asked_kind("該區在甚麼時候設立?") == "time"


def test_a_disagreement_on_the_asked_value_fills_the_slot() -> None:
    assert an.conflict_fills_slot("该剧共有多少集？", [["40集"], ["52集"]])
    assert an.conflict_fills_slot("他哪一年出生？", [["1990年"], ["1985年"]])
    assert not an.conflict_fills_slot("他哪一年出生？", [["北京"], ["上海"]])  # a place is not a year
    assert not an.conflict_fills_slot("该剧共有多少集？", [["40集"], []])
    assert an.conflict_fills_slot("这首歌的作者是谁？", [["周杰伦"], ["林俊杰"]])


def _weak() -> an.Features:
    return an.Features(coverage=0.6, sentence_coverage=0.4, focus=0.3, subject=1.0, slot=0.0, similarity=0.4,
                       clause_focus=0.3, clause_all=0.4, clause_subject=1.0, bigram_clause=0.3)


def test_a_disagreement_on_the_asked_slot_is_named_not_vetoed():
    from knowzero.knowledge.answer.check import answerability_gate
    from knowzero.knowledge.answer.reader import Claim, Draft
    from knowzero.knowledge.answer.reply import compose_reply

    f = _weak()
    prob = an.score(f)
    assert prob < an.THRESHOLD
    judged = policy.Verdict("uncertain", "sources disagree; both are listed", [], 0.9, True)
    conflict = {"sources": ["a.md", "b.md"], "values": [["40集"], ["52集"]], "quotes": ["该剧共有40集。", "该剧共有52集。"]}
    v = answerability_gate("该剧共有多少集？", judged, prob, f, [conflict])
    assert v.level == "uncertain" and v.needs_human_review and "40集" in v.reason and "52集" in v.reason
    claims = [Claim("全剧共40集。", "a.md", "全剧共40集。", 0, 6, "pa"), Claim("全剧共52集。", "b.md", "全剧共52集。", 0, 6, "pb")]
    reply = compose_reply("该剧共有多少集？", Draft("", claims, [conflict]), v)
    assert "40集" in reply and "52集" in reply and "a.md" in reply and "b.md" in reply and "说法不一" in reply
    # the same weak evidence without a disagreement, or one about another kind of value, still abstains
    assert answerability_gate("该剧共有多少集？", judged, prob, f, []).level == "insufficient"
    dates = {"sources": ["a.md", "b.md"], "values": [["北京"], ["上海"]]}
    assert answerability_gate("该剧共有多少集？", judged, prob, f, [dates]).level == "insufficient"
    # strong evidence is left alone
    assert answerability_gate("该剧共有多少集？", judged, 0.99, f, []) is judged


def test_disputed_slot_names_a_disagreement_on_the_asked_slot_only():
    from knowzero.knowledge.answer.check import disputed_slot

    low = policy.Verdict("insufficient", "the sources cover only 45% of the question", [], 0.45, False)
    years = {"sources": ["a.md", "b.md"], "values": [["1871年"], ["1869年"]]}
    assert disputed_slot("德意志帝國於何年建立?", low, [years]).level == "uncertain"
    assert disputed_slot("德意志帝國於何年建立?", low, []).level == "insufficient"
    assert disputed_slot("德意志帝國的首都在哪裡?", low, [years]).level == "insufficient"  # years are no place


def test_a_disagreement_about_none_of_the_questions_words_fills_no_slot():
    values = [["±0.01mm"], ["±0.05mm"]]
    texts = ["零件A的外圆公差为±0.01mm。", "零件B的外圆公差为±0.05mm。", "零件A工艺说明", "零件B工艺说明"]
    assert an.conflict_fills_slot("零件的外圆公差是多少？", values, texts)
    assert not an.conflict_fills_slot("公司的股票代码是多少？", values, texts)


def test_common_phrasings_of_time_place_person_questions_are_typed():
    assert an.asked_kind("解放軍於何年大敗國軍?") == "time"
    assert an.asked_kind("完形心理學派在哪一個世紀的時候出現?") == "time"
    assert an.asked_kind("峨眉山位在中國的哪一個省境內?") == "place"
    assert an.asked_kind("2008年歐國盃的主辦國家是哪一個國家?") == "place"
    assert an.asked_kind("此概念最早由何人提出?") == "person"


def test_a_year_question_is_filled_by_a_year_not_by_a_dynasty_word():
    q = "李成桂在哪一年時反對出兵遼東?"
    assert not an.fills("time", "李成桂反对出兵，回军发动政变，控制高丽王朝军政大权", q)
    assert an.fills("time", "1388年，高丽国王王禑派李成桂进攻辽东", q)


def test_segmentation_artefacts_are_no_key_terms(small_kb):
    """Found on DRCD: "卡尔梅克人大多" → 人大, "罗默为", "战于", 陆陆续续 → 陆陆, 哪|一片, 哪|一区: tokens
    no document holds, so they carried the highest IDF and sank coverage of right answers."""
    from knowzero.knowledge.answer.retriever import key_terms, unglued

    known = {"罗默", "战"}.__contains__
    assert [unglued(t, known) for t in ("罗默为", "战于", "陆陆", "个个", "宠物", "于是", "所创")] == \
        ["罗默", "战", "", "", "宠物", "于是", "所创"]
    terms = [t for t, _ in key_terms(small_kb, "员工陆陆续续申请年假需提前几天？")]
    assert "陆陆" not in terms and {"陆续", "年假", "提前"} <= set(terms)
    assert [t for t, _ in key_terms(small_kb, "员工年假是哪一片规定的？")] == ["员工", "年假"]
    assert "部分" in [t for t, _ in key_terms(small_kb, "哪一部分零件的外圓公差為±0.01mm？")]
    # an unseen word that is no artefact stays: it says the sources may be about something else
    assert "宠物" in [t for t, _ in key_terms(small_kb, "员工宠物的年假有几天？")]


def test_single_characters_that_name_nothing_and_the_negated_half_of_a_question_are_no_key_terms(small_kb):
    """A colloquial question ("居住证过了一年没去签注，会怎么样？") was declined for covering 29% of its terms: 过, 没 and
    去 counted as much as 签注. An A-not-A question's negated half (能不能 → 不能) is no term either; a unit is."""
    from knowzero.knowledge.answer.retriever import key_terms

    terms = [t for t, _ in key_terms(small_kb, "员工的年假过了一年没去休，会怎么样？")]
    assert not {"过", "没", "去"} & set(terms) and "年假" in terms
    assert "不能" not in [t for t, _ in key_terms(small_kb, "员工能不能把年假分几次休？")]
    assert "元" in [t for t, _ in key_terms(small_kb, "出差住宿费每晚上限是800元吗？")]
