"""OpenAI-compatible chat over HTTP (vLLM, Ollama, DeepSeek, Qwen, OpenAI, our local server).

Every call has a **total** deadline (``timeout``): the whole exchange — connect, send, headers and
body — must finish within it, or the call is abandoned and raises :class:`ProviderError`. httpx's
own timeouts bound each read, so a server that drips one byte every few seconds would otherwise
hold the calling thread for as long as it likes; here the request runs on a private event loop
under ``asyncio.timeout``, which cancels the pending read at the deadline and closes the socket.

After a call runs out of time the endpoint is treated as unresponsive for ``cooldown_s``: calls in
that window fail at once (the offline path answers) instead of each waiting out its own deadline,
so one turn — and every turn behind it — pays for a hanging model at most once. The first call
after the window probes the endpoint again.

It does not retry or pool connections across calls; :meth:`stream` yields a reply as it arrives, under
the same total deadline. Each call is one short-lived connection (the price of a deadline that cannot be outrun).
"""

from __future__ import annotations

import asyncio
import json
import ssl
import threading
import time
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import httpx

from knowzero.errors import ProviderCoolingDown, ProviderError

T = TypeVar("T")


COOLING_DOWN = "the language model timed out recently and is given a rest before it is tried again"
"""The reason of a call refused during the cool-down (one stable text: benchmarks count reasons)."""


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` to completion from synchronous code (on a fresh loop in this thread, or in a
    helper thread when this thread already runs an event loop)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


class OpenAICompatProvider:
    """POST {base_url}/chat/completions within a total deadline; errors become ProviderError.

    >>> p = OpenAICompatProvider("http://127.0.0.1:8080/v1", "qwen", timeout=10)
    >>> p.chat([{"role": "user", "content": "hi"}])  # doctest: +SKIP
    """

    name = "openai"

    def __init__(self, base_url: str, model: str, api_key: str = "", timeout: float = 30.0,
                 cooldown_s: float = 30.0) -> None:
        if not base_url:
            raise ValueError("base_url is required")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if cooldown_s < 0:
            raise ValueError("cooldown_s must not be negative")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.timeout = float(timeout)
        """Total seconds one call may take, end to end."""
        self.cooldown_s = float(cooldown_s)
        """Seconds after a timed-out call during which calls fail at once."""
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._ssl: ssl.SSLContext | None = None  # built on the first https call, then reused
        self._lock = threading.Lock()
        self._cool_until = 0.0

    def _verify(self) -> ssl.SSLContext | bool:
        if not self.base_url.startswith("https:"):
            return False
        with self._lock:
            if self._ssl is None:
                self._ssl = httpx.create_ssl_context()
            return self._ssl

    def cooling_down(self) -> float:
        """Seconds left before the endpoint is tried again after a timeout (0: it will be tried)."""
        with self._lock:
            return max(0.0, self._cool_until - time.monotonic())

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        if self.cooling_down() > 0:
            raise ProviderCoolingDown(COOLING_DOWN)
        body: dict[str, Any] = {"model": self.model, "messages": messages, "max_tokens": max_tokens,
                                "temperature": 0}
        if json_schema is not None:
            body["response_format"] = {"type": "json_schema",
                                       "json_schema": {"name": "answer", "schema": json_schema}}
        try:
            status, payload = run_coroutine(self._post(body))
        except TimeoutError as exc:
            with self._lock:
                self._cool_until = time.monotonic() + self.cooldown_s
            raise ProviderError(f"the language model timed out (no complete answer within {self.timeout:g} s)") from exc
        except httpx.HTTPError as exc:
            raise ProviderError("the language model could not be reached") from exc
        if status >= 400:
            raise ProviderError(f"the language model answered HTTP {status}")
        try:
            return str(payload["choices"][0]["message"]["content"] or "")
        except (KeyError, IndexError, TypeError) as exc:
            raise ProviderError("the language model's response was malformed") from exc

    async def _post(self, body: dict[str, Any]) -> tuple[int, Any]:
        """(status, parsed JSON or None for an error status). Raises TimeoutError at the deadline."""
        async with asyncio.timeout(self.timeout):
            try:
                async with httpx.AsyncClient(timeout=self.timeout, headers=self._headers,
                                             verify=self._verify()) as client:
                    resp = await client.post(f"{self.base_url}/chat/completions", json=body)
            except httpx.TimeoutException as exc:
                raise TimeoutError from exc
        if resp.status_code >= 400:
            return resp.status_code, None
        try:
            return resp.status_code, resp.json()
        except ValueError as exc:
            raise ProviderError("the language model's response was malformed") from exc

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512) -> Iterator[str]:
        """The reply's text as the server streams it (``"stream": true``, server-sent ``data:`` lines).

        Bounded like :meth:`chat`: the stream is abandoned once it has run for ``timeout`` seconds,
        checked at every piece the server sends (a server dripping bytes without ever ending a line is cut
        off at the deadline too). Raises ProviderError."""
        if self.cooling_down() > 0:
            raise ProviderCoolingDown(COOLING_DOWN)
        body = {"model": self.model, "messages": messages, "max_tokens": max_tokens, "temperature": 0, "stream": True}
        end = time.monotonic() + self.timeout
        saw_data = False
        try:
            with httpx.Client(timeout=self.timeout, headers=self._headers, verify=self._verify()) as client, \
                    client.stream("POST", f"{self.base_url}/chat/completions", json=body) as resp:
                if resp.status_code >= 400:
                    raise ProviderError(f"the language model answered HTTP {resp.status_code}")
                for line in _lines_until(resp.iter_text(), end):
                    if not line.startswith("data:"):
                        continue
                    data = line[5:].strip()
                    if data == "[DONE]":
                        return
                    saw_data = True
                    try:
                        delta = json.loads(data)["choices"][0].get("delta") or {}
                    except (ValueError, KeyError, IndexError, TypeError, AttributeError) as exc:
                        raise ProviderError("the language model's stream was malformed") from exc
                    if delta.get("content"):
                        yield str(delta["content"])
                raise ProviderError("the language model's stream was cut off before it finished" if saw_data
                                    else "the language model did not stream an answer")
        except (TimeoutError, httpx.TimeoutException) as exc:
            with self._lock:
                self._cool_until = time.monotonic() + self.cooldown_s
            raise ProviderError(f"the language model timed out (no complete answer within {self.timeout:g} s)") from exc
        except httpx.HTTPError as exc:
            raise ProviderError("the language model could not be reached") from exc


def _lines_until(pieces: Iterator[str], end: float) -> Iterator[str]:
    """The lines of a streamed body; TimeoutError once ``time.monotonic()`` passes ``end`` (checked at every
    piece that arrives, not only at line ends)."""
    buf = ""
    for piece in pieces:
        if time.monotonic() > end:
            raise TimeoutError
        buf += piece
        *lines, buf = buf.split("\n")
        for line in lines:
            yield line.rstrip("\r")
    if buf:
        yield buf.rstrip("\r")
