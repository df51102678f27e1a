"""Real documents benchmark (issue 29): the same question–paragraph pairs rendered into six kinds of file,
ingested with the CLI, and asked; answer rate per kind against plain text, PDF citations with a page, and
ingest speed of text PDFs (pages/s searchable) and of scanned pages (OCR pages/s).

    python benchmarks/realdocs.py                 # all kinds, prints a table and one JSON line
    python benchmarks/realdocs.py --kinds text,pdf --pdf-pages 300

Kinds: ``text`` (one .txt per paragraph, the baseline), ``pdf`` (two-column PDFs with running headers and
footers, lines broken inside sentences, hyphenated words), ``scan`` (the paragraphs as page images in PDFs
with no text layer), ``png`` (one PNG photo per paragraph), ``table`` (DOCX and XLSX with each paragraph in a
table cell beside its topic), ``pptx`` (a slide per paragraph: the topic as title, the text as bullets).
"Answered" is a confirmed or uncertain answer whose reply contains the gold words; a question counts for
its kind only. The questions and paragraphs are written for this benchmark (fictional company, CC0).
Documents are built by tests/realdocs.py (fpdf2, Pillow, openpyxl, python-pptx, python-docx).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import realdocs  # noqa: E402

PAIRS: list[tuple[str, str, str, str]] = [
    # (topic, paragraph, question, gold words)
    ("Coworking allowance", "Employees who live more than 50 km from the office may claim a coworking allowance of "
     "120 euros per month, paid with the salary of the following month.",
     "How much is the coworking allowance for employees living more than 50 km away?", "120 euros"),
    ("Receipts", "Receipts for travel expenses must be uploaded to the expense portal within thirty days of the "
     "end of the trip, otherwise the claim is refused.", "Within how many days must travel receipts be uploaded?",
     "thirty days"),
    ("Parking", "The underground car park opens at 6:30 and closes at 22:00; visitors park on level minus two "
     "and register their plate at reception.", "When does the underground car park open?", "6:30"),
    ("Laptops", "Every new employee receives a laptop on the first day; it is replaced after four years or when "
     "a repair would cost more than half of its value.", "After how many years is a laptop replaced?", "four years"),
    ("Night shifts", "Night shifts between 22:00 and 6:00 are paid with a premium of 25 percent on the hourly rate, "
     "and no employee works more than four night shifts in a row.", "What premium is paid for night shifts?",
     "25 percent"),
    ("Fire drills", "A fire drill takes place twice a year, in March and in October, and the assembly point is the "
     "north lawn beside the bicycle shelter.", "Where is the assembly point during a fire drill?", "north lawn"),
    ("Training budget", "Each team member has a training budget of 1,500 euros per calendar year; unused budget "
     "does not carry over to the next year.", "How large is the yearly training budget per team member?",
     "1,500 euros"),
    ("Remote work", "Remote work is allowed on up to three days per week after the probation period, with the "
     "agreement of the team lead.", "How many days per week is remote work allowed?", "three days"),
    ("Probation", "The probation period lasts six months for permanent contracts and one month for internships; "
     "notice during probation is two weeks.", "How long is the probation period for permanent contracts?",
     "six months"),
    ("Sick leave", "Sick leave of more than three consecutive days requires a doctor's certificate sent to the "
     "people team by email.", "When is a doctor's certificate required for sick leave?", "more than three"),
    ("Bicycle lease", "The bicycle lease programme pays up to 2,000 euros towards an electric bicycle over a "
     "lease of thirty-six months.", "How much does the bicycle lease programme pay towards an electric bicycle?",
     "2,000 euros"),
    ("Canteen", "The canteen serves lunch from 11:45 to 14:00 and a vegetarian menu is offered every day at "
     "the same price.", "Until when does the canteen serve lunch?", "14:00"),
    ("Badges", "Lost access badges are replaced by the security desk for a fee of 15 euros, and the old badge is "
     "blocked within one hour.", "What is the fee for replacing a lost access badge?", "15 euros"),
    ("Overtime", "Overtime must be approved in advance by the team lead and is compensated as time off within "
     "three months.", "Within how long is overtime compensated as time off?", "three months"),
    ("Parental leave", "Parents receive twenty days of paid parental leave in addition to the statutory leave, to "
     "be taken within the first year.", "How many days of paid parental leave do parents receive?",
     "twenty days"),
    ("Server room", "Access to the server room requires two-factor authentication and is logged; the temperature "
     "is kept at 21 degrees.", "At what temperature is the server room kept?", "21 degrees"),
    ("Phones", "Company phones are renewed every three years and personal use is allowed up to 10 gigabytes of "
     "data per month.", "How much monthly data may be used privately on a company phone?", "10 gigabytes"),
    ("Mentors", "Every new hire is paired with a mentor from another team for the first ninety days.",
     "For how long is a new hire paired with a mentor?", "ninety days"),
    ("Holidays", "Full-time employees have twenty-eight days of annual holiday, and at most five days may be "
     "carried over to the end of March.", "How many days of annual holiday do full-time employees have?",
     "twenty-eight days"),
    ("Visitors", "Visitors sign in at reception, wear a yellow badge and are accompanied by their host at all "
     "times inside the building.", "What colour badge do visitors wear?", "yellow"),
]


def paragraphs_of(pairs: list[tuple[str, str, str, str]]) -> list[tuple[str, str]]:
    return [(topic, para) for topic, para, _, _ in pairs]


def build(kind: str, folder: Path, pairs: list[tuple[str, str, str, str]]) -> int:
    """Write ``kind``'s files into ``folder``; returns how many pages (PDF pages, images) were written."""
    folder.mkdir(parents=True, exist_ok=True)
    paras = paragraphs_of(pairs)
    groups = [paras[i:i + 5] for i in range(0, len(paras), 5)]
    pages = 0
    if kind == "text":
        for i, (topic, para) in enumerate(paras):
            (folder / f"note{i:02d}.txt").write_text(f"{topic}\n\n{para}\n", encoding="utf-8")
    elif kind == "pdf":
        for i, g in enumerate(groups):
            data = realdocs.two_column_pdf([(topic, [para, FILLER]) for topic, para in g], title=f"Handbook part {i + 1}")
            (folder / f"handbook{i}.pdf").write_bytes(data)
            pages += _pdf_pages(data)
    elif kind == "scan":
        import textwrap
        for i, g in enumerate(groups):
            page_lines = [[topic, *textwrap.wrap(para, 60), ""] for topic, para in g]
            lines = [ln for block in page_lines for ln in block]
            data = realdocs.scanned_pdf([lines[:40], lines[40:]] if len(lines) > 40 else [lines])
            (folder / f"scan{i}.pdf").write_bytes(data)
            pages += _pdf_pages(data)
    elif kind == "png":
        for i, (_, para) in enumerate(paras):
            (folder / f"notice{i:02d}.png").write_bytes(realdocs.text_png(para))
            pages += 1
    elif kind == "table":
        half = len(paras) // 2
        (folder / "rules.docx").write_bytes(_docx_table(paras[:half]))
        (folder / "rules.xlsx").write_bytes(realdocs.table_xlsx([("Rules", [["Topic", "Rule"], *map(list, paras[half:])])]))
    elif kind == "pptx":
        slides = [(topic, [s.strip() + "." for s in para.rstrip(".").split(", ")], "") for topic, para in paras]
        (folder / "deck.pptx").write_bytes(realdocs.slides_pptx(slides))
    else:
        raise ValueError(kind)
    return pages


FILLER = ("Questions about this section go to the people team, who answer within two working days and keep the "
          "handbook up to date for every office.")


def _pdf_pages(data: bytes) -> int:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return len(pdf)
    finally:
        pdf.close()


def _docx_table(rows: list[tuple[str, str]]) -> bytes:
    import docx

    d = docx.Document()
    d.add_heading("Workplace rules", 1)
    table = d.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "Topic", "Rule"
    for topic, para in rows:
        cells = table.add_row().cells
        cells[0].text, cells[1].text = topic, para
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def ingest(folder: Path, data_dir: Path, collection: str, embed: bool = True) -> tuple[float, dict[str, object]]:
    """``knowzero ingest`` in a subprocess: (seconds, its JSON report)."""
    env = {**os.environ, "KNOWZERO_DATA_DIR": str(data_dir)}
    env.pop("KNOWZERO_DATABASE_URL", None)
    t0 = time.perf_counter()
    exe = str(Path(sys.executable).with_name("knowzero"))
    out = subprocess.run([exe, "ingest", str(folder), "--collection", collection,
                          "--json", *([] if embed else ["--no-embed"])],
                         capture_output=True, text=True, env=env, check=False)
    seconds = time.perf_counter() - t0
    line = next((ln for ln in reversed(out.stdout.splitlines()) if ln.startswith("{")), "{}")
    if out.returncode not in (0, 1):
        raise SystemExit(f"ingest failed: {out.stderr[-2000:]}")
    return seconds, json.loads(line)


def ask_all(data_dir: Path, kinds: list[str], pairs: list[tuple[str, str, str, str]]) -> dict[str, dict[str, object]]:
    os.environ["KNOWZERO_DATA_DIR"] = str(data_dir)
    from knowzero.config import Settings
    from knowzero.eval.knowledge import ask
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    deps = KnowledgeDeps(kb, s)
    out: dict[str, dict[str, object]] = {}

    async def run() -> None:
        for kind in kinds:
            right = answered = 0
            misses = []
            for _, _, question, gold in pairs:
                a = await ask(question, deps, [kind])
                ok = a["level"] != "insufficient"
                answered += ok
                hit = ok and _norm(gold) in _norm(a["reply"])
                right += hit
                if not hit:
                    misses.append(question)
            out[kind] = {"questions": len(pairs), "answered": answered, "right": right,
                         "answer_rate": round(right / len(pairs), 3), "misses": misses[:5]}

    asyncio.run(run())
    return out


def page_share(data_dir: Path, kinds: list[str], pairs: list[tuple[str, str, str, str]]) -> dict[str, float]:
    """Share of the citations of answers over PDFs (``pdf``, ``scan``) that carry a page number."""
    from knowzero.config import Settings
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.answer.pipeline import answer
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    shares: dict[str, float] = {}

    async def run() -> None:
        from dataclasses import replace
        for kind in kinds:
            total = with_page = 0
            for _, _, question, _ in pairs:
                a = await answer(question, replace(KnowledgeDeps(kb, s), collections=(kind,)))
                for c in a.citations:
                    total += 1
                    with_page += c.get("page") is not None
            shares[kind] = round(with_page / total, 3) if total else 0.0

    asyncio.run(run())
    return shares


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace("\u00a0", " "))


def speed(pages: int, workdir: Path) -> dict[str, float]:
    """Ingest pages/s of text PDFs (keyword-searchable, --no-embed) and of scanned PDFs (OCR, one worker)."""
    import textwrap
    para = PAIRS[0][1] + " " + PAIRS[1][1]
    text_dir, scan_dir = workdir / "speed-pdf", workdir / "speed-scan"
    text_dir.mkdir(parents=True, exist_ok=True)
    scan_dir.mkdir(parents=True, exist_ok=True)
    made = 0
    i = 0
    while made < pages:
        data = realdocs.two_column_pdf([(f"Section {i}.{k}", [para, FILLER, para]) for k in range(12)],
                                       title=f"Policy {i}")
        (text_dir / f"policy{i}.pdf").write_bytes(data)
        made += _pdf_pages(data)
        i += 1
    lines = [ln for _ in range(6) for ln in textwrap.wrap(para, 60)]
    scan_pages = 10
    (scan_dir / "scan.pdf").write_bytes(realdocs.scanned_pdf([lines[:40]] * scan_pages))
    t_text, rep = ingest(text_dir, workdir / "speed-data", "speed", embed=False)
    t_scan, rep2 = ingest(scan_dir, workdir / "speed-data", "speedscan", embed=False)
    work_text = float(rep.get("elapsed_ms") or 0) / 1000 or t_text  # type: ignore[arg-type]
    work_scan = float(rep2.get("elapsed_ms") or 0) / 1000 or t_scan  # type: ignore[arg-type]
    return {"text_pdf_pages": made, "text_pdf_wall_s": round(t_text, 2), "text_pdf_ingest_s": round(work_text, 2),
            "text_pdf_pages_per_s": round(made / work_text, 1), "text_pdf_pages_per_s_wall": round(made / t_text, 1),
            "scan_pages": scan_pages, "scan_ingest_s": round(work_scan, 2), "ocr_pages_per_s": round(scan_pages / work_scan, 3),
            "failed": len(rep.get("failed", [])) + len(rep2.get("failed", []))}  # type: ignore[arg-type]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kinds", default="text,pdf,scan,png,table,pptx")
    ap.add_argument("--pdf-pages", type=int, default=200, help="pages of text PDFs for the speed figure (0: skip)")
    ap.add_argument("--workdir", type=Path, default=None)
    args = ap.parse_args()
    kinds = args.kinds.split(",")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="kz-realdocs-"))
    data_dir = work / "data"
    result: dict[str, object] = {"workdir": str(work)}
    ingest_s: dict[str, float] = {}
    for kind in kinds:
        pages = build(kind, work / "docs" / kind, PAIRS)
        seconds, report = ingest(work / "docs" / kind, data_dir, kind)
        ingest_s[kind] = round(seconds, 1)
        if report.get("failed"):
            print(f"{kind}: failed {report['failed']}", file=sys.stderr)
        print(f"{kind}: ingested {pages or ''} in {seconds:.1f} s", file=sys.stderr)
    rates = ask_all(data_dir, kinds, PAIRS)
    base = rates.get("text", {}).get("answer_rate") or None
    for kind, r in rates.items():
        r["vs_text"] = round(float(r["answer_rate"]) / float(base), 2) if base else None  # type: ignore[arg-type]
        r["ingest_s"] = ingest_s[kind]
    result["kinds"] = rates
    pdf_kinds = [k for k in kinds if k in ("pdf", "scan")]
    if pdf_kinds:
        result["pdf_citations_with_page"] = page_share(data_dir, pdf_kinds, PAIRS)
    if args.pdf_pages:
        result["speed"] = speed(args.pdf_pages, work)
    for kind, r in rates.items():
        print(f"{kind:6} answer_rate {r['answer_rate']:.3f}  vs text {r['vs_text']}  ingest {r['ingest_s']} s",
              file=sys.stderr)
    print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
