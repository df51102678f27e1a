"""XLSX (openpyxl), PPTX (python-pptx) and images (OCR) → a :class:`~knowzero.knowledge.ingest.document.ParsedDoc`.

- XLSX: each sheet becomes a table like a CSV's, under a ``# <sheet>`` heading: its first filled row is
  the header; a merged cell's value fills every cell it covers, and a header row whose cells are merged
  over several columns is joined with the row under it ("Allowance" over "North" and "South" →
  "Allowance North", "Allowance South"); a formula is read as the value Excel saved with it (a formula
  saved without one is left empty, with a warning). A sheet of one column is written as lines.
- PPTX: each slide is a section ``# Slide <n>: <title>`` (a page mark per slide, so a citation names
  the slide) with its text boxes top to bottom, its tables in place and its speaker notes.
- PNG/JPEG/TIFF: each image (each frame of a TIFF) is read by the OCR engine and laid out like a scanned
  PDF page (``knowledge/ingest/pdfparse.py``); every page is marked as OCR.

The caller (``knowledge/ingest/parsers.py``) has checked a zip package's size, members and XML before any of
these read it; this module bounds cells, slides, pixels and frames. Nothing here touches a database.
"""

from __future__ import annotations

import datetime as dt
import io
import re
import zipfile
from collections.abc import Callable
from typing import Any

from knowzero.errors import IngestError
from knowzero.knowledge.ingest.document import DocumentText, ParsedDoc
from knowzero.knowledge.ingest.pdfparse import MAX_OCR_PIXELS, MAX_OCR_SIDE, Ocr, Page, lay_out, runs_from_image_lines

MAX_SHEET_CELLS = 1_000_000
"""Cells of all sheets of a workbook together (its used ranges)."""
MAX_SLIDES = 2_000
MAX_IMAGE_PIXELS = 60_000_000
"""Pixels of one image (a 300-dpi A3 scan has 17 M)."""
MAX_IMAGE_FRAMES = 500
"""Frames (pages) of a TIFF."""

TooLarge = Callable[[str, str, str, int], Exception]


def cell_text(value: Any) -> str:
    """A cell's value as text: integers without ``.0``, dates in ISO form, booleans as TRUE/FALSE.

    >>> [cell_text(v) for v in (12, 12.0, 0.25, True, dt.datetime(2025, 3, 1), None)]
    ['12', '12', '0.25', 'TRUE', '2025-03-01', '']
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() and abs(value) < 2**53 else repr(value)
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time(0) else value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    return str(value).strip()


_MERGE_REF = re.compile(rb'<(?:\w+:)?mergeCell\b[^>]*?\bref="\$?([A-Z]{1,3})\$?(\d{1,7}):\$?([A-Z]{1,3})\$?(\d{1,7})"')


def merged_cells(data: bytes) -> int:
    """How many cells the workbook's merged ranges cover, read from its sheets' XML before openpyxl loads it
    (openpyxl makes an object per merged cell: a 4.7 KB file merging A2:XFD1048575 took 1.6 GB).

    >>> import zipfile as z; b = io.BytesIO(); f = z.ZipFile(b, "w")
    >>> f.writestr("xl/worksheets/sheet1.xml", '<mergeCells><mergeCell ref="A2:C3"/></mergeCells>'); f.close()
    >>> merged_cells(b.getvalue())
    6
    """
    def column(letters: bytes) -> int:
        n = 0
        for ch in letters:
            n = n * 26 + ch - 64
        return n

    total = 0
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for member in z.namelist():
                if member.startswith("xl/worksheets/") and member.endswith(".xml"):
                    for m in _MERGE_REF.finditer(z.read(member)):
                        rows = abs(int(m.group(4)) - int(m.group(2))) + 1
                        total += rows * (abs(column(m.group(3)) - column(m.group(1))) + 1)
    except (zipfile.BadZipFile, OSError, ValueError):
        return 0  # openpyxl reports the damage
    return total


def read_xlsx(data: bytes, name: str, stem: str, too_large: TooLarge) -> ParsedDoc:
    import openpyxl

    merged = merged_cells(data)
    if merged > MAX_SHEET_CELLS:
        raise too_large(name, f"merged ranges over {merged:,} cells", "MAX_SHEET_CELLS", MAX_SHEET_CELLS)
    try:
        book = openpyxl.load_workbook(io.BytesIO(data), data_only=True, read_only=False)
    except Exception as exc:  # openpyxl raises zipfile/KeyError/ValueError/TypeError variants
        raise IngestError(f"{name}: corrupt or unreadable XLSX") from exc
    try:
        sheets = [ws for ws in book.worksheets if ws.sheet_state == "visible"] or list(book.worksheets)
        cells = sum((ws.max_row or 0) * (ws.max_column or 0) for ws in sheets)
        if cells > MAX_SHEET_CELLS:
            raise too_large(name, f"{cells:,} cells", "MAX_SHEET_CELLS", MAX_SHEET_CELLS)
        formulas = _formula_cells(data, book)
        doc = DocumentText()
        for ws in sheets:
            grid = [[cell_text(v) for v in row] for row in ws.iter_rows(values_only=True)]
            for rng in ws.merged_cells.ranges:
                top = grid[rng.min_row - 1][rng.min_col - 1] if rng.min_row - 1 < len(grid) else ""
                for r in range(rng.min_row - 1, min(rng.max_row, len(grid))):
                    for c in range(rng.min_col - 1, min(rng.max_col, len(grid[r]))):
                        grid[r][c] = top
            grid = [r for r in grid if any(r)]
            if not grid:
                continue
            grid = _join_group_header(grid, ws)
            doc.heading(1, ws.title)
            doc.table(grid, ws.title)
        if formulas:
            doc.warnings.append(f"{formulas} formula cell(s) saved without a value were read as empty")
        title = str(book.properties.title or "").strip() if book.properties is not None else ""
    finally:
        book.close()
    return doc.build(title or stem, "xlsx")


def _join_group_header(grid: list[list[str]], ws: Any) -> list[list[str]]:
    """A first row merged across columns over a row of sub-headers: the two joined into one header row."""
    if len(grid) < 3:
        return grid
    spans = [r for r in ws.merged_cells.ranges if r.min_row == r.max_row and r.max_col > r.min_col]
    first = next((i for i in range(1, ws.max_row + 1) if any(c.value is not None for c in ws[i])), 1)
    if not any(r.min_row == first for r in spans):
        return grid
    top, sub = grid[0], grid[1]
    if any(_numeric(v) for v in sub if v):
        return grid
    header = [(t + " " + s).strip() if t != s else t for t, s in zip(top, sub, strict=False)]
    return [header, *grid[2:]]


def _numeric(v: str) -> bool:
    try:
        float(v.replace(",", ""))
    except ValueError:
        return False
    return True


def _formula_cells(data: bytes, book: Any) -> int:
    """Formula cells saved without a cached value (openpyxl then reads None)."""
    import openpyxl

    try:
        formulas = openpyxl.load_workbook(io.BytesIO(data), data_only=False, read_only=True)
    except Exception:  # noqa: BLE001 - the first load succeeded; this count is advisory
        return 0
    try:
        missing = 0
        for ws in formulas.worksheets:
            values = book[ws.title]
            for row in ws.iter_rows():
                for c in row:
                    if isinstance(getattr(c, "value", None), str) and c.value.startswith("=") \
                            and values.cell(row=c.row, column=c.column).value is None:
                        missing += 1
        return missing
    finally:
        formulas.close()


def read_pptx(data: bytes, name: str, stem: str, too_large: TooLarge) -> ParsedDoc:
    from pptx import Presentation

    try:
        prs = Presentation(io.BytesIO(data))
    except Exception as exc:  # python-pptx raises zipfile/KeyError/ValueError variants
        raise IngestError(f"{name}: corrupt or unreadable PPTX") from exc
    slides = list(prs.slides)
    if len(slides) > MAX_SLIDES:
        raise too_large(name, f"{len(slides):,} slides", "MAX_SLIDES", MAX_SLIDES)
    doc = DocumentText()
    title = str(prs.core_properties.title or "").strip()
    for n, slide in enumerate(slides, start=1):
        doc.page(n)
        head = slide.shapes.title
        heading = head.text_frame.text.strip() if head is not None and head.has_text_frame else ""
        doc.heading(1, f"Slide {n}: {heading}" if heading else f"Slide {n}")
        _shapes(doc, [s for s in slide.shapes if head is None or s.shape_id != head.shape_id], n)
        if slide.has_notes_slide:
            notes = slide.notes_slide.notes_text_frame
            text = notes.text.strip() if notes is not None else ""
            if text:
                doc.paragraph("Notes: " + text)
    return doc.build(title or stem, "pptx")


def _shapes(doc: DocumentText, shapes: list[Any], slide: int) -> None:
    def pos(s: Any) -> tuple[int, int]:
        return (s.top or 0, s.left or 0)

    for shape in sorted(shapes, key=pos):
        if shape.shape_type is not None and int(shape.shape_type) == 6:  # MSO_SHAPE_TYPE.GROUP
            _shapes(doc, list(shape.shapes), slide)
        elif getattr(shape, "has_table", False) and shape.has_table:
            rows = [[cell.text for cell in row.cells] for row in shape.table.rows]
            doc.table(rows, f"slide {slide} table")
        elif shape.has_text_frame:
            for para in shape.text_frame.paragraphs:
                doc.paragraph(para.text.replace("\v", " "))


def read_image(data: bytes, name: str, stem: str, ocr: Ocr | None, too_large: TooLarge,
               progress: Callable[[int, int], None] | None = None) -> ParsedDoc:
    from PIL import Image, UnidentifiedImageError

    if ocr is None:
        raise IngestError(f"{name}: an image is read by OCR, which is not available here")
    try:
        image = Image.open(io.BytesIO(data))
        w, h = image.size
    except Image.DecompressionBombError as exc:  # Pillow's own guard: over twice its pixel limit
        raise too_large(name, f"an image of more than {MAX_IMAGE_PIXELS:,} pixels", "MAX_IMAGE_PIXELS",
                        MAX_IMAGE_PIXELS) from exc
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise IngestError(f"{name}: corrupt or unreadable image") from exc
    if w * h > MAX_IMAGE_PIXELS:
        raise too_large(name, f"an image of {w * h:,} pixels", "MAX_IMAGE_PIXELS", MAX_IMAGE_PIXELS)
    frames = getattr(image, "n_frames", 1)
    if frames > MAX_IMAGE_FRAMES:
        raise too_large(name, f"{frames:,} frames", "MAX_IMAGE_FRAMES", MAX_IMAGE_FRAMES)
    pages = []
    try:
        for i in range(frames):
            image.seek(i)
            fw, fh = image.size
            if fw * fh > MAX_IMAGE_PIXELS:
                raise too_large(name, f"a frame of {fw * fh:,} pixels", "MAX_IMAGE_PIXELS", MAX_IMAGE_PIXELS)
            frame = image.convert("L")
            scale = min(1.0, (MAX_OCR_PIXELS / (fw * fh)) ** 0.5, MAX_OCR_SIDE / max(fw, fh, 1))
            if scale < 1.0:  # the OCR engine runs out of memory on a 59 M-pixel photo: read it smaller
                frame = frame.resize((max(int(fw * scale), 1), max(int(fh * scale), 1)))
            lines = ocr(frame) if min(frame.size) >= 8 else []  # a strip a few pixels high holds no text
            pages.append(Page(i + 1, float(fw), float(fh), runs_from_image_lines(lines, fh * scale, scale), [],
                              ocr=True))
            if progress is not None:
                progress(i + 1, frames)
    except (OSError, ValueError, EOFError) as exc:
        raise IngestError(f"{name}: corrupt or unreadable image") from exc
    if not any(p.runs for p in pages):
        raise IngestError(f"{name}: OCR found no text in the image")
    return lay_out(pages).build(stem, "image")
