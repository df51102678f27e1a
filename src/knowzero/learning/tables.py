"""Learning tables: documents, their current sections, versions, comments, entities, learned topics, paths.

A document's *current* content lives in ``learning_sections`` (one row per section, stable ids);
every change also writes a full snapshot to ``learning_versions`` (version 1 is the first draft),
so diffs between any two versions are computed from snapshots, never reconstructed.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Index, Integer, String, Table, Text, UniqueConstraint

from knowzero.persistence.db import metadata

learning_documents = Table(
    "learning_documents", metadata,
    Column("id", String(32), primary_key=True),
    Column("topic", String(500), nullable=False),
    Column("topic_key", String(500), nullable=False, index=True),  # normalised topic, for "page exists?"
    Column("title", String(500), nullable=False),
    Column("category_path", String(1000), nullable=False, default=""),
    Column("parent_id", String(32), ForeignKey("learning_documents.id", ondelete="SET NULL"), nullable=True),
    Column("level", String(20), nullable=False, default="beginner"),
    Column("user_id", String(200), nullable=False, default="anonymous", index=True),
    Column("version", Integer, nullable=False, default=1),
    Column("status", String(20), nullable=False, default="ready"),  # ready | insufficient
    Column("meta", Text, nullable=False, default="{}"),  # JSON: entities, follow_ups, closest_topics, method
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

learning_sections = Table(
    "learning_sections", metadata,
    Column("document_id", String(32), ForeignKey("learning_documents.id", ondelete="CASCADE"), primary_key=True),
    Column("id", String(32), primary_key=True),
    Column("ordinal", Integer, nullable=False),
    Column("kind", String(30), nullable=False, default="detail"),  # definition | detail | example | pitfall | ...
    Column("heading", String(500), nullable=False),
    Column("markdown", Text, nullable=False),
    Column("citations", Text, nullable=False, default="[]"),  # JSON list
)

learning_versions = Table(
    "learning_versions", metadata,
    Column("document_id", String(32), ForeignKey("learning_documents.id", ondelete="CASCADE"), primary_key=True),
    Column("version", Integer, primary_key=True),
    Column("content", Text, nullable=False),  # JSON snapshot: title, sections, entities, follow_ups
    Column("markdown", Text, nullable=False),
    Column("change_summary", Text, nullable=False, default=""),
    Column("author", String(20), nullable=False, default="assistant"),  # user | assistant
    Column("created_at", Float, nullable=False),
)

learning_comments = Table(
    "learning_comments", metadata,
    Column("id", String(32), primary_key=True),
    Column("document_id", String(32), ForeignKey("learning_documents.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("section_id", String(32), nullable=True),
    Column("selected_text", Text, nullable=False),
    Column("prefix", Text, nullable=False, default=""),
    Column("suffix", Text, nullable=False, default=""),
    Column("start", Integer, nullable=True),  # offsets into the section markdown (current version)
    Column("end", Integer, nullable=True),
    Column("anchor_status", String(20), nullable=False, default="anchored"),  # anchored | moved | fuzzy | orphaned
    Column("comment", Text, nullable=False),
    Column("need", String(20), nullable=False, default=""),  # examples | depth | clearer | expand | question | note
    Column("status", String(20), nullable=False, default="open"),  # open | applied | answered | declined (未能采纳)
    Column("reply", Text, nullable=False, default=""),
    Column("version", Integer, nullable=False, default=1),  # version the comment was made on
    Column("user_id", String(200), nullable=False, default="anonymous"),
    Column("created_at", Float, nullable=False),
)

learning_entities = Table(
    "learning_entities", metadata,
    Column("key", String(300), primary_key=True),  # normalised name
    Column("name", String(300), nullable=False),
    Column("type", String(30), nullable=False, default="term"),  # part | term | document | concept
    Column("aliases", Text, nullable=False, default="[]"),
    Column("document_id", String(32), ForeignKey("learning_documents.id", ondelete="SET NULL"), nullable=True),
    Column("created_at", Float, nullable=False),
)

learning_entity_links = Table(
    "learning_entity_links", metadata,
    Column("entity_key", String(300), primary_key=True),
    Column("document_id", String(32), ForeignKey("learning_documents.id", ondelete="CASCADE"), primary_key=True),
    Index("ix_learning_entity_links_doc", "document_id"),
)

learning_topics = Table(
    "learning_topics", metadata,
    Column("user_id", String(200), primary_key=True),
    Column("topic_key", String(500), primary_key=True),
    Column("topic", String(500), nullable=False),
    Column("document_id", String(32), nullable=True),
    Column("learned_at", Float, nullable=False),
)

learning_paths = Table(
    "learning_paths", metadata,
    Column("id", String(32), primary_key=True),
    Column("user_id", String(200), nullable=False, default="anonymous", index=True),
    Column("goal", String(500), nullable=False),
    Column("steps", Text, nullable=False),  # JSON list
    Column("status", String(20), nullable=False, default="ready"),
    Column("created_at", Float, nullable=False),
    UniqueConstraint("id", name="uq_learning_paths_id"),
)
