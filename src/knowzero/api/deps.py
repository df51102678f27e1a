"""Dependencies for routes: the caller, the runner, the knowledge base (``Annotated`` aliases).

Who may do what is decided by :mod:`knowzero.users`; this module only turns headers into a
:class:`~knowzero.users.User` and offers the role guards routes declare in their signatures.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Depends, Request

from knowzero.errors import Forbidden, InvalidInput, Unauthorized
from knowzero.graph.context import Deps
from knowzero.service.identity import parse_authorization, user_for_token
from knowzero.users import User, anonymous_for_client, can_write_knowledge, ephemeral_anonymous, is_admin, is_staff

_CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def get_current_user(request: Request) -> User:
    """API key (``Authorization: Bearer`` or ``X-API-Key``) → user. Without a key: the anonymous
    identity of the ``X-Client-Id`` header (16–64 of ``A-Za-z0-9_-``), or a fresh one-request
    identity when none is sent. A malformed client id is refused (422), never shared."""
    token = parse_authorization(request.headers.get("authorization"), request.headers.get("x-api-key"))
    production = request.app.state.settings.env == "production"
    user = user_for_token(token, request.app.state.deps.need_store(), production=production) if token else User()
    if user.role != "anonymous":
        return user
    cid = request.headers.get("x-client-id")
    if cid is None or cid == "":
        return ephemeral_anonymous()
    if not _CLIENT_ID.fullmatch(cid):
        raise InvalidInput("X-Client-Id must be 16–64 characters of A-Z, a-z, 0-9, '_' or '-'",
                           [{"field": "X-Client-Id", "message": "malformed"}])
    return anonymous_for_client(cid)


def client_identity(request: Request) -> User | None:
    """The anonymous identity of the request's ``X-Client-Id`` (whatever key is also sent), or None."""
    cid = request.headers.get("x-client-id") or ""
    return anonymous_for_client(cid) if _CLIENT_ID.fullmatch(cid) else None


def require_signed_in(user: Annotated[User, Depends(get_current_user)]) -> User:
    if user.role == "anonymous":
        raise Unauthorized("sign in with an API key to do this")
    return user


def require_agent(user: Annotated[User, Depends(require_signed_in)]) -> User:
    if not is_staff(user):
        raise Forbidden("this needs a support agent account")
    return user


def require_kb_writer(user: Annotated[User, Depends(require_signed_in)]) -> User:
    if not can_write_knowledge(user):
        raise Forbidden("changing the knowledge base needs an editor or admin account")
    return user


def require_admin(user: Annotated[User, Depends(require_signed_in)]) -> User:
    if not is_admin(user):
        raise Forbidden("this needs an admin account")
    return user


async def limit_anonymous(request: Request, user: Annotated[User, Depends(get_current_user)]) -> None:
    """Count an anonymous caller's request against its rate limits (429 when exhausted)."""
    await request.app.state.limits.check(user, request.client.host if request.client else "unknown")


async def limit_anonymous_writes(request: Request, user: Annotated[User, Depends(get_current_user)]) -> None:
    """Count an anonymous caller's cheap write (rename, delete, feedback…) against its write limits."""
    await request.app.state.limits.check(user, request.client.host if request.client else "unknown", write=True)


def get_runner(request: Request) -> Any:
    return request.app.state.runner


def get_container(request: Request) -> Deps:
    """The process's dependency container (built by ``create_app``)."""
    return request.app.state.deps


CurrentUser = Annotated[User, Depends(get_current_user)]
SignedInUser = Annotated[User, Depends(require_signed_in)]
AgentUser = Annotated[User, Depends(require_agent)]
EditorUser = Annotated[User, Depends(require_kb_writer)]
AdminUser = Annotated[User, Depends(require_admin)]
RunnerDep = Annotated[Any, Depends(get_runner)]
ContainerDep = Annotated[Deps, Depends(get_container)]
