"""Requests slow to answer are logged: the time from a request's arrival to its response's first
byte (a stream counts until its headers, not its whole length), as a warning above a threshold.

A pure ASGI middleware: it neither reads nor changes the request or the response. Operators see
which route stalls on a loaded server (the log line names method, path and seconds, never a query
string or a header).
"""

from __future__ import annotations

import logging
import re
import time
from typing import Any

log = logging.getLogger("knowzero.api")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _printable(path: str) -> str:
    """The path as one log line: a decoded %0A or other control character is shown as "?", never a line break
    (a caller cannot forge log lines), and at most 200 characters."""
    return _CONTROL.sub("?", path)[:200]


class SlowRequests:
    def __init__(self, app: Any, *, threshold_s: float = 5.0) -> None:
        self.app, self.threshold_s = app, threshold_s

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http":
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        logged = False

        async def timed_send(message: dict[str, Any]) -> None:
            nonlocal logged
            if message.get("type") == "http.response.start" and not logged:
                logged = True
                took = time.monotonic() - started
                if took >= self.threshold_s:
                    log.warning("slow request: %s %s answered after %.1f s (status %s)", scope.get("method", ""),
                                _printable(str(scope.get("path", ""))), took, message.get("status"))
            await send(message)

        await self.app(scope, receive, timed_send)
