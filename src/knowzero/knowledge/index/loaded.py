"""The loaded indexes of a knowledge base: what questions are answered from, reloaded when the stored revision moves.

:class:`Indexes` holds the passages, the dense vectors, the keyword index, the SQL tables, the document
texts and the entities their titles name, and loads them once; :meth:`Indexes.refresh` reloads only
when another process (or an ingest) has bumped the revision stored in ``kb_meta``, and loads just the
new vectors when only the ``vectors`` revision moved. Embedded mode (SQLite) holds passages, texts and
vectors in memory; PostgreSQL mode keeps them in the database and reads what a question needs
(:mod:`knowzero.knowledge.index.dbviews`, pgvector). The keyword index always lives in the database
(:mod:`knowzero.knowledge.index.keyword`). Also here: the lookups and filters over what is loaded
(:meth:`Indexes.passage`, :meth:`Indexes.allowed_ids`, …) and :meth:`Indexes.remove_document`, which
takes a document out of the stored rows and the indexes in the caller's transaction.

Writes come from :mod:`knowzero.knowledge.ingest.ingester` (new rows) and :mod:`knowzero.knowledge.catalog`
(deleting, switching off); both hold the same lock as this class, so a load never sees half a write.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
from sqlalchemy import Engine, delete, func, select, text

from knowzero.config import Settings
from knowzero.knowledge.index import entities as ent
from knowzero.knowledge.index.dbviews import ChunkView, FileTextView, TitleDerived, titles
from knowzero.knowledge.index.dense import DenseIndex, PgVectorIndex
from knowzero.knowledge.index.keyword import KeywordIndex, open_index
from knowzero.knowledge.index.sqlindex import (
    SqlIndex,
    TableInfo,
    decode_columns,
    drop_table,
    row_offsets,
    span_row_offsets,
)
from knowzero.knowledge.index.tables import embed_body as _embed_body
from knowzero.knowledge.index.tables import (
    kb_chunks,
    kb_disabled,
    kb_embeddings,
    kb_files,
    kb_flags,
    kb_meta,
    kb_tables,
    vector_key,
)
from knowzero.knowledge.types import Hit, Passage
from knowzero.persistence.db import schema_lock

log = logging.getLogger(__name__)

QueryEncoder = Callable[[str], np.ndarray]


def embed_body(p: Passage) -> str:
    """What the dense model sees for a passage: its title and section, then the text."""
    return _embed_body(p.title, p.section, p.text)


class Indexes:
    """The loaded indexes and the lookups over them. Thread-safe for reads; loading takes ``lock``."""

    def __init__(self, engine: Engine, settings: Settings, lock: threading.RLock, encode_query: QueryEncoder) -> None:
        self.engine, self.settings, self.lock = engine, settings, lock
        self._encode_query = encode_query
        self.revision = ""
        self.vectors_revision = ""
        self.in_db = self.engine.dialect.name == "postgresql"
        """PostgreSQL mode: chunks, texts, titles and vectors stay in the database and readers fetch
        what a question needs (:mod:`knowzero.knowledge.index.dbviews`); embedded mode holds them in memory."""
        self.passages: Mapping[str, Passage] = ChunkView(self.engine) if self.in_db else {}
        self.dense: DenseIndex | PgVectorIndex = DenseIndex([], np.zeros((0, 384), dtype=np.float32))
        with schema_lock(self.engine):  # several workers starting on a new database
            self.keyword: KeywordIndex = open_index(self.engine)
            """The on-disk keyword index (FTS5 or PostgreSQL full text), written in ingest's transaction."""
            if PgVectorIndex.available(self.engine):  # PostgreSQL with pgvector: vectors stay in the database
                self.dense = PgVectorIndex(self.engine, encode_query=encode_query)
        self.sql: SqlIndex | None = None
        self.doc_entities: Mapping[str, frozenset[str]] = (
            TitleDerived(self.engine, self._title_entities) if self.in_db else {})
        self.aliases: dict[str, frozenset[str]] = {}
        """Entity → the entities named with it in some title (small: only titles naming two or more)."""
        self.file_texts: Mapping[str, str] = FileTextView(self.engine) if self.in_db else {}
        self.collections: dict[str, set[str]] = {}
        self.domains: dict[str, set[str]] = {}
        """Embedded mode: collection / domain → passage ids. PostgreSQL mode keeps them empty and asks
        the database (:meth:`allowed_ids`, :meth:`has_domain`)."""
        self._loaded = False
        self.disabled: frozenset[str] = frozenset()
        """Documents switched off by an editor: listed, never retrieved or cited."""

    # ----- revision -----
    def _db_revisions(self) -> tuple[str, str]:
        with self.engine.connect() as conn:
            rows = dict(conn.execute(select(kb_meta.c.key, kb_meta.c.value)
                                     .where(kb_meta.c.key.in_(("revision", "vectors")))).tuples().all())
        return rows.get("revision", ""), rows.get("vectors", "")

    def refresh(self, force: bool = False) -> None:
        """Reload if the stored revision changed; load only new vectors if just those came (one SELECT)."""
        rev, vrev = self._db_revisions()
        if not force and rev == self.revision and (self._loaded or not rev):
            if vrev != self.vectors_revision:
                with self.lock:
                    if vrev != self.vectors_revision:
                        self._load_new_vectors(vrev)
            return
        with self.lock:
            if not force and rev == self.revision and (self._loaded or not rev):
                return
            self._load(rev)
            self.vectors_revision = vrev

    @property
    def pending_vectors(self) -> int:
        """Chunks that are searchable by keyword but have no dense vector yet."""
        return max(len(self.passages) - len(self.dense.ids), 0)

    # ----- loading -----
    def _sync_pgvector(self, dense: PgVectorIndex) -> None:
        """Give every chunk whose vector is stored its row in ``kb_vectors`` (a join on the chunk's
        ``vkey``, in batches: nothing is held); drop rows of chunks that are gone."""
        sql = text("SELECT c.id, c.path, e.vector FROM kb_chunks c JOIN kb_embeddings e ON e.key = c.vkey "
                   "WHERE NOT EXISTS (SELECT 1 FROM kb_vectors v WHERE v.id = c.id) "
                   "AND NOT EXISTS (SELECT 1 FROM kb_disabled d WHERE d.path = c.path) ORDER BY c.id LIMIT 500")
        while True:
            with self.engine.begin() as conn:
                if not dense.table_exists(conn):
                    rows = conn.execute(text("SELECT c.id, c.path, e.vector FROM kb_chunks c JOIN kb_embeddings e "
                                             "ON e.key = c.vkey WHERE NOT EXISTS (SELECT 1 FROM kb_disabled d "
                                             "WHERE d.path = c.path) ORDER BY c.id LIMIT 500")).all()
                else:
                    rows = conn.execute(sql).all()
                if not rows:
                    break
                dense.add([r.id for r in rows], [r.path for r in rows],
                          np.vstack([np.frombuffer(r.vector, dtype=np.float32) for r in rows]), conn)
        with self.engine.begin() as conn:
            if dense.table_exists(conn):
                conn.execute(text("DELETE FROM kb_vectors v WHERE NOT EXISTS "
                                  "(SELECT 1 FROM kb_chunks c WHERE c.id = v.id)"))
        dense.changed()

    def _load_new_vectors(self, vrev: str) -> None:
        if isinstance(self.dense, PgVectorIndex):
            self._sync_pgvector(self.dense)
            self.vectors_revision = vrev
            return
        have = set(self.dense.ids)
        todo = [p for p in self.passages.values() if p.id not in have]
        keys = [vector_key(embed_body(p)) for p in todo]
        vecs = self.cached_vectors(keys)
        new = [(p.id, vecs[k]) for p, k in zip(todo, keys, strict=True) if k in vecs]
        if new:
            matrix = np.vstack([self.dense.matrix, np.vstack([v for _, v in new])]) if self.dense.ids \
                else np.vstack([v for _, v in new])
            self.dense = DenseIndex(self.dense.ids + [pid for pid, _ in new], matrix, encode_query=self._encode_query)
        self.vectors_revision = vrev

    def _check_keyword_index(self, n_chunks: int, skip: frozenset[str] = frozenset()) -> None:
        """Rebuild the keyword index when its row count is not the chunks' (a database from before the
        index, or rows changed behind it), streaming the chunks in batches."""
        keyword = self.keyword
        keyword.changed()
        if keyword.count() == n_chunks:
            return
        log.info("rebuilding the keyword index (%d chunks)", n_chunks)
        with self.engine.begin() as conn:
            keyword.reset(conn)
            batch: list[Passage] = []
            for p in ChunkView(self.engine).values():
                if p.path in skip:  # a disabled document has no keyword rows until it is enabled
                    continue
                batch.append(p)
                if len(batch) >= 500:
                    keyword.add(batch, conn)
                    batch = []
            keyword.add(batch, conn)
        keyword.changed()

    def _table_infos(self, file_texts: Mapping[str, str], skip: frozenset[str] = frozenset()) -> list[TableInfo]:
        with self.engine.connect() as conn:
            tables = [t for t in conn.execute(select(kb_tables)).all() if t.path not in skip]
            meta = {r.path: r for r in conn.execute(select(kb_files.c.path, kb_files.c.title, kb_files.c.domain)
                                                    .where(kb_files.c.path.in_([t.path for t in tables])))} \
                if tables else {}
        infos = []
        for t in tables:
            try:
                m = meta.get(t.path)
                body = file_texts.get(t.path, "")
                offsets = row_offsets(body) if t.span_start is None else \
                    span_row_offsets(body, t.span_start, t.span_end if t.span_end is not None else len(body))
                infos.append(TableInfo(t.name, t.path, t.collection, decode_columns(t.columns), offsets,
                                       m.title if m else t.path, m.domain if m else "product", t.page))
            except ValueError as exc:
                log.warning("skipping the SQL table of %s: %s", t.path, exc)
        return infos

    def _load(self, rev: str) -> None:
        if self.in_db:
            self._load_in_db(rev)
            return
        with self.engine.connect() as conn:
            files = conn.execute(select(kb_files.c.path, kb_files.c.text, kb_files.c.title, kb_files.c.domain)).all()
            disabled = frozenset(conn.execute(select(kb_disabled.c.path)).scalars())
            rows = [r for r in conn.execute(select(kb_chunks).order_by(kb_chunks.c.path, kb_chunks.c.ordinal))
                    if r.path not in disabled]
        # A disabled document keeps its text (an old citation still opens) but no passage, vector or
        # table row of it is loaded: it cannot be retrieved, so it cannot be cited.
        passages = {r.id: Passage(r.id, r.path, r.title, r.section, r.text, r.start, r.end, r.domain, r.collection,
                                  r.page, bool(r.ocr)) for r in rows}
        plist = list(passages.values())
        file_texts = {f.path: f.text for f in files}
        self._check_keyword_index(len(passages), disabled)
        (self.settings.data_path() / "keyword.idx").unlink(missing_ok=True)  # the old pickled index
        dense: DenseIndex | PgVectorIndex
        if isinstance(self.dense, PgVectorIndex):
            dense = self.dense
            self._sync_pgvector(dense)
        else:
            keys = [r.vkey or vector_key(embed_body(p)) for r, p in zip(rows, plist, strict=True)]
            vecs = self.cached_vectors(keys)
            have = [i for i, k in enumerate(keys) if k in vecs]
            matrix = np.vstack([vecs[keys[i]] for i in have]) if have else np.zeros((0, 384), dtype=np.float32)
            dense = DenseIndex([plist[i].id for i in have], matrix, encode_query=self._encode_query)
        infos = self._table_infos(file_texts, disabled)
        sql = SqlIndex(self.engine, infos, file_texts) if infos else None
        titles_by_path = {f.path: f.title for f in files if f.path not in disabled}
        aliases = ent.alias_groups(titles_by_path.values())
        doc_entities = {path: frozenset(ent.expand(ent.extract(title), aliases)) for path, title in titles_by_path.items()}
        collections: dict[str, set[str]] = {}
        domains: dict[str, set[str]] = {}
        for p in plist:
            collections.setdefault(p.collection, set()).add(p.id)
            domains.setdefault(p.domain, set()).add(p.id)
        for info in infos:  # table rows are passages too: collection/domain filters reach the SQL retriever
            collections.setdefault(info.collection, set()).update(info.row_ids)
            domains.setdefault(info.domain, set()).update(info.row_ids)
        self.passages, self.dense, self.sql = passages, dense, sql
        self.doc_entities, self.aliases, self.file_texts = doc_entities, aliases, file_texts
        self.collections, self.domains = collections, domains
        self.disabled = disabled
        self.revision = rev
        self._loaded = True

    def _load_in_db(self, rev: str) -> None:
        """PostgreSQL mode: forget cached rows and statistics; keep only what is not per chunk."""
        for view in (self.passages, self.file_texts, self.doc_entities):
            if isinstance(view, ChunkView | FileTextView | TitleDerived):
                view.changed()
        with self.engine.connect() as conn:
            self.disabled = frozenset(conn.execute(select(kb_disabled.c.path)).scalars())
            off_chunks = conn.execute(select(func.count()).select_from(kb_chunks)
                                      .where(kb_chunks.c.path.in_(self.disabled))).scalar_one() if self.disabled else 0
        self._check_keyword_index(len(self.passages) - off_chunks, self.disabled)
        if isinstance(self.dense, PgVectorIndex):
            self._sync_pgvector(self.dense)
        self.aliases = ent.alias_groups(titles(self.engine))
        infos = self._table_infos(self.file_texts, self.disabled)
        self.sql = SqlIndex(self.engine, infos, self.file_texts) if infos else None
        self.revision = rev
        self._loaded = True

    def _title_entities(self, title: str) -> frozenset[str]:
        return frozenset(ent.expand(ent.extract(title), self.aliases))

    def cached_vectors(self, keys: list[str]) -> dict[str, np.ndarray]:
        """The stored vectors of ``keys`` (:func:`~knowzero.knowledge.index.tables.vector_key`) that are cached."""
        out: dict[str, np.ndarray] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(keys), 500):
                batch = keys[i : i + 500]
                for k, v in conn.execute(select(kb_embeddings.c.key, kb_embeddings.c.vector)
                                         .where(kb_embeddings.c.key.in_(batch))):
                    out[k] = np.frombuffer(v, dtype=np.float32)
        return out

    # ----- writing: a document out of the stored rows and the indexes -----
    def remove_document(self, conn: Any, path: str, *, keep_tables: bool = False) -> None:
        """Delete one document's chunks, flags, keyword and pgvector rows, file row and (unless
        ``keep_tables``) its SQL tables, in the caller's transaction; the next load forgets the rest."""
        conn.execute(delete(kb_chunks).where(kb_chunks.c.path == path))
        conn.execute(delete(kb_flags).where(kb_flags.c.path == path))
        self.keyword.remove_path(path, conn)
        if isinstance(self.dense, PgVectorIndex):
            self.dense.remove_path(path, conn)
        conn.execute(delete(kb_files).where(kb_files.c.path == path))
        if keep_tables:
            return
        for name in conn.execute(select(kb_tables.c.name).where(kb_tables.c.path == path)).scalars().all():
            drop_table(conn, name)
        conn.execute(delete(kb_tables).where(kb_tables.c.path == path))

    # ----- lookups -----
    def passage(self, pid: str) -> Passage | None:
        if pid.startswith("sql:"):
            return self.sql.passage_by_id(pid) if self.sql is not None else None
        return self.passages.get(pid)

    def passages_of(self, ids: list[str]) -> dict[str, Passage]:
        """The passages (chunks and table rows) of ``ids`` that exist: one query in PostgreSQL mode."""
        out = self.passages.many(ids) if isinstance(self.passages, ChunkView) else \
            {pid: p for pid in ids if (p := self.passages.get(pid)) is not None}
        for pid in ids:
            if pid.startswith("sql:") and (p := self.passage(pid)) is not None:
                out[pid] = p
        return out

    def chunks_of(self, path: str) -> list[Passage]:
        """One document's chunks in order."""
        if isinstance(self.passages, ChunkView):
            return self.passages.of_path(path)
        return sorted((p for p in self.passages.values() if p.path == path), key=lambda p: (p.start, p.id))

    def text_of(self, path: str) -> str:
        """A document's stored text, the one citations' offsets point into ("" when there is no such document)."""
        return self.file_texts.get(path, "")

    def vector_search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        """The ``k`` passages nearest to ``query`` by dense vector alone (within ``allowed`` when given)."""
        return self.dense.search(query, k, allowed)

    def document_titles(self) -> dict[str, str]:
        """``path → title`` (the path when untitled) of every enabled document: one query in PostgreSQL mode,
        where no worker holds the chunks."""
        if self.in_db:
            with self.engine.connect() as conn:
                rows = conn.execute(select(kb_files.c.path, kb_files.c.title).order_by(kb_files.c.path)).all()
            return {r.path: r.title or r.path for r in rows if r.path not in self.disabled}
        out: dict[str, str] = {}
        for p in self.passages.values():
            out.setdefault(p.path, p.title or p.path)
        return out

    def allowed_ids(self, collections: tuple[str, ...], domain: str | None) -> frozenset[str] | None:
        """Passage ids in ``collections`` (if any) and ``domain`` (if given); None when that is everything
        (the retrievers then search without a filter)."""
        if not collections and domain is None:
            return None
        if not self.in_db:
            ids: set[str] | None = None
            if collections:
                ids = set().union(*(self.collections.get(c, set()) for c in collections))
            if domain is not None:
                dom = self.domains.get(domain, set())
                ids = dom if ids is None else ids & dom
            if ids is None:
                return None
            for info in self.sql.tables if self.sql is not None else []:  # table rows, as in the database mode
                if (not collections or info.collection in collections) and (domain is None or info.domain == domain):
                    ids |= info.row_ids
            return frozenset(ids)
        conds: list[Any] = []
        if collections:
            conds.append(kb_chunks.c.collection.in_(collections))
        if domain is not None:
            conds.append(kb_chunks.c.domain == domain)
        infos = self.sql.tables if self.sql is not None else []
        rows = [i for i in infos if (not collections or i.collection in collections)
                and (domain is None or i.domain == domain)]
        with self.engine.connect() as conn:
            n = int(conn.execute(select(func.count()).select_from(kb_chunks).where(*conds)).scalar() or 0)
            if n == len(self.passages) and len(rows) == len(infos):
                return None  # the restriction keeps every passage
            out = set(conn.execute(select(kb_chunks.c.id).where(*conds)).scalars())
        for info in rows:
            out |= info.row_ids
        return frozenset(out)

    def has_domain(self, domain: str) -> bool:
        """Whether any passage belongs to ``domain``."""
        if not self.in_db:
            return bool(self.domains.get(domain))
        with self.engine.connect() as conn:
            found = conn.execute(select(kb_chunks.c.id).where(kb_chunks.c.domain == domain).limit(1)).first()
        return found is not None or any(i.domain == domain for i in (self.sql.tables if self.sql else []))

    def passage_entities(self, p: Passage) -> set[str]:
        doc = self.doc_entities.get(p.path, frozenset())
        return set(doc) if doc else set()
