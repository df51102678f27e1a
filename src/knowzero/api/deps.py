"""Dependencies for routes: the caller, the runner, the knowledge base (``Annotated`` aliases)."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Depends, Request

from knowzero.errors import Forbidden
from knowzero.graph.context import User

_CLIENT_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def get_current_user(request: Request) -> User:
    """Bearer token or X-API-Key → user; no credentials → anonymous (chat, learn, ask only)."""
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else request.headers.get("x-api-key")
    try:
        from knowzero.service.identity import user_for_token
    except ImportError:
        user = User()
    else:
        user = user_for_token(token)
    if user.role == "anonymous":
        # Anonymous browsers keep their threads apart with a random client id (X-Client-Id).
        cid = request.headers.get("x-client-id", "")
        if _CLIENT_ID.fullmatch(cid):
            user = User(id=f"anon:{cid}", role="anonymous", name=user.name)
    return user


def require_agent(user: Annotated[User, Depends(get_current_user)]) -> User:
    if user.role not in ("agent", "admin"):
        raise Forbidden("this needs a support agent account")
    return user


def get_runner(request: Request) -> Any:
    return request.app.state.runner


def get_deps_factory(request: Request) -> Any:
    return request.app.state.make_deps


CurrentUser = Annotated[User, Depends(get_current_user)]
AgentUser = Annotated[User, Depends(require_agent)]
RunnerDep = Annotated[Any, Depends(get_runner)]
