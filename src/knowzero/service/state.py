"""The service path's state: what ``state["service"]`` holds between turns (checkpointed with the thread).

Typed dicts, because a checkpoint stores plain dicts and old checkpoints must keep loading: at run
time these are ordinary dicts (LangGraph's serializer needs no allowlist entry for them), while
mypy checks every key the code reads or writes and pydantic can validate a state against them.
:data:`ServiceState` is declared closed and strict for pydantic (``extra="forbid"``, no coercion,
inherited by the nested dicts): the test suite validates the state every service scenario
produces, so a key the code starts writing without declaring it here fails the tests.

Written by ``service/flow.py`` (a service turn), ``graph/nodes/service.py`` (the nodes that wait for
people) and ``api/routes/service.py`` (an agent's reply or hand-back without an interrupt); read by
``service/handoff.py`` (the brief), ``graph/routes.py`` and ``graph/nodes/paths.py``.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from pydantic import ConfigDict, with_config
from typing_extensions import TypedDict  # pydantic validates typing_extensions' TypedDict on Python < 3.12

Lang = Literal["zh", "en"]
Stage = Literal["collect", "confirm", "approval", "human"]
NextNode = Literal["", "confirm_action", "approve_action", "await_human"]
Wait = Literal["refund_confirmation", "refund_approval", "handoff"]


class Slots(TypedDict, total=False):
    """Slot values a service action collects (``service/slots.py`` extracts them from text)."""

    order_id: str
    """The order as the customer named it ("123", "A-77")."""
    amount: float | Literal["full"]
    """Refund amount in yuan, or ``"full"`` for the whole paid amount."""
    reason: str
    """Why the customer wants the refund (at most 200 characters)."""
    subject: str
    """A ticket's one-sentence description of the problem (at most 200 characters)."""
    ticket_id: str
    """A ticket number, ``TK-`` and ten hex digits."""
    request_id: str
    """A ticket or refund number to cancel (``TK-…`` or ``RF-…``)."""


class PendingAction(TypedDict, total=False):
    """The service action being filled, confirmed or approved; or a handoff while a human has the thread."""

    action: str
    """The tool it will run (``service/slots.ACTIONS``); ``transfer_to_human`` while a human has the thread."""
    slots: Slots
    """Values collected so far."""
    stage: Stage
    """collect (asking for slots) → confirm (waiting for the customer) → approval (waiting for an agent); human: handed off."""
    expecting: str | None
    """The slot just asked for, so a bare answer ("124", "坏了") fills it; None before the first question."""
    last_filled: str | None
    """The slot filled last, which a bare correction ("不对，是 124") changes."""
    seq: int
    """This action's number in the thread (from :attr:`ServiceState.seq`), part of its idempotency key."""
    owner: str
    """Id of the customer the action is for; only they may confirm it."""
    owner_role: str
    """Role of that customer when the action was prepared (the tools' permission checks use it)."""
    key: str
    """Idempotency key ``f"{thread_id}:{seq}:{action}"`` of a prepared refund (UNIQUE in the store)."""
    amount_cents: int
    """A prepared refund's amount in cents, after the money rules were checked."""
    order_id: str
    """A prepared refund's order id as the order system knows it."""
    order_checked: str
    """The order id whose ownership and refundability were already checked (not re-checked each turn)."""
    confirmed_by: str
    """Id of whoever confirmed the refund (must be :attr:`owner`); set when the customer says "确认"."""
    refund_id: str
    """The refund request waiting for an agent's approval (``RF-…``)."""


class Handoff(TypedDict, total=False):
    """A human agent's hold on the thread."""

    id: str
    """The handoff record in the store."""
    status: Literal["open", "answered", "returned"]
    """open (waiting for an agent), answered (an agent replied), returned (handed back: the field is then None)."""
    replies: int
    """Agent replies so far (numbering their idempotency keys)."""
    customer_notes: int
    """Customer messages passed on to the agent so far (numbering their idempotency keys)."""


class TriageState(TypedDict, total=False):
    """Last turn's triage (``service/triage.Triage``), kept for the angry streak."""

    urgency: Literal["P0", "P1", "P2"]
    """P0 critical (safety, legal, fraud, a line stopped), P1 money/damage/loss, P2 normal."""
    sentiment: float
    """-1 (furious) … +1 (delighted)."""
    label: Literal["angry", "negative", "neutral", "positive"]
    """The sentiment's band."""
    angry_streak: int
    """Consecutive angry service turns, including that one (reset when an agent hands the thread back)."""
    human_requested: bool
    """The customer asked for a person."""
    handoff: bool
    """Triage decided the thread goes to a human."""
    reason: str
    """Why it goes to a human ("" when it does not)."""


class Step(TypedDict, total=False):
    """One tool already tried in this thread (for the handoff brief)."""

    tool: str
    """The tool's name."""
    ok: bool
    """Whether it succeeded."""
    error: str | None
    """Its error code when it failed."""


@with_config(ConfigDict(extra="forbid", strict=True))
class ServiceState(TypedDict, total=False):
    """``state["service"]``: everything the next service turn needs."""

    pending: PendingAction | None
    """The action in progress (None: nothing pending)."""
    handoff: Handoff | None
    """Set while a human agent has the thread (None once it was handed back)."""
    triage: TriageState
    """Last turn's triage."""
    steps: list[Step]
    """The last ten tools tried in this thread."""
    seq: int
    """Action counter of the thread; idempotency keys are ``f"{thread_id}:{seq}:{action}"``."""
    next: NextNode
    """The node after this one: confirm_action | approve_action | await_human | "" (finish)."""
    announced: Wait | None
    """The wait this turn already announced with a ``human_review_request`` event (the waiting node does not repeat it)."""
    lang: Lang
    """The thread's reply language."""


def record_step(svc: ServiceState, step: Step) -> None:
    """Add a tried tool to the thread's steps, keeping the last ten."""
    svc["steps"] = [*(svc.get("steps") or []), step][-10:]


def service_state(value: Any) -> ServiceState:
    """``state["service"]`` as read from a checkpoint or snapshot (a dict, possibly absent)."""
    return cast(ServiceState, value or {})
