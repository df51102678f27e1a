"""Routing benchmark: the tiered classifier on CLINC150 (with out-of-scope) and labelled JSONL sets.

``run_clinc`` trains :meth:`IntentClassifier.from_examples` on one CLINC split (+ its
``oos_<split>`` list as out-of-scope examples) and measures another: in-scope accuracy (a
prediction of ``oos`` on an in-scope query counts as wrong), out-of-scope recall and precision,
the share of answers per tier, and p50/p95 of the whole chain's ``elapsed_ms`` per message
(one message at a time, cache off, one encoder call each). ``run_jsonl`` does the same for
``{"text", "label"}`` lines (e.g. SMP2017-ECDT) with plain accuracy; ``run_product`` measures
the packaged product classifier on a labelled JSONL. When the PyPI package ``semantic-router`` is
installed, the same run measures its ``IndexedRouter`` over the same USE encoder as ``peer``.

Nothing is fitted on the test split: temperatures and the out-of-scope threshold come from
folds of the training split. Nothing is written to disk. Metric functions are pure.

**Threshold protocols** (``threshold_protocol``; the top-level keys always report ``train-oof``):

* ``train-oof`` - the semantic tier's own threshold, fitted on out-of-fold training predictions.
* ``val`` - choose the threshold on ``threshold_split`` (the most out-of-scope recall that keeps
  in-scope accuracy >= ``min_in_scope``) and measure it on ``test_split`` (e.g. val → test).
* ``val-halves`` - for every seed, split ``test_split`` in two label-stratified halves; choose on
  one, measure on the other, both directions. Reports every run, the mean and the **worst**
  (lowest out-of-scope recall and lowest in-scope accuracy over all runs, each on its own), so a
  threshold that only works on the data it was chosen on shows up.

**Threshold rules** (``threshold_rule``, how a protocol chooses on its labelled split):

* ``in-scope-quantile`` (default) - reject a share of the chooser's *in-scope* queries, lowest
  in-scope score first; the share is decided before looking at the split: the accuracy budget
  ``max(0, out-of-fold in-scope accuracy on train - min_in_scope)``
  (:func:`knowzero.routing.head.reject_share_budget`). The threshold then depends on ~1,500 in-scope
  scores, not on where 50 out-of-scope ones fall, and not on the chooser's own accuracy (which
  is high exactly when the other half's is low).
* ``max-recall`` - the most out-of-scope recall that keeps in-scope accuracy >= ``min_in_scope``
  on the chooser (a rule fitted on the whole val split fits one half and fails the other).
"""

from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")  # as models.embeddings: one BLAS thread, set before numpy loads

import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable, Iterable, Mapping, Sequence  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any  # noqa: E402

import numpy as np  # noqa: E402
import typer  # noqa: E402

from knowzero.config import Settings  # noqa: E402
from knowzero.errors import ProviderError  # noqa: E402
from knowzero.eval.llmuse import PROVIDER_HELP, LLMUse, cli_provider  # noqa: E402
from knowzero.eval.metrics import percentile  # noqa: E402
from knowzero.llm.base import call_within_deadline  # noqa: E402
from knowzero.llm.metered import MeteredProvider  # noqa: E402
from knowzero.models.embeddings import router  # noqa: E402
from knowzero.routing.classifier import IntentClassifier, unavailable_reason  # noqa: E402
from knowzero.routing.head import (  # noqa: E402
    reject_share_budget,
    threshold_at_accuracy,
    threshold_at_in_scope_quantile,
)
from knowzero.routing.semantic import OOS_SCORES  # noqa: E402
from knowzero.routing.text import normalize  # noqa: E402
from knowzero.routing.types import Encoder  # noqa: E402

OOS_LABEL = "oos"
Pair = tuple[str, str]
Progress = Callable[[str], None]


# ---------------------------------------------------------------------------- loading
def load_clinc(path: Path) -> dict[str, list[Pair]]:
    """CLINC150 JSON: split name → ``[(text, intent), ...]``."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "train" not in data:
        raise ValueError("expected a JSON object with a 'train' split")
    return {split: [(str(t), str(label)) for t, label in rows] for split, rows in data.items()}


def load_jsonl(path: Path, text_key: str | None = None, label_key: str | None = None) -> list[Pair]:
    """``(text, label)`` pairs from JSON lines; keys default to the first of text/query/sentence and
    label/intent/domain present in the first line."""
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    if not rows:
        return []
    first = rows[0]
    tk = text_key or next((k for k in ("text", "query", "sentence", "utterance") if k in first), None)
    lk = label_key or next((k for k in ("label", "intent", "domain") if k in first), None)
    if tk is None or lk is None:
        raise ValueError(f"cannot find text/label fields in {sorted(first)}")
    return [(str(r[tk]), str(r[lk])) for r in rows]


def group_examples(pairs: Iterable[Pair]) -> dict[str, list[str]]:
    """label → texts, labels in first-seen order."""
    out: dict[str, list[str]] = {}
    for text, label in pairs:
        out.setdefault(label, []).append(text)
    return out


def spread_sample(pairs: Sequence[Pair], limit: int | None) -> list[Pair]:
    """At most ``limit`` pairs taken at an even stride (test files are often grouped by label)."""
    if limit is None or limit >= len(pairs):
        return list(pairs)
    idx = np.linspace(0, len(pairs) - 1, num=limit).round().astype(int)
    return [pairs[i] for i in idx]


# ---------------------------------------------------------------------------- metrics (pure)
def accuracy(gold: Sequence[str], pred: Sequence[str]) -> float:
    """Share of exact matches."""
    return round(sum(g == p for g, p in zip(gold, pred, strict=True)) / len(gold), 4) if gold else 0.0


def in_scope_accuracy(gold: Sequence[str], pred: Sequence[str], oos_label: str = OOS_LABEL) -> float:
    """Accuracy over in-scope queries only (predicting ``oos_label`` for one is wrong)."""
    pairs = [(g, p) for g, p in zip(gold, pred, strict=True) if g != oos_label]
    return round(sum(g == p for g, p in pairs) / len(pairs), 4) if pairs else 0.0


def oos_recall(gold: Sequence[str], pred: Sequence[str], oos_label: str = OOS_LABEL) -> float:
    """Share of out-of-scope queries predicted as ``oos_label``."""
    hits = [p == oos_label for g, p in zip(gold, pred, strict=True) if g == oos_label]
    return round(sum(hits) / len(hits), 4) if hits else 0.0


def oos_precision(gold: Sequence[str], pred: Sequence[str], oos_label: str = OOS_LABEL) -> float:
    """Share of ``oos_label`` predictions that were out-of-scope."""
    called = [g == oos_label for g, p in zip(gold, pred, strict=True) if p == oos_label]
    return round(sum(called) / len(called), 4) if called else 0.0


def label_halves(gold: Sequence[str], seed: int) -> np.ndarray:
    """A boolean mask putting (the floor of) half of every label's rows in the first half, seeded."""
    rng = np.random.default_rng(seed)
    labels = np.asarray(gold)
    first = np.zeros(len(labels), dtype=bool)
    for label in sorted(set(gold)):
        idx = np.flatnonzero(labels == label)
        rng.shuffle(idx)
        first[idx[:len(idx) // 2]] = True
    return first


def oos_decisions(pred_in: Sequence[str], score: np.ndarray, threshold: float,
                  oos_label: str = OOS_LABEL) -> list[str]:
    """The in-scope prediction, or ``oos_label`` where the in-scope score is below ``threshold``."""
    return [oos_label if s < threshold else p for p, s in zip(pred_in, score, strict=True)]


THRESHOLD_RULES = ("in-scope-quantile", "max-recall")


def choose_and_measure(gold: Sequence[str], pred_in: Sequence[str], score: np.ndarray, choose: np.ndarray,
                       measure: np.ndarray, min_in_scope: float, oos_label: str = OOS_LABEL,
                       rule: str = "max-recall", reject_share: float = 0.0) -> dict[str, Any]:
    """Choose a threshold on the rows in ``choose`` by ``rule``, report it on the rows in ``measure``.

    ``max-recall``: the most out-of-scope recall keeping ``min_in_scope`` on the chooser;
    ``in-scope-quantile``: the threshold rejecting ``reject_share`` of the chooser's in-scope rows.
    """
    if rule not in THRESHOLD_RULES:
        raise ValueError(f"rule must be one of {THRESHOLD_RULES}")
    g, p = np.asarray(gold), np.asarray(pred_in)
    if rule == "max-recall":
        threshold = threshold_at_accuracy(score[choose], p[choose] == g[choose], g[choose] == oos_label,
                                          min_in_scope)
    else:
        threshold = threshold_at_in_scope_quantile(score[choose], g[choose] == oos_label, reject_share)
    gold_m = list(g[measure])
    pred_m = oos_decisions(list(p[measure]), score[measure], threshold, oos_label)
    return {"threshold": round(threshold, 4), "n": int(measure.sum()),
            "in_scope_accuracy": in_scope_accuracy(gold_m, pred_m, oos_label),
            "oos_recall": oos_recall(gold_m, pred_m, oos_label),
            "oos_precision": oos_precision(gold_m, pred_m, oos_label)}


def _summary(runs: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    keys = ("oos_recall", "in_scope_accuracy", "oos_precision")
    lowest = min(runs, key=lambda r: (r["oos_recall"], r["in_scope_accuracy"]))
    return {"mean": {k: round(float(np.mean([r[k] for r in runs])), 4) for k in keys},
            "worst": {**{k: min(r[k] for r in runs) for k in keys},
                      "run_with_lowest_oos_recall": {k: lowest[k] for k in ("seed", "chosen_on", *keys)}}}


def halves_protocol(gold: Sequence[str], pred_in: Sequence[str], score: np.ndarray, seeds: Sequence[int],
                    min_in_scope: float, oos_label: str = OOS_LABEL,
                    fixed_threshold: float | None = None, rule: str = "max-recall",
                    reject_share: float = 0.0) -> dict[str, Any]:
    """Thresholds chosen on one label-stratified half, measured on the other; both ways, every seed.

    With ``fixed_threshold`` (the one fitted on training folds) the same measuring halves also
    report that threshold, chosen on nothing here (``fixed_threshold_on_halves``): how much of
    the spread is the halves' own sampling noise rather than the choice of threshold.
    """
    runs, fixed = [], []
    g = np.asarray(gold)
    for seed in seeds:
        first = label_halves(gold, seed)
        for chosen_on, a, b in (("first", first, ~first), ("second", ~first, first)):
            runs.append({"seed": seed, "chosen_on": chosen_on,
                         **choose_and_measure(gold, pred_in, score, a, b, min_in_scope, oos_label,
                                              rule=rule, reject_share=reject_share)})
            if fixed_threshold is not None:
                gold_m = list(g[b])
                pred_m = oos_decisions(list(np.asarray(pred_in)[b]), score[b], fixed_threshold, oos_label)
                fixed.append({"seed": seed, "chosen_on": "training folds", "threshold": round(fixed_threshold, 4),
                              "n": int(b.sum()), "in_scope_accuracy": in_scope_accuracy(gold_m, pred_m, oos_label),
                              "oos_recall": oos_recall(gold_m, pred_m, oos_label),
                              "oos_precision": oos_precision(gold_m, pred_m, oos_label)})
    out: dict[str, Any] = {"min_in_scope": min_in_scope, "threshold_rule": rule,
                           "reject_share": round(reject_share, 4) if rule == "in-scope-quantile" else None,
                           "seeds": list(seeds), "runs": runs, **_summary(runs)}
    if fixed:
        out["fixed_threshold_on_halves"] = {"threshold": round(float(fixed_threshold or 0.0), 4),
                                            "runs": fixed, **_summary(fixed)}
    return out


def share_by_tier(methods: Sequence[str]) -> dict[str, float]:
    """method → share of answers it decided, largest first."""
    counts = Counter(methods)
    return {m: round(c / len(methods), 4) for m, c in counts.most_common()} if methods else {}


def latency(ms: Sequence[float]) -> dict[str, float]:
    """p50/p95 of per-message milliseconds."""
    return {"p50_ms": round(percentile(ms, 50), 3), "p95_ms": round(percentile(ms, 95), 3)}


# ---------------------------------------------------------------------------- running
class _Precomputed:
    """An encoder serving precomputed vectors for known (normalised) texts, encoding the rest."""

    def __init__(self, inner: Encoder, texts: Sequence[str], vectors: np.ndarray) -> None:
        self.inner = inner
        self.known = {t: vectors[i] for i, t in enumerate(texts)}

    def encode(self, texts: list[str]) -> np.ndarray:
        norm = [normalize(t) for t in texts]
        missing = [t for t in norm if t not in self.known]
        fresh = dict(zip(missing, self.inner.encode(missing), strict=False)) if missing else {}
        return np.stack([self.known[t] if t in self.known else fresh[t] for t in norm]).astype(np.float32)


def _encode_examples(examples: Mapping[str, Sequence[str]], encoder: Encoder,
                     progress: Progress | None) -> tuple[list[str], np.ndarray]:
    texts = [normalize(t) for utts in examples.values() for t in utts]
    parts = []
    for i in range(0, len(texts), 256):
        parts.append(encoder.encode(texts[i:i + 256]))
        if progress and (i // 256) % 10 == 9:
            progress(f"  encoded {i + 256}/{len(texts)} examples")
    return texts, np.vstack(parts).astype(np.float32)


def classify_all(clf: IntentClassifier, pairs: Sequence[Pair],
                 progress: Progress | None = None, use: LLMUse | None = None) -> tuple[list[str], list[str], list[float]]:
    """Predictions, deciding methods and per-message total ms, one message at a time.

    With ``use`` (a metered provider) the LLM tier runs as in a chat turn, bounded by
    ``llm_timeout_s``; a failed call keeps the offline tiers' result and counts as a fallback."""
    preds: list[str] = []
    methods: list[str] = []
    ms: list[float] = []
    provider = use.provider if use is not None else None
    deadline_s = Settings().llm_timeout_s
    for i, (text, _) in enumerate(pairs):
        if use is None or provider is None:
            r = clf.classify(text)
        else:
            with use.turn():
                try:
                    r = call_within_deadline(clf.classify, text, provider, deadline_s=deadline_s)
                except ProviderError as exc:
                    use.fallback("intent", exc.message)
                    r = clf.classify(text)
                else:
                    if (why := unavailable_reason(r.reasoning)) is not None:
                        use.fallback("intent", why)
        preds.append(r.intent)
        methods.append(r.method)
        ms.append(r.elapsed_ms)
        if progress and (i + 1) % 500 == 0:
            progress(f"  classified {i + 1}/{len(pairs)}")
    return preds, methods, ms


def _build(examples: Mapping[str, Sequence[str]], oos_label: str | None, progress: Progress | None,
           **semantic_options: Any) -> tuple[IntentClassifier, _Precomputed, float, float]:
    encoder = router()
    t0 = time.perf_counter()
    texts, vectors = _encode_examples(examples, encoder, progress)
    encode_s = time.perf_counter() - t0
    cached = _Precomputed(encoder, texts, vectors)
    t1 = time.perf_counter()
    clf = IntentClassifier.from_examples(examples, oos_label=oos_label, encoder=encoder, cache_size=0,
                                         embeddings=vectors, **semantic_options)
    return clf, cached, encode_s, time.perf_counter() - t1


def _fit_info(clf: IntentClassifier, encode_s: float, fit_s: float) -> dict[str, Any]:
    assert clf.semantic is not None
    f = clf.semantic.fit
    return {"head": f.head, "n_train": f.n_examples, "n_intents": f.n_intents,
            "temperature": round(f.temperature, 4),
            "oos_threshold": None if f.oos_threshold is None else round(f.oos_threshold, 4),
            "oof_accuracy": round(f.oof_accuracy, 4), "oof_ece": round(f.oof_ece, 4),
            "oos_score": f.oos_score, "oos_knn_weight": round(f.knn_weight, 4),
            "oof_in_scope_accuracy": None if math.isnan(f.oof_in_scope_accuracy)
            else round(f.oof_in_scope_accuracy, 4),
            "encode_s": round(encode_s, 1), "fit_s": round(fit_s, 1)}


THRESHOLD_PROTOCOLS = ("train-oof", "val", "val-halves")


def run_clinc(path: Path, train_split: str = "train", test_split: str = "val", limit: int | None = None, *,
              peer: bool = True, progress: Progress | None = None, threshold_protocol: str = "train-oof",
              threshold_split: str = "val", seeds: Sequence[int] = tuple(range(10)), min_in_scope: float = 0.95,
              oos_score: str = "blend-centred", threshold_rule: str = "in-scope-quantile",
              provider: MeteredProvider | None = None) -> dict[str, Any]:
    """Train on ``train_split`` (+ ``oos_<train_split>``), measure on ``test_split`` (+ ``oos_<test_split>``).

    ``threshold_protocol`` and ``threshold_rule`` (module docstring) add a ``threshold_protocol``
    section; ``oos_score`` is the semantic tier's in-scope score (``blend-centred``, ``blend`` or
    ``confidence``).
    """
    if threshold_protocol not in THRESHOLD_PROTOCOLS:
        raise ValueError(f"threshold_protocol must be one of {THRESHOLD_PROTOCOLS}")
    if threshold_rule not in THRESHOLD_RULES:
        raise ValueError(f"threshold_rule must be one of {THRESHOLD_RULES}")
    data = load_clinc(path)
    needed = [train_split, test_split] + ([threshold_split] if threshold_protocol == "val" else [])
    for split in needed:
        if split not in data:
            raise ValueError(f"no split {split!r} (have {sorted(data)})")
    if threshold_protocol == "val" and threshold_split in (train_split, test_split):
        raise ValueError("the threshold split must differ from the train and test splits")
    train = data[train_split] + data.get(f"oos_{train_split}", [])
    test = spread_sample(data[test_split] + data.get(f"oos_{test_split}", []), limit)
    examples = group_examples(train)
    if progress:
        progress(f"clinc: {len(train)} train examples, {len(examples)} labels, {len(test)} test queries")
    clf, cached, encode_s, fit_s = _build(examples, OOS_LABEL, progress, oos_score=oos_score)
    gold = [label for _, label in test]
    use = LLMUse(provider)
    preds, methods, ms = classify_all(clf, test, progress, use)
    out: dict[str, Any] = {
        "dataset": Path(path).name, "train_split": train_split, "test_split": test_split, "n": len(test),
        "n_oos": sum(g == OOS_LABEL for g in gold),
        "in_scope_accuracy": in_scope_accuracy(gold, preds), "oos_recall": oos_recall(gold, preds),
        "oos_precision": oos_precision(gold, preds), "share_by_tier": share_by_tier(methods), **latency(ms),
        "semantic": _fit_info(clf, encode_s, fit_s), **use.report(),
    }
    if threshold_protocol != "train-oof":
        assert clf.semantic is not None
        pred_in, score = clf.semantic.in_scope_scores([t for t, _ in test])
        share = reject_share_budget(clf.semantic.fit.oof_in_scope_accuracy, min_in_scope)
        section: dict[str, Any] = {"name": threshold_protocol, "oos_score": oos_score}
        if threshold_protocol == "val-halves":
            section["split"] = test_split
            section.update(halves_protocol(gold, pred_in, score, seeds, min_in_scope,
                                           fixed_threshold=clf.semantic.threshold, rule=threshold_rule,
                                           reject_share=share))
        else:
            chooser = data[threshold_split] + data.get(f"oos_{threshold_split}", [])
            c_pred, c_score = clf.semantic.in_scope_scores([t for t, _ in chooser])
            both_gold = [label for _, label in chooser] + gold
            chosen = np.arange(len(both_gold)) < len(chooser)
            section.update(chosen_on=threshold_split, measured_on=test_split, min_in_scope=min_in_scope,
                           threshold_rule=threshold_rule,
                           reject_share=round(share, 4) if threshold_rule == "in-scope-quantile" else None,
                           **choose_and_measure(both_gold, c_pred + pred_in, np.concatenate([c_score, score]),
                                                chosen, ~chosen, min_in_scope, rule=threshold_rule,
                                                reject_share=share))
        out["threshold_protocol"] = section
    if peer:
        out["peer"] = run_peer(examples, test, cached, oos_label=OOS_LABEL, progress=progress)
    return out


def run_jsonl(train_path: Path, test_path: Path, limit: int | None = None, *, peer: bool = True,
              progress: Progress | None = None, provider: MeteredProvider | None = None) -> dict[str, Any]:
    """Train on one labelled JSONL file, report accuracy on another (no out-of-scope class)."""
    train = load_jsonl(train_path)
    test = spread_sample(load_jsonl(test_path), limit)
    examples = group_examples(train)
    if progress:
        progress(f"jsonl: {len(train)} train examples, {len(examples)} labels, {len(test)} test queries")
    clf, cached, encode_s, fit_s = _build(examples, None, progress)
    gold = [label for _, label in test]
    use = LLMUse(provider)
    preds, methods, ms = classify_all(clf, test, progress, use)
    out: dict[str, Any] = {
        "dataset": Path(test_path).name, "n": len(test), "accuracy": accuracy(gold, preds),
        "share_by_tier": share_by_tier(methods), **latency(ms), "semantic": _fit_info(clf, encode_s, fit_s),
        **use.report(),
    }
    if peer:
        out["peer"] = run_peer(examples, test, cached, oos_label=None, progress=progress)
    return out


def run_product(test_path: Path, limit: int | None = None, *, classifier: IntentClassifier | None = None,
                progress: Progress | None = None, provider: MeteredProvider | None = None) -> dict[str, Any]:
    """The packaged product classifier (all tiers; the LLM tier with ``provider``) on a labelled JSONL
    of product intents.

    A ``classifier`` passed in is used as is (its cache is cleared first); by default a fresh one
    is built from the package data with the cache off.
    """
    t0 = time.perf_counter()
    if classifier is None:
        clf = IntentClassifier.from_package_data(cache_size=0)
    else:
        clf = classifier
        clf.clear_cache()
    build_s = time.perf_counter() - t0
    test = spread_sample(load_jsonl(test_path), limit)
    gold = [label for _, label in test]
    use = LLMUse(provider)
    preds, methods, ms = classify_all(clf, test, progress, use)
    per_tier: dict[str, list[bool]] = {}
    for g, p, m in zip(gold, preds, methods, strict=False):
        per_tier.setdefault(m, []).append(g == p)
    errors = [{"text": t, "gold": g, "pred": p, "method": m}
              for (t, g), p, m in zip(test, preds, methods, strict=False) if g != p]
    return {
        "dataset": Path(test_path).name, "n": len(test), "accuracy": accuracy(gold, preds),
        "accuracy_by_tier": {m: round(sum(v) / len(v), 4) for m, v in per_tier.items()},
        "share_by_tier": share_by_tier(methods), **latency(ms), "build_s": round(build_s, 1),
        "errors": errors, **use.report(),
    }


# ---------------------------------------------------------------------------- peer
def run_peer(examples: Mapping[str, Sequence[str]], test: Sequence[Pair], encoder: _Precomputed, *,
             oos_label: str | None, progress: Progress | None = None) -> dict[str, Any]:
    """semantic-router's ``IndexedRouter`` (defaults: top_k=5, mean) over the same USE vectors.

    With ``oos_label``: its Platt calibrator is fitted, as its docs advise, on held-out labelled
    queries — every fifth training example per intent plus the out-of-scope examples (label
    None), scored by a router built on the other four fifths — and a query whose calibrated
    confidence is below 0.5 gets no route (= out-of-scope). Returns ``{"skipped": reason}`` when
    the package is missing.
    """
    try:
        from semantic_router import IndexedRouter, Route
        from semantic_router.encoders import DenseEncoder
    except ImportError as exc:
        return {"skipped": f"semantic-router not installed ({exc.name})"}
    import importlib.metadata

    class _Wrapped(DenseEncoder):  # type: ignore[misc]
        def __call__(self, docs: list[Any]) -> list[list[float]]:
            return encoder.encode([str(d) for d in docs]).tolist()

    enc = _Wrapped(name="usem3")
    t0 = time.perf_counter()
    in_scope = {label: list(utts) for label, utts in examples.items() if label != oos_label}
    sr_router = IndexedRouter(encoder=enc, routes=[Route(name=k, utterances=v) for k, v in in_scope.items()])
    note = "top route always (no threshold)"
    if oos_label is not None:
        part = IndexedRouter(encoder=enc, routes=[Route(name=k, utterances=[u for i, u in enumerate(v) if i % 5])
                                                  for k, v in in_scope.items()])
        held_x = [u for v in in_scope.values() for i, u in enumerate(v) if i % 5 == 0]
        held_y: list[str | None] = [k for k, v in in_scope.items() for i, _ in enumerate(v) if i % 5 == 0]
        held_x += list(examples.get(oos_label, []))
        held_y += [None] * len(examples.get(oos_label, []))
        part.fit(held_x, held_y)
        sr_router.calibrator = part.calibrator
        sr_router.confidence_threshold = 0.5
        note = "platt calibrator fitted on held-out train folds + oos examples; confidence_threshold 0.5"
    build_s = time.perf_counter() - t0
    if progress:
        progress(f"peer: semantic-router built in {build_s:.1f}s")
    gold, preds, ms = [], [], []
    for text, label in test:
        start = time.perf_counter()
        choice = sr_router(normalize(text))
        ms.append((time.perf_counter() - start) * 1000.0)
        name = getattr(choice, "name", None)
        preds.append(name if name is not None else (oos_label or ""))
        gold.append(label)
    out: dict[str, Any] = {"name": "semantic-router", "version": importlib.metadata.version("semantic-router"),
                           "config": note, **latency(ms), "build_s": round(build_s, 1)}
    if oos_label is not None:
        out.update(in_scope_accuracy=in_scope_accuracy(gold, preds, oos_label),
                   oos_recall=oos_recall(gold, preds, oos_label), oos_precision=oos_precision(gold, preds, oos_label))
    else:
        out["accuracy"] = accuracy(gold, preds)
    return out


# ---------------------------------------------------------------------------- CLI
def routing_command(
    clinc: Annotated[Path | None, typer.Option(help="CLINC150 JSON (splits train/val/test + oos_<split>).",
                                               exists=True, dir_okay=False)] = None,
    train_split: Annotated[str, typer.Option(help="CLINC split to train on.")] = "train",
    test_split: Annotated[str, typer.Option(help="CLINC split to measure on.")] = "val",
    jsonl_train: Annotated[Path | None, typer.Option(help="Labelled JSONL to train on (e.g. SMP2017 train).",
                                                     exists=True, dir_okay=False)] = None,
    jsonl_test: Annotated[Path | None, typer.Option(help="Labelled JSONL to measure on.",
                                                    exists=True, dir_okay=False)] = None,
    product: Annotated[Path | None, typer.Option(help="Labelled JSONL of product intents: measure the "
                                                      "packaged classifier.", exists=True, dir_okay=False)] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Measure at most N test messages (even stride).")] = None,
    peer: Annotated[bool, typer.Option(help="Also measure semantic-router when installed.")] = True,
    threshold_protocol: Annotated[str, typer.Option(
        help="CLINC out-of-scope threshold: train-oof (fitted on training folds), val (chosen on "
             "--threshold-split, measured on --test-split) or val-halves (chosen on one half of "
             "--test-split, measured on the other, both ways, every seed; reports the worst).")] = "train-oof",
    threshold_split: Annotated[str, typer.Option(help="CLINC split to choose the threshold on (protocol val).")] = "val",
    seeds: Annotated[str, typer.Option(help="Comma-separated seeds for val-halves.")] = "0,1,2,3,4,5,6,7,8,9",
    min_in_scope: Annotated[float, typer.Option(min=0.0, max=1.0, help="In-scope accuracy the chosen "
                                                "threshold must keep (protocols val, val-halves).")] = 0.95,
    oos_score: Annotated[str, typer.Option(help="In-scope score of the semantic tier: blend-centred (log "
                                                "probability + kNN cosine minus the intent's own mean kNN "
                                                "cosine), blend (log probability + kNN cosine) or "
                                                "confidence.")] = "blend-centred",
    threshold_rule: Annotated[str, typer.Option(
        help="How protocols val/val-halves choose: in-scope-quantile (reject the share of in-scope "
             "queries that training-fold accuracy minus --min-in-scope allows, lowest score first) or "
             "max-recall (most out-of-scope recall keeping --min-in-scope on the chooser).")] = "in-scope-quantile",
    provider: Annotated[str | None, typer.Option(help=PROVIDER_HELP + " It runs the LLM tier for messages every "
                                                 "offline tier leaves below the threshold.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="One JSON object on stdout's last line.")] = False,
) -> None:
    """Intent routing: CLINC150 in-scope accuracy + out-of-scope recall, JSONL accuracy, tiers, latency."""
    if clinc is None and product is None and (jsonl_train is None or jsonl_test is None):
        typer.echo("error: give --clinc, --product, or both --jsonl-train and --jsonl-test", err=True)
        raise typer.Exit(2)

    if (threshold_protocol not in THRESHOLD_PROTOCOLS or oos_score not in OOS_SCORES
            or threshold_rule not in THRESHOLD_RULES):
        typer.echo(f"error: --threshold-protocol is one of {', '.join(THRESHOLD_PROTOCOLS)}; "
                   f"--oos-score is one of {', '.join(OOS_SCORES)}; --threshold-rule is one of {', '.join(THRESHOLD_RULES)}",
                   err=True)
        raise typer.Exit(2)

    def say(msg: str) -> None:
        typer.echo(msg, err=True)

    report: dict[str, Any] = {}
    chat = cli_provider(provider)
    whole = LLMUse(chat)
    try:
        if clinc is not None:
            seed_list = [int(x) for x in seeds.split(",") if x.strip()]
            report["clinc"] = run_clinc(clinc, train_split, test_split, limit, peer=peer, progress=say,
                                        threshold_protocol=threshold_protocol, threshold_split=threshold_split,
                                        seeds=seed_list, min_in_scope=min_in_scope, oos_score=oos_score,
                                        threshold_rule=threshold_rule, provider=chat)
        if jsonl_train is not None and jsonl_test is not None:
            report["jsonl"] = run_jsonl(jsonl_train, jsonl_test, limit, peer=peer, progress=say, provider=chat)
        if product is not None:
            report["product"] = run_product(product, limit, progress=say, provider=chat)
        report.update({k: v for k, v in whole.report().items() if k not in ("turns", "llm_turns", "llm_fallback_turns")})
    except (ValueError, KeyError) as exc:
        typer.echo(f"error: not a routing data set ({exc})", err=True)
        raise typer.Exit(2) from None
    if json_out:
        sys.stdout.write(json.dumps(report, ensure_ascii=False) + "\n")
        return
    for name, section in report.items():
        typer.echo(f"[{name}]")
        for key, value in section.items():
            typer.echo(f"  {key}: {value}")
