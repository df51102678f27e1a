"""One suite every retriever passes (Haystack's document-store test idea): keyword (SQLite FTS5 and
PostgreSQL full text), dense (numpy and pgvector), SQL (SQLite and PostgreSQL).

A retriever returns at most k hits, best first, each naming itself; it honours ``allowed``;
an empty query or empty index gives no hits and no error.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.pool import StaticPool

from knowzero.knowledge.index.dense import DenseIndex
from knowzero.knowledge.index.keyword import Fts5Index, PgTextIndex, open_index
from knowzero.knowledge.index.sqlindex import SqlIndex, TableInfo, create_table, new_table_name, row_offsets
from knowzero.knowledge.ingest.parsers import parse_bytes
from knowzero.knowledge.types import Passage, Retriever
from kz_testlib import postgres_url

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


def sqlite_engine() -> Engine:
    return create_engine("sqlite://", poolclass=StaticPool)


def pg_engine() -> Engine:
    """A throw-away schema on the local PostgreSQL (the ``test`` database is shared)."""
    url = postgres_url()
    if url is None:
        pytest.skip("PostgreSQL is not reachable")
    schema = f"kz_contract_{uuid.uuid4().hex[:10]}"
    url = url.replace("postgresql://", "postgresql+psycopg://", 1)
    with create_engine(url).begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    _SCHEMAS.append((url, schema))
    return create_engine(url, connect_args={"options": f"-c search_path={schema},public"})


_SCHEMAS: list[tuple[str, str]] = []


@pytest.fixture(autouse=True)
def _drop_schemas() -> Iterator[None]:
    yield
    while _SCHEMAS:
        url, schema = _SCHEMAS.pop()
        eng = create_engine(url)
        with eng.begin() as conn:
            conn.execute(text(f"DROP SCHEMA IF EXISTS {schema} CASCADE"))
        eng.dispose()


def make_fts5() -> Case:
    idx = open_index(sqlite_engine())
    assert isinstance(idx, Fts5Index)
    idx.add(PASSAGES)
    return Case(idx, SAME)


def make_pg_text() -> Case:
    idx = open_index(pg_engine())
    assert isinstance(idx, PgTextIndex)
    idx.add(PASSAGES)
    return Case(idx, SAME)


def make_dense() -> Case:
    return Case(DenseIndex([p.id for p in PASSAGES], np.vstack([_bag(p.text) for p in PASSAGES]), encode_query=_bag),
                SAME)


def make_dense_model() -> Case:
    from knowzero.models.embeddings import dense

    enc = dense()
    return Case(DenseIndex([p.id for p in PASSAGES], enc.passages([p.text for p in PASSAGES]), encode_query=enc.query),
                SAME)


def make_pgvector() -> Case:
    from knowzero.knowledge.index.dense import PgVectorIndex

    eng = pg_engine()
    if not PgVectorIndex.available(eng):
        pytest.skip("pgvector is not installed (scripts/install_pgvector.sh)")
    idx = PgVectorIndex(eng, encode_query=_bag)
    idx.add([p.id for p in PASSAGES], [p.path for p in PASSAGES], np.vstack([_bag(p.text) for p in PASSAGES]))
    return Case(idx, SAME)


# The same four facts as a CSV table: one row each (the SQL retriever answers lookups, superlatives
# and comparisons over cells and headers, not free text).
FACTS_CSV = (
    "条目,说明,公差_mm\n"
    "零件A,外圆公差为±0.01mm，材料为45#钢,0.01\n"
    "零件B,外圆公差为±0.05mm，材料为6061铝合金,0.05\n"
    "差旅住宿标准,一类城市每晚不超过500元,\n"
    "CNC加工中心,每天开机后主轴预热10分钟,\n"
)


def make_sql(engine: Engine | None = None) -> Case:
    engine = engine if engine is not None else create_engine("sqlite://", poolclass=StaticPool)
    doc = parse_bytes(FACTS_CSV.encode(), "facts.csv")
    assert doc.table is not None
    name = new_table_name()
    with engine.begin() as conn:
        create_table(conn, name, doc.table.columns, doc.table.rows)
    info = TableInfo(name, "facts.csv", "c", tuple(doc.table.columns), row_offsets(doc.text), "facts", "general")
    return Case(SqlIndex(engine, [info], {"facts.csv": doc.text}), {f"p{i + 1}": info.row_id(i) for i in range(4)})


def make_sql_pg() -> Case:
    """The same tables on PostgreSQL (PostgreSQL mode stores CSV tables there)."""
    return make_sql(pg_engine())


FACTORIES = {"keyword-fts5": make_fts5, "keyword-pg": make_pg_text, "dense": make_dense,
             "dense-pgvector": make_pgvector, "dense-e5": make_dense_model, "sql": make_sql, "sql-pg": make_sql_pg}


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


@pytest.mark.parametrize("kind", ["dense", "dense-pgvector"])
def test_dense_indexes_say_which_ids_have_no_vector_yet(kind: str) -> None:
    """``missing``: what the dense list could not have returned (fusion does not rank those down)."""
    case = FACTORIES[kind]()
    have = [case.ids[k] for k in sorted(case.ids)]
    assert case.retriever.missing([*have, "queued-chunk"]) == {"queued-chunk"}
    assert case.retriever.missing([]) == set()


@pytest.mark.parametrize("engine", [sqlite_engine, pg_engine])
def test_empty_keyword_index_gives_no_hits(engine: Any) -> None:
    idx = open_index(engine())
    assert idx.search("零件", 5) == [] and idx.search("", 5) == []
    assert idx.count() == 0 and not idx.has_term("零件")


def test_empty_index_gives_no_hits() -> None:
    assert DenseIndex([], np.zeros((0, 64), dtype=np.float32), encode_query=_bag).search("零件", 5) == []
    assert SqlIndex(create_engine("sqlite://"), [], {}).search("零件", 5) == []


@pytest.mark.parametrize("engine", [lambda: create_engine(f"sqlite:///{_tmp()}/k.db"), pg_engine])
def test_keyword_index_is_on_disk_and_incremental(engine: Any) -> None:
    """A second process sees what the first wrote; replacing a file's rows touches only that file."""
    eng = engine()
    first = open_index(eng)
    first.add(PASSAGES)
    again = open_index(create_engine(eng.url, connect_args=_connect_args(eng)))
    assert [h.id for h in again.search("公差", 3)] == [h.id for h in first.search("公差", 3)]
    assert again.count() == 4 and again.has_term("公差") and not again.has_term("火星")
    assert again.term_idf("外圆") < again.term_idf("火星"), "a seen term is more common than an unseen one"
    with eng.begin() as conn:
        first.remove_path("p3.md", conn)
        first.add([Passage("p5", "p3.md", "p3", "", "差旅住宿标准：二类城市每晚不超过400元。", 0, 20, "general", "c")],
                  conn)
    again.changed()
    assert again.count() == 4
    assert again.search("差旅住宿标准 二类城市", 4)[0].id == "p5"
    assert "p3" not in {h.id for h in again.search("一类城市", 4)}


def test_bm25_matches_the_formula() -> None:
    """FTS5 finds the candidates; the order is plain BM25 (k1=1.2, b=0.75, IDF log(1+(N-n+.5)/(n+.5)))."""
    import math
    from collections import Counter

    from knowzero.knowledge.index.keyword import passage_tokens
    from knowzero.knowledge.text import tokens

    idx = make_fts5().retriever
    docs = {p.id: passage_tokens(p) for p in PASSAGES}
    avgdl = sum(map(len, docs.values())) / len(docs)
    q = tokens("零件A的外圆公差")
    expect = {}
    for pid, toks in docs.items():
        tf = Counter(toks)
        s = 0.0
        for t, qtf in Counter(q).items():
            df = sum(t in d for d in docs.values())
            if tf[t]:
                idf = math.log(1 + (4 - df + 0.5) / (df + 0.5))
                s += idf * qtf * tf[t] * 2.2 / (tf[t] + 1.2 * (0.25 + 0.75 * len(toks) / avgdl))
        if s > 0:
            expect[pid] = s
    got = {h.id: h.score for h in idx.search("零件A的外圆公差", 4)}
    assert got.keys() == expect.keys()
    assert all(abs(got[p] - expect[p]) < 1e-6 for p in got)


def _tmp() -> Path:
    import tempfile

    return Path(tempfile.mkdtemp())


def _connect_args(eng: Engine) -> dict[str, Any]:
    return {"options": f"-c search_path={_SCHEMAS[-1][1]},public"} if eng.dialect.name == "postgresql" else {}


@pytest.mark.postgres
def test_postgres_top_k_is_exact_bm25_on_a_larger_corpus() -> None:
    """PostgreSQL's MaxScore shortcut (rare terms first, a bound for the common ones) returns the
    exact BM25 top k: the same ids and scores as the formula over every chunk, on the demo
    knowledge base's chunks (common and rare terms mixed) for each demo question."""
    import json
    from collections import Counter

    from knowzero.knowledge.index.keyword import _idf, bm25_scores, passage_tokens
    from knowzero.knowledge.ingest.chunker import chunk_text
    from knowzero.knowledge.kb import demo_kb_path
    from knowzero.knowledge.text import tokens

    ps = []
    for f in sorted(demo_kb_path().rglob("*.md")):
        for c in chunk_text(f.read_text(encoding="utf-8"), source=f.name, title=f.stem, max_chars=200, overlap=0):
            ps.append(Passage(c.id, f.name, c.title, c.section, c.text, c.start, c.end, "general", "c"))
    ps = list({p.id: p for p in ps}.values())
    idx = open_index(pg_engine())
    assert isinstance(idx, PgTextIndex)
    idx.add(ps)
    docs = [(p.id, passage_tokens(p)) for p in ps]
    df: Counter[str] = Counter(t for _, toks in docs for t in set(toks))
    avgdl = sum(len(toks) for _, toks in docs) / len(docs)
    questions = [json.loads(x)["question"] for x in (demo_kb_path() / "questions.jsonl").read_text("utf-8").splitlines()
                 if x.strip()]
    shortcut = 0
    for q in questions:
        qt = tokens(q)
        expect = sorted(((pid, s) for pid, s in bm25_scores(Counter(qt), docs, {t: _idf(len(docs), df[t]) for t in qt},
                                                           avgdl) if s > 0), key=lambda x: (-x[1], x[0]))[:10]
        got = idx.search(q, 10)
        assert [h.id for h in got] == [pid for pid, _ in expect], q
        assert all(abs(h.score - s) < 1e-6 for h, (_, s) in zip(got, expect, strict=True))
        shortcut += any(df[t] * PgTextIndex.TIERS[-1] > len(docs) for t in qt)
    assert len(ps) > 200 and shortcut > 5, "the questions mix common and rare terms"
