"""The ChatProvider protocol and the factory that picks one from settings.

A provider turns OpenAI-style ``messages`` into text. ``chat_json`` asks for JSON matching a
schema and validates it; every failure (timeout, HTTP 5xx, connection refused, invalid JSON)
raises :class:`knowzero.errors.ProviderError`, so callers fall back to the offline path and
record that in their log. This module does not retry: a slow LLM is worse than the fallback.
"""

from __future__ import annotations

import asyncio
import json
import re
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

    The worker thread may still finish in the background; its result is dropped.
    """
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn, *args, **kw), timeout=deadline_s)
    except TimeoutError as exc:
        raise ProviderError(f"the model did not answer within {deadline_s:g} s") from exc
