"""One suite every retriever passes (Haystack's document-store test idea): BM25, dense, SQL.

A retriever returns at most k hits, best first, each naming itself; it honours ``allowed``;
an empty query or empty index gives no hits and no error.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from knowzero.knowledge.dense import DenseIndex
from knowzero.knowledge.keyword import BM25Index
from knowzero.knowledge.types import Passage, Retriever

TEXTS = {
    "p1": "零件A的外圆公差为±0.01mm，材料为45#钢。",
    "p2": "零件B的外圆公差为±0.05mm，材料为6061铝合金。",
    "p3": "差旅住宿标准：一类城市每晚不超过500元。",
    "p4": "CNC 加工中心每天开机后主轴预热 10 分钟。",
}
PASSAGES = [Passage(pid, f"{pid}.md", pid, "", t, 0, len(t), "general", "c") for pid, t in TEXTS.items()]


def _bag(text: str) -> np.ndarray:
    """A deterministic bag-of-characters vector (the contract is about the index, not the model)."""
    v = np.zeros(64, dtype=np.float32)
    for ch in text:
        v[ord(ch) % 64] += 1.0
    return v / (np.linalg.norm(v) or 1.0)


def make_bm25() -> Retriever:
    return BM25Index.build(PASSAGES)


def make_dense() -> Retriever:
    return DenseIndex([p.id for p in PASSAGES], np.vstack([_bag(p.text) for p in PASSAGES]), encode_query=_bag)


def make_dense_model() -> Retriever:
    from knowzero.models.embeddings import dense

    enc = dense()
    return DenseIndex([p.id for p in PASSAGES], enc.passages([p.text for p in PASSAGES]), encode_query=enc.query)


FACTORIES = {"bm25": make_bm25, "dense": make_dense, "dense-e5": make_dense_model}


@pytest.fixture(params=sorted(FACTORIES))
def retriever(request: Any) -> Retriever:
    return FACTORIES[request.param]()


def test_at_most_k_hits_best_first_named(retriever: Retriever) -> None:
    hits = retriever.search("零件A的公差", 2)
    assert 0 < len(hits) <= 2
    assert all(h.retriever == retriever.name for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len({h.id for h in hits}) == len(hits)


def test_finds_the_obvious_passage(retriever: Retriever) -> None:
    assert retriever.search("差旅住宿标准 一类城市", 4)[0].id == "p3"


def test_allowed_restricts_results(retriever: Retriever) -> None:
    hits = retriever.search("零件的公差", 4, frozenset({"p2", "p4"}))
    assert hits and {h.id for h in hits} <= {"p2", "p4"}
    assert retriever.search("零件的公差", 4, frozenset()) == []


def test_empty_index_gives_no_hits() -> None:
    assert BM25Index.build([]).search("零件", 5) == []
    assert DenseIndex([], np.zeros((0, 64), dtype=np.float32), encode_query=_bag).search("零件", 5) == []


def test_bm25_survives_a_save_and_load(tmp_path: Any) -> None:
    idx = BM25Index.build(PASSAGES)
    idx.save(tmp_path / "k.idx", "rev1")
    assert BM25Index.load(tmp_path / "k.idx", "rev2") is None, "a stale revision is not loaded"
    loaded = BM25Index.load(tmp_path / "k.idx", "rev1")
    assert loaded is not None
    assert [h.id for h in loaded.search("公差", 3)] == [h.id for h in idx.search("公差", 3)]
