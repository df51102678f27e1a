"""Chat turns (SSE or JSON) and threads."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette.sse import EventSourceResponse

from knowzero.api.access import ANYONE, SIGNED_IN, STREAM_OR_JSON, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import CurrentUser, RunnerDep, client_identity
from knowzero.api.events import EVENT_TYPES
from knowzero.config import Settings
from knowzero.errors import Conflict, InvalidInput, NotFound, Unauthorized, invalid_fields
from knowzero.graph.state import wire_values
from knowzero.input import AgentInput
from knowzero.users import is_ephemeral

router = APIRouter(tags=["chat"], route_class=SafeRoute)


def _validate(body: dict[str, Any], settings: Settings, accept_language: str | None) -> AgentInput:
    try:
        return AgentInput.at_edge(body, settings, accept_language_header=accept_language)
    except ValidationError as exc:
        raise invalid_fields(exc.errors()) from exc


_INPUT_SCHEMA = AgentInput.model_json_schema(ref_template="#/components/schemas/{model}")
INPUT_SCHEMA_DEFS: dict[str, Any] = _INPUT_SCHEMA.pop("$defs", {})  # merged into the OpenAPI components by the app


@router.post("/v1/chat", summary="Run one turn; streams text/event-stream (or one JSON body with stream=false)",
             **access(ANYONE, owns="thread", rule="write", limited=True, errors=(409,), ok=STREAM_OR_JSON,
                      openapi_extra={"requestBody": {"required": True,
                                                     "content": {"application/json": {"schema": _INPUT_SCHEMA}}}}))
async def chat(request: Request, user: CurrentUser, runner: RunnerDep) -> Any:
    try:
        body = await request.json()
    except ValueError as exc:
        raise InvalidInput("the body must be a JSON object") from exc
    if not isinstance(body, dict):
        raise InvalidInput("the body must be a JSON object")
    inp = _validate(body, request.app.state.settings, request.headers.get("accept-language"))
    thread_id = inp.thread_id or uuid.uuid4().hex
    if inp.resume is not None:
        if inp.thread_id is None:
            raise InvalidInput("thread_id: resuming needs the thread id", [{"field": "thread_id", "message": "required"}])
        payload = None
        resume: Any = {**inp.resume, "by": user.id}
    else:
        # every document id the input names is the caller's to name (404 otherwise, as on the REST routes)
        await asyncio.to_thread(request.app.state.deps.need_learning().check_input_ids, inp, user)
        payload = inp.model_copy(update={"thread_id": thread_id, "user_id": user.id})
        resume = None
    title = inp.text() if inp.resume is None else ""
    deps = request.app.state.make_deps(user)
    if not inp.stream:
        return await runner.run_to_end(thread_id, deps, payload=payload, resume=resume, title=title)
    events = await runner.stream_turn(thread_id, deps, payload=payload, resume=resume, title=title)

    async def gen():  # type: ignore[no-untyped-def]
        import json

        async for etype, data in events:
            assert etype in EVENT_TYPES, etype
            yield {"event": etype, "data": json.dumps(data, ensure_ascii=False, default=str)}

    return EventSourceResponse(gen(), ping=15, headers={"X-Thread-Id": thread_id, "Cache-Control": "no-cache"})


class Rename(BaseModel):
    model_config = ConfigDict(strict=True)
    title: str = Field(min_length=1, max_length=200)


@router.get("/v1/me", summary="Who the caller is (id, role, name)", **access(ANYONE))
async def me(user: CurrentUser) -> dict[str, Any]:
    return {"id": user.id, "role": user.role, "name": user.name}


@router.get("/v1/threads", summary="The caller's threads, newest first", **access(ANYONE))
async def threads(user: CurrentUser, runner: RunnerDep) -> dict[str, Any]:
    if is_ephemeral(user):
        return {"threads": []}  # without a client id nothing is kept for you across requests
    return {"threads": runner.threads.list(user.id)}


@router.patch("/v1/threads/{thread_id}", summary="Rename a thread", **access(ANYONE, owns="thread", rule="write", limited="write"))
async def rename(thread_id: str, body: Rename, user: CurrentUser, runner: RunnerDep) -> dict[str, Any]:
    runner.authorize(thread_id, user, "manage")
    runner.threads.rename(thread_id, body.title)
    return {"id": thread_id, "title": body.title}


@router.get("/v1/threads/{thread_id}", summary="A thread's messages and state", **access(ANYONE, owns="thread"))
async def get_thread(thread_id: str, user: CurrentUser, runner: RunnerDep) -> dict[str, Any]:
    snap = await runner.snapshot(thread_id, user)
    values = wire_values(snap.values or {})
    if not values:  # yours, its first turn not stored yet (still running, or it failed): an empty thread
        return {"thread_id": thread_id, "messages": [], "summary": "", "topic": "", "state": {},
                "interrupted": False, "pending": [], "answering": runner.locks.busy(thread_id)}
    messages = []
    for m in values.get("messages") or []:
        meta = (getattr(m, "additional_kwargs", {}) or {}).get("knowzero", {})
        messages.append({"id": m.id, "role": "user" if m.type == "human" else "assistant",
                         "content": m.content, **({"meta": meta} if meta else {})})
    pending = [getattr(i, "value", None) for t in (snap.tasks or ()) for i in (getattr(t, "interrupts", ()) or ())]
    return {"thread_id": thread_id, "messages": messages, "summary": values.get("summary", ""),
            "topic": values.get("topic", ""),
            "state": {k: values.get(k) for k in ("intent", "path", "domain", "verdict", "citations", "document",
                                                  "service", "react")},
            "interrupted": bool(pending), "pending": pending, "answering": runner.locks.busy(thread_id)}


@router.delete("/v1/threads/{thread_id}",
               summary="Delete a thread (owner only; 409 while a refund approval or a human agent is open on it)",
               **access(ANYONE, owns="thread", rule="write", limited="write", errors=(409,)))
async def delete_thread(thread_id: str, request: Request, user: CurrentUser, runner: RunnerDep) -> dict[str, Any]:
    """A thread whose refund waits for an agent's decision, or that a human agent has, is not
    deleted (409 with ``details[0].rule`` ``refund_pending`` / ``handoff_open``): the decision and
    the handoff resume the thread, so deleting it would strand money movement and the console's
    queue. Checked and deleted under the thread's turn lock, so no turn opens one in between."""
    runner.authorize(thread_id, user, "manage")
    token = await runner.locks.acquire(thread_id)  # a turn running on it: 409 like a second message
    try:
        snap = await runner.graph.aget_state({"configurable": {"thread_id": thread_id}})
        blocker = open_work(thread_id, snap, request.app.state.deps.store)
        if blocker is not None:
            rule, message = blocker
            raise Conflict(message, details=[{"rule": rule}])
        saver = getattr(runner.graph, "checkpointer", None)
        if saver is not None and hasattr(saver, "adelete_thread"):
            await saver.adelete_thread(thread_id)
        runner.threads.delete(thread_id)
    finally:
        await runner.locks.release(thread_id, token)
    return {"id": thread_id, "deleted": True}


def open_work(thread_id: str, snapshot: Any, store: Any) -> tuple[str, str] | None:
    """What keeps a thread from being deleted: ``(rule, message)``, or None.

    A refund of this thread still open (pending or approved) in the store or waiting at its approval
    interrupt, or a handoff open or answered (a human agent has the thread) in the store or in the
    thread's state. Both places are asked: either one alone would do, and neither may be missed.
    """
    values = snapshot.values or {}
    kinds = {getattr(i, "value", {}).get("kind") for t in (snapshot.tasks or ()) for i in (getattr(t, "interrupts", ()) or ())
             if isinstance(getattr(i, "value", None), dict)}
    svc = values.get("service") or {}
    refund_open = "refund_approval" in kinds or (svc.get("pending") or {}).get("stage") == "approval"
    handoff_open = "handoff" in kinds or ((svc.get("handoff") or {}).get("status") in ("open", "answered"))
    if store is not None:
        refund_open = refund_open or bool(store.open_refunds(thread_id=thread_id))
        handoff_open = handoff_open or bool(store.list_handoffs(thread_id=thread_id))
    if refund_open:
        return "refund_pending", ("this conversation has a refund waiting for an agent's decision; "
                                  "it can be deleted once the refund is decided")
    if handoff_open:
        return "handoff_open", ("a human agent has this conversation; it can be deleted once the agent "
                                "hands it back to the assistant")
    return None


@router.post("/v1/threads/{thread_id}/claim",
             summary="Carry an anonymous thread over to the signed-in caller (send the new API key and the old X-Client-Id)",
             **access(SIGNED_IN, owns="thread", rule="write"))
async def claim_thread(thread_id: str, request: Request, user: CurrentUser, runner: RunnerDep) -> dict[str, Any]:
    """Only the anonymous identity that owns the thread (its ``X-Client-Id``) can hand it over, and
    only to a signed-in caller; anything else is ``not_found`` (thread ids cannot be probed)."""
    if user.role == "anonymous":
        raise Unauthorized("sign in with an API key to keep this conversation")
    owner = runner.threads.owner(thread_id)
    if owner == user.id:
        return {"id": thread_id, "claimed": False, "owner": "you"}
    anon = client_identity(request)
    if owner is None or anon is None or owner != anon.id:
        raise NotFound("thread not found")
    if not runner.threads.transfer(thread_id, owner, user.id):
        raise NotFound("thread not found")
    return {"id": thread_id, "claimed": True, "owner": "you"}
