"""Real-looking documents built in code, for the parser tests and benchmarks/realdocs.py (issue 29).

Each builder takes paragraphs (and optional tables) and returns a file's bytes:
- :func:`two_column_pdf`: an A4 PDF of two columns with a running header and footer (page numbers),
  lines broken inside sentences, words hyphenated across lines, headings in a larger bold font,
  and tables drawn as cells (fpdf2, core fonts: Latin-1 text);
- :func:`scanned_pdf`: the same kind of page rendered to an image (Pillow) and wrapped into a PDF
  with no text layer, as a scanner makes it;
- :func:`text_png`: one paragraph as a PNG photo of a notice;
- :func:`table_xlsx` (openpyxl, a merged header cell, a formula with its cached value) and
  :func:`slides_pptx` (python-pptx, title, body and notes).

Nothing here reads a file or the network; fonts are fpdf2's core fonts and Pillow's bundled one.
"""

from __future__ import annotations

import io
import textwrap
from collections.abc import Sequence

HEADER = "Northwind Handbook - internal"
"""The running header printed on every page of :func:`two_column_pdf`."""


def _latin1(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


def two_column_pdf(sections: Sequence[tuple[str, Sequence[str]]], *, tables: Sequence[tuple[str, list[list[str]]]] = (),
                   title: str = "Northwind Handbook", width: int = 44, hyphenate: bool = True,
                   ruled: bool = True) -> bytes:
    """``sections``: (heading, paragraphs); ``tables``: (caption, rows with the header first), drawn
    after the sections on the last page, full width (cell borders drawn when ``ruled``). Lines are wrapped at ``width`` characters, so
    most sentences break inside; with ``hyphenate`` a long word at a line end is split with a hyphen."""
    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_title(title)
    page_w, page_h = 595.28, 841.89
    margin, gutter, lh = 50.0, 24.0, 13.0
    col_w = (page_w - 2 * margin - gutter) / 2
    top, bottom = margin + 30, page_h - margin - 30
    state = {"page": 0, "col": 0, "y": top}

    def new_page() -> None:
        pdf.add_page()
        state["page"] += 1
        state["col"], state["y"] = 0, top
        pdf.set_font("Helvetica", "", 8)
        pdf.set_xy(margin, margin)
        pdf.cell(page_w - 2 * margin, 10, HEADER, align="C")
        pdf.set_xy(margin, page_h - margin - 10)
        pdf.cell(page_w - 2 * margin, 10, f"Page {state['page']}", align="C")

    def advance(h: float) -> None:
        if state["y"] + h > bottom:
            if state["col"] == 0:
                state["col"], state["y"] = 1, top
            else:
                new_page()

    def line(text: str, size: float = 10, style: str = "") -> None:
        advance(lh if size <= 10 else lh + 6)
        pdf.set_font("Helvetica", style, size)
        x = margin + state["col"] * (col_w + gutter)
        pdf.set_xy(x, state["y"])
        pdf.cell(col_w, lh, _latin1(text))
        state["y"] += lh if size <= 10 else lh + 6

    new_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.set_xy(margin, top - 4)
    pdf.cell(page_w - 2 * margin, 18, _latin1(title))
    state["y"] = top + 24
    for heading, paragraphs in sections:
        if heading:
            state["y"] += 4
            line(heading, 13, "B")
        for para in paragraphs:
            for ln in _wrap(para, width, hyphenate):
                line(ln)
            state["y"] += 6
    for caption, rows in tables:
        if state["col"] == 1 or state["y"] > top:
            new_page()
        line(caption, 13, "B")
        widths = [(page_w - 2 * margin) / len(rows[0])] * len(rows[0])
        y = state["y"] + 4
        for r, row in enumerate(rows):
            x = margin
            pdf.set_font("Helvetica", "B" if r == 0 else "", 9)
            for w, cell in zip(widths, row, strict=True):
                pdf.set_xy(x, y)
                pdf.cell(w, 16, _latin1(cell), border=1 if ruled else 0)
                x += w
            y += 16
        state["y"] = y + 10
    return bytes(pdf.output())


def _wrap(text: str, width: int, hyphenate: bool) -> list[str]:
    lines = textwrap.wrap(text, width, break_long_words=False)
    if not hyphenate:
        return lines
    out: list[str] = []
    carry = ""
    for i, ln in enumerate(lines):
        ln = (carry + " " + ln).strip() if carry else ln
        carry = ""
        words = ln.split(" ")
        last = words[-1]
        if i + 1 < len(lines) and len(last) >= 9 and last.isalpha():
            cut = len(last) // 2
            words[-1] = last[:cut] + "-"
            carry = last[cut:]
        out.append(" ".join(words))
    if carry:
        out.append(carry)
    return out


def render_page_image(lines: Sequence[str], *, size: int = 30, width: int = 1654, height: int = 2339):
    """A page image (Pillow ``L`` mode, A4 at 200 dpi by default) with ``lines`` of text."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(size=size)
    img = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(img)
    y = min(240, max(80, height // 8))
    for ln in lines:
        draw.text((120, y), ln, fill=0, font=font)
        y += int(size * 1.7)
    return img


def scanned_pdf(pages: Sequence[Sequence[str]], *, size: int = 30) -> bytes:
    """A PDF whose pages are only images of ``pages`` (lines of text each): no text layer."""
    images = [render_page_image(p, size=size).convert("RGB") for p in pages]
    buf = io.BytesIO()
    images[0].save(buf, "PDF", resolution=200.0, save_all=True, append_images=images[1:])
    return buf.getvalue()


def text_png(paragraph: str, *, size: int = 30, width: int = 60, fmt: str = "PNG") -> bytes:
    """One paragraph as an image (PNG by default; ``fmt`` "JPEG" or "TIFF" too)."""
    lines = textwrap.wrap(paragraph, width)
    img = render_page_image(lines, size=size, width=1400, height=240 + int(size * 1.7) * len(lines))
    buf = io.BytesIO()
    img.save(buf, fmt)
    return buf.getvalue()


def table_xlsx(sheets: Sequence[tuple[str, list[list[object]]]], *, merged_header: bool = False,
               formula: bool = False) -> bytes:
    """An XLSX with one sheet per (name, rows with the header first). ``merged_header``: a first row
    whose cell "Allowance" is merged over the last two columns (the header row below names them);
    ``formula``: a last column ``=B*2`` per row, saved with its cached value (as Excel saves it)."""
    from openpyxl import Workbook

    wb = Workbook()
    wb.remove(wb.active)
    for name, rows in sheets:
        ws = wb.create_sheet(name)
        data = [list(r) for r in rows]
        if formula:
            data[0].append("Double")
            for r in data[1:]:
                r.append(None)
        if merged_header:
            n = len(data[0])
            ws.append(["" for _ in range(n - 2)] + ["Allowance", None])
            ws.merge_cells(start_row=1, start_column=n - 1, end_row=1, end_column=n)
        for r in data:
            ws.append(r)
        if formula:
            first = 3 if merged_header else 2
            col = len(data[0])
            for i in range(first, first + len(data) - 1):
                ws.cell(row=i, column=col, value=f"=B{i}*2")
    buf = io.BytesIO()
    wb.save(buf)
    raw = buf.getvalue()
    return _with_cached_values(raw) if formula else raw


def _with_cached_values(raw: bytes) -> bytes:
    """openpyxl writes formulas without their cached values; Excel saves both (``<f>`` and ``<v>``).
    Add the ``<v>`` of each ``=B<n>*2`` formula, as Excel would have computed it."""
    import re
    import zipfile

    src = zipfile.ZipFile(io.BytesIO(raw))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("xl/worksheets/sheet"):
                xml = data.decode()
                values = {m.group(1): m.group(2) for m in re.finditer(r'<c r="(B\d+)"[^>]*><v>([^<]*)</v>', xml)}

                def cached(m: re.Match[str], values: dict[str, str] = values) -> str:
                    v = values.get(f"B{m.group(2)}")
                    return m.group(0) if v is None else f'{m.group(1)}<f>B{m.group(2)}*2</f><v>{float(v) * 2:g}</v></c>'

                xml = re.sub(r'(<c r="[A-Z]+\d+"[^>]*>)<f>B(\d+)\*2</f>(?:<v\s*/>|<v></v>)?</c>', cached, xml)
                data = xml.encode()
            dst.writestr(info, data)
    return out.getvalue()


def slides_pptx(slides: Sequence[tuple[str, Sequence[str], str]]) -> bytes:
    """A PPTX with one slide per (title, body paragraphs, speaker notes)."""
    from pptx import Presentation

    prs = Presentation()
    layout = prs.slide_layouts[1]  # title and content
    for title, body, notes in slides:
        slide = prs.slides.add_slide(layout)
        slide.shapes.title.text = title
        frame = slide.placeholders[1].text_frame
        frame.text = body[0] if body else ""
        for para in body[1:]:
            frame.add_paragraph().text = para
        if notes:
            slide.notes_slide.notes_text_frame.text = notes
    buf = io.BytesIO()
    prs.save(buf)
    return buf.getvalue()
