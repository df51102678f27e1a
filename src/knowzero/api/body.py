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
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request, Response
from fastapi.routing import APIRoute

MAX_DEPTH = 32
"""Deepest nesting of objects/arrays a body may have (ours need 4)."""


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
    while todo:
        v, depth = todo.pop()
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
