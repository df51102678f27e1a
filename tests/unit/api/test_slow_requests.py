"""Requests slow to start their answer are logged with method, path and seconds; fast ones are not."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from knowzero.api.slowlog import SlowRequests


async def _answer(scope: dict[str, Any], receive: Any, send: Any) -> None:
    await asyncio.sleep(0.05)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def _call(app: Any, path: str) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    asyncio.run(app({"type": "http", "method": "GET", "path": path, "query_string": b"key=secret"}, receive, send))
    return sent


def test_a_slow_request_is_logged_and_passed_through(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="knowzero.api"):
        sent = _call(SlowRequests(_answer, threshold_s=0.01), "/v1/me")
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    [line] = [r.getMessage() for r in caplog.records]
    assert line.startswith("slow request: GET /v1/me answered after") and "status 200" in line
    assert "secret" not in line


def test_a_fast_request_is_not_logged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="knowzero.api"):
        _call(SlowRequests(_answer, threshold_s=5.0), "/v1/me")
    assert not caplog.records


def test_a_path_cannot_forge_a_log_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="knowzero.api"):
        _call(SlowRequests(_answer, threshold_s=0.01), "/v1/threads/x\nWARNING forged line" + "y" * 500)
    [line] = [r.getMessage() for r in caplog.records]
    assert "\n" not in line and "x?WARNING forged line" in line and len(line) < 300
