"""The embedding queue on PostgreSQL: concurrent workers never share a job; the knowledge base on
PostgreSQL is keyword-searchable before its vectors exist, then searches them with pgvector (issue 11)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from knowzero.config import Settings
from knowzero.knowledge.dense import PgVectorIndex
from knowzero.knowledge.embedqueue import open_queue, run_worker
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.retriever import Plan, retrieve
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
