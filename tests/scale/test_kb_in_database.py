"""PostgreSQL mode holds no per-corpus copy, and answers as embedded mode does (issue 11).

The bundled demo knowledge base (with its shipped vectors, so nothing is embedded here) is ingested
into SQLite and into a throw-away PostgreSQL database with pgvector; every demo question must get
the same answer, verdict, citations and retrieved passages in both modes, and the document list
(statuses, counts, flags) must agree. In PostgreSQL mode the knowledge base's rows are views over
the database (the memory figure itself is measured by ``knowzero bench scale``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from knowzero.config import Settings
from knowzero.knowledge.index.dbviews import ChunkView, FileTextView
from knowzero.knowledge.index.dense import PgVectorIndex
from knowzero.knowledge.kb import KnowledgeBase, demo_kb_path
from knowzero.learning.compose import file_sentences, plan_document
from knowzero.learning.entities import kb_terms
from knowzero.persistence.db import make_engine
from kz_testlib import answer_dict

pytestmark = pytest.mark.postgres


def _kb(tmp: Path, url: str = "") -> KnowledgeBase:
    s = Settings(data_dir=tmp, database_url=url)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.ingest_paths([demo_kb_path()], collection="demo", embed=False)
    return kb


def _summary(out: dict) -> dict:  # type: ignore[type-arg]
    return {"reply": out["reply"], "level": out["verdict"]["level"],
            "citations": [(c["source"], c["start"], c["end"]) for c in out["citations"]],
            "passages": [(p["source"], p["start"], p["end"]) for p in out["passages"]]}  # SQL table names are random


def test_postgres_mode_answers_like_embedded_mode_without_holding_the_corpus(pg_url: str, tmp_path: Path) -> None:
    lite = _kb(tmp_path / "lite")
    pg = _kb(tmp_path / "pg", pg_url)
    if not isinstance(pg.dense, PgVectorIndex):
        pytest.skip("pgvector is not installed (scripts/install_pgvector.sh)")
    assert isinstance(pg.passages, ChunkView) and isinstance(pg.file_texts, FileTextView)
    assert not pg.collections and not pg.domains, "no id sets per collection or domain in memory"
    assert len(pg.passages) == len(lite.passages) > 0 and pg.pending_vectors == lite.pending_vectors == 0

    questions = [json.loads(line)["question"] for line in
                 (demo_kb_path() / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(questions) >= 10
    for q in questions:
        a, b = asyncio.run(answer_dict(q, lite)), asyncio.run(answer_dict(q, pg))
        assert _summary(b) == _summary(a), q

    strip = ("ingested_at",)
    files = [{k: v for k, v in f.items() if k not in strip} for f in lite.list_files()]
    assert [{k: v for k, v in f.items() if k not in strip} for f in pg.list_files()] == files

    # A second worker process sees the same corpus through the database, nothing loaded up front.
    other = KnowledgeBase(make_engine(pg.settings.db_url), pg.settings)
    other.refresh()
    some = next(iter(lite.passages.values()))
    assert other.passage(some.id) == some and other.chunks_of(some.path) == lite.chunks_of(some.path)
    assert other.file_texts[some.path] == lite.file_texts[some.path]
    assert other.document_titles() == lite.document_titles()


def test_per_request_paths_never_scan_the_corpus(pg_url: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A document's chunk view, a learning document and the entity index read what they need by path or
    title; none of them streams every chunk through the worker (its memory must not grow with the corpus)."""
    pg = _kb(tmp_path / "pg", pg_url)
    lite = _kb(tmp_path / "lite")
    some = next(iter(lite.passages.values()))

    def no_scan(self: ChunkView) -> None:
        raise AssertionError("a per-request path streamed every chunk")

    monkeypatch.setattr(ChunkView, "values", no_scan)
    monkeypatch.setattr(ChunkView, "items", no_scan)
    assert pg.chunks_of(some.path) == lite.chunks_of(some.path)
    assert kb_terms(pg).keys() == kb_terms(lite).keys() != set()
    assert file_sentences(pg, some.path) == file_sentences(lite, some.path)
    a, b = plan_document(pg, "主轴"), plan_document(lite, "主轴")
    assert a.sufficient and [(k, h, [c.text for c in cs]) for k, h, cs in a.groups] == \
        [(k, h, [c.text for c in cs]) for k, h, cs in b.groups]


def test_restricting_to_everything_is_no_filter(pg_url: str, tmp_path: Path) -> None:
    pg = _kb(tmp_path / "pg", pg_url)
    lite = _kb(tmp_path / "lite")
    assert pg.allowed_ids(("demo",), None) is None, "every passage is in 'demo': search unfiltered"
    assert pg.allowed_ids(("other",), None) == lite.allowed_ids(("other",), None) == frozenset()
    pg_ids, lite_ids = pg.allowed_ids((), "technical"), lite.allowed_ids((), "technical")
    assert pg_ids is not None and lite_ids is not None and lite_ids != frozenset()

    def chunks(ids: frozenset[str]) -> frozenset[str]:
        return frozenset(i for i in ids if not i.startswith("sql:"))

    # chunks are the same ids; table rows (tables of Markdown/HTML documents too) have per-database table names
    assert chunks(pg_ids) == chunks(lite_ids)
    assert len(pg_ids - chunks(pg_ids)) == len(lite_ids - chunks(lite_ids)) > 0
    assert pg.has_domain("technical") and not pg.has_domain("nonexistent")


def test_workers_starting_together_on_a_new_database(pg_url: str, tmp_path: Path) -> None:
    """Several workers create the schema at once (``serve --workers N`` on a new database): the schema
    lock serialises them, so none fails on ``CREATE … IF NOT EXISTS`` racing another."""
    from concurrent.futures import ThreadPoolExecutor

    s = Settings(data_dir=tmp_path, database_url=pg_url)

    def start(_: int) -> int:
        return len(KnowledgeBase(make_engine(s.db_url), s).passages)

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(start, range(4))) == [0, 0, 0, 0]


def test_workers_starting_together_seed_the_demo_once(pg_url: str, tmp_path: Path) -> None:
    """``serve --workers N`` on a new database: every worker's start-up seeds the demo knowledge base if it
    is empty. The first takes the lock and ingests it; the others find it filled (measured by ``bench load``:
    without the lock all but one worker died on a duplicate ``kb_files`` key)."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import func, select

    from knowzero.knowledge.index.tables import kb_files

    s = Settings(data_dir=tmp_path, database_url=pg_url)
    kbs = [KnowledgeBase(make_engine(s.db_url), s) for _ in range(3)]
    with ThreadPoolExecutor(max_workers=3) as pool:
        reports = list(pool.map(lambda kb: kb.ensure_demo(), kbs))
    assert sum(r is not None for r in reports) == 1, "exactly one worker ingested the demo"
    lite = _kb(tmp_path / "lite")
    with kbs[0].engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(kb_files)).scalar() == len(lite.list_files()) > 0
    assert len({len(kb.passages) for kb in kbs}) == 1
