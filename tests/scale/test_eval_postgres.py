"""``knowzero eval knowledge --database-url`` runs the same benchmark with the knowledge base in
PostgreSQL mode (issue 11: answers unchanged in both modes), reusing the vectors the embedded-mode
run computed, so nothing is embedded twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.eval.knowledge import run_knowledge

pytestmark = pytest.mark.postgres

SLICE = Path(__file__).resolve().parents[1] / "data" / "squad" / "cmrc2018_slice.json"
KEEP = ("question", "reply", "level", "top", "answered", "contains")


@pytest.mark.slow
def test_postgres_mode_gives_the_embedded_modes_answers(pg_url: str, tmp_path: Path) -> None:
    kw = {"limit": 12, "unanswerable_share": 0.25, "seed": 3, "data_dir": tmp_path / "kb", "baseline": False}
    lite = run_knowledge(SLICE, **kw)
    pg = run_knowledge(SLICE, database_url=pg_url, **kw)
    assert (lite["mode"], pg["mode"]) == ("sqlite", "postgresql")
    assert [{k: r[k] for k in KEEP} for r in pg["_rows"]] == [{k: r[k] for k in KEEP} for r in lite["_rows"]]
    for key in ("answer_contains_gold", "answered_rate", "false_answer_rate", "citation_accuracy"):
        assert pg[key] == lite[key], key


def test_vectors_from_the_embedded_run_are_reused(pg_url: str, tmp_path: Path) -> None:
    from knowzero.eval.knowledge import build_kb, load_squad

    paragraphs, _ = load_squad(SLICE)
    lite = build_kb(paragraphs, set(), tmp_path / "kb")
    assert lite.pending_vectors == 0
    pg = build_kb(paragraphs, set(), tmp_path / "kb", database_url=pg_url)
    assert pg.pending_vectors == 0, "every vector came from the embedded run: nothing to embed again"
    assert len(pg.passages) == len(lite.passages) > 0
