"""A second out-of-scope set for CLINC150: hold out one domain's 15 intents from training.

For each ``--domains`` entry, the semantic tier is fitted on ``train`` + ``oos_train`` without that
domain's intents; on ``val`` those intents' queries (300) join ``oos_val`` (100) as out of scope.
Thresholds are chosen on one label-stratified half of val and measured on the other, both ways,
for every seed (``knowzero.eval.routing.halves_protocol``, the in-scope-quantile rule with the
share from training-fold accuracy minus ``--min-in-scope``), for each ``--scores``. Nothing is
fitted on val. One JSON object on the last stdout line.

    python benchmarks/routing_heldout_intents.py --clinc ../shared/eval-data/clinc150/clinc150_dev.json \
        --domains banking,travel,small_talk,utility
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from knowzero.eval import routing as ev  # noqa: E402
from knowzero.models.embeddings import router  # noqa: E402
from knowzero.routing.head import reject_share_budget  # noqa: E402
from knowzero.routing.semantic import SemanticTier  # noqa: E402
from knowzero.routing.text import normalize  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clinc", type=Path, required=True, help="clinc150 JSON (train, oos_train, val, oos_val)")
    ap.add_argument("--domains-file", type=Path, default=None, help="domains.json (default: beside --clinc)")
    ap.add_argument("--domains", default="banking,travel,small_talk,utility")
    ap.add_argument("--scores", default="blend,blend-centred")
    ap.add_argument("--seeds", default="0,1,2,3,4,5,6,7,8,9")
    ap.add_argument("--min-in-scope", type=float, default=0.95)
    args = ap.parse_args()
    data = ev.load_clinc(args.clinc)
    domains = json.loads((args.domains_file or args.clinc.parent / "domains.json").read_text(encoding="utf-8"))
    seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
    enc = router()
    train = data["train"] + data["oos_train"]
    val = data["val"] + data["oos_val"]

    def encode(pairs: list[tuple[str, str]]) -> np.ndarray:
        texts = [normalize(t) for t, _ in pairs]
        return np.vstack([enc.encode(texts[i:i + 256]) for i in range(0, len(texts), 256)]).astype(np.float32)

    t0 = time.perf_counter()
    train_emb, val_emb = encode(train), encode(val)
    print(f"encoded {len(train) + len(val)} texts in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    report: dict[str, object] = {"seeds": seeds, "min_in_scope": args.min_in_scope, "domains": {}}
    for domain in args.domains.split(","):
        held = set(domains[domain])
        examples: dict[str, list[str]] = {}
        rows: dict[str, list[int]] = {}
        for i, (text, label) in enumerate(train):
            if label not in held:
                examples.setdefault(label, []).append(text)
                rows.setdefault(label, []).append(i)
        emb = train_emb[[i for label in examples for i in rows[label]]]
        gold = [ev.OOS_LABEL if label in held else label for _, label in val]
        texts = [t for t, _ in val]
        per_score: dict[str, object] = {"n_oos": sum(g == ev.OOS_LABEL for g in gold)}
        for score_name in args.scores.split(","):
            tier = SemanticTier(examples, oos_label=ev.OOS_LABEL, encoder=enc, oos_score=score_name,  # type: ignore[arg-type]
                                embeddings=emb)
            pred, score = tier.in_scope_scores(texts, emb=val_emb)
            share = reject_share_budget(tier.fit.oof_in_scope_accuracy, args.min_in_scope)
            h = ev.halves_protocol(gold, pred, score, seeds, args.min_in_scope, fixed_threshold=tier.threshold,
                                   rule="in-scope-quantile", reject_share=share)
            keys = ("oos_recall", "in_scope_accuracy")
            per_score[score_name] = {
                "reject_share": round(share, 4), "worst": {k: h["worst"][k] for k in keys},
                "mean": {k: h["mean"][k] for k in keys},
                "training_fold_threshold_worst": {k: h["fixed_threshold_on_halves"]["worst"][k] for k in keys}}
            print(domain, score_name, json.dumps(per_score[score_name]), file=sys.stderr, flush=True)
        report["domains"][domain] = per_score  # type: ignore[index]
    sys.stdout.write(json.dumps(report) + "\n")


if __name__ == "__main__":
    main()
