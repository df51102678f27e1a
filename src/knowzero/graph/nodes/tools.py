"""PLACEHOLDER (to be replaced by the tools path's own implementation in this same change)."""

from __future__ import annotations

from typing import Any


async def run_tools(state: dict[str, Any], runtime: Any) -> dict[str, Any]:
    return {"reply": "This path is not available yet.", "agent_log": [{"agent": "tools", "action": "unavailable"}]}
