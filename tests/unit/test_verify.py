"""Verification rules: quotes, numbers, negation, coverage, judge levels, free-text answers
(HaluEval-style, including comparisons)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowzero.knowledge import verify as v

HALUEVAL = Path(__file__).parents[1] / "data" / "halueval" / "qa_sample.jsonl"


# ----- quotes and numbers
def test_quote_must_be_the_source_text_at_its_offsets() -> None:
    src = "零件A的外圆公差为±0.01mm。零件B为±0.05mm。"
    i = src.index("零件B")
    assert v.quote_matches(src, "零件B为±0.05mm。", i, len(src))
    assert not v.quote_matches(src, "零件B为±0.05mm。", i - 1, len(src) - 1)  # shifted
    assert not v.quote_matches(src, "零件B为±0.01mm。", i, len(src))  # edited
    assert not v.quote_matches(src, "x", 5, 5)  # empty span
    assert not v.quote_matches(src, src, 0, len(src) + 1)  # out of range


@pytest.mark.parametrize(("claim", "evidence", "missing"), [
    ("零件A的公差为±0.01mm", "零件A的外圆公差为±0.01mm。", []),
    ("零件A的公差为±0.05mm", "零件A的外圆公差为±0.01mm。", ["±0.05mm"]),
    ("年假5天，提前3天申请", "每年享有5天带薪年假，需提前3天申请。", []),
    ("年假7天", "每年享有5天带薪年假。", ["7天"]),
    ("单价1,280元", "单价1280元", []),  # thousands separators
    ("温度超过60℃停机", "主轴温度超过６０℃时应停机。", []),  # full-width digits
    ("没有数字的说法", "任何证据", []),
])
def test_missing_numbers(claim: str, evidence: str, missing: list[str]) -> None:
    assert v.missing_numbers(claim, evidence) == missing


def test_claim_with_a_wrong_number_is_contradicted() -> None:
    cv = v.check_claim("零件A的公差为±0.05mm。", "零件A的公差为±0.01mm。")
    assert cv.level == "contradicted"
    assert cv.checks["numbers"] is False
    assert any("0.05" in r for r in cv.reasons)


# ----- negation
def test_negation_flip_detects_a_negated_restatement() -> None:
    assert v.negation_flip("主轴不需要预热十分钟后才能精加工", "主轴需要预热十分钟后才能精加工")
    assert v.negation_flip("The spindle is not warmed up before precision work",
                           "The spindle is warmed up before precision work")


def test_negation_both_sides_or_unrelated_is_not_a_flip() -> None:
    assert not v.negation_flip("不得用压缩空气吹主轴锥孔", "严禁且不得用压缩空气吹主轴锥孔")
    assert not v.negation_flip("员工不需要打卡", "食堂供应午餐和晚餐，班车七点半出发")
    assert not v.negation_flip("不行", "行")  # too short to judge


def test_claim_negating_its_source_is_contradicted() -> None:
    cv = v.check_claim("主轴不需要预热十分钟后才能进行精加工。", "主轴需要预热十分钟后才能进行精加工。")
    assert cv.level == "contradicted" and cv.checks["negation"] is False


def test_generated_claim_adding_words_is_uncertain_verbatim_quote_is_confirmed() -> None:
    evidence = "员工工作满一年后每年享有5天带薪年假。"
    added = v.check_claim("员工每年享有5天带薪年假和免费旅游。", evidence)
    assert added.level == "uncertain" and added.checks["terms"] is False
    quoted = v.check_claim(evidence, evidence, verbatim=True)
    assert quoted.level == "confirmed" and "terms" not in quoted.checks


def test_words_from_the_question_are_not_new_information() -> None:
    assert v.unsupported_terms("年假有5天", "每年享有5天带薪假期", question="年假有几天？") == []
    assert v.unsupported_terms("Blur was formed in London", "Blur formed in London in 1988.") == []  # stems


# ----- coverage
def test_coverage_is_idf_weighted() -> None:
    terms = [("零件a", 3.0), ("公差", 1.0)]
    assert v.coverage(terms, "零件A的公差") == 1.0
    assert v.coverage(terms, "零件A的粗糙度") == pytest.approx(0.75)
    assert v.coverage(terms, "零件B的公差") == pytest.approx(0.25)
    assert v.coverage([], "任何") == 0.0


# ----- judge levels
def ok() -> v.ClaimVerdict:
    return v.ClaimVerdict("confirmed", {"numbers": True})


@pytest.mark.parametrize(("kwargs", "level", "review"), [
    ({"claims": [ok()], "coverage_value": 0.9, "entity_ok": True, "conflicts": 0}, "confirmed", False),
    ({"claims": [], "coverage_value": 0.9, "entity_ok": True, "conflicts": 0}, "insufficient", False),
    ({"claims": [ok()], "coverage_value": 0.9, "entity_ok": True, "conflicts": 0, "quotes_ok": False},
     "insufficient", False),
    ({"claims": [ok()], "coverage_value": 0.9, "entity_ok": False, "conflicts": 0}, "insufficient", False),
    ({"claims": [ok()], "coverage_value": v.MIN_COVERAGE - 0.01, "entity_ok": True, "conflicts": 0},
     "insufficient", False),
    ({"claims": [ok(), v.ClaimVerdict("contradicted", {"numbers": False}, ["numbers"])], "coverage_value": 0.9,
      "entity_ok": True, "conflicts": 0}, "contradicted", True),
    ({"claims": [ok()], "coverage_value": 0.9, "entity_ok": True, "conflicts": 1}, "uncertain", True),
    ({"claims": [v.ClaimVerdict("uncertain", {"terms": False}, ["words"])], "coverage_value": 0.9,
      "entity_ok": True, "conflicts": 0}, "uncertain", True),
    ({"claims": [ok()], "coverage_value": 0.9, "entity_ok": True, "conflicts": 0,
      "sentence_coverage": v.CONFIRM_SENTENCE_COVERAGE - 0.01}, "uncertain", True),
    # a paraphrased question: coverage a little short, the cited passage close in meaning
    ({"claims": [ok()], "coverage_value": v.RESCUE_COVERAGE, "entity_ok": True, "conflicts": 0,
      "similarity": v.RESCUE_SIMILARITY}, "uncertain", True),
    ({"claims": [ok()], "coverage_value": v.MIN_COVERAGE - 0.01, "entity_ok": True, "conflicts": 0,
      "similarity": v.RESCUE_SIMILARITY - 0.01}, "insufficient", False),
    ({"claims": [ok()], "coverage_value": v.RESCUE_COVERAGE - 0.01, "entity_ok": True, "conflicts": 0,
      "similarity": 0.99}, "insufficient", False),
    ({"claims": [ok()], "coverage_value": v.RESCUE_COVERAGE, "entity_ok": False, "conflicts": 0,
      "similarity": 0.99}, "insufficient", False),
    ({"claims": [v.ClaimVerdict("contradicted", {"numbers": False}, ["numbers"])], "coverage_value": 0.5,
      "entity_ok": True, "conflicts": 0, "similarity": 0.99}, "contradicted", True),
])
def test_judge_levels(kwargs: dict, level: str, review: bool) -> None:
    verdict = v.judge(**kwargs)
    assert verdict.level == level
    assert verdict.needs_human_review is review
    assert verdict.reason
    d = verdict.to_dict()
    assert d["level"] == level and d["needs_human_review"] is review and set(d) >= {"reason", "coverage", "claims"}


def test_judge_precedence_insufficient_beats_contradicted() -> None:
    bad = v.ClaimVerdict("contradicted", {"numbers": False})
    assert v.judge([bad], coverage_value=0.1, entity_ok=True, conflicts=0).level == "insufficient"
    assert v.judge([bad], coverage_value=0.9, entity_ok=True, conflicts=2).level == "contradicted"


def test_levels_are_the_documented_four() -> None:
    assert set(v.LEVELS) == {"confirmed", "uncertain", "insufficient", "contradicted"}


# ----- free-text answers (HaluEval style)
BANDS = "Blur are an English rock band formed in London in 1988. Oasis were an English rock band formed in Manchester in 1991."


def test_comparison_winner_from_dates() -> None:
    assert v.comparison_winner("Which band was formed earlier, Blur or Oasis?", BANDS) == "Blur"
    assert v.comparison_winner("Which band was formed later, Blur or Oasis?", BANDS) == "Oasis"
    assert v.comparison_winner("Which band is louder, Blur or Oasis?", BANDS) is None  # not a date comparison
    assert v.comparison_winner("Which band was formed first, Blur or Pulp?", BANDS) is None  # no date for Pulp


@pytest.mark.parametrize(("question", "answer", "level"), [
    ("Which band was formed earlier, Blur or Oasis?", "Blur", "confirmed"),
    ("Which band was formed earlier, Blur or Oasis?", "Oasis", "contradicted"),
    ("Which band was formed later, Blur or Oasis?", "Oasis", "confirmed"),
    ("Which band was formed later, Blur or Oasis?", "Blur", "contradicted"),
    ("When was Blur formed?", "1988", "confirmed"),
    ("When was Blur formed?", "1989", "contradicted"),
    ("Where was Oasis formed?", "Manchester", "confirmed"),
    ("Where was Oasis formed?", "Liverpool", "uncertain"),
    ("Where was Oasis formed?", "Oasis was formed in Manchester, the home of Joy Division", "uncertain"),
    ("Is Blur an English band?", "Yes", "confirmed"),
])
def test_check_answer(question: str, answer: str, level: str) -> None:
    assert v.check_answer(question, answer, BANDS).level == level


def test_check_answer_rejects_an_answer_stitched_from_different_sentences() -> None:
    # "London" comes from Blur's sentence, "1991" from Oasis's: every word is in the source, the fact is not
    cv = v.check_answer("Where was Oasis formed?", "Oasis was formed in London in 1991", BANDS)
    assert cv.level != "confirmed"
    assert cv.checks["one_sentence"] is False


def test_similarity_hook_is_a_check() -> None:
    low = v.check_answer("Where was Oasis formed?", "Manchester", BANDS, similarity=lambda a, b: 0.1)
    high = v.check_answer("Where was Oasis formed?", "Manchester", BANDS, similarity=lambda a, b: 0.9)
    assert low.checks["similarity"] is False and low.level != "confirmed"
    assert high.level == "confirmed"


def test_halueval_slice() -> None:
    """The checker accepts right answers and rejects hallucinated ones on a HaluEval QA slice."""
    rows = [json.loads(line) for line in HALUEVAL.read_text("utf-8").splitlines() if line.strip()]
    assert len(rows) >= 8
    right = [v.check_answer(r["question"], r["right_answer"], r["knowledge"]).level == "confirmed" for r in rows]
    hallu = [v.check_answer(r["question"], r["hallucinated_answer"], r["knowledge"]).level != "confirmed"
             for r in rows]
    assert all(right), [r["question"] for r, okay in zip(rows, right, strict=True) if not okay]
    accuracy = (sum(right) + sum(hallu)) / (2 * len(rows))
    assert accuracy >= 0.9, accuracy
    # the two hallucinations that restate a wrong city / a wrong name must be caught
    by_q = {r["question"]: r for r in rows}
    oberoi = next(r for q, r in by_q.items() if "Oberoi" in q)
    assert v.check_answer(oberoi["question"], oberoi["hallucinated_answer"], oberoi["knowledge"]).checks["entities"] is False


def test_claim_similarity_check_flags_a_claim_unlike_its_quote() -> None:
    from knowzero.knowledge.verify import SIMILARITY_MIN, check_claim

    ok = check_claim("零件A的公差为±0.01mm", "零件A的外圆公差为±0.01mm。", similarity=SIMILARITY_MIN + 0.05)
    assert ok.level == "confirmed" and ok.checks["similarity"] is True
    bad = check_claim("公司在北京成立", "零件A的外圆公差为±0.01mm。", similarity=SIMILARITY_MIN - 0.05)
    assert bad.level != "confirmed" and bad.checks["similarity"] is False
