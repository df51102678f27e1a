"""Admin routes: people and keys, and the chat model (the Settings page's admin cards).

People and keys are the same operations and rules as ``knowzero keys`` — both call
:class:`~knowzero.service.store.SqlStore` (``list_users``, ``upsert_user``, ``issue_api_key``,
``revoke_api_key``, ``restore_user``): a key is shown once (only its hash is kept), a revoked user gets no
new key until restored. One rule the CLI does not need: an admin cannot revoke their own key here (the
browser would lock itself out mid-click); another admin or ``knowzero keys revoke`` can.

The model is an OpenAI-compatible endpoint saved in the app database (:mod:`knowzero.llm.configured`) and
made live without a restart. Its API key is write-only: no response carries it (only whether one is set
and its last 4 characters), no log line names it, and it is sent only to the base URL it was saved with
(changing the URL without giving a key clears it). ``POST /v1/admin/model/test`` makes one short call,
bounded by a timeout, and reports its latency or the error.

Nothing here is reachable by anyone but an admin (``**access(ADMIN)``).
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from knowzero.api.access import ADMIN, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import AdminUser
from knowzero.errors import Conflict, InvalidInput, NotFound
from knowzero.graph.context import Deps
from knowzero.llm.configured import ModelSwitch, probe

router = APIRouter(tags=["admin"], route_class=SafeRoute)
log = logging.getLogger("knowzero.api.admin")

USER_ID = r"^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$"
UserId = Annotated[str, Path(pattern=USER_ID, max_length=64, description="A user id (see GET /v1/admin/users).")]
BASE_URL = (r"^https?://([A-Za-z0-9._~%-]+|\[::1\])"
            r"(:([1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?"
            r"(/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*)?$")
"""An http(s) base URL of printable ASCII: a host name or address (IDN as punycode; of IPv6 only [::1]), an optional
port (1-65535) and path."""
TEST_TIMEOUT_S = 10.0
"""The longest a test call may take (or ``llm_timeout_s`` when that is shorter)."""


class NewUser(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str = Field(pattern=USER_ID, max_length=64, description="Login id, e.g. 'carol'.")
    name: str = Field(min_length=1, max_length=80, description="Display name.")
    role: Literal["customer", "editor", "agent", "admin"] = "customer"


class ModelChoice(BaseModel):
    """Use this model from now on (``POST /v1/admin/model/off`` switches it off)."""

    model_config = ConfigDict(extra="forbid")
    base_url: str = Field(pattern=BASE_URL, max_length=500, description="OpenAI-compatible base URL, e.g. "
                                                                        "http://127.0.0.1:11434/v1.")
    model: str = Field(min_length=1, max_length=200, description="Model name.")
    api_key: str | None = Field(None, max_length=500, description="The model server's key; null keeps the stored one "
                                                                  "(only while base_url is unchanged), '' clears it.")


class ModelTest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    base_url: str = Field(pattern=BASE_URL, max_length=500)
    model: str = Field(min_length=1, max_length=200)
    api_key: str | None = Field(None, max_length=500, description="null: the stored key, when base_url is the stored one.")


def _container(request: Request) -> Deps:
    return request.app.state.deps


def _switch(request: Request) -> ModelSwitch:
    switch = _container(request).model
    if switch is None:  # a container built by hand without a switch: nothing to change at run time
        raise Conflict("this server's model is fixed for the process (no model switch)")
    return switch


def _public_user(row: dict[str, Any]) -> dict[str, Any]:
    return {"id": row["id"], "name": row["name"], "role": row["role"],
            "has_key": bool(row.get("api_key_hash")) and not row["key_revoked"], "revoked": bool(row["key_revoked"])}


def _check_url(request: Request, url: str, field: str = "base_url") -> str:
    url = url.strip()
    try:
        parts = urlsplit(url)
        usable = bool(re.fullmatch(BASE_URL, url) and parts.hostname and (parts.port is None or 0 < parts.port))
    except ValueError:  # "[0]" is no IPv6 address, a port above 65535
        usable = False
    if not usable:
        raise InvalidInput("the base URL must be an http(s) URL such as http://127.0.0.1:11434/v1",
                           [{"field": field, "message": "not an http(s) URL"}])
    if not request.app.state.settings.llm_url_allowed(url):
        raise InvalidInput("in production, a remote model must be reached over https (plain http only on loopback)",
                           [{"field": field, "message": "https required"}])
    return url.rstrip("/")


# ---- people and keys ---------------------------------------------------------------------------
@router.get("/v1/admin/users", summary="Users, their roles and whether their key works (never a key)",
            **access(ADMIN))
async def list_users(request: Request, user: AdminUser) -> dict[str, Any]:
    return {"users": await asyncio.to_thread(_container(request).need_store().list_users)}


@router.post("/v1/admin/users", summary="Create a user and its first API key (the key is shown once)",
             **access(ADMIN, errors=(409,)))
async def create_user(request: Request, body: NewUser, user: AdminUser) -> dict[str, Any]:
    store = _container(request).need_store()

    def create() -> dict[str, Any]:
        if store.get_user(body.id) is not None:
            raise Conflict(f"a user {body.id} exists already; issue a new key for it instead", [{"field": "id"}])
        store.upsert_user(body.id, body.name, body.role)
        key = store.issue_api_key(body.id)
        row = store.get_user(body.id)
        assert row is not None
        return {"user": _public_user(row), "api_key": key}

    out = await asyncio.to_thread(create)
    log.info("admin %s created user %s (%s) and issued a key", user.id, body.id, body.role)
    return out


@router.post("/v1/admin/users/{user_id}/key", summary="Issue a new key for a user (replaces the old one; shown once)",
             **access(ADMIN, errors=(404, 409)))
async def new_key(request: Request, user_id: UserId, user: AdminUser) -> dict[str, Any]:
    key = await asyncio.to_thread(_container(request).need_store().issue_api_key, user_id)  # 404, 409 when revoked
    log.info("admin %s issued a new key for %s", user.id, user_id)
    return {"user_id": user_id, "api_key": key}


@router.post("/v1/admin/users/{user_id}/revoke", summary="Revoke a user's key: signing in fails until restored",
             **access(ADMIN, errors=(404, 409)))
async def revoke(request: Request, user_id: UserId, user: AdminUser) -> dict[str, Any]:
    store = _container(request).need_store()
    if user_id == user.id:
        raise Conflict("you cannot revoke your own key here; another admin or `knowzero keys revoke` can",
                       [{"rule": "self"}])

    def run() -> dict[str, Any]:
        if store.get_user(user_id) is None:
            raise NotFound(f"user {user_id} not found")
        changed = store.revoke_api_key(user_id)
        row = store.get_user(user_id)
        assert row is not None
        return {"user": _public_user(row), "changed": changed}

    out = await asyncio.to_thread(run)
    log.info("admin %s revoked %s", user.id, user_id)
    return out


@router.post("/v1/admin/users/{user_id}/restore", summary="Lift a revocation and issue a new key (shown once)",
             **access(ADMIN, errors=(404,)))
async def restore(request: Request, user_id: UserId, user: AdminUser) -> dict[str, Any]:
    key = await asyncio.to_thread(_container(request).need_store().restore_user, user_id)
    log.info("admin %s restored %s", user.id, user_id)
    return {"user_id": user_id, "api_key": key}


# ---- the chat model ----------------------------------------------------------------------------
def _model_view(request: Request, switch: ModelSwitch) -> dict[str, Any]:
    s = request.app.state.settings
    stored = switch.stored()
    env_url = urlsplit(s.llm_base_url)
    return {"active": switch.describe(), "saved": stored.public() if stored is not None else None,
            "environment": {"provider": s.llm_provider, "model": s.llm_model,
                            "base_url": env_url._replace(netloc=env_url.hostname or "").geturl() if s.llm_base_url else ""},
            "test_timeout_s": min(TEST_TIMEOUT_S, s.llm_timeout_s)}


@router.get("/v1/admin/model", summary="The chat model: what answers now, what is saved (never the key)",
            **access(ADMIN, errors=(409,)))
async def get_model(request: Request, user: AdminUser) -> dict[str, Any]:
    switch = _switch(request)
    return await asyncio.to_thread(_model_view, request, switch)


@router.put("/v1/admin/model", summary="Save the chat model and use it — live at once, no restart",
            **access(ADMIN, errors=(409,)))
async def put_model(request: Request, body: ModelChoice, user: AdminUser) -> dict[str, Any]:
    switch = _switch(request)
    base_url = _check_url(request, body.base_url)

    def save() -> dict[str, Any]:
        stored = switch.stored()
        key = body.api_key
        if key is None and (stored is None or stored.base_url != base_url):
            key = ""  # the stored key goes only to the server it was given for
        switch.save(enabled=True, base_url=base_url, model=body.model, api_key=key, by=user.id)
        return _model_view(request, switch)

    out = await asyncio.to_thread(save)
    log.info("admin %s saved the chat model: %s at %s (key %s)", user.id, body.model,
             urlsplit(base_url).hostname or "-", "set" if out["saved"]["key_set"] else "none")
    return out


@router.post("/v1/admin/model/off", summary="Switch the chat model off (offline); the saved set-up is kept",
             **access(ADMIN, errors=(409,)))
async def model_off(request: Request, user: AdminUser) -> dict[str, Any]:
    switch = _switch(request)

    def save() -> dict[str, Any]:
        stored = switch.stored()
        switch.save(enabled=False, base_url=stored.base_url if stored else "", model=stored.model if stored else "",
                    api_key=None, by=user.id)
        return _model_view(request, switch)

    out = await asyncio.to_thread(save)
    log.info("admin %s switched the chat model off (offline)", user.id)
    return out


@router.post("/v1/admin/model/test", summary="One short call to a model (latency or the error); saves nothing",
             **access(ADMIN))
async def test_model(request: Request, body: ModelTest, user: AdminUser) -> dict[str, Any]:
    base_url = _check_url(request, body.base_url)
    switch = _container(request).model
    timeout = min(TEST_TIMEOUT_S, request.app.state.settings.llm_timeout_s)

    def run() -> dict[str, Any]:
        key = body.api_key
        if key is None:  # the stored key, but only towards the server it was saved for
            stored = switch.stored() if switch is not None else None
            key = stored.api_key if stored is not None and stored.base_url == base_url else ""
        r = probe(base_url, body.model, key, timeout_s=timeout)
        return {"ok": r.ok, "latency_ms": r.latency_ms, "reply": r.reply, "error": r.error, "timeout_s": timeout}

    return await asyncio.to_thread(run)
