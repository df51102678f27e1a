"""File parsers: Markdown, plain text, HTML, PDF, DOCX, XLSX, PPTX, images → text; CSV → a typed table.

Each parser returns a :class:`ParsedDoc` (``knowledge/ingest/document.py``: the text, where each page starts,
the tables found in it, the pages read by OCR, warnings) or raises :class:`knowzero.errors.IngestError`
with a message naming the problem (corrupt PDF, unknown encoding, empty file). Parsers do not chunk
and do not index. A table inside a document (DOCX, HTML, a Markdown pipe table, a ruled PDF table, an
XLSX sheet) is written where it stands, one row a line ("header: value；…。", as a CSV's rows), and kept
as a structured table for the SQL retriever. PDFs are laid out by ``knowledge/ingest/pdfparse.py`` (PDFium);
XLSX, PPTX and images are read by ``knowledge/ingest/officeparse.py``; scanned pages and images go through the
bundled OCR engine (``models/ocr.py``).

Parsing limits: what one file may expand to is bounded for every format (the ``MAX_*`` names
below, the one place they are set): a DOCX's zip is checked from its central directory before
anything is extracted (members, uncompressed bytes, compression ratio), its XML parts are refused
when they declare a DTD or entities and counted before python-docx builds a tree (elements, then
paragraphs and table cells); HTML is bounded in elements and nesting, CSV in line length and
lines (csvtable.py bounds rows, columns and cells), text in decoded characters, PDF in pages, and
every format in the text it yields. A file over a limit raises :class:`DocumentTooLarge`
(``too_large``, 413), one whose XML declares a DTD raises :class:`RefusedDocument`; both are
IngestErrors, so an ingest reports the file and goes on. Time and memory are bounded by running
the parse in a worker process (parse_worker.py: uploads).
"""

from __future__ import annotations

import io
import itertools
import re
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from knowzero.errors import IngestError, PayloadTooLarge
from knowzero.knowledge.ingest import officeparse, pdfparse
from knowzero.knowledge.ingest.csvtable import Table, one_line, read_csv_table, table_from_cells
from knowzero.knowledge.ingest.document import DocumentText, ParsedDoc, PlacedTable
from knowzero.models.ocr import ocr as ocr_engine

__all__ = ["TEXT_SUFFIXES", "DocumentTooLarge", "ParsedDoc", "RefusedDocument", "decode", "parse_bytes", "parse_file",
           "render_table"]

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".tif", ".tiff"}
TEXT_SUFFIXES = {".md", ".markdown", ".txt", ".text", ".html", ".htm", ".pdf", ".docx", ".csv", ".xlsx", ".pptx",
                 *IMAGE_SUFFIXES}
"""Every suffix a file may have to be ingested (images are read by OCR)."""
Progress = Callable[[int, int], None]
"""``progress(page, pages)``: called after each page of a PDF or image is read (OCR takes seconds a page)."""

# -- Parsing limits (each far above a real document: a 300-page policy, a 50,000-row CSV) --------
MAX_FILE_BYTES = 200 * 1024 * 1024
"""A file read from disk (``knowzero ingest``); uploads are capped lower by the upload route."""
MAX_TEXT_CHARS = 25_000_000
"""Characters of text one document may yield (a 300-page policy has about 1M; a 20 MiB text file fits)."""
MAX_ZIP_DIRECTORY_BYTES = 1024 * 1024
"""A zip's central directory as its end record states it, checked before zipfile reads it."""
MAX_ZIP_MEMBERS = 2_000
MAX_ZIP_UNCOMPRESSED_BYTES = 256 * 1024 * 1024
"""The sum of a zip's members' uncompressed sizes (python-docx reads every member into memory)."""
MAX_ZIP_RATIO = 200
"""Uncompressed/compressed size of one member larger than :data:`ZIP_RATIO_FROM_BYTES` (real XML: 5-20)."""
ZIP_RATIO_FROM_BYTES = 1024 * 1024
MAX_XML_BYTES = 64 * 1024 * 1024
"""The sum of a DOCX's XML parts' uncompressed sizes."""
MAX_XML_ELEMENTS = 2_000_000
"""Elements in all XML parts of a DOCX together (a 300-page policy has about 300,000)."""
MAX_DOCX_PARAGRAPHS = 100_000
MAX_DOCX_TABLE_CELLS = 100_000
"""Table cells of a DOCX's body (``w:tc``), and cells of its rendered rows (a merged cell counts per column)."""
MAX_HTML_ELEMENTS = 500_000
MAX_HTML_DEPTH = 256
"""libxml2's own nesting limit: deeper HTML is refused, never cut off silently."""
MAX_CSV_LINE_CHARS = 1_000_000
MAX_CSV_LINES = 1_000_000
"""Physical lines of a CSV, blank ones included (csvtable.py bounds rows, columns, cells and fields)."""
MAX_PDF_PAGES = 5_000


class RefusedDocument(IngestError):
    """A file refused by a parsing guard, not because it is damaged (a DTD in a DOCX, a limit): the
    upload route answers it as the request's error instead of a per-file failure."""


class DocumentTooLarge(RefusedDocument, PayloadTooLarge):
    """A file that expands past a parsing limit (size, count, time or memory): ``too_large``, 413."""

    code, status = PayloadTooLarge.code, PayloadTooLarge.status

    def __init__(self, message: str, limit: str = "", maximum: int | float | None = None,
                 details: list[Any] | None = None) -> None:
        super().__init__(message, details)
        self.limit, self.maximum = limit, maximum


def too_large(name: str, what: str, limit: str, maximum: int | float) -> DocumentTooLarge:
    """The refusal of a file over a limit: ``<name>: <what>; at most <maximum> are allowed (<limit>), …``."""
    shown = f"{maximum:,}" if isinstance(maximum, int) else f"{maximum:g}"
    return DocumentTooLarge(f"{name}: {what}; at most {shown} are allowed ({limit}), so it was not ingested",
                            limit, maximum)


def decode(data: bytes, name: str) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030; otherwise an IngestError."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise IngestError(f"{name}: not valid UTF-16 text") from exc
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


def parse_file(path: Path, progress: Progress | None = None) -> ParsedDoc:
    """Read and parse one file (``progress(page, pages)`` as a PDF's pages are read)."""
    suffix = path.suffix.lower()
    if suffix not in TEXT_SUFFIXES:
        raise IngestError(f"{path.name}: unsupported file type {suffix or '(none)'}")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise too_large(path.name, f"{size:,} bytes", "MAX_FILE_BYTES", MAX_FILE_BYTES)
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(f"{path.name}: cannot be read ({exc.strerror})") from exc
    if not data.strip():
        raise IngestError(f"{path.name}: empty file")
    doc = parse_bytes(data, path.name, progress)
    if not doc.text.strip():
        raise IngestError(f"{path.name}: no text could be extracted")
    return doc


def parse_bytes(data: bytes, name: str, progress: Progress | None = None) -> ParsedDoc:
    """Parse one file's bytes by its suffix. NUL characters never reach the text (PostgreSQL cannot store them)."""
    doc = _parse_bytes(data, name, progress)
    if len(doc.text) > MAX_TEXT_CHARS:
        raise too_large(name, f"{len(doc.text):,} characters of text", "MAX_TEXT_CHARS", MAX_TEXT_CHARS)
    if "\x00" in doc.text or "\x00" in doc.title:
        doc.text, doc.title = doc.text.replace("\x00", ""), doc.title.replace("\x00", "")
    return doc


def _parse_bytes(data: bytes, name: str, progress: Progress | None = None) -> ParsedDoc:
    suffix = Path(name).suffix.lower()
    stem = Path(name).stem
    if suffix in (".md", ".markdown", ".txt", ".text"):
        text = _decode_bounded(data, name).replace("\r\n", "\n")
        if _looks_binary(text):
            raise IngestError(f"{name}: looks like a binary file, not text")
        m = re.search(r"^#\s+(.+)$", text, re.M)
        title, kind = m.group(1).strip() if m else stem, "markdown" if suffix.startswith(".m") else "text"
        return _markdown_tables(text, title, stem) if kind == "markdown" else ParsedDoc(text, title, kind)
    if suffix in (".html", ".htm"):
        return _parse_html(decode(data, name), name, stem)
    if suffix == ".pdf":
        doc = pdfparse.read_pdf(data, name, max_pages=MAX_PDF_PAGES, max_chars=MAX_TEXT_CHARS, ocr=_ocr,
                                progress=progress, too_large=too_large)
        doc.title = doc.title or stem
        return doc
    if suffix == ".docx":
        return _parse_docx(data, name, stem)
    if suffix == ".csv":
        return _parse_csv(_decode_bounded(data, name), name, stem)
    if suffix in (".xlsx", ".pptx"):
        kind = suffix[1:].upper()
        with open_zip(data, name, kind) as archive:
            check_xml_parts(archive, name, kind)
        if suffix == ".xlsx":
            return officeparse.read_xlsx(data, name, stem, too_large)
        return officeparse.read_pptx(data, name, stem, too_large)
    if suffix in IMAGE_SUFFIXES:
        return officeparse.read_image(data, name, stem, _ocr, too_large, progress)
    raise IngestError(f"{name}: unsupported file type {suffix or '(none)'}")


def _ocr(image: object) -> list[tuple[float, float, float, float, str]]:
    """The bundled OCR engine's lines of a Pillow image (``models/ocr.py``)."""
    return [(x.left, x.top, x.right, x.bottom, x.text) for x in ocr_engine().read(image)]


_PIPE_ROW = re.compile(r"^\s*\|?(.+\|.+?)\|?\s*$")
_PIPE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)+\|?\s*$")


def _markdown_tables(text: str, title: str, stem: str) -> ParsedDoc:
    """Markdown as written; each pipe table (a header row, a ``---|---`` rule, rows) is also kept as a structured
    table whose rows are its data lines as written (the reader reads a pipe row as "header：value" sentences
    and cites the exact line)."""
    lines = text.split("\n")
    if not any(_PIPE_RULE.match(ln) for ln in lines):
        return ParsedDoc(text, title, "markdown")
    doc = DocumentText()
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and _PIPE_ROW.match(lines[i]) and _PIPE_RULE.match(lines[i + 1]):
            rows = [_pipe_cells(lines[i])]
            doc.raw_line(lines[i])
            doc.raw_line(lines[i + 1])
            i += 2
            start = doc.chars
            while i < len(lines) and lines[i].strip() and _PIPE_ROW.match(lines[i]):
                rows.append(_pipe_cells(lines[i]))
                doc.raw_line(lines[i])
                i += 1
            table = table_from_cells(rows, f"table {len(doc.tables) + 1}")
            if table is not None and len(table.rows) == len(rows) - 1:  # one structured row per line
                doc.tables.append(PlacedTable(table, start, doc.chars - 1))
            continue
        doc.raw_line(lines[i])
        i += 1
    return doc.build(title, "markdown")


def _pipe_cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", inner)]


def _decode_bounded(data: bytes, name: str) -> str:
    """:func:`decode`, refusing text over :data:`MAX_TEXT_CHARS` (before decoding when the bytes alone say so)."""
    if len(data) > 4 * MAX_TEXT_CHARS:  # at most 4 bytes a character in every accepted encoding
        raise too_large(name, f"{len(data):,} bytes of text", "MAX_TEXT_CHARS", MAX_TEXT_CHARS)
    text = decode(data, name)
    if len(text) > MAX_TEXT_CHARS:
        raise too_large(name, f"{len(text):,} characters of text", "MAX_TEXT_CHARS", MAX_TEXT_CHARS)
    return text


_HTML_DROPPED = frozenset({"script", "style", "nav", "footer", "noscript"})
_HTML_BLOCKS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "pre", "blockquote"})
_HTML_CONTAINERS = frozenset({"p", "li", "td", "pre", "blockquote"})
"""A block inside one of these is part of its text, not a line of its own."""
_TAG_START = re.compile(r"<[A-Za-z]")


def _parse_html(html: str, name: str, stem: str) -> ParsedDoc:
    """Headings (as ``#`` lines) and text blocks, one line each; scripts, styles, navigation and
    footers dropped; the title from ``<title>`` or the first heading.

    One pass over lxml's tree (linear in its size): elements are counted in the markup before the
    tree is built, nesting is bounded by libxml2 (refused past :data:`MAX_HTML_DEPTH`), and the
    text collected is bounded by :data:`MAX_TEXT_CHARS`.
    """
    from lxml import etree

    html = html.replace("\x00", "")
    for _ in itertools.islice(_TAG_START.finditer(html), MAX_HTML_ELEMENTS, None):
        raise too_large(name, f"more than {MAX_HTML_ELEMENTS:,} HTML elements", "MAX_HTML_ELEMENTS",
                        MAX_HTML_ELEMENTS)
    parser = etree.HTMLParser(encoding="utf-8", no_network=True, huge_tree=False)
    try:
        root = etree.fromstring(html.encode("utf-8", "replace"), parser)
    except (etree.ParserError, ValueError) as exc:
        raise IngestError(f"{name}: unreadable HTML") from exc
    limit = next((e.message for e in parser.error_log if e.type_name == "ERR_RESOURCE_LIMIT"), None)
    if limit is not None:
        if "depth" in limit:
            raise too_large(name, f"HTML nested more than {MAX_HTML_DEPTH} elements deep", "MAX_HTML_DEPTH",
                            MAX_HTML_DEPTH)
        raise DocumentTooLarge(f"{name}: HTML past the parser's limits (a text run over 10 MB), so it was not ingested",
                               "html_parser")
    if root is None:
        return ParsedDoc("", stem, "html")

    def dropped(el: Any) -> bool:
        return any(a.tag in _HTML_DROPPED for a in el.iterancestors())

    tables = _html_tables(root, dropped)
    body = next((b for b in root.iter("body") if not dropped(b)), None)
    title_el = next((t for t in root.iter("title") if not dropped(t)), None)
    title = "".join(s.strip() for s in title_el.itertext()) if title_el is not None else ""
    blocks: list[tuple[str, list[str]]] = []  # each block's tag and text pieces, in document order
    open_blocks: list[tuple[Any, list[str]]] = []  # blocks whose end is still to come (nested headings)
    chars = 0

    def add(text: str | None) -> None:
        nonlocal chars
        piece = text.strip() if text else ""
        if piece and open_blocks:
            for _, pieces in open_blocks:
                pieces.append(piece)
            chars += len(piece) * len(open_blocks)
            if chars > MAX_TEXT_CHARS:
                raise too_large(name, f"more than {MAX_TEXT_CHARS:,} characters of text", "MAX_TEXT_CHARS",
                                MAX_TEXT_CHARS)

    skipping: Any = None  # a dropped element being passed over
    in_body, containers = body is None, 0
    for event, el in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
        if event == "start":
            if skipping is not None:
                continue
            if el.tag in _HTML_DROPPED:
                skipping = el
                continue
            if el is body:
                in_body = True
            if in_body and containers == 0 and el.tag in _HTML_BLOCKS:
                blocks.append((el.tag, []))
                open_blocks.append((el, blocks[-1][1]))
            if el.tag in _HTML_CONTAINERS:
                containers += 1
            add(el.text)
            continue
        if event == "end":
            if skipping is not None and el is not skipping:
                continue
            if skipping is not None:
                skipping = None
            else:
                if el.tag in _HTML_CONTAINERS:
                    containers -= 1
                if open_blocks and open_blocks[-1][0] is el:
                    open_blocks.pop()
                if el is body:
                    in_body = False
        elif skipping is not None:  # a comment inside a dropped element
            continue
        add(el.tail)
    doc = DocumentText()
    for tag, pieces in blocks:
        txt = " ".join(pieces)
        if not txt:
            continue
        if tag[0] == "h":
            doc.raw_line("#" * int(tag[1:]) + " " + txt)
            title = title or txt
        elif txt in tables:
            doc.table(tables[txt], f"table {len(doc.tables) + 1}")
        else:
            doc.raw_line(txt)
    return doc.build(title or stem, "html")


_TABLE_MARK = "\ue000kz-table-{}\ue000"
MAX_HTML_COLSPAN = 100


def _html_tables(root: Any, dropped: Callable[[Any], bool]) -> dict[str, list[list[str]]]:
    """Each outermost ``<table>`` (outside dropped elements) replaced by a ``<p>`` holding a marker; the
    marker → the table's rows of cell texts (``colspan`` repeated, at most :data:`MAX_HTML_COLSPAN`)."""
    from lxml import etree

    out: dict[str, list[list[str]]] = {}
    for table in list(root.iter("table")):
        if dropped(table) or any(a.tag == "table" for a in table.iterancestors()):
            continue
        rows: list[list[str]] = []
        for tr in table.iter("tr"):
            if next((a for a in tr.iterancestors() if a.tag == "table"), None) is not table:
                continue
            row: list[str] = []
            for cell in tr:
                if cell.tag in ("td", "th"):
                    text = " ".join(t.strip() for t in cell.itertext() if t.strip())
                    span = cell.get("colspan") or "1"
                    row.extend([text] * (min(int(span), MAX_HTML_COLSPAN) if span.isdigit() and int(span) > 0 else 1))
            rows.append(row)
        mark = _TABLE_MARK.format(len(out))
        placeholder = etree.Element("p")
        placeholder.text, placeholder.tail = mark, table.tail
        parent = table.getparent()
        if parent is None:
            continue
        parent.replace(table, placeholder)
        out[mark] = rows
    return out


def zip_directory_bytes(data: bytes) -> int | None:
    """The size of a zip's central directory as its end record (or zip64 end record) states it,
    read before :mod:`zipfile` builds an entry per member; None when there is no end record."""
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 65535))
    if at < 0 or len(data) - at < 22:
        return None
    size = int.from_bytes(data[at + 12:at + 16], "little")
    locator = at - 20  # zip64: the locator sits just before the end record, the zip64 end record before it
    if locator >= 56 and data[locator:locator + 4] == b"PK\x06\x07" and data[locator - 56:locator - 52] == b"PK\x06\x06":
        size = max(size, int.from_bytes(data[locator - 56 + 40:locator - 56 + 48], "little"))
    return size


def open_zip(data: bytes, name: str, kind: str) -> zipfile.ZipFile:
    """A zip-based document's archive, refused from its central directory before anything is
    extracted: its directory size, member count, total uncompressed size and each large member's
    compression ratio (zipfile never returns more bytes than a member's declared size)."""
    directory = zip_directory_bytes(data)
    if directory is None:
        raise IngestError(f"{name}: corrupt or unreadable {kind}")
    if directory > MAX_ZIP_DIRECTORY_BYTES:
        raise too_large(name, f"a zip directory of {directory:,} bytes", "MAX_ZIP_DIRECTORY_BYTES",
                        MAX_ZIP_DIRECTORY_BYTES)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError) as exc:
        raise IngestError(f"{name}: corrupt or unreadable {kind}") from exc
    members = archive.infolist()
    if len(members) > MAX_ZIP_MEMBERS:
        raise too_large(name, f"{len(members):,} zip members", "MAX_ZIP_MEMBERS", MAX_ZIP_MEMBERS)
    total = sum(m.file_size for m in members)
    if total > MAX_ZIP_UNCOMPRESSED_BYTES:
        raise too_large(name, f"{total:,} bytes uncompressed", "MAX_ZIP_UNCOMPRESSED_BYTES",
                        MAX_ZIP_UNCOMPRESSED_BYTES)
    for m in members:
        if m.file_size > ZIP_RATIO_FROM_BYTES and m.file_size > MAX_ZIP_RATIO * max(m.compress_size, 1):
            raise too_large(name, f"a member ({m.filename[:100]}) compressed {m.file_size // max(m.compress_size, 1):,} "
                                  f"to 1", "MAX_ZIP_RATIO", MAX_ZIP_RATIO)
    return archive


_XML_ENCODING = re.compile(rb"^(?:\xef\xbb\xbf)?\s*<\?xml[^>]{0,200}?encoding\s*=\s*[\"']([^\"']{1,40})[\"']")
_PLAIN_ENCODINGS = {b"utf-8", b"utf8", b"us-ascii", b"ascii"}


def check_xml_parts(archive: zipfile.ZipFile, name: str, kind: str) -> None:
    """Refuse a package whose XML parts declare a DTD or entities (``<!DOCTYPE``/``<!ENTITY``: no
    document needs them; entity expansion is the classic XML bomb) or are not UTF-8 (so the check
    reads them as written), or whose XML holds more than :data:`MAX_XML_ELEMENTS` elements or
    :data:`MAX_XML_BYTES` bytes. An XML part is a ``.xml``/``.rels`` member or one whose content
    type ([Content_Types].xml) is XML and not an image (an SVG may carry a DOCTYPE)."""
    types = _content_types(archive, name, kind)
    parts = [m for m in archive.infolist() if _is_xml_part(m.filename, types)]
    size = sum(m.file_size for m in parts)
    if size > MAX_XML_BYTES:
        raise too_large(name, f"{size:,} bytes of XML", "MAX_XML_BYTES", MAX_XML_BYTES)
    elements = 0
    for m in parts:
        try:
            xml = archive.read(m)
        except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError) as exc:
            raise IngestError(f"{name}: corrupt or unreadable {kind}") from exc
        elements += _xml_elements(xml, f"{name}: {m.filename[:100]}")
        if elements > MAX_XML_ELEMENTS:
            raise too_large(name, f"more than {MAX_XML_ELEMENTS:,} XML elements", "MAX_XML_ELEMENTS",
                            MAX_XML_ELEMENTS)


def _xml_elements(xml: bytes, where: str) -> int:
    """How many elements an XML part holds (start and empty tags: a ``<`` that opens no end tag,
    declaration or comment; exact for well-formed XML, which has no bare ``<`` in text), after
    refusing a DTD, entity declarations and encodings other than UTF-8."""
    head = xml[:4]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in head:
        raise RefusedDocument(f"{where} is not UTF-8 XML; refused")
    declared = _XML_ENCODING.match(xml[:300])
    if declared is not None and declared.group(1).strip().lower() not in _PLAIN_ENCODINGS:
        raise RefusedDocument(f"{where} is not UTF-8 XML; refused")
    if b"<!DOCTYPE" in xml or b"<!ENTITY" in xml:
        raise RefusedDocument(f"{where} declares a DTD or XML entities, which documents never need; refused")
    return xml.count(b"<") - xml.count(b"</") - xml.count(b"<?") - xml.count(b"<!")


def _content_types(archive: zipfile.ZipFile, name: str, kind: str) -> dict[str, str]:
    """[Content_Types].xml as ``{"/part/name" or "ext": content type}`` (itself checked first)."""
    try:
        info = archive.getinfo("[Content_Types].xml")
    except KeyError:
        return {}
    if info.file_size > MAX_ZIP_DIRECTORY_BYTES:
        raise too_large(name, f"a [Content_Types].xml of {info.file_size:,} bytes", "MAX_ZIP_DIRECTORY_BYTES",
                        MAX_ZIP_DIRECTORY_BYTES)
    from lxml import etree

    try:
        xml = archive.read(info)
        _xml_elements(xml, f"{name}: [Content_Types].xml")
        root = etree.fromstring(xml, etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False))
    except (zipfile.BadZipFile, ValueError, OSError, EOFError, NotImplementedError, RuntimeError,
            etree.XMLSyntaxError) as exc:
        raise IngestError(f"{name}: corrupt or unreadable {kind}") from exc
    types: dict[str, str] = {}
    for el in root:
        local = etree.QName(el).localname if isinstance(el.tag, str) else ""
        if local == "Default":
            types[(el.get("Extension") or "").lower()] = el.get("ContentType") or ""
        elif local == "Override":
            types[(el.get("PartName") or "").lower()] = el.get("ContentType") or ""
    return types


def _is_xml_part(member: str, types: dict[str, str]) -> bool:
    lower = member.lower()
    if lower.endswith((".xml", ".rels")):
        return True
    kind = types.get("/" + lower) or types.get(lower.rpartition(".")[2] if "." in lower else "", "")
    return kind.endswith("xml") and not kind.startswith("image/")


W_NS = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_RUN, _HYPERLINK, _TEXT = W_NS + "r", W_NS + "hyperlink", W_NS + "t"
_RUN_TEXT = frozenset(W_NS + t for t in ("br", "cr", "noBreakHyphen", "ptab", "t", "tab"))


def _paragraph_text(p: Any) -> str:
    """python-docx's ``Paragraph.text``: its runs' and hyperlinks' runs' text, tabs, breaks and
    no-break hyphens (python-docx's own ``str`` of each), without an XPath query per run (28 s for
    a paragraph of 700,000 runs; this loop: 3 s)."""
    out: list[str] = []
    for child in p:
        if child.tag == _RUN:
            runs: Any = (child,)
        elif child.tag == _HYPERLINK:
            runs = [r for r in child if r.tag == _RUN]
        else:
            continue
        for run in runs:
            for e in run:
                if e.tag == _TEXT:
                    out.append(e.text or "")
                elif e.tag in _RUN_TEXT:
                    out.append(str(e))
    return "".join(out)


def _parse_docx(data: bytes, name: str, stem: str) -> ParsedDoc:
    """Body paragraphs (``Title``/``Heading n`` styles as ``#`` lines) and tables in document order,
    each table in place as a table (``knowledge/ingest/document.py``: a merged cell repeated per column it
    spans, a vertically merged one under the cell it continues). The zip and its XML are checked before
    python-docx reads them, and the paragraphs and cells counted before any is read (see the module
    doc's limits)."""
    import docx
    from docx.enum.style import WD_STYLE_TYPE

    with open_zip(data, name, "DOCX") as archive:
        check_xml_parts(archive, name, "DOCX")
    try:
        document = docx.Document(io.BytesIO(data))
    except Exception as exc:  # python-docx raises zipfile/KeyError/ValueError variants
        raise IngestError(f"{name}: corrupt or unreadable DOCX") from exc
    body = document.element.body
    for tag, limit, what in ((W_NS + "p", MAX_DOCX_PARAGRAPHS, "MAX_DOCX_PARAGRAPHS"),
                             (W_NS + "tc", MAX_DOCX_TABLE_CELLS, "MAX_DOCX_TABLE_CELLS")):
        for _ in itertools.islice(body.iter(tag), limit, None):
            raise too_large(name, f"more than {limit:,} {'paragraphs' if tag.endswith('p') else 'table cells'}",
                            what, limit)
    styles: dict[str | None, str] = {}  # style id → name: python-docx looks a style up by scanning them all

    def style_name(style_id: str | None) -> str:
        if style_id not in styles:
            style = document.part.get_style(style_id, WD_STYLE_TYPE.PARAGRAPH)
            styles[style_id] = (style.name if style is not None else "") or ""
        return styles[style_id]

    doc = DocumentText()
    title = ""
    cells = 0
    try:
        for child in body.iterchildren():
            if doc.chars > MAX_TEXT_CHARS:
                break
            if child.tag == W_NS + "p":
                txt = _paragraph_text(child).strip()
                if not txt:
                    continue
                style = style_name(child.style)
                m = re.match(r"Heading (\d)", style)
                if style == "Title" or m:
                    doc.heading(int(m.group(1)) if m else 1, txt)
                    title = title or txt
                else:
                    doc.paragraph(txt)
            elif child.tag == W_NS + "tbl":
                rows, cells = _docx_rows(child, cells, name)
                doc.table(rows, f"table {len(doc.tables) + 1}")
    except IngestError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError) as exc:  # bad attribute values in the XML
        raise IngestError(f"{name}: corrupt or unreadable DOCX") from exc
    return doc.build(title or stem, "docx")


def _docx_rows(tbl: Any, cells: int, name: str) -> tuple[list[list[str]], int]:
    """A DOCX table's rows of cell texts (merged cells repeated), and the running count of cells."""
    rows: list[list[str]] = []
    above: dict[int, str] = {}  # the row above: grid offset of each cell's start → its text
    for tr in tbl.tr_lst:
        row: list[str] = []
        here: dict[int, str] = {}
        offset = tr.grid_before
        for tc in tr.tc_lst:
            span = max(tc.grid_span, 0)
            cells += span
            if cells > MAX_DOCX_TABLE_CELLS:
                raise too_large(name, f"more than {MAX_DOCX_TABLE_CELLS:,} table cells (merged cells "
                                      "counted per column)", "MAX_DOCX_TABLE_CELLS", MAX_DOCX_TABLE_CELLS)
            if tc.vMerge == "continue":  # the cell above goes on: its text again
                text = above.get(offset, "")
            else:
                text = "\n".join(_paragraph_text(q) for q in tc.p_lst)
            here[offset] = text
            row.extend([text.strip()] * span)
            offset += span
        rows.append(row)
        above = here
    return rows, cells


def render_table(table: Table) -> str:
    """The text rendering of a table: a '# name' heading, then one line per row ("header: value；…。").

    Headers and values are put on one line each (control characters become spaces), so row ``i`` is
    always line ``i + 1`` (see :func:`knowzero.knowledge.index.sqlindex.row_offsets`).
    """
    labels = [c.label for c in table.columns]
    lines = [f"# {one_line(table.name)}"] + [
        "；".join(f"{h}: {one_line(str(v))}" for h, v in zip(labels, r, strict=True) if v is not None).rstrip("。") + "。"
        for r in table.rows
    ]
    return "\n".join(lines)


def _parse_csv(text: str, name: str, stem: str) -> ParsedDoc:
    _check_csv_lines(text, name)
    table = read_csv_table(text, name, stem)
    _check_rendered_size(table, len(text), name)
    # A text rendering (one line per row) so keyword/dense retrieval and citations see the rows too.
    return ParsedDoc(render_table(table), stem, "csv", table)


def _check_csv_lines(text: str, name: str) -> None:
    """At most :data:`MAX_CSV_LINES` lines of at most :data:`MAX_CSV_LINE_CHARS` characters: the csv
    module builds a whole record (a list of every field) before csvtable.py can count its columns,
    and skips blank lines one by one."""
    start, lines = 0, 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > MAX_CSV_LINE_CHARS:
            raise too_large(name, f"a line of {end - start:,} characters", "MAX_CSV_LINE_CHARS", MAX_CSV_LINE_CHARS)
        lines += 1
        if lines > MAX_CSV_LINES:
            raise too_large(name, f"more than {MAX_CSV_LINES:,} lines", "MAX_CSV_LINES", MAX_CSV_LINES)
        start = end + 1


def _check_rendered_size(table: Table, source_chars: int, name: str) -> None:
    """The text rendering repeats every header on every row: refuse one over :data:`MAX_TEXT_CHARS`
    before building it (a few wide headers times 500,000 cells would be 100M characters)."""
    labels = [len(c.label) + 3 for c in table.columns]
    if len(table.rows) * sum(labels) + source_chars <= MAX_TEXT_CHARS:
        return
    size = sum(n for r in table.rows for n, v in zip(labels, r, strict=True) if v is not None) + source_chars
    if size > MAX_TEXT_CHARS:
        raise too_large(name, f"about {size:,} characters of text once each row names its columns",
                        "MAX_TEXT_CHARS", MAX_TEXT_CHARS)
