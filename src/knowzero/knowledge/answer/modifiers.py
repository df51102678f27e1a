"""Rules beside a table that scale one of its values for a condition the question names.

A policy often gives a table and then, in prose, what changes it: "规培住院医师值夜班的，按所在科室住院医师标准的80%
发放", "法定节假日当天的夜班，补贴按标准的2倍发放", "展会期间…住宿标准可上浮，但上浮幅度不超过30%". A question that
names such a condition ("规培住院医师在外科值一个夜班，补贴是多少？") is not answered by the cell alone — quoting 190
there is a wrong answer that looks confirmed. :func:`applicable` finds the rule the question names: a clause of the
document outside the table with a factor (``vocabulary/data/questions.toml`` ``[modifiers]``) whose condition — the
words before the rule's verb — shares a word with the question that is specific to it (written at most
:data:`SPECIFIC_MAX` times in the document, and no word of the table's own headers or of the row). Two rules
named equally well with different factors are :data:`AMBIGUOUS`: the caller answers with neither.

Pure functions over the document's text; the pipeline (``lookup_draft``) applies the rule to the cell and cites
both the row and the rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from knowzero.knowledge.index.bands import band, quantities
from knowzero.knowledge.index.headers import is_number
from knowzero.knowledge.text import has_cjk, tokens
from knowzero.vocabulary.tables import table

_SPEC = table("questions")["modifiers"]
_FACTORS = tuple((f["kind"], re.compile(f["pattern"], re.I)) for f in _SPEC["factors"])
_REFERENCE = re.compile(_SPEC["reference"], re.I)
_STOP = re.compile(_SPEC["stop"], re.I)
_CEILING = re.compile(_SPEC["ceiling"], re.I)
_CLAUSE = re.compile(r"[^。；;\n]+")
_DATES = re.compile(r"\d{1,2}月\d{1,2}[日号](?:\s*(?:至|到|-|–|—|~)\s*(?:\d{1,2}月)?\d{1,2}[日号])?")
"""Calendar dates in a rule's condition: days of a month, never a quantity of days the question names."""
_JOINED = re.compile(r"[\s,，、]*(?:(?:and|while|whereas|but)\b|以及|及|而|但)?\s*", re.I)
_ASIDE = re.compile(r"[（(][^）)]*[）)]")
_NUMBERING = re.compile(r"\s*(?:\d{1,2}\s*[.、）)]|[（(]\d{1,2}[）)])\s*")
_CN_NUMBER = {"两": 2.0, "二": 2.0, "三": 3.0, "四": 4.0, "五": 5.0, "六": 6.0, "七": 7.0, "八": 8.0, "九": 9.0,
              "十": 10.0}
SPECIFIC_MAX = 3
"""A condition's word the document writes at most this often is the rule's own ("规培", "法定节假日"); a word it
writes more often is the document's topic ("夜班" in a night-shift policy) and names no one rule."""

Kind = Literal["share", "times", "up", "down", "tenth", "free"]
AMBIGUOUS: Literal["ambiguous"] = "ambiguous"


@dataclass(frozen=True)
class Rule:
    """One rule: how it scales a value, the number as written, and its clause (offsets in the document)."""

    kind: Kind
    number: float
    start: int
    end: int
    text: str
    ceiling: bool = False
    """The result is a maximum ("上浮幅度不超过30%"), not the amount ("上浮20%")."""

    def apply(self, value: float) -> float:
        """The value under the rule."""
        factor = {"share": self.number / 100, "times": self.number, "up": 1 + self.number / 100,
                  "down": 1 - self.number / 100, "tenth": self.number / 10, "free": 0.0}[self.kind]
        return round(value * factor, 2)

    def shown(self, value: str) -> str:
        """The arithmetic as a reader checks it: "190 × 80%", "320 × 2", "620 × (1 + 30%)"."""
        n = f"{self.number:g}"
        return {"share": f"{value} × {n}%", "times": f"{value} × {n}", "up": f"{value} × (1 + {n}%)",
                "down": f"{value} × (1 − {n}%)", "tenth": f"{value} × {n}折", "free": f"{value} → 0"}[self.kind]



def _number(text: str) -> float | None:
    if text in _CN_NUMBER:
        return _CN_NUMBER[text]
    try:
        return float(text)
    except ValueError:
        return None


def _measured(condition: str, asked: Sequence[tuple[float, str]]) -> list[tuple[float, str]] | None:
    """The question's quantities (``asked``) the band a condition sets measures ([] when it sets none, "国庆（10月1日至7日）"
    being no band of 5天); None when it measures one of them and holds none: another case than the question's."""
    b = band(_DATES.sub(" ", condition)) if asked else None
    said = [x for x in asked if b is not None and b.unit and b.measures(x[1])]
    return None if b is not None and said and not any(b.holds(v, u) for v, u in said) else said


def _specific(words: Sequence[str], base_l: str, doc_l: str) -> list[str]:
    """The words of a condition the question writes that are the rule's own: not the table's (``base_l``) and
    written at most :data:`SPECIFIC_MAX` times in the document (``doc_l``)."""
    return [w for w in words if w.lower() not in base_l and doc_l.count(w.lower()) <= SPECIFIC_MAX]


def _words(text: str) -> list[str]:
    return [w for w in tokens(text, search=False) if len(w) >= (4 if w.isascii() else 2)]


def applicable(doc: str, span: tuple[int, int], question: str, base: str, label: str) -> Rule | None | Literal["ambiguous"]:
    """The one rule of ``doc`` (outside the table at ``span``) the question names, None when it names none,
    :data:`AMBIGUOUS` when two rules with different factors are named equally well. ``base``: the table's title,
    headers and the row's cells (their words are the table's, no rule's condition); ``label``: the asked column's
    header (a rule that names it refers to the table, as one that says 标准 does).

    >>> doc = "表：住院医师 190。\\n1. 法定节假日当天的夜班，补贴按标准的2倍发放。\\n2. 规培住院医师值夜班的，按住院医师标准的80%发放。"
    >>> r = applicable(doc, (0, 11), "规培住院医师在外科值一个夜班，补贴多少？", "夜班补贴 科室 住院医师 190", "住院医师")
    >>> (r.kind, r.number, r.apply(190), r.shown("190"))
    ('share', 80.0, 152.0, '190 × 80%')
    >>> applicable(doc, (0, 11), "住院医师值一个夜班补贴多少？", "夜班补贴 科室 住院医师 190", "住院医师") is None
    True
    >>> doc = "| 3 bedrooms | £890 |\\nSaturday moves cost 15% more, and Sunday and bank holiday moves cost 25% more."
    >>> r = applicable(doc, (0, 20), "a three-bedroom move on a sunday", "price guide home size 3 bedrooms £890", "Local")
    >>> (r.kind, r.number, r.apply(890))
    ('up', 25.0, 1112.5)
    """
    q = question.lower()
    asked = quantities(question)
    base_l = base.lower()
    doc_l = doc.lower()
    named = _ASIDE.sub("", label).strip()  # "个人自付（元/次）" is named by 个人自付
    found: list[tuple[tuple[int, int], Rule, tuple[int | str, ...]]] = []  # score, rule, (sentence, its cases)
    for clause in _CLAUSE.finditer(doc):
        if clause.start() < span[1] and clause.end() > span[0]:
            continue  # the table itself
        text = clause.group(0)
        # every factor of the clause, each with the words since the one before as its condition ("Saturday moves
        # cost 15% more, and Sunday and bank holiday moves cost 25% more")
        factors = sorted(((m.start(), kind, m) for kind, pattern in _FACTORS for m in pattern.finditer(text)),
                         key=lambda f: f[0])
        for i, (_at, kind, m) in enumerate(factors):
            number = 0.0 if kind == "free" else _number(next(g for g in m.groups() if g))
            if number is None or not (_REFERENCE.search(text) or (label and label in text)
                                      or (len(named) >= 2 and named in text)):
                continue
            since = factors[i - 1][2].end() if i else 0
            if joined := _JOINED.match(text, since):  # ", and Sunday …": the condition starts after them
                since = joined.end()
            stop = _STOP.search(text, since, m.start())
            condition = text[since:stop.start() if stop else m.start()]
            if (said := _measured(condition, asked)) is None:
                break  # "lasting more than 8 hours" of a 6-hour trip: another condition than the question's
            in_q = [w for w in dict.fromkeys(_words(condition)) if w.lower() in q]
            specific = _specific(in_q, base_l, doc_l)
            if said:  # "我爷爷今年72岁…": the rule's band (70岁及以上) holds the asked quantity — its own condition
                specific.append(f"{said[0][0]:g}{said[0][1]}")
            if specific:
                lead = m0.end() if (m0 := _NUMBERING.match(text)) else 0  # "2. 规培…" is cited from 规培, "70岁…" whole
                quote = text[lead:].rstrip()
                start = clause.start() + lead
                found.append(((len(specific), len(in_q)), Rule(kind, number, start, start + len(quote), quote,
                                                                  bool(_CEILING.search(m.group(0)))),
                              (max(doc.rfind("。", 0, clause.start()), doc.rfind("\n", 0, clause.start())), *specific)))
    if not found:
        return None
    # two clauses of one sentence, each for a case of its own the question states ("坡地…上浮15%；倒伏…上浮25%" of a
    # lodged crop on a slope): both apply, and how they combine is not read here
    if any(a[2][0] == b[2][0] and a[1].number != b[1].number and set(a[2][1:]) - set(b[2][1:])
           and set(b[2][1:]) - set(a[2][1:]) for a in found for b in found):
        return AMBIGUOUS
    top = max(score for score, _, _ in found)
    best = [r for score, r, _ in found if score == top]
    if len({(r.kind, r.number) for r in best}) > 1:
        return AMBIGUOUS
    return best[0]


_UNIT_OF = {"night": "night", "晚": "night", "夜": "night", "day": "day", "天": "day", "日": "day", "hour": "hour",
            "小时": "hour", "week": "week", "周": "week", "month": "month", "个月": "month", "月": "month"}
_PER_UNIT = re.compile(r"(?i)\b(?:per|a|each|every)\s+(night|day|hour|week|month)\b|(?:/|每)\s*(晚|夜|天|日|小时|周|月)(?![/\w])")
_COUNTED = re.compile(r"(?i)(?<![\d.:])(\d{1,3})\s*(?:whole\s+|full\s+)?(night|day|hour|week|month)s?\b|"
                      r"(?<![\d.:])(\d{1,3})\s*个?(晚|夜|天|日|小时|周|个月)")
_ASKED_PER = re.compile(r"(?i)(?:每\s*|(?<![\d一二两三四五六七八九十])一(?=(?:晚|夜|天|日|小时|周|个?月)(?:多少|到底|究竟|大概|要|收)))"
                        r"(晚|夜|天|日|小时|周|个?月)|\b(?:per|each|every)\s+(night|day|hour|week|month)\b")
"""The question asks the rate itself ("每天多少钱", "what is it per night"), not the total of its count."""
_MONEY = re.compile(r"^\s*([£$€¥]?)\s*(\d+(?:\.\d+)?)\s*(元|yuan)?\s*$", re.I)


@dataclass(frozen=True)
class Times:
    """A rate per one unit times the count of that unit the question gives: "Per night: £36" for three nights."""

    total: str
    rate: str
    count: int
    unit: str

    def lead(self, key: str, is_zh: bool) -> str:
        """"£108 (£36 per night × 3 nights; 8.01–10.00 m)", "1200元（400元/天 × 3天；…）"."""
        if is_zh:
            return f"{self.total}（{self.rate}/{self.unit} × {self.count}{self.unit}；{key}）"
        return f"{self.total} ({self.rate} per {self.unit} × {self.count} {self.unit}s; {key})"


def times_asked(label: str, value: str, question: str, doc: str = "", span: tuple[int, int] = (0, 0),
                terms: Sequence[str] = ()) -> Times | None:
    """:class:`Times` when the header says the cell is a rate per one unit ("Per night", "日租金（元/天）") and the
    question counts two or more of that unit ("for 3 nights", "租3天"); None otherwise (the rate is the answer), and
    None when a sentence of the document ``doc`` outside the table (``span``) speaks of that unit and of one of the question's
    ``terms`` ("A boat that comes in for shelter when a gale warning is in force pays nothing for its first night"
    of "…a gale warning came out…three nights"): a rule the count may change.

    >>> times_asked("Per night", "£36", "my 9 m boat for 3 nights in August").lead("8.01–10.00 m", False)
    '£108 (£36 per night × 3 nights; 8.01–10.00 m)'
    >>> times_asked("日租金（元/天）", "80", "租3天要多少钱？").lead("山地车", True)
    '240元（80元/天 × 3天；山地车）'
    >>> times_asked("日租金（元/天）", "80", "租3天的话每天多少钱？") is None, times_asked("日租金（元/天）", "80", "租3天的话一天多少钱？") is None
    (True, True)
    >>> times_asked("Per night", "£36", "one night for a 9 m boat") is None, times_asked("7 nights", "£216", "for 3 nights") is None
    (True, True)
    >>> times_asked("Per night", "£28", "a gale warning came out, we stayed 3 nights",
    ...             "In a gale warning the first night is free.", terms=["gale", "warning", "nights"]) is None
    True
    """
    per = [next(u for u in m.groups() if u) for m in _PER_UNIT.finditer(label)]
    money = _MONEY.match(value)
    if len(per) != 1 or money is None:
        return None
    unit = _UNIT_OF[per[0].lower()]
    counts = {int(m.group(1) or m.group(3)) for m in _COUNTED.finditer(question)
              if _UNIT_OF[(m.group(2) or m.group(4)).lower()] == unit}
    if len(counts) != 1 or (count := counts.pop()) < 2:
        return None
    if any(_UNIT_OF.get(u.lower()) == unit for m in _ASKED_PER.finditer(question) for u in m.groups() if u):
        return None  # "B组租5天的话，每天多少钱？": the rate per day is what is asked
    said = [t.lower() for t in terms if len(t) >= 2 and not t.isdigit() and unit not in t.lower() and per[0] not in t]
    outside = doc[:span[0]] + "\n" + doc[span[1]:]
    for sentence in re.split(r"(?<=[.!?;。！？；])\s*|\n", outside.lower()):
        if (unit in sentence or per[0] in sentence) and any(t in sentence for t in said):
            return None
    sign, number = money.group(1), float(money.group(2))
    zh = has_cjk(label)
    word = per[0] if zh else unit
    total = f"{sign}{number * count:g}" if sign else f"{number * count:g}{'元' if zh else ''}"
    rate = f"{sign}{number:g}" if sign else f"{number:g}{'元' if zh else ''}"
    return Times(total, rate, count, word)


_SHARE_OF = re.compile(r"(?i)^\s*(\d{1,3}(?:\.\d{1,2})?)\s*%\s*of\b|的\s*(\d{1,3}(?:\.\d{1,2})?)\s*%\s*$")
_SHARE_WHEN = re.compile(r"(?i)^\s*(\d{1,3}(?:\.\d{1,2})?)\s*%\s+(?:when|on|at|before|upon)\b|^\s*(?:预订|预约|签约|下单)时?(?:支付|付|交)\s*(\d{1,3}(?:\.\d{1,2})?)\s*%")
"""A share of the amount, due at a moment ("30% when you book"; "预订时支付30%")."""
_SIGN = {"英镑": "£", "美元": "$"}


@dataclass(frozen=True)
class ShareOf:
    """A cell that is a share of an amount ("20% of the price") and the one amount the question gives, which chose
    the row by its band ("£1,200" of "£600–£1,499"): the share of that amount."""

    percent: float
    amount: float
    unit: str

    @property
    def total(self) -> str:
        return _money(self.amount * self.percent / 100, self.unit)

    def lead(self, key: str, is_zh: bool) -> str:
        """"£240 (20% × £1,200; £600–£1,499)", "240元（1200元 × 20%；…）"."""
        said = f"{self.percent:g}% × {_money(self.amount, self.unit)}"
        return f"{self.total}（{said}；{key}）" if is_zh else f"{self.total} ({said}; {key})"


def _amount(value: float) -> str:
    """"1,112.50", "240": pence or cents only when there are some."""
    return f"{value:,.0f}" if abs(value - round(value)) < 0.005 else f"{value:,.2f}"


def _money(value: float, unit: str) -> str:
    shown = _amount(value)
    return f"{_SIGN[unit]}{shown}" if unit in _SIGN else f"{shown.replace(',', '')}{unit}"


def share_asked(key: str, value: str, question: str, money_asked: bool = False) -> ShareOf | None:
    """:class:`ShareOf` when the cell is "N% of …" (or "…的N%"; or, when the question asks an amount of money,
    "N% when you book": a share of the amount that chose the row), the row's key is a band of money, and the
    question gives exactly one amount of that money, which the band holds; None otherwise (the share itself is the
    answer).

    >>> share_asked("£600–£1,499", "20% of the price", "The move costs £1,200. How much is the deposit?").lead("£600–£1,499", False)
    '£240 (20% × £1,200; £600–£1,499)'
    >>> share_asked("£600–£1,499", "20% of the price", "How much is the deposit on a move?") is None
    True
    >>> share_asked("取车前24小时至48小时", "首日租金的30%", "取车前30小时取消，收多少？") is None
    True
    >>> share_asked("£1,000–£4,999", "30% when you book, the rest within 14 days", "Our quote came to £2,400. How much do we "
    ...             "pay when we book?", money_asked=True).lead("£1,000–£4,999", False)
    '£720 (30% × £2,400; £1,000–£4,999)'
    """
    m = _SHARE_OF.search(value) or (_SHARE_WHEN.search(value) if money_asked else None)
    b = band(key)
    if m is None or b is None:
        return None
    amounts = [(x, u) for x, u in quantities(question) if u in ("英镑", "美元", "元")]
    if len(amounts) != 1 or not b.holds(*amounts[0]):
        return None
    return ShareOf(float(m.group(1) or m.group(2)), amounts[0][0], amounts[0][1])


_SIGNED = re.compile(r"^\s*([£$€])\s?(\d{1,3}(?:,\d{3})+|\d+)(\.\d{1,2})?\s*$")


def scalable(value: str) -> bool:
    """A cell a rule may scale: a bare number ("190") or an amount with its currency sign ("£890").

    >>> scalable("190"), scalable("£1,240"), scalable("£25 per item")
    (True, True, False)
    """
    return is_number(value) or bool(_SIGNED.match(value))


def amount_of(value: str) -> float:
    """The number of a scalable cell ("£1,240" → 1240.0)."""
    m = _SIGNED.match(value)
    return float(m.group(2).replace(",", "") + (m.group(3) or "")) if m else float(value)


def scaled(value: str, rule: Rule) -> str:
    """The cell under the rule, written as the cell is: "£1,112.50" of "£890" × (1 + 25%), "152" of "190" × 80%.

    >>> scaled("£890", Rule("up", 25.0, 0, 0, "")), scaled("190", Rule("share", 80.0, 0, 0, ""))
    ('£1,112.50', '152')
    """
    x = rule.apply(amount_of(value))
    if (m := _SIGNED.match(value)) is None:
        return f"{x:g}"
    return m.group(1) + _amount(x)


_SHARE = re.compile(r"\d+(?:\.\d+)?\s*%")
_AMOUNT = re.compile(r"[£$€¥]\s?\d|\d+(?:\.\d+)?\s*(?:元|美元|英镑)")


@dataclass(frozen=True)
class Override:
    """A clause beside a table that gives, for a case the question names, its own value in place of a cell's
    ("春节…期间的船票，开航前24小时以内退票的，一律收取票价的30%" beside the row "开航前2小时至24小时 | 票价的10%")."""

    start: int
    end: int
    text: str
    value: str
    """The part of the clause that gives the value ("一律收取票价的30%")."""


def override(doc: str, span: tuple[int, int], question: str, base: str, label: str, value: str) -> Override | None:
    """The one clause of ``doc`` outside the table at ``span`` that names a condition of the question the table
    does not (a word of it the document writes at most SPECIFIC_MAX times, and not in ``base``: the table's title,
    headers and the row's cells), refers to the asked column (its header's words, or a reference word such as 收费,
    票价) and gives another value of the cell's own form (a share "票价的30%" for "票价的10%"; an amount for an
    amount); None when there is none or several. A band the clause sets must hold the question's quantity.

    >>> doc = "| 开航前2小时至24小时 | 票价的10% |\\n春节期间的船票，开航前24小时以内退票的，一律收取票价的30%。"
    >>> override(doc, (0, 24), "春节的船票开船前5个小时退，扣多少？", "退票费 开航前2小时至24小时 票价的10%", "退票费", "票价的10%").text
    '春节期间的船票，开航前24小时以内退票的，一律收取票价的30%'
    >>> override(doc, (0, 24), "开船前5个小时退票扣多少？", "退票费 开航前2小时至24小时 票价的10%", "退票费", "票价的10%") is None
    True
    """
    form = _SHARE if _SHARE.search(value) else _AMOUNT if _AMOUNT.search(value) else None
    if form is None:
        return None
    q, base_l, doc_l = question.lower(), base.lower(), doc.lower()
    named = _ASIDE.sub("", label).strip()
    asked = quantities(question)
    mine = set(form.findall(value))
    found: list[Override] = []
    for clause in _CLAUSE.finditer(doc):
        text = clause.group(0).strip()
        if clause.start() < span[1] and clause.end() > span[0] or not form.search(text) or set(form.findall(text)) <= mine:
            continue
        if not (_REFERENCE.search(text) or any(named[i:i + 2] in text for i in range(len(named) - 1))):
            continue
        if _measured(text, asked) is None:
            continue  # "开航前24小时以内" of a ticket returned 30 hours before: another case
        if _specific([w for w in dict.fromkeys(_words(text)) if w.lower() in q], base_l, doc_l):
            start = clause.start() + (len(clause.group(0)) - len(clause.group(0).lstrip()))
            value = next(part.strip() for part in re.split(r"[，,]", text) if form.search(part))
            found.append(Override(start, start + len(text), text, value))
    return found[0] if len(found) == 1 else None
