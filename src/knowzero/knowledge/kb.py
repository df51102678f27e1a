"""The knowledge base: ingest files into the app database, and hold the loaded indexes.

One :class:`KnowledgeBase` per process and database (built by ``knowzero.wiring``); it loads passages,
the dense matrix and the SQL tables once, and reloads only when another process (or an ingest) has
bumped the revision stored in ``kb_meta``; the keyword index lives in the database itself
(``knowledge/index/keyword.py``). Ingestion is incremental and keyed by content: unchanged files are
skipped, changed files replace their chunks, files that vanished from an ingested folder are
removed, and a bad file is reported by name (and listed as failed, with the reason) and skipped
without touching what was already indexed.

Searchable before embedded: ingest commits files in small batches — each file's chunks, keyword
rows and CSV table together with the embedding jobs of its chunks that have no cached or shipped
vector (``knowledge/ingest/embedqueue.py``: our table on SQLite, procrastinate on PostgreSQL) — so a file is searchable by keyword the moment its batch commits and
a kill at any point loses no committed file. Vectors come from workers; storing a batch bumps the
``vectors`` revision, on which readers load just the new vectors. Dense retrieval covers the
chunks that have vectors; :attr:`KnowledgeBase.pending_vectors` says how many do not yet.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine, delete, func, select, text

from knowzero.config import DOMAINS, Settings
from knowzero.errors import IngestError
from knowzero.knowledge.index import entities as ent
from knowzero.knowledge.index import versions
from knowzero.knowledge.index.dbviews import ChunkView, FileTextView, TitleDerived, titles
from knowzero.knowledge.index.dense import DenseIndex, PgVectorIndex
from knowzero.knowledge.index.keyword import KeywordIndex, open_index
from knowzero.knowledge.index.sqlindex import (
    SqlIndex,
    TableInfo,
    create_table,
    decode_columns,
    drop_table,
    encode_columns,
    new_table_name,
    row_offsets,
    span_row_offsets,
)
from knowzero.knowledge.index.tables import (
    DENSE_MODEL,
    flag_rows,
    kb_chunks,
    kb_disabled,
    kb_embeddings,
    kb_failures,
    kb_files,
    kb_flags,
    kb_meta,
    kb_tables,
)
from knowzero.knowledge.index.tables import embed_body as _embed_body
from knowzero.knowledge.index.tables import vector_key as _vector_key
from knowzero.knowledge.ingest.chunker import chunk_text
from knowzero.knowledge.ingest.document import page_at
from knowzero.knowledge.ingest.embedqueue import JobQueue, WorkProgress, bump, run_worker, store_vectors
from knowzero.knowledge.ingest.parsers import TEXT_SUFFIXES, ParsedDoc, parse_bytes, parse_file
from knowzero.knowledge.ingest.queues import open_queue
from knowzero.knowledge.text import load_user_dict
from knowzero.knowledge.types import Passage
from knowzero.models.embeddings import dense
from knowzero.persistence.db import DEMO_LOCK, advisory_lock, init_db, schema_lock

log = logging.getLogger(__name__)


@dataclass
class SourceDoc:
    """A document to ingest: ``source`` is its citable name, ``origin`` where it came from."""

    source: str
    parsed: ParsedDoc
    sha256: str
    origin: str = ""


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[dict[str, str]] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)  # not ingested by design (unsupported type)
    chunks: int = 0
    embedded: int = 0  # vectors computed by this call (inline embedding)
    queued: int = 0  # embedding jobs this call added to the queue
    elapsed_ms: float = 0.0
    doc_failures: list[tuple[str, str]] = field(default_factory=list, repr=False)  # (source, reason) to record

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    def to_dict(self) -> dict[str, object]:
        return {"added": self.added, "updated": self.updated, "unchanged": self.unchanged, "removed": self.removed,
                "failed": self.failed, "skipped": self.skipped, "chunks": self.chunks, "embedded": self.embedded,
                "queued": self.queued, "elapsed_ms": round(self.elapsed_ms, 1)}


@dataclass
class IngestProgress:
    """Where an ingest is: files looked at (of total), chunks made searchable, embedding jobs queued."""

    files_done: int
    files_total: int
    chunks: int
    queued: int
    current: str = ""


__all__ = ["DENSE_MODEL", "IngestProgress", "IngestReport", "KnowledgeBase", "SourceDoc", "embed_body", "vector_key"]


def vector_key(body: str) -> str:
    return _vector_key(body)


def embed_body(p: Passage) -> str:
    """What the dense model sees for a passage: its title and section, then the text."""
    return _embed_body(p.title, p.section, p.text)


def infer_domain(rel: Path, default: str) -> str:
    for part in rel.parts[:-1]:
        if part.lower() in DOMAINS:
            return part.lower()
    return default


DEMO_COLLECTION = "demo"
"""The collection the bundled demo company's documents are ingested into."""


def demo_kb_path() -> Path:
    return Path(str(resources.files("knowzero").joinpath("demo_kb")))


class KnowledgeBase:
    """Ingest and search. Thread-safe for concurrent searches; ingest takes a write lock."""

    commit_files, commit_chunks, commit_seconds = 64, 1000, 1.0
    """Ingest commits a batch when it holds this many files or chunks, or has been open this long."""
    analyze_chunks = 1000
    """PostgreSQL mode: an ingest that added this many chunks refreshes the planner's statistics."""

    def __init__(self, engine: Engine, settings: Settings,
                 encoder: Callable[[], object] | None = None, queue: JobQueue | None = None) -> None:
        self.engine = init_db(engine)
        self.settings = settings
        load_user_dict(settings.user_dict)  # a team's own terms segment like the bundled ones
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kz-retrieve")
        """Runs the dense search beside the keyword search (owned here, not per module)."""
        self._encoder_factory = encoder
        self._lock = threading.RLock()
        self.revision = ""
        self._superseded: tuple[str, dict[str, str], dict[str, str]] | None = None
        self._default_collections: tuple[str, tuple[str, ...]] | None = None
        self.vectors_revision = ""
        self.queue: JobQueue = queue or open_queue(self.engine, settings)
        """Embedding jobs: our table on SQLite, procrastinate on PostgreSQL (``knowledge/ingest/embedqueue.py``)."""
        self.in_db = self.engine.dialect.name == "postgresql"
        """PostgreSQL mode: chunks, texts, titles and vectors stay in the database and readers fetch
        what a question needs (:mod:`knowzero.knowledge.index.dbviews`); embedded mode holds them in memory."""
        self.passages: Mapping[str, Passage] = ChunkView(self.engine) if self.in_db else {}
        self.dense: DenseIndex | PgVectorIndex = DenseIndex([], np.zeros((0, 384), dtype=np.float32))
        with schema_lock(self.engine):  # several workers starting on a new database
            self.keyword: KeywordIndex = open_index(self.engine)
            """The on-disk keyword index (FTS5 or PostgreSQL full text), written in ingest's transaction."""
            if PgVectorIndex.available(self.engine):  # PostgreSQL with pgvector: vectors stay in the database
                self.dense = PgVectorIndex(self.engine, encode_query=self.query_vector)
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
        """Documents switched off by an editor (:meth:`set_enabled`): listed, never retrieved or cited."""
        self._query_vectors: OrderedDict[str, np.ndarray] = OrderedDict()

    # ----- models -----
    @property
    def encoder(self):  # type: ignore[no-untyped-def]
        if self._encoder_factory is not None:
            return self._encoder_factory()
        return dense()

    def query_vector(self, text: str) -> np.ndarray:
        """A question's embedding; the last few are kept (the retriever and the checker both need it)."""
        with self._lock:
            vec = self._query_vectors.get(text)
            if vec is not None:
                self._query_vectors.move_to_end(text)
                return vec
        vec = self.encoder.query(text)
        with self._lock:
            self._query_vectors[text] = vec
            while len(self._query_vectors) > 64:
                self._query_vectors.popitem(last=False)
        return vec

    # ----- revision -----
    def _db_revisions(self) -> tuple[str, str]:
        with self.engine.connect() as conn:
            rows = dict(conn.execute(select(kb_meta.c.key, kb_meta.c.value)
                                     .where(kb_meta.c.key.in_(("revision", "vectors")))).tuples().all())
        return rows.get("revision", ""), rows.get("vectors", "")

    def _db_revision(self) -> str:
        return self._db_revisions()[0]

    def refresh(self, force: bool = False) -> None:
        """Reload if the stored revision changed; load only new vectors if just those came (one SELECT)."""
        rev, vrev = self._db_revisions()
        if not force and rev == self.revision and (self._loaded or not rev):
            if vrev != self.vectors_revision:
                with self._lock:
                    if vrev != self.vectors_revision:
                        self._load_new_vectors(vrev)
            return
        with self._lock:
            if not force and rev == self.revision and (self._loaded or not rev):
                return
            self._load(rev)
            self.vectors_revision = vrev

    @property
    def pending_vectors(self) -> int:
        """Chunks that are searchable by keyword but have no dense vector yet."""
        return max(len(self.passages) - len(self.dense.ids), 0)

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
        vecs = self._cached_vectors(keys)
        new = [(p.id, vecs[k]) for p, k in zip(todo, keys, strict=True) if k in vecs]
        if new:
            matrix = np.vstack([self.dense.matrix, np.vstack([v for _, v in new])]) if self.dense.ids \
                else np.vstack([v for _, v in new])
            self.dense = DenseIndex(self.dense.ids + [pid for pid, _ in new], matrix, encode_query=self.query_vector)
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
            vecs = self._cached_vectors(keys)
            have = [i for i, k in enumerate(keys) if k in vecs]
            matrix = np.vstack([vecs[keys[i]] for i in have]) if have else np.zeros((0, 384), dtype=np.float32)
            dense = DenseIndex([plist[i].id for i in have], matrix, encode_query=self.query_vector)
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

    def _cached_vectors(self, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self.engine.connect() as conn:
            for i in range(0, len(keys), 500):
                batch = keys[i : i + 500]
                for k, v in conn.execute(select(kb_embeddings.c.key, kb_embeddings.c.vector)
                                         .where(kb_embeddings.c.key.in_(batch))):
                    out[k] = np.frombuffer(v, dtype=np.float32)
        return out

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

    def superseded(self) -> dict[str, str]:
        """Each superseded document's path → its current edition's (:mod:`knowzero.knowledge.index.versions`),
        decided once per stored revision from the documents' titles and first lines."""
        cached = self._superseded
        if cached is not None and cached[0] == self.revision:
            return cached[1]
        with self.engine.connect() as conn:
            rows = conn.execute(select(kb_files.c.path, kb_files.c.collection, kb_files.c.title,
                                       func.substr(kb_files.c.text, 1, 800))).all()
        result = versions.superseded(versions.DocInfo(r[0], r[1], r[2], r[3] or "") for r in rows)
        titles = {r[0]: r[2] for r in rows if r[0] in result}
        self._superseded = (self.revision, result, titles)
        return result

    def superseded_editions(self, path: str) -> list[str]:
        """Titles of the editions the document at ``path`` supersedes (empty for most documents)."""
        old = self.superseded()
        titles = self._superseded[2] if self._superseded is not None else {}
        return [titles.get(p, p) for p, current in sorted(old.items()) if current == path]

    def terms_missing_from(self, terms: Sequence[str], collections: Sequence[str]) -> list[str]:
        """The ``terms`` that no document of ``collections`` contains (text or title) while a document of
        another collection names a topic with it (in its title or a section heading: "四、婚假" — a word
        like 每天 or 合计 is in many texts and names no topic)."""
        known = [t for t in dict.fromkeys(terms) if self.keyword.doc_freq(t) > 0]
        missing = []
        with self.engine.connect() as conn:
            for t in known:
                topic_elsewhere = conn.execute(select(kb_chunks.c.id).where(
                    kb_chunks.c.collection.not_in(list(collections)),
                    kb_chunks.c.section.contains(t, autoescape=True) | kb_chunks.c.title.contains(t, autoescape=True))
                    .limit(1)).first()
                if not topic_elsewhere:
                    continue
                in_text = conn.execute(select(kb_chunks.c.id).where(kb_chunks.c.collection.in_(list(collections)),
                                                                    kb_chunks.c.text.contains(t, autoescape=True))
                                       .limit(1)).first()
                in_title = in_text or conn.execute(select(kb_files.c.path).where(
                    kb_files.c.collection.in_(list(collections)), kb_files.c.title.contains(t, autoescape=True))
                    .limit(1)).first()
                if not in_text and not in_title:
                    missing.append(t)
        return missing

    def default_collections(self) -> tuple[str, ...]:
        """What a question that names no collection searches: every collection but the bundled demo's once
        a team has its own documents (the demo company never answers for the team unasked); () — everything
        — while the demo is all there is. Decided once per stored revision (every turn asks)."""
        cached = self._default_collections
        if cached is not None and cached[0] == self.revision:
            return cached[1]
        with self.engine.connect() as conn:
            names = set(conn.execute(select(kb_files.c.collection).distinct()).scalars())
        own = sorted(n for n in names if n and n != DEMO_COLLECTION)
        result = tuple(own) if own and DEMO_COLLECTION in names else ()
        self._default_collections = (self.revision, result)
        return result

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

    # ----- ingestion -----
    def ingest_paths(self, paths: Iterable[Path], *, collection: str = "default", domain: str | None = None,
                     progress: Callable[[int, int], None] | None = None, embed: bool = True,
                     on_progress: Callable[[IngestProgress], None] | None = None) -> IngestReport:
        """Ingest files and folders (recursively). See module doc for the incremental rules.

        ``embed``: compute the queued vectors before returning (``progress(done, total)``); without
        it the files are searchable at once and workers embed them later."""
        report = IngestReport()
        docs: list[SourceDoc] = []
        roots: list[tuple[str, set[str]]] = []
        for root in paths:
            root = Path(root)
            if not root.exists():
                report.failed.append({"path": str(root), "error": f"{root}: no such file or folder"})
                continue
            base = root if root.is_dir() else root.parent
            files = sorted(p for p in root.rglob("*") if p.is_file()) if root.is_dir() else [root]
            seen: set[str] = set()
            for f in files:
                if f.name.startswith(".") or f.name.lower() in ("readme.md", "license", "questions.jsonl"):
                    if root.is_dir():
                        continue
                rel = f.relative_to(base)
                source = rel.as_posix() if root.is_dir() else f.name
                if root.is_dir():
                    source = f"{root.name}/{source}"
                if f.suffix.lower() not in TEXT_SUFFIXES:
                    report.skipped.append({"path": source, "reason": "unsupported file type"})
                    continue
                seen.add(str(f.resolve()))
                dom = domain or infer_domain(rel, "general")
                try:
                    data = f.read_bytes()
                except OSError as exc:
                    report.failed.append({"path": source, "error": f"{f.name}: cannot be read ({exc.strerror})"})
                    report.doc_failures.append((source, report.failed[-1]["error"]))
                    continue
                sha = hashlib.sha256(data).hexdigest()
                docs.append(SourceDoc(source, ParsedDoc("", "", "", None), sha, str(f.resolve())))
                docs[-1].parsed = _LazyParse(f, dom)  # type: ignore[assignment]
            if root.is_dir():
                roots.append((str(root.resolve()), seen))
        return self._ingest(docs, collection=collection, domain=domain, roots=roots, report=report, progress=progress,
                            embed=embed, on_progress=on_progress)

    def ingest_documents(self, docs: list[SourceDoc], *, collection: str = "default", domain: str = "general",
                         progress: Callable[[int, int], None] | None = None, embed: bool = True,
                         on_progress: Callable[[IngestProgress], None] | None = None) -> IngestReport:
        """Ingest already-parsed documents (uploads, evaluation corpora)."""
        return self._ingest(docs, collection=collection, domain=domain, roots=[], report=IngestReport(),
                            progress=progress, embed=embed, on_progress=on_progress)

    def ingest_bytes(self, name: str, data: bytes, *, collection: str = "uploads", domain: str = "general",
                     embed: bool = True, parsed: ParsedDoc | IngestError | None = None) -> IngestReport:
        """``parsed``: ``data`` already parsed elsewhere (uploads: in a worker process), or the IngestError
        that parse raised; without it the bytes are parsed here."""
        report = IngestReport()
        try:
            if isinstance(parsed, IngestError):
                raise parsed
            parsed = parsed if parsed is not None else parse_bytes(data, name)
            if not parsed.text.strip():
                raise IngestError(f"{name}: no text could be extracted")
        except IngestError as exc:
            report.failed.append({"path": name, "error": exc.message})
            self._record_failures([(f"{collection}/{name}", exc.message)])
            return report
        doc = SourceDoc(f"{collection}/{name}", parsed, hashlib.sha256(data).hexdigest(), "")
        return self._ingest([doc], collection=collection, domain=domain, roots=[], report=report, progress=None,
                            embed=embed)

    def _ingest(self, docs: list[SourceDoc], *, collection: str, domain: str | None, roots: list[tuple[str, set[str]]],
                report: IngestReport, progress: Callable[[int, int], None] | None, embed: bool = True,
                on_progress: Callable[[IngestProgress], None] | None = None) -> IngestReport:
        t0 = time.perf_counter()
        s = self.settings
        with self.engine.connect() as conn:
            existing = {r.path: r for r in conn.execute(select(kb_files.c.path, kb_files.c.sha256, kb_files.c.origin))}
        batch: list[_Doc] = []
        written: set[str] = set(existing)  # paths that may have rows to replace
        batch_chunks = 0
        last = time.perf_counter()

        def flush() -> None:
            nonlocal batch, batch_chunks, last
            self._commit_batch(batch, existing, report, written)
            batch, batch_chunks, last = [], 0, time.perf_counter()

        for i, d in enumerate(docs):
            old = existing.get(d.source)
            if old is not None and old.sha256 == d.sha256:
                report.unchanged.append(d.source)
            else:
                try:
                    parsed = d.parsed.get() if isinstance(d.parsed, _LazyParse) else d.parsed
                    dom = d.parsed.domain if isinstance(d.parsed, _LazyParse) else (domain or "general")
                except IngestError as exc:
                    report.failed.append({"path": d.source, "error": exc.message})
                    report.doc_failures.append((d.source, exc.message))
                    parsed = None
                if parsed is not None:
                    chunks = chunk_text(parsed.text, source=d.source, title=parsed.title, max_chars=s.chunk_chars,
                                        overlap=s.chunk_overlap)
                    ps = _passages(chunks, parsed, d.source, dom, collection)
                    if ps:
                        batch.append((d, parsed, dom, ps))
                        batch_chunks += len(ps)
                    else:
                        report.failed.append({"path": d.source, "error": f"{d.source}: no text could be extracted"})
                        report.doc_failures.append((d.source, report.failed[-1]["error"]))
            # Commit small batches: a file is searchable (and safe from a kill) as soon as its batch is in.
            if batch and (len(batch) >= self.commit_files or batch_chunks >= self.commit_chunks
                          or time.perf_counter() - last > self.commit_seconds):
                flush()
            if on_progress is not None:
                on_progress(IngestProgress(i + 1, len(docs), report.chunks + batch_chunks, report.queued, d.source))
        if batch:
            flush()
        removed: list[str] = []
        for root, seen in roots:
            for path, row in existing.items():
                if row.origin and row.origin.startswith(root.rstrip("/") + "/") and row.origin not in seen:
                    removed.append(path)
        if removed:
            with self._lock, self.engine.begin() as conn:
                for path in removed:
                    self._delete_file(conn, path)
                    conn.execute(delete(kb_disabled).where(kb_disabled.c.path == path))
                bump(conn, "revision")
        report.removed = removed
        if self.in_db and report.chunks >= self.analyze_chunks:
            with self.engine.begin() as conn:  # fresh planner statistics: GIN or scan per term frequency
                conn.execute(text("ANALYZE kb_kw, kb_kw_df, kb_chunks"))
        self._record_failures(report.doc_failures)
        if report.changed or not self.revision:
            self.refresh(force=True)
        if embed:
            report.embedded += self.embed_pending(progress)
        report.elapsed_ms = (time.perf_counter() - t0) * 1000
        return report

    def _commit_batch(self, batch: list[_Doc], existing: dict[str, Any], report: IngestReport,
                      written: set[str], *, keep_tables: bool = False) -> None:
        """One transaction: files, chunks, keyword rows, flags, tables, cached vectors and embedding jobs.

        Rows go in as one multi-row statement per table; only paths that may already have rows
        (``written``: in the database before this ingest, or earlier in it) are deleted first."""
        keys = {p.id: vector_key(embed_body(p)) for _, _, _, ps in batch for p in ps}
        bodies = {keys[p.id]: embed_body(p) for _, _, _, ps in batch for p in ps}
        cached = self._cached_keys(list(bodies))
        shipped = _shipped_vectors()
        from_shipped = {k: shipped[k] for k in bodies if k not in cached and k in shipped}
        jobs = {k: b for k, b in bodies.items() if k not in cached and k not in shipped}
        files, chunks = [], []
        now = time.time()
        for d, parsed, dom, ps in batch:
            files.append({"path": d.source, "collection": ps[0].collection, "domain": dom, "sha256": d.sha256,
                          "title": parsed.title, "kind": parsed.kind, "text": parsed.text, "origin": d.origin,
                          "ingested_at": now, "layout": json.dumps(parsed.layout() | {"tables": _table_count(parsed)},
                                                                   ensure_ascii=False)})
            unique = _dedupe(ps)
            chunks += [{"id": p.id, "path": p.path, "collection": p.collection, "domain": p.domain, "title": p.title,
                        "section": p.section, "text": p.text, "start": p.start, "end": p.end, "ordinal": i,
                        "vkey": keys[p.id], "page": p.page, "ocr": p.ocr} for i, p in enumerate(unique)]
        unique_all = _batch_passages(batch)
        flags = flag_rows((p.id, p.path, p.section, p.text) for p in unique_all)
        paths = [d.source for d, _, _, _ in batch]
        with self._lock, self.engine.begin() as conn:
            store_vectors(conn, from_shipped)
            self.queue.enqueue(conn, jobs)
            for path in paths:
                if path in written:
                    self._delete_file(conn, path, keep_tables=keep_tables)
            off = set(conn.execute(select(kb_disabled.c.path).where(kb_disabled.c.path.in_(paths))).scalars())
            conn.execute(kb_files.insert(), files)
            conn.execute(kb_chunks.insert(), chunks)
            if flags:
                conn.execute(kb_flags.insert(), flags)
            live = [p for p in unique_all if p.path not in off]  # a disabled document stays out of the index
            self.keyword.add(live, conn)
            if isinstance(self.dense, PgVectorIndex) and (cached or from_shipped):
                have = self._cached_vectors([k for k in bodies if k in cached]) | from_shipped
                ready = [p for p in live if keys[p.id] in have]
                if ready:
                    self.dense.add([p.id for p in ready], [p.path for p in ready],
                                   np.vstack([have[keys[p.id]] for p in ready]), conn)
            for d, parsed, _, ps in batch:
                kept = keep_tables and d.source in existing  # re-indexed from its stored text: tables stay
                if parsed.table is not None and not kept:
                    name = new_table_name()
                    create_table(conn, name, parsed.table.columns, parsed.table.rows)
                    conn.execute(kb_tables.insert().values(name=name, path=d.source, collection=ps[0].collection,
                                                           columns=encode_columns(parsed.table.columns)))
                for placed in [] if kept else parsed.tables:  # tables inside the document, where each stands
                    name = new_table_name()
                    create_table(conn, name, placed.table.columns, placed.table.rows)
                    conn.execute(kb_tables.insert().values(name=name, path=d.source, collection=ps[0].collection,
                                                           columns=encode_columns(placed.table.columns),
                                                           span_start=placed.start, span_end=placed.end,
                                                           page=placed.page))
                (report.updated if d.source in existing else report.added).append(d.source)
                report.chunks += len(ps)
            conn.execute(delete(kb_failures).where(kb_failures.c.path.in_(paths)))
            bump(conn, "revision")
        written.update(paths)
        report.queued += len(jobs)

    def _cached_keys(self, keys: list[str]) -> set[str]:
        out: set[str] = set()
        with self.engine.connect() as conn:
            for i in range(0, len(keys), 500):
                out.update(conn.execute(select(kb_embeddings.c.key)
                                        .where(kb_embeddings.c.key.in_(keys[i : i + 500]))).scalars())
        return out

    def _record_failures(self, failures: list[tuple[str, str]]) -> None:
        if not failures:
            return
        with self.engine.begin() as conn:
            for path, error in failures:
                conn.execute(delete(kb_failures).where(kb_failures.c.path == path))
                conn.execute(kb_failures.insert().values(path=path, error=error, failed_at=time.time()))

    # ----- embedding -----
    def embed_pending(self, progress: Callable[[int, int], None] | None = None, *,
                      on_work: Callable[[WorkProgress], None] | None = None) -> int:
        """Compute every queued vector in this process (what a worker does), then load them."""
        def tick(w: WorkProgress) -> None:
            if progress is not None:
                progress(w.embedded, w.embedded + w.pending)
            if on_work is not None:
                on_work(w)

        done = run_worker(self.queue, lambda bodies: self.encoder.passages(bodies), batch=self.settings.embed_batch,
                          drain=True, progress=tick)
        if done:
            self.refresh()
        return done

    def _delete_file(self, conn, path: str, *, keep_tables: bool = False) -> None:  # type: ignore[no-untyped-def]
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

    def delete_file(self, path: str) -> bool:
        """Remove one ingested document (chunks, tables, text, and its text queued for embedding), or the record
        of a file whose ingest failed; False when there is neither."""
        with self._lock, self.engine.begin() as conn:
            if conn.execute(select(kb_files.c.path).where(kb_files.c.path == path)).first() is None:
                # a file whose only trace is its failed ingest: removing it removes the failure from the list
                return bool(conn.execute(delete(kb_failures).where(kb_failures.c.path == path)).rowcount)
            keys = set(conn.execute(select(kb_chunks.c.vkey).where(kb_chunks.c.path == path)).scalars()) - {None}
            self._delete_file(conn, path)
            # its text waiting to be embedded goes too (a chunk of another document with the same text keeps it)
            kept = set(conn.execute(select(kb_chunks.c.vkey).where(kb_chunks.c.vkey.in_(sorted(keys)))).scalars()) \
                if keys else set()
            self.queue.discard(conn, keys - kept)
            conn.execute(delete(kb_failures).where(kb_failures.c.path == path))
            conn.execute(delete(kb_disabled).where(kb_disabled.c.path == path))
            bump(conn, "revision")
        self.refresh(force=True)
        return True

    # ----- management: enable/disable, re-index -----
    def set_enabled(self, path: str, enabled: bool, *, by: str = "") -> bool:
        """Switch a document on or off; False when there is no such document.

        Off: its keyword rows (and pgvector rows) are removed and nothing of it loads, so it is not
        retrieved and not cited; its chunks, text, tables and cached vectors stay. On: its keyword rows
        come back from its stored chunks and the next load brings back its passages, vectors and table.
        Idempotent; every change bumps the revision, so every worker reloads."""
        with self._lock, self.engine.begin() as conn:
            if conn.execute(select(kb_files.c.path).where(kb_files.c.path == path)).first() is None:
                return False
            off = conn.execute(select(kb_disabled.c.path).where(kb_disabled.c.path == path)).first() is not None
            if off == (not enabled):
                return True
            if enabled:
                conn.execute(delete(kb_disabled).where(kb_disabled.c.path == path))
                self.keyword.add(self.document_chunks(path, conn), conn)
            else:
                conn.execute(kb_disabled.insert().values(path=path, disabled_at=time.time(), by=by[:200]))
                self.keyword.remove_path(path, conn)
                if isinstance(self.dense, PgVectorIndex):
                    self.dense.remove_path(path, conn)
            bump(conn, "revision")
        self.keyword.changed()
        self.refresh(force=True)
        return True

    def reindex_file(self, path: str, *, embed: bool = True) -> IngestReport | None:
        """Parse and index one document again (None when there is none): from its original file when
        that is still on disk (picking up its changes), else from its stored text (chunked again with
        the current settings, its CSV table kept). Chunks, keyword rows and embedding jobs are rebuilt
        in one transaction; an enabled/disabled choice is kept; vectors come from the cache or the queue."""
        with self.engine.connect() as conn:
            row = conn.execute(select(kb_files).where(kb_files.c.path == path)).first()
        if row is None:
            return None
        report = IngestReport()
        origin = Path(row.origin) if row.origin else None
        from_file = origin is not None and origin.is_file()
        try:
            if from_file:
                assert origin is not None
                sha = hashlib.sha256(origin.read_bytes()).hexdigest()
                parsed = parse_file(origin)
            else:
                layout = _layout(row.layout)
                sha, parsed = row.sha256, ParsedDoc(row.text, row.title, row.kind, None,
                                                    pages=list(layout.get("page_starts") or []),
                                                    ocr_pages=list(layout.get("ocr_pages") or []),
                                                    warnings=list(layout.get("warnings") or []))
        except (IngestError, OSError) as exc:
            message = exc.message if isinstance(exc, IngestError) else f"{path}: cannot be read ({exc.strerror})"
            report.failed.append({"path": path, "error": message})
            self._record_failures([(path, message)])
            return report
        s = self.settings
        chunks = chunk_text(parsed.text, source=path, title=parsed.title, max_chars=s.chunk_chars, overlap=s.chunk_overlap)
        ps = _passages(chunks, parsed, path, row.domain, row.collection)
        if not ps:
            report.failed.append({"path": path, "error": f"{path}: no text could be extracted"})
            self._record_failures([(path, report.failed[0]["error"])])
            return report
        t0 = time.perf_counter()
        self._commit_batch([(SourceDoc(path, parsed, sha, row.origin), parsed, row.domain, ps)], {path: row}, report,
                           {path}, keep_tables=not from_file)
        self.refresh(force=True)
        if embed:
            report.embedded += self.embed_pending()
        report.elapsed_ms = (time.perf_counter() - t0) * 1000
        return report

    def document_chunks(self, path: str, conn: Any = None) -> list[Passage]:
        """One document's stored chunks in order (a disabled one's too), for the chunk view."""
        stmt = select(kb_chunks).where(kb_chunks.c.path == path).order_by(kb_chunks.c.ordinal)
        if conn is None:
            with self.engine.connect() as c:
                rows = c.execute(stmt).all()
        else:
            rows = conn.execute(stmt).all()
        return [Passage(r.id, r.path, r.title, r.section, r.text, r.start, r.end, r.domain, r.collection, r.page,
                        bool(r.ocr)) for r in rows]

    def is_empty(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(kb_files.c.path).limit(1)).first() is None

    def ensure_demo(self) -> IngestReport | None:
        """Ingest the bundled demo knowledge base when nothing has been ingested yet. Several API workers
        starting together on a new database seed it once: the first takes the lock, the others then find
        it filled (without the lock they all ingested it and all but one died on a duplicate key)."""
        with advisory_lock(self.engine, DEMO_LOCK):
            if not self.is_empty():
                self.refresh()
                return None
            return self.ingest_paths([demo_kb_path()], collection=DEMO_COLLECTION)

    def collection_paths(self, collection: str) -> list[str]:
        """The paths of every stored document in ``collection``, in order (empty: no such collection);
        for acting on a whole collection with the per-document operations."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(kb_files.c.path).where(kb_files.c.collection == collection)
                                     .order_by(kb_files.c.path)).scalars())

    def list_files(self) -> list[dict[str, object]]:
        """Every document with its status: ``searchable`` (keyword and SQL now, some vectors pending),
        ``embedded`` (every chunk has its vector) or ``failed`` (its last ingest failed: ``error``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(kb_files.c.path, kb_files.c.collection, kb_files.c.domain, kb_files.c.title,
                                       kb_files.c.kind, kb_files.c.ingested_at, kb_files.c.layout)
                                .order_by(kb_files.c.path)).all()
            failures = {r.path: r for r in conn.execute(select(kb_failures))}
        counts, embedded = self._chunk_counts()
        if self.disabled and not self.in_db:  # not loaded: their chunks are counted in the database
            with self.engine.connect() as conn:
                counts.update(conn.execute(select(kb_chunks.c.path, func.count()).where(kb_chunks.c.path.in_(self.disabled))
                                           .group_by(kb_chunks.c.path)).tuples().all())
        flags = self._flags()
        out: list[dict[str, object]] = []
        for r in rows:
            n, e = counts.get(r.path, 0), embedded.get(r.path, 0)
            off = r.path in self.disabled
            item = {k: v for k, v in r._mapping.items() if k != "layout"} | _layout_item(r.layout) | {"chunks": n, "embedded_chunks": e, "enabled": not off,
                                       "status": "disabled" if off else "embedded" if e >= n else "searchable",
                                       "error": None, **_flags_item(flags.get(r.path, []))}
            if r.path in failures:
                item |= {"status": "failed", "error": failures[r.path].error}
            out.append(item)
        listed = {r.path for r in rows}
        for path, f in sorted(failures.items()):
            if path not in listed:
                out.append({"path": path, "collection": None, "domain": None, "title": path, "kind": None,
                            "ingested_at": f.failed_at, "chunks": 0, "embedded_chunks": 0, "enabled": False,
                            "status": "failed", "error": f.error, **_layout_item("{}")})
        return out

    def embedding_status(self) -> dict[str, int]:
        """Queue figures for progress displays: jobs waiting, jobs given up after repeated errors."""
        st = self.queue.stats()
        return {"pending": st.pending, "failed": st.failed}

    def flags_for(self, path: str) -> dict[str, object]:
        """``{"flags": ["instructions"], "flagged_chunks": [...]}`` for a document with chunks to review."""
        return _flags_item(self._flags(path).get(path, []))

    def _flags(self, path: str | None = None) -> dict[str, list[dict[str, object]]]:
        """Chunks whose text reads as instructions to the assistant (stored at ingest), by document."""
        stmt = select(kb_flags).order_by(kb_flags.c.path, kb_flags.c.passage_id)
        if path is not None:
            stmt = stmt.where(kb_flags.c.path == path)
        out: dict[str, list[dict[str, object]]] = {}
        with self.engine.connect() as conn:
            for r in conn.execute(stmt):
                out.setdefault(r.path, []).append({"passage_id": r.passage_id, "section": r.section,
                                                   "kinds": json.loads(r.kinds), "text": r.text})
        return out

    def _chunk_counts(self) -> tuple[dict[str, int], dict[str, int]]:
        """Per document: its chunks, and how many of them have their dense vector."""
        if not self.in_db:
            counts: dict[str, int] = {}
            embedded: dict[str, int] = {}
            have = set(self.dense.ids)
            for p in self.passages.values():
                counts[p.path] = counts.get(p.path, 0) + 1
                embedded[p.path] = embedded.get(p.path, 0) + (p.id in have)
            return counts, embedded
        join = isinstance(self.dense, PgVectorIndex)
        with self.engine.connect() as conn:
            if join and isinstance(self.dense, PgVectorIndex) and self.dense.table_exists(conn):
                rows = conn.execute(text("SELECT c.path, count(*) AS n, count(v.id) AS e FROM kb_chunks c "
                                         "LEFT JOIN kb_vectors v ON v.id = c.id GROUP BY c.path")).all()
            else:
                rows = conn.execute(text("SELECT path, count(*) AS n, 0 AS e FROM kb_chunks GROUP BY path")).all()
        return {r.path: int(r.n) for r in rows}, {r.path: int(r.e) for r in rows}


def _passages(chunks: list[Any], parsed: ParsedDoc, source: str, domain: str, collection: str) -> list[Passage]:
    """A document's chunks as passages, each with the page where it starts and whether OCR read that page."""
    ocr = set(parsed.ocr_pages)
    out = []
    for c in chunks:
        page = page_at(parsed.pages, c.start)
        out.append(Passage(c.id, source, c.title, c.section, c.text, c.start, c.end, domain, collection, page,
                           page in ocr))
    return out


def _table_count(parsed: ParsedDoc) -> int:
    return len(parsed.tables) + (parsed.table is not None)


def _layout(raw: str | None) -> dict[str, Any]:
    try:
        data = json.loads(raw or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _layout_item(raw: str | None) -> dict[str, object]:
    """What the file list shows of a document's parse: pages, tables, OCR pages, parse warnings."""
    layout = _layout(raw)
    return {"pages": layout.get("pages"), "tables": int(layout.get("tables") or 0),
            "ocr_pages": list(layout.get("ocr_pages") or []), "warnings": list(layout.get("warnings") or [])}


def _flags_item(chunks: list[dict[str, object]]) -> dict[str, object]:
    return {"flags": ["instructions"] if chunks else [], "flagged_chunks": chunks}


class _LazyParse:
    """Parse on demand, so unchanged files are never parsed."""

    def __init__(self, path: Path, domain: str) -> None:
        self.path, self.domain = path, domain

    def get(self) -> ParsedDoc:
        return parse_file(self.path)


_Doc = tuple[SourceDoc, ParsedDoc, str, list[Passage]]
"""A document in an ingest batch: the source, its parse, its domain and its chunks."""


def _batch_passages(batch: list[_Doc]) -> list[Passage]:
    """A batch's chunks as stored: each document's, without repeats, in order."""
    return [p for _, _, _, ps in batch for p in _dedupe(ps)]


def _dedupe(ps: list[Passage]) -> list[Passage]:
    seen: set[str] = set()
    out = []
    for p in ps:
        if p.id not in seen:
            seen.add(p.id)
            out.append(p)
    return out


@lru_cache(maxsize=1)
def _shipped_vectors() -> dict[str, np.ndarray]:
    """Vectors shipped for the demo knowledge base (same keys as the cache)."""
    f = resources.files("knowzero").joinpath("demo_kb/_vectors.npz")
    if not f.is_file():
        return {}
    with np.load(str(f)) as data:
        keys = [str(k) for k in data["keys"]]
        return dict(zip(keys, data["vectors"].astype(np.float32), strict=True))
