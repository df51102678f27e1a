"""Parsers: every supported format to text (CSV to a typed table); bad files raise IngestError
naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.errors import IngestError
from knowzero.knowledge.ingest.parsers import decode, parse_bytes, parse_file

DATA = Path(__file__).parents[3] / "data"


def test_markdown_title_from_first_heading() -> None:
    doc = parse_file(DATA / "sample.md")
    assert doc.kind == "markdown" and doc.title == "零件Q 工艺说明"
    assert "零件Q的外圆公差为±0.02mm。" in doc.text


def test_markdown_without_heading_uses_the_file_stem_and_crlf_is_normalised() -> None:
    doc = parse_bytes("第一行\r\n第二行\r\n".encode(), "说明.txt")
    assert doc.title == "说明" and doc.kind == "text" and doc.text == "第一行\n第二行\n"


def test_gb18030_text() -> None:
    doc = parse_file(DATA / "gb18030.txt")
    assert doc.text == "主轴预热时间为十分钟。精加工前必须完成预热。"


@pytest.mark.parametrize("data", ["中文".encode("utf-8-sig"), "中文".encode("utf-16"), "中文".encode("gb18030")])
def test_decode_encodings(data: bytes) -> None:
    assert decode(data, "x.txt") == "中文"


def test_html_drops_scripts_and_navigation_and_keeps_headings() -> None:
    doc = parse_file(DATA / "sample.html")
    assert doc.kind == "html" and doc.title == "班车时刻"
    assert doc.text.splitlines() == ["# 班车时刻", "早班车 7:30 从人民广场出发。", "晚班车 18:00 返回。"]
    for junk in ("var x", "color:red", "menu", "copyright"):
        assert junk not in doc.text


def test_pdf_text() -> None:
    doc = parse_file(DATA / "sample.pdf")
    assert doc.kind == "pdf" and doc.title == "sample"
    assert "Part X-900 shaft tolerance is 0.02 mm." in doc.text


def test_docx_headings_paragraphs_and_tables() -> None:
    doc = parse_file(DATA / "sample.docx")
    assert doc.kind == "docx" and doc.title == "Spindle Care"
    assert doc.text.splitlines() == ["# Spindle Care", "## Daily",
                                     "Warm up the spindle for 10 minutes before precision work.",
                                     "Item: Grease；Interval: 500 h。"]
    assert [(t.table.columns[0].header, t.table.rows) for t in doc.tables] == [("Item", [["Grease", "500 h"]])]
    assert doc.text[doc.tables[0].start:doc.tables[0].end] == "Item: Grease；Interval: 500 h。"


def test_csv_becomes_a_typed_table_and_a_text_rendering() -> None:
    doc = parse_file(DATA / "products.csv")
    assert doc.kind == "csv" and doc.table is not None
    assert doc.table.name == "products"
    assert [(c.header, c.type) for c in doc.table.columns] == [
        ("型号", "TEXT"), ("名称", "TEXT"), ("单价", "REAL"), ("库存", "INTEGER")]
    assert [c.name for c in doc.table.columns] == ["c1", "c2", "c3", "c4"], "SQL names are generated"
    assert doc.table.rows[0] == ["XH-1001", "精密传动轴", 1280.5, 12]
    assert doc.table.rows[2][3] is None  # empty cell
    lines = doc.text.splitlines()
    assert lines[0] == "# products" and len(lines) == 4
    assert lines[1] == "型号: XH-1001；名称: 精密传动轴；单价: 1280.5；库存: 12。"


@pytest.mark.parametrize(("name", "data"), [("a.md", b"# T\x00itle\n\nhello\x00world\n"),
                                          ("a.txt", b"T\x00itle\n\nhello\x00world\n"),
                                          ("a.html", b"<h1>T\x00itle</h1><p>hello\x00world</p>")])
def test_nul_characters_never_reach_the_text(name: str, data: bytes) -> None:
    doc = parse_bytes(data, name)
    assert "\x00" not in doc.text and "\x00" not in doc.title and "world" in doc.text


def test_csv_with_semicolons_and_header_only() -> None:
    doc = parse_bytes(b"a;b\n1;x\n2;y\n", "t.csv")
    assert doc.table is not None and [(c.header, c.type) for c in doc.table.columns] == [("a", "INTEGER"), ("b", "TEXT")]
    with pytest.raises(IngestError, match="header row"):
        parse_bytes(b"a,b\n", "t.csv")


@pytest.mark.parametrize(("name", "message"), [
    ("corrupt.pdf", "corrupt.pdf: corrupt or unreadable PDF"),
    ("empty.txt", "empty.txt: empty file"),
    ("blank.md", "blank.md: empty file"),
    ("binary.txt", "binary.txt"),
])
def test_bad_files_raise_ingest_error_naming_the_file(name: str, message: str) -> None:
    with pytest.raises(IngestError) as info:
        parse_file(DATA / name)
    assert info.value.message.startswith(message)
    assert info.value.code == "ingest_error" and info.value.status == 422


def test_corrupt_docx_and_truncated_pdf() -> None:
    with pytest.raises(IngestError, match="x.docx: corrupt"):
        parse_bytes(b"PK\x03\x04 not really a zip", "x.docx")
    good = (DATA / "sample.pdf").read_bytes()
    with pytest.raises(IngestError):
        doc = parse_bytes(good[: len(good) // 3], "cut.pdf")
        if not doc.text.strip():
            raise IngestError("cut.pdf: no text")


def test_unsupported_and_missing(tmp_path: Path) -> None:
    (tmp_path / "a.exe").write_bytes(b"MZ")
    with pytest.raises(IngestError, match="unsupported file type .exe"):
        parse_file(tmp_path / "a.exe")
    with pytest.raises(IngestError, match="cannot be read"):
        parse_file(tmp_path / "missing.md")
    with pytest.raises(IngestError, match="unsupported"):
        parse_bytes(b"x", "noext")


def test_unknown_encoding_is_reported() -> None:
    with pytest.raises(IngestError, match="unknown text encoding"):
        decode(b"\x81\x30\xff\xff" * 10 + bytes(range(0, 32)) * 3, "odd.txt")
