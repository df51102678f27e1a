"""One suite every retriever passes (Haystack's document-store test idea): BM25, dense, SQL.

A retriever returns at most k hits, best first, each naming itself; it honours ``allowed``;
an empty query or empty index gives no hits and no error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from knowzero.knowledge.dense import DenseIndex
from knowzero.knowledge.keyword import BM25Index
from knowzero.knowledge.parsers import parse_bytes
from knowzero.knowledge.sqlindex import SqlIndex, TableInfo, create_table, new_table_name, row_offsets
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


@dataclass(frozen=True)
class Case:
    """A retriever over the four facts, and each fact's passage id in it (SQL rows have their own)."""

    retriever: Retriever
    ids: dict[str, str]

    def id(self, key: str) -> str:
        return self.ids[key]


SAME = {pid: pid for pid in TEXTS}


def make_bm25() -> Case:
    return Case(BM25Index.build(PASSAGES), SAME)


def make_dense() -> Case:
    return Case(DenseIndex([p.id for p in PASSAGES], np.vstack([_bag(p.text) for p in PASSAGES]), encode_query=_bag),
                SAME)


def make_dense_model() -> Case:
    from knowzero.models.embeddings import dense

    enc = dense()
    return Case(DenseIndex([p.id for p in PASSAGES], enc.passages([p.text for p in PASSAGES]), encode_query=enc.query),
                SAME)


# The same four facts as a CSV table: one row each (the SQL retriever answers lookups, superlatives
# and comparisons over cells and headers, not free text).
FACTS_CSV = (
    "条目,说明,公差_mm\n"
    "零件A,外圆公差为±0.01mm，材料为45#钢,0.01\n"
    "零件B,外圆公差为±0.05mm，材料为6061铝合金,0.05\n"
    "差旅住宿标准,一类城市每晚不超过500元,\n"
    "CNC加工中心,每天开机后主轴预热10分钟,\n"
)


def make_sql() -> Case:
    engine = create_engine("sqlite://", poolclass=StaticPool)
    doc = parse_bytes(FACTS_CSV.encode(), "facts.csv")
    assert doc.table is not None
    name = new_table_name()
    with engine.begin() as conn:
        create_table(conn, name, doc.table.columns, doc.table.rows)
    info = TableInfo(name, "facts.csv", "c", tuple(doc.table.columns), row_offsets(doc.text), "facts", "general")
    return Case(SqlIndex(engine, [info], {"facts.csv": doc.text}), {f"p{i + 1}": info.row_id(i) for i in range(4)})


FACTORIES = {"bm25": make_bm25, "dense": make_dense, "dense-e5": make_dense_model, "sql": make_sql}


@pytest.fixture(params=sorted(FACTORIES))
def case(request: Any) -> Case:
    return FACTORIES[request.param]()


def test_at_most_k_hits_best_first_named(case: Case) -> None:
    hits = case.retriever.search("零件A的公差", 2)
    assert 0 < len(hits) <= 2
    assert all(h.retriever == case.retriever.name for h in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert len({h.id for h in hits}) == len(hits)


def test_finds_the_obvious_passage(case: Case) -> None:
    assert case.retriever.search("差旅住宿标准 一类城市", 4)[0].id == case.id("p3")


def test_allowed_restricts_results(case: Case) -> None:
    allowed = frozenset({case.id("p2"), case.id("p4")})
    hits = case.retriever.search("公差最小的零件", 4, allowed)
    assert hits and {h.id for h in hits} <= allowed
    assert case.retriever.search("公差最小的零件", 4, frozenset()) == []


def test_allowed_keeps_what_it_allows(case: Case) -> None:
    everything = frozenset(case.ids.values())
    assert case.retriever.search("差旅住宿标准 一类城市", 4, everything)[0].id == case.id("p3")
    assert case.id("p3") not in {h.id for h in case.retriever.search("差旅住宿标准 一类城市", 4,
                                                                     everything - {case.id("p3")})}


def test_empty_index_gives_no_hits() -> None:
    assert BM25Index.build([]).search("零件", 5) == []
    assert DenseIndex([], np.zeros((0, 64), dtype=np.float32), encode_query=_bag).search("零件", 5) == []
    assert SqlIndex(create_engine("sqlite://"), [], {}).search("零件", 5) == []


def test_bm25_survives_a_save_and_load(tmp_path: Any) -> None:
    idx = BM25Index.build(PASSAGES)
    idx.save(tmp_path / "k.idx", "rev1")
    assert BM25Index.load(tmp_path / "k.idx", "rev2") is None, "a stale revision is not loaded"
    loaded = BM25Index.load(tmp_path / "k.idx", "rev1")
    assert loaded is not None
    assert [h.id for h in loaded.search("公差", 3)] == [h.id for h in idx.search("公差", 3)]
