"""PDF → text in reading order, with pages, headings and tables (PDFium through pypdfium2).

For each page PDFium gives the text runs with their boxes (``FPDFText_CountRects``: a run is a line
or a table cell); this module lays them out:
- running headers and footers dropped: a run in the top or bottom 9% of the page whose text (digits
  ignored) comes back on at least half of the pages, and bare page numbers ("Page 3", "- 3 -");
- tables: a cluster of ruled cells (the page's path objects) holding text on 2+ rows and 2+ columns is
  read cell by cell (rows and columns cut at its rules) and written as a table in place
  (:class:`~knowzero.knowledge.ingest.document.DocumentText`); so is a table without rules: 3+ lines,
  each in 2+ runs starting at the same few x positions, with short cells (:func:`_aligned_tables`);
- columns: a page whose runs leave a vertical gutter (few runs cross it, both sides hold text at the
  same heights) is read left column then right column, band by band between the runs that span it;
- paragraphs: lines of a column are joined into one paragraph (a hyphen at a line end removed, CJK
  joined without a space) until a larger gap, a heading or a short line ending a sentence; a paragraph
  that does not end a sentence goes on across a page break;
- headings: lines noticeably taller than the body text (``#`` for the tallest size, ``##`` next, …), and a
  short bold line of the body's size standing alone (a level below those);
- paragraph breaks: a gap between lines over 0.75 of the body size, or over 1.6 times the document's usual
  gap between lines when they are set wide apart (line spacing 1.5).

A page with no text layer but an image is rendered (200 dpi) and read by the OCR engine when one is
given (``models/ocr.py``); its lines go through the same layout and the page is marked as OCR.
Limits stay the parser's (``knowledge/ingest/parsers.py``): pages, characters of text, runs and path objects
per page, pixels of a rendered page. PDFium is not thread-safe: every call holds one lock.

What it does not do: borderless tables whose columns do not start at common x positions (centred or
right-aligned cells), right-to-left scripts, multi-column layouts of 3+ columns
(read as one column), form fields and annotations.
"""

from __future__ import annotations

import bisect
import ctypes
import itertools
import math
import re
import statistics
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from knowzero.errors import IngestError
from knowzero.knowledge.ingest.document import DocumentText, ParsedDoc

_pdfium_lock = threading.Lock()

MAX_RUNS_PER_PAGE = 20_000
"""Text runs read from one page (a dense page of small print has about 1,000)."""
MAX_PATHS_PER_PAGE = 5_000
"""Path objects (rules, cell borders) looked at for tables on one page."""
OCR_DPI = 200
MAX_OCR_PIXELS = 16_000_000
"""A page rendered for OCR, or an image read by OCR, has at most this many pixels (A4 at 200 dpi: 3.9 M; A3
at 300 dpi: 17 M); a larger one is read scaled down (the OCR engine ran out of memory on 40–59 M pixels)."""
MAX_OCR_SIDE = 12_000
"""Nor is a side longer than this many pixels (a 59,000,000 × 1 strip broke the engine's resizing)."""
MARGIN = 0.09
"""The top and bottom share of a page where running headers and footers are looked for."""

Ocr = Callable[[object], list[tuple[float, float, float, float, str]]]
"""An OCR reader: a Pillow image → (left, top, right, bottom, text) lines in pixels."""


class Run(NamedTuple):
    """A text run in PDF points, y growing upwards (PDF's own coordinates). A tuple: a page has hundreds
    of them and a layout makes as many again (a frozen dataclass was a tenth of the parse time)."""

    left: float
    bottom: float
    right: float
    top: float
    text: str
    size: float = 0.0  # the font size of its first character (0: not known, its box's height is used)
    bold: bool = False  # its first character's font weight is 600 or more

    @property
    def height(self) -> float:
        return self.size or self.top - self.bottom

    @property
    def mid_y(self) -> float:
        return (self.top + self.bottom) / 2


@dataclass
class Page:
    number: int
    width: float
    height: float
    runs: list[Run]
    cells: list[tuple[float, float, float, float]]  # path boxes: left, bottom, right, top
    ocr: bool = False
    scanned: bool = False  # no text layer, an image: OCR reads it when there is an engine


_PAGE_NUMBER = re.compile(r"^(?:page\s*)?[-–—\s]*\d+(?:\s*(?:/|of)\s*\d+)?[-–—\s]*$|^第\s*\d+\s*页(?:\s*/?\s*共\s*\d+\s*页)?$", re.I)
_SENTENCE_END = re.compile(r"[.!?。！？:：;；…]['\"”’)）」』]*$")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def read_pdf(data: bytes, name: str, *, max_pages: int, max_chars: int, ocr: Ocr | None = None,
             progress: Callable[[int, int], None] | None = None,
             too_large: Callable[[str, str, str, int], Exception]) -> ParsedDoc:
    """Parse a PDF's bytes (see module doc). ``progress(page, pages)`` after each page; ``too_large``
    builds the refusal of a file over a limit (the parser's)."""
    import pypdfium2 as pdfium

    pages: list[Page] = []
    title = ""
    with _pdfium_lock:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise IngestError(f"{name}: corrupt or unreadable PDF ({_reason(exc)})") from exc
        try:
            n = len(pdf)
            if n > max_pages:
                raise too_large(name, f"{n:,} pages", "MAX_PDF_PAGES", max_pages)
            try:
                title = str(pdf.get_metadata_value("Title") or "").strip()
            except (pdfium.PdfiumError, KeyError, ValueError):
                title = ""
            chars = 0
            for i in range(n):
                page = _read_page(pdf, i, name, ocr)
                chars += sum(len(r.text) for r in page.runs)
                if chars > max_chars:
                    raise too_large(name, f"more than {max_chars:,} characters of text", "MAX_TEXT_CHARS", max_chars)
                pages.append(page)
                if progress is not None:
                    progress(i + 1, n)
        except pdfium.PdfiumError as exc:
            raise IngestError(f"{name}: corrupt or unreadable PDF ({_reason(exc)})") from exc
        finally:
            pdf.close()
    doc = lay_out(pages)
    doc.warnings.extend(f"page {p.number}: a scanned page with no text layer; OCR is off" for p in pages
                        if p.scanned and not p.ocr)
    doc.warnings.extend(f"page {p.number}: OCR found no text" for p in pages if p.ocr and not p.runs)
    return doc.build(title, "pdf")


def _reason(exc: Exception) -> str:
    return str(exc).split(":")[0][:80] or type(exc).__name__


def _read_page(pdf: object, index: int, name: str, ocr: Ocr | None) -> Page:
    page = pdf[index]  # type: ignore[index]
    try:
        width, height = page.get_size()
        textpage = page.get_textpage()
        try:
            runs = _runs(textpage, index, name)
        finally:
            textpage.close()
        cells, has_image = _objects(page, bool(runs))
        result = Page(index + 1, width, height, runs, cells)
        if not runs and has_image:
            result.scanned = True
            if ocr is not None:
                result.runs, result.ocr = _ocr_page(page, width, height, ocr), True
        return result
    finally:
        page.close()


def _runs(textpage: object, index: int, name: str) -> list[Run]:
    """The page's text runs: PDFium's text split at its line breaks, each line's boxes (``count_rects`` over
    the line's characters: one box for a line, several for table cells or columns at one height)."""
    import pypdfium2.raw as raw

    tp: Any = textpage
    name_buf = ctypes.create_string_buffer(128)
    full = tp.get_text_range()
    runs: list[Run] = []
    start = 0
    for line in full.split("\r\n"):
        end = start + len(line)
        if line.strip():
            count = tp.count_rects(start, end - start)
            if len(runs) + count > MAX_RUNS_PER_PAGE:
                raise IngestError(f"{name}: page {index + 1} has more than {MAX_RUNS_PER_PAGE:,} text runs "
                                  "(MAX_RUNS_PER_PAGE)")
            size = float(raw.FPDFText_GetFontSize(tp, start))
            bold = _bold(tp, start, name_buf)
            if count == 1:
                left, bottom, right, top = tp.get_rect(0)
                runs.append(Run(left, bottom, right, top, line, size, bold))
            else:
                for k in range(count):
                    left, bottom, right, top = tp.get_rect(k)
                    text = tp.get_text_bounded(left, bottom, right, top).replace("\r", "").replace("\n", " ")
                    if text.strip():
                        runs.append(Run(left, bottom, right, top, text, size, bold))
        start = end + 2
    return runs


def _bold(tp: Any, index: int, buf: Any) -> bool:
    """Whether the character at ``index`` is set in a bold face: its weight, or its font's name (the PDF core
    fonts, "Helvetica-Bold", carry no weight)."""
    import pypdfium2.raw as raw

    if raw.FPDFText_GetFontWeight(tp, index) >= 600:
        return True
    flags = ctypes.c_int()
    raw.FPDFText_GetFontInfo(tp, index, buf, len(buf), ctypes.byref(flags))
    return any(w in buf.value.lower() for w in (b"bold", b"black", b"heavy"))


def _objects(page: object, has_text: bool) -> tuple[list[tuple[float, float, float, float]], bool]:
    """The boxes of the page's path objects (rules and cell borders, looked at only when it has text) and
    whether it holds an image; at most :data:`MAX_PATHS_PER_PAGE` objects are looked at."""
    import pypdfium2.raw as raw

    pg: Any = page
    n = min(raw.FPDFPage_CountObjects(pg), MAX_PATHS_PER_PAGE)
    cells: list[tuple[float, float, float, float]] = []
    has_image = False
    left, bottom, right, top = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    for i in range(n):
        obj = raw.FPDFPage_GetObject(pg, i)
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == raw.FPDF_PAGEOBJ_IMAGE or kind == raw.FPDF_PAGEOBJ_FORM:
            has_image = True
        elif kind == raw.FPDF_PAGEOBJ_PATH and has_text and raw.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
            cells.append((left.value, bottom.value, right.value, top.value))
    return cells, has_image


def _ocr_page(page: object, width: float, height: float, ocr: Ocr) -> list[Run]:
    scale = OCR_DPI / 72
    if width * height * scale * scale > MAX_OCR_PIXELS:
        scale = (MAX_OCR_PIXELS / (width * height)) ** 0.5
    scale = min(scale, MAX_OCR_SIDE / max(width, height, 1.0))
    bitmap = page.render(scale=scale, grayscale=True)  # type: ignore[attr-defined]
    image = bitmap.to_pil()
    runs = []
    for left, top, right, bottom, text in ocr(image):
        runs.append(Run(left / scale, height - bottom / scale, right / scale, height - top / scale, text))
    return runs


def runs_from_image_lines(lines: list[tuple[float, float, float, float, str]], image_height: float,
                          scale: float = 1.0) -> list[Run]:
    """OCR lines of an image (pixels, y down) as runs in a page of ``image_height / scale`` points."""
    h = image_height / scale
    return [Run(x0 / scale, h - y1 / scale, x1 / scale, h - y0 / scale, t) for x0, y0, x1, y1, t in lines]


# ---- layout (pure) ----------------------------------------------------------------------------

def lay_out(pages: list[Page]) -> DocumentText:
    """The pages' runs as a document: headers/footers dropped, tables, columns, paragraphs, headings."""
    doc = DocumentText()
    repeated = _running_lines(pages)
    body_heights = [r.height for p in pages for r in p.runs if len(r.text) > 20]
    body = statistics.median(body_heights) if body_heights else 10.0
    long_lines = [r for p in pages for r in p.runs if len(r.text) > 20]
    bold_body = sum(r.bold for r in long_lines) > len(long_lines) / 2  # a document set in bold has no bold headings
    sizes = sorted({round(r.height) for p in pages for r in p.runs
                    if r.height >= 1.18 * body and len(r.text) <= 120}, reverse=True)
    laid: list[tuple[Page, list[Run | list[list[str]]]]] = []
    for page in pages:
        runs = [r for r in page.runs if not _is_margin_line(r, page, repeated)]
        tables, runs = _tables(page, runs)
        aligned, runs = _aligned_tables(runs)
        laid.append((page, _reading_order(page, runs, tables + aligned)))
    laid = _continued_tables(laid)
    para = _Paragraphs(doc, body, {p.number for p in pages if p.ocr}, _paragraph_gap(laid, body))
    for page, blocks in laid:
        para.page(page.number)
        for block in blocks:
            if isinstance(block, list):
                para.flush()
                doc.table(block, f"table {len(doc.tables) + 1}")
                continue
            # OCR boxes vary with ascenders and descenders: a heading there must be much taller and short
            tall, longest = (1.5, 60) if page.ocr else (1.18, 120)
            level = next((i + 1 for i, s in enumerate(sizes[:3]) if round(block.height) >= s), 1) \
                if block.height >= tall * body and len(block.text) <= longest else 0
            if not level and block.bold and not bold_body and len(block.text.strip()) <= 60 \
                    and not _SENTENCE_END.search(block.text):
                level = min(len(sizes[:3]) + 1, 3)  # a short bold line of body size alone: a heading under the others
            para.line(block, level)
    para.flush()
    para.current_page = len(pages)
    para._mark()  # pages whose text all continues an earlier page's paragraph start where the text ends
    return doc


def _continued_tables(laid: list[tuple[Page, list[Run | list[list[str]]]]]) -> list[tuple[Page, list[Run | list[list[str]]]]]:
    """A table that a page break cut in two is one table: when a page opens with a table as wide as the one
    that closed the page before, its rows are that table's rows — its first row is a row, not a header (or,
    when it repeats the header, left out)."""
    out: list[tuple[Page, list[Run | list[list[str]]]]] = []
    for page, blocks in laid:
        prev = out[-1][1][-1] if out and out[-1][1] else None
        first = blocks[0] if blocks else None
        if (isinstance(prev, list) and isinstance(first, list) and prev and first
                and len(prev[0]) == len(first[0])):
            prev.extend(first[1:] if first[0] == prev[0] else first)
            blocks = blocks[1:]
        out.append((page, blocks))
    return out


def _paragraph_gap(laid: list[tuple[Page, list[Run | list[list[str]]]]], body: float) -> float:
    """The white space between two lines that starts a new paragraph: 0.75 of the body text's size, or
    more when the document's lines are set wider apart (line spacing 1.5: the usual gap between two lines
    of one paragraph is then most of a line, and only a clearly larger one ends a paragraph)."""
    gaps = []
    for _page, blocks in laid:
        for a, b in itertools.pairwise(blocks):
            if isinstance(a, Run) and isinstance(b, Run) and 0 < a.bottom - b.top < 3 * body:
                gaps.append(a.bottom - b.top)
    usual = statistics.median(gaps) if len(gaps) >= 5 else 0.0
    return max(0.75 * body, 1.6 * usual)


def _key(text: str) -> str:
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def _in_margin(r: Run, page: Page) -> bool:
    return r.mid_y > page.height * (1 - MARGIN) or r.mid_y < page.height * MARGIN


def _running_lines(pages: list[Page]) -> set[str]:
    if len(pages) < 2:
        return set()
    counts: dict[str, int] = {}
    for p in pages:
        for k in {_key(r.text) for r in p.runs if _in_margin(r, p)}:
            counts[k] = counts.get(k, 0) + 1
    return {k for k, n in counts.items() if n >= max(2, len(pages) / 2)}


def _is_margin_line(r: Run, page: Page, repeated: set[str]) -> bool:
    return _in_margin(r, page) and (_key(r.text) in repeated or bool(_PAGE_NUMBER.match(r.text.strip())))


def _tables(page: Page, runs: list[Run]) -> tuple[list[tuple[float, list[list[str]]]], list[Run]]:
    """Ruled tables: (top, rows of cell texts) each, and the runs outside them."""
    if len(page.cells) < 3:
        return [], runs
    boxes = [c for c in page.cells if (c[2] - c[0]) < page.width * 0.98 or (c[3] - c[1]) < page.height * 0.9]
    regions: list[list[float]] = []
    for left, bottom, right, top in sorted(boxes, key=lambda b: (-b[3], b[0])):
        for reg in regions:
            if left <= reg[2] + 2 and right >= reg[0] - 2 and bottom <= reg[3] + 2 and top >= reg[1] - 2:
                reg[0], reg[1], reg[2], reg[3] = min(reg[0], left), min(reg[1], bottom), max(reg[2], right), max(reg[3], top)
                reg[4] += 1
                break
        else:
            regions.append([left, bottom, right, top, 1])
    tables: list[tuple[float, list[list[str]]]] = []
    rest = list(runs)
    for reg in regions:
        inside = [r for r in rest if reg[0] - 1 <= (r.left + r.right) / 2 <= reg[2] + 1 and reg[1] - 1 <= r.mid_y <= reg[3] + 1]
        if len(inside) < 4 or reg[4] < 3:
            continue
        xs = _edges([b for b in boxes if _within(b, reg)], vertical=True)
        ys = _edges([b for b in boxes if _within(b, reg)], vertical=False)
        cols = _bands(xs, [(r.left + r.right) / 2 for r in inside])
        rows = _bands(ys, [r.mid_y for r in inside])
        if len(cols) < 2 or len(rows) < 2:
            continue
        grid = [["" for _ in cols] for _ in rows]
        for r in sorted(inside, key=lambda r: (-r.top, r.left)):
            i = _band_of(rows, r.mid_y)
            j = _band_of(cols, (r.left + r.right) / 2)
            grid[len(rows) - 1 - i][j] = (grid[len(rows) - 1 - i][j] + " " + r.text.strip()).strip()
        tables.append((reg[3], grid))
        taken = set(map(id, inside))
        rest = [r for r in rest if id(r) not in taken]
    return tables, rest


SHORT_CELL = 25
"""Characters of a cell that reads as a table's, not a line of prose (a column of a two-column page)."""


def _aligned_tables(runs: list[Run]) -> tuple[list[tuple[float, list[list[str]]]], list[Run]]:
    """Tables without rules: 3+ consecutive lines, each in 2+ runs, whose runs start at the same few x
    positions (the columns), with short cells — 3+ columns with half of the cells short, or 2 columns
    with 80% short (two columns of prose also start every line at the same two x positions, but their
    lines are long) — many of which do not fill their column's width (prose does, even Chinese prose of 24
    characters to a line). (top, rows of cell texts) each, and the runs outside them."""
    rows = _line_groups(runs)
    blocks: list[list[list[Run]]] = []
    for row in rows:
        row.sort(key=lambda r: r.left)
        prev = blocks[-1][-1] if blocks else None
        near = prev is not None and len(prev) >= 2 and min(r.bottom for r in prev) - max(r.top for r in row) \
            < 2.5 * max(r.top - r.bottom for r in row)
        if len(row) >= 2 and near:
            blocks[-1].append(row)
        else:
            blocks.append([row])
    tables: list[tuple[float, list[list[str]]]] = []
    taken: set[int] = set()
    for block in blocks:
        grid = _aligned_grid(block)
        if grid is not None:
            tables.append((max(r.top for r in block[0]), grid))
            taken.update(id(r) for row in block for r in row)
    return tables, [r for r in runs if id(r) not in taken]


def _aligned_grid(block: list[list[Run]]) -> list[list[str]] | None:
    """The cells of a block of lines whose runs start in columns (see :func:`_aligned_tables`), or None."""
    if len(block) < 3 or any(len(row) < 2 for row in block):
        return None
    starts: list[float] = []
    for x in sorted(r.left for row in block for r in row):
        if not starts or x - starts[-1] > 4:
            starts.append(x)
    if len(starts) < 2 or len(starts) > 12:
        return None
    cells = [r.text.strip() for row in block for r in row]
    short = sum(len(c) <= SHORT_CELL for c in cells) / len(cells)
    if short < (0.8 if len(starts) == 2 else 0.5):
        return None
    # prose fills the width its column has (all but a paragraph's last line); many of a table's cells do not:
    # two columns of Chinese prose are short in characters (24 to a line) but fill their columns
    # (measured in the columns before the last: the last one's width is not known)
    fills = [(r.right - r.left) / max(starts[j + 1] - starts[j], 1.0) for row in block for r in row
             if (j := bisect.bisect_right(starts, r.left + 4) - 1) + 1 < len(starts)]
    if fills and sum(f < 0.5 for f in fills) < 0.3 * len(fills):
        return None  # (a table has many cells under half its column's width; prose only paragraphs' last lines)
    grid = []
    for row in block:
        line = [""] * len(starts)
        for r in row:
            j = bisect.bisect_right(starts, r.left + 4) - 1
            line[j] = (line[j] + " " + r.text.strip()).strip()
        grid.append(line)
    if sum(1 for c in grid[0] if c) < 2 or any(all(not row[j] for row in grid) for j in range(len(starts))):
        return None
    return grid


def _within(b: tuple[float, float, float, float], reg: list[float]) -> bool:
    return b[0] >= reg[0] - 2 and b[2] <= reg[2] + 2 and b[1] >= reg[1] - 2 and b[3] <= reg[3] + 2


def _edges(boxes: list[tuple[float, float, float, float]], *, vertical: bool) -> list[float]:
    """The x (vertical rules) or y (horizontal rules) positions of a table's cell edges, merged within 2 pt."""
    found: list[float] = []
    for left, bottom, right, top in boxes:
        found.extend((left, right) if vertical else (bottom, top))
    merged: list[float] = []
    for v in sorted(found):
        if not merged or v - merged[-1] > 2:
            merged.append(v)
    return merged


def _bands(edges: list[float], centres: list[float]) -> list[tuple[float, float]]:
    """The intervals between consecutive edges that hold at least one centre (ascending)."""
    out = []
    for a, b in zip(edges, edges[1:], strict=False):
        if any(a <= c <= b for c in centres):
            out.append((a, b))
    return out


def _band_of(bands: list[tuple[float, float]], c: float) -> int:
    for i, (a, b) in enumerate(bands):
        if a <= c <= b:
            return i
    return min(range(len(bands)), key=lambda i: min(abs(c - bands[i][0]), abs(c - bands[i][1])))


def _split(page: Page, runs: list[Run]) -> float | None:
    """The x of a two-column page's gutter, or None for one column: the middle of the widest stretch of
    the page's middle that (almost) no run crosses (a centred title or header may cross it)."""
    if len(runs) < 6:
        return None
    x0, step = page.width * 0.3, 2.0
    n = int(page.width * 0.4 / step) + 1
    xs = [x0 + step * i for i in range(n)]
    diff = [0] * (n + 1)  # each run crosses the xs strictly inside (left + 1, right - 1): a difference array
    for r in runs:
        lo = max(0, math.floor((r.left + 1 - x0) / step) + 1)
        hi = min(n - 1, math.ceil((r.right - 1 - x0) / step) - 1)
        if lo <= hi:
            diff[lo] += 1
            diff[hi + 1] -= 1
    crossing = list(itertools.accumulate(diff[:n]))
    allowed = min(crossing) + max(1, len(runs) // 50)
    best: tuple[float, float, float] | None = None  # (width, -distance from the centre, middle)
    i = 0
    while i < len(xs):
        if crossing[i] > allowed:
            i += 1
            continue
        j = i
        while j + 1 < len(xs) and crossing[j + 1] <= allowed:
            j += 1
        mid = (xs[i] + xs[j]) / 2
        cand = (xs[j] - xs[i], -abs(mid - page.width / 2), mid)
        best = cand if best is None or cand > best else best
        i = j + 1
    assert best is not None
    split = best[2]
    left = [r for r in runs if r.right <= split]
    right = [r for r in runs if r.left >= split]
    if sum(1 for r in runs if r.left < split - 1 and r.right > split + 1) > 0.15 * len(runs) \
            or len(left) < 3 or len(right) < 3:
        return None
    heights = sorted(q.mid_y for q in left)
    beside = 0
    for r in right:
        k = bisect.bisect_left(heights, r.mid_y - r.height)
        beside += k < len(heights) and heights[k] < r.mid_y + r.height
    return split if beside >= 3 else None


def _reading_order(page: Page, runs: list[Run], tables: list[tuple[float, list[list[str]]]]) -> list[Run | list[list[str]]]:
    """Lines (runs of one line joined) and tables in reading order (see module doc)."""
    split = _split(page, runs)
    if split is None:
        items: list[tuple[float, Run | list[list[str]]]] = [(line.top, line) for line in _lines(runs)]
        items += [(top, grid) for top, grid in tables]
        return [it for _, it in sorted(items, key=lambda x: -x[0])]
    spanning: list[tuple[float, Run | list[list[str]]]] = [(r.top, r) for r in runs if r.left < split - 1 < split + 1 < r.right]
    spanning += [(top, grid) for top, grid in tables]
    spanning.sort(key=lambda x: -x[0])
    rest = [r for r in runs if not (r.left < split - 1 < split + 1 < r.right)]
    out: list[Run | list[list[str]]] = []
    upper = float("inf")
    for top, item in [*spanning, (float("-inf"), None)]:
        band = [r for r in rest if top < r.mid_y <= upper]
        out += _lines([r for r in band if r.right <= split + 1])
        out += _lines([r for r in band if r.right > split + 1])
        if item is not None:
            out.append(item)
        upper = top
    return out


def _line_groups(runs: list[Run]) -> list[list[Run]]:
    """Runs on one line (heights overlapping the line's first run's) grouped, lines top to bottom."""
    out: list[list[Run]] = []
    mid = height = 0.0  # of the line being built: its first run's
    for r in sorted(runs, key=lambda r: (-(r.top + r.bottom), r.left)):
        r_mid, r_height = (r.top + r.bottom) / 2, r.size or r.top - r.bottom
        if out and abs(mid - r_mid) < 0.5 * min(height, r_height):
            out[-1].append(r)
        else:
            out.append([r])
            mid, height = r_mid, r_height
    return out


def _lines(runs: list[Run]) -> list[Run]:
    """Runs on one line (overlapping heights) merged left to right, lines top to bottom."""
    out = _line_groups(runs)
    merged = []
    for group in out:
        if len(group) == 1:
            r = group[0]
            merged.append(r if r.text == r.text.strip() else r._replace(text=r.text.strip()))
            continue
        group.sort(key=lambda r: r.left)
        text = " ".join(r.text.strip() for r in group)
        merged.append(Run(group[0].left, min(r.bottom for r in group), max(r.right for r in group),
                          max(r.top for r in group), text, max(r.size for r in group), all(r.bold for r in group)))
    return merged


class _Paragraphs:
    """Lines → paragraphs (see module doc), written to ``doc``; page marks before each page's first paragraph."""

    def __init__(self, doc: DocumentText, body: float, ocr_pages: set[int], gap: float) -> None:
        self.doc, self.body, self.ocr_pages, self.gap = doc, body, ocr_pages, gap
        self.text = ""
        self.prev: Run | None = None
        self.marked = 0  # pages marked in doc
        self.current_page = 0
        self.right = 0.0  # the right edge of the current column's longest lines

    def page(self, number: int) -> None:
        self.current_page = number
        self.prev = None  # gaps are not measured across pages

    def _mark(self) -> None:
        while self.marked < self.current_page:
            self.marked += 1
            self.doc.page(self.marked, ocr=self.marked in self.ocr_pages)

    def flush(self) -> None:
        if self.text:
            self.doc.paragraph(self.text)
        self.text = ""

    def line(self, line: Run, level: int) -> None:
        text = line.text.strip()
        if level:
            self.flush()
            self._mark()
            self.doc.heading(level, text)
            self.prev = None
            return
        if self.text and not self._continues(line):
            self.flush()
        if not self.text:
            self.flush()
            self._mark()
            self.text = text
            self.right = line.right
        else:
            self.text = _join(self.text, text)
            self.right = max(self.right, line.right)
        self.prev = line

    def _continues(self, line: Run) -> bool:
        prev = self.prev
        gap = prev.bottom - line.top if prev is not None else 0.0
        if prev is None or gap < -self.body:  # a new page or column: go on unless a sentence ended
            return not _SENTENCE_END.search(self.text)
        if gap > self.gap:
            return False
        short = prev.right < self.right - 0.2 * max(self.right - prev.left, 1.0)
        return not (short and _SENTENCE_END.search(self.text))


def _join(a: str, b: str) -> str:
    if a.endswith(("\x02", "\u00ad")):
        return a[:-1] + b
    if a.endswith("-") and len(a) > 1 and a[-2].isalpha() and b[:1].islower():
        return a[:-1] + b
    if _CJK.match(a[-1]) and _CJK.match(b[:1] or " "):
        return a + b
    tail = a[-20:]
    if len(_CJK.findall(tail)) * 2 >= len(tail.replace(" ", "")) and not b[:1].isspace():
        return a + b  # Chinese is wrapped anywhere, inside a number too ("20" + "08年" is 2008年, not "20 08年")
    return a + " " + b
