"""Keyword retrieval: Okapi BM25 over Chinese-aware tokens (jieba + whole Latin/part-number tokens).

An inverted index in numpy arrays, built from passages and saved to a file stamped with the
knowledge-base revision, so a process start loads it instead of re-segmenting. Scores are
plain BM25 (k1=1.2, b=0.75); the title and section path are indexed with the chunk text.
"""

from __future__ import annotations

import math
import pickle
from collections import Counter
from pathlib import Path

import numpy as np

from knowzero.knowledge.text import tokens
from knowzero.knowledge.types import Hit, Passage


def passage_tokens(p: Passage) -> list[str]:
    return tokens(f"{p.title} {p.section} {p.text}")


class BM25Index:
    """BM25 over passages.

    >>> idx = BM25Index.build([...passages...]); idx.search("零件A 公差", k=5)
    """

    name = "keyword"

    def __init__(self, ids: list[str], postings: dict[str, tuple[np.ndarray, np.ndarray]], lengths: np.ndarray,
                 k1: float = 1.2, b: float = 0.75) -> None:
        if k1 <= 0 or not 0 <= b <= 1:
            raise ValueError("need k1 > 0 and 0 <= b <= 1")
        self.ids = ids
        self.postings = postings
        self.lengths = lengths.astype(np.float32)
        self.k1, self.b = k1, b
        self.avgdl = float(self.lengths.mean()) if len(ids) else 1.0
        n = len(ids)
        self.idf = {t: math.log(1 + (n - len(d) + 0.5) / (len(d) + 0.5)) for t, (d, _) in postings.items()}
        self._pos = {pid: i for i, pid in enumerate(ids)}

    @classmethod
    def build(cls, passages: list[Passage]) -> BM25Index:
        acc: dict[str, tuple[list[int], list[int]]] = {}
        lengths = np.zeros(len(passages), dtype=np.float32)
        for i, p in enumerate(passages):
            toks = passage_tokens(p)
            lengths[i] = max(len(toks), 1)
            for t, tf in Counter(toks).items():
                docs, tfs = acc.setdefault(t, ([], []))
                docs.append(i)
                tfs.append(tf)
        postings = {t: (np.asarray(d, dtype=np.int32), np.asarray(f, dtype=np.float32)) for t, (d, f) in acc.items()}
        return cls([p.id for p in passages], postings, lengths)

    def term_idf(self, term: str) -> float:
        """IDF of a term; unseen terms get the maximum (they are rare by definition)."""
        n = len(self.ids)
        return self.idf.get(term, math.log(1 + (n + 0.5) / 0.5))

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        return self.search_tokens(tokens(query), k, allowed)

    def search_tokens(self, qtoks: list[str], k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if not self.ids or not qtoks:
            return []
        scores = np.zeros(len(self.ids), dtype=np.float32)
        norm = self.k1 * (1 - self.b + self.b * self.lengths / self.avgdl)
        for t, qtf in Counter(qtoks).items():
            post = self.postings.get(t)
            if post is None:
                continue
            docs, tfs = post
            scores[docs] += self.idf[t] * qtf * tfs * (self.k1 + 1) / (tfs + norm[docs])
        if allowed is not None:
            mask = np.zeros(len(self.ids), dtype=bool)
            for pid in allowed:
                j = self._pos.get(pid)
                if j is not None:
                    mask[j] = True
            scores[~mask] = 0
        nz = np.flatnonzero(scores > 0)
        if not len(nz):
            return []
        top = nz[np.argsort(-scores[nz], kind="stable")[:k]]
        return [Hit(self.ids[i], float(scores[i]), self.name) for i in top]

    def save(self, path: Path, revision: str) -> None:
        tmp = path.with_suffix(".tmp")
        with tmp.open("wb") as fh:
            pickle.dump({"revision": revision, "ids": self.ids, "postings": self.postings,
                         "lengths": self.lengths}, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path, revision: str) -> BM25Index | None:
        """The saved index if it matches ``revision``; None otherwise (caller rebuilds)."""
        try:
            with path.open("rb") as fh:
                data = pickle.load(fh)  # noqa: S301 - our own file in our own data dir
        except (OSError, pickle.UnpicklingError, EOFError):
            return None
        if data.get("revision") != revision:
            return None
        return cls(data["ids"], data["postings"], data["lengths"])
