"""The ChatProvider protocol and the factory that picks one from settings.

A provider turns OpenAI-style ``messages`` into text. ``chat_json`` asks for JSON matching a
schema and validates it; every failure (timeout, HTTP 5xx, connection refused, invalid JSON)
raises :class:`knowzero.errors.ProviderError`, so callers fall back to the offline path and
record that in their log. This module does not retry: a slow LLM is worse than the fallback.

Every provider call is bounded by a total deadline: :func:`within_deadline` for async callers
(the call runs in a worker thread, the event loop stays free), :func:`call_within_deadline` for
synchronous ones (learning documents, which already run in a worker thread). The OpenAI-compatible
client also enforces the deadline itself, so an abandoned call does not hold its thread either.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import queue
import re
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, Protocol, TypeVar, runtime_checkable

from knowzero.errors import ProviderError


@runtime_checkable
class ChatProvider(Protocol):
    name: str

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        """Return the assistant's text. Raises ProviderError."""
        ...


def parse_json(text: str) -> Any:
    """Parse a JSON answer, tolerating a fenced code block around it. Raises ProviderError."""
    cleaned = text.strip()
    fence = re.search(r"```(?:json)?\s*(.*?)```", cleaned, re.S)
    if fence:
        cleaned = fence.group(1).strip()
    try:
        return json.loads(cleaned)
    except (json.JSONDecodeError, ValueError) as exc:
        raise ProviderError("the model's answer was not valid JSON") from exc


def chat_json(provider: ChatProvider, messages: list[dict[str, str]], schema: dict[str, Any],
              *, max_tokens: int = 512) -> Any:
    """Ask for JSON and check the top-level required keys. Raises ProviderError."""
    data = parse_json(provider.chat(messages, max_tokens=max_tokens, json_schema=schema))
    required = schema.get("required", [])
    if schema.get("type") == "object" and (not isinstance(data, dict) or any(k not in data for k in required)):
        raise ProviderError("the model's JSON did not match the schema")
    return data


T = TypeVar("T")

GRACE_S = 0.5
"""Extra wait beyond ``deadline_s`` so a provider that enforces the deadline itself reports first
(with its own reason, and its cool-down armed before the turn's next call)."""


@runtime_checkable
class StreamingProvider(ChatProvider, Protocol):
    """A provider that can also stream its reply (OpenAI-compatible servers)."""

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512) -> Iterator[str]:
        """The reply's text in pieces as they arrive. Raises ProviderError."""
        ...


async def stream_within_deadline(provider: StreamingProvider, messages: list[dict[str, str]], *, max_tokens: int,
                                 deadline_s: float) -> AsyncIterator[str]:
    """The provider's stream, read in a worker thread, bounded by one total deadline. Raises ProviderError."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()

    def pump() -> None:
        try:
            for piece in provider.stream(messages, max_tokens=max_tokens):
                loop.call_soon_threadsafe(queue.put_nowait, ("piece", piece))
            loop.call_soon_threadsafe(queue.put_nowait, ("end", None))
        except Exception as exc:  # ProviderError or a bug: the consumer decides
            loop.call_soon_threadsafe(queue.put_nowait, ("error", exc))

    worker = loop.run_in_executor(None, pump)
    end = loop.time() + deadline_s
    try:
        while True:
            remaining = end - loop.time()
            if remaining <= 0:
                raise ProviderError(f"the model did not finish within {deadline_s:g} s")
            try:
                kind, value = await asyncio.wait_for(queue.get(), timeout=remaining)
            except TimeoutError as exc:
                raise ProviderError(f"the model did not finish within {deadline_s:g} s") from exc
            if kind == "piece":
                yield value
            elif kind == "end":
                return
            elif isinstance(value, ProviderError):
                raise value
            else:
                raise ProviderError("the language model's stream failed") from value
    finally:
        worker.cancel()  # a thread cannot be stopped; its late pieces are dropped with the queue


async def within_deadline(fn: Callable[..., T], *args: Any, deadline_s: float, **kw: Any) -> T:
    """Run a blocking provider call off the event loop, bounded by a total deadline (not a per-read
    timeout: a provider that drips one byte every few seconds is cut off too). Raises ProviderError.

    The call gets its own daemon thread rather than the loop's shared executor, so calls stuck on a
    hanging model never starve the retrieval and database work queued there. An abandoned call may
    still finish in the background; its result is dropped.
    """
    loop = asyncio.get_running_loop()
    fut: asyncio.Future[T] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if not fut.done():
            if error is not None:
                fut.set_exception(error)
            else:
                fut.set_result(value)

    def deliver(value: Any, error: BaseException | None) -> None:
        try:
            loop.call_soon_threadsafe(settle, value, error)
        except RuntimeError:
            pass  # the loop is gone (shutdown): nobody is waiting any more

    _start(fn, args, kw, deliver)
    try:
        return await asyncio.wait_for(fut, timeout=deadline_s + GRACE_S)
    except TimeoutError as exc:
        raise ProviderError(f"the model did not answer within {deadline_s:g} s") from exc


def _start(fn: Callable[..., Any], args: tuple[Any, ...], kw: dict[str, Any],
           deliver: Callable[[Any, BaseException | None], None]) -> threading.Thread:
    """Run ``fn`` in a new daemon thread (in a copy of the caller's context) and hand its outcome to
    ``deliver(value, error)``."""
    ctx = contextvars.copy_context()

    def run() -> None:
        try:
            value = ctx.run(fn, *args, **kw)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            deliver(None, exc)
        else:
            deliver(value, None)

    worker = threading.Thread(target=run, name="knowzero-llm-call", daemon=True)
    worker.start()
    return worker


def call_within_deadline(fn: Callable[..., T], *args: Any, deadline_s: float, **kw: Any) -> T:
    """:func:`within_deadline` for synchronous callers: ``fn`` runs in a daemon thread and the caller
    waits at most ``deadline_s`` (plus the grace). Raises ProviderError; a late result is dropped."""
    box: dict[str, Any] = {}

    def deliver(value: Any, error: BaseException | None) -> None:
        box["value"], box["error"] = value, error

    worker = _start(fn, args, kw, deliver)
    worker.join(deadline_s + GRACE_S)
    if worker.is_alive():
        raise ProviderError(f"the model did not answer within {deadline_s:g} s")
    if box["error"] is not None:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


class BoundedProvider:
    """A provider whose every ``chat`` is bounded by :func:`call_within_deadline`, for synchronous
    code that calls the model several times in a row (learning documents: one call per section).

    >>> BoundedProvider(some_provider, deadline_s=10).chat([{"role": "user", "content": "hi"}])  # doctest: +SKIP
    """

    def __init__(self, inner: ChatProvider, *, deadline_s: float) -> None:
        if deadline_s <= 0:
            raise ValueError("deadline_s must be positive")
        self.inner = inner
        self.name = inner.name
        self.deadline_s = deadline_s

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        return call_within_deadline(self.inner.chat, messages, max_tokens=max_tokens, json_schema=json_schema,
                                    deadline_s=self.deadline_s)


class BoundedStreamingProvider(BoundedProvider):
    """A :class:`BoundedProvider` over a streaming provider: :meth:`stream` yields the pieces as they
    arrive (read in a daemon thread) and stops with ProviderError once the whole stream has taken
    ``deadline_s`` — a model that drips tokens forever is cut off like one that hangs."""

    inner: StreamingProvider

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512) -> Iterator[str]:
        pieces: queue.Queue[tuple[str, Any]] = queue.Queue()
        stop = threading.Event()

        def pump() -> None:
            try:
                for piece in self.inner.stream(messages, max_tokens=max_tokens):
                    if stop.is_set():
                        return
                    pieces.put(("piece", piece))
                pieces.put(("end", None))
            except BaseException as exc:  # noqa: BLE001 - handed to the reader
                pieces.put(("error", exc))

        ctx = contextvars.copy_context()
        threading.Thread(target=ctx.run, args=(pump,), name="knowzero-llm-stream", daemon=True).start()
        end = time.monotonic() + self.deadline_s + GRACE_S  # the inner provider's own deadline reports first
        try:
            while True:
                remaining = end - time.monotonic()
                if remaining <= 0:
                    raise ProviderError(f"the model did not finish within {self.deadline_s:g} s")
                try:
                    kind, value = pieces.get(timeout=remaining)
                except queue.Empty as exc:
                    raise ProviderError(f"the model did not finish within {self.deadline_s:g} s") from exc
                if kind == "piece":
                    yield value
                elif kind == "end":
                    return
                elif isinstance(value, ProviderError):
                    raise value
                else:
                    raise ProviderError("the language model's stream failed") from value
        finally:
            stop.set()  # the reader left (done, deadline, or closed early): the pump drops what comes next


def bounded(provider: ChatProvider, *, deadline_s: float) -> BoundedProvider:
    """``provider`` with every call bounded by ``deadline_s``; it streams when ``provider`` does."""
    if isinstance(provider, StreamingProvider):
        return BoundedStreamingProvider(provider, deadline_s=deadline_s)
    return BoundedProvider(provider, deadline_s=deadline_s)
