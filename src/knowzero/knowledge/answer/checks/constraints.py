"""Constraints a question sets that its answer must meet: the year it asks about, the edition or session
("第七届"), the date (pure).

A reply can be about the question's topic and still answer a different question: "2021年香港GDP增长了多少？"
answered with the 1960s–80s growth rate, "第七届…" with the sixth. Each constraint here is read from the
question as a value (years and ordinals as numbers, "第七届" = "第7届", a date as month and day) and must be
met, as a value, by the cited text or its explicit context (the sentences around the quote, the section
heading, the document's title). One that is not met is a finding the verdict policy turns into a decline.

Words, events and roles ("踩踏" against "交通事故") are the answerability check's; this module only reads
values, so that a paraphrase never trips it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from knowzero.knowledge.answer.checks.numbers import cn_value

_YEAR = re.compile(r"(?<![\d.])((?:1[5-9]|20)\d{2})\s*年(?!代|级|度报|初|底|末|间)|(?<![\d.])((?:1[5-9]|20)\d{2})(?=\s*(?:财年|年度|赛季))")
"""A calendar year the question names ("2021年", "2022财年"); not "1990年代" (a decade), not "2021年初"'s
looser period either, and not a bare number that may be a count."""
_COHORT = re.compile(r"(?<![\d.])((?:19|20)\d{2})\s*级(?!及|以|之)")
"""A cohort named by its year of entry ("2027级新生"): the year a fee table's columns are keyed by."""
_EN_YEAR = re.compile(r"(?i)\b(?:in|on|of|for|during|the)\s+((?:19|20)\d{2})(?![\d,.])(?!\s*(?:kg|km|kilo|miles?|parcels?|items?|"
                      r"people|persons|staff|units?|pieces?|pcs|hours?|days?|minutes?|pounds?|dollars?|euros?)\b)")
"""A year an English question names ("on the 2025 rate card", "in 2024"): after a preposition or "the", and
not a count of something ("the 2000 parcels")."""
_BEFORE = re.compile(r"((?:19|20)\d{2})\s*(?:级|年)?\s*(?:及以前|及之前|以前|之前|or earlier|and earlier|and before)")
_AFTER = re.compile(r"((?:19|20)\d{2})\s*(?:级|年)?\s*(?:及以后|及之后|以后|之后|or later|and later|onwards?)")
_ORDINAL = re.compile(r"第\s*([0-9]+|[一二三四五六七八九十百零〇两]+)\s*(届|期|季|任|批|轮)")
"""An edition or session ("第七届", "第3期"); not "第一次" (often just "first") nor "第二代" (a generation)."""
_LABEL = re.compile(r"(?<![A-Za-z0-9])(?:([A-Z])\s*(线|栋|座|区|馆|厅|门|楼|班)|(\d{1,2})\s*号(线|楼|门|厅|馆))")
"""An item named by a letter or number and its kind ("C线", "B栋", "2号楼"): a source that lists the A and B lines
and not C speaks of other items of that kind."""
_PHRASAL = re.compile(r"(?i)\b(check|log|sign|clock|move|opt|cash|time)[\s-]?(in|out)\b")
"""An English verb whose particle sets the event ("check in" against "check-out", "sign out"): a source that
speaks only of the other one answers another question."""
_DATE = re.compile(r"(?<![\d.])([0-9]{1,2}|[一二三四五六七八九十]+)\s*月\s*([0-9]{1,2}|[一二三四五六七八九十]+)\s*[日号]")


@dataclass(frozen=True)
class Constraint:
    kind: str
    """The kind: "year", "cohort" (a year of entry: "2027级"), "ordinal", "date", "label" or "phrasal" ("check in")."""
    value: str
    """The value in digits: "2021", "7届", "1-17" (a phrasal verb: "check-in")."""
    written: str
    """As the question writes it ("2021年", "第七届", "1月17日")."""


_DIGIT = str.maketrans("零〇一二三四五六七八九", "00123456789")
_CN_YEAR = re.compile(r"[零〇一二三四五六七八九]{4}(?=\s*年)")


def _arabic_years(text: str) -> str:
    """"二零零五年" written as "2005年" (a year spelled digit by digit)."""
    return _CN_YEAR.sub(lambda m: m.group(0).translate(_DIGIT), text)


def _digits(n: str) -> str:
    n = unicodedata.normalize("NFKC", n).strip()
    if n.isdigit():
        return str(int(n))
    forms = cn_value(n)
    return forms[0] if forms else n


def constraints_of(question: str) -> tuple[Constraint, ...]:
    """The value constraints ``question`` sets (none for a question without years, ordinals or dates)."""
    q = _arabic_years(unicodedata.normalize("NFKC", question))
    out: list[Constraint] = []
    for m in _YEAR.finditer(q):
        year = m.group(1) or m.group(2)
        out.append(Constraint("year", year, m.group(0)))
    for m in _COHORT.finditer(q):
        out.append(Constraint("cohort", m.group(1), m.group(0)))
    for m in _EN_YEAR.finditer(q):
        out.append(Constraint("year", m.group(1), m.group(0).strip()))
    for m in _ORDINAL.finditer(q):
        out.append(Constraint("ordinal", f"{_digits(m.group(1))}{m.group(2)}", m.group(0)))
    for m in _DATE.finditer(q):
        out.append(Constraint("date", f"{_digits(m.group(1))}-{_digits(m.group(2))}", m.group(0)))
    for m in _LABEL.finditer(q):
        out.append(Constraint("label", _label(m), m.group(0)))
    for m in _PHRASAL.finditer(q):
        out.append(Constraint("phrasal", f"{m.group(1).lower()}-{m.group(2).lower()}", m.group(0)))
    return tuple(dict.fromkeys(out))


def _label(m: re.Match[str]) -> str:
    return f"{m.group(1)}{m.group(2)}" if m.group(1) else f"{int(m.group(3))}号{m.group(4)}"


def _values(kind: str, text: str) -> set[str]:
    t = _arabic_years(unicodedata.normalize("NFKC", text))
    if kind == "year":  # years, and decades or centuries ("60年代", "上世纪"): times that are not the asked year
        return ({m.group(0) for m in re.finditer(r"(?<!\d)(?:1[5-9]|20)\d{2}(?!\d)(?!\s*年代)", t)}
                | {f"decade:{m.group(1)}" for m in re.finditer(r"(\d{2,4})\s*年代", t)}
                | {"century" for _ in re.finditer(r"世纪", t)})
    if kind == "cohort":  # "2026级", "2025级及以前": the cohorts the source keys by (not a "2026-2027学年" title)
        return {m.group(1) for m in re.finditer(r"(?<![\d.])((?:19|20)\d{2})\s*级", t)}
    if kind == "ordinal":
        return {f"{_digits(m.group(1))}{m.group(2)}" for m in _ORDINAL.finditer(t)}
    if kind.startswith("phrasal:"):  # the same verb's particles ("check": check-in, check-out)
        verb = kind.split(":", 1)[1]
        return {f"{v}-{m.group(2).lower()}" for m in _PHRASAL.finditer(t) if (v := m.group(1).lower()) == verb}
    if kind.startswith("label:"):  # the items of the asked kind ("线": A线, B线)
        suffix = kind.split(":", 1)[1]
        return {v for m in _LABEL.finditer(t) if (v := _label(m)).endswith(suffix)}
    return {f"{_digits(m.group(1))}-{_digits(m.group(2))}" for m in _DATE.finditer(t)}


def missed(constraints: tuple[Constraint, ...], evidence: str) -> list[Constraint]:
    """The constraints ``evidence`` (the cited text with its explicit context) does not meet. A constraint
    counts as missed only when the evidence names a value of the same kind and not the asked one — a
    source that names no year at all neither meets nor breaks a year (it may be the asked year's own
    document), one that names only other years answers about another time."""
    out = []
    for c in constraints:
        kind = f"label:{c.value[-1]}" if c.kind == "label" else f"phrasal:{c.value.split('-')[0]}" \
            if c.kind == "phrasal" else c.kind
        found = _values(kind, evidence)
        if found and c.value not in found and not (c.kind in ("year", "cohort") and _in_open_range(int(c.value), evidence)):
            out.append(c)
    return out


def _in_open_range(year: int, evidence: str) -> bool:
    """The evidence names a range of years that holds ``year`` ("2025级及以前" holds 2024; "2020 or later" 2023).

    >>> _in_open_range(2024, "2025级及以前（元/学年）: 5400"), _in_open_range(2027, "2025级及以前: 5400；2026级: 5800")
    (True, False)
    """
    t = unicodedata.normalize("NFKC", evidence)
    return any(year <= int(m.group(1)) for m in _BEFORE.finditer(t)) or any(year >= int(m.group(1)) for m in _AFTER.finditer(t))
