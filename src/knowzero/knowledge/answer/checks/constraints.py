"""Constraints a question sets that its answer must meet: the year it asks about, the edition or session
("第七届", "首批", a line's "一期"), the quarter or month ("第二季度", "前三季度", "9月"), the date, the place named
with its level ("清渠市", "凤城站"), the men's or the women's ("女子单打"), the placing ("冠军") (pure).

A reply can be about the question's topic and still answer a different question: "2021年香港GDP增长了多少？"
answered with the 1960s–80s growth rate, "第七届…" with the sixth, 清渠市's subsidy with 鹿原市's. Each constraint
here is read from the question as a value (years and ordinals as numbers, "第七届" = "第7届", a date as month and
day) and must be met, as a value, by the cited text or its explicit context — nearest first: the sentence giving
the value, the quote, the section heading and document title, the text around it; a news item's "今年" is the year
of its dateline. One that is not met is a finding the verdict policy turns into a decline, and the reader
prefers the sentences that meet them all.

Since session 33 it also reads, as values of a closed kind, which figure of a measure is meant ("最高气温" against
"平均气温", ``questions.toml [qualifiers]``), which event of a kind ("踩踏事故" against "交通事故", ``[events]``),
the title of a text ("《…条例》" against "《…办法》" or its draft), a product model and its variant ("X9" against
"X9 Pro"), a code of a family ("CLTC" against "WLTC") and a version ("标准版" against "长续航版"). Each counts as missed
only when the source names another value of the same kind and not the asked one, so a paraphrase that names none
never trips it; open words and roles ("开售" against "售罄") are the checker's (``check.news_slot_unmet``).
"""

from __future__ import annotations

import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from knowzero.knowledge.answer.checks.numbers import cn_value
from knowzero.knowledge.text import STOPWORDS, fold, tokens
from knowzero.vocabulary.tables import table

_YEAR = re.compile(r"(?<![\d.])((?:1[5-9]|20)\d{2})\s*年(?!代|级|度报|初|底|末|间)|(?<![\d.])((?:1[5-9]|20)\d{2})(?=\s*(?:财年|年度|赛季))"
                   r"|(?<![\d.\-/])((?:19[5-9]|20[0-3])\d)(?=[\u4e00-\u9fff])(?![年级个人元名件次米多余万亿千百家所台辆份位条项例只号届期克吨天度分秒公平])")
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
_ORDINAL = re.compile(r"第\s*([0-9]+|[一二三四五六七八九十百零〇两]+)\s*(届|期|季(?!度)|任|批|轮|场|日)|第\s*([2-9]|[1-9][0-9]|[二三四五六七八九]|[一二三四五六七八九]?十[一二三四五六七八九]?)\s*(次)(?=[\u4e00-\u9fff]{2})|(首)\s*(届|期|批|轮|场|日)"
                      r"|(?<=线)([一二三四五六七八九]|[1-9])\s*(期)|(?<![第0-9一二三四五六七八九十百零〇两])([一二三四五六七八九]|[1-9])\s*(期)(?=工程|项目)")
"""An edition, session, round or day ("第七届", "第3期", "首批" = the first, a line's "二期" works); not "第一次"
(often just "first") nor "第二代" (a generation)."""
_PERIOD = re.compile(r"(前三季度)|(?<!前)(?:第\s*)?([一二三四1-4])\s*季度|([上下])半年|(?<![\d.\-/])(1[0-2]|[1-9])\s*月(?![\d份]*\s*\d{0,2}\s*[日号])(?!份?\d)")
"""A part of a year a figure is for: a quarter ("第二季度", "一季度"), the first nine months, a half-year, a
month ("9月完成…": a month's figure, not the first three quarters'; not the month of a date, "9月12日")."""
_RANK = re.compile(r"冠军|亚军|季军|金牌|银牌|铜牌")
"""A placing: the winner's prize is not the runner-up's."""
_GROUP = re.compile(r"(男|女)(?:子|性|单|双|篮|足|排|队)")
"""The men's or the women's ("女子单打", "男性"): a women's final is not answered by the men's."""
_PLACE = re.compile(r"([\u4e00-\u9fff]{2})(省|市|县|镇|站)(?!级)")
"""A place named with its level ("清渠市", "甘溪县", "凤城站"): by the two characters before the level word."""
_NOT_PLACE_FIRST = frozenset("年月日时上下于在的了是和与及至从到对为全本该各每此我两多一等个并将已其或")
_NOT_PLACE_LAST = frozenset("上下超股楼车夜集菜全本该各每此两多一个级区设直出入开省县乡镇总分网驿建撤升改治去来回往到")
"""Characters that make the two before 市/县/站 no place name: a function word first ("在城市", "年全市"), or the
first of a common word ending in the level word last ("上市", "超市", "车站", "总站", "建省", "自治县"…), or a verb
of going ("开车去市民中心": 市 begins 市民中心)."""
_LABEL = re.compile(r"(?<![A-Za-z0-9])(?:([A-Z])\s*(线|栋|座|区|馆|厅|门|楼|班)|(\d{1,2})\s*号(线|楼|门|厅|馆))")
"""An item named by a letter or number and its kind ("C线", "B栋", "2号楼"): a source that lists the A and B lines
and not C speaks of other items of that kind."""
_PHRASAL = re.compile(r"(?i)\b(check|log|sign|clock|move|opt|cash|time)[\s-]?(in|out)\b")
"""An English verb whose particle sets the event ("check in" against "check-out", "sign out"): a source that
speaks only of the other one answers another question."""
_MODEL = re.compile(r"(?<![A-Za-z0-9])([A-Z]{1,3})[-\s]?(\d{1,4})(?![\d.])(?:\s*(pro\+?|max|plus|ultra|mini|lite|se)(?![a-z]))?(?!\s*(?:年|月|日|号|级|期|届|%|点|时|及|以|或|至|到|-|~|and|or))",
                    re.I)
"""A product model ("X9", "E7", "X9 Pro"): a source on the X9 Pro or the X8 speaks of another model than the X9."""
_CODE = re.compile(r"(?<![A-Za-z])([A-Z]{3,5})(?![A-Za-z])")
"""A code in capitals ("CLTC"): a source giving the figure under a code of its family ("WLTC") gives another figure."""
_VERSION = re.compile(r"([\u4e00-\u9fff]{2,3}?)(?<![出再改排盗正翻绝头初首第])版(?![本权面图画块税次社号])")
"""A version named with 版 ("标准版", "长续航版"): a figure for the long-range version is not the standard one's."""
_EVENTS = table("questions")["events"]
_EVENT_HEADS = re.compile("|".join(sorted(map(re.escape, _EVENTS["heads"]), key=len, reverse=True)))
_POINTERS = frozenset(_EVENTS["pointers"])
"""Nouns naming a kind of event, list or prize ("事故", "百强榜"), and the words before them that say no which one."""
_POSTS = table("questions")["posts"]
_POST = re.compile("(" + "|".join(sorted(map(re.escape, _POSTS["deputies"]), key=len, reverse=True)) + ")?("
                   + "|".join(sorted(map(re.escape, _POSTS["heads"]), key=len, reverse=True)) + ")")
"""A post ("会长", "总经理") with the word before it that makes another post ("常务副", "名誉"): the deputy is not the
head."""
_TITLE = re.compile(r"《([^《》]{2,40})》")
"""A work, law or rule named by its title ("《泊阳市电动自行车管理条例》"): a source on another title (the city's
earlier 《…管理办法》, the 《…（草案）》) speaks of another text."""
_QUALIFIER_GROUPS: tuple[tuple[str, ...], ...] = tuple(tuple(g) for g in table("questions")["qualifiers"]["groups"])
_QUALIFIER = {q: g[0] for g in _QUALIFIER_GROUPS for q in g}
_QUALIFIERS_LONGEST_FIRST = tuple(sorted(_QUALIFIER, key=len, reverse=True))
_QUALIFIERS = re.compile("|".join(map(re.escape, _QUALIFIERS_LONGEST_FIRST)))
"""Words that set which figure of a measure is meant ("最高气温", "单日降雨量"; ``questions.toml [qualifiers]``)."""
_DATE = re.compile(r"(?<![\d.])([0-9]{1,2}|[一二三四五六七八九十]+)\s*月\s*([0-9]{1,2}|[一二三四五六七八九十]+)\s*[日号]")


@dataclass(frozen=True)
class Constraint:
    kind: str
    """The kind: "year", "cohort" (a year of entry: "2027级"), "ordinal", "period", "group", "rank", "place:<level>",
    "date", "label", "phrasal" ("check in"), "title", "post:<head>", "model:<letters>", "code:<family>", "version", "event:<head>"
    or "qualifier:<measure>"."""
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
    for m in _YEAR.finditer(q):  # also a year naming an edition: "2023青川马拉松", "2023款"
        year = m.group(1) or m.group(2) or m.group(3)
        out.append(Constraint("year", year, m.group(0)))
    for m in _COHORT.finditer(q):
        out.append(Constraint("cohort", m.group(1), m.group(0)))
    for m in _EN_YEAR.finditer(q):
        out.append(Constraint("year", m.group(1), m.group(0).strip()))
    for m in _ORDINAL.finditer(q):
        out.append(Constraint("ordinal", _ordinal(m), m.group(0)))
    for m in _PERIOD.finditer(q):
        out.append(Constraint("period", _period(m), m.group(0)))
    for m in _GROUP.finditer(q):
        out.append(Constraint("group", m.group(1), m.group(0)))
    for m in _RANK.finditer(q):
        out.append(Constraint("rank", _RANKS[m.group(0)], m.group(0)))
    for stem, level in _places(q):
        out.append(Constraint(f"place:{level}", stem, stem + level))
    for m in _DATE.finditer(q):
        out.append(Constraint("date", f"{_digits(m.group(1))}-{_digits(m.group(2))}", m.group(0)))
    for m in _LABEL.finditer(q):
        out.append(Constraint("label", _label(m), m.group(0)))
    for m in _MODEL.finditer(q):
        if m.group(1).isupper():
            out.append(Constraint(f"model:{m.group(1).lower()}", _model(m), m.group(0)))
    for m in _CODE.finditer(q):
        out.append(Constraint(f"code:{len(m.group(1))}{m.group(1)[-2:].lower()}", m.group(1).lower(), m.group(0)))
    for m in _VERSION.finditer(fold(q)):
        out.append(Constraint("version", m.group(1), m.group(0)))
    for m in _POST.finditer(fold(q)):
        out.append(Constraint(f"post:{m.group(2)}", m.group(1) or "", m.group(0)))
    for m in _TITLE.finditer(q):
        out.append(Constraint("title", _title(m.group(1)), m.group(0)))
    for head, which in _events(q):
        out.append(Constraint(f"event:{head}", which, which + head))
    for qualifier, measure in _qualified(q):
        out.append(Constraint(f"qualifier:{measure}", _QUALIFIER[qualifier], qualifier + measure))
    for m in _PHRASAL.finditer(q):
        out.append(Constraint("phrasal", f"{m.group(1).lower()}-{m.group(2).lower()}", m.group(0)))
    return tuple(dict.fromkeys(out))


_RANKS = {"冠军": "1", "金牌": "1", "亚军": "2", "银牌": "2", "季军": "3", "铜牌": "3"}


def _ordinal(m: re.Match[str]) -> str:
    if m.group(3):  # 第七次 (a census, a congress); not 第一次, often just "the first time"
        return f"{_digits(m.group(3))}次"
    if m.group(5):
        return f"1{m.group(6)}"  # 首届 = 第一届
    if m.group(7) or m.group(9):  # a line's or a project's phase ("4号线一期", "二期工程")
        return f"{_digits(m.group(7) or m.group(9))}期"
    return f"{_digits(m.group(1))}{m.group(2)}"


def _period(m: re.Match[str]) -> str:
    if m.group(1):
        return "9M"
    if m.group(2):
        return f"Q{_digits(m.group(2))}"
    if m.group(4):
        return f"M{int(m.group(4))}"
    return "H1" if m.group(3) == "上" else "H2"


def _places(text: str) -> list[tuple[str, str]]:
    """The places ``text`` names with a level word, as (the two characters before it, the level).

    >>> _places("2022年清渠市居民人均预期寿命"), _places("全市共报告，公司上市，城市"), _places("春运首日凤城东站发送旅客")
    ([('清渠', '市')], [], [('城东', '站')])
    >>> _places("我拿了省级职业技能大赛一等奖"), _places("清渠市政府发布"), _places("為什麼中國的市又可以被稱為市井？")
    ([], [('清渠', '市')], [])
    >>> _places("开车去市民中心办事")
    []
    """
    return [(m.group(1), m.group(2)) for m in _PLACE.finditer(fold(text))  # Traditional read as Simplified
            if m.group(1)[0] not in _NOT_PLACE_FIRST and m.group(1)[1] not in _NOT_PLACE_LAST | _NOT_PLACE_FIRST]


def _model(m: re.Match[str]) -> str:
    return f"{m.group(1).lower()}{int(m.group(2))}" + (f" {m.group(3).lower()}" if m.group(3) else "")


def _title(name: str) -> str:
    return re.sub(r"\s+", "", fold(name))


_ASKING = re.compile(r"什么|甚么|哪|何|几|多少")
"""Words that ask which ("什么事件"): no which of the question's own."""


def _events(text: str, window: int = 2) -> list[tuple[str, str]]:
    """(head, which) for each event noun ``text`` names with the two characters before it ("踩踏事故" → 事故, 踩踏;
    ``window`` characters before it as ``which``, for a source whose words may stand in another order); a word that
    points back ("此次事故") or a non-word (digits, punctuation) names no which.

    >>> _events("寺庙踩踏事故造成多少人死亡？"), _events("此次事故造成3人受伤"), _events("2023年全国县域经济百强榜上")
    ([('事故', '踩踏')], [], [('百强榜', '经济')])
    >>> _events("1993年3月，关于长谷川町子，发生了什么事件？")
    []
    """
    t = fold(text)
    out = []
    for m in _EVENT_HEADS.finditer(t):
        which = t[max(0, m.start() - 2):m.start()]
        if len(which) == 2 and re.fullmatch(r"[\u4e00-\u9fff]{2}", which) and which not in _POINTERS \
                and which[1] not in "的了和与及或在是" and not _ASKING.search(which):
            out.append((m.group(0), t[max(0, m.start() - window):m.start()]))
    return out


def _qualified(text: str) -> list[tuple[str, str]]:
    """(qualifier, measure) pairs the question writes ("最高气温" → 最高, 气温): a qualifier right before a word
    of two or more characters that is none.

    >>> _qualified("2022年7月泊阳市的最高气温是多少？"), _qualified("永宁县城单日降雨量是多少？"), _qualified("最高是多少？")
    ([('最高', '气温')], [('单日', '降雨量')], [])
    """
    t = fold(text)
    out = []
    for m in _QUALIFIERS.finditer(t):
        rest = tokens(t[m.end():m.end() + 12], search=False)
        word = rest[0] if rest else ""
        if len(word) >= 2 and not word.isascii() and word not in _QUALIFIER and word not in STOPWORDS \
                and not _ASKING.search(word) \
                and not _QUALIFIERS.match(word):
            out.append((m.group(0), word))
    return out


def _qualifiers_of(measure: str, text: str) -> set[str]:
    """The qualifiers ``text`` writes right before ``measure`` ("全市平均气温30.4℃" → 平均 for 气温)."""
    t = fold(text)
    out = set()
    for m in re.finditer(re.escape(measure), t):
        before = t[max(0, m.start() - 4):m.start()]
        if (q := next((q for q in _QUALIFIERS_LONGEST_FIRST if before.endswith(q)), None)) is not None:
            out.add(_QUALIFIER[q])
    return out


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
        return {_ordinal(m) for m in _ORDINAL.finditer(t)}
    if kind == "period":
        return {_period(m) for m in _PERIOD.finditer(t)}
    if kind == "group":
        return {m.group(1) for m in _GROUP.finditer(t)}
    if kind == "rank":
        return {_RANKS[m.group(0)] for m in _RANK.finditer(t)}
    if kind.startswith("place:"):
        return {stem for stem, level in _places(t) if level == kind.split(":", 1)[1]}
    if kind.startswith("phrasal:"):  # the same verb's particles ("check": check-in, check-out)
        verb = kind.split(":", 1)[1]
        return {f"{v}-{m.group(2).lower()}" for m in _PHRASAL.finditer(t) if (v := m.group(1).lower()) == verb}
    if kind.startswith("post:"):  # the head or a deputy of the asked post ("副" 会长 for 会长)
        head = kind.split(":", 1)[1]
        return {m.group(1) or "" for m in _POST.finditer(fold(t)) if m.group(2) == head}
    if kind == "title":
        return {_title(m.group(1)) for m in _TITLE.finditer(t)}
    if kind.startswith("event:"):  # which event of the kind ("交通" 事故 for 踩踏事故), with the words before it
        head = kind.split(":", 1)[1]
        return {which for h, which in _events(t, window=6) if h == head}
    if kind == "version":
        return {m.group(1) for m in _VERSION.finditer(fold(t))}
    if kind.startswith("model:"):  # the models of the asked letter ("X": X8, X9, X9 Pro)
        return {_model(m) for m in _MODEL.finditer(t) if m.group(1).lower() == kind.split(":", 1)[1]}
    if kind.startswith("code:"):  # the codes of the asked family ("4tc": CLTC, WLTC)
        family = kind.split(":", 1)[1]
        return {c.lower() for c in _CODE.findall(t) if f"{len(c)}{c[-2:].lower()}" == family}
    if kind.startswith("qualifier:"):  # which figure of the measure ("平均" 气温 for 最高气温)
        return _qualifiers_of(kind.split(":", 1)[1], t)
    if kind.startswith("label:"):  # the items of the asked kind ("线": A线, B线)
        suffix = kind.split(":", 1)[1]
        return {v for m in _LABEL.finditer(t) if (v := _label(m)).endswith(suffix)}
    return {f"{_digits(m.group(1))}-{_digits(m.group(2))}" for m in _DATE.finditer(t)}


def missed(constraints: tuple[Constraint, ...], evidence: str | Sequence[str], year: int | None = None) -> list[Constraint]:
    """The constraints ``evidence`` (the cited text with its explicit context) does not meet. A constraint
    counts as missed only when the evidence names a value of the same kind and not the asked one — a
    source that names no year at all neither meets nor breaks a year (it may be the asked year's own
    document), one that names only other years answers about another time. ``year``: the document's own
    year (:func:`document_year`), which its "今年", "去年" name.

    ``evidence`` may be layers, nearest first (the sentence giving the value, the quote, its title and section,
    the text around it): for each constraint the nearest layer that names a value of its kind decides. A sentence about
    鹿原市 misses 清渠市 even when the next paragraph compares the two cities.

    >>> [c.written for c in missed(constraints_of("2023年前三季度宁港港集装箱吞吐量是多少？"), "今年前三季度完成471万标箱", 2022)]
    ['2023年']
    >>> [c.written for c in missed(constraints_of("清渠市二孩每年补贴多少钱？"), "鹿原市对二孩家庭每年发放3600元")]
    ['清渠市']
    >>> missed(constraints_of("清渠市二孩每年补贴多少钱？"), ["鹿原市发放3600元。", "鹿原市育儿补贴", "鹿原市与清渠市相邻"])[0].written
    '清渠市'
    """
    return [c for c, ok in decided(constraints, evidence, year) if not ok]


def decided(constraints: tuple[Constraint, ...], evidence: str | Sequence[str],
            year: int | None = None) -> list[tuple[Constraint, bool]]:
    """Each constraint the evidence speaks to, with whether it meets it (its nearest layer naming a value of the
    constraint's kind decides); the constraints it is silent on are left out."""
    layers = [evidence] if isinstance(evidence, str) else list(evidence)
    if year is not None:
        layers = [_RELATIVE_YEAR.sub(lambda m: f"{year + _RELATIVE_YEARS[m.group(0)]}年", t) for t in layers]
    layers = [_this_edition(t, layers[i + 1:]) for i, t in enumerate(layers)]
    out = []
    for c in constraints:
        if c.kind in ("year", "cohort") and any(_in_open_range(int(c.value), t) for t in layers):
            out.append((c, True))  # "2025年及以前入学的…按…收费" beside the row holds 2024, whatever the title's school year
            continue
        for text in layers:
            verdict = _decides(c, text)
            if verdict is not None:
                out.append((c, verdict))
                break
    return out


def _decides(c: Constraint, evidence: str) -> bool | None:
    """Whether ``evidence`` meets ``c`` (True), names only other values of its kind (False), or names none (None)."""
    kind = f"label:{c.value[-1]}" if c.kind == "label" else f"phrasal:{c.value.split('-')[0]}" \
        if c.kind == "phrasal" else c.kind
    if c.kind.startswith("place:") and _names_place(c.value, c.kind[-1], unicodedata.normalize("NFKC", evidence)):
        return True
    found = _values(kind, evidence)
    if c.kind == "ordinal":  # an edition against editions, a day against days
        found = {v for v in found if v[-1] == c.value[-1]}
    if c.kind == "title":  # titles of the asked one's family ("…管理办法" beside "…管理条例"); an alias is no other text
        found = {v for v in found if len(os.path.commonprefix([v, c.value])) >= min(4, len(c.value) - 1)}
    if c.kind.startswith("event:"):  # "国际定期航线" is the 定期国际 one: the asked words anywhere just before it
        found = {c.value if c.value in v else v[-2:] for v in found}
    if c.kind == "version":  # "推出标准版" is read as 出标准: the same version when one name ends the other
        found = {c.value if v.endswith(c.value) or c.value.endswith(v) else v for v in found}
    if not found:
        return None
    return c.value in found or (c.kind in ("year", "cohort") and _in_open_range(int(c.value), evidence))


def _names_place(stem: str, level: str, text: str) -> bool:
    """``text`` names the place: with its level word, or by its name alone ("清渠" in a title) when no longer
    name of that level starts with it ("凤城东站" is another station than 凤城站).

    >>> _names_place("凤城", "站", "凤城东站发送旅客"), _names_place("清渠", "市", "清渠育儿补贴"), _names_place("凤城", "站", "凤城站")
    (False, True, True)
    """
    text = fold(text)
    return stem + level in text or (stem in text and not re.search(re.escape(stem) + r"[\u4e00-\u9fff]{1,2}" + level, text))


_RELATIVE_YEARS = {"今年": 0, "本年": 0, "当年": 0, "去年": -1, "上年": -1, "前年": -2, "明年": 1}
_RELATIVE_YEAR = re.compile("|".join(_RELATIVE_YEARS))
_DATELINE = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*(?:年\s*\d{1,2}\s*月|[-/.]\s*\d{1,2}\s*[-/.]\s*\d{1,2})")


def document_year(text: str) -> int | None:
    """The year a document is dated, read from a full date near its start (a news dateline "2022年10月14日",
    "（2023-05-06）"): what its "今年" means. None when its opening has no full date.

    >>> document_year("# 标题\\n本报讯（记者 王某）2022年10月14日，今年前三季度…"), document_year("今年前三季度")
    (2022, None)
    """
    m = _DATELINE.search(unicodedata.normalize("NFKC", text[:300]))
    return int(m.group(1)) if m else None


_THIS_EDITION = re.compile(r"(?:本|该|这|此|当)(届|期|批|轮)")


def _this_edition(text: str, context: Sequence[str]) -> str:
    """``text`` with "本届" read as the edition its wider ``context`` (the outer layers) names first ("第九届…落幕。
    …本届…共接待游客72.6万人次" is the ninth's figure).

    >>> _this_edition("本届共接待游客72.6万人次", ["第九届茶文化节昨日落幕。明年第十届将扩大规模"])
    '第9届共接待游客72.6万人次'
    """
    if not _THIS_EDITION.search(text):
        return text
    first: dict[str, str] = {}  # each kind's first edition in the context, read once
    for o in map(_ordinal, _ORDINAL.finditer(" ".join(context))):
        first.setdefault(o[-1], o)

    def named(m: re.Match[str]) -> str:
        return f"第{first[m.group(1)]}" if m.group(1) in first else m.group(0)
    return _THIS_EDITION.sub(named, text)


def _in_open_range(year: int, evidence: str) -> bool:
    """The evidence names a range of years that holds ``year`` ("2025级及以前" holds 2024; "2020 or later" 2023).

    >>> _in_open_range(2024, "2025级及以前（元/学年）: 5400"), _in_open_range(2027, "2025级及以前: 5400；2026级: 5800")
    (True, False)
    """
    t = unicodedata.normalize("NFKC", evidence)
    return any(year <= int(m.group(1)) for m in _BEFORE.finditer(t)) or any(year >= int(m.group(1)) for m in _AFTER.finditer(t))
