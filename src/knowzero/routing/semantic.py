"""Tier 3: semantic match of the message's USE embedding against labelled example utterances.

Example utterances are embedded once (one ``(n, 512)`` matrix). Two scoring heads:

* ``linear`` (default whenever every intent has ``min_examples_linear`` examples): multinomial
  logistic regression on ``[USE embedding ; n-gram TF-IDF]`` (:mod:`knowzero.routing.head`). The
  n-gram half carries exact Chinese keywords (退款, 区别) and English word pairs that a
  sentence embedding blurs. Six fits (5 folds + final) take about a second on the product's ~270
  examples and about 20 s on CLINC150's 15k (one core).
* ``similarity``: per intent, ``knn_weight`` * mean of the top-``k`` cosines to its examples +
  (1 - ``knn_weight``) * cosine to its centroid. No training; used when examples are too few.

Either head's scores become a **calibrated** confidence: ``softmax(scores / T)`` with the
temperature ``T`` fitted on out-of-fold predictions (stratified k-fold on the examples; the
similarity head uses leave-one-out). **Out-of-scope:** with ``oos_label`` set, examples under
that label (CLINC's ``oos_train``, the product's vague ``clarify`` utterances) are a class of
their own, and a prediction whose *in-scope score* is below a threshold fitted on the same
out-of-fold predictions (:func:`head.fit_score_threshold`) is also reported as ``oos_label``, with
its low confidence, so the chain can fall through and the graph can take the safe path.

The in-scope score ``oos_score="blend"`` adds two views of "is this like anything
we were taught": the log of the best in-scope calibrated probability (the out-of-scope class and
the other intents take probability away from it — max-softmax, Hendrycks & Gimpel 2017) and the
mean cosine to the ``k`` nearest in-scope examples (kNN distance, Sun et al. 2022, "Out-of-Distribution
Detection with Deep Nearest Neighbors"). Each is weighted by the inverse of its spread over the
training examples' out-of-fold scores (leave-one-out for the kNN term), so neither dominates and
nothing is tuned on evaluation data. A query can be confidently classified yet far from every
example (CLINC's "how much has the dow changed today" is nearest to stock-ish banking examples at
a low cosine): the kNN term catches those; the probability term catches queries between intents.

``oos_score="blend-centred"`` is the same blend with the kNN cosine measured against the best
in-scope intent's *own* density: minus the mean leave-one-out kNN cosine of that intent's training
examples. Intents differ in how tightly their examples sit (on CLINC that mean runs from 0.64 for
``book_hotel`` or ``spelling`` to 0.91 for ``credit_score``), so one raw cosine means "typical" for a
loose intent and "far" for a tight one; centring puts every intent on the same footing (the idea of
class-conditional and local-density outlier scores, e.g. Breunig et al. 2000, LOF). The centre is one
number per intent, fitted on the training examples; per query it is one lookup.
``oos_score="confidence"`` (the default) keeps the plain calibrated-confidence threshold: the
product classifier uses it, because its out-of-scope label (``clarify``) means *vague*, not *far
from the examples* - a knowledge question about any document is far from its 26 knowledge examples
and must still be knowledge. The blend is for example sets that cover their domain densely (CLINC's
100 per intent); the evaluation compares the three with its held-out-halves protocol.

Per message: one encoder call (~1.5 ms on an idle core) plus ~0.1 ms of numpy; the blend adds one
pass over the in-scope example matrix (CLINC's 15k x 512 floats: a few ms, memory-bound).
Deliberately not done: caching (the classifier does that), writing anything to disk, and
re-fitting online.

>>> tier = SemanticTier({"greet": ["hello", "hi there"], "bye": ["goodbye", "see you"]})  # doctest: +SKIP
>>> tier.classify("hey hello").intent  # doctest: +SKIP
'greet'
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from knowzero.models.embeddings import router
from knowzero.routing.head import (
    NgramVectorizer,
    SoftmaxModel,
    fit_oos_threshold,
    fit_score_threshold,
    fit_temperature,
    softmax,
    stratified_folds,
    train_softmax,
)
from knowzero.routing.text import normalize
from knowzero.routing.types import Encoder, IntentResult

Head = Literal["auto", "linear", "similarity"]
OosScore = Literal["blend", "blend-centred", "confidence"]
OOS_SCORES: tuple[str, ...] = ("blend", "blend-centred", "confidence")


@dataclass(frozen=True)
class SemanticFit:
    """What fitting measured on the examples (out-of-fold, never on test data)."""

    head: str
    n_examples: int
    n_intents: int
    temperature: float
    oos_threshold: float | None
    oof_accuracy: float
    oof_ece: float
    fit_seconds: float
    oos_score: str = "confidence"
    """What ``oos_threshold`` applies to: ``confidence`` or the ``blend``/``blend-centred`` in-scope score."""
    knn_weight: float = 0.0
    """Weight of the kNN cosine in the blend (log-probability spread / kNN spread, out-of-fold)."""
    oof_in_scope_accuracy: float = float("nan")
    """Out-of-fold accuracy on the in-scope examples, best in-scope intent (nothing rejected)."""


def expected_calibration_error(proba: np.ndarray, y: np.ndarray, bins: int = 10) -> float:
    """Bin-weighted gap between stated top-1 confidence and observed accuracy."""
    conf = proba.max(axis=1)
    correct = (proba.argmax(axis=1) == y).astype(np.float64)
    idx = np.clip((conf * bins).astype(int), 0, bins - 1)
    total = 0.0
    for b in range(bins):
        m = idx == b
        if m.any():
            total += m.mean() * abs(conf[m].mean() - correct[m].mean())
    return float(total)


class SemanticTier:
    """Embedding classifier over labelled examples with calibrated confidence and OOS detection.

    ``examples`` maps intent → utterances (at least two intents). ``encoder`` defaults to the
    process-wide USE encoder (``knowzero.models.embeddings.router()``). ``embeddings`` may pass
    precomputed example vectors (same order as ``examples`` flattened) to skip encoding.
    """

    method = "semantic"

    def __init__(self, examples: Mapping[str, Sequence[str]], *, oos_label: str | None = None,
                 encoder: Encoder | None = None, head: Head = "auto", ngram_features: bool = True,
                 max_ngrams: int = 1000, k: int = 3, knn_weight: float = 0.5, folds: int = 5,
                 oos_prior: float = 0.1, oos_reject_rate: float = 0.05, min_examples_linear: int = 5,
                 oos_score: OosScore = "confidence", oos_k: int = 5,
                 seed: int = 0, embeddings: np.ndarray | None = None) -> None:
        labels = [label for label, utts in examples.items() if len(utts) > 0]
        if len(labels) < 2:
            raise ValueError("the semantic tier needs examples for at least two intents")
        if head not in ("auto", "linear", "similarity"):
            raise ValueError(f"unknown head {head!r}")
        if not 0 <= knn_weight <= 1 or k < 1 or folds < 2 or not 0 < oos_prior < 1:
            raise ValueError("need 0 <= knn_weight <= 1, k >= 1, folds >= 2, 0 < oos_prior < 1")
        if oos_score not in OOS_SCORES or oos_k < 1:
            raise ValueError(f"oos_score must be one of {OOS_SCORES}, oos_k >= 1")
        if encoder is None:
            encoder = router()
        self.encoder: Encoder = encoder
        self.labels: tuple[str, ...] = tuple(labels)
        self.oos_label = oos_label
        self.k, self.knn_weight = k, knn_weight
        self._texts = [normalize(t) for label in labels for t in examples[label]]
        self._y = np.array([i for i, label in enumerate(labels) for _ in examples[label]], dtype=np.int64)
        start = time.perf_counter()
        if embeddings is not None:
            if embeddings.shape[0] != len(self._texts):
                raise ValueError("embeddings must have one row per example")
            self._emb = np.ascontiguousarray(embeddings, dtype=np.float32)
        else:
            self._emb = self._encode(self._texts)
        counts = np.bincount(self._y, minlength=len(labels))
        self.head: str = ("linear" if counts.min() >= min_examples_linear else "similarity") if head == "auto" else head
        self._class_rows = [np.flatnonzero(self._y == c) for c in range(len(labels))]
        self._use_ngrams = ngram_features and self.head == "linear"
        self._max_ngrams, self._seed = max_ngrams, seed
        oos_index = labels.index(oos_label) if oos_label in labels else None
        self._oos_index = oos_index
        self._in_scope_rows = np.flatnonzero(self._y != (-1 if oos_index is None else oos_index))
        self._in_scope_emb = np.ascontiguousarray(self._emb[self._in_scope_rows])  # copied once, not per query
        self.oos_score: OosScore = oos_score
        self.oos_k = oos_k
        self.blend_weight = 0.0
        self._knn_centre: np.ndarray | None = None
        """Per intent, the mean leave-one-out kNN cosine of its own examples (``blend-centred`` only)."""

        oof = self._out_of_fold(min(folds, int(counts.min())))
        self.temperature, self.threshold, oof_acc, ece = self._calibrate(
            oof, oos_index, oos_label is not None, oos_prior, oos_reject_rate)
        in_scope_acc = float("nan")
        if oof is not None and len(self._in_scope_rows):
            best_in = self._log_in_scope_proba(softmax(oof / self.temperature)).argmax(axis=1)
            in_scope_acc = float((best_in == self._y)[self._in_scope_rows].mean())
        if self.head == "linear":
            self._vectorizer, self._model = self._fit_linear(np.arange(len(self._y)))
        self.fit = SemanticFit(self.head, len(self._y), len(labels), self.temperature, self.threshold,
                               oof_acc, ece, time.perf_counter() - start, self.oos_score, self.blend_weight,
                               in_scope_acc)

    # ------------------------------------------------------------------ fitting
    def _out_of_fold(self, folds: int) -> np.ndarray | None:
        """Held-out scores for every example (None when some intent has a single example)."""
        if self.head == "similarity":
            return self._similarity_scores(self._emb, exclude_rows=np.arange(len(self._y)))
        return self._oof_linear(folds) if folds >= 2 else None

    def _calibrate(self, oof: np.ndarray | None, oos_index: int | None, detect_oos: bool, prior: float,
                   reject_rate: float) -> tuple[float, float | None, float, float]:
        """Temperature, out-of-scope threshold, held-out accuracy and ECE from held-out scores."""
        if oof is None:  # nothing held out: a neutral temperature and no out-of-scope threshold
            return (0.05 if self.head == "similarity" else 1.0), None, float("nan"), float("nan")
        temperature = fit_temperature(oof, self._y)
        proba = softmax(oof / temperature)
        threshold: float | None = None
        if detect_oos and self.oos_score == "confidence":
            threshold = fit_oos_threshold(proba, self._y, oos_index, prior=prior, reject_rate=reject_rate)
        elif detect_oos:
            log_p = self._log_in_scope_proba(proba)
            knn = self._knn_cosine(self._emb, exclude_self=True)
            if self.oos_score == "blend-centred":
                self._knn_centre = np.array([float(knn[rows].mean()) for rows in self._class_rows], dtype=np.float32)
                knn = knn - self._knn_centre[log_p.argmax(axis=1)]
            best_log_p = log_p.max(axis=1)
            spread = float(knn.std())
            self.blend_weight = float(best_log_p.std()) / spread if spread > 1e-9 else 0.0
            in_scope = best_log_p + self.blend_weight * knn
            is_oos = self._y == (-1 if oos_index is None else oos_index)
            correct = (log_p.argmax(axis=1) == self._y) & ~is_oos
            threshold = fit_score_threshold(in_scope, correct, is_oos, prior=prior, reject_rate=reject_rate)
        accuracy = float((proba.argmax(axis=1) == self._y).mean())
        return temperature, threshold, accuracy, expected_calibration_error(proba, self._y)

    def _encode(self, texts: Sequence[str], batch: int = 256) -> np.ndarray:
        parts = [self.encoder.encode(list(texts[i:i + batch])) for i in range(0, len(texts), batch)]
        return np.ascontiguousarray(np.vstack(parts), dtype=np.float32)

    @staticmethod
    def _features(emb: np.ndarray, texts: Sequence[str], vectorizer: NgramVectorizer | None) -> np.ndarray:
        if vectorizer is None or vectorizer.dim == 0:
            return emb
        return np.hstack([emb, vectorizer.transform(texts)])

    def _fit_linear(self, rows: np.ndarray) -> tuple[NgramVectorizer | None, SoftmaxModel]:
        texts = [self._texts[i] for i in rows]
        vectorizer = NgramVectorizer.fit(texts, max_features=self._max_ngrams) if self._use_ngrams else None
        x = self._features(self._emb[rows], texts, vectorizer)
        return vectorizer, train_softmax(x, self._y[rows], len(self.labels), seed=self._seed)

    def _oof_linear(self, folds: int) -> np.ndarray:
        fold = stratified_folds(self._y, folds, seed=self._seed)
        out = np.zeros((len(self._y), len(self.labels)), dtype=np.float32)
        for f in range(folds):
            train, held = np.flatnonzero(fold != f), np.flatnonzero(fold == f)
            vectorizer, model = self._fit_linear(train)
            x = self._features(self._emb[held], [self._texts[i] for i in held], vectorizer)
            out[held] = model.logits(x)
        return out

    def _similarity_scores(self, q: np.ndarray, exclude_rows: np.ndarray | None = None,
                           chunk: int = 2048) -> np.ndarray:
        """Top-k mean + centroid cosine per intent for each row of ``q`` (optionally leave-one-out)."""
        sums = np.stack([self._emb[r].sum(axis=0) for r in self._class_rows])
        centroids = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
        out = np.zeros((len(q), len(self.labels)), dtype=np.float32)
        for s in range(0, len(q), chunk):
            qb = q[s:s + chunk]
            sims = qb @ self._emb.T
            cent = qb @ centroids.T
            if exclude_rows is not None:
                own = exclude_rows[s:s + chunk]
                at = np.arange(len(qb))
                sims[at, own] = -np.inf
                own_class = self._y[own]
                rest = sums[own_class] - self._emb[own]
                cent[at, own_class] = np.einsum("bd,bd->b", rest, qb) / np.maximum(
                    np.linalg.norm(rest, axis=1), 1e-12)
            for c, rows in enumerate(self._class_rows):
                kk = min(self.k, len(rows))
                top = np.partition(sims[:, rows], len(rows) - kk, axis=1)[:, -kk:]
                finite = np.isfinite(top)
                knn = np.where(finite, top, 0.0).sum(axis=1) / np.maximum(finite.sum(axis=1), 1)
                out[s:s + len(qb), c] = self.knn_weight * knn + (1 - self.knn_weight) * cent[:, c]
        return out

    def _log_in_scope_proba(self, proba: np.ndarray) -> np.ndarray:
        """log of the calibrated probabilities with the out-of-scope column at -inf."""
        log_p = np.log(np.maximum(proba, 1e-12))
        if self._oos_index is not None:
            log_p[:, self._oos_index] = -np.inf
        return log_p

    def _knn_cosine(self, q: np.ndarray, exclude_self: bool = False, chunk: int = 2048) -> np.ndarray:
        """Mean of the ``oos_k`` highest cosines of each row of ``q`` to the in-scope examples.

        ``exclude_self`` (``q`` is the example matrix itself): an example's own row is left out.
        """
        rows, ref = self._in_scope_rows, self._in_scope_emb
        kk = min(self.oos_k, len(rows) - (1 if exclude_self else 0))
        out = np.zeros(len(q), dtype=np.float32)
        if kk < 1:
            return out
        for s in range(0, len(q), chunk):
            sims = q[s:s + chunk] @ ref.T
            if exclude_self:
                own = np.searchsorted(rows, np.arange(s, s + len(sims)))
                hit = (own < len(rows)) & (rows[np.minimum(own, len(rows) - 1)] == np.arange(s, s + len(sims)))
                sims[np.flatnonzero(hit), own[hit]] = -np.inf
            out[s:s + len(sims)] = np.partition(sims, sims.shape[1] - kk, axis=1)[:, -kk:].mean(axis=1)
        return out

    # ------------------------------------------------------------------ scoring
    def scores(self, texts: Sequence[str], emb: np.ndarray) -> np.ndarray:
        """Uncalibrated per-intent scores (logits) for normalised ``texts`` with embeddings ``emb``."""
        if self.head == "similarity":
            return self._similarity_scores(emb)
        return self._model.logits(self._features(emb, texts, self._vectorizer))

    def predict_proba(self, texts: Sequence[str]) -> np.ndarray:
        """Calibrated ``(n, n_intents)`` probabilities, columns in :attr:`labels` order."""
        norm = [normalize(t) for t in texts]
        return softmax(self.scores(norm, self._encode(norm)) / self.temperature)

    def in_scope_scores(self, texts: Sequence[str], emb: np.ndarray | None = None) -> tuple[list[str], np.ndarray]:
        """Best in-scope intent and in-scope score per text (higher = more in scope).

        The score is what :attr:`threshold` applies to: the blend (``oos_score="blend"`` or
        ``"blend-centred"``) or the calibrated confidence of the best in-scope intent. The
        evaluation uses it to choose a threshold on labelled data of its own (:meth:`set_threshold`).
        """
        norm = [normalize(t) for t in texts]
        if emb is None:
            emb = self._encode(norm)
        proba = softmax(self.scores(norm, emb) / self.temperature)
        log_p = self._log_in_scope_proba(proba)
        best = log_p.argmax(axis=1)
        if self.oos_score != "confidence":
            score = log_p.max(axis=1) + self.blend_weight * self._knn_term(emb, best)
        else:
            score = proba[np.arange(len(norm)), best]
        return [self.labels[i] for i in best], score.astype(np.float64)

    @property
    def knn_centre(self) -> dict[str, float]:
        """Intent → mean leave-one-out kNN cosine of its own examples (``blend-centred``; else empty)."""
        if self._knn_centre is None:
            return {}
        return {label: float(self._knn_centre[i]) for i, label in enumerate(self.labels) if i != self._oos_index}

    def set_threshold(self, threshold: float | None) -> None:
        """Replace the out-of-scope threshold (e.g. one chosen on a validation split)."""
        self.threshold = threshold

    def _in_scope_score(self, proba: np.ndarray, vec: np.ndarray, top: int) -> float:
        if self.oos_score == "confidence":
            return float(proba[top])
        knn = self._knn_term(vec[None, :], np.array([top]))[0]
        return float(np.log(max(float(proba[top]), 1e-12)) + self.blend_weight * knn)

    def _knn_term(self, emb: np.ndarray, best: np.ndarray) -> np.ndarray:
        """The blend's kNN cosine for rows of ``emb`` whose best in-scope intents are ``best``
        (``blend-centred``: minus that intent's own mean)."""
        knn = self._knn_cosine(emb)
        return knn if self._knn_centre is None else knn - self._knn_centre[best]

    def classify(self, text: str) -> IntentResult:
        """Always returns a result; low confidence (or ``oos_label``) when unsure."""
        start = time.perf_counter()
        norm = normalize(text)
        vec = self.encoder.encode([norm]).astype(np.float32, copy=False)
        proba = softmax(self.scores([norm], vec) / self.temperature)[0]
        order = np.argsort(-proba)[:3]
        top = int(order[0])
        intent, confidence = self.labels[top], float(proba[top])
        nearest = self._nearest(top, vec[0])
        reasoning = f"closest example '{nearest[0]}' ({nearest[1]:.2f}), p={confidence:.2f}"
        if self.oos_label is not None and intent != self.oos_label and self.threshold is not None:
            score = self._in_scope_score(proba, vec[0], top)
            if score < self.threshold:
                what = "p" if self.oos_score == "confidence" else "in-scope score"
                reasoning = (f"best guess {intent} (p={confidence:.2f}, {what} {score:.2f}) is below the "
                             f"out-of-scope threshold {self.threshold:.2f}")
                intent = self.oos_label
        return IntentResult(
            intent=intent, confidence=min(1.0, max(0.0, round(confidence, 4))), method="semantic",
            elapsed_ms=(time.perf_counter() - start) * 1000.0, reasoning=reasoning,
            candidates=tuple((self.labels[i], round(float(proba[i]), 4)) for i in order),
        )

    def _nearest(self, cls: int, vec: np.ndarray) -> tuple[str, float]:
        rows = self._class_rows[cls]
        sims = self._emb[rows] @ vec
        j = int(np.argmax(sims))
        return self._texts[rows[j]], float(sims[j])
