"""PLACEHOLDER (to be replaced by the learning path's own implementation in this same change)."""

from __future__ import annotations

from typing import Any


async def run_learning(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
    return {"reply": "This path is not available yet.", "agent_log": [{"agent": "learning", "action": "unavailable"}]}
