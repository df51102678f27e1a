"""Read-through views of the knowledge base's rows, for PostgreSQL mode.

An API worker on PostgreSQL holds no per-corpus copy in memory: chunks, document texts and
titles stay in the database and each question fetches what it needs. These classes give the
knowledge base's readers the same mapping interface the embedded mode's dictionaries have
(``kb.passages.get(pid)``, ``kb.file_texts[path]``, ``for p in kb.passages.values()``), backed by
SELECTs, with small bounded caches (a fixed number of entries, never a function of the corpus)
that :meth:`changed` empties when the knowledge base's revision moves. Iteration streams rows
from the database in batches: a caller that walks the corpus (learning's entity scan, the
evaluation) pays a transient cost, nothing stays behind.

    chunks = ChunkView(engine); chunks.get("a1b2…"); chunks.many(["…", "…"]); chunks.of_path("hr/leave.md")
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Generic, TypeVar

from sqlalchemy import Engine, func, select

from knowzero.knowledge.index.tables import kb_chunks, kb_files
from knowzero.knowledge.types import Passage

V = TypeVar("V")
_BATCH = 500


class _Lru(Generic[V]):
    """A thread-safe LRU of at most ``size`` entries."""

    def __init__(self, size: int) -> None:
        self.size, self._d, self._lock = size, OrderedDict[str, V](), threading.Lock()

    def get(self, key: str) -> V | None:
        with self._lock:
            v = self._d.get(key)
            if v is not None:
                self._d.move_to_end(key)
            return v

    def put(self, key: str, value: V) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._d.clear()


def _passage(r: Any) -> Passage:
    return Passage(r.id, r.path, r.title, r.section, r.text, r.start, r.end, r.domain, r.collection, r.page, bool(r.ocr))


_CHUNK_COLS = (kb_chunks.c.id, kb_chunks.c.path, kb_chunks.c.title, kb_chunks.c.section, kb_chunks.c.text,
               kb_chunks.c.start, kb_chunks.c.end, kb_chunks.c.domain, kb_chunks.c.collection, kb_chunks.c.page,
               kb_chunks.c.ocr)


class ChunkView(Mapping[str, Passage]):
    """``passage id → Passage`` over ``kb_chunks`` (see module doc)."""

    def __init__(self, engine: Engine, cache: int = 2048) -> None:
        self.engine, self._cache, self._n = engine, _Lru[Passage](cache), -1

    def changed(self) -> None:
        self._cache.clear()
        self._n = -1

    def __getitem__(self, pid: str) -> Passage:
        p = self.many([pid]).get(pid)
        if p is None:
            raise KeyError(pid)
        return p

    def many(self, ids: list[str]) -> dict[str, Passage]:
        """The passages of ``ids`` that exist (one SELECT for those not cached)."""
        out: dict[str, Passage] = {}
        missing = []
        for pid in ids:
            p = self._cache.get(pid)
            if p is not None:
                out[pid] = p
            elif not pid.startswith("sql:"):
                missing.append(pid)
        if missing:
            with self.engine.connect() as conn:
                for i in range(0, len(missing), _BATCH):
                    for r in conn.execute(select(*_CHUNK_COLS).where(kb_chunks.c.id.in_(missing[i:i + _BATCH]))):
                        p = _passage(r)
                        self._cache.put(p.id, p)
                        out[p.id] = p
        return out

    def of_path(self, path: str) -> list[Passage]:
        """One document's chunks, in order."""
        with self.engine.connect() as conn:
            return [_passage(r) for r in conn.execute(select(*_CHUNK_COLS).where(kb_chunks.c.path == path)
                                                      .order_by(kb_chunks.c.ordinal))]

    def __len__(self) -> int:
        if self._n < 0:
            with self.engine.connect() as conn:
                self._n = int(conn.execute(select(func.count()).select_from(kb_chunks)).scalar() or 0)
        return self._n

    def __iter__(self) -> Iterator[str]:
        return (p.id for p in self.values())

    def values(self) -> Iterator[Passage]:  # type: ignore[override]
        """Every passage, streamed in (path, ordinal) order."""
        return _stream(self.engine, select(*_CHUNK_COLS).order_by(kb_chunks.c.path, kb_chunks.c.ordinal), _passage)

    def items(self) -> Iterator[tuple[str, Passage]]:  # type: ignore[override]
        return ((p.id, p) for p in self.values())


class FileTextView(Mapping[str, str]):
    """``document path → its text`` over ``kb_files`` (the few last read are cached)."""

    def __init__(self, engine: Engine, cache: int = 32) -> None:
        self.engine, self._cache = engine, _Lru[str](cache)

    def changed(self) -> None:
        self._cache.clear()

    def __getitem__(self, path: str) -> str:
        t = self._cache.get(path)
        if t is None:
            with self.engine.connect() as conn:
                t = conn.execute(select(kb_files.c.text).where(kb_files.c.path == path)).scalar()
            if t is None:
                raise KeyError(path)
            self._cache.put(path, t)
        return t

    def __len__(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(kb_files)).scalar() or 0)

    def __iter__(self) -> Iterator[str]:
        return _stream(self.engine, select(kb_files.c.path).order_by(kb_files.c.path), lambda r: r.path)

    def values(self) -> Iterator[str]:  # type: ignore[override]
        return _stream(self.engine, select(kb_files.c.text).order_by(kb_files.c.path), lambda r: r.text)

    def items(self) -> Iterator[tuple[str, str]]:  # type: ignore[override]
        return _stream(self.engine, select(kb_files.c.path, kb_files.c.text).order_by(kb_files.c.path),
                       lambda r: (r.path, r.text))


class TitleDerived(Mapping[str, frozenset[str]]):
    """``document path → f(its title)`` (the entities a document names), computed on demand."""

    def __init__(self, engine: Engine, fn: Callable[[str], frozenset[str]], cache: int = 1024) -> None:
        self.engine, self._fn, self._cache = engine, fn, _Lru[frozenset[str]](cache)

    def changed(self) -> None:
        self._cache.clear()

    def __getitem__(self, path: str) -> frozenset[str]:
        v = self._cache.get(path)
        if v is None:
            with self.engine.connect() as conn:
                title = conn.execute(select(kb_files.c.title).where(kb_files.c.path == path)).scalar()
            if title is None:
                raise KeyError(path)
            v = self._fn(title)
            self._cache.put(path, v)
        return v

    def __len__(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(kb_files)).scalar() or 0)

    def __iter__(self) -> Iterator[str]:
        return _stream(self.engine, select(kb_files.c.path).order_by(kb_files.c.path), lambda r: r.path)


def titles(engine: Engine) -> Iterator[str]:
    """Every document title, streamed."""
    return _stream(engine, select(kb_files.c.title).order_by(kb_files.c.path), lambda r: r.title)


def _stream(engine: Engine, stmt: Any, fn: Callable[[Any], Any]) -> Iterator[Any]:
    """Rows of ``stmt`` through ``fn``, fetched in batches (server-side cursor where the driver has one)."""
    with engine.connect() as conn:
        result = conn.execution_options(stream_results=True, yield_per=_BATCH).execute(stmt)
        for r in result:
            yield fn(r)
