"""CSV headers are data, never SQL (issue 10, finding 1; finding 9's CSV cases) — on SQLite.

A real SQLite knowledge base ingests hostile CSVs through ``ingest_bytes`` (what the upload route
calls): injected headers are stored as metadata and change nothing else in the database; files the
SQL index cannot represent are refused per file with a clear message, quickly, before any
embedding. The PostgreSQL twin is tests/scale/test_csv_sql_postgres.py.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sqlalchemy import Column, Engine, Integer, MetaData, Table, Text, create_engine, inspect, select

from knowzero.config import Settings
from knowzero.knowledge.answer.retriever import Plan, retrieve
from knowzero.knowledge.index.tables import kb_chunks, kb_files, kb_meta, kb_tables
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import init_db, metadata
from knowzero.service.tables import svc_users

INJECTIONS = [
    # the tester's PostgreSQL payload, and SQLite spellings of the same idea
    'x" TEXT); UPDATE svc_users SET role=$$admin$$ WHERE id=$$alice$$; COMMIT; CREATE TABLE "junk" ("a',
    "x\" TEXT); UPDATE svc_users SET role='admin' WHERE id='alice'; CREATE TABLE \"junk\" (\"a",
    'a" TEXT, "junk" TEXT, "b',  # extra column definitions
    'p" INTEGER PRIMARY KEY); DROP TABLE svc_users; --',
]


class BagEncoder:
    """A deterministic bag-of-characters embedder (these tests are about SQL, not the model)."""

    calls = 0

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(384, dtype=np.float32)
        for ch in text:
            v[ord(ch) % 384] += 1.0
        return v / (np.linalg.norm(v) or 1.0)

    def query(self, text: str) -> np.ndarray:
        return self._vec(text)

    def passages(self, texts: list[str]) -> np.ndarray:
        BagEncoder.calls += 1
        return np.vstack([self._vec(t) for t in texts])


class NoEncoder:
    """An encoder that must never be asked: a refused file is refused before any embedding."""

    def query(self, text: str) -> np.ndarray:
        raise AssertionError("a refused file was embedded")

    passages = query


def sqlite_engine(url: str) -> Engine:
    return create_engine(url, connect_args={"check_same_thread": False})


def make_kb(data_dir: Path, encoder: Any = None) -> KnowledgeBase:
    s = Settings(data_dir=data_dir)
    enc = encoder or BagEncoder()
    return KnowledgeBase(sqlite_engine(s.db_url), s, encoder=lambda: enc)


def add_alice(kb: KnowledgeBase) -> None:
    with kb.engine.begin() as conn:
        conn.execute(svc_users.insert().values(id="alice", name="Alice", role="customer"))


def csv_bytes(header: list[str], rows: list[list[str]]) -> bytes:
    import csv
    import io

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")


def ingest(kb: KnowledgeBase, name: str, data: bytes) -> Any:
    """The report, or the exception the old code raised (so the canary checks still run first)."""
    try:
        return kb.ingest_bytes(name, data, collection="uploads", domain="product")
    except Exception as exc:  # noqa: BLE001 - the assertion below says what went wrong
        return exc


@pytest.mark.parametrize("header", INJECTIONS)
def test_injected_header_is_metadata_not_sql(tmp_path: Path, header: str) -> None:
    kb = make_kb(tmp_path / "kz")
    add_alice(kb)
    tables_before = set(inspect(kb.engine).get_table_names())
    report = ingest(kb, "evil.csv", csv_bytes(["型号", header], [["XH-1001", "68"], ["XH-1002", "32"]]))

    with kb.engine.connect() as conn:
        assert conn.execute(select(svc_users.c.role).where(svc_users.c.id == "alice")).scalar() == "customer"
    tables_after = set(inspect(kb.engine).get_table_names())
    assert "junk" not in tables_after
    assert not isinstance(report, Exception), f"ingest raised {report!r}"
    assert report.failed == [] and report.added == ["uploads/evil.csv"]
    new = tables_after - tables_before
    assert len(new) == 1 and next(iter(new)).startswith("kbt_"), new
    (name,) = new
    assert [c["name"] for c in inspect(kb.engine).get_columns(name)] == ["_row", "c1", "c2"]
    with kb.engine.connect() as conn:
        meta = json.loads(conn.execute(select(kb_tables.c.columns)).scalar_one())
    assert [c["header"] for c in meta] == ["型号", header], "the header is kept verbatim as metadata"
    assert kb.sql is not None
    (hit,) = kb.sql.query("XH-1002的参数", 3)
    assert hit[0].text.startswith("型号: XH-1002；") and hit[0].text.endswith(": 32。")


def test_header_with_quotes_and_control_characters_works(tmp_path: Path) -> None:
    kb = make_kb(tmp_path / "kz")
    data = csv_bytes(["型号", '单价"元', "备注\n(内部)"], [["XH-1001", "68", "a"], ["XH-7002", "880", "b\nc"]])
    report = kb.ingest_bytes("quotes.csv", data, domain="product")
    assert report.failed == [] and report.added
    assert kb.sql is not None
    best = kb.sql.query("哪个型号最贵？", 3)[0]
    assert best[0].text == '型号: XH-7002；单价"元: 880；备注 (内部): b c。', "one line per row"
    cited = kb.file_texts[best[0].path][best[0].start:best[0].end]
    assert cited == best[0].text


@pytest.mark.parametrize(("header", "message"), [
    (["型号", "单价", "单价"], "columns 2 and 3 have the same header '单价'"),
    (["Price", "price "], "columns 1 and 2 have the same header"),
    (["型号", "", "单价"], "column 2 has an empty header"),
    (["型号", "x" * 201], "the header of column 2 is 201 characters long; at most 200"),
    ([f"c{i}" for i in range(201)], "201 columns; at most 200 are supported"),
])
def test_unrepresentable_headers_are_refused_per_file(tmp_path: Path, header: list[str], message: str) -> None:
    kb = make_kb(tmp_path / "kz", NoEncoder())
    report = ingest(kb, "bad.csv", csv_bytes(header, [["1"] * len(header)]))
    assert not isinstance(report, Exception), f"ingest raised {report!r}"
    assert report.added == [] and len(report.failed) == 1
    assert report.failed[0]["path"] == "bad.csv" and report.failed[0]["error"].startswith("bad.csv: ")
    assert message in report.failed[0]["error"]
    assert kb.is_empty()


def test_a_3000_column_csv_is_refused_cheaply(tmp_path: Path) -> None:
    kb = make_kb(tmp_path / "kz", NoEncoder())
    data = csv_bytes([f"col{i}" for i in range(3000)], [[f"v{r}_{i}" for i in range(3000)] for r in range(20)])
    t0 = time.process_time()
    report = ingest(kb, "wide.csv", data)
    cpu = time.process_time() - t0
    assert not isinstance(report, Exception), f"ingest raised {report!r}"
    assert report.failed == [{"path": "wide.csv", "error": "wide.csv: 3000 columns; at most 200 are supported"}]
    assert cpu < 0.5, f"refusing took {cpu:.2f}s of CPU"


@pytest.mark.parametrize(("data", "message"), [
    (b"a,b\n" + b"1,2\n" * 50_001, "more than 50000 rows"),
    (b",".join(f"h{i}".encode() for i in range(150)) + b"\n" + (b"1," * 149 + b"1\n") * 3400, "more than 500000 cells"),
    (b"a,b\n1,\x002\n", "contains NUL characters"),
    (b'a,b\n1,"' + b"x" * 200_000 + b'"\n', "not a readable CSV"),
    (b"a,b,,\n1,2,,3\n", "column 4 has an empty header"),
])
def test_oversized_or_unreadable_csv_is_refused(tmp_path: Path, data: bytes, message: str) -> None:
    kb = make_kb(tmp_path / "kz", NoEncoder())
    report = ingest(kb, "big.csv", data)
    assert not isinstance(report, Exception), f"ingest raised {report!r}"
    assert len(report.failed) == 1 and message in report.failed[0]["error"], report.failed


def test_trailing_empty_columns_of_a_spreadsheet_export_are_dropped(tmp_path: Path) -> None:
    kb = make_kb(tmp_path / "kz")
    report = kb.ingest_bytes("export.csv", b"a,b,,\n1,x,,\n2,y,,\n", domain="product")
    assert report.failed == [] and kb.sql is not None
    assert [c.header for c in kb.sql.tables[0].columns] == ["a", "b"]


def test_sql_rows_honour_the_collection_filter(tmp_path: Path) -> None:
    kb = make_kb(tmp_path / "kz")
    prices = "型号,名称,单价_元\nXH-1001,精密传动轴,68\nXH-7002,关节连接件,880\n".encode()
    assert not kb.ingest_bytes("prices.csv", prices, collection="sales", domain="product").failed
    assert not kb.ingest_bytes("说明.md", "# 说明\n\n关节连接件的单价请咨询销售。\n".encode(),
                               collection="docs", domain="product").failed
    question = "哪个产品最贵？"
    everywhere = retrieve(kb, question, Plan(strategy="sql"))
    assert everywhere.passages and everywhere.passages[0].passage.path == "sales/prices.csv"
    elsewhere = retrieve(kb, question, Plan(strategy="sql", collections=("docs",)))
    assert elsewhere.per_retriever.get("sql", 0) == 0 and elsewhere.passages == []
    hybrid = retrieve(kb, question, Plan(collections=("docs",)))
    assert all(s.passage.collection == "docs" for s in hybrid.passages)
    assert all(s.passage.path == "docs/说明.md" for s in hybrid.passages)


def test_old_data_dir_is_migrated_to_generated_names(tmp_path: Path) -> None:
    """A data dir written before generated names: tables are rebuilt; an injected one is removed."""
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = sqlite_engine(url)
    metadata.create_all(engine)  # the schema as it was, without running the migrations
    legacy = Table("kbt_0123456789ab", MetaData(), Column("_row", Integer, primary_key=True),
                   Column("型号", Text), Column("单价_元", Integer))
    rendering = "# prices\n型号: XH-1001；单价_元: 68。\n型号: XH-7002；单价_元: 880。"
    with engine.begin() as conn:
        legacy.create(conn)
        conn.execute(legacy.insert(), [{"_row": 0, "型号": "XH-1001", "单价_元": 68},
                                       {"_row": 1, "型号": "XH-7002", "单价_元": 880}])
        for path, name, cols in [("demo/prices.csv", legacy.name, [["型号", "TEXT"], ["单价_元", "INTEGER"]]),
                                 ("uploads/evil.csv", "kbt_ba9876543210", [['x" TEXT); --', "TEXT"]])]:
            conn.execute(kb_files.insert().values(path=path, collection="demo", domain="product", sha256="0" * 64,
                                                  title="prices", kind="csv", text=rendering, origin="",
                                                  ingested_at=0.0))
            conn.execute(kb_chunks.insert().values(id=path[:32], path=path, collection="demo", domain="product",
                                                   title="prices", section="", text=rendering, start=0,
                                                   end=len(rendering), ordinal=0))
            conn.execute(kb_tables.insert().values(name=name, path=path, collection="demo", columns=json.dumps(cols)))
        conn.execute(kb_meta.insert().values(key="revision", value="old"))
    init_db(engine)
    with engine.connect() as conn:
        rows = conn.execute(select(kb_tables)).all()
        revision = conn.execute(select(kb_meta.c.value).where(kb_meta.c.key == "revision")).scalar()
        files = set(conn.execute(select(kb_files.c.path)).scalars())
    assert revision != "old"
    assert files == {"demo/prices.csv"}, "the table whose columns do not match its header is removed"
    (row,) = rows
    assert row.name != legacy.name and row.name.startswith("kbt_")
    assert json.loads(row.columns) == [{"name": "c1", "header": "型号", "type": "TEXT"},
                                       {"name": "c2", "header": "单价_元", "type": "INTEGER"}]
    assert legacy.name not in inspect(engine).get_table_names()
    kb = KnowledgeBase(engine, Settings(data_dir=tmp_path / "kz"), encoder=BagEncoder)
    kb.refresh()
    assert kb.sql is not None
    best = kb.sql.query("哪个最贵？单价", 3)[0]
    assert best[0].text == "型号: XH-7002；单价_元: 880。"


@pytest.mark.parametrize(("name", "columns"), [
    ('kbt_0123456789ab"; DROP TABLE svc_users; --', [{"name": "c1", "header": "型号", "type": "TEXT"}]),
    ("kbt_0123456789ab", [{"name": 'c1" TEXT); --', "header": "型号", "type": "TEXT"}]),
    ("kbt_0123456789ab", [{"name": "c1", "header": "型号", "type": "TEXT); --"}]),
])
def test_stored_metadata_is_checked_before_it_names_anything(tmp_path: Path, name: str, columns: Any) -> None:
    """A tampered kb_tables row is skipped when loading; the good table still answers."""
    kb = make_kb(tmp_path / "kz")
    add_alice(kb)
    assert not kb.ingest_bytes("prices.csv", "型号,单价_元\nXH-1001,68\nXH-7002,880\n".encode(), domain="product").failed
    with kb.engine.begin() as conn:
        conn.execute(kb_tables.insert().values(name=name, path="x/tampered.csv", collection="x",
                                               columns=json.dumps(columns)))
        conn.execute(kb_meta.update().values(value="tampered"))
    kb.refresh()
    assert kb.revision == "tampered" and kb.sql is not None
    assert [t.path for t in kb.sql.tables] == ["uploads/prices.csv"]
    assert kb.sql.query("哪个最贵？单价", 1)[0][0].text == "型号: XH-7002；单价_元: 880。"
    with kb.engine.connect() as conn:
        assert conn.execute(select(svc_users.c.role)).scalar() == "customer"
