"""Per-message latency of the CLINC150 classifier under each out-of-scope score, interleaved.

Fits one classifier per ``--scores`` entry on ``train`` + ``oos_train`` (the example vectors encoded
once and shared), then classifies the same ``--n`` val queries (even stride) one at a time, the
scores taking turns on each query, cache off: the machine's load hits every score alike. Reports
p50/p95 of the whole chain's ``elapsed_ms`` (one USE encoding + head + in-scope score) and the load.
One JSON object on the last stdout line.

    python benchmarks/routing_clinc_latency.py --clinc ../shared/eval-data/clinc150/clinc150_dev.json
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from knowzero.eval import routing as ev  # noqa: E402
from knowzero.eval.metrics import percentile  # noqa: E402
from knowzero.models.embeddings import router  # noqa: E402
from knowzero.routing.classifier import IntentClassifier  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clinc", type=Path, required=True)
    ap.add_argument("--scores", default="blend,blend-centred")
    ap.add_argument("--n", type=int, default=600)
    args = ap.parse_args()
    data = ev.load_clinc(args.clinc)
    examples = ev.group_examples(data["train"] + data["oos_train"])
    enc = router()
    _, vectors = ev._encode_examples(examples, enc, None)
    clfs = {s: IntentClassifier.from_examples(examples, oos_label=ev.OOS_LABEL, encoder=enc, cache_size=0,
                                              embeddings=vectors, oos_score=s)
            for s in args.scores.split(",")}
    ms: dict[str, list[float]] = {s: [] for s in clfs}
    for text, _ in ev.spread_sample(data["val"] + data["oos_val"], args.n):
        for s, clf in clfs.items():
            ms[s].append(clf.classify(text).elapsed_ms)
    report = {s: {"p50_ms": round(percentile(v, 50), 2), "p95_ms": round(percentile(v, 95), 2)} for s, v in ms.items()}
    print(json.dumps({"n": args.n, **report, "loadavg_1m": round(os.getloadavg()[0], 1),
                      "mean_ms": {s: round(float(np.mean(v)), 2) for s, v in ms.items()}}))


if __name__ == "__main__":
    main()
