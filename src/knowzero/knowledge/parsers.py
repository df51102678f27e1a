"""File parsers: Markdown, plain text, HTML, PDF, DOCX → text; CSV → a typed table (csvtable.py).

Each parser returns a :class:`ParsedDoc` or raises :class:`knowzero.errors.IngestError` with a
message naming the problem (corrupt PDF, unknown encoding, empty file). Parsers do not chunk
and do not index.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass
from pathlib import Path

from knowzero.errors import IngestError
from knowzero.knowledge.csvtable import Table, one_line, read_csv_table

logging.getLogger("pypdf").setLevel(logging.ERROR)  # damaged files are reported by us, by name

TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".text", ".html", ".htm", ".pdf", ".docx", ".csv"}


@dataclass
class ParsedDoc:
    text: str
    title: str
    kind: str
    table: Table | None = None


def decode(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030; otherwise an IngestError."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    for enc in ("utf-8-sig", "gb18030"):
        try:
            text = data.decode(enc)
        except UnicodeDecodeError:
            continue
        if enc == "gb18030" and _looks_binary(text):
            break
        return text
    raise IngestError(f"{name}: unknown text encoding (expected UTF-8 or GB18030)")


def _looks_binary(text: str) -> bool:
    bad = sum(1 for ch in text[:2000] if ord(ch) < 32 and ch not in "\r\n\t")
    return bad > 5


def parse_file(path: Path) -> ParsedDoc:
    suffix = path.suffix.lower()
    if suffix not in TEXT_SUFFIXES:
        raise IngestError(f"{path.name}: unsupported file type {suffix or '(none)'}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(f"{path.name}: cannot be read ({exc.strerror})") from exc
    if not data.strip():
        raise IngestError(f"{path.name}: empty file")
    doc = parse_bytes(data, path.name)
    if not doc.text.strip():
        raise IngestError(f"{path.name}: no text could be extracted")
    return doc


def parse_bytes(data: bytes, name: str) -> ParsedDoc:
    """Parse one file's bytes by its suffix. NUL characters never reach the text (PostgreSQL cannot store them)."""
    doc = _parse_bytes(data, name)
    if "\x00" in doc.text or "\x00" in doc.title:
        doc.text, doc.title = doc.text.replace("\x00", ""), doc.title.replace("\x00", "")
    return doc


def _parse_bytes(data: bytes, name: str) -> ParsedDoc:
    suffix = Path(name).suffix.lower()
    stem = Path(name).stem
    if suffix in (".md", ".markdown", ".txt", ".text"):
        text = decode(data, name).replace("\r\n", "\n")
        if _looks_binary(text):
            raise IngestError(f"{name}: looks like a binary file, not text")
        m = re.search(r"^#\s+(.+)$", text, re.M)
        return ParsedDoc(text, m.group(1).strip() if m else stem, "markdown" if suffix.startswith(".m") else "text")
    if suffix in (".html", ".htm"):
        return _parse_html(decode(data, name), stem)
    if suffix == ".pdf":
        return _parse_pdf(data, name, stem)
    if suffix == ".docx":
        return _parse_docx(data, name, stem)
    if suffix == ".csv":
        return _parse_csv(decode(data, name), name, stem)
    raise IngestError(f"{name}: unsupported file type {suffix or '(none)'}")


def _parse_html(html: str, stem: str) -> ParsedDoc:
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "lxml")
    for tag in soup(["script", "style", "nav", "footer", "noscript"]):
        tag.decompose()
    title = soup.title.get_text(strip=True) if soup.title else ""
    lines: list[str] = []
    body = soup.body or soup
    for el in body.find_all(["h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "pre", "blockquote"]):
        if el.find_parent(["p", "li", "td", "pre", "blockquote"]) is not None:
            continue
        txt = el.get_text(" ", strip=True)
        if not txt:
            continue
        if el.name and el.name[0] == "h" and el.name[1:].isdigit():
            lines.append("#" * int(el.name[1:]) + " " + txt)
            title = title or txt
        else:
            lines.append(txt)
    return ParsedDoc("\n".join(lines), title or stem, "html")


def _parse_pdf(data: bytes, name: str, stem: str) -> ParsedDoc:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PdfReadError, ValueError, KeyError, TypeError, OSError) as exc:
        raise IngestError(f"{name}: corrupt or unreadable PDF") from exc
    except Exception as exc:  # pypdf raises assorted errors on damaged files
        raise IngestError(f"{name}: corrupt or unreadable PDF") from exc
    title = ""
    try:
        title = (reader.metadata.title or "") if reader.metadata else ""
    except Exception:  # noqa: BLE001 - metadata is optional
        title = ""
    return ParsedDoc("\n\n".join(p.strip() for p in pages if p.strip()), title or stem, "pdf")


def _parse_docx(data: bytes, name: str, stem: str) -> ParsedDoc:
    import docx

    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zipfile/KeyError/ValueError variants
        raise IngestError(f"{name}: corrupt or unreadable DOCX") from exc
    lines: list[str] = []
    title = ""
    for para in document.paragraphs:
        txt = para.text.strip()
        if not txt:
            continue
        style = (para.style.name if para.style is not None else "") or ""
        m = re.match(r"Heading (\d)", style)
        if style == "Title" or m:
            level = int(m.group(1)) if m else 1
            lines.append("#" * level + " " + txt)
            title = title or txt
        else:
            lines.append(txt)
    for table in document.tables:
        for row in table.rows:
            lines.append(" | ".join(cell.text.strip() for cell in row.cells))
    return ParsedDoc("\n".join(lines), title or stem, "docx")


def render_table(table: Table) -> str:
    """The text rendering of a table: a '# name' heading, then one line per row ("header: value；…。").

    Headers and values are put on one line each (control characters become spaces), so row ``i`` is
    always line ``i + 1`` (see :func:`knowzero.knowledge.sqlindex.row_offsets`).
    """
    labels = [c.label for c in table.columns]
    lines = [f"# {one_line(table.name)}"] + [
        "；".join(f"{h}: {one_line(str(v))}" for h, v in zip(labels, r, strict=True) if v is not None) + "。"
        for r in table.rows
    ]
    return "\n".join(lines)


def _parse_csv(text: str, name: str, stem: str) -> ParsedDoc:
    table = read_csv_table(text, name, stem)
    # A text rendering (one line per row) so keyword/dense retrieval and citations see the rows too.
    return ParsedDoc(render_table(table), stem, "csv", table)
