"""``knowzero bench load``: its summary of a run, and the refusal of several workers without the
shared engines (the benchmark itself is a command, measured in benchmarks/README.md)."""

from __future__ import annotations

from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.eval.load import run_load, summarize


def test_summary_counts_errors_and_takes_latencies_of_good_turns() -> None:
    rows = [{"kind": "chat", "error": "", "first_ms": 10.0 * i, "turn_ms": 100.0 * i} for i in range(1, 21)]
    rows.append({"kind": "service", "error": "HTTP 409: b''", "first_ms": 9999.0, "turn_ms": 9999.0})
    s = summarize(rows)
    assert s["turns"] == 21 and s["errors"] == 1 and s["error_examples"] == ["HTTP 409: b''"]
    assert s["first_event_p95_ms"] <= 200 and s["turn_p95_ms"] <= 2000  # the failed turn is not a latency
    assert s["by_kind"] == {"knowledge": 0, "chat": 20, "service": 1}


def test_several_workers_need_postgres_and_redis() -> None:
    out = run_load(3, 1, [2])
    assert "need --database-url" in out["workers"]["2"]["skipped"]
    r = CliRunner().invoke(app, ["bench", "load", "--workers", "x"])
    assert r.exit_code == 2 and "comma-separated integers" in r.output
