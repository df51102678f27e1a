"""Scale benchmark: ``knowzero bench scale --chunks 1000,10000 --squad FILE --json``.

Per size, a fresh knowledge base (SQLite in a temp dir, or ``--database-url`` for PostgreSQL) is
filled with public Chinese Wikipedia-style paragraphs from SQuAD-format files (CMRC, DRCD),
repeated with a variation marker until the size is reached, then measured:

- ``ingest_searchable_per_s``: chunks made keyword-searchable per second (ingest without embedding);
- ``embed_per_s``: one worker's embedding rate over a short sample of the queue (bundled e5 model),
  through the queue of the mode (SQLite: our table; PostgreSQL: procrastinate), its overhead included;
  ``embed_per_s_2_workers``: two worker processes at once (own model each, same queue), jointly;
- ``query_p50_ms`` / ``query_p95_ms``: one hybrid retrieval (keyword + dense over the chunks that
  have vectors + SQL) for questions of the same files, in a fresh process;
- ``worker_rss_mb``: that process's resident memory after the queries (what an API worker holds);
- ``cold_start_s``: from process start to the first answered retrieval (imports, load, first query).

A benchmark, not a test: figures depend on the machine (report its load beside them).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from knowzero.config import Settings
from knowzero.eval.knowledge import load_squad
from knowzero.eval.metrics import percentile
from knowzero.knowledge.ingest.embedqueue import WorkProgress, run_worker
from knowzero.knowledge.ingest.ingester import shipped_vectors
from knowzero.knowledge.ingest.parsers import ParsedDoc
from knowzero.knowledge.kb import KnowledgeBase, SourceDoc
from knowzero.knowledge.text import tokens
from knowzero.persistence.db import make_engine

CHUNKS_PER_PARAGRAPH = 1.33  # CMRC+DRCD paragraphs at 500-character chunks (measured: 1,674 / 1,256)

_PROBE = """
import json, resource, sys, time
t0 = time.perf_counter()
from pathlib import Path
from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.answer.retriever import Plan, retrieve
from knowzero.persistence.db import make_engine
args = json.loads(sys.argv[1])
s = Settings(data_dir=Path(args["data_dir"]), database_url=args["database_url"])
kb = KnowledgeBase(make_engine(s.db_url), s)
kb.refresh()
retrieve(kb, args["questions"][0], Plan())
cold = time.perf_counter() - t0
times = []
for q in args["questions"]:
    t = time.perf_counter()
    retrieve(kb, q, Plan())
    times.append((time.perf_counter() - t) * 1000)
rss = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
print(json.dumps({"cold_start_s": cold, "times": times, "rss_mb": rss, "pending": kb.pending_vectors}))
"""


_WORKER = """
import json, sys, time
from pathlib import Path
from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine
args = json.loads(sys.argv[1])
s = Settings(data_dir=Path(args["data_dir"]), database_url=args["database_url"])
kb = KnowledgeBase(make_engine(s.db_url), s)
enc = kb.encoder
enc.passages(["预热"])
while time.time() < args["start_at"]:
    time.sleep(0.05)
t0 = time.time()
from knowzero.eval.scale import embed_some
done, _ = embed_some(kb, args["n"])
print(json.dumps({"start": t0, "end": time.time(), "done": done}))
"""


def embed_some(kb: KnowledgeBase, n: int) -> tuple[int, float]:
    """One worker (the real queue: our table on SQLite, procrastinate on PostgreSQL) embedding about
    ``n`` queued chunks, then stopping at a batch boundary: (chunks embedded, seconds)."""
    enc = kb.encoder
    stop = threading.Event()

    def tick(w: WorkProgress) -> None:
        if w.embedded >= n:
            stop.set()

    t0 = time.perf_counter()
    done = run_worker(kb.queue, lambda bodies: enc.passages(bodies), batch=kb.settings.embed_batch, drain=True,
                      stop=stop, idle_s=0.2, progress=tick)
    return done, time.perf_counter() - t0


def _two_workers(data_dir: Path, database_url: str, n: int) -> float | None:
    """Two worker processes embedding ``n`` queued chunks each, started together: joint chunks/s."""
    arg = json.dumps({"data_dir": str(data_dir), "database_url": database_url, "n": n, "start_at": time.time() + 60})
    env = os.environ | {"OMP_NUM_THREADS": "1"}
    procs = [subprocess.Popen([sys.executable, "-c", _WORKER, arg], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env) for _ in range(2)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=1200)
        if p.returncode != 0:
            raise RuntimeError(err[-2000:])
        outs.append(json.loads(out.strip().splitlines()[-1]))
    done = sum(o["done"] for o in outs)
    wall = max(o["end"] for o in outs) - min(o["start"] for o in outs)
    return round(done / wall, 2) if done and wall > 0 else None


def _docs(paragraphs: list[dict[str, str]], n_chunks: int) -> list[SourceDoc]:
    want = int(n_chunks / CHUNKS_PER_PARAGRAPH) + 1
    out: list[SourceDoc] = []
    rep = 0
    while len(out) < want:
        for p in paragraphs:
            if len(out) >= want:
                break
            text = p["context"] if rep == 0 else f"（第{rep}版）{p['context']}"
            title = p["title"] if rep == 0 else f"{p['title']}（第{rep}版）"
            out.append(SourceDoc(f"bench/{rep}/{p['id']}.md", ParsedDoc(text, title, "text"),
                                 hashlib.sha256((title + text).encode()).hexdigest()))
        rep += 1
    return out


def run_size(n_chunks: int, paragraphs: list[dict[str, str]], questions: list[str], *, database_url: str = "",
             embed_sample: int = 48) -> dict[str, Any]:
    data_dir = Path(tempfile.mkdtemp(prefix=f"kz-bench-{n_chunks}-"))
    s = Settings(data_dir=data_dir, database_url=database_url)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    docs = _docs(paragraphs, n_chunks)
    tokens("预热")  # jieba's dictionary loads once per process: not part of the ingest rate
    shipped_vectors()
    t0 = time.perf_counter()
    report = kb.ingest_documents(docs, collection="bench", embed=False)
    ingest_s = time.perf_counter() - t0
    # One worker's rate on a sample of the queue (the full queue would take hours at 0.5 s/chunk),
    # through the queue itself: claim or fetch, embed, store, finish.
    kb.encoder.passages(["预热"])
    embedded, embed_s = embed_some(kb, embed_sample)
    two = _two_workers(data_dir, database_url, embed_sample)
    probe = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(
        {"data_dir": str(data_dir), "database_url": database_url, "questions": questions})],
        capture_output=True, text=True, timeout=600, env=os.environ | {"OMP_NUM_THREADS": "1"})
    if probe.returncode != 0:
        raise RuntimeError(probe.stderr[-2000:])
    res = json.loads(probe.stdout.strip().splitlines()[-1])
    return {"chunks": report.chunks, "files": len(report.added),
            "ingest_searchable_per_s": round(report.chunks / ingest_s, 1),
            "embed_per_s": round(embedded / embed_s, 2) if embedded else None, "embed_per_s_2_workers": two,
            "query_p50_ms": round(percentile(res["times"], 50), 1), "query_p95_ms": round(percentile(res["times"], 95), 1),
            "worker_rss_mb": round(res["rss_mb"], 1), "cold_start_s": round(res["cold_start_s"], 2),
            "embeddings_pending": res["pending"], "mode": "postgresql" if database_url else "sqlite"}


def run_scale(sizes: list[int], squad_files: list[Path], *, database_url: str = "", questions: int = 50,
              embed_sample: int = 48, progress: Any = None) -> dict[str, Any]:
    paragraphs: list[dict[str, str]] = []
    qs: list[str] = []
    for f in squad_files:
        ps, q = load_squad(f)
        paragraphs += ps
        qs += [x["question"] for x in q[:questions]]
    out: dict[str, Any] = {"sizes": {}, "load_avg": os.getloadavg()[0], "cpus": os.cpu_count()}
    for n in sizes:
        if progress:
            progress(f"{n} chunks…")
        url = _fresh_database(database_url) if database_url else ""
        try:
            out["sizes"][str(n)] = run_size(n, paragraphs, qs[:questions], database_url=url, embed_sample=embed_sample)
        finally:
            if url:
                drop_database(url)
    return out


def _fresh_database(url: str) -> str:
    """A new empty database on ``url``'s server (each size starts empty); its URL."""
    import uuid

    import psycopg

    base, _, _ = url.rpartition("/")
    name = f"kz_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def drop_database(url: str) -> None:
    """Drop a database made by :func:`_fresh_database` (connections to it are ended)."""
    import psycopg

    base, _, name = url.rpartition("/")
    if not name.startswith("kz_bench_"):
        raise ValueError(f"not a benchmark database: {name}")
    admin = base.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
