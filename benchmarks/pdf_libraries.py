"""PDF libraries compared on a generated two-column PDF (issue 29): pages/s, peak RSS, whether a sentence
broken over lines comes out on one line. One library per process (RSS is the process's peak):

    python benchmarks/pdf_libraries.py ours          # pypdfium2 + knowledge/ingest/pdfparse.py (the project's venv)
    python benchmarks/pdf_libraries.py pypdfium2-raw
    python benchmarks/pdf_libraries.py pypdf         # in a venv with pypdf 7.1.1 (not a dependency)
    python benchmarks/pdf_libraries.py pdfplumber    # in a venv with pdfplumber 0.11.10 (not a dependency)

The document: tests/realdocs.py's two_column_pdf, 60 sections of three paragraphs, a ruled table.
"""

from __future__ import annotations

import io
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
import realdocs  # noqa: E402

PARA = ("Employees who live more than 50 km from the office may claim a coworking allowance of 120 euros per month, "
        "paid with the salary of the following month. Receipts for travel expenses must be uploaded within thirty days.")


def main(which: str) -> None:
    data = realdocs.two_column_pdf([(f"Section {k}", [PARA, PARA, PARA]) for k in range(60)],
                                   tables=[("Rates", [["Grade", "Euros"], ["A", "120"], ["B", "150"]])])
    if which == "pypdf":
        from pypdf import PdfReader

        def run() -> tuple[int, str]:
            r = PdfReader(io.BytesIO(data))
            return len(r.pages), "\n".join(p.extract_text() for p in r.pages)
    elif which == "pdfplumber":
        import pdfplumber

        def run() -> tuple[int, str]:
            with pdfplumber.open(io.BytesIO(data)) as pdf:
                for p in pdf.pages:
                    p.extract_tables()
                return len(pdf.pages), "\n".join((p.extract_text() or "") for p in pdf.pages)
    elif which == "pypdfium2-raw":
        import pypdfium2 as pdfium

        def run() -> tuple[int, str]:
            pdf = pdfium.PdfDocument(data)
            return len(pdf), "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    elif which == "ours":
        from knowzero.knowledge.ingest.parsers import parse_bytes

        def run() -> tuple[int, str]:
            d = parse_bytes(data, "x.pdf")
            return len(d.pages), d.text
    else:
        raise SystemExit(f"unknown library {which}")
    run()  # warm: imports, first-call set-up
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        pages, text = run()
        best = min(best, time.perf_counter() - t0)
    print(json.dumps({"lib": which, "pages": pages, "seconds": round(best, 3), "pages_per_s": round(pages / best, 1),
                      "maxrss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                      "sentence_on_one_line": PARA in text.split("\n")}))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ours")
