"""A parsed document as the parsers hand it over: its text, where each page starts, its tables in place.

:class:`DocumentText` is how a parser writes a document: headings, paragraphs and tables in reading
order, a page mark before each page's text. What comes out (:class:`ParsedDoc`) keeps, besides the text:
- ``pages``: the offset in ``text`` where each page (or slide) starts, so a chunk's page is the last
  page starting at or before it (:func:`page_at`);
- ``tables``: each table found inside the document (DOCX, HTML, Markdown, PDF, XLSX) with the span of
  its rows in ``text``: rendered in place one row a line ("header: value；…。", as a CSV's rows are), and
  stored as a structured table the SQL retriever queries (``knowledge/index/sqlindex.py``);
- ``ocr_pages``: the pages whose text an OCR engine read (a citation of them says so);
- ``warnings``: what a reader of the parse should know (a page OCR could not read, a table kept as text).

This module does no parsing and no I/O.

>>> d = DocumentText()
>>> d.page(1); d.heading(1, "Rates"); d.paragraph("Grade A is paid 120 euros.")
>>> d.page(2); placed = d.table([["Grade", "Euros"], ["A", "120"]], "Rates")
>>> doc = d.build("Handbook", "pdf")
>>> doc.text
'# Rates\\nGrade A is paid 120 euros.\\nGrade: A；Euros: 120。'
>>> doc.pages, page_at(doc.pages, doc.text.index("Grade:")), doc.tables[0].table.columns[1].type
([0, 35], 2, 'INTEGER')
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from knowzero.knowledge.ingest.csvtable import Table, one_line, table_from_cells


@dataclass
class PlacedTable:
    """A table inside a document: the structured table and the span of its rows' lines in the text."""

    table: Table
    start: int
    end: int
    page: int | None = None


@dataclass
class ParsedDoc:
    """What a parser returns (see module doc). ``table``: a CSV's one table, whose rendering is the whole text."""

    text: str
    title: str
    kind: str
    table: Table | None = None
    pages: list[int] = field(default_factory=list)
    tables: list[PlacedTable] = field(default_factory=list)
    ocr_pages: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def layout(self) -> dict[str, object]:
        """What ``GET /v1/kb/files`` shows of the parse (stored with the document)."""
        return {"pages": len(self.pages) or None, "page_starts": self.pages, "tables": len(self.tables),
                "ocr_pages": self.ocr_pages, "warnings": self.warnings[:50]}


def page_at(pages: list[int], offset: int) -> int | None:
    """The 1-based page holding ``offset`` (None for a document without pages)."""
    if not pages:
        return None
    return max(bisect_right(pages, offset), 1)


def render_rows(table: Table) -> list[str]:
    """One line per row: ``header: value；header: value。`` (empty cells left out)."""
    labels = [c.label for c in table.columns]
    return ["；".join(f"{h}: {one_line(str(v))}" for h, v in zip(labels, r, strict=True) if v is not None).rstrip("。") + "。"
            for r in table.rows]


_SPACE = re.compile(r"[ \t\r\f\v]+")


class DocumentText:
    """Write a document in reading order; :meth:`build` makes the :class:`ParsedDoc` (see module doc)."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self.chars = 0
        self.pages: list[int] = []
        self.tables: list[PlacedTable] = []
        self.ocr_pages: list[int] = []
        self.warnings: list[str] = []
        self._page: int | None = None

    def _line(self, text: str) -> tuple[int, int]:
        start = self.chars
        self._parts.append(text + "\n")
        self.chars += len(text) + 1
        return start, start + len(text)

    def page(self, number: int, *, ocr: bool = False) -> None:
        """The text that follows is on page (or slide) ``number``."""
        self.pages.append(self.chars)
        self._page = number
        if ocr:
            self.ocr_pages.append(number)

    def heading(self, level: int, text: str) -> None:
        text = one_line(text)
        if text:
            self._line("#" * max(1, min(level, 6)) + " " + text)

    def paragraph(self, text: str) -> None:
        """A paragraph on one line (inner line breaks become spaces)."""
        text = _SPACE.sub(" ", text.replace("\n", " ")).strip()
        if text:
            self._line(text)

    def raw_line(self, text: str) -> None:
        """A line kept as written (Markdown)."""
        self._line(text.rstrip("\r"))

    def table(self, cells: list[list[str]], name: str) -> PlacedTable | None:
        """A table given as rows of cell texts, its header first: rendered in place and kept structured.
        One too small for a table (a header and no row, or one column) is written as lines of its cells."""
        table = table_from_cells(cells, name)
        if table is None:
            for row in cells:
                self.paragraph(" | ".join(c for c in row if c.strip()))
            return None
        return self.placed(table)

    def placed(self, table: Table) -> PlacedTable:
        lines = render_rows(table)
        start = self.chars
        for ln in lines:
            self._line(ln)
        placed = PlacedTable(table, start, self.chars - 1 if lines else start, self._page)
        self.tables.append(placed)
        return placed

    def build(self, title: str, kind: str) -> ParsedDoc:
        text = "".join(self._parts)
        pages = [min(p, max(len(text) - 1, 0)) for p in self.pages]
        return ParsedDoc(text.rstrip("\n"), title, kind, None, pages, self.tables, self.ocr_pages, self.warnings)
