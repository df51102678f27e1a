"""The trainable numpy pieces behind the semantic tier (no scipy, no scikit-learn).

* :class:`NgramVectorizer` - TF-IDF over unigrams and bigrams of :func:`text.tokens` (CJK
  characters, Latin words), vocabulary capped by document frequency, rows L2-normalised.
* :func:`train_softmax` - multinomial logistic regression with L2, mini-batch Adam, seeded.
* :func:`fit_temperature` - the temperature that minimises held-out cross-entropy (Guo et al.
  2017, "On Calibration of Modern Neural Networks") against Platt-smoothed targets, so
  ``softmax(z / T)`` is a calibrated probability even when the held-out predictions are all right.
* :func:`fit_oos_threshold` - the confidence below which a prediction is called out-of-scope,
  chosen on held-out predictions.
* :func:`fit_score_threshold` - the same for any in-scope score (higher = more in scope), and
  :func:`threshold_at_accuracy` - the threshold with the most out-of-scope recall that keeps a
  required in-scope accuracy, for choosing on a labelled validation set, and
  :func:`threshold_at_in_scope_quantile` - the threshold that rejects a fixed share of in-scope
  queries, which needs no out-of-scope labels and so does not move with a few of them.
* :func:`stratified_folds` - fold ids with every class spread over the folds.

Deliberately nothing here knows about intents, encoders or the chain; every function is pure
(returns new arrays, never mutates its inputs) and deterministic for a given seed.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from knowzero.routing.text import ngrams


@dataclass(frozen=True)
class NgramVectorizer:
    """TF-IDF of token uni/bigrams, fitted on example utterances.

    >>> vec = NgramVectorizer.fit(["查订单", "查物流", "退款"], min_df=1)
    >>> vec.transform(["查订单"]).shape[0]
    1
    """

    vocab: dict[str, int]
    idf: np.ndarray

    @classmethod
    def fit(cls, texts: Sequence[str], *, min_df: int = 2, max_features: int = 1000) -> NgramVectorizer:
        df: Counter[str] = Counter()
        for text in texts:
            df.update(set(ngrams(text)))
        kept = sorted(((g, c) for g, c in df.items() if c >= min_df), key=lambda gc: (-gc[1], gc[0]))
        kept = kept[:max_features]
        n = len(texts)
        idf = np.array([math.log((1 + n) / (1 + c)) + 1.0 for _, c in kept], dtype=np.float32)
        return cls({g: i for i, (g, _) in enumerate(kept)}, idf)

    @property
    def dim(self) -> int:
        return len(self.vocab)

    def transform(self, texts: Sequence[str]) -> np.ndarray:
        """``(n, dim)`` float32, sublinear tf times idf, each row L2-normalised (zero rows stay 0)."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for gram, count in Counter(ngrams(text)).items():
                col = self.vocab.get(gram)
                if col is not None:
                    out[row, col] = (1.0 + math.log(count)) * self.idf[col]
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax, numerically stable."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@dataclass(frozen=True)
class SoftmaxModel:
    """``logits = x @ weights + bias``."""

    weights: np.ndarray
    bias: np.ndarray

    def logits(self, x: np.ndarray) -> np.ndarray:
        return x @ self.weights + self.bias


def train_softmax(x: np.ndarray, y: np.ndarray, n_classes: int, *, l2: float = 1e-5, lr: float = 0.01,
                  batch: int = 128, min_steps: int = 800, min_epochs: int = 10, max_epochs: int = 200,
                  seed: int = 0) -> SoftmaxModel:
    """Multinomial logistic regression by mini-batch Adam (cross-entropy + ``l2``/2 * |W|^2).

    Runs ``max(min_epochs, min_steps / batches_per_epoch)`` epochs (capped by ``max_epochs``):
    small example sets get enough updates, large ones (CLINC, 15k rows) a handful of epochs.
    """
    if x.ndim != 2 or len(x) != len(y):
        raise ValueError("x must be (n, d) with one label per row")
    rng = np.random.default_rng(seed)
    n, d = x.shape
    x = x.astype(np.float32, copy=False)
    onehot = np.eye(n_classes, dtype=np.float32)[y]
    w = np.zeros((d, n_classes), dtype=np.float32)
    b = np.zeros(n_classes, dtype=np.float32)
    mw, vw = np.zeros_like(w), np.zeros_like(w)
    mb, vb = np.zeros_like(b), np.zeros_like(b)
    per_epoch = math.ceil(n / batch)
    epochs = min(max_epochs, max(min_epochs, math.ceil(min_steps / per_epoch)))
    beta1, beta2, eps, t = 0.9, 0.999, 1e-8, 0
    for _ in range(epochs):
        order = rng.permutation(n)
        for s in range(0, n, batch):
            idx = order[s:s + batch]
            xb = x[idx]
            grad = (softmax(xb @ w + b) - onehot[idx]) / len(idx)
            gw = xb.T @ grad + l2 * w
            gb = grad.sum(axis=0)
            t += 1
            mw = beta1 * mw + (1 - beta1) * gw
            vw = beta2 * vw + (1 - beta2) * gw * gw
            mb = beta1 * mb + (1 - beta1) * gb
            vb = beta2 * vb + (1 - beta2) * gb * gb
            c1, c2 = 1 - beta1**t, 1 - beta2**t
            w = w - lr * (mw / c1) / (np.sqrt(vw / c2) + eps)
            b = b - lr * (mb / c1) / (np.sqrt(vb / c2) + eps)
    return SoftmaxModel(w, b)


def fit_temperature(logits: np.ndarray, y: np.ndarray, *, smoothing: float | None = None,
                    lo: float = 1e-3, hi: float = 100.0) -> float:
    """The T > 0 minimising mean cross-entropy of ``softmax(logits / T)`` (golden-section on log T).

    Targets are smoothed as in Platt (1999): the true class gets ``1 - smoothing`` (default
    ``1 / (n + 2)``), the rest share ``smoothing``. Without it, held-out predictions that are all
    right would drive T to zero and every later answer, however odd, would claim certainty.
    """
    rows = np.arange(len(y))
    n_classes = logits.shape[1]
    eps = 1.0 / (len(y) + 2) if smoothing is None else smoothing

    def nll(log_t: float) -> float:
        z = logits / math.exp(log_t)
        z = z - z.max(axis=1, keepdims=True)
        log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        true = log_p[rows, y]
        rest = (log_p.sum(axis=1) - true) / max(n_classes - 1, 1)
        return float(-((1 - eps) * true + eps * rest).mean())

    a, b = math.log(lo), math.log(hi)
    g = (math.sqrt(5) - 1) / 2
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = nll(c), nll(d)
    for _ in range(60):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = nll(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = nll(d)
    return math.exp((a + b) / 2)


def fit_oos_threshold(proba: np.ndarray, y: np.ndarray, oos_class: int | None, *, prior: float = 0.1,
                      reject_rate: float = 0.05) -> float:
    """Confidence threshold below which a prediction is out-of-scope, from held-out ``proba``.

    With out-of-scope examples (``oos_class`` present in ``y``): maximise the expected accuracy
    ``(1 - prior) * in_scope_accuracy(t) + prior * oos_recall(t)`` where a prediction counts as
    out-of-scope when it is ``oos_class`` or its confidence is below ``t``; ``prior`` is the
    assumed share of out-of-scope traffic. The median of the thresholds within half an
    out-of-scope example's worth of the best is returned (the argmax alone jumps with a single example).
    Without out-of-scope examples: the ``reject_rate`` quantile of the confidence of correct
    in-scope predictions (that share of them would be rejected).
    """
    pred = proba.argmax(axis=1)
    conf = proba.max(axis=1)
    has_oos = oos_class is not None and bool((y == oos_class).any())
    if not has_oos:
        correct = conf[(pred == y) & (y != (oos_class if oos_class is not None else -1))]
        return float(np.quantile(correct, reject_rate)) if len(correct) else 0.0
    inside = y != oos_class
    grid = np.round(np.arange(0.0, 1.0001, 0.005), 3)
    scores = np.empty(len(grid))
    for i, t in enumerate(grid):
        called_oos = (pred == oos_class) | (conf < t)
        acc = float(((pred == y) & ~called_oos)[inside].mean()) if inside.any() else 0.0
        rec = float(called_oos[~inside].mean())
        scores[i] = (1 - prior) * acc + prior * rec
    # the objective is flat near its top and steps by one example: take the middle of every
    # threshold within half an out-of-scope example's worth of the best, not a noisy argmax
    tolerance = 0.5 * prior / int((~inside).sum())
    near_best = grid[scores >= scores.max() - tolerance]
    return float(np.median(near_best))


def fit_score_threshold(score: np.ndarray, correct: np.ndarray, is_oos: np.ndarray, *, prior: float = 0.1,
                        reject_rate: float = 0.05, grid_size: int = 401) -> float:
    """Threshold on an in-scope ``score`` (called out-of-scope when below it), from held-out scores.

    ``correct`` marks in-scope examples whose in-scope intent is right, ``is_oos`` the out-of-scope
    examples. As :func:`fit_oos_threshold`: maximise ``(1 - prior) * in_scope_accuracy + prior *
    oos_recall`` over a grid of score quantiles and return the median of the thresholds within
    half an out-of-scope example's worth of the best; without out-of-scope examples, the
    ``reject_rate`` quantile of the correct in-scope scores.

    >>> fit_score_threshold(np.array([0.0, 0.1, 0.9, 1.0]), np.array([False, False, True, True]),
    ...                     np.array([True, True, False, False]), prior=0.5) > 0.1
    True
    """
    score = np.asarray(score, dtype=np.float64)
    correct, is_oos = np.asarray(correct, dtype=bool), np.asarray(is_oos, dtype=bool)
    if not is_oos.any():
        ok = score[correct & ~is_oos]
        return float(np.quantile(ok, reject_rate)) if len(ok) else float(score.min(initial=0.0))
    inside = ~is_oos
    grid = np.unique(np.quantile(score, np.linspace(0.0, 1.0, grid_size)))
    grid = np.concatenate([grid, [grid[-1] + 1e-9]])
    acc = np.array([(correct & (score >= t))[inside].mean() if inside.any() else 0.0 for t in grid])
    rec = np.array([(score < t)[is_oos].mean() for t in grid])
    objective = (1 - prior) * acc + prior * rec
    tolerance = 0.5 * prior / int(is_oos.sum())
    return float(np.median(grid[objective >= objective.max() - tolerance]))


def threshold_at_accuracy(score: np.ndarray, correct: np.ndarray, is_oos: np.ndarray,
                          min_in_scope: float) -> float:
    """The highest threshold (most out-of-scope recall) whose in-scope accuracy is ``>= min_in_scope``.

    A query is called out-of-scope when its ``score`` is below the threshold; in-scope accuracy
    counts a called-out in-scope query as wrong. The threshold is placed half-way between the
    last kept score and the next one, so a tie on the boundary is not decided by float noise.
    If even no rejection misses ``min_in_scope``, nothing is rejected (``-inf``).

    >>> threshold_at_accuracy(np.array([0.1, 0.2, 0.8, 0.9]), np.array([False, False, True, True]),
    ...                       np.array([True, True, False, False]), 1.0)
    0.5
    """
    score = np.asarray(score, dtype=np.float64)
    correct, is_oos = np.asarray(correct, dtype=bool), np.asarray(is_oos, dtype=bool)
    n_in = int((~is_oos).sum())
    if n_in == 0:
        return float("inf")
    values = np.unique(score)  # candidate t = values[i]: everything below values[i] is rejected
    order = np.sort(score[~is_oos & correct])
    lost = np.searchsorted(order, values, side="left")  # correct in-scope queries rejected at each t
    acc = (len(order) - lost) / n_in
    ok = np.flatnonzero(acc >= min_in_scope)
    if len(ok) == 0:
        return float("-inf")
    i = int(ok.max())
    return float(values[i] if i == 0 else (values[i - 1] + values[i]) / 2)


def threshold_at_in_scope_quantile(score: np.ndarray, is_oos: np.ndarray, reject_share: float) -> float:
    """The threshold below which ``reject_share`` of the in-scope queries' scores lie.

    Reads only the in-scope rows: a threshold placed by the in-scope score distribution (hundreds
    or thousands of queries) instead of by where a few dozen out-of-scope queries happen to fall
    does not jump between samples. ``reject_share`` is decided beforehand (e.g. an accuracy budget
    from training folds, :func:`reject_share_budget`); 0 rejects nothing (``-inf``).

    >>> threshold_at_in_scope_quantile(np.array([0.0, 1.0, 2.0, 3.0, 4.0, -5.0]),
    ...                                np.array([False] * 5 + [True]), 0.25)
    1.0
    """
    if not 0.0 <= reject_share < 1.0:
        raise ValueError("reject_share must be in [0, 1)")
    inside = np.asarray(score, dtype=np.float64)[~np.asarray(is_oos, dtype=bool)]
    if reject_share == 0.0 or len(inside) == 0:
        return float("-inf")
    return float(np.quantile(inside, reject_share))


def reject_share_budget(in_scope_accuracy: float, min_in_scope: float) -> float:
    """The share of in-scope queries one may reject and still keep ``min_in_scope`` accuracy.

    ``in_scope_accuracy`` is the accuracy with nothing rejected, measured where the threshold is
    not chosen (out-of-fold on the training examples). If every rejected query had been right,
    rejecting this share would land exactly on ``min_in_scope``; the lowest-scored queries are often
    wrong anyway, so the real cost is smaller - the budget errs on the side of in-scope accuracy.

    >>> round(reject_share_budget(0.97, 0.95), 4)
    0.02
    >>> reject_share_budget(0.93, 0.95)
    0.0
    """
    if not (math.isfinite(in_scope_accuracy) and 0.0 <= min_in_scope <= 1.0):
        return 0.0
    return float(min(max(in_scope_accuracy - min_in_scope, 0.0), 0.5))


def stratified_folds(y: np.ndarray, k: int, seed: int = 0) -> np.ndarray:
    """A fold id in ``[0, k)`` for every row, each class dealt round-robin after a seeded shuffle."""
    rng = np.random.default_rng(seed)
    fold = np.empty(len(y), dtype=np.int64)
    offset = 0
    for label in np.unique(y):
        idx = np.flatnonzero(y == label)
        rng.shuffle(idx)
        fold[idx] = (np.arange(len(idx)) + offset) % k
        offset += len(idx)
    return fold
