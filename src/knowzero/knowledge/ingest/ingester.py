"""Ingest: files and documents parsed, chunked, stored and queued for embedding, in small committed batches.

Incremental and keyed by content: unchanged files are skipped, changed files replace their chunks,
files that vanished from an ingested folder are removed, and a bad file is reported by name (and
listed as failed, with the reason) and skipped without touching what was already indexed.

Searchable before embedded: :class:`Ingester` commits files in small batches — each file's chunks,
keyword rows and CSV table together with the embedding jobs of its chunks that have no cached or
shipped vector (``knowledge/ingest/embedqueue.py``: our table on SQLite, procrastinate on PostgreSQL)
— so a file is searchable by keyword the moment its batch commits and a kill at any point loses no
committed file. Vectors come from workers (or :meth:`Ingester.embed_pending` in this process);
storing a batch bumps the ``vectors`` revision, on which readers load just the new vectors.

What it writes, :class:`~knowzero.knowledge.index.loaded.Indexes` loads; it writes under the same lock.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine, delete, select, text

from knowzero.config import DOMAINS, Settings
from knowzero.errors import IngestError
from knowzero.knowledge.index.dense import PgVectorIndex
from knowzero.knowledge.index.loaded import Indexes, embed_body
from knowzero.knowledge.index.sqlindex import create_table, encode_columns, new_table_name
from knowzero.knowledge.index.tables import (
    flag_rows,
    kb_chunks,
    kb_disabled,
    kb_embeddings,
    kb_failures,
    kb_files,
    kb_flags,
    kb_tables,
    vector_key,
)
from knowzero.knowledge.ingest.chunker import chunk_text
from knowzero.knowledge.ingest.document import page_at
from knowzero.knowledge.ingest.embedqueue import JobQueue, WorkProgress, bump, run_worker, store_vectors
from knowzero.knowledge.ingest.parse_worker import ISOLATED_SUFFIXES, PARSE_WORKERS, ParseWorker
from knowzero.knowledge.ingest.parsers import TEXT_SUFFIXES, ParsedDoc, parse_bytes, parse_file
from knowzero.knowledge.types import Passage


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
    """Where an ingest is: files looked at (of total), chunks made searchable, embedding jobs queued;
    while a file with pages is read ahead, ``current`` is that file and ``page`` of ``pages`` is read."""

    files_done: int
    files_total: int
    chunks: int
    queued: int
    current: str = ""
    page: int = 0
    pages: int = 0


def infer_domain(rel: Path, default: str) -> str:
    for part in rel.parts[:-1]:
        if part.lower() in DOMAINS:
            return part.lower()
    return default


def stored_layout(raw: str | None) -> dict[str, Any]:
    """A stored document's ``layout`` column (pages, tables, OCR pages, parse warnings) read back; {} when unreadable."""
    try:
        data = json.loads(raw or "{}")
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


@lru_cache(maxsize=1)
def shipped_vectors() -> dict[str, np.ndarray]:
    """Vectors shipped for the demo knowledge base (same keys as the cache)."""
    f = resources.files("knowzero").joinpath("demo_kb/_vectors.npz")
    if not f.is_file():
        return {}
    with np.load(str(f)) as data:
        keys = [str(k) for k in data["keys"]]
        return dict(zip(keys, data["vectors"].astype(np.float32), strict=True))


class Ingester:
    """Parse → chunk → store → queue. Writes under the lock of the :class:`Indexes` it writes for."""

    commit_files, commit_chunks, commit_seconds = 64, 1000, 1.0
    """Ingest commits a batch when it holds this many files or chunks, or has been open this long."""
    analyze_chunks = 1000
    """PostgreSQL mode: an ingest that added this many chunks refreshes the planner's statistics."""

    def __init__(self, engine: Engine, settings: Settings, queue: JobQueue, indexes: Indexes,
                 encoder: Callable[[], Any]) -> None:
        self.engine, self.settings, self.queue, self.indexes = engine, settings, queue, indexes
        self._encoder = encoder
        """The passage encoder, asked for when there is something to embed (loading it takes seconds)."""

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
                if root.is_dir() and (f.is_symlink() or not f.resolve().is_relative_to(root.resolve())):
                    # a link in a folder may point anywhere the ingesting user can read (/etc/passwd.txt)
                    report.skipped.append({"path": source, "reason": "symbolic link (not followed; name the file itself)"})
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
                layout = stored_layout(row.layout)
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
        self.indexes.refresh(force=True)
        if embed:
            report.embedded += self.embed_pending()
        report.elapsed_ms = (time.perf_counter() - t0) * 1000
        return report

    def _ingest(self, docs: list[SourceDoc], *, collection: str, domain: str | None, roots: list[tuple[str, set[str]]],
                report: IngestReport, progress: Callable[[int, int], None] | None, embed: bool = True,
                on_progress: Callable[[IngestProgress], None] | None = None) -> IngestReport:
        t0 = time.perf_counter()
        with ExitStack() as stack:
            workers = tuple(stack.enter_context(ParseWorker()) for _ in range(min(PARSE_WORKERS, os.cpu_count() or 1)))
            existing = self._ingest_with(workers, docs, collection=collection, domain=domain, report=report,
                                         on_progress=on_progress)
        removed: list[str] = []
        for root, seen in roots:
            for path, row in existing.items():
                if row.origin and row.origin.startswith(root.rstrip("/") + "/") and row.origin not in seen:
                    removed.append(path)
        if removed:
            with self.indexes.lock, self.engine.begin() as conn:
                for path in removed:
                    self.indexes.remove_document(conn, path)
                    conn.execute(delete(kb_disabled).where(kb_disabled.c.path == path))
                bump(conn, "revision")
        report.removed = removed
        if self.indexes.in_db and report.chunks >= self.analyze_chunks:
            with self.engine.begin() as conn:  # fresh planner statistics: GIN or scan per term frequency
                conn.execute(text("ANALYZE kb_kw, kb_kw_df, kb_chunks"))
        self._record_failures(report.doc_failures)
        if report.changed or not self.indexes.revision:
            self.indexes.refresh(force=True)
        if embed:
            report.embedded += self.embed_pending(progress)
        report.elapsed_ms = (time.perf_counter() - t0) * 1000
        return report

    def _ingest_with(self, workers: tuple[ParseWorker, ...], docs: list[SourceDoc], *, collection: str, domain: str | None,
                     report: IngestReport, on_progress: Callable[[IngestProgress], None] | None) -> dict[str, Any]:
        """Parse, chunk and store ``docs`` in batches; the files that were in the database before."""
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

        def pages_read(i: int, source: str) -> Callable[[int, int], None] | None:
            if on_progress is None:
                return None
            return lambda page, pages: on_progress(IngestProgress(i, len(docs), report.chunks + batch_chunks,
                                                                  report.queued, source, page, pages))

        def unchanged(d: SourceDoc) -> bool:
            old = existing.get(d.source)
            return old is not None and old.sha256 == d.sha256

        # PDF, Office files and images are parsed in worker processes (taking turns), ahead of the indexing here
        to_submit = deque(i for i, d in enumerate(docs) if isinstance(d.parsed, _LazyParse)
                          and d.parsed.path.suffix.lower() in ISOLATED_SUFFIXES and not unchanged(d))
        worker_of = {k: workers[n % len(workers)] for n, k in enumerate(to_submit)}

        def parse(i: int, d: SourceDoc) -> ParsedDoc:
            if i not in worker_of:
                return d.parsed.get(pages_read(i, d.source)) if isinstance(d.parsed, _LazyParse) else d.parsed
            try:
                return worker_of[i].result(i, pages_read(i, d.source))
            finally:
                if to_submit:  # the next file, parsed while this one is indexed
                    k = to_submit.popleft()
                    worker_of[k].submit(k, docs[k].parsed.path)  # type: ignore[attr-defined]

        for _ in range(min(2 * len(workers), len(to_submit))):
            k = to_submit.popleft()
            worker_of[k].submit(k, docs[k].parsed.path)  # type: ignore[attr-defined]
        for i, d in enumerate(docs):
            if unchanged(d):
                report.unchanged.append(d.source)
            else:
                try:
                    parsed = parse(i, d)
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
        return existing

    def _commit_batch(self, batch: list[_Doc], existing: dict[str, Any], report: IngestReport,
                      written: set[str], *, keep_tables: bool = False) -> None:
        """One transaction: files, chunks, keyword rows, flags, tables, cached vectors and embedding jobs.

        Rows go in as one multi-row statement per table; only paths that may already have rows
        (``written``: in the database before this ingest, or earlier in it) are deleted first."""
        indexes = self.indexes
        keys = {p.id: vector_key(embed_body(p)) for _, _, _, ps in batch for p in ps}
        bodies = {keys[p.id]: embed_body(p) for _, _, _, ps in batch for p in ps}
        cached = self._cached_keys(list(bodies))
        shipped = shipped_vectors()
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
        with indexes.lock, self.engine.begin() as conn:
            store_vectors(conn, from_shipped)
            self.queue.enqueue(conn, jobs)
            for path in paths:
                if path in written:
                    indexes.remove_document(conn, path, keep_tables=keep_tables)
            off = set(conn.execute(select(kb_disabled.c.path).where(kb_disabled.c.path.in_(paths))).scalars())
            conn.execute(kb_files.insert(), files)
            conn.execute(kb_chunks.insert(), chunks)
            if flags:
                conn.execute(kb_flags.insert(), flags)
            live = [p for p in unique_all if p.path not in off]  # a disabled document stays out of the index
            indexes.keyword.add(live, conn)
            if isinstance(indexes.dense, PgVectorIndex) and (cached or from_shipped):
                have = indexes.cached_vectors([k for k in bodies if k in cached]) | from_shipped
                ready = [p for p in live if keys[p.id] in have]
                if ready:
                    indexes.dense.add([p.id for p in ready], [p.path for p in ready],
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

        done = run_worker(self.queue, lambda bodies: self._encoder().passages(bodies), batch=self.settings.embed_batch,
                          drain=True, progress=tick)
        if done:
            self.indexes.refresh()
        return done


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


class _LazyParse:
    """Parse on demand, so unchanged files are never parsed."""

    def __init__(self, path: Path, domain: str) -> None:
        self.path, self.domain = path, domain

    def get(self, progress: Callable[[int, int], None] | None = None) -> ParsedDoc:
        """``progress(page, pages)`` as a PDF's pages are read."""
        return parse_file(self.path, progress)


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
