"""Conditional edges: ``route_after_<node>(state) -> Literal[...]`` so every edge is in the type."""

from __future__ import annotations

from typing import Literal

from knowzero.graph.state import State
from knowzero.service.state import service_state

PathNode = Literal["knowledge", "service", "learning", "chitchat", "clarify", "react"]
PATH_NODES: tuple[PathNode, ...] = ("knowledge", "service", "learning", "chitchat", "clarify", "react")


def route_after_domain(state: State) -> Literal["retrieve", "__end__"]:
    return "__end__" if state.get("path") == "clarify" else "retrieve"


def route_after_check(state: State) -> Literal["reread", "queue_review"]:
    """No answer in the first reading of a question that has another (its other language): read that too."""
    verdict = state.get("verdict")
    insufficient = verdict is not None and verdict.level == "insufficient"
    return "reread" if insufficient and state.get("other_reading") else "queue_review"


def route_after_path(state: State) -> PathNode:
    path = state.get("path", "react")
    return next((p for p in PATH_NODES if p == path), "react")


def route_after_service(state: State) -> Literal["confirm_action", "approve_action", "await_human", "finish"]:
    """Service: wait for the customer's confirmation, an agent's approval or a human's reply, or finish."""
    nxt = service_state(state.get("service")).get("next") or "finish"
    return nxt if nxt in ("confirm_action", "approve_action", "await_human") else "finish"


def route_after_confirm(state: State) -> Literal["approve_action", "finish"]:
    """Service: a refund above the approval threshold goes on to an agent."""
    return "approve_action" if service_state(state.get("service")).get("next") == "approve_action" else "finish"
