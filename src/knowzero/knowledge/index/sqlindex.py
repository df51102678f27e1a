"""Structured retrieval: CSV files become real SQL tables; questions become small SQL queries.

Three query shapes, chosen by rules over the question and the tables' column headers:
- lookup: a text cell value named in the question ("XH-1001") → the rows holding it;
- superlative: 最贵/最高/最低/最大/最小/最多/最少 + a numeric column → ``ORDER BY col DESC|ASC LIMIT 3``;
- comparison: 小于/低于/大于/超过/高于/不超过 + a number + a numeric column → ``WHERE col < :n``.
Each result row is returned as a citable passage ``sql:<table>:<row>``: its line in the CSV's text
rendering. ``allowed`` restricts results to those passage ids, like every other retriever.

Identifiers are never taken from user data: a table is named ``kbt_<random hex>`` when it is
created, its columns ``c1, c2 …`` (see :mod:`knowzero.knowledge.ingest.csvtable`); the CSV headers are
metadata used only to match question words. Every statement is built with SQLAlchemy Core
(:func:`sql_table`), values are bound parameters, and names are checked against
:data:`TABLE_NAME` / :data:`COLUMN_NAME` before a ``Table`` is built.
This is not a text-to-SQL model; questions outside these shapes get no SQL hits.

Usage (``doc`` from :func:`knowzero.knowledge.ingest.parsers.parse_bytes` on a CSV)::

    name = new_table_name()
    with engine.begin() as conn:
        create_table(conn, name, doc.table.columns, doc.table.rows)
    info = TableInfo(name, "p.csv", "team", tuple(doc.table.columns), row_offsets(doc.text), "p", "product")
    SqlIndex(engine, [info], {"p.csv": doc.text}).search("哪个产品最贵？", 3)
"""

from __future__ import annotations

import json
import operator
import re
import unicodedata
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz
from sqlalchemy import (
    BigInteger,
    Column,
    ColumnElement,
    Connection,
    Engine,
    Float,
    Integer,
    MetaData,
    Table,
    Text,
    func,
    select,
)
from sqlalchemy.types import TypeEngine

from knowzero.knowledge.index.bands import Band, band, quantities
from knowzero.knowledge.index.kinds import KindTable, kind_table
from knowzero.knowledge.ingest.csvtable import TableColumn
from knowzero.knowledge.types import Hit, Passage

TABLE_NAME = re.compile(r"kbt_[0-9a-f]{12,32}")
COLUMN_NAME = re.compile(r"c[1-9][0-9]{0,3}")
SQL_TYPES: dict[str, type[TypeEngine[Any]]] = {"INTEGER": BigInteger, "REAL": Float, "TEXT": Text}

_SUPER = {"最严": "ASC", "最贵": "DESC", "最高": "DESC", "最大": "DESC", "最多": "DESC", "最重": "DESC", "最长": "DESC",
          "最便宜": "ASC", "最低": "ASC", "最小": "ASC", "最少": "ASC", "最轻": "ASC", "最短": "ASC",
          "most expensive": "DESC", "highest": "DESC", "largest": "DESC", "cheapest": "ASC", "lowest": "ASC",
          "smallest": "ASC"}
_Op = Callable[[Any, Any], ColumnElement[bool]]
_CMP: list[tuple[str, _Op]] = [
    ("不超过", operator.le), ("不低于", operator.ge), ("小于等于", operator.le), ("大于等于", operator.ge),
    ("小于", operator.lt), ("低于", operator.lt), ("少于", operator.lt), ("大于", operator.gt), ("高于", operator.gt),
    ("超过", operator.gt), ("多于", operator.gt), ("less than", operator.lt), ("under", operator.lt),
    ("more than", operator.gt), ("over", operator.gt), ("above", operator.gt), ("below", operator.lt)]
CMP = _CMP
"""Comparison words and their operators (shared with :mod:`knowzero.knowledge.answer.aggregate`)."""
_COL_HINTS = {"价": ["单价", "价格", "price"], "贵": ["单价", "价格", "price"], "便宜": ["单价", "价格", "price"],
              "expensive": ["单价", "价格", "price"], "cheap": ["单价", "价格", "price"],
              "重": ["重量", "weight"], "轻": ["重量", "weight"], "库存": ["库存", "stock"], "交期": ["交期", "lead"],
              "公差": ["公差", "tolerance"], "精度": ["公差", "tolerance"]}
_QUANTITY = re.compile(r"(\d+)\s*(件|个|套|pcs)")
_BAND = re.compile(r"^(\d+)\s*(?:-\s*(\d+)\s*)?(件|个|套|pcs)(?:及以上|以上|\+)?(?:_|$)")


def abbreviated(cell: str, question: str) -> bool:
    """The question writes a Chinese cell of four characters or more the usual short way, its first two
    characters and its last ("博士研究生" → 博士生, "硕士研究生" → 硕士生).

    >>> abbreviated("博士研究生", "博士生每月基本津贴是多少？"), abbreviated("博士研究生", "硕士生的津贴"), abbreviated("零件A", "零A")
    (True, False, False)
    """
    return len(cell) >= 4 and bool(re.fullmatch(r"[\u4e00-\u9fff]+", cell)) and cell[:2] + cell[-1] in question


def shortened(cell: str, question: str) -> bool:
    """An English cell of two words or more the question names with each word shortened or plural
    ("credentialed vet techs" for "Credentialed veterinary technician"; 3 letters at least).

    >>> shortened("Credentialed veterinary technician", "allowance for credentialed vet techs?")
    True
    >>> shortened("Other staff", "allowance for a DVM?"), shortened("Main Street", "the main office")
    (False, False)
    """
    words = re.findall(r"[a-z]{3,}", cell.lower())
    if len(words) < 2 or not cell.isascii():
        return False
    asked = {w[:-1] if w.endswith("s") and len(w) > 3 else w for w in re.findall(r"[a-z]{3,}", question.lower())}
    return all(any(w.startswith(a) or a.startswith(w) for a in asked) for w in words)


def new_table_name() -> str:
    """A fresh table name, never derived from a file name or its content."""
    return "kbt_" + uuid.uuid4().hex


def sql_table(name: str, columns: Sequence[TableColumn]) -> Table:
    """The SQLAlchemy ``Table`` for a stored CSV: ``_row`` (the file's row order) and ``c1 … cN``."""
    if not TABLE_NAME.fullmatch(name):
        raise ValueError(f"not a generated table name: {name!r}")
    bad = [c.name for c in columns if not COLUMN_NAME.fullmatch(c.name)]
    if bad:
        raise ValueError(f"not generated column names: {bad!r}")
    return Table(name, MetaData(), Column("_row", Integer, primary_key=True, autoincrement=False),
                 *(Column(c.name, SQL_TYPES[c.type]) for c in columns))


def create_table(conn: Connection, name: str, columns: Sequence[TableColumn], rows: Sequence[Sequence[Any]]) -> None:
    """(Re)create the SQL table for a parsed CSV and insert its rows (bound parameters only)."""
    table = sql_table(name, columns)
    table.drop(conn, checkfirst=True)
    table.create(conn)
    if rows:
        names = [c.name for c in columns]
        conn.execute(table.insert(), [{"_row": i, **dict(zip(names, r, strict=True))} for i, r in enumerate(rows)])


def drop_table(conn: Connection, name: str) -> None:
    """Drop a stored CSV's table (no-op if it is missing)."""
    sql_table(name, []).drop(conn, checkfirst=True)


def encode_columns(columns: Sequence[TableColumn]) -> str:
    """Column metadata for ``kb_tables.columns``: ``[{"name": "c1", "header": "型号", "type": "TEXT"}, …]``."""
    return json.dumps([{"name": c.name, "header": c.header, "type": c.type} for c in columns], ensure_ascii=False)


def decode_columns(raw: str) -> tuple[TableColumn, ...]:
    """Inverse of :func:`encode_columns`; raises ValueError for the pre-generated-names format."""
    data = json.loads(raw)
    if not all(isinstance(c, dict) for c in data):
        raise ValueError("column metadata in the old [[header, type], …] format")
    columns = tuple(TableColumn(str(c["name"]), str(c["header"]), c["type"]) for c in data)
    if any(c.type not in SQL_TYPES or not COLUMN_NAME.fullmatch(c.name) for c in columns):
        raise ValueError("column metadata with a name or type that was not generated")
    return columns


def row_offsets(rendering: str) -> list[tuple[int, int]]:
    """Offsets of the row lines in a CSV's text rendering (the first line is the '# name' heading)."""
    out: list[tuple[int, int]] = []
    pos = 0
    for i, line in enumerate(rendering.split("\n")):
        if i > 0 and line.strip():
            out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


def span_row_offsets(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Offsets of the row lines of a table written inside a document, between ``start`` and ``end``."""
    out: list[tuple[int, int]] = []
    pos = start
    for line in text[start:end].split("\n"):
        if line.strip():
            out.append((pos, pos + len(line)))
        pos += len(line) + 1
    return out


@dataclass(frozen=True)
class TableInfo:
    """A stored CSV table: its generated SQL name, the file it came from and its column metadata."""

    name: str  # generated SQL table name (kbt_…)
    path: str
    collection: str
    columns: tuple[TableColumn, ...]
    row_offsets: list[tuple[int, int]]  # (start, end) of each row's line in the CSV's text rendering
    title: str
    domain: str
    page: int | None = None  # a table inside a paged document (PDF): its page
    ocr: bool = False
    row_ids: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sql_table(self.name, self.columns)  # raises ValueError unless every name was generated
        object.__setattr__(self, "row_ids", frozenset(self.row_id(i) for i in range(len(self.row_offsets))))

    def row_id(self, row: int) -> str:
        """The passage id of a row."""
        return f"sql:{self.name}:{row}"


_BUILDING_ROOM = re.compile(r"(?<!\d)(\d{1,4})\s*(?:栋|幢|号楼|座)\s*(\d{1,5})(?!\d)")


def with_unit_numbers(q: str) -> str:
    """The (normalised) question with a building and room written as a register writes them: "8栋602" also as
    "8-602" (a 房号 column), so the row of that unit is looked up.

    >>> with_unit_numbers("云溪苑8栋602的建筑面积是多少？")
    '云溪苑8栋602的建筑面积是多少？ 8-602'
    """
    extra = [f"{m.group(1)}-{m.group(2)}" for m in _BUILDING_ROOM.finditer(q)]
    return " ".join([q, *extra]) if extra else q


def _key(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


normal_key = _key
"""How questions, headers and cell values are compared: NFKC, lower case."""


def _header_bands(label: str) -> list[Band]:
    """The bands a header states: before its bracket ("3–6天（元/天）") or inside it ("Regional (26–100 miles)").

    >>> [str(b.high) for b in _header_bands("Regional (26–100 miles)")], _header_bands("日租（元/天）")
    (['100.0'], [])
    """
    parts = [re.split(r"[(（_]", label)[0].strip(), *re.findall(r"[(（]([^)）]{2,40})[)）]", label)]
    return [b for p in parts if (b := band(p)) is not None]


class SqlIndex:
    """Rule-built SQL over ingested CSV tables (see module doc)."""

    name = "sql"

    def __init__(self, engine: Engine, tables: list[TableInfo], file_texts: Mapping[str, str]) -> None:
        self.engine = engine
        self.tables = tables
        self._texts = file_texts
        self._sql = {t.name: sql_table(t.name, t.columns) for t in tables}
        self._labels = {t.name: {c.name: _key(c.label) for c in t.columns} for t in tables}
        self._values: dict[str, list[tuple[int, TableColumn, str]]] = {}  # table -> [(row, column, value)]
        self._kinds: dict[str, KindTable] = {}  # table -> its names (kind_tables)
        with engine.connect() as conn:
            for t in tables:
                table = self._sql[t.name]
                text_cols = [c for c in t.columns if c.type == "TEXT"]
                vals: list[tuple[int, TableColumn, str]] = []
                for row in conn.execute(select(table).order_by(table.c._row)):
                    m = row._mapping
                    for c in text_cols:
                        v = m[c.name]
                        if isinstance(v, str) and len(v) >= 2:
                            vals.append((m["_row"], c, _key(v)))
                self._values[t.name] = vals

    def table(self, name: str) -> Table:
        """The SQLAlchemy table of a generated table name."""
        return self._sql[name]

    def band_column(self, t: TableInfo, q: str) -> TableColumn | None:
        """The column keyed by a quantity band holding a quantity the (normalised) question names ("500-999件_元"
        for "订购500件"), if any."""
        return self._band_col(t, q)

    def text_of(self, path: str) -> str:
        """The text of the document a table came from ("" when unknown)."""
        return self._texts.get(path, "")

    def text_values(self, t: TableInfo) -> list[tuple[int, TableColumn, str]]:
        """(row, column, normalised value) of every text cell of at least two characters."""
        return self._values[t.name]

    def kind_tables(self, collections: Sequence[str], disabled: frozenset[str] = frozenset()) -> list[KindTable]:
        """The tables of ``collections`` (every table when empty) as names: labels and text values by column
        (:mod:`knowzero.knowledge.index.kinds`); a disabled file's tables are left out."""
        out = []
        for t in self.tables:
            if (collections and t.collection not in collections) or t.path in disabled:
                continue
            if (kinds := self._kinds.get(t.name)) is None:  # built once per table and load (tables do not change)
                by_column: dict[str, list[str]] = {}
                for _, c, v in self._values[t.name]:
                    by_column.setdefault(c.label, []).append(v)
                kinds = self._kinds[t.name] = kind_table([c.label for c in t.columns], by_column)
            out.append(kinds)
        return out

    def numeric_column(self, t: TableInfo, q: str) -> TableColumn | None:
        """The numeric column the (normalised) question names, if any."""
        return self._numeric_col(t, q)

    def passage(self, t: TableInfo, row: int) -> Passage:
        start, end = t.row_offsets[row]
        body = self._texts[t.path][start:end]
        return Passage(t.row_id(row), t.path, t.title, "", body, start, end, t.domain, t.collection, t.page, t.ocr)

    def passage_by_id(self, pid: str) -> Passage | None:
        """The passage for ``sql:<table>:<row>``, or None when there is no such row."""
        found = self.locate(pid)
        return self.passage(*found) if found else None

    def locate(self, pid: str) -> tuple[TableInfo, int] | None:
        """The table and row of a passage id ``sql:<table>:<row>``, or None when there is no such row."""
        parts = pid.split(":")
        if len(parts) != 3 or parts[0] != "sql" or not parts[2].isdigit():
            return None
        for t in self.tables:
            if t.name == parts[1] and int(parts[2]) < len(t.row_offsets):
                return t, int(parts[2])
        return None

    def row_values(self, t: TableInfo, row: int) -> dict[TableColumn, Any]:
        """The cells of one row by column (a parameterised SELECT on the generated ``_row`` number)."""
        table = self._sql[t.name]
        with self.engine.connect() as conn:
            found = conn.execute(select(table).where(table.c._row == row)).first()
        return {} if found is None else {c: found._mapping[c.name] for c in t.columns}

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        return [Hit(p.id, s, self.name) for p, s in self.query(query, k, allowed)]

    def query(self, question: str, k: int, allowed: frozenset[str] | None = None) -> list[tuple[Passage, float]]:
        """Rows answering the question, best first; only rows whose passage id is in ``allowed`` (if given)."""
        q = with_unit_numbers(_key(question))
        out: list[tuple[Passage, float]] = []
        if not q.strip() or k <= 0:
            return out
        with self.engine.connect() as conn:
            for t in self.tables:
                rows: set[int] | None = None  # None: every row of the table may be returned
                if allowed is not None:
                    ids = t.row_ids & allowed
                    if not ids:
                        continue
                    if len(ids) < len(t.row_ids):
                        rows = {int(i.rsplit(":", 1)[1]) for i in ids}
                _how, found = self._found(conn, t, q, rows)
                out.extend((self.passage(t, r), score) for r, score in found)
        out.sort(key=lambda x: -x[1])
        return out[:k]

    def ranked_for(self, question: str, pid: str) -> bool:
        """Whether the row ``pid`` answers ``question`` by a structure of its table — a range holding the asked
        quantity, a superlative, a comparison — rather than by holding a value the question names (a row of
        "the Lakes" for any question about that hotel)."""
        found = self.locate(pid)
        q = _key(question)
        if found is None or not q.strip():
            return False
        t, row = found
        with self.engine.connect() as conn:
            how, hits = self._found(conn, t, q, None)
        return how != "lookup" and any(r == row for r, _s in hits)

    def _found(self, conn: Connection, t: TableInfo, q: str, rows: set[int] | None) -> tuple[str, list[tuple[int, float]]]:
        """The rows of ``t`` the question picks and how: the first of a band holding its quantity, a value it names
        (``lookup``), a superlative, a comparison that finds any."""
        for how, hits in (("bands", lambda: self._bands(t, q, rows)), ("lookup", lambda: self._lookup(t, q, rows)),
                          ("superlative", lambda: self._superlative(conn, t, q, rows)),
                          ("compare", lambda: self._compare(conn, t, q, rows))):
            if found := hits():
                return how, found
        return "", []

    def _bands(self, t: TableInfo, q: str, rows: set[int] | None) -> list[tuple[int, float]]:
        """Rows keyed by a range that holds a value the question names ("司龄6年" → "满5年不满10年"), in a
        table the question is about (a header or its title shares two characters with it)."""
        asked = quantities(q)
        if not asked:
            return []
        about = " ".join([_key(t.title), *self._labels[t.name].values()])
        if not any(about[i:i + 2] in q for i in range(len(about) - 1) if not about[i:i + 2].isspace()):
            return []
        hits = []
        for row, _col, value in self._values[t.name]:
            if rows is not None and row not in rows:
                continue
            b = band(value)
            if b is not None and any(b.holds(v, unit) for v, unit in asked):
                hits.append((row, 1.3))
        return hits if len(hits) <= 3 else []  # a value every row's range holds picks no row

    def _lookup(self, t: TableInfo, q: str, rows: set[int] | None) -> list[tuple[int, float]]:
        hits: dict[int, float] = {}
        # a table that also has the column the question asks about ("交期", "重量") is the better source
        col_bonus = 0.5 if self._numeric_col(t, q) else 0.0
        if self._band_col(t, q):
            col_bonus = 0.6  # "订购500件…的单价": the price list's "500-999件" column beats a generic "单价"
        for row, _col, v in self._values[t.name]:
            if rows is not None and row not in rows:
                continue
            if len(v) >= 3 and v in q and (not v.isascii() or re.search(rf"(?<![a-z0-9]){re.escape(v)}(?![a-z0-9])", q)):
                # an English value is a whole word of the question ("cat" is not in "education")
                hits[row] = max(hits.get(row, 0.0), 1.0 + len(v) / 100 + col_bonus)
            elif (col_bonus and abbreviated(v, q)) or shortened(v, q):
                # "博士生每月基本津贴" names the 博士研究生 row of a 基本津贴 table; "vet techs" the "veterinary
                # technician" row
                hits[row] = max(hits.get(row, 0.0), 1.0 + col_bonus)
        return sorted(hits.items(), key=lambda x: -x[1])

    def _filters(self, t: TableInfo, q: str) -> list[ColumnElement[bool]]:
        """Category filters named in the question ("法兰系列" → 类别 = '法兰类'): AND across columns, OR within."""
        by_col: dict[str, set[str]] = {}
        for _row, col, v in self._values[t.name]:
            core = re.sub(r"(类|系列|型|系)$", "", v)
            if len(core) >= 2 and core in q:
                by_col.setdefault(col.name, set()).add(v)
        table = self._sql[t.name]
        return [func.lower(table.c[col]).in_(sorted(values)) for col, values in sorted(by_col.items())
                if len(values) <= 5]  # more is too unspecific to be a filter

    def _band_col(self, t: TableInfo, q: str) -> TableColumn | None:
        """A column for a quantity band ("500-999件_元", "1000件及以上_元") holding a quantity the question names."""
        asked = [(float(m.group(1)), m.group(2)) for m in _QUANTITY.finditer(q)]
        for c in t.columns:
            m = _BAND.match(self._labels[t.name][c.name])
            if not m:
                continue
            low, high, unit = float(m.group(1)), float(m.group(2)) if m.group(2) else float("inf"), m.group(3)
            if any(u == unit and low <= n <= high for n, u in asked):
                return c
        # a band of another measure in the header, its unit after it ("3–6天（元/天）" for "租5天…每天多少钱"): the
        # column whose band holds the question's quantity
        measured = quantities(q)
        if not measured:
            return None
        held = [c for c in t.columns if any(b.holds(n, u) for b in _header_bands(self._labels[t.name][c.name])
                                            for n, u in measured)]
        return held[0] if len(held) == 1 else None

    def _numeric_col(self, t: TableInfo, q: str) -> TableColumn | None:
        best, best_score = None, 0.0
        for c in t.columns:
            if c.type not in ("INTEGER", "REAL"):
                continue
            label = self._labels[t.name][c.name]
            base = re.split(r"[_(（]", label)[0]
            # a header's later words tell two of one stem apart (purchase_price_gbp, not purchase_year, for "price")
            more = sum(1 for w in re.split(r"[_\s()（）]+", label.lower())[1:] if len(w) >= 3 and w in q)
            score = 100.0 + more if base and base in q else fuzz.partial_ratio(base, q) if base else 0.0
            for hint, names in _COL_HINTS.items():
                if hint in q and any(n in label for n in names):
                    score = max(score, 95.0)
            if score > best_score:
                best, best_score = c, score
        return best if best_score >= 90 else None

    def _superlative(self, conn: Connection, t: TableInfo, q: str, rows: set[int] | None) -> list[tuple[int, float]]:
        for word, order in _SUPER.items():
            if word in q:
                col = self._numeric_col(t, q)
                if col:
                    label = self._labels[t.name][col.name]
                    if any(k in label for k in ("公差", "tolerance")) and any(
                            k in q for k in ("精度最高", "最严", "最精密", "精度最好")):
                        order = "ASC"  # the tightest tolerance is the smallest number
                    table = self._sql[t.name]
                    c = table.c[col.name]
                    stmt = (select(table.c._row).where(c.is_not(None), *self._filters(t, q))
                            .order_by(c.desc() if order == "DESC" else c.asc(), table.c._row))
                    found = self._rows(conn, stmt, rows, 3)
                    return [(r, 0.9 - 0.1 * i) for i, r in enumerate(found)]
        return []

    def _compare(self, conn: Connection, t: TableInfo, q: str, rows: set[int] | None) -> list[tuple[int, float]]:
        for word, op in _CMP:
            m = re.search(re.escape(word) + r"\s*([0-9]+(?:\.[0-9]+)?)", q)
            if m:
                col = self._numeric_col(t, q)
                if col:
                    table = self._sql[t.name]
                    stmt = (select(table.c._row).where(op(table.c[col.name], float(m.group(1))), *self._filters(t, q))
                            .order_by(table.c._row))
                    return [(r, 0.8) for r in self._rows(conn, stmt, rows, 20)]
        return []

    @staticmethod
    def _rows(conn: Connection, stmt: Any, rows: set[int] | None, limit: int) -> list[int]:
        """Run a ``SELECT _row`` statement: the first ``limit`` rows, only those in ``rows`` if given."""
        if rows is None:
            return list(conn.execute(stmt.limit(limit)).scalars())
        if len(rows) <= 500:
            return list(conn.execute(stmt.where(stmt.selected_columns[0].in_(sorted(rows))).limit(limit)).scalars())
        return [r for r in conn.execute(stmt).scalars() if r in rows][:limit]
