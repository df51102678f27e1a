"""Numeric bands in table keys: "满5年不满10年", "300–800公里", "5000元以上", "不满1年" (pure).

A question names a value ("司龄6年", "单程500公里", "3年半") and a policy table keys its rows by ranges; the
row whose range holds the value answers, compared as numbers with the same unit — not the header row, not
the first row. :func:`quantities` reads the question's values, :func:`band` a cell's range.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUM = r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)"
_UNIT = r"(年级|年|个月|月|天|日|岁|公里|km|千米|英里|公斤|千克|kg|元|万元|美元|英镑|小时|分钟|人|次|层|楼|平方米|㎡|%|米|节|课时|件|箱)"
_Q_VALUE = re.compile(_NUM + r"\s*" + _UNIT + r"(半)?", re.I)
_Q_HALF = re.compile(r"((?<!\d)\d{1,12})\s*(年|个月|小时|天)半")
_SPOKEN_HOURS = re.compile(r"(\d{1,3}|[一二两三四五六七八九十])个(半)?(?:钟头|小时)")
"""Hours as spoken: "一个半小时" is 1.5 hours, "两个小时" 2 (read as "1小时半", "2小时")."""
_CN = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "十": 10}


@dataclass(frozen=True)
class Band:
    low: float
    high: float
    unit: str
    low_inclusive: bool = True
    high_inclusive: bool = False

    def measures(self, unit: str) -> bool:
        """Whether values of ``unit`` are compared with this band at all (km and 公里 are one unit; minutes
        and hours are one measure)."""
        return _norm_unit(unit) == _norm_unit(self.unit)

    def holds(self, value: float, unit: str) -> bool:
        """Whether the band holds ``value`` of ``unit``, both in the measure's base unit ("90分钟" is held by
        "超过30分钟，不超过2小时")."""
        if not self.measures(unit):
            return False
        if unit == MONTH and value + 12 <= self.high:
            value += 12  # "October to March" holds January
        value *= _SCALE.get(unit, 1.0)
        low, high = self.low * _SCALE.get(self.unit, 1.0), self.high * _SCALE.get(self.unit, 1.0)
        above = value >= low if self.low_inclusive else value > low
        below = value <= high if self.high_inclusive else value < high
        return above and below


_SCALE = {"分钟": 1 / 60}
"""A unit's size in its measure's base unit (:func:`_norm_unit`): a minute is a sixtieth of an hour."""


def _norm_unit(unit: str) -> str:
    return {"km": "公里", "千米": "公里", "日": "天", "月": "个月", "kg": "公斤", "千克": "公斤", "楼": "层",  # 18楼: the 18th floor
            "㎡": "平方米", "分钟": "小时"}.get(unit.lower(), unit.lower())


_EN_UNIT = r"(years?|yrs?|miles?|months?|days?|hours?|km|kilometers?|kilometres?|kg|kilograms?|kilogrammes?|kilos?|metres?|meters?|m(?![a-z]))"
_EN_ZH = {"y": "年", "m": "个月", "d": "天", "h": "小时", "k": "公里"}
_EN_N = r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)"
_DOLLARS = re.compile(r"(?:\$|\busd\s?|\bus\$\s?)(\d{1,3}(?:,\d{3})+|\d{1,12})(?:\.\d{1,2})?(?![\d,])", re.I)
"""A dollar amount: "$3,000", "USD 4,000", "US$500" (its cents dropped: a band's "2,500.01" starts past 2,500)."""
_POUNDS = re.compile(r"£\s?(\d{1,3}(?:,\d{3})+|\d{1,12})(?:\.\d{1,2})?(?![\d,])")
"""A sterling amount: "£1,499", "£600" (pence dropped, as a dollar amount's cents)."""
_USD = r"(\d{1,12})(美元|英镑)"
_YEAR_GROUPS = re.compile(r"\bYears?\s+(\d{1,2})\s*(?:-|–|—|to)\s*(\d{1,2})\b", re.I)
"""School year groups as a range ("Years 7–9"): a band of 年级 a pupil's "Year 8" falls in."""
_YEAR_GROUP = re.compile(r"\bYear\s+(\d{1,2})\b(?!\s*(?:-|–|—|to)\s*\d)", re.I)
_EN_FORMS = [  # English range words → the Chinese forms :func:`band` reads (units as the Chinese unit)
    (_YEAR_GROUPS, lambda m: f"{m.group(1)}-{m.group(2)}年级"),
    (_DOLLARS, lambda m: m.group(1).replace(",", "") + "美元"),
    (_POUNDS, lambda m: m.group(1).replace(",", "") + "英镑"),
    (re.compile(r"(?:more than|over|above)\s+" + _USD + r"\s+(?:up to|to|and up to|through)\s+" + _USD, re.I),
     lambda m: f"超过{m.group(1)}{m.group(2)}至{m.group(3)}{m.group(4)}"),
    (re.compile(r"(?:up to|at most|not more than)\s+" + _USD, re.I), lambda m: f"{m.group(1)}{m.group(2)}以内"),
    (re.compile(_USD + r"\s*(?:-|–|—|to)\s*" + _USD, re.I), lambda m: f"{m.group(1)}{m.group(2)}至{m.group(3)}{m.group(4)}"),
    (re.compile(r"(?:more than|over|above)\s+" + _USD, re.I), lambda m: f"超过{m.group(1)}{m.group(2)}"),
    (re.compile(r"(?:less than|under|below)\s+" + _USD, re.I), lambda m: f"不满{m.group(1)}{m.group(2)}"),
    (re.compile(_USD + r"\s+(?:or more|and over|and above|or over)", re.I), lambda m: f"{m.group(1)}{m.group(2)}及以上"),
    (re.compile(r"(?:more than|over|above)\s+" + _EN_N + r"\s*" + _EN_UNIT + r"?,?\s+(?:and\s+)?(?:up to|to|through|and not more than)\s+"
                + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"超过{m.group(1)}{_zh(m.group(4))}至{m.group(3)}{_zh(m.group(4))}"),  # "Over 6 hours, up to 9 hours"
    (re.compile(r"(?:up to|at most|not more than)\s+" + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"{m.group(1)}{_zh(m.group(2))}以内"),
    (re.compile(_EN_N + r"\s*" + _EN_UNIT + r"?\s+(?:to|-)\s+(?:less than|under|below)\s+" + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"满{m.group(1)}{_zh(m.group(4))}不满{m.group(3)}{_zh(m.group(4))}"),
    (re.compile(r"(?:less than|under|fewer than|below)\s+" + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"不满{m.group(1)}{_zh(m.group(2))}"),
    (re.compile(r"(?:at least|minimum of)\s+" + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"满{m.group(1)}{_zh(m.group(2))}及以上"),
    (re.compile(_EN_N + r"\s*\+?\s*" + _EN_UNIT + r"\s+(?:or more|and (?:above|over|more)|or longer)", re.I),
     lambda m: f"满{m.group(1)}{_zh(m.group(2))}及以上"),
    (re.compile(_EN_N + r"\+\s*" + _EN_UNIT, re.I), lambda m: f"满{m.group(1)}{_zh(m.group(2))}及以上"),
    (re.compile(r"(?:more than|over)\s+" + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"超过{m.group(1)}{_zh(m.group(2))}"),
    (re.compile(_EN_N + r"\s*(?:-|–|to)\s*" + _EN_N + r"\s*" + _EN_UNIT, re.I),
     lambda m: f"{m.group(1)}-{m.group(2)}{_zh(m.group(3))}"),
]
_EN_VALUE = re.compile(_EN_N + r"\s*(?:-\s*)?" + _EN_UNIT + r"\b", re.I)


def without_quantities(text: str) -> str:
    """``text`` without the phrases that state a quantity ("a Year 9 pupil", "迟到30分钟", "8 kg"): what chose a band's
    row names no column ("Year 9" is no "Full year").

    >>> without_quantities("My son's starting Year 9 in September. Which tie does he need?")
    "My son's starting   in September. Which tie does he need?"
    """
    text = _YEAR_GROUP.sub(" ", _YEAR_GROUPS.sub(" ", text))
    return _EN_VALUE.sub(" ", _Q_VALUE.sub(" ", text))


def is_unit(word: str) -> bool:
    """A unit a quantity is measured in ("小时", "公里", "km"): the measure of a number, never a thing named.

    >>> is_unit("小时"), is_unit("师傅")
    (True, False)
    """
    return word.lower() in _UNITS


_UNITS = frozenset(_UNIT.strip("()").split("|"))


def _zh(unit: str) -> str:
    u = unit.lower()
    if u.startswith("mile"):
        return "英里"
    if u == "m" or u.startswith(("metre", "meter")):
        return "米"  # a boat's or a vehicle's length ("an 11 m yacht", "Up to 8.00 m"); months are "month"
    return "公斤" if u == "kg" or u.startswith("kilo") and not u.startswith("kilom") else _EN_ZH[u[0]]


def _from_english(text: str) -> str:
    for pattern, form in _EN_FORMS:
        text = pattern.sub(form, text)
    return text


_PER = re.compile(r"(?<![\d一二两三四五六七八九十百千万第])一(年|个月|月|周|天|晚|次)(?=[能可最要会得共累都只就才收]|多少|到底|究竟|大概|几)")
""""一年能…", "一个月最多…", "一天到底多少钱": one unit as the period a rule counts over (每年), before a modal, an
adverb or the asked amount."""


def quantities(question: str) -> list[tuple[float, str]]:
    """The values with a unit a question names: "司龄3年半的员工" → [(3.5, "年")].

    >>> quantities("司龄3年半的员工有几天年假？"), quantities("单程500公里的出车补贴"), quantities("工作了8年")
    ([(3.5, '年')], [(500.0, '公里')], [(8.0, '年')])
    >>> quantities("PTO for someone with 3 years of service?"), quantities("a 12-month contract")
    ([(3.0, '年')], [(12.0, '个月')])
    >>> quantities("Who approves a $3,000 purchase?"), quantities("an expense claim of USD 4,000?")
    ([(3000.0, '美元')], [(4000.0, '美元')])
    >>> quantities("a move of about 60 miles costing £1,200"), quantities("搬家总价1200英镑")
    ([(60.0, '英里'), (1200.0, '英镑')], [(1200.0, '英镑')])
    >>> quantities("请假超过10天要谁审批？"), quantities("more than 5 days of leave")
    ([(10.01, '天')], [(5.01, '天')])
    >>> quantities("send a 4 kg parcel"), quantities("寄一个3公斤的包裹")
    ([(4.0, '公斤')], [(3.0, '公斤')])
    >>> quantities("one night for an 11 m yacht"), quantities("my 11-metre yacht"), quantities("4.2米的货车"), quantities("120平方米")
    ([(11.0, '米')], [(11.0, '米')], [(4.2, '米')], [(120.0, '平方米')])
    >>> quantities("临停了一个半小时"), quantities("停了半小时"), quantities("停了90分钟"), quantities("两个小时")
    ([(1.5, '小时')], [(0.5, '小时')], [(90.0, '分钟')], [(2.0, '小时')])
    >>> quantities("What's the Spring term fee for a Year 8 pupil?"), quantities("七年级学生")
    ([(8.0, '年级')], [(7.0, '年级')])
    >>> quantities("干了四年多了，一年能休几天年假？"), quantities("工作一年多了"), quantities("if I'm five hours late")
    ([(4.0, '年')], [(1.0, '年')], [(5.0, '小时')])
    >>> quantities("那B组租5天的话，一天到底多少钱？")
    [(5.0, '天')]
    """
    q = _PER.sub(r"每\1", counts_in_digits(question))  # "一年能休几天": a rate per year, not a year the asker names
    q = _SPOKEN_HOURS.sub(lambda m: f"{_CN.get(m.group(1), m.group(1))}小时{m.group(2)}", q)
    q = re.sub(r"(?<![\d一二两三四五六七八九十个])半(?:个)?小时", "0.5小时", q)
    q = re.sub(r"([一二两三四五六七八九十])(?=年|个月|天|小时)", lambda m: str(_CN[m.group(1)]), q)
    dollars = [(float(m.group(1).replace(",", "")) + _beyond(q, m.start()), "美元") for m in _DOLLARS.finditer(q)] + \
        [(float(m.group(1).replace(",", "")) + _beyond(q, m.start()), "英镑") for m in _POUNDS.finditer(q)]
    if _english(q):  # "someone with 3 years of service" → (3.0, "年"); "a Year 8 pupil" → (8.0, "年级")
        return [(float(m.group(1)) + _beyond(q, m.start()), _zh(m.group(2))) for m in _EN_VALUE.finditer(q)] + dollars \
            + [(float(m.group(1)), "年级") for m in _YEAR_GROUP.finditer(q)] + named_months(q)
    out = dollars + named_months(q)
    for m in _Q_VALUE.finditer(q):
        value = float(m.group(1)) + (0.5 if m.group(3) else 0.0) + _beyond(q, m.start())
        out.append((value, m.group(2)))
    return out


def _english(text: str) -> bool:
    """Written in English: ASCII but for dashes and currency signs ("£600–£1,499")."""
    return re.sub(r"[–—£€¥’]", "", text).isascii()


_PAST = re.compile(r"(?:超过|超出|多于|大于|高于|(?:more|longer|greater) than|over|above|exceeding)\s*$", re.I)
_SHORT_OF = re.compile(r"(?:不满|不足|未满|少于|低于|小于|(?:less|fewer|shorter) than|under|below)\s*$", re.I)
BEYOND = 0.01
"""How far past its number a value the question bounds lies: "超过10天" is held by "10天以上", not by "3天以上至10天"."""


def _beyond(q: str, at: int) -> float:
    """+BEYOND after "超过 / more than", -BEYOND after "不满 / less than", else 0 (the words right before ``at``)."""
    before = q[max(0, at - 12):at]
    return BEYOND if _PAST.search(before) else -BEYOND if _SHORT_OF.search(before) else 0.0


_BETWEEN = re.compile(r"(?:满|超过|大于|高于|多于)?\s*" + _NUM + r"\s*" + _UNIT + r"?\s*(?:及以上|以上)?\s*"
                      r"(?:[，,、]?\s*(?:且|但)?不超过|不满|不足|未满|至|到|-|–|—|~|～)\s*" + _NUM + r"\s*" + _UNIT + r"(?:以下|以内|\(含\)|（含）)?")
_AT_LEAST = re.compile(r"(?:满|不少于|不低于)?\s*" + _NUM + r"\s*" + _UNIT + r"\s*(?:及以上|以上|或以上|\+|起)")
_ABOVE = re.compile(r"(?<!不)(?:超过|大于|高于|多于)\s*" + _NUM + r"\s*" + _UNIT)
_BELOW = re.compile(r"(?:不满|不足|未满|少于|低于|小于|不超过|不多于|不高于)\s*" + _NUM + r"\s*" + _UNIT + r"|" + _NUM + r"\s*" + _UNIT +
                    r"\s*(?:及以下|以下|以内|或以下)")


MAX_KEY_CHARS = 60
"""A range key is short ("满5年不满10年", "2 years to less than 5 years"); a longer cell is text, not a key."""


def band_in(cell: str, unit: str) -> Band | None:
    """:func:`band` of a cell whose unit only its column's header gives ("1,000.01 – 2,500" under "Amount (USD)").

    >>> [band_in(c, "USD").holds(4000, "美元") for c in ("Up to 1,000", "1,000.01 – 2,500", "2,500.01 – 5,000")]
    [False, False, True]
    """
    cell = re.sub(r"[–—~～]", "-", cell)
    if unit.lower() in ("usd", "$", "us$"):
        return band(re.sub(r"(?<![\d.,$])(\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?", r"$\1", cell))
    return band(re.sub(r"(?<![\d.])(\d+(?:\.\d+)?)(?![\d.])", rf"\1{unit}", cell)) if unit in ("元", "天", "年", "小时", "公里") else None


_CALENDAR = {"天": (("个月", 1 / 30.4),), "个月": (("天", 30.4), ("年", 1 / 12)), "年": (("个月", 12.0),)}
"""A length of time in the next unit up and down: days and months, months and years (never days as years: "超过10天"
of a leave request is no "不满1年" of service)."""


def in_other_units(asked: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """The asked lengths of time in the neighbouring units, for a table whose bands count in another one
    ("年卡办了四个月" against "31天至180天").

    >>> in_other_units([(4.0, "个月")]), in_other_units([(500.0, "公里")])
    ([(121.6, '天'), (0.333, '年')], [])
    """
    return [(round(x * k, 3), other) for x, unit in asked for other, k in _CALENDAR.get(_norm_unit(unit), ())]


def band(cell: str) -> Band | None:
    """The range a table key states, or None.

    >>> band("满5年不满10年"), band("300-800公里").holds(500, "km"), band("满20年及以上").holds(25, "年")
    (Band(low=5.0, high=10.0, unit='年', low_inclusive=True, high_inclusive=False), True, True)
    >>> band("不满1年").holds(0.5, "年"), band("5000元以上").holds(4000, "元"), band("零件A") is None
    (True, False, True)
    >>> band("1天以上至3天").holds(5, "天"), band("3天以上至10天").holds(5, "天")
    (False, True)
    >>> band("Years 7–9").holds(8, "年级"), band("Years 10–11").holds(8, "年级"), band("7-9年级").holds(7, "年级")
    (True, False, True)
    >>> [band(c).holds(1.5, "小时") for c in ("30分钟以内（含30分钟）", "超过30分钟，不超过2小时", "超过2小时的部分")]
    [False, True, False]
    >>> band("超过30分钟，不超过2小时").holds(90, "分钟"), band("不超过2小时").holds(2, "小时")
    (True, True)
    >>> band("0.5%及以下").holds(0.5, "%"), band("0.5%以上至2%（含2%）").holds(1.2, "%")
    (True, True)
    >>> band("2 years to less than 5 years").holds(3, "年"), band("10 years or more").holds(12, "年")
    (True, True)
    >>> band("Less than 2 years").holds(3, "年"), band("300-800 km").holds(500, "公里"), band("Part A")
    (False, True, None)
    >>> [band(c).holds(3000, "美元") for c in ("Up to $500", "More than $500 up to $5,000", "More than $25,000")]
    [False, True, False]
    >>> band("More than $500 up to $5,000").holds(5000, "美元"), band("More than $500 up to $5,000").holds(500, "美元")
    (True, False)
    >>> [band(c).holds(1200, "英镑") for c in ("Under £600", "£600–£1,499", "£1,500 and over")]
    [False, True, False]
    >>> [band(c).holds(60, "英里") for c in ("Local (up to 25 miles)", "Regional (26–100 miles)", "Long distance (101–250 miles)")]
    [False, True, False]
    >>> [band(c).holds(10, "小时") for c in ("Up to 6 hours", "Over 6 hours, up to 9 hours", "Over 9 hours")]
    [False, False, True]
    >>> [band(c).holds(4, "kg") for c in ("Up to 2 kg", "2.01 – 5 kg", "5.01 – 10 kg")], band("5-10公斤").holds(6, "千克")
    ([False, True, False], True)
    >>> [band(c).holds(1, MONTH) for c in ("April to September", "October to March", "Nov–Feb")]
    [False, True, True]
    """
    c = cell.strip()
    if len(c) > MAX_KEY_CHARS:
        return None
    if months := _month_range(c):
        return months
    if _english(c):  # "2 years to less than 5 years", "10 years or more", "Less than 2 years"
        c = _from_english(c)
    if m := _BETWEEN.search(c):
        unit = m.group(4) or m.group(2) or ""
        span = c[m.start():m.end()]
        high_incl = bool(re.search(r"以内|\(含\)|（含）|至|到|-|–|—|~|～|不超过", span)) and "不满" not in c
        low_incl = not re.search(r"(?<!不)(?:超过|大于|高于|多于)", span)
        low = float(m.group(1))
        if m.group(2) and m.group(4) and _norm_unit(m.group(2)) == _norm_unit(m.group(4)):
            low *= _SCALE.get(m.group(2), 1.0) / _SCALE.get(m.group(4), 1.0)  # "超过30分钟，不超过2小时": 0.5 to 2 hours
        return Band(low, float(m.group(3)), unit, low_incl, high_incl)
    if m := _AT_LEAST.search(c):
        return Band(float(m.group(1)), float("inf"), m.group(2), True, True)
    if m := _ABOVE.search(c):
        return Band(float(m.group(1)), float("inf"), m.group(2), False, True)
    if m := _BELOW.search(c):
        value, unit = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        inclusive = bool(re.search(r"以内|及以下|或以下|不超过|不多于|不高于", c))
        return Band(float("-inf"), float(value), unit, True, inclusive)
    return None


COUNT_WORDS = {"one": 1, "single": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
               "eight": 8, "nine": 9, "ten": 10}
_BARE = re.compile(r"(?<![\d.:])\d+(?![\d:])")
_COUNTED = re.compile(r"\b(one|single|two|three|four|five|six|seven|eight|nine|ten)\s+(?=[a-z]{3})", re.I)


def counts_agree(label: str, question: str) -> int:
    """How an English header's count fits the question's: +2 for each the question says too ("7 nights" of "for 7
    nights"), -1 when the header counts and the question says none of its counts ("7 nights" of "one night": the
    "Per night" column, not the week's), 0 when the header counts nothing.

    >>> counts_agree("7 nights", "how much is one night?"), counts_agree("7 nights", "what do 7 nights cost?")
    (-1, 2)
    >>> counts_agree("Per night", "how much is one night?"), counts_agree("2 hours", "two hours of parking")
    (0, 2)
    """
    held = set(_BARE.findall(label))
    if not held:
        return 0
    said = set(_BARE.findall(question)) | {str(COUNT_WORDS[m.group(1).lower()]) for m in _COUNTED.finditer(question)}
    return 2 * len(held & said) or -1


_SPELLED_COUNT = re.compile(r"\b(two|three|four|five|six|seven|eight|nine|ten)\s+(?=(?:whole\s+|full\s+)?(?:nights?|days?|hours?|"
                            r"weeks?|months?|years?|people|persons?|adults?|children|pallets?|boxes|parcels?)\b)|"
                            r"(?<![\d一二两三四五六七八九十百千])([两二三四五六七八九十])(?=个?(?:晚|夜|天|日|小时|周|星期|个月|年|人|位|次|箱|件|托盘))",
                            re.I)


def counts_in_digits(text: str) -> str:
    """``text`` with a count of two or more written as a word ("three nights", "两晚") in digits; "one night" and
    "一晚" stay (one of the unit is the rate itself, not a quantity to multiply by).

    >>> counts_in_digits("bring my 9 m boat in for three nights"), counts_in_digits("住两晚多少钱？"), counts_in_digits("one night")
    ('bring my 9 m boat in for 3 nights', '住2晚多少钱？', 'one night')
    """
    return _SPELLED_COUNT.sub(lambda m: f"{COUNT_WORDS[m.group(1).lower()]} " if m.group(1) else str(_CN[m.group(2)]),
                              text)


def quantity_word(word: str) -> bool:
    """A number written as an English word ("three") or in Chinese ("四个"), a season or a month of the year ("summer", "january", "冬天"):
    a quantity compared as a number with a table's bands, no word a table must write.

    >>> quantity_word("three"), quantity_word("summer"), quantity_word("january"), quantity_word("冬天"), quantity_word("thread"), quantity_word("四个")
    (True, True, True, True, False, True)
    """
    w = word.lower()
    return w in COUNT_WORDS or w in _MONTHS or bool(_SEASON.fullmatch(w) or _CN_NUMBER_WORD.fullmatch(w))


_CN_NUMBER_WORD = re.compile(r"[一二两三四五六七八九十百千]+个?")
"""A number written in Chinese ("四个" of 四个月): compared in digits (:func:`counts_in_digits`)."""


MONTH = "月份"
"""The unit of a month of the year (1–12; a range past December goes on to 13–24)."""
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december")
_MONTH_NAMES = {m[:3]: i for i, m in enumerate(_MONTHS, 1)}
_MONTH_WORD = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_MONTH_SPAN = re.compile(rf"^(?:from\s+)?({_MONTH_WORD})\s*(?:to|until|through|till|-|–|—)\s*({_MONTH_WORD})(?:\s*\(.*\))?$", re.I)
_SEASONS = {"spring": 4, "summer": 7, "autumn": 10, "fall": 10, "winter": 1, "春": 4, "夏": 7, "秋": 10, "冬": 1}
_SEASON = re.compile(r"\b(spring|summer|autumn|winter)\b(?!\s*(?:term|semester|half))|([春夏秋冬])(?:季|天)(?!学期)", re.I)
"""A season of the year; a school's "Spring term" (春季学期) is a term, not a season."""
_MONTH_NAMED = re.compile(rf"\b({'|'.join(m.capitalize() for m in _MONTHS)})\b")  # capitalised: "may" is a verb


def _month_range(cell: str) -> Band | None:
    """A key of months of the year ("April to September", "October to March", "Nov–Feb") as a band of months."""
    m = _MONTH_SPAN.match(cell.strip())
    if m is None:
        return None
    low, high = (_MONTH_NAMES.get(x.lower()[:3]) for x in m.groups())
    if low is None or high is None:
        return None
    return Band(float(low), float(high if high >= low else high + 12), MONTH, True, True)


def named_months(question: str) -> list[tuple[float, str]]:
    """The months of the year a question names, a season as its middle month ("in the summer" → July, "冬天" →
    January; "in June" → June; lower-case "may" is a verb).

    >>> named_months("when is the fuel berth open in the summer?"), named_months("冬天几点关门？"), named_months("staying in June")
    ([(7.0, '月份')], [(1.0, '月份')], [(6.0, '月份')])
    >>> named_months("may I bring a dog?")
    []
    """
    out = [(float(_SEASONS[(m.group(1) or m.group(2)).lower()]), MONTH) for m in _SEASON.finditer(question)]
    return out + [(float(_MONTH_NAMES[m.group(1).lower()[:3]]), MONTH) for m in _MONTH_NAMED.finditer(question)]

