"""Question kinds: which kind of value a question asks for (``data/questions.toml``), one table for all."""

from __future__ import annotations

import re

from knowzero.vocabulary.tables import table

QUESTION_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (k["name"], re.compile(k["pattern"], re.I)) for k in table("questions")["kinds"])
"""(kind, pattern) in the order they are tried: the kind of value a question asks for."""
READER_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (k["name"], re.compile(k["pattern"])) for k in table("questions")["reader_kinds"])
"""(kind, pattern): the kind of sentence the extractive reader ranks first (see the data file for why it differs)."""


def kind_of(folded_question: str, kinds: tuple[tuple[str, re.Pattern[str]], ...] = QUESTION_KINDS) -> str | None:
    """The first kind whose pattern the question (folded to Simplified, lower-cased) matches, or None."""
    q = folded_question.replace("甚么", "什么")  # Taiwanese 甚麼 is 什么
    return next((name for name, pat in kinds if pat.search(q)), None)


APPROVER_QUESTION = re.compile(table("questions")["approver"]["question"], re.I)
"""A question for who approves, signs or authorises something."""
ROLE = re.compile(table("questions")["approver"]["role"], re.I)
"""A role or body that can approve (上级, 部门经理, "Practice Manager", committee …)."""


def asks_approver(folded_question: str) -> bool:
    """Does the question (folded, lower-cased) ask who approves something?

    >>> asks_approver("员工的年假需要谁批准？"), asks_approver("who approves a purchase over $500?")
    (True, True)
    >>> asks_approver("谁是公司的创始人？"), asks_approver("年假有几天？")
    (False, False)
    """
    return bool(APPROVER_QUESTION.search(folded_question))


def names_role(text: str) -> bool:
    """Does the text name a role or body that can approve?"""
    return bool(ROLE.search(text))
