"""Node tracing: ``node_start``/``node_end`` events and an agent-log entry for every node.

The builder wraps each node with :func:`traced`; nodes stay plain ``async def verb_noun(state: State,
runtime: Runtime[Deps]) -> State`` (the update). Events go to LangGraph's custom stream (``get_stream_writer``) as
``{"type": ..., "data": {...}}``; outside a streaming run they are dropped.
"""

from __future__ import annotations

import functools
import time
import uuid
from typing import Any, Protocol

from langgraph.config import get_config, get_stream_writer
from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.state import State
from knowzero.input import Language
from knowzero.understanding.analysis import Analysis, of


class Node(Protocol):
    """A graph node: the state in, the update out (``runtime`` by name, as LangGraph passes it)."""

    async def __call__(self, state: State, runtime: Runtime[Deps]) -> State: ...


def emit(event_type: str, **data: Any) -> None:
    """Send one typed event to the client stream (no-op when not streaming)."""
    try:
        writer = get_stream_writer()
    except RuntimeError:
        return
    writer({"type": event_type, "data": data})


def thread_id_of(state: State) -> str:
    """The thread of the current run (from its config; the input's for a run without one)."""
    try:
        tid = (get_config().get("configurable") or {}).get("thread_id")
    except RuntimeError:
        tid = None
    inp = state.get("input")
    return str(tid or (inp.thread_id if inp is not None else None) or "no-thread")


def collections_of(state: State) -> list[str]:
    """The knowledge collections the thread is limited to (chosen in an input, remembered by the thread)."""
    return list(state.get("collections") or [])


def analysis_of(state: State) -> Analysis:
    """The turn's analysis of its question (made when the turn entered; made here for a state from before
    analyses were kept, or a question a node rewrote without one)."""
    return of(state.get("question", ""), state.get("analysis"))


def ui_language_of(state: State) -> Language | None:
    """The UI language of the turn's input (``AgentInput.ui_language``; None when unknown)."""
    inp = state.get("input")
    return inp.ui_language if inp is not None else None


def traced(name: str, fn: Node) -> Node:
    @functools.wraps(fn)
    async def wrapper(state: State, runtime: Runtime[Deps]) -> State:
        emit("node_start", node=name)
        t0 = time.perf_counter()
        out = await fn(state, runtime)
        elapsed = round((time.perf_counter() - t0) * 1000, 2)
        emit("node_end", node=name, elapsed_ms=elapsed)
        if isinstance(out, dict) and "agent_log" in out and out["agent_log"]:
            for entry in out["agent_log"]:
                entry.setdefault("elapsed_ms", elapsed)
                entry.setdefault("id", uuid.uuid4().hex[:12])
        return out

    return wrapper
