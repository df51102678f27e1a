"""Searchable before embedded (issue 11): ingest queues embeddings, workers fill them in.

A file is keyword-searchable the moment ingest returns; dense retrieval covers only chunks with
vectors and the retrieval says how many are pending; ``GET /v1/kb/files`` statuses follow
(searchable → embedded, failed with its reason); another process picks up new vectors without a
full reload.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from knowzero.config import Settings
from knowzero.knowledge.answer.retriever import Plan, retrieve
from knowzero.knowledge.ingest.embedqueue import run_worker
from knowzero.knowledge.ingest.queues import open_queue
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine
from kz_testlib import SMALL_DOCS


class BagEncoder:
    """A deterministic stand-in for the e5 model (the queue is under test, not the model)."""

    def __init__(self) -> None:
        self.calls = 0

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(64, dtype=np.float32)
        for ch in text:
            v[ord(ch) % 64] += 1.0
        return v / (np.linalg.norm(v) or 1.0)

    def passages(self, bodies: list[str]) -> np.ndarray:
        self.calls += len(bodies)
        return np.vstack([self._vec(b) for b in bodies])

    def query(self, text: str) -> np.ndarray:
        return self._vec(text)


def _kb(data: Path, enc: BagEncoder) -> KnowledgeBase:
    s = Settings(data_dir=data, database_url="")
    return KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: enc)


def _folder(tmp_path: Path) -> Path:
    docs = tmp_path / "kbdocs"
    for rel, text in SMALL_DOCS.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    (docs / "hr" / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    return docs


def test_searchable_at_once_embedded_by_a_worker(tmp_path: Path) -> None:
    enc = BagEncoder()
    kb = _kb(tmp_path / "data", enc)
    report = kb.ingest_paths([_folder(tmp_path)], collection="c", embed=False)
    assert len(report.added) == 3 and report.queued == report.chunks > 0 and enc.calls == 0
    assert [f["path"] for f in report.failed] == ["kbdocs/hr/broken.pdf"]

    r = retrieve(kb, "零件A的外圆公差", Plan())
    assert r.passages and r.passages[0].passage.path.endswith("零件A-XH-1001工艺说明.md")
    assert "dense" not in r.per_retriever and r.pending_vectors == report.chunks
    status = {f["path"]: f for f in kb.list_files()}
    assert {f["status"] for p, f in status.items() if not p.endswith(".pdf")} == {"searchable"}
    assert status["kbdocs/hr/broken.pdf"]["status"] == "failed" and status["kbdocs/hr/broken.pdf"]["error"]
    assert kb.embedding_status() == {"pending": report.chunks, "failed": 0}

    reader = _kb(tmp_path / "data", enc)  # another process reading the same database
    reader.refresh()
    rev = reader.revision
    done = run_worker(open_queue(kb.engine, kb.settings), enc.passages, batch=2, drain=True)
    assert done == report.chunks and enc.calls == report.chunks
    reader.refresh()
    assert reader.revision == rev, "new vectors alone do not reload the knowledge base"
    assert reader.pending_vectors == 0 and len(reader.dense.ids) == report.chunks
    r2 = retrieve(reader, "零件A的外圆公差", Plan())
    assert r2.per_retriever.get("dense") and r2.pending_vectors == 0
    kb.refresh()
    assert {f["status"] for f in kb.list_files() if not f["path"].endswith(".pdf")} == {"embedded"}

    again = kb.ingest_paths([_folder(tmp_path)], collection="c")
    assert again.queued == 0 and again.embedded == 0 and enc.calls == report.chunks, "nothing is embedded twice"


def test_a_failed_batch_is_retried_then_reported(tmp_path: Path) -> None:
    enc = BagEncoder()
    kb = _kb(tmp_path / "data", enc)
    report = kb.ingest_paths([_folder(tmp_path)], collection="c", embed=False)

    def broken(bodies: list[str]) -> np.ndarray:
        raise RuntimeError("model exploded")

    for _ in range(3):
        run_worker(kb.queue, broken, batch=64, drain=True)
    assert kb.embedding_status() == {"pending": 0, "failed": report.chunks}
    assert kb.pending_vectors == report.chunks  # still keyword-searchable, never dense
