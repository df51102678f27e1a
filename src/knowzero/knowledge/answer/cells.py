"""The cell a question asks for: the table row it names × the column it asks about (issue 27, item 2).

"瀚陆物流午餐员工自己要付多少钱？" over a table ``餐次 | 开放时间 | 餐标 | 员工自付`` is not answered by quoting the
row "午餐：11:00-13:00；18元；6元": it is the cell ``员工自付`` of the row ``午餐`` — "6元（午餐）", with the row cited.

    row      a text cell the question names as written (CJK) or as whole words (English), the longest such
             cell deciding; or a key range that holds a value the question names ("司龄6年" → 满5年不满10年,
             "a $3,000 purchase" → More than $500 up to $5,000)
    column   another column whose header shares a word with the question (CJK: two characters; English:
             a word stem of five letters: "approves" → Approver), or — when no header does — the one column
             whose cells are of the kind asked (a time for 几点/when)

Nothing is guessed: a question that names no row, or two columns equally, or rows of two tables with
different cells, gets no cell (``None``) and is left to the reader. Pure over :class:`SqlIndex` (read
only, parameterised SELECTs of one row by its generated ``_row`` number).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from knowzero.knowledge.answer import modifiers
from knowzero.knowledge.index.bands import (
    COUNT_WORDS,
    band,
    band_in,
    counts_agree,
    in_other_units,
    quantities,
    without_quantities,
)
from knowzero.knowledge.index.cellnames import (
    ASIDE,
    aside_named,
    bigrams,
    both_ends,
    for_other_rows,
    key_bigrams,
    named_with_aside,
    partly_named,
)
from knowzero.knowledge.index.cellnames import named as is_named
from knowzero.knowledge.index.headers import NAME_LABEL, is_number, label_unit, with_unit
from knowzero.knowledge.index.sqlindex import SqlIndex, TableInfo, normal_key
from knowzero.knowledge.ingest.csvtable import TableColumn
from knowzero.knowledge.text import pos_tags, shortened_in, stands_alone
from knowzero.vocabulary.questions import names_role, opposite_bound

_TIME = re.compile(r"^\d{1,2}[:：]\d{2}")
_LENGTH_OF_TIME = re.compile(r"天|日|小时|分钟|周|星期|月|年|学期|day|hour|minute|week|month|year|night|term|semester", re.I)
_DURATION = re.compile(r"^\d+(?:\.\d+)?\s*(?:个?(?:工作日|自然日|天|日|小时|分钟|周|月)|(?:working |business )?days?\b|hours?\b|weeks?\b|months?\b)", re.I)
_EN_WORD = re.compile(r"[a-z]{3,}")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_UNIT_NOTE = re.compile(r"[（(][^）)]{0,8}[）)]|_.*$")
_GENERIC_LABEL = frozenset("名称 类别 类型 备注 说明 name type notes note".split())
"""Headers that name no value a question asks for (a row's own name, a remark column)."""
_EMPTY = re.compile(r"[—–\-－/／]+|n/?a", re.I)
"""A cell that marks no value ("—", "N/A"): never an answer."""
_EN_FUNCTION = frozenset("the and for per with from what which who how does are was were this that".split())
_NO_CHARGE = frozenset(("free", "免费", "不收费", "无需付费", "no charge"))
"""An amount of nothing: a fee cell saying "免费" answers "收费多少？" as a number would."""
_VALUE_WORDS = frozenset("free yes no none nil included unlimited n/a 免费 是 否 有 无 不限 不适用".split())
"""Cells that are values, not names: outside the key column they never name a row."""
BAND_COLUMN_SCORE = 10
"""A column whose header is a quantity band holding the asked quantity outranks any header word match."""
COVERED_SHARE = 0.6
NAMED_KEY_CHARS = 4
BAND_STRENGTH = 100
"""How strongly a band holding the question's quantity names its row: above any key named by its characters."""
"""A Chinese row key of this many characters the question writes whole names its row plainly: half the share
of the question's terms then suffices (the rest may be the asker's own words: "洗牙（口腔洁治）属于医保哪一类")."""
"""The share of the question's content terms the table's context (its document's title and opening, the text
just before it, its headers, the row) must hold: a row named in a table about something else is not read
("the on-call stipend for a DVM on a paid holiday" is not the DVM row of the CE-allowance table)."""


@dataclass(frozen=True)
class Cell:
    """One asked cell: its table and row, the row's key as written, the column's header and the value."""

    table: TableInfo
    row: int
    key: str
    label: str
    value: str
    cells: tuple[tuple[str, str], ...] = ()  # the row's (header, value) pairs, in column order
    rule: modifiers.Rule | None = None
    """A rule beside the table that scales this cell for a condition the question names (:mod:`modifiers`)."""

    @property
    def row_text(self) -> str:
        """The row as the reader reads it: "header: value；…。"."""
        return "；".join(f"{h}: {v}" for h, v in self.cells) + "。"

    @property
    def asked_text(self) -> str:
        """The row narrowed to its key and the asked cell ("科室类别: ICU；住院医师: 280。"): the other cells
        of a one-value answer are values the reader did not ask for (the whole row is still the citation)."""
        kept = [(h, v) for h, v in self.cells if v == self.key or h == self.label]
        return "；".join(f"{h}: {v}" for h, v in kept) + "。" if len(kept) >= 2 else self.row_text

    def lead(self) -> str:
        """The one short line a reply starts with: "6元（午餐）", a bare number with its header's unit ("550元/晚
        （一类城市）" under "住宿上限（元/晚）"); :func:`in_language` words it for the reader."""
        return f"{with_unit(self.value, self.label)}（{self.key}）"


def in_language(lead: str, is_zh: bool) -> str:
    """A cell's lead line in the reply's language: "Practice Manager (More than $500 up to $5,000)" in English.

    >>> in_language("Practice Manager（More than $500 up to $5,000）", False)
    'Practice Manager (More than $500 up to $5,000)'
    """
    return lead if is_zh else re.sub(r"（([^（）]*)）$", r" (\1)", lead)


_CN_DIGIT = {"一": "1", "二": "2", "两": "2", "三": "3", "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9",
             "十": "10"}


def _ordinals_as_digits(q: str) -> str:
    """"第二次" read as "第2次" too (a table keys its rows "第2次"): the question with its ordinals in digits
    appended, so a cell written either way is named.

    >>> _ordinals_as_digits("第二次违反怎么处理"), _ordinals_as_digits("住六人间")
    ('第二次违反怎么处理 第2次违反怎么处理', '住六人间 住6人间')
    >>> _ordinals_as_digits("a local one-bedroom move")
    'a local one-bedroom move a local 1 bedroom move'
    """
    digits = re.sub(r"第([一二两三四五六七八九十])(?=[次年级届期个])", lambda m: "第" + _CN_DIGIT[m.group(1)], q)
    # a count before its measure: "住六人间" names the "6人间" row
    digits = re.sub(r"(?<![一二两三四五六七八九十百千万第])([一二两三四五六七八九十])(?=人间|人房|座|床)",
                    lambda m: _CN_DIGIT[m.group(1)], digits)
    # an English count joined to its noun: "a three-bedroom house" names the "3 bedrooms" row
    digits = re.sub(rf"\b({'|'.join(COUNT_WORDS)}|\d{{1,2}})-(?=[a-z]{{3}})",
                    lambda m: f"{COUNT_WORDS.get(m.group(1), m.group(1))} ", digits)
    return q if digits == q else f"{q} {digits}"


def _stems(text: str) -> set[str]:
    return {w[:5] if len(w) >= 5 else w for w in _EN_WORD.findall(text) if w not in _EN_FUNCTION}


def _headed_in_chinese(t: TableInfo) -> bool:
    """Every header of the table is written in Chinese (工号, 姓名, 工作地点)."""
    return all(_HAN.search(c.label) for c in t.columns)


def _covered(terms: Sequence[str], context: str, share: float = COVERED_SHARE) -> bool:
    """At least ``share`` of the question's content terms are in ``context`` (normalised);
    an English term by its first five letters ("approves" in "approver")."""
    # an asked amount ("1.2%") is matched as a value; a rate's "per" ("每个月", "每次") is the value's unit
    terms = [t for t in terms if not re.search(r"\d", t) and not t.startswith("每") and not _COUNTED_ONCE.fullmatch(t)]
    if not terms:
        return True
    # a two-character Chinese term in the short form of the context's word (夜班 of 夜间值班) is in it too
    found = sum(1 for t in terms if (normal_key(t)[:5] if t.isascii() else normal_key(t)) in context
                or shortened_in(t, context))
    return found >= share * len(terms)


_ASKED_UNIT = re.compile(r"(?:几|多少)\s*(折)|百分之(?:几|多少)|多少\s*%|\bwhat\s+(?:percent|share)")
"""A discount asked in its unit ("打几折"), a share ("能退百分之多少？", "what percent"): the one cell written in 折 or
% answers it. Not 几天: a table of other days
(年休假天数 for "…病假有几天？") is no answer."""
_COUNTED_ONCE = re.compile(r"[一二两三四五六七八九十]+[个次天年月份位名人件]")
"""A Chinese numeral with its classifier ("一次", "两个"): a quantity of the question, matched as a value."""


def _label_score(label: str, q: str, avoid: set[str]) -> int:
    """How many of the header's words the question shares (``avoid``: the row key's)."""
    base = _UNIT_NOTE.sub("", normal_key(label)).strip()
    if not base or base in _GENERIC_LABEL or base.startswith("非") and base[:2] not in q:  # 社员 names no 非社员价
        return 0
    if not _HAN.search(base):  # English, also with a dash or a pound sign ("Grades W3–W4"): by its words
        # named whole, its short words too ("Zone B" in "…a 4 kg parcel to Zone B": not Zone A, whose "zone" it shares)
        return max(0, len((_stems(base) & _stems(q)) - avoid) + (1 if is_named(base, q) and not _EN_WORD.fullmatch(base) else 0)
                   + counts_agree(ASIDE.sub(lambda m: "" if band(m.group(0)[1:-1]) else m.group(0), base), q))
        # ("Per night", not "7 nights", of "one night"; the 25 of "Local (up to 25 miles)" is a band, not a count)
    # a number with its word ("2026级" of "2026级（元/学年）") names the column as its words do; 一次/每次 is 单次;
    # the question's short form of the header's word (夜班 of 夜间值班) names it too
    shared = (bigrams(base) & bigrams(q)) - avoid
    short = {b for b in bigrams(q) - shared - avoid if shortened_in(b, base)}
    return len(shared) + len(short) + 2 * len(set(_NUMBERED.findall(base)) & set(_NUMBERED.findall(q))) \
        + (1 if "单次" in base and _ONCE.search(q) and "单次" not in q else 0)


_ONCE = re.compile(r"(?<![\d一二两三四五六七八九十])[一每]次")
""""做一次多少钱", "每次": one occasion, the 单次 column (not the 10次 card)."""


_NUMBERED = re.compile(r"(?<![\d.])\d+(?:\.\d+)?[\u4e00-\u9fff]")


def _own_text(index: SqlIndex, t: TableInfo, doc: str, first: int) -> str:
    """What a table itself says (normalised): its title, headers, text cells and the heading right above it."""
    return normal_key(" ".join([t.title, doc[max(0, first - 60):first], *(c.label for c in t.columns),
                                *(v for _r, _c, v in index.text_values(t))]))


def _acted_in_heading(question: str, before: str) -> bool:
    """The heading right above a table ("# 三、退卡与转让") names the action the question asks about in one character
    ("年卡办了四个月想退…": 退), which no key term keeps.

    >>> _acted_in_heading("年卡办了四个月想退，能退百分之多少？", "…顺延。\\n# 三、退卡与转让\\n")
    True
    """
    heading = next((line for line in reversed(before.splitlines()) if line.startswith("#")), "")
    return bool(heading) and any(len(w) == 1 and flag == "v" and w in heading for w, flag in pos_tags(question))


def _value_elsewhere(asked: Sequence[tuple[float, str]], doc: str, start: int, end: int, heads: str = "") -> bool:
    """A value the question names ("连续工作了8年") is written in the table's document outside the table ("连续服务满8年
    的员工，另增加司龄假2天"): a condition on it stands beside the table, so one cell is not the whole answer and
    the reader, which quotes that text, answers instead. A value the table's own headers write ("4.2米厢式货车") is none."""
    outside = doc[:start] + "\n" + doc[end:]
    for value, unit in asked:
        number = f"{round(value, 1):g}"  # "超过10天" is 10.01 for a range, 10 as written
        written = rf"(?<![\d.]){re.escape(number)}\s*{re.escape(unit)}"
        if re.search(written, outside) and not re.search(written, heads):
            return True
    return False


_SENTENCE_END = re.compile(r"(?<=[。！？；\n])|(?<=[.!?;])\s+")


def _modified(terms: Sequence[str], context: str, outside: str, label: str) -> bool:
    """A question word the table's context lacks stands, outside the table, in a sentence naming the asked
    column ("部门经理…" → "部门经理及以上人员的住宿上限在上表基础上上浮20%"): a rule changes the cell for what the
    question asks, so the cell alone is not the answer."""
    base = _UNIT_NOTE.sub("", normal_key(label)).strip()
    if len(base) < 2:
        return False
    missing = [w for t in terms if not t.isdigit() and len(w := normal_key(t)) >= (4 if w.isascii() else 2)
               and w not in context]
    if not missing:
        return False
    return any(base in s and any(w in s for w in missing) for s in _SENTENCE_END.split(normal_key(outside)))


_TOTAL = re.compile(r"合计|总计|共计|总数|总额|小计|\btotal\b", re.I)


def _total_instead(best: tuple[TableColumn, str], cells: list[tuple[TableColumn, str]], q: str) -> tuple[TableColumn, str]:
    """The row's total when the question names the asked column only by what all the parts share: "…每年有多少天年假？"
    of "法定年假（天）| 公司福利假（天）| 合计（天）" is the 合计 (the question does not say 法定)."""
    col, _ = best
    totals = [(c, v) for c, v in cells if _TOTAL.search(c.label) and c is not col]
    if len(totals) != 1 or _TOTAL.search(col.label):
        return best
    base = _UNIT_NOTE.sub("", normal_key(col.label)).strip()
    words = _stems(base) if base.isascii() else bigrams(base)
    unsaid = words - (_stems(q) if base.isascii() else bigrams(q))
    # the part's own word ("法定") is not in the question
    if unsaid and not any(u in q for u in unsaid):
        return totals[0]
    return best


def _kind_column(columns: list[tuple[TableColumn, str]], kind: str | None) -> TableColumn | None:
    """The one column whose cell in the row is of the asked kind (a time for 几点 / when; a duration for 多久 /
    how long: "10个工作日")."""
    if kind == "place":  # "Which office is 袁梦洁 based in?": the one column headed as a place (工作地点)
        places = [c for c, _v in columns if _PLACE_LABEL.search(c.label)]
        return places[0] if len(places) == 1 else None
    pattern = {"time": _TIME, "duration": _DURATION}.get(kind or "")
    if pattern is None:
        return None
    fitting = [c for c, v in columns if pattern.match(v)]
    return fitting[0] if len(fitting) == 1 else None


def _money_column(columns: list[tuple[TableColumn, str]], q: str) -> TableColumn | None:
    """The one column headed as money ("price_usd", "收费_元") when the question asks what something costs."""
    if not _MONEY_ASKED.search(q):
        return None
    money = [c for c, _v in columns if _MONEY_LABEL.search(c.label)]
    if not money:  # a column headed 处理 whose cell states an amount ("每次扣款50元")
        money = [c for c, v in columns if _MONEY_VALUE.search(v)]
    return money[0] if len(money) == 1 else None


_MONEY_VALUE = re.compile(r"\d(?:[\d,.]*)\s*(?:元|美元|块)|[¥￥$£€]\s?\d")
"""A cell stating an amount of money."""


_GRADE = re.compile(r"^([a-z]{1,2})(\d{1,2})(?:\s*[–—\-~～至到]\s*\1?(\d{1,2})|(及以上|以上|\+))?$")
_GRADES_IN_LABEL = re.compile(r"(?:^|\b(?:grades?|levels?|bands?)\s+|(?:职级|等级|级别))([a-z]{1,2})(\d{1,2})(?:\s*[–—\-~～至到]\s*\1?(\d{1,2})|(及以上|以上|\+))?$")
"""A header naming its grades after a word for them ("Grades W3–W4 (per hour)", "职级P5-P6")."""
_ASKED_GRADE = re.compile(r"(?<![a-z\d])([a-z]{1,2})(\d{1,2})(?![\d])")


_COHORT_LABEL = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*级\s*(及以前|以前|之前|及以后|以后|之后)?")
_ENTRY_YEAR = re.compile(r"(?<!\d)((?:19|20)\d{2})\s*(?:级|年\S{0,3}?入学|年\S{0,3}?入校)")


def cohort_holds(label: str, q: str) -> bool:
    """A column of a cohort or an open range of cohorts ("2026级（元/学年）", "2025级及以前") holding the year of entry
    the (normalised) question names ("2024年入学", "2026级").

    >>> cohort_holds("2025级及以前（元/学年）", "我是2024年入学的"), cohort_holds("2026级（元/学年）", "我是2024年入学的")
    (True, False)
    >>> cohort_holds("2026级（元/学年）", "2026年秋季入学的新生"), cohort_holds("学费（元）", "2024年入学")
    (True, False)
    """
    m = _COHORT_LABEL.search(label)
    asked = [int(y.group(1)) for y in _ENTRY_YEAR.finditer(q)]
    if not m or not asked:
        return False
    year, side = int(m.group(1)), m.group(2) or ""
    if not side:
        return year in asked
    return any(a <= year for a in asked) if side in ("及以前", "以前", "之前") else any(a >= year for a in asked)


def grade_holds(label: str, q: str) -> bool:
    """A grade code or range ("P7–P8", "P9及以上", "M2") holding a grade the (normalised) question names ("p7")."""
    m = _GRADE.match(label.strip()) or _GRADES_IN_LABEL.search(_UNIT_NOTE.sub("", label).strip())
    if not m:
        return False
    low = int(m.group(2))
    high = int(m.group(3)) if m.group(3) else 99 if m.group(4) else low
    return any(g.group(1) == m.group(1) and low <= int(g.group(2)) <= high for g in _ASKED_GRADE.finditer(q))


def _member_of(index: SqlIndex, t: TableInfo, values: Sequence[tuple[int, TableColumn, str]], q: str,
               rows: set[int] | None) -> dict[int, tuple[int, TableColumn]]:
    """Rows whose key the document defines by a list naming a word of the question: "一类城市：北京、上海、…"
    makes 一类城市 the row for "去上海出差" (one definition line per key; the named member two characters or more)."""
    doc = index.text_of(t.path)
    if not doc or len(t.row_offsets) > MEMBER_ROWS:
        return {}  # a tier table is short; a CSV of thousands of rows defines no tiers by lists
    # each definition line once: "一类城市：北京、上海…" keyed by what stands before its colon
    defined: dict[str, list[str]] = {}
    for line in doc.splitlines():
        m = _DEFINITION.match(normal_key(line.strip(" -*•\t")))
        if m:
            defined.setdefault(m.group(1), []).append(m.group(2))
    out: dict[int, tuple[int, TableColumn]] = {}
    for row, col, v in values:
        if (rows is not None and row not in rows) or len(v) < 2 or v not in defined:
            continue
        members = [x.strip() for rest in defined[v] for x in re.split(r"[、,，;；/（）()]|及|和|等", rest)]
        if any(len(x) >= 2 and x in q for x in members):
            out[row] = (2, col)
    return out


MEMBER_ROWS = 50
_DEFINITION = re.compile(r"^([^:：，,]{2,12})[:：，,](.+)$")
_LIST_SEPARATOR = re.compile(r"[、，,/；;]|及|和|与|\s+or\s+")


def _listed(key: str, q: str) -> int:
    """The length of the one member of a key that lists several ("内科、外科、妇产科、儿科") the question names, else 0.

    >>> _listed("内科、外科、妇产科、儿科", "外科值一个夜班"), _listed("内科、外科", "内科和外科"), _listed("外科", "外科")
    (2, 0, 0)
    >>> _listed("0.6元/托盘/天", "一个托盘一天收多少钱")
    0
    """
    if _RATE.search(key):
        return 0  # "0.6元/托盘/天" is a rate per pallet per day, no list of 托盘 and 天
    members = [x.strip() for x in _LIST_SEPARATOR.split(ASIDE.sub("", key))]
    if len(members) < 2:
        return 0
    named = [x for x in members if len(x) >= 2 and not _BOUND_WORD.match(x) and is_named(x, q)]
    return len(named[0]) if len(named) == 1 else 0


_RATE = re.compile(r"\d\s*[^\d\s/、，,]{0,4}/[^/\s]{1,6}")
"""A value per unit ("0.6元/托盘/天", "£2.50/box"): its slashes divide units, not members of a list."""
_BOUND_WORD = re.compile(r"(?i)^(?:more|less|over|under|above|below|fewer|older|younger|longer|shorter|higher|lower)$")
"""The tail of "0.6 FTE or more": a bound, no member a question names ("more lessons")."""


def _row_key(index: SqlIndex, t: TableInfo, q: str, asked: list[tuple[float, str]],
             rows: set[int] | None) -> tuple[int, TableColumn, int] | None:
    """(row, key column, strength) of the one row the question names in ``t``; None when none or two."""
    best: dict[int, tuple[int, TableColumn]] = {}
    values = index.text_values(t)
    if not values:
        return None
    key_col = values[0][1]
    leads = key_bigrams(values, key_col)
    if asked and not any((b := band(v)) is not None and b.measures(unit) for _r, _c, v in values for _x, unit in asked):
        asked = in_other_units(asked) or asked  # "四个月" against bands of days ("31天至180天")
    for row, col, v in values:
        if rows is not None and row not in rows or col is not key_col and v in _VALUE_WORDS:
            continue  # "Free" in a fee column names no row of "How many points for a free night?"
        b = band(v) if asked else None
        if b is None and asked and (u := label_unit(col.label)):
            b = band_in(v, u)  # "1,000.01 – 2,500" under "Amount of a single claim (USD)"
        # a band in the key column names its row; one in another column ("每小时2元，不足1小时按1小时计") only when
        # no key's does
        strength = (BAND_STRENGTH if col is key_col else BAND_STRENGTH - 1) \
            if b is not None and any(b.holds(x, unit) for x, unit in asked) else \
            len(v) if is_named(v, q) else named_with_aside(v, q, asked) or (1 if partly_named(v, col, key_col, leads, q) else 0)
        if grade_holds(v, q):
            strength = BAND_STRENGTH
        if not strength and both_ends(v, q):
            strength = len(v)  # "从鹤湾坐船去芦屿": the route 鹤湾—芦屿, both its ends named
        if not strength and col is key_col and (aside := aside_named(v, q)):
            strength = aside  # "坐快船": the row "4号线（快船）", named by its aside alone
        if not strength and (col is key_col or len(_LIST_SEPARATOR.split(v)) >= 3):
            # "内科、外科、妇产科、儿科" is the row of 外科; so is a row whose column lists its members ("所含专业")
            strength = _listed(v, q)
        if strength and strength > best.get(row, (0, col))[0]:
            best[row] = (strength, col)
    if not best:
        best = _member_of(index, t, values, q, rows)
    if not best:
        return None
    top = max(s for s, _ in best.values())
    named = [(r, c) for r, (s, c) in best.items() if s == top]
    if len(named) != 1:
        return None
    # a longer named cell of another row contains this one ("晚餐（值班人员）" holds "晚餐"): still one row
    row, col = named[0]
    return row, col, top


def asked_cell(index: SqlIndex, question: str, allowed: frozenset[str] | None, kind: str | None,
               superseded: Collection[str] = (), terms: Sequence[str] = ()) -> Cell | None:
    """The cell the question asks for among the tables of ``allowed`` passage ids (None: every table), never
    in a document a newer edition replaces (``superseded``: their paths), in a table whose context holds the
    question's content ``terms`` (:func:`_covered`; the caller leaves out the words that name the organisation:
    a price list does not write "Maple Grove")."""
    q = _ordinals_as_digits(normal_key(question))
    asked = quantities(question)
    found: list[tuple[int, int, Cell]] = []
    for t in index.tables:
        if t.path in superseded:
            continue
        if (rows := allowed_rows(t, allowed)) is False:
            continue
        named = _row_key(index, t, q, asked, rows)
        if named is None:
            continue
        row, key_col, strength = named
        if _about_other(index, t, row, q):
            continue
        m = {c: str(v).strip() for c, v in index.row_values(t, row).items() if v is not None and str(v).strip()}
        if key_col not in m:
            continue
        cells = [(c, v) for c, v in m.items() if c is not key_col and not _EMPTY.fullmatch(v)]  # "—" says nothing
        key = m[key_col]
        strong = NAMED_KEY_CHARS <= strength < BAND_STRENGTH - 1 and not key.isascii()
        avoid = bigrams(normal_key(key)) | _stems(normal_key(key))
        labels_q = q if strength < BAND_STRENGTH - 1 else normal_key(without_quantities(question)) + " " + " ".join(
            n for n in _NUMBERED.findall(q) if any(n in normal_key(c.label) for c in t.columns))  # a band chose the row;
        # a size the headers write ("4.2米厢式货车（元/车次）") names its column still
        scored = [(s, c, v) for c, v in cells if (s := _label_score(c.label, labels_q, avoid)) and normal_key(v) not in q]
        if scored and any(opposite_bound(normal_key(c.label), q) for s, c, _v in scored
                          if s == max(x for x, _, _ in scored)):
            continue  # 绩效津贴的下限 is best matched by 绩效津贴上限: the asked bound is not in the table
        cohort = []
        if (banded := index.band_column(t, q)) is not None:  # "订购500件…的单价": the 500-999件 column
            scored = [(BAND_COLUMN_SCORE, c, v) for c, v in cells if c.name == banded.name] or scored
        elif cohort := [(BAND_COLUMN_SCORE, c, v) for c, v in cells if cohort_holds(normal_key(c.label), q)]:
            scored = cohort  # "2024年入学的…学费": the 2025级及以前 column
        elif graded := [(BAND_COLUMN_SCORE, c, v) for c, v in cells if grade_holds(normal_key(c.label), q)]:
            scored = graded  # "P7级别…": the P7–P8 column
        if kind == "time" and (times := [x for x in scored if _TIME.match(x[2])]) != scored and \
                _kind_column(cells, kind) is not None:
            scored = times  # "午餐几点开始供应？": the time, not 员工收费 because the question says 员工
        if not scored and (unit := _ASKED_UNIT.search(q)) and len(by_unit := [
                (1, c, v) for c, v in cells if re.search(rf"\d\s*{unit.group(1) or '%'}", v)]) == 1:
            scored = by_unit  # "金卡会员…能打几折？": the one cell counted in 折 (会员折扣 9折)
        if scored and (kind == "number" or _MONEY_ASKED.search(q)):
            top = max(s for s, _, _ in scored)
            if not any(re.search(r"\d", v) or normal_key(v) in _NO_CHARGE for s, _c, v in scored if s == top):
                scored = []  # "…护理专业学生，一年学费多少钱？": an amount is asked, not the 专业类别 its words name
            elif (money := _money_column(cells, q)) is not None and \
                    not any(c is money or _MONEY_VALUE.search(v) for s, c, v in scored if s == top):
                scored = [(top, money, m[money])]  # "换领要收多少钱？": the 费用 column, not 办理时限 for its 办理
        if scored:
            top = max(s for s, _, _ in scored)
            best = [(c, v) for s, c, v in scored if s == top]
            if len(best) != 1:
                continue
            col, value = _total_instead(best[0], cells, q)
            score = top
            if kind == "duration" and not _LENGTH_OF_TIME.search(f"{value} {col.label}"):
                continue  # "开考多久以后…": a length of time is asked, not the 60% of 期末成绩所占比例
        else:
            of_kind = _kind_column(cells, kind) or _money_column(cells, q)
            if of_kind is None:
                continue
            col, value, score = of_kind, m[of_kind], 0
        row_cells = tuple((c.label, v) for c, v in m.items())
        doc = index.text_of(t.path)
        first = t.row_offsets[0][0] if t.row_offsets else 0
        context = normal_key(" ".join([t.title, doc[:2000], doc[max(0, first - 400):first],
                                       *(f"{h} {v}" for h, v in row_cells)]))
        end = t.row_offsets[-1][1] if t.row_offsets else first
        near = normal_key(" ".join([t.title, doc[max(0, first - 400):end]]))  # the table and its lead-in
        # a header band holding the asked quantity is the table's own word for the question
        # English words of a question over a table headed in Chinese cannot be in its context: its Chinese words count
        own = [w for w in terms if not (w.isascii() and w.isalpha())] if _headed_in_chinese(t) else terms
        # (a value a header's band holds chose the column: a note that says so — "租5天的，5天都按3–6天的价格计算" — is
        # no condition beside the table)
        if not (score == BAND_COLUMN_SCORE or _covered(own, context, COVERED_SHARE / 2 if strong else COVERED_SHARE)) or \
                score != BAND_COLUMN_SCORE and _value_elsewhere(asked, doc, first, end, " ".join(c.label for c in t.columns)):
            continue
        if strength >= BAND_STRENGTH - 1 and (words := [w for w in own if not re.search(r"\d", w)]) \
                and not _covered(words, _own_text(index, t, doc, first), 1 / len(words)) \
                and not _acted_in_heading(question, doc[max(0, first - 60):first]):
            continue  # "我75岁了，做一次推拿多少钱？": an age band of the check-up table, about none of the question's words
        base = " ".join([t.title, *(c.label for c in t.columns), *(v for _h, v in row_cells)])
        rule = modifiers.applicable(doc, (first, end), question, base, col.label) if modifiers.scalable(value) else None
        if isinstance(rule, modifiers.Rule) and for_other_rows(rule.text, key, [
                v for r, c, v in index.text_values(t) if c is key_col and r != row]):
            rule = None  # "春节和国庆期间，4号线快船票价…上浮20%" is no rule of 1号线's fare
        # (a note that defines the cohort columns — "2025年及以前入学的…按“2025级及以前”一栏" — is what chose this one)
        if rule == modifiers.AMBIGUOUS or rule is None and not cohort and \
                _modified(terms, near, doc[:first] + "\n" + doc[end:], col.label):
            continue  # a rule beside the table changes the cell for what the question says (one the caller applies)
        found.append((strength, score, Cell(t, row, key, col.label, value, row_cells,
                                                  rule if isinstance(rule, modifiers.Rule) else None)))
    if not found:
        return None
    found.sort(key=lambda f: (-f[0], -f[1]))
    lead = found[0]
    rivals = {f[2].value for f in found if (f[0], f[1]) == (lead[0], lead[1])}
    return lead[2] if len(rivals) == 1 else None



ROW_FACT_CHARS = 8
"""A cell this short (a grade, a department, a title) is a fact about the row that a rule elsewhere may be keyed by."""


@dataclass(frozen=True)
class RowFacts:
    """A row the question names by its key (a person, an item) in one table, and the question with that row's
    short cells added ("林嘉树出差坐高铁…" + "P9 研发部 合肥"): a rule keyed by one of them then applies."""

    table: TableInfo
    row: int
    question: str


def allowed_rows(t: TableInfo, allowed: frozenset[str] | None) -> set[int] | None | Literal[False]:
    """The row numbers of ``t`` among ``allowed`` passage ids: None for every row, False for none."""
    if allowed is None:
        return None
    ids = t.row_ids & allowed
    if not ids:
        return False
    return {int(i.rsplit(":", 1)[1]) for i in ids} if len(ids) < len(t.row_ids) else None


def outside_table(index: SqlIndex, t: TableInfo, allowed: frozenset[str] | None) -> frozenset[str]:
    """The passage ids of ``allowed`` (None: every table's rows) that are not rows of ``t``."""
    if allowed is not None:
        return allowed - t.row_ids
    return frozenset(i for other in index.tables if other.name != t.name for i in other.row_ids)


def row_facts(index: SqlIndex, question: str, allowed: frozenset[str] | None) -> RowFacts | None:
    """The one row of a CSV the question names whole by a key of two or more Chinese characters or a proper
    name (not a band, not a grade), with its short cells appended to the question; None when none or two."""
    q = normal_key(question)
    named: list[tuple[TableInfo, int, str]] = []
    for t in index.tables:
        if not t.path.lower().endswith(".csv"):
            continue
        if (rows := allowed_rows(t, allowed)) is False:
            continue
        values = index.text_values(t)
        for row, col, v in values:
            if (rows is None or row in rows) and len(v) >= 2 and is_named(v, q) and band(v) is None \
                    and not _GRADE.match(v) and sum(1 for _r, c, w in values if c is col and w == v) == 1:
                named.append((t, row, v))
    # a key the question writes only inside a longer one is not named ("PLC编程与应用" in 《PLC编程与应用实训》)
    found = [(t, row) for t, row, v in named if stands_alone(v, [w for _t, _r, w in named], q)]
    if not found:
        return _listed_in(index, q, question, allowed)
    if len({(t.name, r) for t, r in found}) != 1:
        return None
    t, row = found[0]
    cells = [str(v).strip() for v in index.row_values(t, row).values() if v is not None]
    facts = [c for c in cells if 2 <= len(c) <= ROW_FACT_CHARS and normal_key(c) not in q and not _DATE.match(c)]
    return RowFacts(t, row, f"{question} {' '.join(facts)}") if facts else None


_DATE = re.compile(r"^\d{4}[-/.年]\d{1,2}")


def _listed_in(index: SqlIndex, q: str, question: str, allowed: frozenset[str] | None) -> RowFacts | None:
    """The one row whose list cell, not its key, names a member the question names ("Tier B | Shanghai, Dubai, …,
    Seoul" for "a day trip to Seoul"), with the row's key added to the question (a rule keyed by the tier applies)."""
    found: list[tuple[TableInfo, int, TableColumn]] = []
    for t in index.tables:
        if (rows := allowed_rows(t, allowed)) is False or len(t.row_offsets) > MEMBER_ROWS:
            continue
        values = index.text_values(t)
        if not values:
            continue
        key_col = values[0][1]
        for row, col, v in values:
            if (rows is None or row in rows) and col is not key_col and _listed(v, q) \
                    and not any(r == row and c is key_col and is_named(k, q) for r, c, k in values):
                found.append((t, row, key_col))
    if len({(t.name, r) for t, r, _c in found}) != 1:
        return None
    t, row, key_col = found[0]
    key = str(index.row_values(t, row).get(key_col) or "").strip()
    return RowFacts(t, row, f"{question} {key}") if key else None


@dataclass(frozen=True)
class PerUnit:
    """A rate cell times the count its unit is per, read from the row of the item the question names:
    "重修费（元/学分）: 130" for 实训课 × "学分: 3" of the course 《PLC编程与应用实训》 (a 实训课) = 390元."""

    total: float
    count: str
    """The item's count as written ("3")."""
    per: str
    """What the rate is per ("学分")."""
    facts: RowFacts

    def lead(self, cell: Cell, is_zh: bool) -> str:
        """"390元（130元/学分 × 3学分）", "£13.20 (£6.60 per parcel × 2 parcel)"."""
        unit = label_unit(cell.label)
        whole = re.split(r"/|\s+per\s+", unit, flags=re.I)[0].strip()
        if is_zh:
            return f"{self.total:g}{whole}（{cell.value}{unit} × {self.count}{self.per}）"
        return f"{self.total:g} {whole} ({cell.value} {unit} × {self.count} {self.per})"


def per_unit(index: SqlIndex, cell: Cell, question: str, allowed: frozenset[str] | None) -> PerUnit | None:
    """:class:`PerUnit` when ``cell`` is a bare number under a rate header ("元/学分", "USD per day") and the question
    names one row of another CSV that is of the cell's row (holds its key: 课程类型 实训课) and has a column of
    that unit (学分); None otherwise (the rate is the answer as it is)."""
    unit = label_unit(cell.label)
    m = re.match(r"^[^/]+?(?:/|\s+per\s+)(.+)$", unit, re.I)
    if not m or not is_number(cell.value) or len(per := m.group(1).strip()) < 2:
        return None
    facts = row_facts(index, question, outside_table(index, cell.table, allowed))
    if facts is None:
        return None
    row = {c.label: str(v).strip() for c, v in index.row_values(facts.table, facts.row).items() if v is not None}
    if normal_key(cell.key) not in {normal_key(v) for v in row.values()}:
        return None  # the named item is not of the rate's row (a 理论课 course for the 实训课 rate)
    counts = [v for h, v in row.items() if normal_key(per) in normal_key(h) and is_number(v)]
    if len(counts) != 1:
        return None
    return PerUnit(float(cell.value) * float(counts[0]), counts[0], per, facts)


def names_column(label: str, question: str) -> bool:
    """The question itself names the column ``label`` (a word of the header): what a row's facts cannot supply
    ("坐高铁…" names 火车/高铁; "Which office…" names no P5–P6)."""
    q = normal_key(question)
    return _label_score(label, q, set()) > 0 or grade_holds(normal_key(label), q)  # "a G5" names G4–G5


def names_heading(index: SqlIndex, t: TableInfo, question: str) -> bool:
    """The question names the heading the table stands under by two of its words ("What hourly shift allowance…"
    under "## 4. Shift allowances"): the table is what it asks about, whichever of its columns a row's facts choose."""
    first = t.row_offsets[0][0] if t.row_offsets else 0
    before = index.text_of(t.path)[max(0, first - 1500):first]
    heads = [ln.strip("# ").strip() for ln in before.splitlines() if ln.lstrip().startswith("#")]
    if not heads:
        return False
    head, q = normal_key(heads[-1]), normal_key(question)
    if _HAN.search(head):
        return len(bigrams(head) & bigrams(q)) >= 2
    return len(_stems(head) & _stems(q)) >= 2


_ANY_VALUE = frozenset("all any 全部 通用 不限 均可".split())
"""A cell that stands for every value of its column ("species: All"): it names no other item."""
_MONEY_ASKED = re.compile(r"多少钱|费用|价格|收费|how much|cost|price|fee", re.I)
_MONEY_LABEL = re.compile(r"元|\$|usd|price|fee|cost|rate|费|价|金额", re.I)
_PLACE_LABEL = re.compile(r"地点|地址|城市|所在地|办公地|房间|楼层|location|office|city|site|depot|address|room|floor", re.I)
_ID_LABEL = re.compile(r"(?:_|\s)?(?:id|no|code)$|编号$|代码$", re.I)


def _about_other(index: SqlIndex, t: TableInfo, row: int, q: str) -> str | None:
    """Why row ``row`` is about another item than the (normalised) question names, or None: the question names a
    value of one of its columns (whole word, as other rows hold it) and the row holds another there ("a Bordetella
    vaccine for a cat" of the dog's row)."""
    values = {c: str(v).strip() for c, v in index.row_values(t, row).items() if v is not None and str(v).strip()}
    mine = {c.name: normal_key(v) for c, v in values.items()}
    for r, col, v in index.text_values(t):
        own = mine.get(col.name, "")
        head = ASIDE.sub("", v).strip()  # "spay (cat)" is named by "spay a cat"
        said = v if is_named(v, q) else head if len(head) >= 3 and is_named(head, q) else ""
        if r != row and len(v) >= 3 and said and own and own != v and own not in _ANY_VALUE \
                and not is_named(own, q) and not is_named(ASIDE.sub("", own).strip(), q) and said not in own:
            return f"the row is about {values.get(col, '')}, not {v}"
    return None


NO_FIELD = "the row has no field the question asks about"
""":func:`row_misses`' reason for a row of the right table that holds nothing the question asks (a roster row for
"实验室安全员是谁？"): no evidence at all, unlike a row about another item (which is what a near miss finds)."""
_SIZE = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s?(v|w|l|ml|kg|g|mm|cm|m|gb|tb|mah|寸|升|瓦|伏|毫升|公斤|克|英寸)(?![a-z])", re.I)


def _other_size(cells: Iterable[str], q: str) -> str | None:
    """A size the question names ("the 20V drill") that the row gives otherwise ("Cordless Drill 18V", no 20V):
    the row is another model of the thing.

    >>> _other_size(["Cordless Drill 18V", "46.0"], "how much is the 20v cordless drill?")
    'the row is about 18v, not 20v'
    >>> _other_size(["Cordless Drill 18V"], "how much is the 18v drill?") is None
    True
    """
    asked = {(float(n), u.lower()) for n, u in _SIZE.findall(q)}
    if not asked:
        return None
    held = {(float(n), u.lower()) for c in cells for n, u in _SIZE.findall(c)}
    for n, u in asked - held:
        if (other := next((m for m, v in held if v == u), None)) is not None:
            return f"the row is about {other:g}{u}, not {n:g}{u}"
    return None


def rule_beside(index: SqlIndex, pid: str, question: str) -> str | None:
    """The rule beside the table of row ``pid`` that changes one of the row's numbers for what the question says
    (:func:`modifiers.applicable`: "低保户…个人支付部分全免" for "我家是低保户…个人那部分还要自己出钱吗？"), as its text; None
    when the question names none — a quote of the row alone answers another question."""
    found = index.locate(pid)
    if found is None:
        return None
    t, row = found
    values = {c.label: str(v).strip() for c, v in index.row_values(t, row).items() if v is not None and str(v).strip()}
    doc = index.text_of(t.path)
    span = (t.row_offsets[0][0], t.row_offsets[-1][1]) if t.row_offsets else (0, 0)
    base = " ".join([t.title, *(c.label for c in t.columns), *values.values()])
    for label, value in values.items():
        if is_number(value) and (rule := modifiers.applicable(doc, span, question, base, label)) is not None:
            return rule.text if isinstance(rule, modifiers.Rule) else "two rules beside the table"
    return None


def row_misses(index: SqlIndex, pid: str, question: str, kind: str | None) -> str | None:
    """Why the table row ``pid`` does not answer the question, or None when it may.

    - it is about another item: the question names a value of one of its columns (whole word, as other rows
      hold it) and the row holds another there ("a Bordetella vaccine for a cat" citing the dog's row);
    - it needs another table too: the question names a row of another table of the collection by its key
      ("校外高校" of the user-type multipliers, asked of an instrument's hourly rate);
    - it has no field the question asks about: no header other than the row's key shares a word with the
      question, and no column is of the asked kind (money for "how much", a time for 几点, a role for 谁) — "博士后每月的
      津贴是多少？" citing a roster row of 姓名/身份/导师/状态.
    """
    found = index.locate(pid)
    if found is None:
        return None
    t, row = found
    values = {c: str(v).strip() for c, v in index.row_values(t, row).items() if v is not None and str(v).strip()}
    q = normal_key(question)
    mine = {c.name: normal_key(v) for c, v in values.items()}
    if about := _about_other(index, t, row, q) or _other_size(values.values(), q):
        return about
    for other in index.tables:
        if other.name == t.name or other.collection != t.collection:
            continue
        key = other.columns[0].name if other.columns else ""
        for _r, col, v in index.text_values(other):
            if col.name == key and len(v) >= 3 and is_named(v, q) \
                    and not any(v in normal_key(x) for x in values.values()) \
                    and v not in normal_key(t.title):
                # "校外高校的用户使用透射电镜每小时收费多少？": the rate's row and the user type's multiplier row
                return f"the question also names {v} of another table (a rule the row alone does not apply)"
    named = {c for c, v in values.items() if is_named(normal_key(v), q)}
    fields = [(c, v) for c, v in values.items() if c not in named and not _ID_LABEL.search(normal_key(c.label).strip())]
    if (asked_col := index.numeric_column(t, q)) is not None:
        if all(c.name != asked_col.name for c in values):
            return f"the row has no {asked_col.label}"  # "the hourly rate of Dr. Okafor": her cell is empty
        return None  # "哪个产品最贵？": the price column the superlative ranks by is the asked field
    if named and len(fields) == 1:
        return None  # an attribute table ("| 主要外径 | Φ20mm |"): the row the question names has one value
    avoid: set[str] = set()
    for c in named:
        avoid |= bigrams(mine[c.name]) | _stems(mine[c.name])
    if any(_label_score(c.label, q, avoid) for c, _ in fields):
        return None
    if _MONEY_ASKED.search(q) and any(_MONEY_LABEL.search(c.label) for c, _ in fields):
        return None
    if kind == "time" and any(_TIME.match(v) for _, v in fields):
        return None
    if kind == "person" and any(names_role(v) for _, v in fields):
        return None  # "要报给谁？" of a row whose 上报对象 is "实验室主任、学院安全办"
    if kind == "person" and named and any(NAME_LABEL.match(normal_key(c.label).strip()) for c, _ in fields):
        return None  # "Who is the Marina Manager?" of the roster row whose role it names: its name field answers
    return NO_FIELD

