"""The knowledge base: ingest files into the app database, and hold the loaded indexes.

One :class:`KnowledgeBase` per process and database (built by ``knowzero.wiring``). It is made of three
parts, one per thing that happens to the data, and hands each call to the part that does it:

- :class:`~knowzero.knowledge.ingest.ingester.Ingester` (``kb.ingester``): files in — parsed, chunked,
  stored and queued for embedding in small committed batches, incrementally and keyed by content
  (unchanged files skipped, changed ones replaced, vanished ones removed, a bad one reported by name);
- :class:`~knowzero.knowledge.index.loaded.Indexes` (``kb.indexes``): passages, dense vectors, the SQL
  tables and the document texts loaded once and reloaded only when another process (or an ingest)
  has bumped the revision stored in ``kb_meta`` (just the new vectors when only those came); the
  keyword index lives in the database itself (``knowledge/index/keyword.py``); the lookups and
  filters a question needs;
- :class:`~knowzero.knowledge.catalog.Catalog` (``kb.catalog``): documents and collections listed,
  switched off and on, deleted; per-revision facts such as the default collections and editions.

All three share one lock (ingest and deletes write under it, loads take it), the engine and the
embedding queue. Searchable before embedded: a file is searchable by keyword the moment its batch
commits; dense retrieval covers the chunks that have vectors, and :attr:`KnowledgeBase.pending_vectors`
says how many do not yet.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine

from knowzero.config import Settings
from knowzero.errors import IngestError
from knowzero.knowledge.catalog import DEMO_COLLECTION, Catalog
from knowzero.knowledge.index.dense import DenseIndex, PgVectorIndex
from knowzero.knowledge.index.keyword import KeywordIndex
from knowzero.knowledge.index.kinds import same_kind
from knowzero.knowledge.index.loaded import Indexes, embed_body
from knowzero.knowledge.index.sqlindex import SqlIndex
from knowzero.knowledge.index.tables import DENSE_MODEL, vector_key
from knowzero.knowledge.ingest.embedqueue import JobQueue, WorkProgress
from knowzero.knowledge.ingest.ingester import Ingester, IngestProgress, IngestReport, SourceDoc
from knowzero.knowledge.ingest.parsers import ParsedDoc
from knowzero.knowledge.ingest.queues import open_queue
from knowzero.knowledge.text import load_user_dict
from knowzero.knowledge.types import Hit, Passage
from knowzero.models.embeddings import dense
from knowzero.persistence.db import DEMO_LOCK, advisory_lock, init_db

__all__ = ["DEMO_COLLECTION", "DENSE_MODEL", "IngestProgress", "IngestReport", "KnowledgeBase", "SourceDoc",
           "demo_kb_path", "embed_body", "vector_key"]


def demo_kb_path() -> Path:
    return Path(str(resources.files("knowzero").joinpath("demo_kb")))


def _tunable(name: str, doc: str) -> Any:
    """A setting of the ingester, read and set on the knowledge base (``kb.commit_files = 5``)."""
    return property(lambda kb: getattr(kb.ingester, name), lambda kb, value: setattr(kb.ingester, name, value),
                    doc=doc)


class KnowledgeBase:
    """Ingest and search. Thread-safe for concurrent searches; ingest takes a write lock."""

    def __init__(self, engine: Engine, settings: Settings,
                 encoder: Callable[[], object] | None = None, queue: JobQueue | None = None) -> None:
        self.engine = init_db(engine)
        self.settings = settings
        load_user_dict(settings.user_dict)  # a team's own terms segment like the bundled ones
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kz-retrieve")
        """Runs the dense search beside the keyword search (owned here, not per module)."""
        self._encoder_factory = encoder
        self._lock = threading.RLock()
        """The write lock: ingest and deletes write under it, loads take it (shared by the three parts)."""
        self._query_vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self.queue: JobQueue = queue or open_queue(self.engine, settings)
        """Embedding jobs: our table on SQLite, procrastinate on PostgreSQL (``knowledge/ingest/embedqueue.py``)."""
        self.indexes = Indexes(self.engine, settings, self._lock, self.query_vector)
        self.ingester = Ingester(self.engine, settings, self.queue, self.indexes, lambda: self.encoder)
        self.catalog = Catalog(self.engine, self.queue, self.indexes)

    commit_files = _tunable("commit_files", "Ingest commits a batch when it holds this many files …")
    commit_chunks = _tunable("commit_chunks", "… or this many chunks …")
    commit_seconds = _tunable("commit_seconds", "… or has been open this long.")
    analyze_chunks = _tunable("analyze_chunks", "PostgreSQL mode: an ingest that added this many chunks "
                                                "refreshes the planner's statistics.")

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

    # ----- the loaded indexes (kb.indexes) -----
    def refresh(self, force: bool = False) -> None:
        """Reload if the stored revision changed; load only new vectors if just those came (one SELECT)."""
        self.indexes.refresh(force)

    @property
    def pending_vectors(self) -> int:
        """Chunks that are searchable by keyword but have no dense vector yet."""
        return self.indexes.pending_vectors

    def passage(self, pid: str) -> Passage | None:
        return self.indexes.passage(pid)

    def passages_of(self, ids: list[str]) -> dict[str, Passage]:
        """The passages (chunks and table rows) of ``ids`` that exist: one query in PostgreSQL mode."""
        return self.indexes.passages_of(ids)

    def chunks_of(self, path: str) -> list[Passage]:
        """One document's chunks in order."""
        return self.indexes.chunks_of(path)

    def text_of(self, path: str) -> str:
        """A document's stored text, the one citations' offsets point into ("" when there is no such document)."""
        return self.indexes.text_of(path)

    def document_paths(self) -> list[str]:
        """The path of every stored document whose text :meth:`text_of` gives (switched-off ones too)."""
        return list(self.indexes.file_texts)

    def all_texts(self) -> Iterator[str]:
        """Every stored document's text, one at a time (PostgreSQL mode streams them from the database)."""
        return iter(self.indexes.file_texts.values())

    def term_idf(self, term: str) -> float:
        """The keyword index's inverse document frequency of ``term`` (how rare, so how telling, it is)."""
        return self.indexes.keyword.term_idf(term)

    def has_vectors(self) -> bool:
        """Whether any passage has its dense vector loaded (else only keyword and SQL retrieval can run)."""
        return bool(self.indexes.dense.ids)

    def vector_search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        """The ``k`` passages nearest to ``query`` by dense vector alone (within ``allowed`` when given)."""
        return self.indexes.vector_search(query, k, allowed)

    def document_titles(self) -> dict[str, str]:
        """``path → title`` (the path when untitled) of every enabled document: one query in PostgreSQL mode,
        where no worker holds the chunks."""
        return self.indexes.document_titles()

    def allowed_ids(self, collections: tuple[str, ...], domain: str | None) -> frozenset[str] | None:
        """Passage ids in ``collections`` (if any) and ``domain`` (if given); None when that is everything
        (the retrievers then search without a filter)."""
        return self.indexes.allowed_ids(collections, domain)

    def has_domain(self, domain: str) -> bool:
        """Whether any passage belongs to ``domain``."""
        return self.indexes.has_domain(domain)

    def passage_entities(self, p: Passage) -> set[str]:
        return self.indexes.passage_entities(p)

    def _cached_vectors(self, keys: list[str]) -> dict[str, np.ndarray]:
        """Kept for ``scripts/build_demo_vectors.py``: :meth:`Indexes.cached_vectors`."""
        return self.indexes.cached_vectors(keys)

    # The loaded indexes themselves, read by knowledge/answer/ (retriever, pipeline), api/ and tests.
    # Code outside knowledge/ should use the methods above (text_of, term_idf, has_vectors, …) instead.
    @property
    def passages(self) -> Mapping[str, Passage]:
        return self.indexes.passages

    @property
    def dense(self) -> DenseIndex | PgVectorIndex:
        return self.indexes.dense

    @property
    def keyword(self) -> KeywordIndex:
        return self.indexes.keyword

    @property
    def sql(self) -> SqlIndex | None:
        return self.indexes.sql

    @property
    def file_texts(self) -> Mapping[str, str]:
        return self.indexes.file_texts

    @property
    def doc_entities(self) -> Mapping[str, frozenset[str]]:
        return self.indexes.doc_entities

    @property
    def aliases(self) -> dict[str, frozenset[str]]:
        """Entity → the entities named with it in some title (small: only titles naming two or more)."""
        return self.indexes.aliases

    @property
    def collections(self) -> dict[str, set[str]]:
        return self.indexes.collections

    @property
    def domains(self) -> dict[str, set[str]]:
        return self.indexes.domains

    @property
    def disabled(self) -> frozenset[str]:
        """Documents switched off by an editor (:meth:`set_enabled`): listed, never retrieved or cited."""
        return self.indexes.disabled

    @property
    def revision(self) -> str:
        return self.indexes.revision

    @property
    def vectors_revision(self) -> str:
        return self.indexes.vectors_revision

    @property
    def in_db(self) -> bool:
        """PostgreSQL mode: chunks, texts, titles and vectors stay in the database (see :class:`Indexes`)."""
        return self.indexes.in_db

    # ----- ingestion (kb.ingester) -----
    def ingest_paths(self, paths: Iterable[Path], *, collection: str = "default", domain: str | None = None,
                     progress: Callable[[int, int], None] | None = None, embed: bool = True,
                     on_progress: Callable[[IngestProgress], None] | None = None) -> IngestReport:
        """Ingest files and folders (recursively): see :meth:`Ingester.ingest_paths`."""
        return self.ingester.ingest_paths(paths, collection=collection, domain=domain, progress=progress, embed=embed,
                                          on_progress=on_progress)

    def ingest_documents(self, docs: list[SourceDoc], *, collection: str = "default", domain: str = "general",
                         progress: Callable[[int, int], None] | None = None, embed: bool = True,
                         on_progress: Callable[[IngestProgress], None] | None = None) -> IngestReport:
        """Ingest already-parsed documents (uploads, evaluation corpora)."""
        return self.ingester.ingest_documents(docs, collection=collection, domain=domain, progress=progress,
                                              embed=embed, on_progress=on_progress)

    def ingest_bytes(self, name: str, data: bytes, *, collection: str = "uploads", domain: str = "general",
                     embed: bool = True, parsed: ParsedDoc | IngestError | None = None) -> IngestReport:
        """One uploaded file: see :meth:`Ingester.ingest_bytes`."""
        return self.ingester.ingest_bytes(name, data, collection=collection, domain=domain, embed=embed,
                                          parsed=parsed)

    def reindex_file(self, path: str, *, embed: bool = True) -> IngestReport | None:
        """Parse and index one document again (None when there is none): see :meth:`Ingester.reindex_file`."""
        return self.ingester.reindex_file(path, embed=embed)

    def embed_pending(self, progress: Callable[[int, int], None] | None = None, *,
                      on_work: Callable[[WorkProgress], None] | None = None) -> int:
        """Compute every queued vector in this process (what a worker does), then load them."""
        return self.ingester.embed_pending(progress, on_work=on_work)

    def ensure_demo(self) -> IngestReport | None:
        """Ingest the bundled demo knowledge base when nothing has been ingested yet. Several API workers
        starting together on a new database seed it once: the first takes the lock, the others then find
        it filled (without the lock they all ingested it and all but one died on a duplicate key)."""
        with advisory_lock(self.engine, DEMO_LOCK):
            if not self.is_empty():
                self.refresh()
                return None
            return self.ingest_paths([demo_kb_path()], collection=DEMO_COLLECTION)

    # ----- documents and collections (kb.catalog) -----
    def delete_file(self, path: str) -> bool:
        """Remove one ingested document (chunks, tables, text, and its text queued for embedding), or the record
        of a file whose ingest failed; False when there is neither."""
        return self.catalog.delete_file(path)

    def set_enabled(self, path: str, enabled: bool, *, by: str = "") -> bool:
        """Switch a document on or off; False when there is no such document (see :meth:`Catalog.set_enabled`)."""
        return self.catalog.set_enabled(path, enabled, by=by)

    def document_chunks(self, path: str, conn: Any = None) -> list[Passage]:
        """One document's stored chunks in order (a disabled one's too), for the chunk view."""
        return self.catalog.document_chunks(path, conn)

    def is_empty(self) -> bool:
        return self.catalog.is_empty()

    def collection_paths(self, collection: str) -> list[str]:
        """The paths of every stored document in ``collection``, in order (empty: no such collection)."""
        return self.catalog.collection_paths(collection)

    def list_files(self) -> list[dict[str, object]]:
        """Every document with its status: ``searchable``, ``embedded``, ``disabled`` or ``failed``."""
        return self.catalog.list_files()

    def embedding_status(self) -> dict[str, int]:
        """Queue figures for progress displays: jobs waiting, jobs given up after repeated errors."""
        return self.catalog.embedding_status()

    def flags_for(self, path: str) -> dict[str, object]:
        """``{"flags": ["instructions"], "flagged_chunks": [...]}`` for a document with chunks to review."""
        return self.catalog.flags_for(path)

    def superseded(self) -> dict[str, str]:
        """Each superseded document's path → its current edition's, decided once per stored revision."""
        return self.catalog.superseded()

    def page_of(self, path: str, offset: int) -> int | None:
        """The page of document ``path`` holding character ``offset`` (None: a document without pages)."""
        return self.catalog.page_of(path, offset)

    def superseded_editions(self, path: str) -> list[str]:
        """Titles of the editions the document at ``path`` supersedes (empty for most documents)."""
        return self.catalog.superseded_editions(path)

    def default_collections(self) -> tuple[str, ...]:
        """What a question that names no collection searches (see :meth:`Catalog.default_collections`)."""
        return self.catalog.default_collections()

    def collections_named(self, terms: Sequence[str]) -> tuple[str, ...]:
        """The one searched collection a question's terms name (see :meth:`Catalog.collections_named`)."""
        return self.catalog.collections_named(terms, self.default_collections() or tuple(sorted(self.collections)))

    def terms_in(self, terms: Sequence[str], collections: Sequence[str]) -> set[str]:
        """The ``terms`` some document of ``collections`` contains (see :meth:`Catalog.terms_in`)."""
        return self.catalog.terms_in(terms, collections)

    def chunks_with(self, term: str, collections: Sequence[str]) -> frozenset[str]:
        """Passages of ``collections`` that hold ``term`` (see :meth:`Catalog.chunks_with`)."""
        return self.catalog.chunks_with(term, collections)

    def spaced_variant(self, word: str, collections: Sequence[str]) -> str | None:
        """How ``collections`` write a two-character word with one character inside (see :meth:`Catalog.spaced_variant`)."""
        return self.catalog.spaced_variant(word, collections)

    def same_kind(self, phrase: str, collections: Sequence[str]) -> tuple[str, tuple[str, ...]]:
        """Names of the kind ``phrase`` is, as the tables of ``collections`` know them (every searched
        collection when empty; see :func:`knowzero.knowledge.index.kinds.same_kind`)."""
        sql = self.sql
        if sql is None:
            return "", ()
        return same_kind(phrase, sql.kind_tables(tuple(collections) or self.default_collections(), self.disabled))

    def terms_missing_from(self, terms: Sequence[str], collections: Sequence[str]) -> list[str]:
        """The ``terms`` no document of ``collections`` contains while another collection names a topic with them."""
        return self.catalog.terms_missing_from(terms, collections)
