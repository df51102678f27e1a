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


ASKED_VALUES: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (name, re.compile(spec["question"], re.I), re.compile(spec["value"], re.I))
    for name, spec in table("questions")["asked_values"].items())
"""Values of a form a question may ask for (money, a phone number): the question's pattern, the value's."""


def asked_value(folded_question: str) -> str | None:
    """The form of value the question (folded, lower-cased) asks for — "money", "phone" — or None.

    >>> asked_value("迟到一次扣多少钱？"), asked_value("安全员的电话是多少？"), asked_value("年假有几天？")
    ('money', 'phone', None)
    >>> asked_value("how much does a cat spay cost?"), asked_value("how much pto do i get?")
    ('money', None)
    """
    return next((name for name, q, _ in ASKED_VALUES if q.search(folded_question)), None)


def gives_value(name: str, text: str) -> bool:
    """Does ``text`` hold a value of the form ``name`` (:func:`asked_value`)?

    >>> gives_value("money", "迟到一次扣50元。"), gives_value("money", "记迟到一次。"), gives_value("phone", "热线0571-8816 2300")
    (True, False, True)
    """
    return any(v.search(text) for n, _, v in ASKED_VALUES if n == name)


CLOCK_QUESTION = re.compile(table("questions")["clock"]["question"], re.I)
CALENDAR_DAY = re.compile(table("questions")["calendar"]["day"], re.I)
"""A day of the calendar (周六, 工作日, Saturdays, weekdays): what a follow-up such as "那周六呢？" swaps."""
CALENDAR_DAYS: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in table("questions")["calendar"]["days"].items()}
"""The days a word for several names (周末 → 周六, 周日)."""


def days_named(term: str, text: str) -> bool:
    """``text`` (folded, lower-cased) names a day of the several ``term`` stands for: a rule for "周六、周日" answers
    a question about 周末, one for "Saturdays" a question about weekends."""
    return any(d in text for d in CALENDAR_DAYS.get(term, ()))
DURATION_QUESTION = re.compile(table("questions")["duration"]["question"], re.I)


def asks_clock(folded_question: str) -> bool:
    """Does the question (folded, lower-cased) ask for a clock time?

    >>> asks_clock("员工餐厅午餐几点开始供应？"), asks_clock("年假有几天？")
    (True, False)
    """
    return bool(CLOCK_QUESTION.search(folded_question))


def asks_duration(folded_question: str) -> bool:
    """Does the question (folded, lower-cased) ask how long something takes?

    >>> asks_duration("首次申领居住证要多久？"), asks_duration("how long does a first application take?")
    (True, True)
    >>> asks_duration("年假有几天？"), asks_duration("午餐几点开始？")
    (False, False)
    """
    return bool(DURATION_QUESTION.search(folded_question))


DEFERRAL = re.compile(table("questions")["deferral"]["pattern"], re.I)
_CLAUSE = re.compile(r"[^，,。；;！？!?\n]+")


def deferred_only(term: str, text: str) -> bool:
    """Every clause of ``text`` naming ``term`` gives no number and defers it to other rules, and at least one
    does ("婚假、产假的天数，按国家和本省的有关规定执行。丧假3天。" for 婚假; not for 丧假).

    >>> t = "婚假、产假的天数，按国家和本省的有关规定执行，由人事科逐人核定。职工的父母去世的，给予丧假3天。"
    >>> deferred_only("婚假", t), deferred_only("丧假", t), deferred_only("年假", "年假天数按下表确定：")
    (True, False, False)
    """
    clauses = [m.group(0) for m in _CLAUSE.finditer(text)]
    hits = [i for i, c in enumerate(clauses) if term.lower() in c.lower()]
    if not hits:
        return False
    for i in hits:  # the clause itself and the one after it ("…的天数，按…规定执行")
        window = " ".join(clauses[i:i + 2])
        if re.search(r"\d", clauses[i]) or not DEFERRAL.search(window):
            return False
    return True


PENDING = re.compile(table("questions")["pending"]["pattern"], re.I)
_DATELINE_START = re.compile(r"^\W{0,3}(?:\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?\W{0,3})")
_COUNT = re.compile(r"(?<![\d.\-/:：])\d+(?:\.\d+)?(?!\s*(?:年|月|日|时|点|号|[-/:：.]\d|\d))|[一二两三四五六七八九十百千万]+(?:人|名|例|起|所|家|个|元|亿|万)")
_DAY = re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]|\d{4}\s*年\s*\d{1,2}\s*月|(?<!\d)\d{1,2}\s*日(?!电)|\d{4}-\d{1,2}-\d{1,2}")


def gives_count(text: str) -> bool:
    """``text`` holds a number that is not part of a date or a time of day (a count, an amount, a score).

    >>> gives_count("2023年9月30日，国庆档首日，《长夜灯》正式上映。"), gives_count("首日票房1.2亿元"), gives_count("电话0571-8816 2300")
    (False, True, True)
    """
    return bool(_COUNT.search(_DATELINE_START.sub("", text.strip())))


def pending_only(kind: str, text: str) -> bool:
    """``text`` says the asked value is not known yet ("具体失联人数正在进一步核查中") and gives none of the asked
    ``kind`` ("number" or "time"; a news item's opening date is not one).

    >>> pending_only("number", "15日凌晨突发山体滑坡，有人员失联，具体失联人数正在进一步核查中。")
    True
    >>> pending_only("number", "已造成10人死亡，具体伤亡人数仍在统计中。"), pending_only("time", "（2022-12-05）具体开通时间将另行公布。")
    (False, True)
    """
    if kind not in ("number", "time") or not PENDING.search(text):
        return False
    body = _DATELINE_START.sub("", text.strip())
    return not (_COUNT if kind == "number" else _DAY).search(body)


BOUNDS: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in table("questions")["bounds"]["pairs"])


def opposite_bound(label: str, question: str) -> bool:
    """Does ``label`` (a column header, lower-cased) name one bound and the question (lower-cased) its opposite?

    >>> opposite_bound("绩效津贴上限（元/月）", "硕士生每月绩效津贴的下限是多少？"), opposite_bound("maximum stay", "the minimum stay?")
    (True, True)
    >>> opposite_bound("绩效津贴上限（元/月）", "绩效津贴最多多少？"), opposite_bound("upper limit", "the upper limit?")
    (False, False)
    """
    def has(text: str, word: str) -> bool:
        return bool(re.search(rf"\b{word}\b", text)) if word.isascii() else word in text

    return any((has(label, a) and has(question, b) and not has(question, a))
               or (has(label, b) and has(question, a) and not has(question, b)) for a, b in BOUNDS)
