"""``knowzero bench load``: its summary of a run, and the refusal of several workers without the
shared engines (the benchmark itself is a command, measured in benchmarks/README.md)."""

from __future__ import annotations

from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.eval.load import WAITS, cpu_ms, run_load, summarize, summarize_profile, tree_pids


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
    for think in ("3,1", "x", "1", "-1,2", "0,61"):
        r = CliRunner().invoke(app, ["bench", "load", "--think", think])
        assert r.exit_code == 2 and "--think" in r.output, think


def test_profile_summary_ranks_own_time_and_leaves_out_waits() -> None:
    raw = ("main (a.py:1);f (b.py:3) 5\nmain (a.py:1);f (b.py:9) 2\nmain (a.py:1);EpollSelector.select (selectors.py:469) 9\n"
           "main (a.py:2) 1\nnot a stack line\n")
    top = summarize_profile(raw, skip=WAITS)
    assert top == [{"function": "f (b.py)", "own_ms": 70.0}, {"function": "main (a.py)", "own_ms": 10.0}]
    assert summarize_profile(raw, top=1) == [{"function": "EpollSelector.select (selectors.py)", "own_ms": 90.0}]


def test_cpu_of_a_process_tree_is_read_from_proc() -> None:
    import os
    import time

    me = os.getpid()
    assert me in tree_pids(me) and tree_pids(me) >= {me}
    before = cpu_ms({me})
    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass
    assert cpu_ms({me}) - before >= 20  # 50 ms of CPU, read at the kernel's tick
