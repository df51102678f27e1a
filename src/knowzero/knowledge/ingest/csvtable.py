"""CSV text → a bounded, typed table whose SQL column names are generated (``c1, c2 …``).

The header row is data, never SQL: each header is kept verbatim as :attr:`TableColumn.header`
(for the reader, citations and the UI) while the database only ever sees the generated name.
Files the structured index cannot represent unambiguously are refused with an
:class:`~knowzero.errors.IngestError` naming the file and the problem: an empty or duplicate
header, a header longer than :data:`MAX_HEADER_CHARS`, more than :data:`MAX_COLUMNS` columns,
more than :data:`MAX_ROWS` rows or :data:`MAX_CELLS` cells, NUL characters, unreadable CSV.
The column count is checked right after the header row is read, so a very wide file is refused
before any per-column work.

This module does not touch a database, and it does not render the table as text (see
:func:`knowzero.knowledge.ingest.parsers.render_table`).

>>> t = read_csv_table("型号,单价_元\\nXH-1001,68.00\\n", "p.csv")
>>> [(c.name, c.header, c.type) for c in t.columns], t.rows
([('c1', '型号', 'TEXT'), ('c2', '单价_元', 'REAL')], [['XH-1001', 68.0]])
"""

from __future__ import annotations

import csv
import io
import math
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Literal

from knowzero.errors import IngestError

MAX_COLUMNS = 200
MAX_HEADER_CHARS = 200
MAX_ROWS = 50_000
MAX_CELLS = 500_000

ColumnType = Literal["INTEGER", "REAL", "TEXT"]
_INT64 = 2**63 - 1
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@dataclass(frozen=True)
class TableColumn:
    """One column: the generated SQL ``name`` (``c<n>``), the CSV ``header`` as written, its type."""

    name: str
    header: str
    type: ColumnType

    @property
    def label(self) -> str:
        """The header on one line (control characters and runs of whitespace become one space)."""
        return one_line(self.header)


@dataclass
class Table:
    """A parsed CSV: ``name`` is the file's stem (display only), ``rows`` are typed cell values."""

    name: str
    columns: list[TableColumn]
    rows: list[list[Any]] = field(default_factory=list)


def one_line(value: str) -> str:
    """Text on a single line: control characters and whitespace runs collapse to one space."""
    return _SPACE.sub(" ", _CONTROL.sub(" ", value)).strip()


def header_key(header: str) -> str:
    """What makes two headers the same for matching questions to columns (NFKC, case, spacing)."""
    return one_line(unicodedata.normalize("NFKC", header)).casefold()


def _show(header: str) -> str:
    text = one_line(header)
    return repr(text if len(text) <= 40 else text[:40] + "…")


def check_headers(headers: list[str], name: str) -> None:
    """Raise IngestError unless the headers are non-empty, short enough, distinct and few enough."""
    if len(headers) > MAX_COLUMNS:
        raise IngestError(f"{name}: {len(headers)} columns; at most {MAX_COLUMNS} are supported")
    seen: dict[str, int] = {}
    for i, h in enumerate(headers, start=1):
        if not h.strip():
            raise IngestError(f"{name}: column {i} has an empty header")
        if len(h) > MAX_HEADER_CHARS:
            raise IngestError(f"{name}: the header of column {i} is {len(h)} characters long; "
                              f"at most {MAX_HEADER_CHARS} are supported")
        key = header_key(h)
        if key in seen:
            raise IngestError(f"{name}: columns {seen[key]} and {i} have the same header {_show(h)}")
        seen[key] = i


def column_type(values: list[str]) -> ColumnType:
    """INTEGER if every non-empty value is a 64-bit integer, REAL if a finite number, else TEXT.

    Thousands separators are allowed ("1,280.50"); "nan", "inf", "1_000" and non-ASCII digits are text.
    """
    filled = [v.replace(",", "") for v in values if v]
    if not filled:
        return "TEXT"
    if all(_INTEGER.fullmatch(v) and abs(int(v)) <= _INT64 for v in filled):
        return "INTEGER"
    if all(_NUMBER.fullmatch(v) and math.isfinite(float(v)) for v in filled):
        return "REAL"
    return "TEXT"


def _typed(value: str, typ: ColumnType) -> Any:
    if value == "":
        return None
    if typ == "INTEGER":
        return int(value.replace(",", ""))
    if typ == "REAL":
        return float(value.replace(",", ""))
    return value


def read_csv_table(text: str, name: str, stem: str = "") -> Table:
    """Parse CSV text into a :class:`Table` (see module doc for what is refused)."""
    if "\x00" in text:
        raise IngestError(f"{name}: contains NUL characters; not a text CSV")
    try:  # only the delimiter is sniffed; quoting is always RFC 4180's ("" inside quotes)
        delimiter = csv.Sniffer().sniff(text[:2048], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text), csv.excel, delimiter=delimiter)
    try:
        header = next((r for r in reader if any(c.strip() for c in r)), None)
        if header is None:
            raise IngestError(f"{name}: CSV needs a header row and at least one data row")
        if len(header) > MAX_COLUMNS:  # refuse wide files before any per-column work
            raise IngestError(f"{name}: {len(header)} columns; at most {MAX_COLUMNS} are supported")
        full = [h.strip() for h in header]
        width = len(full)
        while width > 1 and not full[width - 1]:
            width -= 1  # trailing empty header cells (spreadsheet exports); their cells must be empty too
        headers = full[:width]
        check_headers(headers, name)
        body: list[list[str]] = []
        for r in reader:
            if not any(c.strip() for c in r):
                continue
            cells = [c.strip() for c in r]
            stray = next((j for j in range(width, min(len(full), len(cells))) if cells[j]), None)
            if stray is not None:
                raise IngestError(f"{name}: column {stray + 1} has an empty header")
            body.append((cells + [""] * width)[:width])
            if len(body) > MAX_ROWS:
                raise IngestError(f"{name}: more than {MAX_ROWS} rows; at most {MAX_ROWS} are supported")
            if len(body) * width > MAX_CELLS:
                raise IngestError(f"{name}: more than {MAX_CELLS} cells ({width} columns); "
                                  f"at most {MAX_CELLS} are supported")
    except csv.Error as exc:
        raise IngestError(f"{name}: not a readable CSV ({exc})") from exc
    if not body:
        raise IngestError(f"{name}: CSV needs a header row and at least one data row")
    return _typed_table(headers, body, stem or name)


def _typed_table(headers: list[str], body: list[list[str]], name: str) -> Table:
    types = [column_type([r[i] for r in body]) for i in range(len(headers))]
    columns = [TableColumn(f"c{i + 1}", h, t) for i, (h, t) in enumerate(zip(headers, types, strict=True))]
    rows = [[_typed(v, t) for v, t in zip(r, types, strict=True)] for r in body]
    return Table(name, columns, rows)


def table_from_cells(cells: list[list[str]], name: str) -> Table | None:
    """A table found inside a document (rows of cell texts, the header row first) as a typed :class:`Table`,
    or None when it is no table to query (fewer than two columns or no data row, more than
    :data:`MAX_COLUMNS` columns). Unlike a CSV's, its headers are mended, not refused: an empty header
    becomes "Column n", a repeated one gets " (2)", a long one is cut; empty rows and columns are dropped.
    More than :data:`MAX_ROWS` rows or :data:`MAX_CELLS` cells raise IngestError as for a CSV.

    >>> t = table_from_cells([["Grade", "", "Grade"], ["A", "x", "120"]], "Rates")
    >>> [(c.header, c.type) for c in t.columns], t.rows
    ([('Grade', 'TEXT'), ('Column 2', 'TEXT'), ('Grade (2)', 'INTEGER')], [['A', 'x', 120]])
    """
    grid = [[one_line(c) for c in r] for r in cells]
    grid = [r for r in grid if any(r)]
    width = max((len(r) for r in grid), default=0)
    if width > MAX_COLUMNS or len(grid) < 2:
        return None
    grid = [r + [""] * (width - len(r)) for r in grid]
    keep = [i for i in range(width) if any(r[i] for r in grid)]
    if len(keep) < 2:
        return None
    grid = [[r[i] for i in keep] for r in grid]
    if len(grid) - 1 > MAX_ROWS or (len(grid) - 1) * len(keep) > MAX_CELLS:
        raise IngestError(f"{name}: a table of more than {MAX_ROWS} rows or {MAX_CELLS} cells; "
                          f"at most {MAX_ROWS} rows and {MAX_CELLS} cells are supported")
    headers: list[str] = []
    seen: dict[str, int] = {}
    for i, h in enumerate(grid[0], start=1):
        h = h[:MAX_HEADER_CHARS] or f"Column {i}"
        key = header_key(h)
        if key in seen:
            seen[key] += 1
            h = f"{h[:MAX_HEADER_CHARS - 6]} ({seen[key]})"
            key = header_key(h)
        seen.setdefault(key, 1)
        headers.append(h)
    return _typed_table(headers, grid[1:], name)
