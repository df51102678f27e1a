"""Talk to a running KnowZero server (the CLI's warm path). It does not start one.

``knowzero ask`` looks for a server before loading the models itself, in this order:

1. ``--server URL`` or ``KNOWZERO_URL`` when given — then only there: no answer is an error, never a
   silent local run;
2. the server ``knowzero serve`` recorded in the data directory (``server.url``, written at start-up and
   removed at shutdown), so ``serve --port 18200`` is found without saying so again;
3. the configured host and port (``KNOWZERO_HOST``/``KNOWZERO_PORT``, default 127.0.0.1:8000).

A server counts when ``GET /healthz`` answers within 0.5 s with KnowZero's body. :func:`ask_server` then
sends ``POST /v1/ask``; a refusal there (429, 422 …) is reported, not retried locally.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from knowzero.config import Settings

SERVER_FILE = "server.url"
"""In the data directory: the URL of the ``knowzero serve`` running on it."""


class ServerError(RuntimeError):
    """A server was chosen but could not answer (unreachable, or it refused the question)."""


@dataclass(frozen=True)
class Found:
    """Where ``knowzero ask`` looked and what it found."""

    url: str | None
    """The server that answers, or None."""
    tried: tuple[str, ...]
    """Every URL tried, in order."""
    explicit: bool
    """The caller named the server (``--server`` / ``KNOWZERO_URL``): not finding it is an error."""


def _local(host: str) -> str:
    return "127.0.0.1" if host in ("0.0.0.0", "::", "") else host


def client_url(host: str, port: int) -> str:
    """The URL a client on this machine uses for a server bound to ``host:port``."""
    host = _local(host)
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def record_server(data_dir: Path, url: str) -> Path:
    """``knowzero serve``: note where it listens, for ``knowzero ask`` on the same data directory."""
    path = data_dir / SERVER_FILE
    path.write_text(url + "\n", encoding="utf-8")
    return path


def recorded_server(data_dir: Path) -> str | None:
    try:
        url = (data_dir / SERVER_FILE).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return url if url.startswith(("http://", "https://")) else None


def candidates(settings: Settings, server: str | None = None) -> tuple[list[str], bool]:
    """The URLs to try, in order, and whether the caller named them."""
    named = (server or settings.url or "").strip()
    if named:
        return [named.rstrip("/")], True
    urls = [u for u in (recorded_server(settings.data_dir), client_url(settings.host, settings.port)) if u]
    return list(dict.fromkeys(urls)), False


def is_knowzero(url: str) -> bool:
    try:
        health = httpx.get(url + "/healthz", timeout=0.5)
        return health.status_code == 200 and "version" in health.json()
    except (httpx.HTTPError, ValueError):
        return False


def find_server(settings: Settings, server: str | None = None) -> Found:
    urls, explicit = candidates(settings, server)
    for url in urls:
        if is_knowzero(url):
            return Found(url, tuple(urls), explicit)
    return Found(None, tuple(urls), explicit)


def ask_at(url: str, question: str, *, timeout: float = 60.0, collections: list[str] | None = None) -> dict[str, Any]:
    """The ``knowzero ask --json`` object from the server at ``url``. Raises ServerError."""
    try:
        r = httpx.post(url + "/v1/ask", json={"question": question, "collections": collections or []}, timeout=timeout)
    except httpx.HTTPError as exc:
        raise ServerError(f"the server at {url} did not answer: {exc.__class__.__name__}") from exc
    if r.status_code != 200:
        try:
            message = r.json()["error"]["message"]
        except (ValueError, KeyError, TypeError):
            message = r.reason_phrase
        raise ServerError(f"the server at {url} answered {r.status_code}: {message}")
    return dict(r.json())


def ask_server(settings: Settings, question: str, *, timeout: float = 60.0,
               collections: list[str] | None = None) -> dict[str, Any] | None:
    """The answer from the first server found (see the module doc), or None when none answers."""
    found = find_server(settings)
    if found.url is None:
        return None
    try:
        return ask_at(found.url, question, timeout=timeout, collections=collections)
    except ServerError:
        return None
