"""Dense retrieval: a numpy matrix of bundled-model embeddings, brute-force cosine.

Embeddings are cached in the database by (model, text) hash, so re-ingesting or rebuilding never
re-embeds unchanged text; the demo knowledge base ships its vectors the same way. At 100k × 384
a brute-force scan is ~5 ms, which beats every embedded ANN option measured here (STACK.md).
"""

from __future__ import annotations

import numpy as np

from knowzero.knowledge.types import Hit


class DenseIndex:
    """Cosine search over L2-normalised vectors.

    >>> idx = DenseIndex(["a", "b"], matrix); idx.search_vector(qvec, k=5)
    """

    name = "dense"

    def __init__(self, ids: list[str], matrix: np.ndarray, encode_query=None) -> None:  # type: ignore[no-untyped-def]
        if matrix.ndim != 2 or matrix.shape[0] != len(ids):
            raise ValueError("matrix must be (len(ids), dim)")
        self.ids = ids
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._pos = {pid: i for i, pid in enumerate(ids)}
        self._encode_query = encode_query

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if self._encode_query is None:
            raise ValueError("DenseIndex was built without a query encoder")
        return self.search_vector(self._encode_query(query), k, allowed)

    def search_vector(self, q: np.ndarray, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if not self.ids:
            return []
        scores = self.matrix @ q.astype(np.float32)
        if allowed is not None:
            mask = np.full(len(self.ids), -np.inf, dtype=np.float32)
            idx = [self._pos[p] for p in allowed if p in self._pos]
            mask[idx] = 0
            scores = scores + mask
        k = min(k, len(self.ids))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [Hit(self.ids[i], float(scores[i]), self.name) for i in top if np.isfinite(scores[i])]

    def similarity(self, q: np.ndarray, pid: str) -> float:
        j = self._pos.get(pid)
        return float(self.matrix[j] @ q) if j is not None else 0.0
