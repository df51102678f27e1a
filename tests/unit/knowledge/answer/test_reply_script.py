"""A question written in Traditional characters reads our own words in Traditional characters; quotes,
values and document names stay exactly as their documents write them (pure: compose_reply)."""

from __future__ import annotations

from knowzero.knowledge.answer.policy import Verdict
from knowzero.knowledge.answer.reader import Claim, Draft
from knowzero.knowledge.answer.reply import compose_reply


def verdict(level: str) -> Verdict:
    return Verdict(level, "", [], 1.0, level != "confirmed")  # type: ignore[arg-type]


QUOTE = "议会共有170个议席"  # a Simplified document quoted for a Traditional question: never converted
CLAIM = Claim(QUOTE, "a.md", QUOTE, 0, len(QUOTE), "p1", "议会")
CONFLICT = {"sources": ["a.md", "b.md"], "values": [["170个"], ["70个"]], "quotes": [QUOTE, "议会共有70个议席"]}


def test_a_traditional_question_gets_traditional_wording_and_untouched_quotes() -> None:
    q = "議會共有多少個議席？"
    assert compose_reply(q, Draft("", []), verdict("insufficient")) == "知識庫中沒有足夠的信息回答這個問題，我不做猜測。"
    reply = compose_reply(q, Draft(QUOTE, [CLAIM], [CONFLICT]), verdict("uncertain"))
    assert reply.startswith("⚠️ 不同文檔對此說法不一，以下分別引用，請核實以哪份為準：" + QUOTE + "[1]")
    assert "注意：不同文檔說法不一（a.md：170个；b.md：70个），請核實以哪份為準。" in reply
    assert compose_reply(q, Draft(QUOTE, [CLAIM]), verdict("uncertain")).startswith("⚠️ 以下回答的依據不完整，請核實：")


def test_a_simplified_or_english_question_is_unchanged() -> None:
    assert compose_reply("议会共有多少个议席？", Draft("", []), verdict("insufficient")) == \
        "知识库中没有足够的信息回答这个问题，我不做猜测。"
    assert compose_reply("How many seats?", Draft("", []), verdict("insufficient")).startswith("The knowledge base")
    reply = compose_reply("议会共有多少个议席？", Draft(QUOTE, [CLAIM], [CONFLICT]), verdict("uncertain"))
    assert reply.startswith("⚠️ 不同文档对此说法不一") and "请核实以哪份为准。" in reply


def test_the_conflict_note_shows_each_value_once_without_the_punctuation_its_span_took() -> None:
    from knowzero.knowledge.answer.reply import conflict_note

    c = {"sources": ["h1", "h1~copy"], "values": [["Bob", "Bob Barker", "Barker"], ["2006,", "2006,"]]}
    assert conflict_note(c, False) == "\nNote: the documents disagree (h1: Bob Barker; h1~copy: 2006); check which one is right."
    zh = {"sources": ["a", "b"], "values": [["巴黎", "巴黎"], ["日本，"]]}
    assert conflict_note(zh, True) == "\n注意：不同文档说法不一（a：巴黎；b：日本），请核实以哪份为准。"
