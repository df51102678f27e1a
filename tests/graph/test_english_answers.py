"""English questions over English documents: the same honesty as in Chinese (issue 14).

Found asking by hand: "How many seats does the parliament have?" was declined (the auxiliary "have" counted
as a key term no document holds), and "How long is the Danube?" was answered `confirmed` with the next
sentence's "The longest river … is the Blue River, 820 km long." (another subject's number).
"""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.pipeline import answer_sync
from knowzero.knowledge.answer.reader import about_question
from knowzero.knowledge.answer.retriever import key_terms
from kz_testlib import make_kb

DOCS = {
    "general/parliament.md": "# Parliament\n\nThe parliament of Freedonia has 170 seats, elected every four years.\n",
    "general/parliament-2020.md": "# Parliament 2020\n\nAfter the election the parliament of Freedonia has 70 seats "
                                  "in total.\n",
    "general/rivers.md": "# Rivers\n\nThe Danube flows through Vienna. The longest river in Freedonia is the Blue "
                         "River, 820 km long.\n",
    # two versions of one paragraph whose value sits in its second sentence (HaluEval-style, synthetic)
    "general/hot-coffee.md": "# Hot Coffee\n\nHot Coffee is a locale in Covington County that shares a zipcode with "
                             "nearby Collins. The population of Collins was 2,579 at the 2010 census.\n",
    "general/hot-coffee-copy.md": "# Hot Coffee (copy)\n\nHot Coffee is a locale in Covington County that shares a "
                                  "zipcode with nearby Collins. The population of Collins was 4,913 at the 2010 census.\n",
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("english") / "kz", DOCS)
    yield kb
    kb.engine.dispose()


def test_auxiliaries_and_how_much_words_are_no_key_terms(kb) -> None:  # type: ignore[no-untyped-def]
    assert [t for t, _ in key_terms(kb, "How many seats does the parliament of Freedonia have?")] == \
        ["seats", "parliament", "freedonia"]
    assert [t for t, _ in key_terms(kb, "How long is the Danube?")] == ["danube"]


def test_two_sources_disagreeing_on_the_asked_number_are_both_named(kb) -> None:  # type: ignore[no-untyped-def]
    a = answer_sync("How many seats does the parliament of Freedonia have?", KnowledgeDeps(kb, kb.settings))
    assert a.verdict.level in ("uncertain", "contradicted") and a.verdict.needs_human_review
    assert "170" in a.reply and "70 seats" in a.reply
    assert {c["source"].rsplit("/", 1)[-1] for c in a.citations} == {"parliament.md", "parliament-2020.md"}


def test_another_subjects_number_is_not_the_answer(kb) -> None:  # type: ignore[no-untyped-def]
    a = answer_sync("How long is the Danube?", KnowledgeDeps(kb, kb.settings))
    assert "820" not in a.reply
    assert a.verdict.level != "confirmed"
    right = answer_sync("How long is the Blue River?", KnowledgeDeps(kb, kb.settings))
    assert "820 km" in right.reply and right.verdict.level == "confirmed"


def test_an_english_sentence_sharing_no_word_with_the_question_is_about_something_else() -> None:
    q = "How long is the Danube?"
    assert not about_question(q, "The longest river in Freedonia is the Blue River, 820 km long.")
    assert about_question(q, "It is 2,850 km long.")  # refers back to the sentence before
    assert about_question(q, "The Danube is 2,850 km long.")
    assert about_question("多瑙河有多长？", "全长2850公里。")  # Chinese leaves the subject out: never filtered


def test_a_disagreement_in_the_answers_second_sentence_is_named(kb) -> None:  # type: ignore[no-untyped-def]
    q = "Hot Coffee shares a zipcode with a nearby city with what population at the 2010 census?"
    a = answer_sync(q, KnowledgeDeps(kb, kb.settings))
    assert "2,579" in a.reply and "4,913" in a.reply and a.verdict.level != "confirmed"


def test_a_number_inside_a_longer_one_is_not_a_word_both_sentences_name() -> None:
    from knowzero.knowledge.answer.checks.conflicts import value_conflict

    # "5" of "WNP-5" is no word of "1957": both sentences name the same words of the question
    assert value_conflict("WNP-3 and WNP-5 were built by the agency formed in which year?",
                          "The Washington Public Power Supply System was formed in 1957.",
                          "The Washington Public Power Supply System was formed in 1174.") == \
        {"values": [["1957"], ["1174"]]}
