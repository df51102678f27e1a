"""Issue 33, deliver 2: an English question's terms put in the documents' own Chinese words — the word that
stands in the same passages as the other terms' words (not the commonest gloss), a one-character hit widened to
the glosses ending with the word ("on duty" → 值班), superlatives, ages, plurals, "Ph.D." — and a word the dictionary
cannot place matched to the nearest passages' words by the multilingual sentence encoder."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.knowledge.answer.lexicon import Lexicon, _reverse, _tails, translate

PASSAGES = {
    "p1": "首次申领居住证，办理时限10个工作日。",
    "p2": "每次签注一次，逾期一次不补。",
    "p3": "工作日夜间值班补贴每次100元。",
    "p4": "驾驶员连续驾驶最长不得超过3.5小时。",
    "p5": "90周岁以上老人每月高龄津贴300元。",
}


def _lexicon(index: dict[str, list[str]]) -> Lexicon:
    lex = Lexicon()
    lex._index = index
    lex._tail = _tails(index)
    lex._ending = _tails(index, every=True)
    lex._english = _reverse(index)
    return lex


def _known(word: str) -> bool:
    return any(word in t for t in PASSAGES.values())


def _together(word: str) -> frozenset[str]:
    return frozenset(k for k, t in PASSAGES.items() if word in t)


def _freq(word: str) -> float:
    return float(sum(t.count(word) for t in PASSAGES.values()))


def test_the_word_that_stands_with_the_other_terms_wins_over_the_commonest() -> None:
    lex = _lexicon({"first": ["一次", "首次"], "residence permit": ["居住证"], "application": ["申领"]})
    q = "How long does a first residence permit application take?"
    assert translate(q, lex, _known, _freq).text == "一次居住证申领多久？"  # by frequency alone: 一次
    assert translate(q, lex, _known, _freq, together=_together).text == "首次居住证申领多久？"


def test_a_one_character_hit_tries_the_glosses_ending_with_the_word() -> None:
    lex = _lexicon({"duty": ["职"], "on duty": ["值班"], "allowance": ["补贴"], "night": ["夜间"]})
    assert translate("What is the night duty allowance?", lex, lambda w: w in {"职", "值班", "补贴", "夜间"},
                     _freq, together=_together).text == "夜间值班补贴什么？"


def test_superlatives_ages_and_plurals() -> None:
    lex = _lexicon({"long": ["长"], "driver": ["驾驶员"], "allowance": ["津贴"], "city": ["城市"],
                    "cities": ["城邑"], "doctor": ["博士"], "ph.d.": ["博士"]})
    known = {"最长", "驾驶员", "津贴", "城市", "博士"}.__contains__
    assert translate("What is the longest a driver may drive?", lex, known, _freq).text == "最长驾驶员什么？"
    assert translate("What allowance does a 92-year-old get?", lex, known, _freq).text == "津贴92岁什么？"
    assert lex.chinese("cities") == ["城邑", "城市"]  # the plural's own rare entry and the singular's word


def test_a_gloss_written_with_dots_is_found_without_them(tmp_path: Path) -> None:
    f = tmp_path / "cedict.txt"
    f.write_text("博士 博士 [bo2 shi4] /doctor/Ph.D./\n", encoding="utf-8")
    assert Lexicon(f).chinese("PhD") == ["博士"]


def test_a_word_the_dictionary_cannot_place_takes_the_nearest_passage_word() -> None:
    lex = _lexicon({"allowance": ["津贴"], "monthly": ["每月"]})
    got = translate("What is the monthly stipend?", lex, lambda w: w in {"津贴", "每月"}, _freq,
                    nearest=lambda w: "津贴" if w == "stipend" else None)
    assert got.text == "每月津贴什么？" and got.missed == ()


@pytest.mark.slow
def test_the_sentence_encoder_puts_hotel_on_the_documents_word(tmp_path: Path) -> None:
    """The real multilingual encoder and dense vectors: "hotel" is 住宿 in a policy that never writes 酒店."""
    from knowzero.knowledge.answer.pipeline import DocumentWords
    from kz_testlib import make_kb

    kb = make_kb(tmp_path / "kz", {"差旅.md": "# 差旅标准\n\n员工出差住宿上限每晚550元，伙食补助每天120元。\n"})
    kb.embed_pending()
    words = DocumentWords("What is the hotel limit per night for business trips?", kb, (), Lexicon())
    assert words.nearest("hotel") == "住宿"
    assert words.nearest("regular") is None


def test_years_worked_said_before_the_number_are_tenure() -> None:
    lex = _lexicon({"paid vacation": ["带薪休假"], "research assistant": ["科研助理"]})
    known = {"带薪休假", "科研助理", "工龄"}.__contains__
    q = "I'm a research assistant and have worked at the Qingyuan lab for 4 years. How many days of paid vacation do I get?"
    assert translate(q, lex, known, _freq).text == "科研助理工龄4年带薪休假多少天？"
