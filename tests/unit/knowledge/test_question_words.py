"""Words of a question that carry no subject: a conditional conjunction is a stopword, and a modal joined to its
verb by the segmenter ("能领") is not a term the sources must write (issue 28: a comment's question answered)."""

from __future__ import annotations

from knowzero.knowledge.answer.checks.answerable import unknown_terms
from knowzero.knowledge.text import STOPWORDS


def test_a_conditional_conjunction_is_no_subject() -> None:
    assert {"如果", "假如", "要是", "倘若"} <= STOPWORDS  # "如果要投诉，应该打哪个电话？" is about 投诉 and 电话


def test_a_modal_joined_to_its_verb_is_read_as_the_verb() -> None:
    doc = "已领取特困人员供养金的老人，仍可同时领取高龄津贴。"
    terms = [("特困", 5.0), ("能领", 6.0), ("宠物险", 6.0)]
    assert unknown_terms("已经在领特困供养金的老人还能领高龄津贴吗？", terms, doc, lambda t: 0) == ["宠物险"]
