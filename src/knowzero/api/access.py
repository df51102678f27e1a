"""Who may call a route, declared next to the route: ``@router.get(path, **access(STAFF, owns=…))``.

One declaration per route gives three things that cannot drift apart:

- the policy itself, under ``openapi_extra["x-access"]`` (``who``, ``owns``, ``rule``, ``limited``),
  which the authorization matrix test (tests/api/test_authorization_matrix.py) reads for every
  route of the app — a route without a declaration fails that test;
- the OpenAPI ``security`` requirement (Bearer or X-API-Key; optional, with X-Client-Id, where
  anonymous callers are welcome), so /docs has an Authorize button;
- every error status the route can return, each with the one error shape of :mod:`knowzero.errors`.

    who         anonymous           customer        editor          agent / admin
    anyone      yes                 yes             yes             yes
    signed_in   401                 yes             yes             yes
    kb_writer   401                 403             yes             403 / yes
    staff       401                 403             403             yes
    admin       401                 403             403             403 / yes

``owns`` names the object a route reaches by id (a thread, a learning document, a learning path);
``rule`` says who may reach it: ``read`` the owner or staff, ``write`` the owner only. Anyone else
gets 404, the same as for a missing id, so ids cannot be probed. The checks themselves live in the
route guards (:mod:`knowzero.api.deps`), the runner (threads) and the learning service; this module
only declares. ``limited`` routes count against the anonymous rate limits (429): ``True`` for work
(turns, searches, generation), ``"write"`` for the other anonymous writes; every route anonymous callers
may write through is one or the other (tests/api/test_openapi_declaration.py).
"""

from __future__ import annotations

from typing import Any, Literal

from fastapi import Depends
from pydantic import BaseModel

from knowzero.api.deps import limit_anonymous, limit_anonymous_writes

Who = Literal["anyone", "signed_in", "kb_writer", "staff", "admin"]
Owned = Literal["thread", "learning_document", "learning_path"]
Rule = Literal["read", "write"]

ANYONE: Who = "anyone"
SIGNED_IN: Who = "signed_in"
KB_WRITER: Who = "kb_writer"
STAFF: Who = "staff"
ADMIN: Who = "admin"

SECURITY_SCHEMES: dict[str, Any] = {
    "bearer": {"type": "http", "scheme": "bearer", "description": "An API key: `Authorization: Bearer <key>`."},
    "apiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key", "description": "The same API key in `X-API-Key`."},
    "clientId": {"type": "apiKey", "in": "header", "name": "X-Client-Id",
                 "description": "Anonymous callers: a secret client id (16–64 of A-Z a-z 0-9 _ -) that keeps "
                                "their threads and documents across requests. Without it every request is a "
                                "new one-off identity."},
}
_SIGNED_IN: list[dict[str, list[str]]] = [{"bearer": []}, {"apiKey": []}]
_OPTIONAL: list[dict[str, list[str]]] = [{}, *_SIGNED_IN, {"clientId": []}]


STREAM_OR_JSON: dict[str, Any] = {
    "description": "an event stream (``stream: true``, see docs/events.md) or one JSON body (``stream: false``)",
    "content": {"text/event-stream": {"schema": {"type": "object", "properties": {
        "event": {"type": "string"}, "data": {"type": "string"}}}},
        "application/json": {"schema": {"type": "object"}}}}


class ErrorDetail(BaseModel):
    code: str
    """Stable machine-readable code (``invalid_input``, ``not_found``, ``rate_limited`` …)."""
    message: str
    """For people; never internals."""
    details: list[Any] | None = None
    """Per-field problems for ``invalid_input``, else null."""


class ErrorBody(BaseModel):
    """The one error shape (:func:`knowzero.errors.error_body`)."""

    error: ErrorDetail


_WHY = {401: "no API key where one is needed, or an unknown key",
        403: "this account's role may not do this",
        404: "no such object, or it belongs to someone else",
        409: "a conflict: the thread is busy with another turn or not waiting for this, a thread with an open "
             "refund approval or handoff, an upload name that is already taken",
        413: "the request body (or, on uploads, a file's content once unpacked) is larger than its cap",
        422: "invalid input (the fields are named in details), or a malformed X-Client-Id",
        429: "too many requests from this anonymous caller (see Retry-After)",
        503: "the language model is unavailable"}


def access(who: Who, *, owns: Owned | None = None, rule: Rule = "read", limited: bool | Literal["write"] = False,
           errors: tuple[int, ...] = (), openapi_extra: dict[str, Any] | None = None,
           ok: dict[str, Any] | None = None) -> dict[str, Any]:
    """Keyword arguments for a route decorator declaring its policy (see the module doc).

    ``errors`` adds statuses the route's own logic returns (404 for a missing id, 409, 503); ``ok``
    is the 200 response's declaration when it is not one JSON body (an event stream).
    """
    statuses = {401, 413, 422, *errors}  # 413: every route's body is capped (api/body.py BodyLimit)
    if who in (KB_WRITER, STAFF, ADMIN):
        statuses.add(403)
    if owns is not None:
        statuses.add(404)
    if limited:
        statuses.add(429)
    responses: dict[int | str, dict[str, Any]] = {s: {"model": ErrorBody, "description": _WHY[s]} for s in sorted(statuses)}
    if ok is not None:
        responses[200] = ok
    if limited:
        responses[429]["headers"] = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
    extra = {**(openapi_extra or {}),
             "x-access": {"who": who, "owns": owns, "rule": rule if owns else None, "limited": limited},
             "security": _OPTIONAL if who == ANYONE else _SIGNED_IN}
    return {"responses": responses, "openapi_extra": extra,
            "dependencies": [Depends(limit_anonymous_writes if limited == "write" else limit_anonymous)] if limited else []}


def declared(route: Any) -> dict[str, Any] | None:
    """A route's ``x-access`` declaration, or None when it has none."""
    return ((getattr(route, "openapi_extra", None) or {}).get("x-access"))
