"""What the web UI needs beside the turns: the settings page and answer feedback.

- ``GET /v1/settings``: what anyone may know (version, the chat model that answers now or offline mode, whether the
  fixed demo keys are on, how to get a key, the longest chat message accepted); staff and editors also see the data directory, the
  database kind, the models and the index sizes. Never a URL with a password, never a key.
- ``POST /v1/ask``: one knowledge answer in the ``knowzero ask --json`` shape (the CLI's warm path:
  ``knowzero ask`` talks to a running server instead of loading the models again).
- ``POST /v1/feedback``: thumbs up/down on one assistant message of a thread the caller may read;
  it lands in the review queue with the question, the answer and the message's trace.

It does not change settings (they come from the environment, see ``knowzero.config``; an admin sets the
chat model through ``api/routes/admin.py``, and ``llm`` here says which mode answers now).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from knowzero import __version__
from knowzero.api.access import ANYONE, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import CurrentUser, RunnerDep
from knowzero.errors import InvalidInput, NotFound
from knowzero.input import CollectionName
from knowzero.knowledge.answer.pipeline import answer_in_either
from knowzero.knowledge.kb import DENSE_MODEL
from knowzero.users import can_write_knowledge, is_staff

router = APIRouter(tags=["meta"], route_class=SafeRoute)


def _dir_size(path: Path) -> int:
    total = 0
    if path.is_dir():
        for p in path.rglob("*"):
            try:
                if p.is_file():
                    total += p.stat().st_size
            except OSError:
                continue
    return total


@router.get("/v1/settings", summary="The configuration the settings page shows (more for staff and editors)",
            **access(ANYONE))
async def settings(request: Request, user: CurrentUser) -> dict[str, Any]:
    s = request.app.state.settings
    switch = request.app.state.deps.model
    live = await asyncio.to_thread(switch.describe) if switch is not None else {
        "provider": s.llm_provider, "model": s.llm_model if s.llm_provider == "openai" else "",
        "offline": s.llm_provider == "none", "source": "environment" if s.llm_provider != "none" else "none"}
    out: dict[str, Any] = {
        "version": __version__,
        "llm": live,
        "demo_keys": bool(s.demo_keys),
        "keys_help": "knowzero keys",
        "limits": {"max_message_chars": s.max_message_chars},
        "detail": False,
    }
    if not (is_staff(user) or can_write_knowledge(user)):
        return out
    kb = request.app.state.kb
    data_dir = Path(s.data_dir).resolve()
    size = await asyncio.to_thread(_dir_size, data_dir)
    files = kb.list_files() if kb is not None else []
    out.update({
        "detail": True,
        "data_dir": str(data_dir),
        "database": "postgresql" if s.is_postgres else "sqlite",
        "redis": bool(s.redis_url),
        "models": {"embedding": DENSE_MODEL, "llm": live["model"] or ("bundled local model" if live["provider"] == "local" else "")},
        "index": {"passages": len(kb.passages) if kb is not None else 0, "files": len(files),
                  "collections": len({f.get("collection") for f in files}), "data_bytes": size},
        "retrieval": {"top_k": s.top_k, "context_budget_chars": s.context_budget_chars, "chunk_chars": s.chunk_chars},
    })
    return out


class Feedback(BaseModel):
    model_config = ConfigDict(extra="forbid")
    thread_id: str = Field(min_length=1, max_length=120)
    message_id: str = Field(min_length=1, max_length=200)
    rating: Literal["up", "down"]
    comment: str = Field(default="", max_length=2000)


@router.post("/v1/feedback", summary="Thumbs up/down on one answer; lands in the review queue with its question and trace",
             **access(ANYONE, owns="thread", rule="read", limited="write"))
async def feedback(body: Feedback, request: Request, user: CurrentUser, runner: RunnerDep) -> dict[str, Any]:
    snap = await runner.snapshot(body.thread_id, user)
    messages = list((snap.values or {}).get("messages") or [])
    idx = next((i for i, m in enumerate(messages) if m.id == body.message_id and m.type != "human"), None)
    if idx is None:
        raise NotFound("message not found")
    answer = messages[idx]
    question = next((m.content for m in reversed(messages[:idx]) if m.type == "human"), "")
    meta = (getattr(answer, "additional_kwargs", {}) or {}).get("knowzero", {})
    trace = [{k: meta.get(k) for k in ("intent", "path", "verdict", "citations", "trace") if meta.get(k)}]
    item = await asyncio.to_thread(
        request.app.state.deps.need_store().enqueue_feedback, thread_id=body.thread_id, message_id=body.message_id,
        user_id=user.id, rating=body.rating, question=str(question), answer=str(answer.content), comment=body.comment,
        trace=trace)
    return {"review_id": item["id"], "rating": body.rating}


class AskBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1, max_length=4000)
    collections: list[CollectionName] = Field(default_factory=list, max_length=20,
                                              description="answer from these collections only; empty: the team's own")


@router.post("/v1/ask", summary="One cited knowledge answer (the `knowzero ask --json` shape; no thread)",
             **access(ANYONE, limited=True))
async def ask(body: AskBody, request: Request, user: CurrentUser) -> dict[str, Any]:
    if not body.question.strip():
        raise InvalidInput("question: empty", [{"field": "question", "message": "empty"}])
    deps = request.app.state.deps
    a = await answer_in_either(body.question, deps.scoped(body.collections).knowledge(), deps.lexicon)
    return a.to_public()
