"""Structured retrieval: CSV files become real SQL tables; questions become small SQL queries.

Three query shapes, chosen by rules over the question and the tables' column names:
- lookup: a text cell value named in the question ("XH-1001") → ``WHERE col = :v``;
- superlative: 最贵/最高/最低/最大/最小/最多/最少 + a numeric column → ``ORDER BY col DESC|ASC LIMIT 3``;
- comparison: 小于/低于/大于/超过/高于/不超过 + a number + a numeric column → ``WHERE col < :n``.
Each result row is returned as a citable passage: its line in the CSV's text rendering.
This is not a text-to-SQL model; questions outside these shapes get no SQL hits.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz
from sqlalchemy import Engine, text

from knowzero.knowledge.types import Hit, Passage

_SUPER = {"最严": "ASC", "最贵": "DESC", "最高": "DESC", "最大": "DESC", "最多": "DESC", "最重": "DESC", "最长": "DESC",
          "最便宜": "ASC", "最低": "ASC", "最小": "ASC", "最少": "ASC", "最轻": "ASC", "最短": "ASC",
          "most expensive": "DESC", "highest": "DESC", "largest": "DESC", "cheapest": "ASC", "lowest": "ASC",
          "smallest": "ASC"}
_CMP = [("不超过", "<="), ("不低于", ">="), ("小于等于", "<="), ("大于等于", ">="), ("小于", "<"), ("低于", "<"),
        ("少于", "<"), ("大于", ">"), ("高于", ">"), ("超过", ">"), ("多于", ">"), ("less than", "<"),
        ("under", "<"), ("more than", ">"), ("over", ">"), ("above", ">"), ("below", "<")]
_COL_HINTS = {"价": ["单价", "价格", "price"], "贵": ["单价", "价格", "price"], "便宜": ["单价", "价格", "price"],
              "重": ["重量", "weight"], "轻": ["重量", "weight"], "库存": ["库存", "stock"], "交期": ["交期", "lead"],
              "公差": ["公差", "tolerance"], "精度": ["公差", "tolerance"]}
_QUANTITY = re.compile(r"(\d+)\s*(件|个|套|pcs)")
_BAND = re.compile(r"^(\d+)\s*(?:-\s*(\d+)\s*)?(件|个|套|pcs)(?:及以上|以上|\+)?(?:_|$)")


@dataclass(frozen=True)
class TableInfo:
    name: str  # SQL table name
    path: str
    collection: str
    columns: list[tuple[str, str]]
    row_offsets: list[tuple[int, int]]  # (start, end) of each row's line in the CSV's text rendering
    title: str
    domain: str


def table_name(path: str) -> str:
    import hashlib

    return "kbt_" + hashlib.sha1(path.encode()).hexdigest()[:12]


class SqlIndex:
    """Rule-built SQL over ingested CSV tables (see module doc)."""

    name = "sql"

    def __init__(self, engine: Engine, tables: list[TableInfo], file_texts: dict[str, str]) -> None:
        self.engine = engine
        self.tables = tables
        self._texts = file_texts
        self._values: dict[str, list[tuple[int, str, str]]] = {}  # table -> [(rowid, col, value)]
        with engine.connect() as conn:
            for t in tables:
                text_cols = [c for c, typ in t.columns if typ == "TEXT"]
                vals: list[tuple[int, str, str]] = []
                for i, row in enumerate(conn.execute(text(f'SELECT * FROM "{t.name}" ORDER BY _row'))):
                    m = row._mapping
                    for c in text_cols:
                        v = m[c]
                        if isinstance(v, str) and len(v) >= 2:
                            vals.append((i, c, unicodedata.normalize("NFKC", v).lower()))
                self._values[t.name] = vals

    def passage(self, t: TableInfo, row: int) -> Passage:
        start, end = t.row_offsets[row]
        body = self._texts[t.path][start:end]
        return Passage(f"sql:{t.name}:{row}", t.path, t.title, "", body, start, end, t.domain, t.collection)

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        return [Hit(p.id, s, self.name) for p, s in self.query(query, k, allowed)]

    def query(self, question: str, k: int, allowed_paths: frozenset[str] | None = None) -> list[tuple[Passage, float]]:
        q = unicodedata.normalize("NFKC", question).lower()
        out: list[tuple[Passage, float]] = []
        with self.engine.connect() as conn:
            for t in self.tables:
                rows = self._lookup(t, q) or self._superlative(conn, t, q) or self._compare(conn, t, q)
                out.extend((self.passage(t, r), score) for r, score in rows)
        out.sort(key=lambda x: -x[1])
        return out[:k]

    def _lookup(self, t: TableInfo, q: str) -> list[tuple[int, float]]:
        hits: dict[int, float] = {}
        # a table that also has the column the question asks about ("交期", "重量") is the better source
        col_bonus = 0.5 if self._numeric_col(t, q) else 0.0
        if self._band_col(t, q):
            col_bonus = 0.6  # "订购500件…的单价": the price list's "500-999件" column beats a generic "单价"
        for row, _col, v in self._values[t.name]:
            if len(v) >= 3 and v in q:
                hits[row] = max(hits.get(row, 0.0), 1.0 + len(v) / 100 + col_bonus)
        return sorted(hits.items(), key=lambda x: -x[1])

    def _filters(self, t: TableInfo, q: str) -> tuple[str, dict[str, str]]:
        """Category filters named in the question ("法兰系列" → 类别 = '法兰类'): AND across columns, OR within."""
        by_col: dict[str, set[str]] = {}
        for _row, col, v in self._values[t.name]:
            core = re.sub(r"(类|系列|型|系)$", "", v)
            if len(core) >= 2 and core in q:
                by_col.setdefault(col, set()).add(v)
        clauses, params = [], {}
        for i, (col, values) in enumerate(sorted(by_col.items())):
            if len(values) > 5:
                continue  # too unspecific to be a filter
            names = []
            for j, v in enumerate(sorted(values)):
                params[f"f{i}_{j}"] = v
                names.append(f":f{i}_{j}")
            clauses.append(f'lower("{col}") IN ({", ".join(names)})')
        return ("".join(f" AND {c}" for c in clauses), params)

    def _band_col(self, t: TableInfo, q: str) -> str | None:
        """A column for a quantity band ("500-999件_元", "1000件及以上_元") holding a quantity the question names."""
        asked = [(float(m.group(1)), m.group(2)) for m in _QUANTITY.finditer(q)]
        for c, _typ in t.columns:
            m = _BAND.match(c.lower())
            if not m:
                continue
            low, high, unit = float(m.group(1)), float(m.group(2)) if m.group(2) else float("inf"), m.group(3)
            if any(u == unit and low <= n <= high for n, u in asked):
                return c
        return None

    def _numeric_col(self, t: TableInfo, q: str) -> str | None:
        numeric = [c for c, typ in t.columns if typ in ("INTEGER", "REAL")]
        best, best_score = None, 0.0
        for c in numeric:
            base = re.split(r"[_(（]", c)[0].lower()
            score = 100.0 if base and base in q else fuzz.partial_ratio(base, q) if base else 0.0
            for hint, names in _COL_HINTS.items():
                if hint in q and any(n in c.lower() for n in names):
                    score = max(score, 95.0)
            if score > best_score:
                best, best_score = c, score
        return best if best_score >= 90 else None

    def _superlative(self, conn, t: TableInfo, q: str) -> list[tuple[int, float]]:  # type: ignore[no-untyped-def]
        for word, order in _SUPER.items():
            if word in q:
                col = self._numeric_col(t, q)
                if col:
                    if any(k in col.lower() for k in ("公差", "tolerance")) and any(
                            k in q for k in ("精度最高", "最严", "最精密", "精度最好")):
                        order = "ASC"  # the tightest tolerance is the smallest number
                    where, params = self._filters(t, q)
                    rows = conn.execute(text(f'SELECT _row FROM "{t.name}" WHERE "{col}" IS NOT NULL{where} '
                                             f'ORDER BY "{col}" {order} LIMIT 3'), params).scalars().all()
                    return [(r, 0.9 - 0.1 * i) for i, r in enumerate(rows)]
        return []

    def _compare(self, conn, t: TableInfo, q: str) -> list[tuple[int, float]]:  # type: ignore[no-untyped-def]
        for word, op in _CMP:
            m = re.search(re.escape(word) + r"\s*([0-9]+(?:\.[0-9]+)?)", q)
            if m:
                col = self._numeric_col(t, q)
                if col:
                    where, params = self._filters(t, q)
                    rows = conn.execute(text(f'SELECT _row FROM "{t.name}" WHERE "{col}" {op} :n{where} '
                                             f'ORDER BY _row LIMIT 20'), {"n": float(m.group(1)), **params}).scalars().all()
                    return [(r, 0.8) for r in rows]
        return []


def create_table(conn, name: str, columns: list[tuple[str, str]], rows: list[list[object]]) -> None:  # type: ignore[no-untyped-def]
    """(Re)create a typed SQL table for a CSV file; ``_row`` keeps the file's row order."""
    conn.execute(text(f'DROP TABLE IF EXISTS "{name}"'))
    cols = ", ".join(f'"{c}" {typ}' for c, typ in columns)
    conn.execute(text(f'CREATE TABLE "{name}" (_row INTEGER PRIMARY KEY, {cols})'))
    names = ", ".join(f'"{c}"' for c, _ in columns)
    params = ", ".join(f":p{i}" for i in range(len(columns)))
    stmt = text(f'INSERT INTO "{name}" (_row, {names}) VALUES (:r, {params})')
    conn.execute(stmt, [{"r": i, **{f"p{j}": v for j, v in enumerate(r)}} for i, r in enumerate(rows)])


def encode_columns(columns: list[tuple[str, str]]) -> str:
    return json.dumps(columns, ensure_ascii=False)
