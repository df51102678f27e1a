"""The embedding queue on PostgreSQL: concurrent workers never share a job; the knowledge base on
PostgreSQL is keyword-searchable before its vectors exist, then searches them with pgvector (issue 11)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import text

from knowzero.config import Settings
from knowzero.knowledge.answer.retriever import Plan, retrieve
from knowzero.knowledge.index.dense import PgVectorIndex
from knowzero.knowledge.ingest.embedqueue import run_worker
from knowzero.knowledge.ingest.queues import open_queue
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine

pytestmark = pytest.mark.postgres


def _enc(bodies: list[str]) -> np.ndarray:
    out = np.zeros((len(bodies), 64), dtype=np.float32)
    for i, b in enumerate(bodies):
        for ch in b:
            out[i, ord(ch) % 64] += 1
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)


class Enc:
    def passages(self, bodies: list[str]) -> np.ndarray:
        return _enc(bodies)

    def query(self, text: str) -> np.ndarray:
        return _enc([text])[0]


def test_workers_share_no_job_on_postgres(pg_url: str, tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "data", database_url=pg_url)
    enc = Enc()
    kb = KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: enc)
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(30):
        (docs / f"d{i}.md").write_text(f"# 文档{i}\n\n第{i}号零件的外圆公差为±0.0{i % 9 + 1}mm。\n", encoding="utf-8")
    report = kb.ingest_paths([docs], collection="c", embed=False)
    assert report.queued == 30
    r = retrieve(kb, "第7号零件的外圆公差", Plan())
    assert r.passages[0].passage.path == "docs/d7.md" and r.pending_vectors == 30

    seen: list[list[str]] = []

    def encode_and_log(bodies: list[str]) -> np.ndarray:
        seen.append(bodies)
        return _enc(bodies)

    with ThreadPoolExecutor(3) as pool:
        done = list(pool.map(lambda w: run_worker(open_queue(kb.engine, s), encode_and_log, batch=4, drain=True,
                                                  who=f"test:{w}"), range(3)))
    flat = [b for batch in seen for b in batch]
    assert sum(done) == 30 and len(flat) == len(set(flat)) == 30, "every job embedded exactly once"
    kb.refresh()
    assert kb.pending_vectors == 0
    assert {f["status"] for f in kb.list_files()} == {"embedded"}
    # Dense search runs in the database (pgvector HNSW): the process holds no matrix.
    assert isinstance(kb.dense, PgVectorIndex) and len(kb.dense.ids) == 30
    r = retrieve(kb, "第7号零件的外圆公差", Plan(strategy="vector"))
    assert r.per_retriever.get("dense") and r.pending_vectors == 0
    assert kb.dense.similarity(enc.query("第7号零件"), r.passages[0].passage.id) > 0
    kb.delete_file("docs/d7.md")
    assert len(kb.dense.ids) == 29, "a deleted file's vectors go with it"


def test_two_jobs_naming_one_chunk_embed_it_once(pg_url: str, tmp_path: Path) -> None:
    """Concurrent ingests of the same new text can each defer a job for it: the per-key advisory
    lock still lets only one worker embed it, and the other job skips it once its vector is stored."""
    import threading
    import time

    s = Settings(data_dir=tmp_path / "data", database_url=pg_url, embed_batch=4)
    kb = KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: Enc())
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(6):
        (docs / f"d{i}.md").write_text(f"# 文档{i}\n\n第{i}号零件的外圆公差为±0.0{i + 1}mm。\n", encoding="utf-8")
    kb.ingest_paths([docs], collection="c", embed=False)
    keys = sorted(kb.queue.queued_keys())
    with kb.engine.begin() as conn:  # the same keys queued again, as a racing ingest would
        kb.queue.enqueue(conn, dict.fromkeys(keys, ""), dedupe=False)  # type: ignore[attr-defined]
    assert kb.embedding_status()["pending"] == 2 * len(keys)
    seen: list[str] = []
    lock = threading.Lock()

    def slow(bodies: list[str]) -> np.ndarray:
        time.sleep(0.05 * len(bodies))
        with lock:
            seen.extend(bodies)
        return _enc(bodies)

    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda w: run_worker(open_queue(kb.engine, s), slow, batch=4, drain=True), range(2)))
    assert len(seen) == len(set(seen)) == len(keys), "each chunk embedded once although two jobs named it"
    assert kb.embedding_status() == {"pending": 0, "failed": 0}


def test_schema_is_applied_once_when_workers_start_together(pg_url: str, tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "data", database_url=pg_url)
    engine = make_engine(s.db_url)
    KnowledgeBase(engine, s)  # the knowledge base's own tables
    with ThreadPoolExecutor(4) as pool:
        queues = list(pool.map(lambda _: open_queue(make_engine(s.db_url), s), range(4)))
    assert all(q.stats().pending == 0 for q in queues)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM pg_tables WHERE tablename = 'procrastinate_jobs'")).scalar() == 1
