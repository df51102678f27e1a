"""Keyword retrieval recall@k on a SQuAD-format file (CMRC 2018 trial, DRCD dev).

Every paragraph is chunked as ingest chunks it (500 characters, 80 overlap; source = paragraph
id); each question's gold is its paragraph. A question counts at k when one of the top-k chunks
comes from the gold paragraph. Keyword retriever only: no dense, no fusion, no entity filter.

    python benchmarks/keyword_recall.py ../shared/eval-data/cmrc2018/cmrc2018_trial.json --json
    python benchmarks/keyword_recall.py ../shared/eval-data/drcd/DRCD_dev.json --engine fts5

Engines: ``index`` (the knowledge base's keyword index on a fresh SQLite database: FTS5 since
issue 11), ``postgres`` (the same on ``--database-url``), ``numpy`` (the hand-written BM25 it
replaced; only importable on code from before issue 11).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from knowzero.eval.knowledge import load_squad
from knowzero.knowledge.ingest.chunker import chunk_text
from knowzero.knowledge.types import Passage

KS = (1, 5, 20)


def passages_of(paragraphs: list[dict[str, str]]) -> list[Passage]:
    out: list[Passage] = []
    seen: set[str] = set()
    for p in paragraphs:
        for c in chunk_text(p["context"], source=p["id"], title=p["title"], max_chars=500, overlap=80):
            if c.id not in seen:
                seen.add(c.id)
                out.append(Passage(c.id, p["id"], c.title, c.section, c.text, c.start, c.end, "general", "pool"))
    return out


def build(engine: str, passages: list[Passage], database_url: str) -> Any:
    if engine == "numpy":
        from knowzero.knowledge.index.keyword import BM25Index  # type: ignore[attr-defined]

        return BM25Index.build(passages)
    from sqlalchemy import create_engine

    from knowzero.knowledge.index import keyword

    if engine == "postgres":  # a fresh database on that server (the index is emptied first)
        from knowzero.eval.scale import _fresh_database

        url = _fresh_database(database_url).replace("postgresql://", "postgresql+psycopg://", 1)
    else:
        url = f"sqlite:///{tempfile.mkdtemp()}/recall.db"
    db = create_engine(url)
    idx = keyword.open_index(db)
    idx.reset()
    idx.add(passages)
    return idx


def run(path: Path, engine: str, database_url: str = "", limit: int | None = None) -> dict[str, Any]:
    paragraphs, questions = load_squad(path)
    if limit:
        questions = questions[:limit]
    passages = passages_of(paragraphs)
    path_of = {p.id: p.path for p in passages}
    t0 = time.perf_counter()
    idx = build(engine, passages, database_url)
    build_s = time.perf_counter() - t0
    hits = dict.fromkeys(KS, 0)
    times: list[float] = []
    for q in questions:
        t = time.perf_counter()
        res = idx.search(q["question"], max(KS))
        times.append((time.perf_counter() - t) * 1000)
        paths = [path_of[h.id] for h in res]
        for k in KS:
            hits[k] += q["gold"] in paths[:k]
    if engine == "postgres":
        from knowzero.eval.scale import drop_database

        idx.engine.dispose()
        drop_database(idx.engine.url.render_as_string(hide_password=False))
    n = len(questions)
    return {"file": path.name, "engine": engine, "questions": n, "chunks": len(passages),
            **{f"recall@{k}": round(hits[k] / n, 4) for k in KS},
            "build_s": round(build_s, 2), "query_p50_ms": round(statistics.median(times), 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("squad", type=Path)
    ap.add_argument("--engine", default="index", choices=["index", "postgres", "numpy"])
    ap.add_argument("--database-url", default="postgresql://postgres@127.0.0.1:5432/test")
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r = run(a.squad, a.engine, a.database_url, a.limit)
    print(json.dumps(r, ensure_ascii=False) if a.json else "\n".join(f"{k}: {v}" for k, v in r.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
