"""CSV headers are data, never SQL — on a real PostgreSQL (issue 10, finding 1).

The outside tester's header, uploaded anonymously, made ``alice`` an admin on PostgreSQL (psycopg
runs several statements in one unparameterised execute). Here the same header goes through
``ingest_bytes`` (what ``POST /v1/kb/upload`` calls): alice stays a customer, no ``junk`` table
appears, the file is ingested with the header kept as metadata, and refused files stay per-file
errors. The SQLite twin is tests/unit/knowledge/index/test_csv_sql_safety.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Column, Integer, MetaData, Table, Text, create_engine, inspect, select

from knowzero.config import Settings
from knowzero.knowledge.answer.retriever import Plan, retrieve
from knowzero.knowledge.index.sqlindex import TABLE_NAME
from knowzero.knowledge.index.tables import kb_files, kb_tables
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import init_db, metadata
from knowzero.service.tables import svc_users

pytestmark = pytest.mark.postgres

ATTACK = 'x" TEXT); UPDATE svc_users SET role=$$admin$$ WHERE id=$$alice$$; COMMIT; CREATE TABLE "junk" ("a'


def _kb(pg_url: str, tmp_path: Path) -> KnowledgeBase:
    settings = Settings(data_dir=tmp_path / "data", database_url=pg_url)
    kb = KnowledgeBase(create_engine(settings.db_url), settings)
    with kb.engine.begin() as conn:
        conn.execute(svc_users.insert().values(id="alice", name="Alice", role="customer"))
    return kb


def _csv(header: str) -> bytes:
    quoted = '"' + header.replace('"', '""') + '"'
    return f"型号,{quoted},单价_元\nXH-1001,a,68\nXH-7002,b,880\n".encode()


def test_injected_header_changes_nothing_on_postgres(pg_url: str, tmp_path: Path) -> None:
    kb = _kb(pg_url, tmp_path)
    try:
        report: Any = kb.ingest_bytes("evil.csv", _csv(ATTACK), collection="uploads", domain="product")
    except Exception as exc:  # noqa: BLE001 - the canary checks below run first and say what happened
        report = exc
    with kb.engine.connect() as conn:
        role = conn.execute(select(svc_users.c.role).where(svc_users.c.id == "alice")).scalar()
    assert role == "customer", "the header ran as SQL: alice was made an admin"
    assert "junk" not in inspect(kb.engine).get_table_names()
    assert not isinstance(report, Exception), f"ingest raised {report!r}"
    assert report.failed == [] and report.added == ["uploads/evil.csv"]
    with kb.engine.connect() as conn:
        (row,) = conn.execute(select(kb_tables)).all()
    assert [c["name"] for c in inspect(kb.engine).get_columns(row.name)] == ["_row", "c1", "c2", "c3"]
    assert [c["header"] for c in json.loads(row.columns)] == ["型号", ATTACK, "单价_元"]
    out = retrieve(kb, "哪个产品最贵？", Plan(strategy="sql"))
    assert out.passages[0].passage.text.startswith("型号: XH-7002；") and "单价_元: 880" in out.passages[0].passage.text


def test_refused_csvs_are_per_file_errors_on_postgres(pg_url: str, tmp_path: Path) -> None:
    kb = _kb(pg_url, tmp_path)
    cases = {
        "dup.csv": (b"a,b,a\n1,2,3\n", "columns 1 and 3 have the same header 'a'"),
        "empty.csv": (b"a,,c\n1,2,3\n", "column 2 has an empty header"),
        "wide.csv": (",".join(f"h{i}" for i in range(3000)).encode() + b"\n" + b"1," * 2999 + b"1\n",
                     "3000 columns; at most 200 are supported"),
        "nul.csv": (b"a,b\n1,x\x00y\n", "contains NUL characters"),
    }
    for name, (data, message) in cases.items():
        report = kb.ingest_bytes(name, data)
        assert report.added == [] and len(report.failed) == 1, (name, report.failed)
        assert message in report.failed[0]["error"], (name, report.failed)
    big = "型号,单价_元\n" + "".join(f"XH-{i:04d},{i}\n" for i in range(50))
    report = kb.ingest_bytes("ints.csv", (big + "XH-9999,99999999999\n").encode(), domain="product")
    assert report.failed == [], "a value beyond 32 bits is stored (BIGINT), not a server error"
    assert kb.sql is not None and "99999999999" in kb.sql.query("单价最高的型号", 1)[0][0].text


def test_a_nul_byte_in_a_text_file_is_not_a_server_error_on_postgres(pg_url: str, tmp_path: Path) -> None:
    kb = _kb(pg_url, tmp_path)
    report = kb.ingest_bytes("notes.md", "# 说明\n\n车间\x00里禁止拍照。\n".encode())
    assert report.failed == [] and report.added == ["uploads/notes.md"]
    assert "车间里禁止拍照" in kb.file_texts["uploads/notes.md"]


def test_old_tables_are_migrated_on_postgres(pg_url: str, tmp_path: Path) -> None:
    """A PostgreSQL database from before generated names: the table is rebuilt as kbt_<hex>(c1, c2)."""
    engine = create_engine(Settings(data_dir=tmp_path, database_url=pg_url).db_url)
    metadata.create_all(engine)  # the schema as it was, without running the migrations
    legacy = Table("kbt_0123456789ab", MetaData(), Column("_row", Integer, primary_key=True),
                   Column("型号", Text), Column("单价_元", Integer))
    rendering = "# prices\n型号: XH-1001；单价_元: 68。\n型号: XH-7002；单价_元: 880。"
    with engine.begin() as conn:
        legacy.create(conn)
        conn.execute(legacy.insert(), [{"_row": 0, "型号": "XH-1001", "单价_元": 68},
                                       {"_row": 1, "型号": "XH-7002", "单价_元": 880}])
        conn.execute(kb_files.insert().values(path="demo/prices.csv", collection="demo", domain="product",
                                              sha256="0" * 64, title="prices", kind="csv", text=rendering,
                                              origin="", ingested_at=0.0))
        conn.execute(kb_tables.insert().values(name=legacy.name, path="demo/prices.csv", collection="demo",
                                               columns=json.dumps([["型号", "TEXT"], ["单价_元", "INTEGER"]])))
    init_db(engine)
    with engine.connect() as conn:
        (row,) = conn.execute(select(kb_tables)).all()
    assert TABLE_NAME.fullmatch(row.name) and row.name != legacy.name
    assert [c["name"] for c in inspect(engine).get_columns(row.name)] == ["_row", "c1", "c2"]
    assert legacy.name not in inspect(engine).get_table_names()
    kb = KnowledgeBase(engine, Settings(data_dir=tmp_path / "data", database_url=pg_url))
    kb.refresh()
    assert kb.sql is not None and kb.sql.query("哪个最贵？单价", 1)[0][0].text == "型号: XH-7002；单价_元: 880。"
    engine.dispose()
