"""Weighted reciprocal rank fusion: a pure function.

score(d) = Σ_r w_r / (k + rank_r(d)), rank starting at 1 (Cormack, Clarke & Büttcher, SIGIR 2009,
"Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning Methods"), with a
weight per retriever. Inputs are not mutated; ties break by id for a stable order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet

from knowzero.knowledge.types import Hit


def weighted_rrf(rankings: Mapping[str, Sequence[Hit]], weights: Mapping[str, float] | None = None,
                 k: int = 60, unseen: Mapping[str, AbstractSet[str]] | None = None) -> list[tuple[str, float, dict[str, float]]]:
    """Fuse ranked lists into [(id, score, {retriever: contribution})], best first.

    >>> a = [Hit("x", 3.0, "kw"), Hit("y", 1.0, "kw")]
    >>> b = [Hit("y", 0.9, "dense")]
    >>> [i for i, _, _ in weighted_rrf({"kw": a, "dense": b})]
    ['y', 'x']

    ``unseen`` names, per retriever, ids it could not have returned (a chunk whose vector is still
    queued): such an id's score is scaled by all weights over the weights of the retrievers that could
    see it, so a document searchable before it is embedded is not ranked down for a vote it could not get.

    >>> [i for i, _, _ in weighted_rrf({"kw": [Hit("new", 9, "kw"), Hit("old", 8, "kw")],
    ...                                 "dense": [Hit("old", 0.9, "dense")]}, unseen={"dense": {"new"}})]
    ['new', 'old']
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    totals: dict[str, float] = {}
    parts: dict[str, dict[str, float]] = {}
    for name, hits in rankings.items():
        w = 1.0 if weights is None else float(weights.get(name, 1.0))
        if w == 0:
            continue
        seen: set[str] = set()
        rank = 0
        for hit in hits:
            if hit.id in seen:
                continue
            seen.add(hit.id)
            rank += 1
            c = w / (k + rank)
            totals[hit.id] = totals.get(hit.id, 0.0) + c
            parts.setdefault(hit.id, {})[name] = c
    if unseen:
        weight = {name: (1.0 if weights is None else float(weights.get(name, 1.0))) for name in rankings}
        for i in totals:
            # the retrievers that voted for it, and those that could not have: scaled as if each of the latter
            # had voted as the former did on average (a structured-query list it was never a row of is no vote
            # it missed)
            voted = sum(weight[name] for name in parts[i])
            blind = sum(w for name, w in weight.items() if w > 0 and i in unseen.get(name, ()))
            if voted > 0 and blind > 0:
                totals[i] *= (voted + blind) / voted
    return sorted(((i, s, parts[i]) for i, s in totals.items()), key=lambda t: (-t[1], t[0]))


LEAD_MARGIN = 1.2
"""A retriever's first hit is kept among the first ``n`` only when it stands out: its score at least this many
times the second's (a BM25 leader 1.26× ahead held the answer; headers 1.02–1.09× ahead did not)."""


def leaders_within(fused: Sequence[tuple[str, float, dict[str, float]]], rankings: Mapping[str, Sequence[Hit]],
                   n: int) -> list[tuple[str, float, dict[str, float]]]:
    """``fused`` with each retriever's first hit moved up to place ``n`` when fusion ranked it lower and it
    stands out (:data:`LEAD_MARGIN`).

    A passage one retriever ranks first and another barely sees (a table chunk whose words match every
    term but whose vector does not) loses in plain RRF to passages both rank middling; the reader never
    sees it. Each retriever's best is kept among the first ``n`` instead, after the fused ones above it.

    >>> f = [("a", .03, {}), ("b", .029, {}), ("c", .028, {}), ("k", .027, {})]
    >>> [i for i, _, _ in leaders_within(f, {"kw": [Hit("k", 9, "kw"), Hit("c", 7, "kw")]}, 3)]
    ['a', 'b', 'k', 'c']
    >>> [i for i, _, _ in leaders_within(f, {"kw": [Hit("k", 9, "kw"), Hit("c", 8, "kw")]}, 3)]
    ['a', 'b', 'c', 'k']
    """
    leaders = {hits[0].id for hits in rankings.values()
               if hits and (len(hits) < 2 or hits[0].score >= LEAD_MARGIN * hits[1].score > 0)}
    late = [t for t in fused[n:] if t[0] in leaders]
    if not late or n <= len(late):
        return list(fused)
    rest = [t for t in fused if t not in late]
    return rest[:n - len(late)] + late + rest[n - len(late):]
