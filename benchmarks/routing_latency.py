"""Per-tier latency of the product router (PRODUCT.md §3): rule, fuzzy, semantic, chain, cache hit.

    python benchmarks/routing_latency.py [--messages tests/data/routing/product_dev.jsonl] [--repeat 5]

Every tier runs on every message (not only where it decides), each ``--repeat`` times; p50/p95
are over all runs, from each tier's own ``elapsed_ms`` (``time.perf_counter``). The semantic
tier is also split into the encoder call and the rest. Targets: rule p50 <= 0.1 ms, semantic
p50 <= 5 ms. Prints one JSON object on the last line; ``os.getloadavg()`` is included because
a busy machine inflates every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from knowzero.eval.metrics import percentile  # noqa: E402
from knowzero.eval.routing import load_jsonl  # noqa: E402
from knowzero.routing import IntentClassifier  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def summary(ms: list[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(ms, 50), 4), "p95_ms": round(percentile(ms, 95), 4), "n": len(ms)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--messages", type=Path, default=ROOT / "tests/data/routing/product_dev.jsonl")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    texts = [t for t, _ in load_jsonl(args.messages)]
    t0 = time.perf_counter()
    clf = IntentClassifier.from_package_data(cache_size=4096)
    build_s = time.perf_counter() - t0
    assert clf.rules and clf.fuzzy and clf.semantic
    clf.semantic.classify("warm up")
    runs: dict[str, list[float]] = {k: [] for k in ("rule", "fuzzy", "semantic", "encoder", "semantic_minus_encoder",
                                                    "chain", "cache_hit")}
    for _ in range(args.repeat):
        for text in texts:
            r = clf.rules.classify(text)
            if r is None:  # a miss reports no result: time the call itself
                start = time.perf_counter()
                clf.rules.classify(text)
                runs["rule"].append((time.perf_counter() - start) * 1000)
            else:
                runs["rule"].append(r.elapsed_ms)
            start = time.perf_counter()
            clf.fuzzy.classify(text)
            runs["fuzzy"].append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            clf.semantic.encoder.encode([text])
            enc = (time.perf_counter() - start) * 1000
            sem = clf.semantic.classify(text).elapsed_ms
            runs["encoder"].append(enc)
            runs["semantic"].append(sem)
            runs["semantic_minus_encoder"].append(max(0.0, sem - enc))
            clf.clear_cache()
            runs["chain"].append(clf.classify(text).elapsed_ms)
            runs["cache_hit"].append(clf.classify(text).elapsed_ms)
    report = {"messages": len(texts), "repeat": args.repeat, "build_s": round(build_s, 2),
              "loadavg_1m": round(os.getloadavg()[0], 2), **{k: summary(v) for k, v in runs.items()}}
    for k, v in report.items():
        print(f"{k}: {v}", file=sys.stderr)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
