"""Conditional edges: ``route_after_<node>(state) -> Literal[...]`` so every edge is in the type."""

from __future__ import annotations

from typing import Any, Literal

from knowzero.config import get_settings

POOR_EVIDENCE = 0.5


def route_after_domain(state: dict[str, Any]) -> Literal["retrieve", "__end__"]:
    return "__end__" if state.get("path") == "clarify" else "retrieve"


def route_after_retrieve(state: dict[str, Any]) -> Literal["retrieve", "read"]:
    """Retry with a rewritten query while evidence is poor, at most ``max_rewrites`` times."""
    attempts = state.get("attempts", 0)
    if state.get("quality", 0.0) < POOR_EVIDENCE and attempts <= get_settings().max_rewrites:
        return "retrieve"
    return "read"


def route_after_path(state: dict[str, Any]) -> Literal["knowledge", "tools", "learning", "chitchat", "clarify", "react"]:
    path = state.get("path", "react")
    return path if path in ("knowledge", "tools", "learning", "chitchat", "clarify", "react") else "react"  # type: ignore[return-value]
