"""Time from POST /v1/chat to the first SSE event and to `done`, against a running server.

Usage: knowzero serve --port 8811 &  python benchmarks/first_event.py http://127.0.0.1:8811 [N]
Prints one JSON object (p50/p95 in ms) on the last line. A benchmark, not a test.
"""

from __future__ import annotations

import json
import statistics
import sys
import time

import httpx

MESSAGES = ["你好", "零件A的公差是多少？", "上海办事处的联系方式", "公司的股票代码是多少？", "差旅住宿标准是多少",
            "谢谢", "哪个产品最贵", "年假有几天？"]


def main() -> None:
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 24
    first, done = [], []
    with httpx.Client(timeout=60) as client:
        for i in range(n):
            msg = MESSAGES[i % len(MESSAGES)]
            t0 = time.perf_counter()
            t_first = None
            with client.stream("POST", f"{base}/v1/chat", json={"source": "chat", "message": msg}) as r:
                for line in r.iter_lines():
                    if line.startswith("event:") and t_first is None:
                        t_first = time.perf_counter()
                    if line.startswith("event: done"):
                        break
            first.append(((t_first or time.perf_counter()) - t0) * 1000)
            done.append((time.perf_counter() - t0) * 1000)

    def pct(xs: list[float], q: float) -> float:
        return round(statistics.quantiles(xs, n=100)[int(q) - 1], 1) if len(xs) > 1 else round(xs[0], 1)

    print(json.dumps({"n": n, "first_event_p50_ms": pct(first, 50), "first_event_p95_ms": pct(first, 95),
                      "turn_p50_ms": pct(done, 50), "turn_p95_ms": pct(done, 95)}))


if __name__ == "__main__":
    main()
