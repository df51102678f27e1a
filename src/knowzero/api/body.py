"""Request bodies parsed once and safely, for every route (``APIRouter(route_class=SafeRoute)``).

A JSON body nested deeper than :data:`MAX_DEPTH` (5,000 levels overflowed the parser's recursion
into a 500), holding a lone UTF-16 surrogate (``"\\ud800"`` is valid JSON but not text: it cannot
be encoded as UTF-8, so storing or embedding it failed deep inside a turn), or a ``NaN``/
``Infinity`` (not JSON, though Python's parser takes them) is invalid input:
422 with the one error shape, before any route code runs. This is FastAPI's documented
custom-request-class pattern; it does not change how valid bodies are read, except that NUL characters are
dropped from strings and URL parameters (no text has them; PostgreSQL cannot store them). Numbers are bounded
by the fields that take them (``knowzero.input.Integral``: an integer beyond 64 bits in a resume
payload once reached the checkpoint and ended the turn with "Integer exceeds 64-bit range").

Before any of that, :class:`BodyLimit` (an ASGI middleware, outermost but for Starlette's error
handler) caps the bytes a request body may have: a ``Content-Length`` over the cap is answered 413 before
a byte is read, and a body streamed without one (or with a lying one) is cut off at the cap, so no route
ever holds more than its cap in memory or parses it. A JSON body may also hold at most :data:`MAX_VALUES`
keys and values (a 256 KiB object of 40,000 unknown keys is cheap to refuse, not to validate).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from knowzero.errors import PayloadTooLarge, error_body

MAX_DEPTH = 32
"""Deepest nesting of objects/arrays a body may have (ours need 4)."""
MAX_VALUES = 5000
"""Most keys and values a JSON body may hold in all (a turn needs a few dozen; 500 learned topics fit)."""


def check_json(value: Any) -> None:
    """Raise ValueError if ``value`` nests deeper than MAX_DEPTH or holds a string that is not valid text.

    >>> check_json({"a": ["ok"]})
    >>> check_json({"message": "\\ud800"})
    Traceback (most recent call last):
    ...
    ValueError: the body holds a lone UTF-16 surrogate, which is not text
    """
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("NaN and Infinity are not JSON numbers")
    todo: list[tuple[Any, int]] = [(value, 0)]
    seen = 0
    while todo:
        v, depth = todo.pop()
        seen += 1
        if seen > MAX_VALUES:
            raise ValueError(f"the body holds more than {MAX_VALUES} keys and values")
        if isinstance(v, str):
            if not v.isascii():
                try:
                    v.encode("utf-8")
                except UnicodeEncodeError:
                    raise ValueError("the body holds a lone UTF-16 surrogate, which is not text") from None
        elif isinstance(v, float) and not math.isfinite(v):
            raise ValueError("NaN and Infinity are not JSON numbers")
        elif isinstance(v, dict | list):
            if depth >= MAX_DEPTH:
                raise ValueError(f"the body is nested deeper than {MAX_DEPTH} levels")
            items = [*v.keys(), *v.values()] if isinstance(v, dict) else v
            todo.extend((x, depth + 1) for x in items)


def without_nul(value: Any) -> Any:
    """``value`` with every NUL character removed from its strings (keys too): a NUL carries no text, and
    PostgreSQL cannot store one (an anonymous chat message holding one ended in a 500 there).

    >>> without_nul({"m\\x00": ["a\\x00b", 1]})
    {'m': ['ab', 1]}
    """
    if isinstance(value, str):
        return value.replace("\x00", "")
    if isinstance(value, list):
        return [without_nul(v) for v in value]
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    return value


def parse_json(raw: bytes) -> Any:
    """``json.loads`` that turns a too-deep or non-text body into a 422 (malformed JSON raises as before)
    and drops NUL characters from its strings."""
    if b"\\u0000" in raw or b"\x00" in raw:
        try:
            return without_nul(_checked(raw))
        except RecursionError:
            raise HTTPException(422, f"the body is nested deeper than {MAX_DEPTH} levels") from None
    return _checked(raw)


def _checked(raw: bytes) -> Any:
    try:
        data = json.loads(raw)
    except RecursionError:
        raise HTTPException(422, f"the body is nested deeper than {MAX_DEPTH} levels") from None
    try:
        check_json(data)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return data


class SafeRequest(Request):
    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = parse_json(await self.body())
        return self._json


class SafeRoute(APIRoute):
    """An APIRoute whose handlers receive a :class:`SafeRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def safe_handler(request: Request) -> Response:
            scope = request.scope
            if b"%00" in scope.get("query_string", b"").lower():  # NUL in a URL parameter: dropped, as in bodies
                scope["query_string"] = scope["query_string"].replace(b"%00", b"")
            if any(isinstance(v, str) and "\x00" in v for v in scope.get("path_params", {}).values()):
                scope["path_params"] = {k: v.replace("\x00", "") if isinstance(v, str) else v
                                        for k, v in scope["path_params"].items()}
            return await handler(SafeRequest(scope, request.receive))

        return safe_handler


class BodyLimit:
    """ASGI middleware: a request body larger than its path's cap is refused with 413 ``too_large``
    (before reading when ``Content-Length`` says so, else as soon as the streamed bytes pass the cap).

    ``caps`` maps a path to its own cap (uploads); every other path has ``default_cap``.
    """

    def __init__(self, app: ASGIApp, *, default_cap: int, caps: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.default_cap = default_cap
        self.caps = dict(caps or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.caps.get(scope.get("path", ""), self.default_cap)
        headers = dict(scope.get("headers") or ())
        if cap > self.default_cap and not (headers.get(b"authorization") or headers.get(b"x-api-key")):
            cap = self.default_cap  # a larger cap is for signed-in callers: nobody else reads 100 MiB to get a 401
        declared = headers.get(b"content-length")
        if declared is not None:
            try:
                too_big = int(declared) > cap
            except ValueError:
                too_big = False  # the server (h11/httptools) refuses a malformed length itself
            if too_big:
                await _refuse(send, cap)
                return
        received = 0
        started = False

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > cap:
                    # An HTTPException: FastAPI re-raises those from its body parsing (any other error
                    # there becomes "could not be parsed"), and the app's handler answers 413 too_large.
                    raise HTTPException(413, too_large_message(cap))
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, tracked_send)
        except HTTPException as exc:
            if started or exc.status_code != 413:
                raise
            await _refuse(send, cap)


def too_large_message(cap: int) -> str:
    """The refusal's text for a body cap.

    >>> too_large_message(262144)
    'the request body is larger than 256 KiB'
    """
    size = f"{cap // (1024 * 1024)} MiB" if cap >= 1024 * 1024 else f"{cap // 1024} KiB"
    return f"the request body is larger than {size}"


async def _refuse(send: Send, cap: int) -> None:
    body = json.dumps(error_body(PayloadTooLarge.code, too_large_message(cap))).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
