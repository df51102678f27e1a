"""The SSE contract (docs/events.md documents every type with an example).

Each event is ``event: <type>`` + ``data: <json>``. A turn starts with ``intent_classified``
and ends with ``done`` (or ``error``). Error events carry the one error shape's inner object
``{code, message}`` and never internals.
"""

from __future__ import annotations

import json
from typing import Any

EVENT_TYPES: tuple[str, ...] = (
    "intent_classified", "path_decision", "node_start", "node_end", "reasoning", "retrieval",
    "tool_call_start", "tool_call_end", "llm_token", "sentence_check", "verdict", "document", "human_review_request",
    "llm_fallback", "error", "done",
)


def encode(event_type: str, data: dict[str, Any]) -> str:
    if event_type not in EVENT_TYPES:
        raise ValueError(f"undocumented event type {event_type!r}")
    return f"event: {event_type}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def decode_stream(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Parse an SSE body into (type, data) pairs (used by tests and the CLI client)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        etype, data = "", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                etype = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].lstrip())
        if etype:
            out.append((etype, json.loads("\n".join(data)) if data else {}))
    return out
