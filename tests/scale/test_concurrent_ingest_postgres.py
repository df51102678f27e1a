"""Two ingests into one PostgreSQL knowledge base at once (two API workers taking uploads, or
``knowzero ingest`` on two hosts) keep the keyword index's document frequencies exact (issue 11).

``kb_kw_df`` is updated in each ingest's own transaction (terms upserted in sorted order, so two
writers lock shared terms in the same order and cannot deadlock); after concurrent first ingests and
concurrent re-ingests of changed files, every term's stored frequency must equal what PostgreSQL's
own ``ts_stat`` counts over ``kb_kw``, and no ingest may fail.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from sqlalchemy import text

from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase, demo_kb_path
from knowzero.persistence.db import make_engine

pytestmark = pytest.mark.postgres


def _sentences() -> list[str]:
    out: list[str] = []
    for f in sorted(demo_kb_path().rglob("*.md")):
        out += [s.strip() for s in f.read_text(encoding="utf-8").replace("\n", "。").split("。") if len(s.strip()) > 8]
    return out


def _write(root: Path, prefix: str, sents: list[str], shift: int) -> None:
    root.mkdir(parents=True, exist_ok=True)
    for i in range(30):
        body = "。".join(sents[(i * 7 + j + shift) % len(sents)] for j in range(12))
        (root / f"{prefix}{i:02d}.md").write_text(f"# {prefix} 文档 {i}\n\n{body}。\n", encoding="utf-8")


def _df_mismatches(kb: KnowledgeBase) -> list[tuple[str, int, int]]:
    with kb.engine.connect() as conn:
        stored = dict(conn.execute(text("SELECT term, df FROM kb_kw_df WHERE df > 0")).all())
        truth = dict(conn.execute(text("SELECT word, ndoc FROM ts_stat('SELECT body FROM kb_kw')")).all())
    return [(t, stored.get(t, 0), truth.get(t, 0)) for t in set(stored) | set(truth) if stored.get(t, 0) != truth.get(t, 0)]


def test_concurrent_ingests_keep_document_frequencies_exact(pg_url: str, tmp_path: Path) -> None:
    sents = _sentences()
    assert len(sents) > 50
    kbs = [KnowledgeBase(make_engine(Settings(data_dir=tmp_path / n, database_url=pg_url).db_url),
                         Settings(data_dir=tmp_path / n, database_url=pg_url)) for n in ("w1", "w2")]
    roots = [tmp_path / "docs" / "a", tmp_path / "docs" / "b"]
    errors: list[BaseException] = []

    def run(kb: KnowledgeBase, root: Path) -> None:
        try:
            report = kb.ingest_paths([root], collection="team", embed=False)
            assert not report.failed, report.failed
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            errors.append(exc)

    for shift in (0, 3):  # first ingest, then every file changed and re-ingested by both at once
        for root, prefix in zip(roots, ("a", "b"), strict=True):
            _write(root, prefix, sents, shift + (0 if prefix == "a" else 5))
        threads = [threading.Thread(target=run, args=(kb, root)) for kb, root in zip(kbs, roots, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=300)
        assert not errors, errors
        assert _df_mismatches(kbs[0]) == []
    with kbs[0].engine.connect() as conn:
        assert conn.execute(text("SELECT count(DISTINCT path) FROM kb_kw")).scalar() == 60
