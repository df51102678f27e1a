"""Parsing in a worker process: a parse that runs away is killed, and its memory goes with it.

The parsers bound what a file may expand to (``knowzero.knowledge.ingest.parsers``: sizes and counts);
this module bounds the rest, which a thread cannot: wall-clock time (:data:`PARSE_SECONDS`, then
the process is killed; a PDF or image read page by page — OCR takes seconds a page — gets
:data:`PARSE_SECONDS` more after each page it reports, up to :data:`PARSE_MAX_SECONDS` in all) and memory (:data:`PARSE_MEMORY_BYTES` of address space above the worker's
start, then ``MemoryError``). Uploads are parsed here (``knowzero.api.routes.kb``), so a bomb never
grows the server's heap or holds its GIL, and the server keeps answering. A folder ingest (``knowzero
ingest``) sends its PDF, Office and image files to :data:`PARSE_WORKERS` :class:`ParseWorker` processes
taking turns, under the same limits, ahead of the indexing (parsing and indexing at once).

Each parse is a process forked from multiprocessing's forkserver, which has the parsers imported
(a few milliseconds a file, not an interpreter start); at most :data:`PARSE_WORKERS` run at once,
others wait their turn. Where there is no forkserver (not Linux/macOS) or this process may not
have children (a daemonic process), the parse runs in this process, still under the parsers' limits.

    doc = parse_isolated(data, "report.docx")       # blocking
    doc = await parse_upload(data, "report.docx")   # from the event loop

Both raise what the parse raised (``IngestError``, ``DocumentTooLarge``, ``RefusedDocument``), and
``DocumentTooLarge`` for a parse over its time or memory.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from knowzero.errors import IngestError
from knowzero.knowledge.ingest.parsers import (
    IMAGE_SUFFIXES,
    DocumentTooLarge,
    ParsedDoc,
    Progress,
    RefusedDocument,
    parse_bytes,
    parse_file,
)

log = logging.getLogger(__name__)

PARSE_WORKERS = 2
"""Parses running at once (each a process); more wait in line."""
PARSE_SECONDS = 60.0
"""Wall-clock time one parse may take before its process is killed (a 300-page PDF takes seconds)."""
PARSE_MAX_SECONDS = 1800.0
"""Wall-clock time a parse that reports progress per page may take in all (a 300-page scan: ~15 minutes of OCR)."""
PARSE_MEMORY_BYTES = 1536 * 1024 * 1024
"""Address space a parse may add to its process's (the largest documents the limits let through need
well under half of it)."""

_PRELOAD = ["knowzero.knowledge.ingest.parse_worker", "knowzero.entry", "lxml.etree", "docx", "pypdfium2", "openpyxl",
            "pptx", "PIL.Image"]
"""Imported once in the forkserver; the OCR engine is not (onnxruntime's threads must not cross a fork):
a worker loads it when a page needs it (~0.7 s). ``knowzero.entry`` is what the ``knowzero`` console
script imports: a worker runs its main script again (Python 3.11's forkserver never preloads a main
given by path), and without it each worker imported the settings and HTTP client anew (0.4 s a file)."""
_ERRORS: dict[str, type[IngestError]] = {c.__name__: c for c in (IngestError, RefusedDocument, DocumentTooLarge)}
_slots = threading.BoundedSemaphore(PARSE_WORKERS)
"""A parse holds one from before its worker starts until it has ended (like the model loaders' locks)."""


def parse_isolated(data: bytes, name: str, progress: Progress | None = None) -> ParsedDoc:
    """Parse ``data`` (file name ``name``) in a worker process; blocks until it is done or killed.
    ``progress(page, pages)`` is called (in this thread) as the worker reads each page."""
    with _slots:
        return _parse(data, name, progress)


async def parse_upload(data: bytes, name: str) -> ParsedDoc:
    """:func:`parse_isolated` for the event loop. Waiting for a free worker is a sleep on the loop,
    and waiting for the worker a thread of its own (never one of the default pool's), which frees
    the slot whatever becomes of the caller."""
    while not _slots.acquire(blocking=False):
        await asyncio.sleep(0.05)
    done: Future[ParsedDoc] = Future()

    def run() -> None:
        try:
            done.set_result(_parse(data, name))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            done.set_exception(exc)
        finally:
            _slots.release()

    threading.Thread(target=run, name="knowzero-parse", daemon=True).start()
    return await asyncio.wrap_future(done)


async def parse_uploads(files: list[tuple[str, bytes]], max_bytes: int) -> list[ParsedDoc | IngestError | None]:
    """Each uploaded ``(name, data)`` parsed by :func:`parse_upload`: its document, or the IngestError
    of a damaged file (the caller reports it per file), or None when ``data`` is over ``max_bytes``
    (not parsed). A file a parsing guard refuses (:class:`DocumentTooLarge`, :class:`RefusedDocument`)
    refuses the whole upload: raised once every file is parsed, naming each refused file in its details
    (``too_large``/413 when one is over a limit), so nothing of the upload is stored."""

    async def one(name: str, data: bytes) -> ParsedDoc | IngestError | None:
        if len(data) > max_bytes:
            return None
        try:
            return await parse_upload(data, name)
        except IngestError as exc:
            return exc

    outcomes = await asyncio.gather(*(one(name, data) for name, data in files))
    refused = [(name, r) for (name, _), r in zip(files, outcomes, strict=True) if isinstance(r, RefusedDocument)]
    if not refused:
        return outcomes
    details = [{"file": name, "error": r.message, **({"limit": r.limit, "max": r.maximum}
                                                   if isinstance(r, DocumentTooLarge) else {})} for name, r in refused]
    message = "; ".join(r.message for _, r in refused[:3]) + ("; …" if len(refused) > 3 else "")
    if len(files) > 1:
        message += f" ({len(refused)} of {len(files)} files refused: nothing from this upload was stored)"
    if any(isinstance(r, DocumentTooLarge) for _, r in refused):
        raise DocumentTooLarge(message, details=details)
    raise RefusedDocument(message, details)


def _forkserver() -> Any:
    """multiprocessing's forkserver context, the parsers preloaded in it; None where there is none."""
    if "forkserver" not in multiprocessing.get_all_start_methods() or multiprocessing.current_process().daemon:
        return None
    ctx = multiprocessing.get_context("forkserver")
    # A child imports the main module unless the forkserver has: a script main is preloaded as
    # "__main__", a ``python -m`` main by its name. (Only read when the forkserver starts.)
    main = getattr(getattr(sys.modules.get("__main__"), "__spec__", None), "name", None) or ""
    ctx.set_forkserver_preload(["__main__", *([main] if main and not main.endswith("__main__") else []), *_PRELOAD])
    return ctx


def _parse(data: bytes, name: str, progress: Progress | None = None) -> ParsedDoc:
    ctx = _forkserver()
    if ctx is None:
        return parse_bytes(data, name, progress)
    worker = _Worker(ctx)
    try:
        worker.send(data, name)
        return worker.receive(name, progress, lambda: parse_bytes(data, name))
    finally:
        worker.close()


class _Worker:
    """The parent's side of one worker process (:func:`_serve`): files sent (their bytes, or the path
    of a file on disk: a small message, so sending the next file never waits on the worker), outcomes
    received in the same order. A worker that runs over its time or dies is killed (:attr:`alive`
    turns False)."""

    def __init__(self, ctx: Any) -> None:
        self._conn, child = ctx.Pipe(duplex=True)
        self._proc = ctx.Process(target=_serve, args=(child, PARSE_MEMORY_BYTES), name="knowzero-parse", daemon=True)
        self._proc.start()
        child.close()
        self.started = False
        self.alive = True

    def send(self, data: bytes | Path, name: str) -> None:
        try:
            self._conn.send((data, name))
        except (OSError, ValueError):  # the worker is gone: receive() reports it
            self.alive = False

    def receive(self, name: str, progress: Progress | None, in_process: Callable[[], ParsedDoc]) -> ParsedDoc:
        """The next outcome (the file ``name`` sent first among those not yet received), raised or returned;
        ``in_process`` parses it here when the worker could not start."""
        seconds = PARSE_SECONDS
        began = time.monotonic()
        deadline = began + seconds
        outcome: tuple[Any, ...] = ("died",)
        try:
            while self.alive:
                if not self._conn.poll(max(deadline - time.monotonic(), 0)):
                    self.close(graceful=False)  # busy parsing: it would not read a goodbye
                    if deadline >= began + PARSE_MAX_SECONDS:
                        raise DocumentTooLarge(f"{name}: took longer than {PARSE_MAX_SECONDS:g} seconds to parse "
                                               "(PARSE_MAX_SECONDS), so it was not ingested", "PARSE_MAX_SECONDS",
                                               PARSE_MAX_SECONDS)
                    raise DocumentTooLarge(f"{name}: took longer than {seconds:g} seconds to parse "
                                           "(PARSE_SECONDS), so it was not ingested", "PARSE_SECONDS", seconds)
                outcome = self._conn.recv()
                if outcome[0] == "started":
                    self.started = True
                elif outcome[0] == "progress":  # one more page read: the next one gets its own time
                    deadline = min(time.monotonic() + seconds, began + PARSE_MAX_SECONDS)
                    if progress is not None:
                        progress(outcome[1], outcome[2])
                else:
                    break
        except (EOFError, OSError):
            outcome = ("died",)
        if outcome[0] in ("died", "memory"):
            self.close()  # a worker out of memory ends itself: its heap is not trusted with another file
        return _outcome(outcome, name, self.started, self._proc.exitcode, in_process)

    def close(self, graceful: bool = True) -> None:
        self.alive = False
        if graceful and self._proc.is_alive():
            try:
                self._conn.send(None)  # done: the worker ends after the file in hand
            except (OSError, ValueError):
                pass
            self._proc.join(0.5)
        if self._proc.is_alive():
            self._proc.kill()
        self._proc.join()
        self._conn.close()


def _outcome(outcome: tuple[Any, ...], name: str, started: bool, exitcode: int | None,
             in_process: Callable[[], ParsedDoc]) -> ParsedDoc:
    if outcome[0] == "ok":
        return outcome[1]  # type: ignore[no-any-return]
    if outcome[0] == "error":
        _, kind, message, limit, maximum = outcome
        if kind == "DocumentTooLarge":
            raise DocumentTooLarge(message, limit, maximum)
        raise _ERRORS.get(kind, IngestError)(message)
    if outcome[0] == "memory":
        raise DocumentTooLarge(f"{name}: needs more than {PARSE_MEMORY_BYTES // 2**20:,} MB of memory to parse "
                               "(PARSE_MEMORY_BYTES), so it was not ingested", "PARSE_MEMORY_BYTES",
                               PARSE_MEMORY_BYTES)
    if outcome[0] == "crash":
        last = next((ln for ln in reversed(str(outcome[1]).strip().splitlines()) if ln.strip()), "")
        log.error("parsing %s failed in the worker: %s", name, last[:300])  # one line: a user reads this
        log.debug("the worker's traceback:\n%s", outcome[1])
        raise IngestError(f"{name}: could not be parsed (the parser failed)")
    if not started:  # the worker never ran (a main module without its __main__ guard)
        log.error("a parse worker cannot start in this process (exit code %s): %s is parsed in-process, under the "
                  "parsers' size limits but without a time or memory limit", exitcode, name)
        return in_process()
    log.error("the worker parsing %s ended without an answer (exit code %s)", name, exitcode)
    raise DocumentTooLarge(f"{name}: could not be parsed within the parsing limits (the parser process was "
                           "stopped), so it was not ingested", "PARSE_MEMORY_BYTES", PARSE_MEMORY_BYTES)


ISOLATED_SUFFIXES = frozenset({".pdf", ".docx", ".xlsx", ".pptx", *IMAGE_SUFFIXES})
"""The formats a folder ingest parses in a :class:`ParseWorker`: those whose parse takes time and memory
(pages, OCR, zip containers). Text, Markdown, HTML and CSV are parsed in the ingesting process, under the
parsers' limits (sending each small file to a worker would cost more than parsing it)."""


class ParseWorker:
    """One worker process that parses the files of a folder ingest one after another, under the same
    limits as :func:`parse_isolated` (time per file and per page, memory): :meth:`submit` the next file
    before taking the previous one's :meth:`result`, and the worker parses it while the caller indexes
    (a folder ingest keeps :data:`PARSE_WORKERS` of them busy, no more than the machine has cores). Results
    are taken in the order submitted. A worker that
    runs over a limit or dies is replaced, and the files it still held are sent to the new one. Where
    workers cannot run (:func:`_forkserver`), files are parsed in this process when their result is asked.

        with ParseWorker() as w:
            w.submit(0, Path("a.pdf"))
            doc = w.result(0)     # what parse_file(Path("a.pdf")) gives, or raises
    """

    def __init__(self) -> None:
        self._ctx = _forkserver()
        self._worker: _Worker | None = None
        self._queued: dict[int, Path] = {}

    def _live(self) -> _Worker:
        if self._worker is None or not self._worker.alive:
            self._worker = _Worker(self._ctx)
            for path in self._queued.values():
                self._worker.send(path, path.name)
        return self._worker

    def submit(self, key: int, path: Path) -> None:
        self._queued[key] = path
        if self._ctx is not None:
            if self._worker is not None and self._worker.alive:
                self._worker.send(path, path.name)
            else:
                self._live()

    def result(self, key: int, progress: Progress | None = None) -> ParsedDoc:
        """The parse of the file submitted first among those not yet taken (``key``)."""
        if next(iter(self._queued)) != key:
            raise ValueError(f"results are taken in the order submitted: {key} is not next")
        path = self._queued[key]
        try:
            if self._ctx is None:
                return parse_file(path, progress)
            with _slots:
                return self._live().receive(path.name, progress, lambda: parse_file(path))
        finally:
            del self._queued[key]

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()

    def __enter__(self) -> ParseWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _serve(conn: Any, memory: int) -> None:
    """The worker: parse each ``(bytes or path, name)`` it receives and send its outcome tuple (exceptions are
    sent as their class name and message, so the parent raises its own), until it receives None or
    runs out of memory."""
    conn.send(("started",))
    ceiling = 0
    try:
        import resource

        ceiling = _address_space("VmSize") + memory
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    except (OSError, ValueError, ImportError, StopIteration):
        ceiling = 0  # no /proc or no rlimits: the time limit still holds
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            break
        outcome = _parse_one(conn, job[0], job[1], ceiling)
        del job
        try:
            conn.send(outcome)
        except MemoryError:
            outcome = ("memory",)
            conn.send(outcome)
        if outcome[0] == "memory":
            break
    conn.close()


def _parse_one(conn: Any, data: bytes | Path, name: str, ceiling: int) -> tuple[Any, ...]:
    def progress(page: int, pages: int) -> None:
        conn.send(("progress", page, pages))

    try:
        return ("ok", parse_file(data, progress) if isinstance(data, Path) else parse_bytes(data, name, progress))
    except IngestError as exc:
        if _out_of_memory(exc, ceiling):  # a parser's catch-all made the MemoryError "corrupt or unreadable"
            return ("memory",)
        return ("error", type(exc).__name__, exc.message, getattr(exc, "limit", ""), getattr(exc, "maximum", None))
    except MemoryError:
        return ("memory",)
    except Exception:  # noqa: BLE001 - reported to the parent, which logs it
        import traceback

        return ("crash", traceback.format_exc())


def _out_of_memory(exc: BaseException, ceiling: int) -> bool:
    """Whether ``exc`` came from running out of memory: a MemoryError in its chain of causes, or a
    peak address space at the ``ceiling`` (lxml then raises "unknown error" syntax errors)."""
    seen: BaseException | None = exc
    for _ in range(10):
        if seen is None:
            break
        if isinstance(seen, MemoryError):
            return True
        seen = seen.__cause__ or seen.__context__
    try:
        return ceiling > 0 and _address_space("VmPeak") > ceiling - 32 * 1024 * 1024
    except (OSError, ValueError, StopIteration):
        return False


def _address_space(field: str) -> int:
    """This process's ``VmSize`` or ``VmPeak`` in bytes (Linux's /proc/self/status)."""
    with open("/proc/self/status") as f:
        line = next(x for x in f if x.startswith(field + ":"))
    return int(line.split()[1]) * 1024
