"""Real documents (issue 29): PDFs with pages and layout, tables in place and queryable, XLSX, PPTX,
scans and images read by OCR, pages in citations and in the file list. The documents are generated
(tests/realdocs.py); the OCR tests run the bundled engine and are ``slow``."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.errors import IngestError
from knowzero.knowledge.ingest.document import page_at
from knowzero.knowledge.ingest.parsers import DocumentTooLarge, parse_bytes
from realdocs import HEADER, scanned_pdf, slides_pptx, table_xlsx, text_png, two_column_pdf

ALLOWANCE = ("Employees who live more than 50 km from the office may claim a coworking allowance of 120 euros "
             "per month, paid with the salary of the following month.")
RECEIPTS = ("The allowance covers desk rental only; meals, parking and equipment are reimbursed under the travel "
            "policy instead. Receipts must be uploaded within thirty days.")
FILLER = "Every team keeps its own calendar of office days and shares it with the people team each quarter."
RATES = [["Grade", "Monthly euros", "Region"], ["A", "120", "North"], ["B", "150", "South"]]


def handbook() -> bytes:
    return two_column_pdf([("Coworking allowance", [ALLOWANCE, RECEIPTS] + [FILLER] * 14),
                           ("Travel", [FILLER] * 6 + [RECEIPTS])], tables=[("Allowance rates", RATES)])


def test_two_column_pdf_reads_whole_sentences_in_order_without_running_headers() -> None:
    doc = parse_bytes(handbook(), "handbook.pdf")
    lines = doc.text.splitlines()
    assert ALLOWANCE in lines and RECEIPTS in lines, "lines broken inside sentences are joined, hyphens removed"
    assert HEADER not in doc.text and "Page 1" not in doc.text and "Page 2" not in doc.text
    assert lines[:2] == ["# Northwind Handbook", "## Coworking allowance"]
    assert "## Travel" in lines and lines.index("## Coworking allowance") < lines.index("## Travel")
    assert len(doc.pages) >= 2 and doc.pages[0] == 0 and doc.kind == "pdf" and doc.title == "Northwind Handbook"
    assert page_at(doc.pages, doc.text.index(ALLOWANCE)) == 1


def test_a_sentence_broken_across_columns_and_pages_is_one_line() -> None:
    long_para = " ".join(f"Clause {i} says the rule applies to site {i} and its visitors" for i in range(200)) + "."
    doc = parse_bytes(two_column_pdf([("Rules", [long_para])]), "rules.pdf")
    assert long_para in doc.text.splitlines()
    assert len(doc.pages) >= 2, "the paragraph runs over more than one page"


def test_pdf_table_is_kept_in_place_and_structured() -> None:
    doc = parse_bytes(handbook(), "handbook.pdf")
    assert len(doc.tables) == 1
    placed = doc.tables[0]
    assert [c.header for c in placed.table.columns] == ["Grade", "Monthly euros", "Region"]
    assert placed.table.rows == [["A", 120, "North"], ["B", 150, "South"]]
    assert doc.text[placed.start:placed.end].splitlines() == ["Grade: A；Monthly euros: 120；Region: North。",
                                                              "Grade: B；Monthly euros: 150；Region: South。"]
    assert placed.page == len(doc.pages) and page_at(doc.pages, placed.start) == placed.page
    assert doc.text.index("## Allowance rates") < placed.start


def test_a_pdf_table_without_rules_is_read_as_a_table_and_two_columns_of_prose_are_not() -> None:
    rows = [*RATES, ["C", "90", "East side office"]]
    doc = parse_bytes(two_column_pdf([("Coworking allowance", [ALLOWANCE, RECEIPTS] + [FILLER] * 14)],
                                     tables=[("Allowance rates", rows)], ruled=False), "unruled.pdf")
    assert len(doc.tables) == 1, "the prose of both columns (lines at the same heights, at two x) is no table"
    placed = doc.tables[0]
    assert [c.header for c in placed.table.columns] == ["Grade", "Monthly euros", "Region"]
    assert placed.table.rows == [["A", 120, "North"], ["B", 150, "South"], ["C", 90, "East side office"]]
    assert doc.text[placed.start:placed.end].splitlines()[-1] == "Grade: C；Monthly euros: 90；Region: East side office。"
    assert ALLOWANCE in doc.text.splitlines() and RECEIPTS in doc.text.splitlines()
    two = parse_bytes(two_column_pdf([("Rules", [FILLER] * 30)], tables=[("Codes", [["Code", "Meaning"], ["AB", "Annual"],
                                                                                    ["SL", "Sick"]])], ruled=False),
                      "codes.pdf")
    assert [t.table.rows for t in two.tables] == [[["AB", "Annual"], ["SL", "Sick"]]]


def test_html_and_markdown_tables_stand_where_they_are() -> None:
    html = (b"<html><body><h1>Rates</h1><p>Before the table.</p><table><tr><th>Grade</th><th>Euros</th></tr>"
            b"<tr><td>A</td><td>120</td></tr></table><p>After the table.</p></body></html>")
    doc = parse_bytes(html, "rates.html")
    assert doc.text.splitlines() == ["# Rates", "Before the table.", "Grade: A；Euros: 120。", "After the table."]
    assert doc.tables[0].table.rows == [["A", 120]]
    md = "# Rates\n\nBefore.\n\n| Grade | Euros |\n|---|---:|\n| A | 120 |\n| B | 150 |\n\nAfter.\n"
    doc = parse_bytes(md.encode(), "rates.md")
    assert doc.text == md.rstrip("\n"), "Markdown stays as written (the reader reads pipe rows as sentences)"
    assert doc.tables[0].table.rows == [["A", 120], ["B", 150]]
    assert doc.text[doc.tables[0].start:doc.tables[0].end].splitlines() == ["| A | 120 |", "| B | 150 |"]
    assert parse_bytes(b"# Plain\n\nno | table here\n", "plain.md").tables == []


def test_xlsx_sheets_become_tables_with_merged_headers_and_cached_formula_values() -> None:
    data = table_xlsx([("Rates", [["Grade", "North", "South"], ["A", 120, 130], ["B", 150, 160]])],
                      merged_header=True, formula=True)
    doc = parse_bytes(data, "rates.xlsx")
    assert doc.kind == "xlsx" and doc.text.splitlines()[0] == "# Rates"
    table = doc.tables[0].table
    assert [c.header for c in table.columns] == ["Grade", "North", "Allowance South", "Allowance Double"]
    assert table.rows[0][0] == "A" and table.rows[0][-1] == 240, "a formula is read as its cached value"
    assert not doc.warnings


def test_pptx_slides_are_sections_with_notes_and_slide_numbers() -> None:
    data = slides_pptx([("Welcome", ["Northwind onboarding"], ""),
                        ("Coworking", ["The allowance is 120 euros a month.", "Only beyond 50 km."], "Mention receipts.")])
    doc = parse_bytes(data, "deck.pptx")
    lines = doc.text.splitlines()
    assert lines == ["# Slide 1: Welcome", "Northwind onboarding", "# Slide 2: Coworking",
                     "The allowance is 120 euros a month.", "Only beyond 50 km.", "Notes: Mention receipts."]
    assert page_at(doc.pages, doc.text.index("Only beyond")) == 2 and doc.kind == "pptx"


def test_bad_office_files_and_images_are_refused_clearly() -> None:
    with pytest.raises(IngestError, match="corrupt or unreadable XLSX"):
        parse_bytes(b"PK\x05\x06" + b"\x00" * 18, "x.xlsx")
    with pytest.raises(IngestError, match="corrupt or unreadable image"):
        parse_bytes(b"\x89PNG\r\n\x1a\nnot really", "x.png")
    with pytest.raises(IngestError, match="corrupt or unreadable PDF"):
        parse_bytes(b"%PDF-1.7\nnot really a pdf", "x.pdf")


def test_an_image_past_the_pixel_limit_is_refused_before_it_is_decoded() -> None:
    import io

    from PIL import Image
    buf = io.BytesIO()
    Image.new("1", (9000, 9000)).save(buf, "PNG")
    with pytest.raises(DocumentTooLarge, match="MAX_IMAGE_PIXELS"):
        parse_bytes(buf.getvalue(), "huge.png")


@pytest.mark.slow
def test_a_scanned_pdf_is_read_by_ocr_with_its_pages_marked() -> None:
    pages = [["Coworking allowance", "Employees who live more than 50 km from the", "office may claim 120 euros per month."],
             ["Travel", "Receipts must be uploaded within thirty days."]]
    doc = parse_bytes(scanned_pdf(pages), "scan.pdf")
    assert doc.ocr_pages == [1, 2] and len(doc.pages) == 2
    assert "more than 50 km from the office may claim 120 euros" in doc.text, doc.text
    assert page_at(doc.pages, doc.text.index("thirty days")) == 2


@pytest.mark.slow
def test_a_png_notice_is_read_by_ocr() -> None:
    doc = parse_bytes(text_png("The parking gate code changes every Monday and is sent by email."), "notice.png")
    assert doc.kind == "image" and doc.ocr_pages == [1]
    assert "parking gate code changes every Monday" in doc.text, doc.text


def test_kb_keeps_pages_tables_and_layout(tmp_path: Path) -> None:
    from kz_testlib import make_kb

    kb = make_kb(tmp_path / "data")
    report = kb.ingest_bytes("handbook.pdf", handbook(), collection="team", embed=False)
    assert not report.failed, report.failed
    chunks = kb.document_chunks("team/handbook.pdf")
    assert all(c.page is not None for c in chunks) and {c.page for c in chunks} >= {1, 2}
    first = next(c for c in chunks if "50 km" in c.text)
    assert first.page == 1 and not first.ocr
    assert kb.sql is not None
    rows = kb.sql.query("Which grade has the highest Monthly euros?", 3)
    assert rows and rows[0][0].text.startswith("Grade: B") and rows[0][0].page == len(doc_pages(kb))
    listed = next(f for f in kb.list_files() if f["path"] == "team/handbook.pdf")
    assert listed["pages"] == len(doc_pages(kb)) and listed["tables"] == 1 and listed["ocr_pages"] == []
    assert listed["warnings"] == []
    kb.refresh(force=True)  # loaded again from the database: pages come back
    assert kb.passage(first.id).page == 1


def test_a_folder_ingest_reports_each_page_it_reads(tmp_path: Path) -> None:
    """``knowzero ingest``'s progress: a PDF's pages as they are read, then the file done."""
    from knowzero.knowledge.kb import IngestProgress
    from kz_testlib import make_kb

    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "handbook.pdf").write_bytes(handbook())
    (folder / "note.md").write_text("# Note\n\nThe car park opens at 6:30.\n", "utf-8")
    seen: list[IngestProgress] = []
    report = make_kb(tmp_path / "data").ingest_paths([folder], collection="team", embed=False, on_progress=seen.append)
    assert not report.failed and len(report.added) == 2
    pages = len(doc_pages(None))
    reading = [(p.current, p.page, p.pages) for p in seen if p.pages]
    assert reading == [("docs/handbook.pdf", n, pages) for n in range(1, pages + 1)] and pages >= 2
    assert [(p.files_done, p.current) for p in seen if not p.pages] == [(1, "docs/handbook.pdf"), (2, "docs/note.md")]


def doc_pages(kb) -> list[int]:  # type: ignore[no-untyped-def]
    return parse_bytes(handbook(), "handbook.pdf").pages


def test_citations_carry_the_page(tmp_path: Path) -> None:
    from knowzero.knowledge.answer.policy import Verdict
    from knowzero.knowledge.answer.reader import Claim, Draft
    from knowzero.knowledge.answer.reply import citations_for
    from kz_testlib import make_kb

    kb = make_kb(tmp_path / "data")
    kb.ingest_bytes("handbook.pdf", handbook(), collection="team", embed=False)
    chunk = next(c for c in kb.document_chunks("team/handbook.pdf") if "Travel" in c.section)
    draft = Draft("x", [Claim(chunk.text[:20], chunk.path, chunk.text[:20], chunk.start, chunk.start + 20, chunk.id)])
    cites = citations_for(draft, Verdict("supported", "", [], 1.0, False), kb.passage)
    assert cites[0]["page"] == chunk.page and cites[0]["page"] >= 1 and cites[0]["ocr"] is False
    # a quote further into a passage than a page break is cited with the page it is on
    pages = doc_pages(kb)
    first = next(c for c in kb.document_chunks("team/handbook.pdf") if c.page == 1)
    later = pages[1] + 3
    claim = Claim("x", first.path, "x", later, later + 1, first.id)
    cited = citations_for(Draft("x", [claim]), Verdict("supported", "", [], 1.0, False), kb.passage, kb.page_of)
    assert cited[0]["page"] == 2 and kb.page_of(first.path, 0) == 1 and kb.page_of("team/nothing.md", 5) is None


@pytest.mark.slow
def test_ocr_in_a_parse_worker_reports_each_page_and_gets_time_per_page(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three scanned pages take longer than PARSE_SECONDS together but not each: the worker reports every page
    and is given PARSE_SECONDS again after each one (without that it was killed as a runaway parse)."""
    import time

    from knowzero.knowledge.ingest import parse_worker

    data = scanned_pdf([["Page one says the gate closes at nine."], ["Page two says visitors sign in."],
                        ["Page three says badges are returned."]])
    t0 = time.perf_counter()
    parse_worker.parse_isolated(scanned_pdf([["Warm up."]]), "warm.pdf")  # the engine's first load is not measured
    one_page = time.perf_counter() - t0
    monkeypatch.setattr(parse_worker, "PARSE_SECONDS", max(one_page * 1.8, 3.0))
    seen: list[tuple[int, int]] = []
    doc = parse_worker.parse_isolated(data, "scan.pdf", lambda page, pages: seen.append((page, pages)))
    assert seen == [(1, 3), (2, 3), (3, 3)] and doc.ocr_pages == [1, 2, 3]
    assert "visitors sign in" in doc.text


def test_a_document_with_two_tables_stores_both_and_an_old_database_is_migrated(tmp_path: Path) -> None:
    """kb_tables had a unique path (one table per file): a DOCX with two tables failed to ingest."""
    from sqlalchemy import text

    from knowzero.knowledge.index.tables import migrate_many_tables_per_document
    from kz_testlib import make_kb

    html = (b"<html><body><h1>Rates</h1><table><tr><th>Grade</th><th>Euros</th></tr><tr><td>A</td><td>120</td></tr>"
            b"</table><p>Between.</p><table><tr><th>Site</th><th>Desks</th></tr><tr><td>North</td><td>40</td></tr>"
            b"</table></body></html>")
    kb = make_kb(tmp_path / "data")
    report = kb.ingest_bytes("rates.html", html, collection="team", embed=False)
    assert not report.failed, report.failed
    assert kb.sql is not None and len([t for t in kb.sql.tables if t.path == "team/rates.html"]) == 2
    assert kb.sql.query("Which site has the highest Desks?", 3)[0][0].text == "Site: North；Desks: 40。"
    with kb.engine.begin() as conn:  # an older database: the unique path is back, with its rows
        conn.execute(text("CREATE TABLE old_t AS SELECT * FROM kb_tables"))
        conn.execute(text("DROP TABLE kb_tables"))
        conn.execute(text("CREATE TABLE kb_tables (name VARCHAR(200) PRIMARY KEY, path VARCHAR(1000) NOT NULL, "
                          "collection VARCHAR(200) NOT NULL, columns TEXT NOT NULL, span_start INTEGER, span_end INTEGER, "
                          "page INTEGER, CONSTRAINT uq_kb_tables_path UNIQUE (path))"))
        conn.execute(text("INSERT INTO kb_tables SELECT * FROM old_t WHERE name = (SELECT min(name) FROM old_t)"))
        migrate_many_tables_per_document(conn)
        conn.execute(text("INSERT INTO kb_tables SELECT * FROM old_t WHERE name = (SELECT max(name) FROM old_t)"))
        assert conn.execute(text("SELECT count(*) FROM kb_tables WHERE path = 'team/rates.html'")).scalar() == 2


def test_a_link_in_a_folder_is_not_followed(tmp_path: Path) -> None:
    """A folder ingest reads the folder's own files: a symbolic link could point anywhere the ingesting
    user may read (/etc/passwd named passwd.txt). Named on the command line, the file is read."""
    from kz_testlib import make_kb

    outside = tmp_path / "secret.txt"
    outside.write_text("root:x:0:0:root:/root:/bin/bash\n", "utf-8")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nThe car park opens at 6:30.\n", "utf-8")
    (folder / "passwd.txt").symlink_to(outside)
    kb = make_kb(tmp_path / "data")
    report = kb.ingest_paths([folder], collection="team", embed=False)
    assert report.added == ["docs/note.md"]
    assert report.skipped == [{"path": "docs/passwd.txt", "reason": "symbolic link (not followed; name the file itself)"}]
    assert kb.ingest_paths([folder / "passwd.txt"], collection="team", embed=False).added == ["passwd.txt"]


def test_wide_line_spacing_and_bold_headings_of_body_size() -> None:
    """Lines set 1.5 apart are still one paragraph (only a clearly larger gap ends it), and a short bold line
    of the body's size standing alone is a heading, not the first words of the paragraph under it."""
    import textwrap

    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="pt")
    pdf.add_page()
    y = 60.0
    for heading, para in [("Coworking allowance", ALLOWANCE), ("Receipts", RECEIPTS), ("Calendars", FILLER)]:
        pdf.set_font("Helvetica", "B", 13)
        pdf.text(50, y, heading)
        y += 20
        pdf.set_font("Helvetica", "", 13)
        for line in textwrap.wrap(para, 40):
            pdf.text(50, y, line)
            y += 20  # 13 pt type on 20 pt lines
        y += 26
    doc = parse_bytes(bytes(pdf.output()), "spaced.pdf")
    lines = doc.text.splitlines()
    assert ALLOWANCE in lines and RECEIPTS in lines and FILLER in lines
    assert "# Coworking allowance" in lines and "# Receipts" in lines


def test_two_columns_of_chinese_prose_are_no_table() -> None:
    """Chinese lines are short in characters (24 to a column line) but fill their column: no table."""
    from knowzero.knowledge.ingest.pdfparse import Run, _aligned_tables

    line = "员工连续工作满一年的可享受带薪年休假具体天数按"  # 23 characters, the width of the column
    runs = [Run(x, 700 - 14 * i, x + 238, 710 - 14 * i, line, 10) for i in range(8) for x in (50, 307)]
    tables, rest = _aligned_tables(runs)
    assert tables == [] and len(rest) == len(runs)
    cells = [Run(x, 700 - 14 * i, x + w, 710 - 14 * i, t, 10) for i in range(4)
             for x, w, t in ((50, 40, f"甲{i}"), (307, 60, f"{i * 100}元"))]
    assert [rows for _top, rows in _aligned_tables(cells)[0]] == [[["甲0", "0元"], ["甲1", "100元"], ["甲2", "200元"],
                                                                  ["甲3", "300元"]]]


def test_chinese_wrapped_inside_a_number_is_joined_without_a_space() -> None:
    """Chinese is wrapped anywhere, inside a number too: "20" + "08年" is 2008年; English lines join with a space."""
    from knowzero.knowledge.ingest.pdfparse import _join

    assert _join("2008年，欧盟批准了猴面包树果实。20", "09年美国也批准了") == "2008年，欧盟批准了猴面包树果实。2009年美国也批准了"
    assert _join("The allowance is 120", "euros per month") == "The allowance is 120 euros per month"


def _long_table_pdf(repeat_headings: int) -> bytes:
    from fpdf import FPDF
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(0, 8, "Charges for breaking the rules.\n" * 18)
    with pdf.table(repeat_headings=repeat_headings) as table:
        for cells in [["Breach", "Charge"], *([f"Breach number {i}", f"GBP {10 * i}"] for i in range(1, 31))]:
            row = table.row()
            for c in cells:
                row.cell(c)
    return bytes(pdf.output())


@pytest.mark.parametrize("repeat_headings", [0, 1])
def test_a_table_a_page_break_cuts_in_two_is_one_table(repeat_headings: int) -> None:
    doc = parse_bytes(_long_table_pdf(repeat_headings), "charges.pdf")
    assert len(doc.pages) >= 2, "the table runs over the page break"
    assert len(doc.tables) == 1
    placed = doc.tables[0]
    assert [c.header for c in placed.table.columns] == ["Breach", "Charge"]
    assert len(placed.table.rows) == 30 and placed.table.rows[-1] == ["Breach number 30", "GBP 300"]
    assert "Breach: Breach number 30；Charge: GBP 300。" in doc.text.splitlines()
