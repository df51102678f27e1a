"""Knowledge tables: ingested files, chunks, cached embeddings, structured (CSV) tables, revision."""

from __future__ import annotations

from sqlalchemy import Column, Float, Integer, LargeBinary, String, Table, Text, UniqueConstraint

from knowzero.persistence.db import metadata

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
)

kb_embeddings = Table(
    "kb_embeddings", metadata,
    Column("key", String(64), primary_key=True),  # sha of model name + text
    Column("vector", LargeBinary, nullable=False),
)

kb_tables = Table(
    "kb_tables", metadata,
    Column("name", String(200), primary_key=True),
    Column("path", String(1000), nullable=False, index=True),
    Column("collection", String(200), nullable=False),
    Column("columns", Text, nullable=False),  # JSON [[name, type], ...]
    UniqueConstraint("path", name="uq_kb_tables_path"),
)

kb_meta = Table(
    "kb_meta", metadata,
    Column("key", String(100), primary_key=True),
    Column("value", String(500), nullable=False),
)
