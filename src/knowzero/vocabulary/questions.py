"""Question kinds: which kind of value a question asks for (``data/questions.toml``), one table for all."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from importlib import resources


@cache
def question_kinds() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(kind, pattern) in the order they are tried, compiled once per process."""
    data = tomllib.loads(resources.files("knowzero.vocabulary").joinpath("data/questions.toml").read_text("utf-8"))
    return tuple((k["name"], re.compile(k["pattern"], re.I)) for k in data["kinds"])


def kind_of(folded_question: str) -> str | None:
    """The first kind whose pattern the question (folded to Simplified, lower-cased) matches, or None."""
    q = folded_question.replace("甚么", "什么")  # Taiwanese 甚麼 is 什么
    return next((name for name, pat in question_kinds() if pat.search(q)), None)
