"""HaluEval QA: the checker must accept ``right_answer`` and reject ``hallucinated_answer``."""

from __future__ import annotations

import json
import time
from pathlib import Path

from knowzero.eval.metrics import percentile, ratio
from knowzero.knowledge.verify import check_answer


def load_halueval(path: Path, limit: int | None = None) -> list[dict[str, str]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if limit and len(rows) >= limit:
                break
    return rows


def run_factcheck(path: Path, limit: int | None = None) -> dict[str, object]:
    rows = load_halueval(path, limit)
    right_ok = hall_ok = 0
    times: list[float] = []
    for r in rows:
        t0 = time.perf_counter()
        a = check_answer(r["question"], r["right_answer"], r["knowledge"])
        b = check_answer(r["question"], r["hallucinated_answer"], r["knowledge"])
        times.append((time.perf_counter() - t0) * 500)
        right_ok += a.level == "confirmed"
        hall_ok += b.level != "confirmed"
    n = len(rows)
    return {"n": n, "accuracy": ratio(right_ok + hall_ok, 2 * n), "right_accepted": ratio(right_ok, n),
            "hallucinated_rejected": ratio(hall_ok, n), "p50_ms": round(percentile(times, 50), 3),
            "p95_ms": round(percentile(times, 95), 3)}
