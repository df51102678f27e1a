"""Fit the answerability model (``knowledge/answer/checks/answerable.py``) on one data set, report it on another.

Input: the per-question rows of ``knowzero eval knowledge … --rows FILE`` (each row carries the
checker's ``features`` and whether the question was made unanswerable). The decision replayed per
row: a question is answered when the checker found a cited claim (it did not abstain for another
reason than coverage: no claim, another item, a bad quote) and the model's score reaches the
threshold. Fitting is L2-regularised logistic regression (Newton steps, numpy only); the threshold
is the highest one that still answers ``--min-answered`` of the answerable questions on the
*fitting* rows (each seed separately: the worst seed decides). The other rows only measure.

    python benchmarks/issue14/answerability_fit.py --fit cmrc_*.jsonl --test drcd_*.jsonl [--min-answered 0.92]

Prints the weights (paste into ``answerable.WEIGHTS``/``BIAS``/``THRESHOLD``) and, per file of
both sides, answered rate, false-answer rate and answer-contains-gold at the chosen threshold, and
the curve of answered vs false answers as the threshold moves.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

from knowzero.knowledge.answer.checks import answerable

KEYS = list(answerable.FEATURES)


RECOMPUTE = False


def load(path: str) -> list[dict]:
    rows = [json.loads(line) for line in Path(path).read_text("utf-8").splitlines() if line.strip()]
    if RECOMPUTE:  # today's feature code over the recorded evidence (no pipeline run)
        for r in rows:
            ev = r.get("evidence")
            if ev:
                f = answerable.features(r["question"], [tuple(t) for t in ev["terms"]], doc_text=ev["doc"],
                                        title=ev["title"], quotes=ev["quotes"], contexts=ev["contexts"],
                                        similarity=ev["similarity"])
                r["features"] = f.to_dict()
    return rows


MODE = "replace"


VETO = "the sources mention the question's words but do not answer it"
"""The reason the shipped model's veto gives: rows recorded with the model on are replayed as if it were off."""


def vetoed(r: dict) -> bool:
    return not r["answered"] and r["reason"].startswith(VETO)


def contains(r: dict) -> bool:
    """The answer holds a gold answer; for a vetoed row (the reply is an abstention), its quotes would have."""
    if vetoed(r) and r.get("evidence"):
        quoted = " ".join(r["evidence"]["quotes"])
        return any(g.strip() and g.strip() in quoted for g in r["answers"])
    return bool(r["contains"])


def eligible(r: dict) -> bool:
    """The checker would answer if the model says so (``replace``: coverage is the model's business
    now; ``and``: the model only vetoes what the coverage gate let through)."""
    if MODE == "and":
        return r["answered"] or vetoed(r)
    if r.get("features") is None:
        return r["answered"]  # SQL evidence, or no claim at all: the model is not asked
    return r["level"] != "insufficient" or r["reason"].startswith("the sources cover only") \
        or r["reason"].startswith("the sources mention the question's words")


USE: list[str] = list(KEYS)


def xy(rows: list[dict]) -> tuple[np.ndarray, np.ndarray]:
    sel = [r for r in rows if r.get("features") is not None]
    x = np.array([[r["features"][k] if k in USE else 0.0 for k in KEYS] for r in sel], dtype=float)
    y = np.array([0.0 if r["unanswerable"] else 1.0 for r in sel])
    return x, y


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iters: int = 50) -> tuple[np.ndarray, float]:
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    reg = np.eye(xb.shape[1]) * l2
    reg[-1, -1] = 0.0
    for _ in range(iters):
        p = 1 / (1 + np.exp(-xb @ w))
        g = xb.T @ (p - y) + reg @ w
        h = xb.T @ (xb * (p * (1 - p))[:, None]) + reg
        step = np.linalg.solve(h, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w[:-1], float(w[-1])


def score(r: dict, w: np.ndarray, b: float) -> float:
    if r.get("features") is None:
        return 1.0 if r["answered"] else -1.0
    z = b + sum(wi * r["features"][k] for wi, k in zip(w, KEYS, strict=True))
    return 1 / (1 + math.exp(-z))


def rates(rows: list[dict], w: np.ndarray, b: float, t: float) -> dict[str, float]:
    ans = [r for r in rows if not r["unanswerable"]]
    un = [r for r in rows if r["unanswerable"]]
    answered = lambda r: eligible(r) and score(r, w, b) >= t  # noqa: E731
    return {"answered": round(sum(map(answered, ans)) / len(ans), 4),
            "false": round(sum(map(answered, un)) / max(1, len(un)), 4),
            "contains": round(sum(answered(r) and contains(r) for r in ans) / len(ans), 4)}


def choose_threshold(files: dict[str, list[dict]], w: np.ndarray, b: float, min_answered: float) -> float:
    best = 0.0
    for t in np.arange(0.0, 1.0, 0.005):
        if all(rates(rows, w, b, float(t))["answered"] >= min_answered for rows in files.values()):
            best = float(t)
    return round(best, 3)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", nargs="+", required=True)
    ap.add_argument("--test", nargs="+", default=[])
    ap.add_argument("--min-answered", type=float, default=0.92)
    ap.add_argument("--l2", type=float, default=1.0)
    ap.add_argument("--threshold", type=float, default=None, help="use this threshold instead of choosing one")
    ap.add_argument("--mode", choices=("replace", "and"), default="replace")
    ap.add_argument("--recompute", action="store_true", help="recompute features from the rows' evidence")
    ap.add_argument("--use", default=",".join(KEYS), help="features the model may use (the others get weight 0)")
    args = ap.parse_args()
    USE[:] = args.use.split(",")
    global MODE, RECOMPUTE
    MODE, RECOMPUTE = args.mode, args.recompute
    fit_files = {f: load(f) for f in args.fit}
    x, y = xy([r for rows in fit_files.values() for r in rows])
    w, b = fit(x, y, args.l2)
    t = args.threshold if args.threshold is not None else choose_threshold(fit_files, w, b, args.min_answered)
    print("features", KEYS)
    print("WEIGHTS =", tuple(round(float(v), 3) for v in w), " BIAS =", round(b, 3), " THRESHOLD =", t)
    for side, files in (("fit", args.fit), ("test", args.test)):
        for f in files:
            rows = fit_files.get(f) or load(f)
            today = {"answered": round(sum(r["answered"] for r in rows if not r["unanswerable"]) / max(1, sum(not r["unanswerable"] for r in rows)), 4),
                     "false": round(sum(r["answered"] for r in rows if r["unanswerable"]) / max(1, sum(r["unanswerable"] for r in rows)), 4)}
            print(f"{side:4s} {Path(f).name:40s} model {rates(rows, w, b, t)}  checker-as-run {today}")
    for f in args.test:
        rows = load(f)
        curve = [(round(float(tt), 2), rates(rows, w, b, float(tt))) for tt in np.arange(0.1, 0.95, 0.1)]
        print("curve", Path(f).name, " ".join(f"{tt}:{c['answered']}/{c['false']}" for tt, c in curve))


if __name__ == "__main__":
    main()
