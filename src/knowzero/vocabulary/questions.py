"""Question kinds: which kind of value a question asks for (``data/questions.toml``), one table for all."""

from __future__ import annotations

import re

from knowzero.vocabulary.tables import table

QUESTION_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (k["name"], re.compile(k["pattern"], re.I)) for k in table("questions")["kinds"])
"""(kind, pattern) in the order they are tried."""


def kind_of(folded_question: str) -> str | None:
    """The first kind whose pattern the question (folded to Simplified, lower-cased) matches, or None."""
    q = folded_question.replace("甚么", "什么")  # Taiwanese 甚麼 is 什么
    return next((name for name, pat in QUESTION_KINDS if pat.search(q)), None)
