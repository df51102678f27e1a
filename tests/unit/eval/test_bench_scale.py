"""``knowzero bench scale`` runs end to end on a tiny corpus and reports every key (issue 11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowzero.eval.scale import run_scale

pytestmark = pytest.mark.slow

KEYS = {"ingest_searchable_per_s", "embed_per_s", "embed_per_s_2_workers", "query_p50_ms", "query_p95_ms", "worker_rss_mb", "cold_start_s"}


def test_bench_scale_reports_every_figure(tmp_path: Path) -> None:
    squad = tmp_path / "mini.json"
    paras = [{"id": f"P{i}", "context": f"第{i}号零件的外圆公差为±0.0{i % 9 + 1}mm，材料为45#钢。" * 3,
              "qas": [{"id": f"Q{i}", "question": f"第{i}号零件的外圆公差是多少？",
                       "answers": [{"text": f"±0.0{i % 9 + 1}mm"}]}]} for i in range(12)]
    squad.write_text(json.dumps({"data": [{"title": "零件", "paragraphs": paras}]}, ensure_ascii=False), "utf-8")
    r = run_scale([20], [squad], questions=5)
    fig = r["sizes"]["20"]
    assert KEYS <= fig.keys() and fig["chunks"] >= 12
    assert fig["ingest_searchable_per_s"] > 0 and fig["embed_per_s"] > 0 and fig["embeddings_pending"] >= 0
