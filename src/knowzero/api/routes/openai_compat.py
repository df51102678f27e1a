"""OpenAI-compatible chat endpoint: any OpenAI client can talk to KnowZero.

The last user message is one ``chat`` turn; the thread comes from the ``X-Thread-Id`` header
(or a new one each call). The answer's citations and verdict ride along in a ``knowzero`` field.

A turn that fails (its events end in ``error`` instead of ``done``) is never a 200 with empty
content: without streaming it is the project's error body (``{"error": {"code", "message",
"details"}}``) with the code's HTTP status (``internal_error`` 500, ``llm_unavailable`` 503, …);
streamed, the last chunk before ``[DONE]`` is that error body instead of a ``finish_reason: "stop"``
chunk (what OpenAI clients and vLLM do for an error mid-stream). An ``error`` event in the middle of a
turn that still reaches ``done`` (a tool said no) is part of the answer, not a failure.
"""

from __future__ import annotations

import json
import re
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sse_starlette.sse import EventSourceResponse

from knowzero.api.access import ANYONE, STREAM_OR_JSON, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import CurrentUser, RunnerDep
from knowzero.errors import InvalidInput, error_body, field_errors, status_for
from knowzero.input import AgentInput, CollectionName

router = APIRouter(tags=["openai-compatible"], route_class=SafeRoute)
_THREAD_ID = re.compile(r"[A-Za-z0-9_\-:.]{1,100}")

# A turn that ended without ``done`` and without an ``error`` event (should not happen): still an error.
_NO_ANSWER = {"code": "internal_error",
              "message": "something went wrong while answering; the thread is kept and you can retry"}


class Msg(BaseModel):
    model_config = ConfigDict(strict=True)
    role: Literal["system", "user", "assistant", "tool"]
    content: str | None = ""


class ChatCompletionRequest(BaseModel):
    model_config = ConfigDict(strict=True)
    model: str = "knowzero"
    messages: list[Msg] = Field(min_length=1, json_schema_extra={"contains": {
        "type": "object", "required": ["role", "content"],
        "properties": {"role": {"const": "user"}, "content": {"type": "string", "pattern": r"\S"}}}})
    stream: bool = False
    collections: list[CollectionName] = Field(default_factory=list, max_length=20,
                                              description="KnowZero: answer from these collections only "
                                                          "(an OpenAI client sends it as an extra body field)")


@router.post("/v1/chat/completions", summary="OpenAI-compatible chat completion",
             **access(ANYONE, owns="thread", rule="write", limited=True, errors=(409, 503), ok=STREAM_OR_JSON))
async def completions(body: ChatCompletionRequest, request: Request, user: CurrentUser,
                      runner: RunnerDep) -> Any:
    last = next((m.content for m in reversed(body.messages) if m.role == "user" and (m.content or "").strip()), None)
    if not last:
        raise InvalidInput("messages: needs at least one non-empty user message",
                           [{"field": "messages", "message": "no user message"}])
    limit = request.app.state.settings.max_message_chars
    if len(last) > limit:
        raise InvalidInput(f"messages: the last user message is longer than {limit} characters",
                           [{"field": "messages", "message": "too long"}])
    thread_id = request.headers.get("x-thread-id") or uuid.uuid4().hex
    if not _THREAD_ID.fullmatch(thread_id):
        raise InvalidInput("X-Thread-Id: 1–100 characters of A-Z, a-z, 0-9, _ - : .", [{"field": "X-Thread-Id", "message": "invalid"}])
    deps = request.app.state.make_deps(user)
    try:
        payload = AgentInput.at_edge({"source": "chat", "message": last, "thread_id": thread_id, "user_id": user.id,
                                      "collections": body.collections or None},
                                     request.app.state.settings,
                                     accept_language_header=request.headers.get("accept-language"))
    except ValidationError as exc:
        raise InvalidInput("messages: the last user message is not a valid chat input",
                           [{"field": "messages", "message": d["message"]} for d in field_errors(exc.errors())]) from exc
    cid = "chatcmpl-" + uuid.uuid4().hex[:20]
    created = int(time.time())
    if not body.stream:
        out = await runner.run_to_end(thread_id, deps, payload=payload, title=last)
        if not any(e["type"] == "done" for e in out["events"]):
            err = next((e["data"] for e in reversed(out["events"]) if e["type"] == "error"), _NO_ANSWER)
            return JSONResponse(error_body(err["code"], err["message"]), status_code=status_for(err["code"]),
                                headers={"X-Thread-Id": thread_id})
        return {"id": cid, "object": "chat.completion", "created": created, "model": body.model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": out["reply"]},
                             "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                "knowzero": {"thread_id": thread_id, "verdict": out.get("verdict"), "citations": out.get("citations"),
                             "intent": out.get("intent")}}
    events = await runner.stream_turn(thread_id, deps, payload=payload, title=last)

    async def gen() -> AsyncIterator[dict[str, str]]:
        last_error: dict[str, Any] | None = None
        finished = streamed = False

        def content(text: str) -> dict[str, str]:
            chunk = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": body.model,
                     "choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}
            return {"data": json.dumps(chunk, ensure_ascii=False)}

        async for etype, data in events:
            if etype == "llm_token" and "document_id" not in data:  # a learning section's text is not the reply
                streamed = True
                yield content(data["text"])
            elif etype == "error":
                last_error = data  # terminal only if no ``done`` follows
            elif etype == "done":
                if not streamed and data.get("reply"):  # a reply no model streamed: one chunk, the whole of it
                    yield content(data["reply"])
                chunk = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": body.model,
                         "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
                yield {"data": json.dumps(chunk)}
                yield {"data": "[DONE]"}
                finished = True
        if not finished:
            err = last_error or _NO_ANSWER
            yield {"data": json.dumps(error_body(err["code"], err["message"]), ensure_ascii=False)}
            yield {"data": "[DONE]"}

    return EventSourceResponse(gen(), headers={"X-Thread-Id": thread_id})
