"""Answers that compute: counts, sums and averages over a CSV table, built offline from the question.

"研发部一共有多少名员工？" is not answered by quoting two rows of the staff list: it is ``SELECT count(*)
FROM <staff table> WHERE 部门 = '研发部'``, and the answer is 15, with the rows it counted cited. The
query is built from the question and the table's schema and values, never by a model:

    operation   count ("多少名/几台/how many"), sum ("一共/总共/合计/total" + a numeric column the
                question names), average ("平均/average" + a numeric column)
    filters     text cells the question names, exactly (部门 = 研发部, 状态 = 在用, 职级 = P8), AND across
                columns, OR within one; a comparison with a number (超过5000 → 金额 > 5000)
    table       the one whose values the question names; the counted noun ("员工", "笔记本") in its title
                or headers decides between tables that match equally

Without a filter or a table the question names, no query is built (``None``): the question is left to
the reader, which quotes what the documents say — it never gets a number computed from a guess.
Identifiers are the generated ``kbt_…``/``c<n>`` names of :mod:`knowzero.knowledge.index.sqlindex`; values
are bound parameters.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import ColumnElement, Connection, func, or_, select

from knowzero.knowledge.answer.checks.numbers import cn_value
from knowzero.knowledge.index.cellnames import shown_noun
from knowzero.knowledge.index.headers import (
    DATE_LABEL,
    NOT_WORDS,
    date_column,
    english_flag,
    english_valued,
    label_and_unit,
    label_base,
    named_at,
    start_column,
)
from knowzero.knowledge.index.sqlindex import CMP, SqlIndex, TableInfo, normal_key
from knowzero.knowledge.ingest.csvtable import TableColumn
from knowzero.knowledge.text import names_nothing, pos_tags, stands_alone, tokens
from knowzero.vocabulary.questions import same_state, state_phrases

Operation = Literal["count", "sum", "avg", "max", "min"]

_CLASSIFIER = "个名位人台家条项辆种次部本张套间所款门"
_UNIT = "天日周月年岁小时分钟秒元块钱公里米次倍"
_COUNT = re.compile(rf"(?:多少|几)\s*[{_CLASSIFIER}]|有(?:多少|几)(?![{_UNIT}])|how many|number of", re.I)
_MEASURES = ("工作日", "自然日", "天", "日", "周", "星期", "月", "年", "岁", "小时", "分钟", "秒", "元", "块", "公里", "米", "倍")
"""Units a "几个/多少" asks a value in ("几个工作日", "多少个小时"): no count of rows."""
_SUM = re.compile(r"一共|总共|合计|共计|总计|加起来|总额|总和|总金额|总价|总数|in total|total|sum", re.I)
_AVG = re.compile(r"平均|均值|average|mean", re.I)
_ADDS_UP = re.compile(r"\badd(?:s|ed)? up\b|加起来|累加", re.I)
"""Adding up what the rows hold ("how many credits do all the courses add up to?"): a sum, never a count of rows."""
_OTHER_MEASURE = r"(津贴|补贴|补助|费用?|工资|奖金|薪酬|金额|allowance|pay|fee|cost)"
"""What a quantity's name followed by one of these asks is money for it ("教龄津贴" is no sum of 教龄 years)."""
_EXTREME = r"(?P<{name}>贵|高|大|长|重|多|晚|新)|(?P<{low}>便宜|低|小|短|轻|少|早|旧)"
_RANKED = re.compile(r"最(?:" + _EXTREME.format(name="hi", low="lo") + r")的|哪[个一项台位种款辆家]*[^，。？?,]{0,12}?最(?:"
                     + _EXTREME.format(name="hi2", low="lo2") + r")|\b(?P<hi3>most expensive|highest|largest|longest|biggest|heaviest|tallest|newest|latest|the most(?= [a-z]))\b|"
                     r"\b(?P<lo3>cheapest|least expensive|lowest|smallest|shortest|lightest|oldest|earliest|the (?:fewest|least)(?= [a-z]))\b", re.I)
"""A superlative over rows ("最贵的设备", "单价最高的检查项目", "哪个产品最贵", "the most expensive item"); not
"最多能报多少" (at most: a cap a policy sets, no row ranked)."""
_NOUN_AFTER = re.compile(rf"(?:多少|几)\s*([{_CLASSIFIER}])?\s*(?![{_CLASSIFIER}])([\u4e00-\u9fff]{{1,6}})")
_NOUN_BEFORE = re.compile(rf"([\u4e00-\u9fffA-Za-z]{{1,10}}?)(?:一共|总共|共)?有?(?:多少|几)\s*([{_CLASSIFIER}])?")
_NOUN_EN = re.compile(r"how many\s+([a-z][a-z -]{1,30}?)(?:\s+(?:are|do|does|is|did|have|has|were|in|at|on|work)\b|\?|$)",
                      re.I)
_GENERIC = re.compile(r"^(?:的|是|有|了|呢|吗|啊|目前|现在|一共|总共|共|其中)+|(?:的|呢|吗|啊|了|在用|在职|在岗)+$")
MAX_CITED_ROWS = 8
"""Rows cited with a computed answer (all of them when a count is this small)."""


@dataclass(frozen=True)
class Computed:
    """One computed answer: the value, how it was computed, and the rows it used."""

    operation: Operation
    value: float | str
    """The result; a start date as written ("2012-03-01") for a tenure question."""
    table: TableInfo
    column: TableColumn | None
    filters: tuple[tuple[str, tuple[str, ...]], ...]
    """(column label, accepted values) per filtered column; comparisons as (label, ("> 5000",))."""
    rows: tuple[int, ...]
    """Row numbers of the matching rows (all of them: a count is their number)."""
    sql: str
    """The statement as run, with its parameters inlined, for the trace."""
    noun: str = ""
    """What was counted, as the question says it ("员工", "laptops")."""
    classifier: str = ""
    """The question's measure word for it ("名", "台"), if any."""
    keys: tuple[str, ...] = ()
    """The key (first text cell) of each row holding a maximum or minimum: "Which class has the most pupils?" asks it;
    for a group's count, the group's value ("Station Yard")."""
    group: TableColumn | None = None
    """The text column rows are grouped by when the question ranks groups by their number of rows ("Which depot has
    the most bikes?", "哪个门店的员工最多？"): the value is the top group's count, ``keys`` its value."""

    def shown_value(self) -> str:
        v = self.value
        if isinstance(v, str):
            return v
        return str(int(v)) if float(v).is_integer() else f"{v:.2f}".rstrip("0").rstrip(".")


def compute(index: SqlIndex, question: str, allowed: frozenset[str] | None = None,
            context: Sequence[str] = (), superseded: Collection[str] = ()) -> Computed | None:
    """The computed answer to ``question`` over ``index``'s tables (only rows in ``allowed``), or None.
    ``context``: titles of the documents around the table (the organisation's name is no qualifier);
    ``superseded``: paths of documents a newer edition replaces (their tables are not computed over)."""
    q = normal_key(question)
    op = _operation(q)
    if op is None:
        return None
    classifier, noun = counted_noun(question)
    if not noun and op in ("max", "min") and _WHICH_GROUP.search(q) and (ranked := _RANKED_NOUN.search(q)):
        noun = ranked.group("zh") or ranked.group("en")  # "哪个门店的员工最多" ranks by 员工; "the most bikes" by bikes
    if op == "count" and noun.startswith(_MEASURES):
        return None  # "承诺几个工作日办完？" asks for a duration a cell gives, not for rows to count
    best: tuple[float, TableInfo, list[ColumnElement[bool]], list[tuple[str, tuple[str, ...]]], TableColumn | None,
                TableColumn | None] | None = None
    tables = [t for t in index.tables if not ((allowed is not None and not (t.row_ids & allowed)) or t.path in superseded)]
    named_table = any(len(k) >= 3 and k in q for t in tables for k in _spelled(t.title))
    filters = {t.name: _filters(index, t, q) for t in tables}
    valued = bool(noun) and any(noun in values for _c, named in filters.values() for _l, values in named)
    by_start = tenure(q) is not None  # ranked by a start date, not by a number
    for t in tables:
        if op == "count" and noun and _names_a_number(t, noun):
            if named_table or valued:
                # "科室人员名册里有多少位主治医师", "有几位副主任医师或主任医师": the roster the question names, or whose
                # cells hold the noun, counts, not the allowance table with a column of it
                continue
            return None  # "how many paid CE days does a technician get": a cell to read, not rows to count
        conds, named = filters[t.name]
        in_time = op in ("max", "min") and not by_start and _TEMPORAL.search(q) is not None
        col = start_column(t) if by_start else date_column(t, q) if in_time \
            else numeric_column(index, t, q) if op != "count" else None
        if in_time and not named and not _title_named(t, q):
            continue  # "哪一辆车是最新买的？" names no cell of the fleet list: the roster's start dates are no answer
        if col is None and op in ("max", "min", "sum") and not by_start:
            col = _money_column(t, q)
        grouped = None
        if op != "count" and col is None:
            # "Which depot has the most bikes?": no measure is named, a column to group by is — rows are counted per group
            grouped = _group_column(t, q, {label for label, _values in named}) if op in ("max", "min") and not by_start \
                else None
            if grouped is None:
                continue
        if col is not None and _other_measure(col.label, q):
            continue  # "教龄津贴加起来一共是多少": the column of 教龄 years is not the allowance asked
        about = bool(noun) and (noun in normal_key(t.title) or any(noun in normal_key(c.label) for c in t.columns))
        if not named and not about and col is None and grouped is None:
            continue  # nothing of this table is named: no query is built from a guess
        # a Chinese title is named by its head noun too, its last three characters ("花名册上…" of 员工花名册)
        titled = _title_named(t, q) or \
            (len(head := normal_key(t.title)) >= 4 and not head.isascii() and head[-3:] in q)
        score = sum(len(values) for _label, values in named) + (0.5 if about else 0.0) + (0.25 if col else 0.0) \
            + (0.5 if titled else 0.0)
        if best is None or score > best[0]:
            best = (score, t, conds, named, col, grouped)
    if best is None:
        return None
    _score, t, conds, named, col, grouped = best
    about_best = bool(noun) and any(noun in k or _plural_of(noun, k) for k in (*_spelled(t.title),
                                                                                *(normal_key(c.label) for c in t.columns)))
    # the counted noun is no qualifier when the table is about it ("员工" of 员工花名册); else its words must
    # match like any other ("宁波分拨中心有几辆新能源车": 新能源 names no cell, so no count of all the cars)
    # a roster counts people: the person it counts by is no qualifier ("几位老师担任班主任" over 教职工名册)
    person = next((w for w in tokens(noun, search=False) if _PERSON_NOUN.search(w)), "") \
        if op == "count" and _ROSTER_TITLE.search(t.title) else ""
    # the table the question names ("房屋台账上…空置的房子有几套") holds what it counts: its noun is no qualifier —
    # unless a cell uses it ("vaccines for cats on the fee schedule": Vaccination is a category to filter by)
    titled_best = _title_named(t, q) and not _noun_in_cells(index, t, noun)
    flagged = [f for c in t.columns if (f := english_flag(c.label, q))]  # "sign the controlled drugs register"
    known = [noun if about_best or titled_best else "", person, *_spelled(t.title), *(normal_key(c.label) for c in t.columns),
             *(w for words, negated in flagged for w in (*words, *(NOT_WORDS if negated else ()))), *state_phrases(q),
             *(v for _label, values in named for v in values), *(k for x in context for k in _spelled(x)),
             *(f"{v}{k}" for _label, values in named for v in values if len(v) == 1 for k in "类级")]  # 甲类
    checked = _SOURCE.sub(" ", _RANKED.sub(" ", _NEWEST.sub(" ", _TENURE.sub(" ", q))) if op in ("max", "min") else q)
    if op == "sum" and any(len(values) >= 2 for _label, values in named):
        # "医生让我查个血常规、尿常规和肝功能，一共…": the words before a listed sum's first item are the asker's story,
        # the items and what follows them must all match ("…and the 3-year rabies vaccine" names a third)
        first = min((q.find(v) for _label, values in named for v in values if v in q), default=0)
        checked = checked[max(first, 0):]
    if _unmatched_qualifier(checked, known):
        return None  # "销售部一共有多少名员工？" over a roster without 销售部: no count of other rows
    if op == "count" and classifier == "次" and not (about_best and len(noun) >= 2):
        return None  # "年假可以分几次休？" counts times, not the rows of the leave table
    table = index.table(t.name)
    rows_stmt = select(table.c._row).where(*conds).order_by(table.c._row)
    with index.engine.connect() as conn:
        rows = [r for r in conn.execute(rows_stmt).scalars() if allowed is None or t.row_id(r) in allowed]
        if not rows:
            return None
        value: float | str
        keys: tuple[str, ...] = ()
        if grouped is not None:
            return _group_counted(conn, table, t, grouped, conds, rows, op, named, noun, classifier)
        if op == "count":
            value = float(len(rows))
            stmt: Any = select(func.count()).select_from(table).where(*conds)
        else:
            assert col is not None
            agg = _AGGREGATE[op]
            stmt = select(agg(table.c[col.name])).where(table.c._row.in_(rows))
            got = conn.execute(stmt).scalar()
            if got is None:
                return None
            value = got if isinstance(got, str) else float(got)  # a start date ranks as text (ISO dates sort)
            if op in ("max", "min"):  # the rows that hold it are the answer, not every row ranked
                rows = [r for r in conn.execute(select(table.c._row).where(table.c._row.in_(rows),
                                                                            table.c[col.name] == got)).scalars()]
                key_col = _key_column(t, q, {label for label, _values in named})
                keys = tuple(str(k) for k in conn.execute(select(table.c[key_col.name]).where(
                    table.c._row.in_(rows))).scalars()) if key_col is not None and len(rows) <= MAX_KEYS_SHOWN else ()
    if op != "count" and col is not None:  # the statement as a reader would write it (not the row-id list)
        stmt = select(_AGGREGATE[op](table.c[col.name])).where(*conds)
    sql = str(stmt.compile(compile_kwargs={"literal_binds": True}))
    return Computed(op, value, t, col, tuple(named), tuple(rows), " ".join(sql.split()), shown_noun(noun, question, context),
                    classifier, keys)


_RANKED_NOUN = re.compile(r"的(?P<zh>[\u4e00-\u9fff]{1,6}?)(?:人数|数量)?最(?:多|少)|\bthe (?:most|fewest|least) (?P<en>[a-z][a-z-]+)")
"""What a ranking of groups counts: "哪个门店的员工最多" → 员工, "Which depot has the most bikes" → bikes."""
_WHICH_GROUP = re.compile(r"\b(?:which|what) [a-z-]+ (?:has|have)\b|哪[个一家位种类]?[\u4e00-\u9fff]{1,6}的")
"""A question that ranks groups ("which depot has", "哪个门店的"), not the rows themselves ("the most expensive bike")."""


def _group_column(t: TableInfo, q: str, filtered: Collection[str]) -> TableColumn | None:
    """The text column the question names as what is ranked ("Which depot…", "哪个门店…"), never one it filters by."""
    for c in t.columns:
        label = label_base(c.label)
        if c.type != "TEXT" or c.label in filtered or len(label) < 2:
            continue
        if re.search(rf"(?:which|what)\s+{re.escape(label)}s?\b", q) if label.isascii() else \
                re.search(rf"哪[个一家位种类]?{re.escape(label)}", q):
            return c
    return None


def _group_counted(conn: Connection, table: Any, t: TableInfo, grouped: TableColumn, conds: list[ColumnElement[bool]],
                   rows: list[int], op: Operation, named: list[tuple[str, tuple[str, ...]]], noun: str,
                   classifier: str) -> Computed | None:
    """The group of ``grouped`` with the most (``max``) or fewest (``min``) of ``rows``; None when two tie."""
    g = table.c[grouped.name]
    n = func.count()
    stmt = select(g, n).where(*conds).group_by(g).order_by(n.desc() if op == "max" else n.asc(), g)
    counted: dict[Any, int] = dict(conn.execute(select(g, n).where(table.c._row.in_(rows)).group_by(g)).tuples().all())
    # every group of the column counts, those with none of the rows too ("the fewest e-bikes" may be none)
    counts = [(k, int(counted.get(k, 0))) for k in conn.execute(select(g).distinct()).scalars() if k is not None]
    if not counts:
        return None
    best = max(c for _k, c in counts) if op == "max" else min(c for _k, c in counts)
    top = [str(k) for k, c in counts if c == best]
    if len(top) != 1 or best == 0:
        return None  # two groups tie, or the fewest is none (no row to cite): no one answer
    held = [r for r in conn.execute(select(table.c._row).where(table.c._row.in_(rows), g == top[0])).scalars()]
    sql = " ".join(str(stmt.compile(compile_kwargs={"literal_binds": True})).split())
    return Computed(op, float(best), t, None, tuple(named), tuple(held), sql, noun, classifier, (top[0],), grouped)


MAX_KEYS_SHOWN = 3
"""A maximum or minimum held by more rows than this is said without naming them (the rows are cited)."""
_ASIDE = re.compile(r"[（(][^）)]*[）)]")
_AGGREGATE: dict[str, Any] = {"sum": func.sum, "avg": func.avg, "max": func.max, "min": func.min}
_PRICE_LABEL = re.compile(r"价|元|费|price|cost|usd|\$", re.I)
_PRICE_ASKED = re.compile(r"贵|便宜|价|钱|费|expensive|cheap|cost|price", re.I)


def _key_column(t: TableInfo, q: str, filtered: Collection[str] = ()) -> TableColumn | None:
    """The text column that names a row for the question: the one it asks by ("Which class…" → class), else a
    name column ("设备名称", "name"), else the first text column — never one the question filters by ("at the City
    hotel": its value is known)."""
    text = [c for c in t.columns if c.type == "TEXT" and c.label not in filtered]
    asked = [c for c in text if (label := label_base(c.label)) and not _ID_HEADER.search(normal_key(c.label)) and
             (re.search(rf"\b{re.escape(label)}\b", q) if label.isascii() else label in q)]
    which = re.search(r"\b(?:which|what)\s+([a-z]{3,})", q)  # "which boat…": boat_name, not the berth_id key
    of_it = [c for c in text if which and which.group(1).rstrip("s") in re.split(r"[\W_]+", normal_key(c.label))]
    return next((c for c in of_it if re.search(r"name", c.label, re.I)), None) or next(iter(asked), None) or \
        next((c for c in text if re.search(r"名称|姓名|name", c.label, re.I)), None) or next(iter(text), None)


_ID_HEADER = re.compile(r"[_ ](?:no|id|code|number)$|编号$|工号$")
"""A row's number ("plan_no", "staff_id", "设备编号"): "on the plan" does not ask which plan_no — the name column answers."""


def _other_measure(label: str, q: str) -> bool:
    """The question names the column's quantity as part of another, money, measure: "教龄津贴" over a 教龄 column.

    >>> _other_measure("教龄", "财经商贸系所有专任教师每个月的教龄津贴加起来一共是多少"), _other_measure("教龄", "教龄加起来一共多少年")
    (True, False)
    """
    base = label_base(label)
    return bool(base) and not _PRICE_LABEL.search(label) and \
        bool(re.search(re.escape(base) + r"\s*" + _OTHER_MEASURE, q, re.I))


def _money_column(t: TableInfo, q: str) -> TableColumn | None:
    """The one numeric column of prices a "最贵/cheapest" question ranks by (None: none, or two)."""
    if not _PRICE_ASKED.search(q):
        return None
    found = [c for c in t.columns if c.type in ("INTEGER", "REAL") and _PRICE_LABEL.search(c.label)]
    return found[0] if len(found) == 1 else None


def lead_line(c: Computed, is_zh: bool) -> str:
    """The answer in one short line, before the cited rows ("研发部共 15 名员工（按《员工花名册》统计）")."""
    dated = isinstance(c.value, str) or bool(c.column is not None and DATE_LABEL.search(c.column.label))
    where = "，".join(f"{label}为{'或'.join(values)}" for label, values in c.filters) if is_zh else \
        ", ".join(f"{label} = {' or '.join(values)}" for label, values in c.filters)
    if c.group is not None:  # "Which depot has the most bikes?": the group, its count, how it was grouped
        most = c.operation == "max"
        if is_zh:
            return (f"{c.keys[0]}：{'最多' if most else '最少'}，共 {c.shown_value()} {c.classifier or ''}{c.noun}"
                    f"（按《{c.table.title}》中的{c.group.label}分组统计{'：' + where if where else ''}）")
        return (f"{c.keys[0]} — {'most' if most else 'fewest'}: {c.shown_value()} {c.noun if c.noun.isascii() else 'rows'}"
                f" (counted by {c.group.label} over {c.table.title}{': ' + where if where else ''})")
    if is_zh:
        # "几个窗口人员" is counted in people: 共 5 人（窗口人员，按…）
        people = c.operation == "count" and c.classifier in ("", "个") and bool(_PERSON_NOUN.search(c.noun))
        label, unit = label_and_unit(c.column.label if c.column else "")
        value = f"{c.shown_value()}{unit}"
        noun = "" if c.noun.isascii() else c.noun  # a translated reading's noun ("health plan valid labrador") is no Chinese
        what = {"count": f"共 {c.shown_value()} 人" if people else
                f"共 {c.shown_value()} {c.classifier or ('项' if not noun else '')}{noun}",
                "max": f"{label}{'最晚' if dated else '最高'} {value}",
                "min": f"{label}{'最早' if dated else '最低'} {value}",
                "sum": f"{label}合计 {value}",
                "avg": f"{label}平均 {value}"}[c.operation]
        scope = f"（{c.noun + '，' if people and c.noun != '人' else ''}按《{c.table.title}》统计{'：' + where if where else ''}，共 {len(c.rows)} 行）"
        return ("、".join(c.keys) + "：" if c.keys else "") + what + scope
    # a count over a Chinese roster is said in people ("4 people"), as 共 4 人 is: the counted noun or the
    # roster's title names people (窗口人员排班表 when the translated question counted 窗口)
    people = c.operation == "count" and not c.noun.isascii() and bool(
        _PERSON_NOUN.search(c.noun) or _ROSTER_TITLE.search(c.table.title))
    valued = english_valued(c.column.label, c.shown_value()) if c.column and not dated else c.shown_value()
    what = {"count": f"{c.shown_value()} people" if people else
            f"{c.shown_value()} {c.noun if c.noun.isascii() else ''}".strip() if c.noun else f"{c.shown_value()} rows",
            "sum": f"Total {c.column.label if c.column else ''}: {valued}",
            "max": f"{'Latest' if dated else 'Highest'} {c.column.label if c.column else ''}: {valued}",
            "min": f"{'Earliest' if dated else 'Lowest'} {c.column.label if c.column else ''}: {valued}",
            "avg": f"Average {c.column.label if c.column else ''}: {valued}"}[c.operation]
    return (", ".join(c.keys) + " — " if c.keys else "") + \
        f"{what} (computed over {c.table.title}{': ' + where if where else ''}; {len(c.rows)} rows)"


def asks_to_compute(question: str) -> bool:
    """The question asks for a count, a sum or an average (cheap: no table is read)."""
    return _operation(normal_key(question)) is not None


def computing_word(term: str) -> bool:
    """A word that only asks to add up ("一共", "总共", "in total"): it names nothing the documents write.

    >>> computing_word("一共"), computing_word("班主任")
    (True, False)
    """
    return bool(_SUM.fullmatch(term))


_TENURE = re.compile(r"longest[- ](?:serving|standing)|been (?:working|here|employed|(?:[a-z]+ed )?with us)\b[^?？]{0,40}?\bthe longest|"
                     r"(?:司龄|工龄|教龄|资历)最(?:长|老|久)|(?:入职|工作)(?:时间)?最(?:早|久|长)|最早入职|most senior", re.I)
_NEWEST = re.compile(r"(?:most recent|newest|latest)\s+(?:hire|joiner|starter|recruit)|(?:joined|started)\s+(?:most recently|last)|"
                     r"(?:入职|工作)(?:时间)?最(?:晚|短)|最(?:晚|近)入职|(?:司龄|工龄|教龄)最短", re.I)
def tenure(q: str) -> Operation | None:
    """A superlative of service ("been working here the longest", "司龄最长", "入职最早") is the earliest start date
    (``min``); "the most recent hire", "入职最晚" the latest (``max``); None for any other question.

    >>> tenure("who's been working at the city hotel the longest?"), tenure("入职最晚的是谁"), tenure("最贵的设备")
    ('min', 'max', None)
    """
    return "min" if _TENURE.search(q) else "max" if _NEWEST.search(q) else None


_TEMPORAL = re.compile(r"最(?:早|晚|新|旧)|\b(?:earliest|latest|oldest|newest|most recent(?:ly)?)\b", re.I)
"""A superlative in time ("哪一辆是最早买的", "the newest boat"): rows are ranked by a date or a year."""
def _operation(q: str) -> Operation | None:
    if op := tenure(q):
        return op
    if _AVG.search(q):
        return "avg"
    if _COUNT.search(q) and not _ADDS_UP.search(q):  # "how many credits do they add up to": a sum of credits
        return "count"
    if _SUM.search(q):
        return "sum"
    if m := _RANKED.search(q):
        return "max" if m.group("hi") or m.group("hi2") or m.group("hi3") else "min"
    return None


def counted_noun(question: str) -> tuple[str, str]:
    """(measure word, counted noun): "研发部一共有多少名员工？" → ("名", "员工"); "冷藏车有几辆？" → ("辆", "冷藏车").

    >>> counted_noun("秩序维护部一共有几个人？"), counted_noun("研发部一共有多少名员工？")
    (('个', '人'), ('名', '员工'))
    """
    q = question.strip()
    if m := _NOUN_EN.search(q):
        return "", normal_key(m.group(1).strip())
    if m := _PEOPLE.search(q):  # "一共有几个人？": 人 is the noun, not a second classifier
        return m.group(1) or "", "人"
    after = _NOUN_AFTER.search(q)
    noun = _GENERIC.sub("", re.split(r"或|和|及|与|、", after.group(2))[0]) if after else ""  # 副主任医师或…
    noun = _before_verb(noun)  # "几位老师担任班主任" counts 老师
    classifier = (after.group(1) or "") if after else ""
    if not noun and (before := _NOUN_BEFORE.search(q)):
        words = tokens(_GENERIC.sub("", before.group(1).split("的")[-1]), search=False, keep_stopwords=True)
        noun = words[-1] if words else ""  # the word before the count: "车辆台账里冷藏车一共有几辆" → 冷藏车
        classifier = classifier or (before.group(2) or "")
    return classifier, normal_key(noun)


_PEOPLE = re.compile(r"(?:多少|几)\s*([个名位])?\s*人(?=\s*(?:[？?，,。！!呢啊吧]|$))")


def _noun_in_cells(index: SqlIndex, t: TableInfo, noun: str) -> bool:
    """A word of the counted noun (an English one by its first five letters: "vaccin" of Vaccination) in a cell of ``t``."""
    words = [w[:5] for w in re.findall(r"[a-z]{4,}", noun) if w not in _FUNCTION_WORDS] if noun.isascii() else [noun]
    cells = [v for _r, _c, v in index.text_values(t)]
    return any(w and w in v for w in words for v in cells)


def _before_verb(noun: str) -> str:
    """The words of ``noun`` before its first verb, preposition or adverb ("老师担任班主" → 老师); all of it when
    it starts with one or has none."""
    words = pos_tags(noun) if len(noun) >= 3 else []
    cut = next((i for i, (_w, flag) in enumerate(words) if i and flag[:1] in ("v", "p", "d")), None)
    return "".join(w for w, _f in words[:cut]) if cut else noun


def _filters(index: SqlIndex, t: TableInfo, q: str) -> tuple[list[ColumnElement[bool]], list[tuple[str, tuple[str, ...]]]]:
    """Exact text cells the question names and number comparisons. Values of one column are alternatives
    (OR) and different columns all apply (AND); a value found in several columns ("唐志远" as 姓名 and as
    导师) is one filter over the column whose header the question names, else over any of them."""
    q = q.replace("已经", "已")  # "已经报废的设备" names the cell 已报废
    by_value: dict[str, list[TableColumn]] = {}
    by_member: dict[str, list[TableColumn]] = {}  # a member of list cells ("普通话;手语") the question names
    cells = index.text_values(t)
    if states := same_state(q, {v for _r, _c, v in cells}):
        q = f"{q} {' '.join(states)}"  # "能正常用的叉车" names the cells 在用 (vocabulary/questions.py, states)
    heads = Counter(_ASIDE.sub("", v) for _r, _c, v in cells)
    firsts = Counter(v.split()[0] for v in {v for _r, _c, v in cells if v.isascii() and " " in v})
    opened: set[str] = set()
    for _row, col, value in cells:
        if value.isascii() and " " in value and value not in q and firsts[first := value.split()[0]] == 1 and \
                len(first) >= 5 and first not in _FUNCTION_WORDS and re.search(rf"(?<![a-z0-9]){re.escape(first)}(?:e?s)?(?![a-z0-9])", q):
            # "Labradors" names the one value "Labrador Retriever" (no other value opens with that word; "people" of
            # "How many people work in …" names no "People & Culture": a roster's own word)
            cols = by_value.setdefault(value, [])
            if all(c.name != col.name for c in cols):
                cols.append(col)
            opened.add(value)
            continue
        if value not in q and _LIST_CELL.search(value):
            for member in _LIST_CELL.split(value):
                if len(member := member.strip()) >= 2 and _named_word(member, q) and col not in by_member.get(member, []):
                    by_member.setdefault(member, []).append(col)
        head = _ASIDE.sub("", value)  # "肝功能（8项）" is named by 肝功能 when no other cell has that head
        if len(value) < 2 or (value not in q and not (head != value and len(head) >= 3 and not head.isascii()
                                                      and heads[head] == 1 and head in q)):
            continue
        if value not in q:
            value = head + "%"  # matched as the cell's beginning: the stored cell keeps its own brackets
        if value.isascii() and not re.search(rf"(?<![a-z0-9]){re.escape(value)}(?:e?s)?(?![a-z0-9])", q):
            continue  # "p8" is not in "p80" (an English plural still names its value)
        cols = by_value.setdefault(value, [])
        if all(c.name != col.name for c in cols):
            cols.append(col)
    for col in t.columns:  # "on pontoons C and D": one-letter values after their column's name (no text value holds them)
        if col.type == "TEXT" and _lettered(col, "", q):
            for v in {str(x).strip().lower() for x in _column_values(index, t, col)}:
                if len(v) == 1 and v.isalpha() and _lettered(col, v, q):
                    by_value.setdefault(v, []).append(col)
    # a value the question writes only inside another named value is not a second filter ("研发" in "研发部");
    # written on its own too, it is an alternative ("副主任医师或主任医师")
    values = [v for v in by_value if v in opened or stands_alone(v.rstrip("%"), [w.rstrip("%") for w in by_value if w != v], q)]
    flags = _flags_named(index, t, q)
    # "有多少个执业药师" over a roster with a 是否执业药师 column: the flag says who is one, not the job title
    # 执业药师 of some of them (a value of another column naming the same thing is no second filter)
    flagged = {re.sub(r"^(?:是否|有无)", "", normal_key(col.label)) for col, _yes in flags}
    # nor is a value written only inside the flag's name ("有救生员证的": 救生员 of 岗位 is not asked, 救生员证 = 有 is)
    values = [v for v in values if v.rstrip("%") not in flagged and (v in opened or stands_alone(v.rstrip("%"), sorted(flagged), q))]
    table = index.table(t.name)
    by_cols: dict[tuple[str, ...], tuple[list[TableColumn], list[str]]] = {}
    for v in values:
        cols = by_value[v]
        named_cols = [c for c in cols if label_base(c.label) in q]
        cols = named_cols or cols
        key = tuple(c.name for c in cols)
        by_cols.setdefault(key, (cols, []))[1].append(v)
    conds: list[ColumnElement[bool]] = []
    named: list[tuple[str, tuple[str, ...]]] = []
    for _key, (cols, vals) in sorted(by_cols.items()):
        if len(vals) > 5:
            continue  # more is too unspecific to be a filter
        kept = sorted(vals)
        if len(cols) == 1 and len(kept) == 1:  # "P8及以上" → P8, P9
            kept = graded(kept[0], [str(v).strip().lower() for v in _column_values(index, t, cols[0])], q)
        exact = [v for v in kept if not v.endswith("%")]
        starts = [v for v in kept if v.endswith("%")]
        conds.append(or_(*(func.lower(table.c[c.name]).in_(exact) for c in cols),
                         *(func.lower(table.c[c.name]).like(v) for c in cols for v in starts)))
        named.append(("/".join(c.label for c in cols), tuple(v.rstrip("%") for v in kept)))
    for member, cols in sorted(by_member.items()):
        if member in by_value or any(member in v for v in values):
            continue  # a whole cell names it already
        conds.append(or_(*(func.lower(table.c[c.name]).like(f"%{member}%") for c in cols)))
        named.append(("/".join(c.label for c in cols), (member,)))
    for col, yes in flags:  # 是否带教 = 是; on_call = Yes (the values are compared in lower case)
        conds.append(func.lower(func.trim(table.c[col.name])) == yes)
        named.append((col.label, (yes,)))
    for col, yes in _classes_named(index, t, q):  # 医保类别 = 甲
        conds.append(table.c[col.name] == yes)
        named.append((col.label, (yes,)))
    for col, number in _numbers_named(index, t, q):
        conds.append(table.c[col.name] == number)
        named.append((col.label, (str(number),)))
    for word, op in CMP:
        m = re.search(re.escape(word) + r"\s*([0-9]+(?:\.[0-9]+)?)", q)
        compared = numeric_column(index, t, q) if m else None
        if m and compared is not None:
            conds.append(op(table.c[compared.name], float(m.group(1))))
            named.append((compared.label, (f"{word}{m.group(1)}",)))
            break
    return conds, named


_GRADE = re.compile(r"^([a-z]{1,3})-?(\d{1,2})$")
_AT_LEAST = r"\s*(?:及以上|或以上|以上|and above|or above|or higher|\+)"
_AT_MOST = r"\s*(?:及以下|或以下|以下|and below|or below|or lower)"


def _lettered(col: TableColumn, value: str, q: str) -> bool:
    """A one-letter value the question writes after its column's name ("pontoons C and D", "Zone B").

    >>> _lettered(TableColumn("c2", "pontoon", "TEXT"), "d", "how many berths on pontoons c and d are free?")
    True
    >>> _lettered(TableColumn("c2", "pontoon", "TEXT"), "a", "how many berths are a visitor's?")
    False
    """
    name = re.escape(normal_key(col.label).split("_")[0])
    if len(name) < 3:
        return False
    letters = r"(?:[a-z](?:\s*(?:,|and|or|&|/)\s*))*"
    return bool(re.search(rf"\b{name}s?\s+{letters}{re.escape(value) if value else '[a-z]'}\b", q))


def graded(value: str, values: Sequence[str], q: str) -> list[str]:
    """A grade the question bounds ("P8及以上", "W3 or above") as every grade of its column on that side of it;
    ``[value]`` when the question does not bound it (values are the column's, lower case).

    >>> graded("p8", ["p5", "p7", "p8", "p9", "m1"], "职级在p8及以上的员工"), graded("p8", ["p8", "p9"], "p8的员工")
    (['p8', 'p9'], ['p8'])
    >>> graded("w3", ["w1", "w2", "w3", "w4"], "grade w3 or below")
    ['w1', 'w2', 'w3']
    """
    m = _GRADE.match(value)
    if not m:
        return [value]
    at = re.escape(value)
    up = re.search(at + _AT_LEAST, q)
    down = None if up else re.search(at + _AT_MOST, q)
    if not (up or down):
        return [value]
    out = []
    for v in values:
        g = _GRADE.match(v)
        if g and g.group(1) == m.group(1) and (int(g.group(2)) >= int(m.group(2)) if up
                                               else int(g.group(2)) <= int(m.group(2))):
            out.append(v)
    return sorted(out) or [value]


_LIST_CELL = re.compile(r"[;；、/]")
_PERSON_NOUN = re.compile(r"(?:人员|员工|人|员|者|师|生|医生|护士)$")
_ROSTER_TITLE = re.compile(r"人员|员工|名册")


def _named_word(value: str, q: str) -> bool:
    """``value`` in ``q``, an English one as a whole word."""
    if value.isascii():
        return bool(re.search(rf"(?<![a-z0-9]){re.escape(value)}(?![a-z0-9])", q))
    return value in q


_FLAG_LABEL = re.compile(r"^(?:是否|有无|是不是)(.{2,8})$")
_SUBJECT_LABEL = re.compile(r"^([\u4e00-\u9fff]{2,8})$")
_YES_NO_CELLS = ({"是", "否"}, {"有", "无"}, {"yes", "no"}, {"y", "n"})


def _flags_named(index: SqlIndex, t: TableInfo, q: str) -> list[tuple[TableColumn, str]]:
    """Yes/no columns ("是否带教" of 是/否) whose subject the question names ("负责带教的"): the yes value, or
    the no value when the question negates it right before ("不带教的", "没有带教的")."""
    out: list[tuple[TableColumn, str]] = []
    for c in t.columns:
        # "是否带教" is named by 带教; a yes/no column headed by its subject alone ("班主任") by that subject
        m = _FLAG_LABEL.match(normal_key(c.label)) or _SUBJECT_LABEL.match(normal_key(c.label))
        english = english_flag(c.label, q) if m is None else None
        if c.type != "TEXT" or not (english or (m and (at := named_at(m.group(1), q)) >= 0)):
            continue
        values = {str(v).strip().lower() for v in _column_values(index, t, c)}
        pair = next((p for p in _YES_NO_CELLS if values and values <= p), None)
        if pair is None:
            continue
        yes, no = sorted(pair, key=lambda v: v not in ("是", "有", "yes", "y"))
        negated = english[1] if english else bool(re.search(r"(?:不|没有?|未|无)\S{0,2}$", q[max(0, at - 3):at]))
        out.append((c, no if negated else yes))
    return out


def _classes_named(index: SqlIndex, t: TableInfo, q: str) -> list[tuple[TableColumn, str]]:
    """A class of one character the question names with its kind ("甲类" of a 医保类别 column of 甲/乙/丙, "A级")."""
    out: list[tuple[TableColumn, str]] = []
    for c in t.columns:
        label = normal_key(c.label)
        kind = next((k for k in ("类", "级") if k in label), None)
        if c.type != "TEXT" or kind is None:
            continue
        values = [str(v).strip() for v in _column_values(index, t, c)]
        if not values or len(values) > 10 or any(len(v) != 1 for v in values):
            continue
        hits = [v for v in values if f"{v.lower()}{kind}" in q]
        if len(hits) == 1:
            out.append((c, hits[0]))
    return out


def _column_values(index: SqlIndex, t: TableInfo, c: TableColumn) -> list[object]:
    with index.engine.connect() as conn:
        return [v for v in conn.execute(select(index.table(t.name).c[c.name]).distinct()).scalars() if v is not None]


_WHOLE_NUMBER = re.compile(r"(?<![\d.])\d{1,9}(?![\d.])")
_CN_ORDINAL = re.compile(r"第([一二两三四五六七八九十]{1,3})")


def _numbers_named(index: SqlIndex, t: TableInfo, q: str) -> list[tuple[TableColumn, int]]:
    """Whole-number cells the question names with their column ("2024年购置" → 购置年份 = 2024): a number
    of the question that is a value of an integer column whose header shares two or more characters with
    the question. One filter per column; a number the question compares ("超过5000") is not one."""
    # a number with its unit ("15楼") names a value of a column whose header writes that unit (年 of 购置年份)
    numbers = [(int(m.group(0)), q[m.end():m.end() + 1]) for m in _WHOLE_NUMBER.finditer(q)
               if not any(q[:m.start()].rstrip().endswith(word) for word, _op in CMP)]
    # an ordinal in Chinese numerals names its number ("第三学期" → 开课学期 = 3)
    numbers += [(int(v), "") for m in _CN_ORDINAL.finditer(q) for v in cn_value(m.group(1))[:1] if v.isdigit()]
    if not numbers:
        return []
    out: list[tuple[TableColumn, int]] = []
    table = index.table(t.name)
    with index.engine.connect() as conn:
        for c in t.columns:
            if c.type != "INTEGER" or _common_run(label_base(c.label), q) < 2:
                continue
            for n, unit in numbers:
                if unit and re.match(r"[\u4e00-\u9fff]", unit) and unit not in normal_key(c.label):
                    continue
                if conn.execute(select(table.c._row).where(table.c[c.name] == n).limit(1)).first() is not None:
                    out.append((c, n))
                    break
    return out


"""jieba's part-of-speech tags of words that name nothing to count by: verbs (not verbal nouns: 销售 of
销售部 stays a qualifier), adverbs, prepositions, conjunctions, particles, pronouns, numerals, measure words,
locatives (里, 中)."""
_FUNCTION_WORDS = frozenset("and or has have had is are am on at by for from with to of per each any there here can could will would should may "
                            "might must do does did be been was were get gets work works people persons members "
                            "employees staff entries records rows items who whom whose what which when where why "
                            "how now right currently presently moment across altogether together overall "
                            "set aside reserved kept allocated".split())
"""English prepositions, conjunctions, auxiliaries and the like, never a qualifier of what is counted; nor are the
words for what any roster counts (people, members, entries…), as 名/人/项 are not; nor the time or scope of the
count ("right now", "across all the depots"), which a table's present rows always have; nor a verb that puts a row
in the state its cell names ("berths set aside for visitors": status Visitor), as a Chinese verb names nothing."""


def _known_word(word: str, known: set[str]) -> bool:
    """An English word of a known text, its plural ("dvms" of "dvm", "vehicles" of "vehicle"), or the word a
    header abbreviates ("quantity" of "qty", "department" of "dept").

    >>> _known_word("quantity", {"stock", "qty"}), _known_word("used", {"usd"}), _known_word("vehicles", {"vehicle"})
    (True, False, True)
    """
    return word in known or word.rstrip("s") in known or (word.endswith("es") and word[:-2] in known) \
        or any(2 <= len(k) <= 4 and len(word) >= len(k) + 3 and k[0] == word[0] and _subsequence(k, word)
               for k in known if k.isalpha())


def _subsequence(short: str, word: str) -> bool:
    letters = iter(word)
    return all(ch in letters for ch in short)
_SOURCE = re.compile(r"\b(?:according to|going by|based on|as per|in|on|from)\s+(?:the|our|your)\s+(?:[a-z]+\s+){0,3}?"
                     r"(?:list|register|roster|ledger|table|sheet|spreadsheet|inventory|records?)\b")
"""Where the question says to look ("going by the berth register"): the table it names, no qualifier of the rows."""
_PLAIN = re.compile(rf"(?:公司|我们|我司|全部|所有|总共|一共|共计|合计|目前|现在|现有|当前|当初|当时|眼下|如今|正在|平均|均|的|是|有|多少|多大|多长|多高|多重|多远|几|[{_CLASSIFIER}]|"
                    r"(?<![a-z])(?:how many|are|is|there|in|total|the|all|we|our|do|does|have|average|mean|what|of)(?![a-z]))")


def _names_a_number(t: TableInfo, noun: str) -> bool:
    """The counted noun is a numeric column's header ("paid ce days" of "Paid CE days per year")."""
    return any(c.type in ("INTEGER", "REAL") and len(noun) >= 4 and normal_key(c.label).startswith(noun)
               for c in t.columns)


def _plural_of(noun: str, text: str) -> bool:
    """"vehicles" names "vehicle register": an English plural of a word of ``text``."""
    return noun.isascii() and any(noun in (w + "s", w + "es") for w in re.findall(r"[a-z]+", text))


def _title_named(t: TableInfo, q: str) -> bool:
    """The question writes the table's title (as :func:`_spelled` compares it)."""
    return any(len(k) >= 2 and k in q for k in _spelled(t.title))


def _spelled(title: str) -> list[str]:
    """A title as compared with a question: as written, with a file name's ``_``/``-`` as spaces
    ("Staff_Roster" is "staff roster") and without a year at its end ("Fee_Schedule_2026": "fee schedule")."""
    key = normal_key(title)
    spaced = re.sub(r"[_-]+", " ", key)
    undated = re.sub(r"\s*\d{4}$", "", spaced)
    single = re.sub(r"(?<=[a-z]{3})s$", "", undated)  # "berths" is named by "the berth register"
    return list(dict.fromkeys((key, spaced, undated, single)))


def _unmatched_qualifier(q: str, known: list[str]) -> bool:
    """The question qualifies what it counts with words no cell matched ("销售部…员工" when there is no
    销售部); words of the counted noun, the table's title and its headers are not qualifiers, nor are
    a single character left between matched words, a verb ("负责") or a function word ("on the staff roster")."""
    # known runs first: a measure word inside one is part of it ("车辆台账" is not 车 + 辆 + 台 + 账)
    covered = [False] * len(q)  # characters inside a run of 2+ CJK characters of a known text
    for run in {text[i:i + n] for text in known for n in range(2, len(text) + 1) for i in range(len(text) - n + 1)
                if not text[i:i + n].isascii() and text[i:i + n] in q}:
        for m in re.finditer(re.escape(run), q):
            covered[m.start():m.end()] = [True] * (m.end() - m.start())
    rest = _PLAIN.sub(" ", "".join(" " if hit else ch for ch, hit in zip(q, covered, strict=True)))
    # English is matched by whole words (any two letters of it occur in some title), Chinese by runs
    latin = {w for text in known for w in re.findall(r"[a-z0-9]+", text)}
    rest = re.sub(r"[a-z0-9]+", lambda m: " " if _known_word(m.group(0), latin) else f" {m.group(0)} ", rest)
    for piece in rest.split():
        word = re.sub(r"[\W_]+", "", piece)
        if re.search(r"\d", word):
            return True  # a number no cell matched ("2019年购置的车辆" when none was bought in 2019)
        if len(word) < 2 or word in _FUNCTION_WORDS:
            continue  # single characters left between matched words ("2024年购置" → 年) name nothing
        if names_nothing(word):
            continue  # a verb or a function word ("社会事务科负责的服务事项": 负责)
        if len(word) == 2 and word[1] in "里中内" and any(word[0] in text for text in known):
            continue  # "租出去的车里" is among the table's own (车辆清单), not a qualifier
        return True
    return False


def numeric_column(index: SqlIndex, t: TableInfo, q: str) -> TableColumn | None:
    """The numeric column the question names: the SQL index's match, else the column whose header shares
    the longest run of at least three characters with the question ("机时费" of "校内机时费_元每小时")."""
    col = index.numeric_column(t, q)
    if col is not None:
        return col
    if (m := _MEASURED_BY.search(q)) is not None:  # "the heaviest", "最重的": the weight column
        q = f"{q} {_MEASURE_OF[m.group(0).lower()]}"
    best, best_len = None, 2
    for c in t.columns:
        if c.type not in ("INTEGER", "REAL"):
            continue
        base = label_base(c.label)
        # English by whole words (the "has" inside "purchase" names nothing); Chinese by its longest shared run
        n = sum(len(w) for w in re.findall(r"[a-z]{4,}", base) if re.search(rf"\b{w}", q)) if base.isascii() \
            else _common_run(base, q)
        if n > best_len:
            best, best_len = c, n
    return best


_MEASURE_OF = {"heaviest": "weight 体重 重量", "lightest": "weight 体重 重量", "tallest": "height 身高 高度",
               "最重": "weight 体重 重量", "最轻": "weight 体重 重量"}
"""A superlative that names its measure ("the heaviest" ranks by weight), in the words a header writes for it."""
_MEASURED_BY = re.compile("|".join(_MEASURE_OF), re.I)


def _common_run(a: str, b: str) -> int:
    """Length of the longest substring of ``a`` that occurs in ``b``."""
    best = 0
    for i in range(len(a)):
        for j in range(i + best + 1, len(a) + 1):
            if a[i:j] in b:
                best = j - i
            else:
                break
    return best
