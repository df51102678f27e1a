"""Request bodies parsed once and safely, for every route (``APIRouter(route_class=SafeRoute)``).

A JSON body nested deeper than :data:`MAX_DEPTH` (5,000 levels overflowed the parser's recursion
into a 500), holding a NUL character (also refused in the URL's parameters), holding a lone UTF-16 surrogate (``"\\ud800"`` is valid JSON but not text: it cannot
be encoded as UTF-8, so storing or embedding it failed deep inside a turn), or a ``NaN``/
``Infinity`` (not JSON, though Python's parser takes them) is invalid input:
422 with the one error shape, before any route code runs. This is FastAPI's documented
custom-request-class pattern; it does not change how valid bodies are read. Numbers are bounded
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
NUL_MESSAGE = "the request holds a NUL character, which is not text"
"""A NUL (``"\\u0000"`` in JSON, ``%00`` in a URL) is refused everywhere: PostgreSQL cannot store it in a text
column, so it once reached the database and ended the request with a 500 (an anonymous chat message did)."""


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
            if "\x00" in v:
                raise ValueError(NUL_MESSAGE)
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


def parse_json(raw: bytes) -> Any:
    """``json.loads`` that turns a too-deep or non-text body into a 422 (malformed JSON raises as before)."""
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
            params = [*request.query_params.values(), *map(str, request.path_params.values())]
            if any("\x00" in p for p in params):
                raise HTTPException(422, NUL_MESSAGE)
            return await handler(SafeRequest(request.scope, request.receive))

        return safe_handler
