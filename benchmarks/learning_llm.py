"""Learning documents written by the configured chat model: seconds per section and what survives the check.

    KNOWZERO_LLM_PROVIDER=local python benchmarks/learning_llm.py --json
    KNOWZERO_LLM_PROVIDER=local python benchmarks/learning_llm.py CNC维护 主轴 安全生产 --json

For each topic a fresh document is generated on the bundled demo knowledge base (shipped vectors)
with the model the ``KNOWZERO_LLM_*`` settings configure, streaming as the app does (a streaming
model's sections arrive token by token, each sentence checked before it is kept). Figures per
topic and overall:

- ``section_s`` (p50 / max): seconds from the end of one section to the end of the next (the first:
  from the start of the document), ``first_token_s``: start of a section to its first token;
- ``tokens_per_s``: streamed pieces per second of generation (llama.cpp streams one token a piece);
- ``sections_by_model_share``: sections whose text the model wrote, among those it was asked to write (the
  rest fell back to quotes: timeout, a broken stream, or no sentence passed the check), with the fallback
  reasons; after a timeout or a broken stream the rest of that document is not asked
  (``sections_not_asked``, not in the timings);
- ``sentence_kept_share``: model sentences that passed the check (``knowledge/answer/checks/verify.py``) among all
  it wrote, with the most common reasons for dropping one;
- ``model_worded_share``: lines of the finished documents in the model's own wording (the rest are
  quotes: the model copied its evidence, left it out — it is then quoted in its place — or fell back);
- ``evidence_kept_share``: source sentences the documents cite, against the same topics written offline
  (the model words a section, it does not choose its content); ``same_first_sentence_share``: documents
  that open on the same source sentence as offline (the definition or purpose statement);
- ``citation_resolves_share`` / ``cited_sentence_share``: as ``knowzero eval learning`` measures them.

The model is loaded (and for the local model, assembled and hash-checked) before the clock starts;
``load_s`` reports it. Latency depends on the machine and its load: say what the load was.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from knowzero.config import Settings, get_settings
from knowzero.eval.learning import measure_document
from knowzero.knowledge.kb import KnowledgeBase, demo_kb_path
from knowzero.learning.service import LearningService
from knowzero.llm.factory import build_provider
from knowzero.persistence.db import make_engine

TOPICS = ["CNC维护", "主轴", "安全生产"]


def run(topics: list[str], data_dir: Path) -> dict[str, Any]:
    s = get_settings()
    provider = build_provider(s)
    if provider is None:
        raise SystemExit("error: no chat model configured (set KNOWZERO_LLM_PROVIDER=local, or openai with "
                         "KNOWZERO_LLM_BASE_URL and KNOWZERO_LLM_MODEL)")
    t0 = time.perf_counter()
    if hasattr(provider, "load"):
        provider.load()
    load_s = time.perf_counter() - t0
    ks = Settings(data_dir=data_dir, database_url="", llm_timeout_s=s.llm_timeout_s)
    kb = KnowledgeBase(make_engine(ks.db_url), ks)
    kb.ingest_paths([demo_kb_path()], collection="demo")
    svc = LearningService(make_engine(Settings(data_dir=data_dir / "docs", database_url="").db_url), kb=kb,
                          provider=provider, settings=ks)
    offline_svc = LearningService(make_engine(Settings(data_dir=data_dir / "offline", database_url="").db_url), kb=kb,
                                  provider=None, settings=ks)
    rows = []
    for topic in topics:
        t = time.perf_counter()
        last = t
        first_token: float | None = None
        gen_time = 0.0
        pieces = 0
        kept = dropped = 0
        reasons: Counter[str] = Counter()
        sections: list[dict[str, Any]] = []
        doc: dict[str, Any] = {}
        for ev in svc.iter_generate(topic):
            now = time.perf_counter()
            if ev["event"] == "token":
                pieces += 1
                if first_token is None:
                    first_token = now - last
            elif ev["event"] == "sentence":
                if ev["kept"]:
                    kept += 1
                else:
                    dropped += 1
                    reasons[ev["reason"].split(":")[0]] += 1
            elif ev["event"] == "section":
                sections.append({"heading": ev["section"]["heading"], "s": round(now - last, 2),
                                 "first_token_s": round(first_token, 2) if first_token is not None else None,
                                 "method": ev["method"], "note": ev["note"]})
                if ev["method"] == "llm" and first_token is not None:
                    gen_time += now - last - first_token
                last, first_token = now, None
            elif ev["event"] == "done":
                doc = ev["document"]
        m = measure_document(kb, doc) if doc.get("sections") else {"lines": 0, "cited": 0, "citations": 0, "resolved": 0}
        offline = offline_svc.generate(topic)
        first = next((c for sec in doc.get("sections", []) for c in sec["citations"]), None)
        first_off = next((c for sec in offline.get("sections", []) for c in sec["citations"]), None)
        cits = [c for sec in doc.get("sections", []) for c in sec["citations"]]
        rows.append({"topic": topic, "status": doc.get("status"), "seconds": round(time.perf_counter() - t, 2),
                     "sections": sections, "pieces": pieces, "gen_s": round(gen_time, 2),
                     "kept": kept, "dropped": dropped, "drop_reasons": dict(reasons.most_common(4)),
                     "model_worded": sum(c.get("wording") == "model" for c in cits), "lines": len(cits), **m,
                     "offline_lines": sum(len(sec["citations"]) for sec in offline.get("sections", [])),
                     "same_first_source_sentence": bool(first and first_off and first["start"] == first_off["start"]
                                                        and first["source"] == first_off["source"]),
                     "sources_cited": len({(c["source"], c["start"]) for c in cits}),
                     "offline_sources_cited": len({(c["source"], c["start"]) for sec in offline.get("sections", [])
                                                   for c in sec["citations"]}),
                     "sample": "\n".join(f"## {x['heading']}\n{x['markdown']}" for x in doc.get("sections", [])[:2])})
    secs = [x for r in rows for x in r["sections"] if not x["note"].startswith("not asked")]  # the model was called
    by_model = [x for x in secs if x["method"] == "llm"]
    firsts = [x["first_token_s"] for x in secs if x["first_token_s"] is not None]
    out = {"provider": s.llm_provider, "model": getattr(provider, "model_name", s.llm_model),
           "llm_timeout_s": s.llm_timeout_s, "load_s": round(load_s, 2), "topics": topics,
           "sections": len(secs), "sections_not_asked": sum(len(r["sections"]) for r in rows) - len(secs),
           "section_s_p50": round(statistics.median([x["s"] for x in secs]), 2) if secs else None,
           "section_s_max": max((x["s"] for x in secs), default=None),
           "first_token_s_p50": round(statistics.median(firsts), 2) if firsts else None,
           "tokens_per_s": round(sum(r["pieces"] for r in rows) / max(1e-9, sum(r["gen_s"] for r in rows)), 1),
           "sections_by_model_share": round(len(by_model) / len(secs), 4) if secs else 0.0,
           "fallback_notes": dict(Counter(x["note"].split("(")[0].strip() for x in secs if x["method"] != "llm")),
           "sentence_kept_share": round(sum(r["kept"] for r in rows) / max(1, sum(r["kept"] + r["dropped"] for r in rows)), 4),
           "drop_reasons": dict(sum((Counter(r["drop_reasons"]) for r in rows), Counter()).most_common(5)),
           "evidence_kept_share": round(sum(r["sources_cited"] for r in rows) / max(1, sum(r["offline_sources_cited"] for r in rows)), 4),
           "same_first_sentence_share": round(sum(r["same_first_source_sentence"] for r in rows) / max(1, len(rows)), 4),
           "model_worded_share": round(sum(r["model_worded"] for r in rows) / max(1, sum(r["lines"] for r in rows)), 4),
           "cited_sentence_share": round(sum(r["cited"] for r in rows) / max(1, sum(r["lines"] for r in rows)), 4),
           "citation_resolves_share": round(sum(r["resolved"] for r in rows) / max(1, sum(r["citations"] for r in rows)), 4),
           "load_average": os.getloadavg()[0], "_rows": rows}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("topics", nargs="*", default=TOPICS)
    ap.add_argument("--data-dir", type=Path, default=None, help="where the demo knowledge base is built (default: temp)")
    ap.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = ap.parse_args()
    data_dir = args.data_dir or Path(tempfile.mkdtemp(prefix="kz-learning-llm-"))
    res = run(args.topics, data_dir)
    rows = res.pop("_rows")
    for r in rows:
        print(f"{r['topic']}: {r['status']}, {r['seconds']} s, kept {r['kept']} / dropped {r['dropped']} "
              f"{r['drop_reasons']}, model-worded {r['model_worded']}/{r['lines']} lines")
        for x in r["sections"]:
            print(f"  {x['heading'][:20]:<20} {x['s']:>6} s  first token {x['first_token_s']} s  {x['method']} {x['note'][:60]}")
        print("  " + r["sample"].replace("\n", "\n  "))
    print(", ".join(f"{k}={v}" for k, v in res.items()))
    if args.json:
        print(json.dumps(res, ensure_ascii=False))


if __name__ == "__main__":
    main()
