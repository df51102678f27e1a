"""A chat provider that records every call it passes on: how long it took and whether it failed.

Benchmarks wrap the provider they were given (``metered(provider)``) and read the record: how many
calls went out, their seconds (p50/p95), which calls failed at the provider and why, and — with
:meth:`CallLog.mark` / :meth:`CallLog.since` — how many turns used the model at all. It changes
nothing about the calls (same arguments, same result, same error), so the product's code paths and
their fallbacks run exactly as without it. ``stream`` is passed through (and timed as one call)
only when the wrapped provider streams, so ``isinstance(p, StreamingProvider)`` stays as it was.

A fallback is decided by the step that called the model (a reply without a usable claim, a late
answer abandoned by ``within_deadline``), not by the provider: the steps say so through
``knowzero.streaming.llm_fallback``, and :class:`CallLog` can be that event sink too
(:meth:`CallLog.emit`), so both halves land in one record.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from knowzero.errors import ProviderCoolingDown, ProviderError
from knowzero.llm.base import ChatProvider, StreamingProvider


@dataclass
class CallLog:
    """What went through a metered provider, and the fallbacks its callers reported."""

    seconds: list[float] = field(default_factory=list)
    """Seconds per finished call (answered or failed), in order."""
    errors: list[tuple[int, str]] = field(default_factory=list)
    """(call index, reason) of provider-level failures (HTTP errors, timeouts, load failures)."""
    fallbacks: list[tuple[str, str]] = field(default_factory=list)
    """(step, reason) for each time a step answered offline instead of using the model."""
    refused: list[str] = field(default_factory=list)
    """Reasons of calls the provider refused without contacting the model (its cool-down): not calls."""
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def calls(self) -> int:
        return len(self.seconds)

    def record(self, seconds: float, error: str | None = None) -> None:
        with self._lock:
            if error is not None:
                self.errors.append((len(self.seconds), error))
            self.seconds.append(seconds)

    def fallback(self, step: str, reason: str) -> None:
        with self._lock:
            self.fallbacks.append((step, reason))

    def refuse(self, reason: str) -> None:
        with self._lock:
            self.refused.append(reason)

    def emit(self, event_type: str, **data: Any) -> None:
        """An ``Emit`` sink that keeps the ``llm_fallback`` events (every other event is dropped)."""
        if event_type == "llm_fallback":
            self.fallback(str(data.get("step", "")), str(data.get("reason", "")))

    def mark(self) -> tuple[int, int]:
        """A position to compare with later (:meth:`since`)."""
        with self._lock:
            return len(self.seconds), len(self.fallbacks)

    def since(self, mark: tuple[int, int]) -> tuple[int, int]:
        """(calls, fallbacks) recorded after ``mark`` (calls still running when it is read are not counted)."""
        with self._lock:
            return len(self.seconds) - mark[0], len(self.fallbacks) - mark[1]


class MeteredProvider:
    """``inner`` with each ``chat`` timed and recorded in ``log``."""

    def __init__(self, inner: ChatProvider, log: CallLog | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self.log = log if log is not None else CallLog()

    @property
    def model(self) -> str:
        return model_of(self.inner)

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        t0 = time.perf_counter()
        try:
            out = self.inner.chat(messages, max_tokens=max_tokens, json_schema=json_schema)
        except ProviderCoolingDown as exc:
            self.log.refuse(exc.message)
            raise
        except ProviderError as exc:
            self.log.record(time.perf_counter() - t0, exc.message)
            raise
        self.log.record(time.perf_counter() - t0)
        return out


class MeteredStreamingProvider(MeteredProvider):
    """:class:`MeteredProvider` for a provider that streams: a whole stream is recorded as one call."""

    inner: StreamingProvider

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512) -> Iterator[str]:
        t0 = time.perf_counter()
        try:
            yield from self.inner.stream(messages, max_tokens=max_tokens)
        except ProviderCoolingDown as exc:
            self.log.refuse(exc.message)
            raise
        except ProviderError as exc:
            self.log.record(time.perf_counter() - t0, exc.message)
            raise
        except GeneratorExit:  # the reader stopped early (a checked sentence failed): still one call
            self.log.record(time.perf_counter() - t0)
            raise
        self.log.record(time.perf_counter() - t0)


def metered(provider: ChatProvider, log: CallLog | None = None) -> MeteredProvider:
    """Wrap ``provider`` so its calls are recorded (streaming kept when it streams)."""
    if isinstance(provider, StreamingProvider):
        return MeteredStreamingProvider(provider, log)
    return MeteredProvider(provider, log)


def model_of(provider: ChatProvider | None) -> str:
    """The model a provider runs, as far as it says (OpenAI-compatible: ``model``; local: the file)."""
    if provider is None:
        return ""
    for attr in ("model_name", "model"):
        value = getattr(provider, attr, None)
        if isinstance(value, str) and value:
            return value
    return ""
