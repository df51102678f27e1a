"""The event sink lower layers write to: ``emit(event_type, **data)``.

Knowledge, service and learning code never import the graph to report progress; their callers hand
them an :data:`Emit` (the graph passes ``graph.trace.emit``, which writes to LangGraph's custom
stream; everyone else passes :func:`silent`). Event types and their data are documented in
docs/events.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Emit = Callable[..., None]


def silent(_event_type: str, **_data: Any) -> None:
    """An :data:`Emit` that drops every event (CLI, benchmarks, tests)."""
    return None


def llm_fallback(emit: Emit, step: str, reason: str, instead: str) -> None:
    """Say in the event stream that the model failed at ``step`` and the offline path answered
    (a ``reasoning`` line for people, an ``llm_fallback`` event for clients)."""
    emit("reasoning", text=f"the model was not used for {step} ({reason}); {instead} instead")
    emit("llm_fallback", step=step, reason=reason, instead=instead)
