"""Service endpoints: the support console (agents/admins) and the customer's own account.

Agents (role agent or admin; others get 403, anonymous 401):
    GET  /v1/service/handoffs                 open/answered handoffs with their briefs
    GET  /v1/service/handoffs/{id}            one handoff and its messages
    GET  /v1/service/approvals                refunds waiting for an agent's approval
    GET  /v1/service/reviews                  review queue (uncertain/contradicted answers)
    POST /v1/service/reviews/{id}             approve | edit | reject a review item
    GET  /v1/service/threads/{thread_id}      read a thread (messages, service state, pending interrupts)
    POST /v1/service/threads/{thread_id}/reply   reply as the human (resumes the handoff interrupt)
    POST /v1/service/threads/{thread_id}/return  hand the thread back to the assistant
      (both: 409 when no human has the thread, or while a turn runs on it: they take its turn lock)
    POST /v1/service/refunds/{refund_id}/decision  approve/reject a refund (resumes its interrupt)
Customers (signed in):
    GET  /v1/me/orders, /v1/me/tickets, /v1/me/refunds
    GET  /v1/me/preferences, DELETE /v1/me/preferences[?key=length|language|facts|facts.<name>]

Every decision that continues a paused thread goes through the runner with ``Command(resume=…)``,
so the graph's approval nodes (and their idempotency keys) do the work; replaying a decision
returns the current state instead of acting twice. Errors use the one error shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from langchain_core.messages import AIMessage
from pydantic import BaseModel, ConfigDict, Field

from knowzero import preferences as prefs_mod
from knowzero.api.access import SIGNED_IN, STAFF, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import AgentUser, CurrentUser, RunnerDep
from knowzero.errors import Conflict, NotFound, Unauthorized
from knowzero.service.state import Handoff, ServiceState, service_state
from knowzero.service.store import SqlStore
from knowzero.service.tools import order_public, refund_public, ticket_public
from knowzero.users import User
from knowzero.vocabulary.service import AGENT_REPLY, HANDOFF_RETURNED

router = APIRouter(tags=["service"], route_class=SafeRoute)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)


class HumanReply(_Body):
    text: str = Field(min_length=1, max_length=4000)


class Decision(_Body):
    approved: bool
    note: str = Field(default="", max_length=500)


class ReviewDecision(_Body):
    # An edit carries the corrected answer (SqlStore.decide_review refuses one without): said in the schema too.
    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"properties": {"action": {"enum": ["approve", "reject"]}}},
        {"properties": {"action": {"const": "edit"}, "answer": {"type": "string", "pattern": r"\S"}},
         "required": ["answer"]}]})

    action: Literal["approve", "edit", "reject"]
    answer: str | None = Field(default=None, max_length=8000)


def _store(request: Request) -> SqlStore:
    return request.app.state.deps.need_store()


def _signed_in(user: User) -> User:
    if user.role == "anonymous":
        raise Unauthorized("sign in with your API key to see your account")
    return user


async def _snapshot(runner: Any, thread_id: str, user: User) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    snap = await runner.snapshot(thread_id, user)
    values = snap.values or {}
    pending = [i.value for t in (snap.tasks or ()) for i in (getattr(t, "interrupts", ()) or ())
               if isinstance(getattr(i, "value", None), dict)]
    return values, pending


def _public_interrupt(value: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in value.items() if not k.startswith("_")}


async def _resume(request: Request, runner: Any, user: User, thread_id: str, value: dict[str, Any]) -> dict[str, Any]:
    deps = request.app.state.make_deps(user)
    body = await runner.run_to_end(thread_id, deps, resume=value)
    if body.get("error"):
        err = body["error"]
        raise Conflict(err.get("message", "the thread could not be resumed"))
    return body


# --- agent console ------------------------------------------------------------------------------
@router.get("/v1/service/handoffs", summary="Open handoffs (agents)", **access(STAFF))
async def list_handoffs(request: Request, user: AgentUser,
                        status: Annotated[Literal["open", "answered", "returned", "active"], Query()] = "active") -> dict[str, Any]:
    statuses = ("open", "answered") if status == "active" else (status,)
    return {"handoffs": _store(request).list_handoffs(statuses=statuses)}


@router.get("/v1/service/handoffs/{handoff_id}", summary="One handoff with its messages (agents)", **access(STAFF, errors=(404,)))
async def get_handoff(handoff_id: str, request: Request, user: AgentUser) -> dict[str, Any]:
    store = _store(request)
    h = store.get_handoff(handoff_id)
    if h is None:
        raise NotFound(f"handoff {handoff_id} not found")
    return {"handoff": h, "messages": store.handoff_messages(handoff_id)}


@router.get("/v1/service/approvals", summary="Refunds waiting for an agent's approval (agents)", **access(STAFF))
async def list_approvals(request: Request, user: AgentUser) -> dict[str, Any]:
    return {"refunds": [{**refund_public(r), "customer_id": r["customer_id"], "thread_id": r["thread_id"],
                         "created_at": r["created_at"]} for r in _store(request).list_refunds(status="pending")]}


@router.get("/v1/service/reviews", summary="Review queue (agents)", **access(STAFF))
async def list_reviews(request: Request, user: AgentUser,
                       status: Annotated[Literal["pending", "approved", "edited", "rejected", "all"], Query()] = "pending") -> dict[str, Any]:
    return {"reviews": _store(request).list_reviews(None if status == "all" else status)}


@router.post("/v1/service/reviews/{review_id}", summary="Approve, edit or reject a review item (agents)", **access(STAFF, errors=(404,)))
async def decide_review(review_id: str, body: ReviewDecision, request: Request, user: AgentUser) -> dict[str, Any]:
    status = {"approve": "approved", "edit": "edited", "reject": "rejected"}[body.action]
    return {"review": _store(request).decide_review(review_id, status=status, by=user.id, edited_answer=body.answer)}


@router.get("/v1/service/threads/{thread_id}", summary="Read a customer's thread (agents)", **access(STAFF, errors=(404,)))
async def read_thread(thread_id: str, user: AgentUser, runner: RunnerDep) -> dict[str, Any]:
    values, pending = await _snapshot(runner, thread_id, user)
    if not values:
        raise NotFound("thread not found")
    messages = [{"role": "user" if m.type == "human" else "assistant", "content": m.content}
                for m in values.get("messages") or []]
    return {"thread_id": thread_id, "messages": messages, "summary": values.get("summary", ""),
            "service": values.get("service") or {}, "pending": [_public_interrupt(p) for p in pending]}


def _handed_off(values: dict[str, Any]) -> Handoff | None:
    """The thread's open handoff (a human has it), or None."""
    handoff = service_state(values.get("service")).get("handoff")
    return handoff if handoff is not None and handoff.get("status") in ("open", "answered") else None


NOT_HANDED_OFF = "this thread is not handed to a human agent; there is nothing to reply to or hand back"


async def _as_human(request: Request, runner: Any, user: User, thread_id: str, resume: dict[str, Any],
                    write: Callable[[dict[str, Any]], tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """An agent's action on a handed-off thread, under the thread's turn lock.

    A thread waiting at its handoff interrupt is resumed (the runner takes the lock). One whose
    customer has not written since the last reply has no interrupt: ``write(values)`` changes its
    state directly, holding the same lock as a turn, after re-reading the state under it — so a
    customer message arriving at the same moment either waits for it (409 to the later caller) or
    is seen by it; neither overwrites the other. A thread no human has gets 409 (reply and return alike).
    """
    values, pending = await _snapshot(runner, thread_id, user)
    if not values:
        raise NotFound("thread not found")
    if any(p.get("kind") == "handoff" for p in pending):
        return await _resume(request, runner, user, thread_id, resume)
    if _handed_off(values) is None:
        raise Conflict(NOT_HANDED_OFF)
    async with runner.exclusive(thread_id):
        snap = await runner.graph.aget_state({"configurable": {"thread_id": thread_id}})
        values = snap.values or {}
        if any(getattr(t, "interrupts", ()) for t in (snap.tasks or ())) or _handed_off(values) is None:
            raise Conflict("the conversation changed meanwhile; reload it and try again")
        text, update = write(values)
        await runner.graph.aupdate_state({"configurable": {"thread_id": thread_id}},
                                         {**update, "reply": text, "messages": [AIMessage(content=text)]},
                                         as_node="finish")
    return {"reply": text}


@router.post("/v1/service/threads/{thread_id}/reply", summary="Reply to the customer as the human agent", **access(STAFF, errors=(404, 409)))
async def human_reply(thread_id: str, body: HumanReply, request: Request, user: AgentUser,
                      runner: RunnerDep) -> dict[str, Any]:
    store = _store(request)

    def write(values: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        # The customer has not written since the last reply: add the message to the thread directly.
        svc = service_state(values.get("service"))
        handoff = svc.get("handoff") or Handoff()
        n = int(handoff.get("replies", 0)) + 1
        store.add_handoff_message(key=f"{handoff['id']}:agent:{n}:{thread_id}", handoff_id=handoff["id"],
                                  thread_id=thread_id, author_id=user.id, author_role="agent", text=body.text)
        store.set_handoff_status(handoff["id"], "answered", assigned_to=user.id)
        name = user.name or user.id
        text = AGENT_REPLY.say(svc.get("lang", "zh") == "zh", name=name, text=body.text)
        update: ServiceState = {**svc, "handoff": {**handoff, "status": "answered", "replies": n}}
        return text, {"service": update}

    out = await _as_human(request, runner, user, thread_id, {"human_reply": body.text, "by": user.id}, write)
    return {"thread_id": thread_id, "delivered": True, "reply": out.get("reply", "")}


@router.post("/v1/service/threads/{thread_id}/return", summary="Hand the thread back to the assistant", **access(STAFF, errors=(404, 409)))
async def return_to_assistant(thread_id: str, request: Request, user: AgentUser, runner: RunnerDep) -> dict[str, Any]:
    store = _store(request)

    def write(values: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        svc = ServiceState(**service_state(values.get("service")))
        handoff = svc.get("handoff") or Handoff()
        store.set_handoff_status(handoff["id"], "returned", assigned_to=user.id)
        text = HANDOFF_RETURNED.say(svc.get("lang", "zh") == "zh")
        svc["handoff"], svc["pending"] = None, None
        svc["triage"] = {**(svc.get("triage") or {}), "angry_streak": 0}
        return text, {"service": svc}

    out = await _as_human(request, runner, user, thread_id, {"return_to_assistant": True, "by": user.id}, write)
    return {"thread_id": thread_id, "returned": True, "reply": out.get("reply", "")}


@router.post("/v1/service/refunds/{refund_id}/decision", summary="Approve or reject a refund (agents)", **access(STAFF, errors=(404, 409)))
async def decide_refund(refund_id: str, body: Decision, request: Request, user: AgentUser,
                        runner: RunnerDep) -> dict[str, Any]:
    store = _store(request)
    refund = store.get_refund(refund_id)
    if refund is None:
        raise NotFound(f"refund {refund_id} not found")
    if refund["status"] != "pending":
        return {"refund": refund_public(refund), "replayed": True}  # decided already: nothing happens twice
    thread_id = refund.get("thread_id") or ""
    _, pending = await _snapshot(runner, thread_id, user)
    if not any(p.get("kind") == "refund_approval" and p.get("refund_id") == refund_id for p in pending):
        raise Conflict("this refund's conversation is not waiting for an approval right now; try again shortly")
    out = await _resume(request, runner, user, thread_id, {"approved": body.approved, "by": user.id, "note": body.note})
    after = store.get_refund(refund_id) or refund
    return {"refund": refund_public(after), "replayed": False, "reply": out.get("reply", "")}


# --- the customer's own account -----------------------------------------------------------------
@router.get("/v1/me/orders", summary="The caller's orders", **access(SIGNED_IN))
async def my_orders(request: Request, user: CurrentUser) -> dict[str, Any]:
    _signed_in(user)
    return {"orders": [order_public(o) for o in request.app.state.deps.need_orders().list_orders(user.id)]}


@router.get("/v1/me/tickets", summary="The caller's tickets", **access(SIGNED_IN))
async def my_tickets(request: Request, user: CurrentUser) -> dict[str, Any]:
    _signed_in(user)
    return {"tickets": [ticket_public(t) for t in _store(request).list_tickets(customer_id=user.id)]}


@router.get("/v1/me/refunds", summary="The caller's refunds", **access(SIGNED_IN))
async def my_refunds(request: Request, user: CurrentUser) -> dict[str, Any]:
    _signed_in(user)
    return {"refunds": [refund_public(r) for r in _store(request).list_refunds(customer_id=user.id)]}


@router.get("/v1/me/preferences", summary="What the assistant remembers about the caller", **access(SIGNED_IN))
async def my_preferences(request: Request, user: CurrentUser) -> dict[str, Any]:
    _signed_in(user)
    return {"preferences": await prefs_mod.get_preferences(request.app.state.store, user.id)}


@router.delete("/v1/me/preferences", summary="Forget one preference (?key=) or all of them", **access(SIGNED_IN))
async def forget_preferences(request: Request, user: CurrentUser,
                             key: Annotated[str | None, Query(pattern=r"^(length|language|facts|facts\.[A-Za-z_]{1,30})$")] = None) -> dict[str, Any]:
    _signed_in(user)
    return {"preferences": await prefs_mod.forget(request.app.state.store, user.id, key)}
