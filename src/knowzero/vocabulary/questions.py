"""Question kinds: which kind of value a question asks for (``data/questions.toml``), one table for all."""

from __future__ import annotations

import re
from collections.abc import Iterable

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
    >>> asked_value("多高多重算超高？"), asked_value("how far ahead must we book?"), asked_value("多重的包裹要加价？")
    ('length', None, 'weight')
    """
    return next((name for name, q, _ in ASKED_VALUES if q.search(folded_question)), None)


def gives_value(name: str, text: str) -> bool:
    """Does ``text`` hold a value of the form ``name`` (:func:`asked_value`)?

    >>> gives_value("money", "迟到一次扣50元。"), gives_value("money", "记迟到一次。"), gives_value("phone", "热线0571-8816 2300")
    (True, False, True)
    """
    return any(v.search(text) for n, _, v in ASKED_VALUES if n == name)


PRICE_NOUN = re.compile(table("questions")["prices"]["nouns"], re.I)


def names_price(term: str) -> bool:
    """Is ``term`` a word for what something costs ("价格", "charges", "fee")?

    >>> names_price("价格"), names_price("charge"), names_price("折扣"), names_price("discharge")
    (True, True, False, False)
    """
    return PRICE_NOUN.fullmatch(term.strip()) is not None


CLOCK_QUESTION = re.compile(table("questions")["clock"]["question"], re.I)
CALENDAR_DAY = re.compile(table("questions")["calendar"]["day"], re.I)
CALENDAR_PERIODS = (CALENDAR_DAY, re.compile(table("questions")["calendar"]["season"], re.I),
                    re.compile(table("questions")["calendar"]["month"]))  # "May", never the "may" of "may I"
"""Days, seasons and months: a follow-up swaps one for another of its own kind."""
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
UNCONFIRMED = re.compile(table("questions")["unconfirmed"]["pattern"], re.I)
"""A figure reported as a rumour, an estimate or an expectation ("未获官方证实", "预计", "有望")."""
_DATELINE_START = re.compile(r"^\W{0,3}(?:\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?\W{0,3}"
                             r"|[^，。；;\d\n]{0,24}?(?:\d{4}\s*年\s*)?\d{1,2}\s*月\s*\d{1,2}\s*日电(?![\u4e00-\u9fff])\s*)")
"""A news item's opening date: "（2022-12-05）", "本报讯 2023年4月21日电", "新华社江州2月5日电" (the day it was
filed, not a date it reports)."""
_COUNT = re.compile(r"(?<![\d.\-/:：])\d+(?:\.\d+)?(?!\s*(?:年|月|日|时|点|号|[-/:：.]\d|\d))|[一二两三四五六七八九十百千万]+(?:人|名|例|起|所|家|个|元|亿|万)")
_DAY = re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*[日号]|\d{4}\s*年\s*\d{1,2}\s*月|(?<!\d)\d{1,2}\s*日(?!电)|\d{4}-\d{1,2}-\d{1,2}")


def gives_count(text: str) -> bool:
    """``text`` holds a number that is not part of a date or a time of day (a count, an amount, a score).

    >>> gives_count("2023年9月30日，国庆档首日，《长夜灯》正式上映。"), gives_count("首日票房1.2亿元"), gives_count("电话0571-8816 2300")
    (False, True, True)
    """
    return bool(_COUNT.search(_without_dateline(text)))


_NEWS_LEAD = re.compile(r"^\s*(?:[（(\[【]\s*\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}\s*日?\s*[）)\]】]|[^\n]{0,40}?(?:本报讯|本报记者|日电|[（(]记者|记者(?:从[^，。\n]{0,20})?(?:获悉|了解到)|[^\n]{0,8}(?:消息|来源|发布时间|原标题)\s*[：:]))")


def news_item(text: str) -> bool:
    """Does a document open as a news item — a date, a dateline or an agency's or paper's lead within its first
    line's opening ("本报讯 2023年8月28日，…", "新华社江州2月5日电", "（记者 温岚）", "央视网消息：", "来源：", "原标题：")?
    Its headline line aside (a "# " line, or a short first line without a full stop).

    >>> news_item("# 标题\\n\\n本报讯 2023年8月28日，马拉松启动报名。"), news_item("# 请假制度\\n\\n第一条 为规范…")
    (True, False)
    """
    body = re.sub(r"^\s*(?:#[^\n]*|[^\n。！？!?]{1,40})\n+", "", text[:400]).lstrip()  # a headline line, marked or not
    return bool(_NEWS_LEAD.match(body))  # a bare date opening a paragraph ("2007年11月1日，…") is no dateline


def _without_dateline(text: str) -> str:
    """``text`` (stripped) after the dateline it opens with (:func:`dateline`)."""
    return _DATELINE_START.sub("", text.strip(), count=1)


def dateline(text: str) -> str:
    """The news dateline ``text`` opens with ("" when none): "本报讯 2023年4月21日电 林屿…" → "本报讯 2023年4月21日电 ".

    >>> dateline("本报讯 2023年4月21日电 门票开售后不到3分钟即告售罄。"), dateline("新华社江州2月5日电 5日上午，…")
    ('本报讯 2023年4月21日电 ', '新华社江州2月5日电 ')
    >>> dateline("（2022-12-05）记者获悉…"), dateline("自2024年1月1日电子发票…")
    ('（2022-12-05）', '')
    """
    m = _DATELINE_START.match(text.strip())
    return m.group(0) if m else ""


_TIME = re.compile(_DAY.pattern + r"|\d{4}\s*年(?!代)|(?<![\d.])\d{1,2}\s*[时点](?!半?\s*[多左])|\d{1,2}:\d{2}")
ASKED_TIME_EVENT = re.compile(r"(?:什么时候|什么时间|何时|哪一?天|哪一?日|几月几[日号]|几号|哪一?年)(?:起|开始|正式|才|将|会|能)?"
                              r"(?P<event>[\u4e00-\u9fff]{2,6})[？?。]?$")


def asked_event(folded_question: str) -> str | None:
    """What happens at the time a question asks for — the words after its time word ("什么时候开售？" → 开售,
    "展到哪天结束？" → 结束, "什么时候起施行？" → 施行); None when the question ends with its time word.

    >>> asked_event("门票什么时候开售？"), asked_event("条例什么时候起施行？"), asked_event("首航是哪天？")
    ('开售', '施行', None)
    """
    m = ASKED_TIME_EVENT.search(folded_question.strip())
    return m.group("event") if m else None


_PERIOD_END = re.compile(r"(?:至|到|截至|截止到?|持续到)\s*(?:\d{4}\s*年\s*)?\d{1,2}\s*月\s*\d{1,2}\s*[日号]")
END_EVENTS = frozenset(table("questions")["units"]["end_events"])
"""Events that end a period ("结束", "闭幕"): "展期至10月8日" gives their date without naming them."""


def gives_end(text: str) -> bool:
    """``text`` gives the last day of a period ("展期至10月8日", "持续到5月31日")."""
    return bool(_PERIOD_END.search(text))


def gives_time(text: str) -> bool:
    """``text`` names a day, month, year or clock time besides its dateline ("2023年4月21日电 …开售后不到3分钟即告
    售罄" names none).

    >>> gives_time("本报讯 2023年4月21日电 门票开售后不到3分钟即告售罄。"), gives_time("门票将于5月20日10时开售。")
    (False, True)
    """
    return bool(_TIME.search(_without_dateline(text)))


ASKED_UNIT = re.compile(table("questions")["units"]["question"])
UNIT_GROUPS: tuple[tuple[str, ...], ...] = tuple(tuple(g) for g in table("questions")["units"]["groups"])
MONEY_NOUN = re.compile(table("questions")["units"]["money_nouns"])


def asked_unit(folded_question: str) -> tuple[str, ...]:
    """The units a count or amount may be given in, read from the question's own measure word ("多少人次" → 人次;
    "多少人" → 人, 名, 位; "奖金是多少" → 元 …); () when it names none.

    >>> asked_unit("春运首日发送旅客多少人次？"), asked_unit("冠军奖金是多少？")[:2], asked_unit("增长了多少？")
    (('人次', '万人次'), ('元', '万元'), ())
    """
    q = folded_question.strip()
    if (m := ASKED_UNIT.search(q)) is not None:
        unit = m.group("unit")
        return next((g for g in UNIT_GROUPS if unit in g), (unit,))
    if MONEY_NOUN.search(q):
        return next(g for g in UNIT_GROUPS if "元" in g)
    return ()


_NUMERAL_BEFORE = re.compile(r"(?:\d|[零一二两三四五六七八九十百千万亿])\s*(?:多|余|来)?\s*(?:万|亿|千|百)?\s*$")
"""A number ending right before a unit ("9.4万", "三", "20余"): read on the few characters before it."""


def gives_unit(units: tuple[str, ...], text: str) -> bool:
    """``text`` (its dateline aside) holds a number in one of ``units``: each place a unit stands is read with the
    few characters before it (linear in the text, whatever a document holds).

    >>> gives_unit(("人次",), "凤城站共开行旅客列车136列。"), gives_unit(("人次",), "发送旅客9.4万人次。")
    (False, True)
    """
    t = _without_dateline(text)
    for u in units:
        start = t.find(u)
        while start != -1:
            if _NUMERAL_BEFORE.search(t[max(0, start - 6):start]):
                return True
            start = t.find(u, start + 1)
    return False


def pending_only(kind: str, text: str) -> bool:
    """``text`` says the asked value is not known yet ("具体失联人数正在进一步核查中") and gives none of the asked
    ``kind`` ("number" or "time"; a news item's opening date is not one); for a person or place, that it is not
    known yet or only rumoured ("冠军归属暂未揭晓", "据传…").

    >>> pending_only("number", "15日凌晨突发山体滑坡，有人员失联，具体失联人数正在进一步核查中。")
    True
    >>> pending_only("number", "已造成10人死亡，具体伤亡人数仍在统计中。"), pending_only("time", "（2022-12-05）具体开通时间将另行公布。")
    (False, True)
    """
    if kind in ("person", "place"):  # a name is no pattern to look for: the saying so is enough
        return bool(PENDING.search(text) or UNCONFIRMED.search(text))
    if kind not in ("number", "time") or not PENDING.search(text):
        return False
    return not (_COUNT if kind == "number" else _DAY).search(_without_dateline(text))


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


STATES = tuple(tuple(group) for group in table("questions")["states"]["groups"])


def _says(phrase: str, text: str) -> bool:
    return bool(re.search(rf"(?<![a-z]){re.escape(phrase)}(?![a-z])", text)) if phrase.isascii() else phrase in text


def same_state(folded_question: str, cells: Iterable[str]) -> list[str]:
    """The cells (as given) that name a state the question names in other words ("能正常用的叉车" → 在用; "out of
    action" → "Under repair"): one group of :data:`STATES` holds both phrases.

    >>> same_state("西岭仓现在能正常用的叉车有几台？", ["在用", "维修中", "已报废", "叉车"])
    ['在用']
    >>> same_state("how many boats are out of action?", ["In service", "Under repair"]), same_state("叉车有几台？", ["在用"])
    (['Under repair'], [])
    """
    out: list[str] = []
    for group in STATES:
        if any(_says(p, folded_question) for p in group):
            out += [c for c in cells if c.strip().lower() in group and not _says(c.strip().lower(), folded_question)]
    return list(dict.fromkeys(out))


def state_phrases(folded_question: str) -> list[str]:
    """The phrases of :data:`STATES` the question says ("valid" of "how many health plan valid labrador?"): a state,
    no qualifier a table must write as asked.

    >>> state_phrases("how many health plan valid labrador?"), state_phrases("叉车有几台？")
    (['valid'], [])
    """
    return [p for group in STATES for p in group if _says(p, folded_question)]


NEW_TOPIC = re.compile(r"^\s*(?:(?:那)?(?:换个(?:问题|话题)|另(?:外|一)个问题|再问(?:一|个)个?问题|还有一个问题|问个别的|另外问(?:一下|下)|"
                       r"顺便问(?:一下|下))|(?:(?:a|one)\s+)?(?:different|another|new|separate|unrelated|other)\s+(?:question|topic)|"
                       r"(?:on\s+)?another\s+note|change\s+of\s+subject|by\s+the\s+way|btw)\s*[：:，,。.;；!！—–-]\s*", re.I)
"""A message that opens by changing the subject ("换个问题：…", "Different question: …"): what follows stands on its
own, and the opening is no part of what is asked."""


ASKERS_REQUEST = frozenset({"帮忙", "帮帮忙", "麻烦", "劳驾", "希望", "想要", "打算", "准备"})
"""How the asker asks ("想让你们帮忙贴个标签"), never what the documents are about: "帮忙" is no "turn" to look up,
nor a term a source must hold (when no document writes it)."""
