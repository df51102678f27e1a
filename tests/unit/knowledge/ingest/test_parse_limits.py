"""Decompression bombs and other files that expand far past their size (security finding 4): each
format is bounded (knowledge/ingest/parsers.py's MAX_* limits) and refused quickly with DocumentTooLarge
(too_large, 413) or RefusedDocument (a DTD), while real documents — a 300-page policy, a 50,000-row
CSV — still parse; a parse in the worker process is killed at its time or memory limit; and
``knowzero ingest`` names a refused file, goes on with the others and exits 1.

Every bomb is built here, small on disk: the original finding's DOCX (5M empty paragraphs, 45 KB,
30 MB of XML) took 131 s and 2 GB RSS to parse; it is refused now in well under a second.
"""

from __future__ import annotations

import io
import random
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knowzero.errors import IngestError
from knowzero.knowledge.ingest import parse_worker
from knowzero.knowledge.ingest.parsers import DocumentTooLarge, RefusedDocument, parse_bytes, parse_file
from kz_testlib import DATA

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
         '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         '<Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>'
         '<Override PartName="/word/document.xml" '
         'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>'
         '<Override PartName="/word/styles.xml" '
         'ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
        'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
        'Target="word/document.xml"/></Relationships>')
DOC_RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" '
            'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
            '</Relationships>')
STYLES = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="{W}">'
          '<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>'
          '<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>')


def docx(body: str, *, head: str = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>',
         extra: Callable[[zipfile.ZipFile], None] | None = None, encoding: str = "utf-8") -> bytes:
    """A minimal DOCX (content types, relationships, styles, document.xml) around ``body``, deflated."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        z.writestr("[Content_Types].xml", TYPES)
        z.writestr("_rels/.rels", RELS)
        z.writestr("word/_rels/document.xml.rels", DOC_RELS)
        z.writestr("word/styles.xml", STYLES)
        z.writestr("word/document.xml", (head + f'<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>')
                   .encode(encoding))
        if extra is not None:
            extra(z)
    return buf.getvalue()


def para(text: str, style: str = "") -> str:
    props = f'<w:pPr><w:pStyle w:val="{style}"/></w:pPr>' if style else ""
    return f"<w:p>{props}<w:r><w:t>{text}</w:t></w:r></w:p>"


def distinct_paragraphs(n: int) -> bytes:
    rng = random.Random(4)
    return docx("".join(para(f"clause {i} {rng.random():.12f}") for i in range(n)))


def giant_member(z: zipfile.ZipFile) -> None:
    with z.open("word/media/image1.png", "w", force_zip64=True) as f:
        chunk = bytes(16 << 20)
        for _ in range(19):  # 304 MiB of zeros, 1.4 MB deflated
            f.write(chunk)


def members(n: int, name: str = "m{}") -> Callable[[zipfile.ZipFile], None]:
    def add(z: zipfile.ZipFile) -> None:
        for i in range(n):
            z.writestr(name.format(i), b"")
    return add


LOL = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
       + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1 or "") + ";") * 10}">' for i in range(1, 10)) + "]>")

BOMBS: list[tuple[str, str, Callable[[], bytes], type[IngestError], str]] = [
    ("docx, 5M empty paragraphs (the finding)", "bomb.docx", lambda: docx("<w:p/>" * 5_000_000), DocumentTooLarge,
     "MAX_ZIP_RATIO"),
    ("docx, 100,001 distinct paragraphs", "paras.docx", lambda: distinct_paragraphs(100_001), DocumentTooLarge,
     "MAX_DOCX_PARAGRAPHS"),
    ("docx, 1.1M runs in one paragraph", "runs.docx",
     lambda: docx("<w:p>" + "".join(f"<w:r><w:t>{i}</w:t></w:r>" for i in range(1_100_000)) + "</w:p>"),
     DocumentTooLarge, "MAX_XML_ELEMENTS"),
    ("docx, a table of 100,001 cells", "cells.docx",
     lambda: docx("<w:tbl>" + "".join("<w:tr>" + "".join(f'<w:tc><w:tcPr><w:tcW w:w="{r * 10 + c}"/></w:tcPr></w:tc>'
                                                           for c in range(10)) + "</w:tr>" for r in range(10_001))
                  + "</w:tbl>"), DocumentTooLarge, "MAX_DOCX_TABLE_CELLS"),
    ("docx, one cell spanning 2^31 columns", "span.docx",
     lambda: docx('<w:tbl><w:tr><w:tc><w:tcPr><w:gridSpan w:val="2147483647"/></w:tcPr>' + para("x")
                  + "</w:tc></w:tr></w:tbl>"), DocumentTooLarge, "MAX_DOCX_TABLE_CELLS"),
    ("docx, a 304 MiB member", "giant.docx", lambda: docx(para("x"), extra=giant_member), DocumentTooLarge,
     "MAX_ZIP_UNCOMPRESSED_BYTES"),
    ("docx, 2,001 zip members", "members.docx", lambda: docx(para("x"), extra=members(2_001)), DocumentTooLarge,
     "MAX_ZIP_MEMBERS"),
    ("docx, a 2 MB zip directory", "directory.docx",
     lambda: docx(para("x"), extra=members(20_000, "word/media/a-rather-long-member-name-{}.bin")),
     DocumentTooLarge, "MAX_ZIP_DIRECTORY_BYTES"),
    ("docx, entity expansion (billion laughs)", "lol.docx", lambda: docx(para("&lol9;"), head=LOL), RefusedDocument, ""),
    ("docx, a UTF-16 document part", "utf16.docx",
     lambda: docx(para("x"), head='<?xml version="1.0" encoding="UTF-16"?>', encoding="utf-16"), RefusedDocument, ""),
    ("html, 3M empty paragraphs", "empty.html", lambda: ("<html><body>" + "<p></p>" * 3_000_000).encode(),
     DocumentTooLarge, "MAX_HTML_ELEMENTS"),
    ("html, 1M nested divs", "nested.html", lambda: ("<div>" * 1_000_000).encode(), DocumentTooLarge,
     "MAX_HTML_ELEMENTS"),
    ("html, 300 nested divs", "deep.html", lambda: ("<div>" * 300 + "x").encode(), DocumentTooLarge, "MAX_HTML_DEPTH"),
    ("html, one 15 MB text run", "run.html", lambda: b"<p>" + b"a" * 15_000_000, DocumentTooLarge, "html_parser"),
    ("csv, 2M columns", "wide.csv", lambda: ",".join(f"c{i}" for i in range(2_000_000)).encode() + b"\n1\n",
     DocumentTooLarge, "MAX_CSV_LINE_CHARS"),
    ("csv, 5M rows", "long.csv", lambda: b"a,b\n" + b"1,2\n" * 5_000_000, DocumentTooLarge, "MAX_CSV_LINES"),
    ("csv, 200 long headers on 2,400 full rows", "headers.csv",
     lambda: (",".join(f"{'h' * 190}{i:03d}" for i in range(200)) + "\n" + ("1," * 199 + "1\n") * 2_400).encode(),
     DocumentTooLarge, "MAX_TEXT_CHARS"),
    ("text, one 30M-character line", "line.txt", lambda: b"a" * 30_000_000, DocumentTooLarge, "MAX_TEXT_CHARS"),
]


@pytest.mark.parametrize(("name", "build", "error", "limit"), [b[1:] for b in BOMBS], ids=[b[0] for b in BOMBS])
def test_a_bomb_is_refused_quickly_naming_the_file_and_the_limit(name: str, build: Callable[[], bytes],
                                                                 error: type[IngestError], limit: str) -> None:
    data = build()
    t0 = time.perf_counter()
    with pytest.raises(error) as info:
        parse_bytes(data, name)
    assert time.perf_counter() - t0 < 10
    exc = info.value
    assert exc.message.startswith(f"{name}: ") and ("refused" in exc.message or "not ingested" in exc.message)
    if error is DocumentTooLarge:
        assert (exc.code, exc.status, exc.limit) == ("too_large", 413, limit)  # type: ignore[attr-defined]
    else:
        assert (exc.code, exc.status) == ("ingest_error", 422)
        assert "declares a DTD or XML entities" in exc.message or "is not UTF-8 XML" in exc.message


def test_the_findings_docx_is_45_kb_and_refused_before_python_docx_reads_it() -> None:
    data = docx("<w:p/>" * 5_000_000)
    assert len(data) < 60_000
    t0 = time.perf_counter()
    with pytest.raises(DocumentTooLarge, match="bomb.docx: a member .word/document.xml. compressed"):
        parse_bytes(data, "bomb.docx")
    assert time.perf_counter() - t0 < 1


def test_a_file_on_disk_over_the_size_limit_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from knowzero.knowledge.ingest import parsers

    monkeypatch.setattr(parsers, "MAX_FILE_BYTES", 1000)
    (tmp_path / "big.md").write_bytes(b"# x\n" + b"y" * 2000)
    with pytest.raises(DocumentTooLarge, match="big.md: 2,004 bytes"):
        parse_file(tmp_path / "big.md")


# ----------------------------------------------------------------------------- real documents
def test_the_sample_documents_still_parse() -> None:
    assert parse_file(DATA / "sample.docx").title == "Spindle Care"
    assert "Part X-900" in parse_file(DATA / "sample.pdf").text
    assert parse_file(DATA / "products.csv").table is not None
    assert parse_file(DATA / "sample.html").title == "班车时刻"


def test_a_300_page_policy_docx_parses() -> None:
    """About 300 pages: 60 sections of 150 paragraphs in several formatted runs, and a 2,000-row table."""
    run = '<w:r><w:rPr><w:rFonts w:ascii="SimSun"/><w:sz w:val="21"/><w:lang w:eastAsia="zh-CN"/></w:rPr><w:t>{}</w:t></w:r>'
    parts = []
    for s in range(60):
        parts.append(para(f"第{s + 1}章 管理规定", "Heading1"))
        for i in range(150):
            parts.append('<w:p><w:pPr><w:spacing w:after="120"/><w:ind w:firstLine="420"/></w:pPr>'
                         + "".join(run.format(f"第{s + 1}.{i + 1}条第{k}款：员工应当遵守公司的各项规章制度。")
                                   for k in range(4)) + "</w:p>")
    rows = "".join("<w:tr>" + "".join(f"<w:tc>{para(f'r{r}c{c}')}</w:tc>" for c in range(5)) + "</w:tr>"
                   for r in range(2_000))
    data = docx("".join(parts) + f"<w:tbl>{rows}</w:tbl>")
    t0 = time.perf_counter()
    doc = parse_bytes(data, "policy.docx")
    assert time.perf_counter() - t0 < 10
    lines = doc.text.splitlines()
    assert doc.title == "第1章 管理规定" and lines[0] == "# 第1章 管理规定" and len(lines) == 60 * 151 + 1_999
    assert lines[-1] == "r0c0: r1999c0；r0c1: r1999c1；r0c2: r1999c2；r0c3: r1999c3；r0c4: r1999c4。"
    assert len(doc.tables) == 1 and len(doc.tables[0].table.rows) == 1_999


def test_a_50000_row_csv_parses() -> None:
    rows = ["订单号,客户,产品型号,数量,单价_元,金额_元,下单日期,状态,仓库,备注"]
    rows += [f"SO-{i:06d},客户{i % 300},XH-{i % 97:04d},{i % 50 + 1},{(i % 900) / 10 + 1:.2f},{i % 7 * 3.5:.2f},"
             f"2024-{i % 12 + 1:02d}-{i % 28 + 1:02d},已发货,上海{i % 5}号仓,无" for i in range(50_000)]
    doc = parse_bytes("\n".join(rows).encode(), "orders.csv")
    assert doc.table is not None and len(doc.table.rows) == 50_000


def test_merged_table_cells_read_like_python_docx() -> None:
    """A cell spanning two columns is repeated; a vertically merged one repeats the cell above."""
    cell = "<w:tc>{}{}</w:tc>"
    span = '<w:tcPr><w:gridSpan w:val="2"/></w:tcPr>'
    cont = "<w:tcPr><w:vMerge/></w:tcPr>"
    table = ("<w:tbl><w:tr>" + cell.format(span, para("wide")) + cell.format('<w:tcPr><w:vMerge w:val="restart"/>'
             "</w:tcPr>", para("tall")) + "</w:tr><w:tr>" + cell.format("", para("a")) + cell.format("", para("b"))
             + cell.format(cont, "<w:p/>") + "</w:tr></w:tbl>")
    doc = parse_bytes(docx(table), "t.docx")
    assert doc.tables[0].table.rows == [["a", "b", "tall"]]
    assert [c.header for c in doc.tables[0].table.columns] == ["wide", "wide (2)", "tall"]


# ----------------------------------------------------------------------------- the worker process
@pytest.fixture(scope="module")
def slow() -> bytes:
    """A DOCX under every limit that takes about 2 s to parse."""
    return distinct_paragraphs(99_000)


def test_the_worker_parses_like_the_parsers() -> None:
    data = (DATA / "sample.docx").read_bytes()
    assert parse_worker.parse_isolated(data, "sample.docx") == parse_bytes(data, "sample.docx")
    with pytest.raises(IngestError, match="x.docx: corrupt or unreadable DOCX"):
        parse_worker.parse_isolated(b"PK\x03\x04 not a zip", "x.docx")
    with pytest.raises(DocumentTooLarge, match="MAX_ZIP_RATIO"):
        parse_worker.parse_isolated(docx("<w:p/>" * 5_000_000), "bomb.docx")


def test_a_parse_over_its_time_is_killed(slow: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_worker, "PARSE_SECONDS", 0.3)
    t0 = time.perf_counter()
    with pytest.raises(DocumentTooLarge, match="slow.docx: took longer than 0.3 seconds") as info:
        parse_worker.parse_isolated(slow, "slow.docx")
    assert time.perf_counter() - t0 < 1.5 and info.value.limit == "PARSE_SECONDS"


def test_a_parse_over_its_memory_is_stopped(slow: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parse_worker, "PARSE_MEMORY_BYTES", 48 * 1024 * 1024)
    with pytest.raises(DocumentTooLarge, match="slow.docx: needs more than 48 MB of memory") as info:
        parse_worker.parse_isolated(slow, "slow.docx")
    assert info.value.limit == "PARSE_MEMORY_BYTES"


def test_one_worker_parses_a_folder_in_order_and_is_replaced_after_a_file_over_its_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder ingest's worker: files parsed in the order sent, under the same time limit; the worker
    killed for one file is replaced, and the files it still held are parsed by the next one."""
    sample = (DATA / "sample.docx").read_bytes()
    # the worker starts parsing the slow file while the test takes the first result: it must take well over the
    # limit (about 0.9 s here against 0.3 s), and the worker process server is started before the clock runs
    rng = random.Random(4)
    slower = docx("".join(para(" ".join(f"clause {i} {rng.random():.12f}" for _ in range(6))) for i in range(99_000)))
    parse_worker.parse_isolated(sample, "warm.docx")
    files = []
    for name, data in [("a.docx", sample), ("slow.docx", slower), ("b.docx", sample), ("bad.docx", b"PK\x03\x04 x")]:
        files.append(tmp_path / name)
        files[-1].write_bytes(data)
    monkeypatch.setattr(parse_worker, "PARSE_SECONDS", 0.3)
    with parse_worker.ParseWorker() as w:
        for i, f in enumerate(files):
            w.submit(i, f)
        with pytest.raises(ValueError, match="taken in the order submitted"):
            w.result(1)
        assert w.result(0) == parse_bytes(sample, "a.docx")
        with pytest.raises(DocumentTooLarge, match="slow.docx: took longer than 0.3 seconds"):
            w.result(1)
        assert w.result(2) == parse_bytes(sample, "b.docx")
        with pytest.raises(IngestError, match="bad.docx: corrupt or unreadable DOCX"):
            w.result(3)


# ----------------------------------------------------------------------------- knowzero ingest
def test_ingest_names_the_bomb_goes_on_and_exits_non_zero(isolated: Path, tmp_path: Path) -> None:
    from knowzero.cli import app

    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "bomb.docx").write_bytes(docx("<w:p/>" * 5_000_000))
    (folder / "wide.csv").write_bytes(b"a" + b"," * 2_000_000 + b"\n")
    (folder / "good.md").write_text("# 好文件\n\n这是可以导入的内容。\n", encoding="utf-8")
    t0 = time.perf_counter()
    r = CliRunner().invoke(app, ["ingest", str(folder), "--no-embed"], prog_name="knowzero")
    assert time.perf_counter() - t0 < 60
    assert r.exit_code == 1, r.output
    failed = [line for line in r.stderr.splitlines() if line.startswith("failed: ")]
    assert any(f.startswith("failed: bomb.docx: a member (word/document.xml) compressed") and "MAX_ZIP_RATIO" in f
               for f in failed), failed
    assert any(f.startswith("failed: wide.csv: a line of 2,000,001 characters") for f in failed), failed
    assert r.stdout.strip().splitlines()[-1].startswith("added 1, updated 0, unchanged 0, removed 0, skipped 0, failed 2")
    assert "Traceback" not in r.output


def test_an_xlsx_merging_a_whole_sheet_is_refused_before_openpyxl_loads_it() -> None:
    """A 5 KB workbook whose merged range covers 17 billion cells (openpyxl makes an object per merged cell:
    1.6 GB and a minute before the memory limit stopped it) is refused from its XML."""
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active.append(["a", "b"])
    wb.active.merge_cells("A2:B3")
    buf = io.BytesIO()
    wb.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(buf) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            body = src.read(item)
            dst.writestr(item, body.replace(b'ref="A2:B3"', b'ref="A2:XFD1048575"'))
    data = out.getvalue()
    assert len(data) < 10_000
    with pytest.raises(DocumentTooLarge, match="merged ranges over 17,179,836,416 cells") as info:
        parse_bytes(data, "far.xlsx")
    assert info.value.limit == "MAX_SHEET_CELLS"


def test_an_image_past_pillows_own_bomb_limit_names_the_pixel_limit() -> None:
    """A PNG whose header says 30,000 × 30,000 pixels: Pillow refuses to open it (its decompression-bomb
    guard); the message is the pixel limit's, not "corrupt or unreadable"."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 30000, 30000, 8, 0, 0, 0, 0)) + chunk(b"IEND", b"")
    with pytest.raises(DocumentTooLarge, match="MAX_IMAGE_PIXELS"):
        parse_bytes(png, "bomb.png")
