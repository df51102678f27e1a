"""Chinese paragraphs as a two-column PDF against the same paragraphs as text (issue 29, Chinese side).

    python benchmarks/realdocs_zh.py --squad ../shared/eval-data/cmrc2018/cmrc2018_trial.json --paragraphs 12

Takes ``--paragraphs`` paragraphs of a SQuAD-format file (seeded shuffle), renders them into one A4
two-column PDF (22 characters to a line, so numbers and words break across lines; a running header and a
page footer) with a CJK TrueType font (default: WenQuanYi Micro Hei, which ``scripts/test.sh`` installs as
``fonts-wqy-microhei``), and as one .txt per paragraph; ingests each with ``knowzero ingest`` into its own
collection of a fresh data directory; asks every question of the paragraphs in-process, scoped to the
collection. "Right" = not declined, cited, and the gold answer in the reply. Prints one JSON line:
``{"text_right", "pdf_right", "questions", "pdf_vs_text", "pdf_citations_with_page"}``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

FONT = "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"


def render(paras: list[str], font: str) -> bytes:
    from fpdf import FPDF

    pdf = FPDF(format="A4", unit="pt")
    pdf.set_auto_page_break(False)
    pdf.add_font("cjk", "", font)
    width, height, margin, gutter, leading = 595.28, 841.89, 50.0, 24.0, 15.0
    col_w = (width - 2 * margin - gutter) / 2
    top, bottom = 90.0, height - 70
    state = {"col": 0, "y": top, "page": 0}

    def new_page() -> None:
        pdf.add_page()
        state.update(page=state["page"] + 1, col=0, y=top)
        pdf.set_font("cjk", "", 8)
        pdf.text(width / 2 - 60, 50, "内部资料 请勿外传")
        pdf.text(width / 2 - 10, height - 40, f"第 {state['page']} 页")

    def line(text: str) -> None:
        if state["y"] > bottom:
            if state["col"] == 0:
                state.update(col=1, y=top)
            else:
                new_page()
        pdf.set_font("cjk", "", 10)
        pdf.text(margin + state["col"] * (col_w + gutter), state["y"], text)
        state["y"] += leading

    new_page()
    for p in paras:
        flat = p.replace("\n", "")
        for i in range(0, len(flat), 22):
            line(flat[i:i + 22])
        state["y"] += 8
    return bytes(pdf.output())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--squad", required=True, type=Path)
    ap.add_argument("--paragraphs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--font", default=FONT)
    args = ap.parse_args()
    if not Path(args.font).is_file():
        raise SystemExit(f"no CJK font at {args.font} (install fonts-wqy-microhei or pass --font)")
    data = json.loads(args.squad.read_text("utf-8"))
    paras = [p for a in data["data"] for p in a["paragraphs"]]
    random.Random(args.seed).shuffle(paras)
    paras = paras[:args.paragraphs]
    work = Path(tempfile.mkdtemp(prefix="kz-realdocs-zh-"))
    (work / "text").mkdir()
    (work / "pdf").mkdir()
    for i, p in enumerate(paras):
        (work / "text" / f"p{i}.txt").write_text(p["context"], "utf-8")
    (work / "pdf" / "paragraphs.pdf").write_bytes(render([p["context"] for p in paras], args.font))
    env = {**os.environ, "KNOWZERO_DATA_DIR": str(work / "data")}
    env.pop("KNOWZERO_DATABASE_URL", None)
    exe = str(Path(sys.executable).with_name("knowzero"))
    for kind in ("text", "pdf"):
        subprocess.run([exe, "ingest", str(work / kind), "--collection", kind, "--json"], env=env, check=True,
                       capture_output=True)
    os.environ["KNOWZERO_DATA_DIR"] = str(work / "data")
    from knowzero import cli as kcli
    from knowzero.config import Settings
    from knowzero.knowledge.answer.pipeline import answer_in_either

    deps = kcli.build_deps(Settings(), classifier=False)
    deps.need_kb()
    questions = [(q["question"], q["answers"][0]["text"]) for p in paras for q in p["qas"]]
    right = {"text": 0, "pdf": 0}
    cites = paged = 0
    for kind in right:
        for question, gold in questions:
            out = asyncio.run(answer_in_either(question, deps.scoped([kind]).knowledge(), deps.lexicon)).to_public()
            right[kind] += bool(out["verdict"] != "insufficient" and out["citations"] and gold in out["answer"])
            if kind == "pdf":
                cites += len(out["citations"])
                paged += sum(c.get("page") is not None for c in out["citations"])
    print(json.dumps({"text_right": right["text"], "pdf_right": right["pdf"], "questions": len(questions),
                      "pdf_vs_text": round(right["pdf"] / max(right["text"], 1), 3),
                      "pdf_citations_with_page": round(paged / max(cites, 1), 3), "workdir": str(work)}))


if __name__ == "__main__":
    main()
