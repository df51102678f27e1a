"""The stored documents and collections as an editor sees them: listed, switched off and on, deleted.

:class:`Catalog` answers what is stored (each document's status, chunks, flags; a collection's
documents; the embedding queue's figures), changes what is stored (:meth:`Catalog.delete_file`,
:meth:`Catalog.set_enabled`) and decides, once per stored revision, what a question that names no
collection searches (:meth:`Catalog.default_collections`) and which documents an edition supersedes
(:meth:`Catalog.superseded`). It writes under the lock of the
:class:`~knowzero.knowledge.index.loaded.Indexes` it reloads after every change.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Engine, and_, case, delete, func, or_, select, text

from knowzero.knowledge.index import versions
from knowzero.knowledge.index.dense import PgVectorIndex
from knowzero.knowledge.index.loaded import Indexes
from knowzero.knowledge.index.tables import kb_chunks, kb_disabled, kb_failures, kb_files, kb_flags
from knowzero.knowledge.ingest.document import page_at
from knowzero.knowledge.ingest.embedqueue import JobQueue, bump
from knowzero.knowledge.ingest.ingester import stored_layout
from knowzero.knowledge.text import tokens
from knowzero.knowledge.types import Passage

DEMO_COLLECTION = "demo"
"""The collection the bundled demo company's documents are ingested into."""
HEAD_CHARS = 800
"""How much of a document's start (and of its end) says which edition it is and which one it replaces."""


class Catalog:
    """Listing, switching off and deleting stored documents; per-revision facts about collections."""

    def __init__(self, engine: Engine, queue: JobQueue, indexes: Indexes) -> None:
        self.engine, self.queue, self.indexes = engine, queue, indexes
        self._superseded: tuple[str, dict[str, str], dict[str, str]] | None = None
        self._page_starts: tuple[str, dict[str, list[int]]] | None = None
        self._default_collections: tuple[str, tuple[str, ...]] | None = None
        self._term_documents: tuple[str, dict[str, dict[str, int]], dict[str, int]] | None = None

    # ----- changing what is stored -----
    def delete_file(self, path: str) -> bool:
        """Remove one ingested document (chunks, tables, text, and its text queued for embedding), or the record
        of a file whose ingest failed; False when there is neither."""
        with self.indexes.lock, self.engine.begin() as conn:
            if conn.execute(select(kb_files.c.path).where(kb_files.c.path == path)).first() is None:
                # a file whose only trace is its failed ingest: removing it removes the failure from the list
                return bool(conn.execute(delete(kb_failures).where(kb_failures.c.path == path)).rowcount)
            keys = set(conn.execute(select(kb_chunks.c.vkey).where(kb_chunks.c.path == path)).scalars()) - {None}
            self.indexes.remove_document(conn, path)
            # its text waiting to be embedded goes too (a chunk of another document with the same text keeps it)
            kept = set(conn.execute(select(kb_chunks.c.vkey).where(kb_chunks.c.vkey.in_(sorted(keys)))).scalars()) \
                if keys else set()
            self.queue.discard(conn, keys - kept)
            conn.execute(delete(kb_failures).where(kb_failures.c.path == path))
            conn.execute(delete(kb_disabled).where(kb_disabled.c.path == path))
            bump(conn, "revision")
        self.indexes.refresh(force=True)
        return True

    def set_enabled(self, path: str, enabled: bool, *, by: str = "") -> bool:
        """Switch a document on or off; False when there is no such document.

        Off: its keyword rows (and pgvector rows) are removed and nothing of it loads, so it is not
        retrieved and not cited; its chunks, text, tables and cached vectors stay. On: its keyword rows
        come back from its stored chunks and the next load brings back its passages, vectors and table.
        Idempotent; every change bumps the revision, so every worker reloads."""
        indexes = self.indexes
        with indexes.lock, self.engine.begin() as conn:
            if conn.execute(select(kb_files.c.path).where(kb_files.c.path == path)).first() is None:
                return False
            off = conn.execute(select(kb_disabled.c.path).where(kb_disabled.c.path == path)).first() is not None
            if off == (not enabled):
                return True
            if enabled:
                conn.execute(delete(kb_disabled).where(kb_disabled.c.path == path))
                indexes.keyword.add(self.document_chunks(path, conn), conn)
            else:
                conn.execute(kb_disabled.insert().values(path=path, disabled_at=time.time(), by=by[:200]))
                indexes.keyword.remove_path(path, conn)
                if isinstance(indexes.dense, PgVectorIndex):
                    indexes.dense.remove_path(path, conn)
            bump(conn, "revision")
        indexes.keyword.changed()
        indexes.refresh(force=True)
        return True

    # ----- what is stored -----
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
        disabled = self.indexes.disabled
        if disabled and not self.indexes.in_db:  # not loaded: their chunks are counted in the database
            with self.engine.connect() as conn:
                counts.update(conn.execute(select(kb_chunks.c.path, func.count()).where(kb_chunks.c.path.in_(disabled))
                                           .group_by(kb_chunks.c.path)).tuples().all())
        flags = self._flags()
        out: list[dict[str, object]] = []
        for r in rows:
            n, e = counts.get(r.path, 0), embedded.get(r.path, 0)
            off = r.path in disabled
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
        dense = self.indexes.dense
        if not self.indexes.in_db:
            counts: dict[str, int] = {}
            embedded: dict[str, int] = {}
            have = set(dense.ids)
            for p in self.indexes.passages.values():
                counts[p.path] = counts.get(p.path, 0) + 1
                embedded[p.path] = embedded.get(p.path, 0) + (p.id in have)
            return counts, embedded
        with self.engine.connect() as conn:
            if isinstance(dense, PgVectorIndex) and dense.table_exists(conn):
                rows = conn.execute(text("SELECT c.path, count(*) AS n, count(v.id) AS e FROM kb_chunks c "
                                         "LEFT JOIN kb_vectors v ON v.id = c.id GROUP BY c.path")).all()
            else:
                rows = conn.execute(text("SELECT path, count(*) AS n, 0 AS e FROM kb_chunks GROUP BY path")).all()
        return {r.path: int(r.n) for r in rows}, {r.path: int(r.e) for r in rows}

    # ----- per stored revision: editions, default collections, terms a collection lacks -----
    def superseded(self) -> dict[str, str]:
        """Each superseded document's path → its current edition's (:mod:`knowzero.knowledge.index.versions`),
        decided once per stored revision from the documents' titles, first lines and last lines."""
        cached = self._superseded
        if cached is not None and cached[0] == self.indexes.revision:
            return cached[1]
        body = kb_files.c.text
        tail_from = case((func.length(body) > 2 * HEAD_CHARS, func.length(body) - HEAD_CHARS + 1), else_=HEAD_CHARS + 1)
        with self.engine.connect() as conn:  # its first lines, and its last ("…replaces the 2023 policy, which is withdrawn")
            rows = conn.execute(select(kb_files.c.path, kb_files.c.collection, kb_files.c.title,
                                       func.substr(body, 1, HEAD_CHARS), func.substr(body, tail_from, HEAD_CHARS))).all()
        result = versions.superseded(versions.DocInfo(r[0], r[1], r[2], r[3] or "", r[4] or "") for r in rows)
        titles = {r[0]: r[2] for r in rows if r[0] in result}
        self._superseded = (self.indexes.revision, result, titles)
        return result

    def page_of(self, path: str, offset: int) -> int | None:
        """The page (or slide) of document ``path`` holding character ``offset``; None for a document without
        pages. A chunk stores the page it starts on; a quote further into it may be on the next page."""
        if self._page_starts is None or self._page_starts[0] != self.indexes.revision:
            self._page_starts = (self.indexes.revision, {})
        known = self._page_starts[1]
        if path not in known:
            with self.engine.connect() as conn:
                raw = conn.execute(select(kb_files.c.layout).where(kb_files.c.path == path)).scalar()
            starts = stored_layout(raw).get("page_starts") or []
            known[path] = [int(x) for x in starts if isinstance(x, int)]
        return page_at(known[path], offset)

    def superseded_editions(self, path: str) -> list[str]:
        """Titles of the editions the document at ``path`` supersedes (empty for most documents)."""
        old = self.superseded()
        titles = self._superseded[2] if self._superseded is not None else {}
        return [titles.get(p, p) for p, current in sorted(old.items()) if current == path]

    def default_collections(self) -> tuple[str, ...]:
        """What a question that names no collection searches: every collection but the bundled demo's once
        a team has its own documents (the demo company never answers for the team unasked); () — everything
        — while the demo is all there is. Decided once per stored revision (every turn asks)."""
        cached = self._default_collections
        if cached is not None and cached[0] == self.indexes.revision:
            return cached[1]
        with self.engine.connect() as conn:
            names = set(conn.execute(select(kb_files.c.collection).distinct()).scalars())
        own = sorted(n for n in names if n and n != DEMO_COLLECTION)
        result = tuple(own) if own and DEMO_COLLECTION in names else ()
        self._default_collections = (self.indexes.revision, result)
        return result

    def collections_named(self, terms: Sequence[str], among: Sequence[str]) -> tuple[str, ...]:
        """The one collection of ``among`` the question's ``terms`` name, else (): a term written in at least
        half of that collection's documents (their organisation's name, "瀚陆", "Maple Grove") and in no document
        of the others; of two collections so named, the one whose term is in the larger share of its documents
        (the organisation's name beats a topic word only one organisation writes). Counted once per term and
        stored revision (every unscoped turn asks)."""
        if len(among) < 2:
            return ()
        rev = self.indexes.revision
        if self._term_documents is None or self._term_documents[0] != rev:
            with self.engine.connect() as conn:
                docs: dict[str, int] = {str(c): int(n) for c, n in conn.execute(
                    select(kb_files.c.collection, func.count()).group_by(kb_files.c.collection)).all()}
            self._term_documents = (rev, {}, docs)
        _, cache, docs = self._term_documents
        named: dict[str, float] = {}  # collection → the largest share of its documents a term names
        parts = {c: set(re.split(r"[\W_]+", c.lower())) for c in among}
        for t in dict.fromkeys(terms):
            # a word of one collection's own name ("Ciji" of ciji-hospital) that no other collection writes
            owners = [c for c, ps in parts.items() if len(t) >= 3 and t.lower() in ps]
            name_of = owners[0] if len(owners) == 1 else None
            if len(t) < 2 or t.isdigit() or self.indexes.keyword.doc_freq(t) <= 0:
                if name_of is not None:
                    named[name_of] = 1.0
                continue
            if t not in cache:
                needle = t.lower() if t.isascii() else t
                cols: list[ColumnElement[str]] = [kb_chunks.c.text, kb_chunks.c.title]
                if t.isascii():
                    cols = [func.lower(c) for c in cols]
                where = or_(*(c.contains(needle, autoescape=True) for c in cols))
                with self.engine.connect() as conn:
                    rows = conn.execute(select(kb_chunks.c.collection, func.count(func.distinct(kb_chunks.c.path)))
                                        .where(where).group_by(kb_chunks.c.collection)).all()
                cache[t] = {c: n for c, n in rows}
            per = {c: n for c, n in cache[t].items() if c in among}
            if name_of is not None and set(per) <= {name_of}:
                named[name_of] = 1.0
            if len(per) == 1 and (c := next(iter(per))) and per[c] * 2 >= docs.get(c, 0) > 0:
                named[c] = max(named.get(c, 0.0), per[c] / docs[c])
        if not named:
            return ()
        best = max(named.values())  # the organisation's name is in all its documents, a topic word in some
        top = [c for c, share in named.items() if share == best]
        return (top[0],) if len(top) == 1 else ()

    def terms_in(self, terms: Sequence[str], collections: Sequence[str]) -> set[str]:
        """The ``terms`` some document of ``collections`` contains in its text, title or headings (the words a
        translated question may use: the searched documents' own, not another collection's); no
        ``collections``: every document."""
        found: set[str] = set()
        with self.engine.connect() as conn:
            for t in dict.fromkeys(terms):
                words = tokens(t)  # the keyword index's own words: a term it lacks is in no document at all
                if not words or any(self.indexes.keyword.doc_freq(w) <= 0 for w in words):
                    continue
                if conn.execute(select(kb_chunks.c.id).where(_holding(t, collections)).limit(1)).first():
                    found.add(t)
        return found

    def chunks_with(self, term: str, collections: Sequence[str], limit: int = 200) -> frozenset[str]:
        """Ids of up to ``limit`` passages of ``collections`` whose text, title or heading holds ``term`` (which
        words of a translation stand together in one passage); no ``collections``: every passage."""
        with self.engine.connect() as conn:
            return frozenset(r[0] for r in conn.execute(select(kb_chunks.c.id).where(_holding(term, collections))
                                                        .limit(limit)))

    def spaced_variant(self, word: str, collections: Sequence[str]) -> str | None:
        """The form of a two-character ``word`` the documents of ``collections`` write most often with one
        character between its two ("年假" → "年休假"), else None (asked for a dictionary word they do not write)."""
        if len(word) != 2 or not re.fullmatch(r"[\u4e00-\u9fff]{2}", word):
            return None
        pattern = f"%{word[0]}_{word[1]}%"
        with self.engine.connect() as conn:
            where: ColumnElement[bool] = kb_chunks.c.text.like(pattern)
            if collections:
                where = and_(kb_chunks.c.collection.in_(list(collections)), where)
            rows = conn.execute(select(kb_chunks.c.text).where(where).limit(20)).all()
        forms = Counter(m.group(0) for (text,) in rows
                        for m in re.finditer(f"{word[0]}[\u4e00-\u9fff]{word[1]}", text or ""))
        return forms.most_common(1)[0][0] if forms else None

    def terms_missing_from(self, terms: Sequence[str], collections: Sequence[str]) -> list[str]:
        """The ``terms`` that no document of ``collections`` contains (text or title) while a document of
        another collection names a topic with it (in its title or a section heading: "四、婚假" — a word
        like 每天 or 合计 is in many texts and names no topic)."""
        known = [t for t in dict.fromkeys(terms) if self.indexes.keyword.doc_freq(t) > 0]
        missing = []
        with self.engine.connect() as conn:
            for t in known:
                topic_elsewhere = conn.execute(select(kb_chunks.c.id).where(
                    kb_chunks.c.collection.not_in(list(collections)),
                    kb_chunks.c.section.contains(t, autoescape=True) | kb_chunks.c.title.contains(t, autoescape=True))
                    .limit(1)).first()
                if not topic_elsewhere:
                    continue
                in_text = conn.execute(select(kb_chunks.c.id).where(  # a heading ("3. Annual CE allowance") counts
                    kb_chunks.c.collection.in_(list(collections)),
                    kb_chunks.c.text.contains(t, autoescape=True) | kb_chunks.c.section.contains(t, autoescape=True))
                    .limit(1)).first()
                in_title = in_text or conn.execute(select(kb_files.c.path).where(
                    kb_files.c.collection.in_(list(collections)), kb_files.c.title.contains(t, autoescape=True))
                    .limit(1)).first()
                if not in_text and not in_title:
                    missing.append(t)
        return missing


def _layout_item(raw: str | None) -> dict[str, object]:
    """What the file list shows of a document's parse: pages, tables, OCR pages, parse warnings."""
    layout = stored_layout(raw)
    return {"pages": layout.get("pages"), "tables": int(layout.get("tables") or 0),
            "ocr_pages": list(layout.get("ocr_pages") or []), "warnings": list(layout.get("warnings") or [])}


def _flags_item(chunks: list[dict[str, object]]) -> dict[str, object]:
    return {"flags": ["instructions"] if chunks else [], "flagged_chunks": chunks}


def _holding(term: str, collections: Sequence[str]) -> ColumnElement[bool]:
    """Passages of ``collections`` (none: all) whose text, title or heading holds ``term``; an English term in any
    case ("Sick leave" at a heading's start is still the term)."""
    cols: list[ColumnElement[str]] = [kb_chunks.c.text, kb_chunks.c.title, kb_chunks.c.section]
    needle = term
    if term.isascii():
        cols, needle = [func.lower(c) for c in cols], term.lower()
    where: ColumnElement[bool] = or_(*(c.contains(needle, autoescape=True) for c in cols))
    return and_(kb_chunks.c.collection.in_(list(collections)), where) if collections else where
