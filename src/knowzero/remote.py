"""Talk to a running KnowZero server (the CLI's warm path). It does not start one.

``ask_server`` is what ``knowzero ask`` tries first: ``GET /healthz`` (0.5 s) on the configured
host and port, then ``POST /v1/ask``; None when no server answers there, so the caller loads the
models itself.
"""

from __future__ import annotations

from typing import Any

import httpx

from knowzero.config import Settings


def ask_server(settings: Settings, question: str, *, timeout: float = 60.0,
               collections: list[str] | None = None) -> dict[str, Any] | None:
    """The ``knowzero ask --json`` object from a server on the configured port, or None."""
    host = "127.0.0.1" if settings.host in ("0.0.0.0", "::", "") else settings.host
    base = f"http://{host}:{settings.port}"
    try:
        health = httpx.get(base + "/healthz", timeout=0.5)
        if health.status_code != 200 or "version" not in health.json():
            return None
        r = httpx.post(base + "/v1/ask", json={"question": question, "collections": collections or []}, timeout=timeout)
    except (httpx.HTTPError, ValueError):
        return None
    return r.json() if r.status_code == 200 else None
