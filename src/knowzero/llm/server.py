"""A tiny OpenAI-compatible HTTP server in front of any ChatProvider (the local GGUF model by default).

    python -m knowzero.llm.server --port 8081            # bundled local model, 127.0.0.1
    KNOWZERO_LLM_PROVIDER=openai KNOWZERO_LLM_BASE_URL=http://127.0.0.1:8081/v1 KNOWZERO_LLM_MODEL=local knowzero ask ...

Endpoints: ``GET /v1/models``, ``POST /v1/chat/completions`` (``max_tokens``, ``response_format``
``json_schema``/``json_object``; ``"stream": true`` streams server-sent chunks: token by token when
the model can stream and no schema is asked, else the finished reply one sentence per chunk),
``GET /health``. It exists so the
OpenAI-compatible provider can be exercised over real HTTP against a real model, and so one
loaded model can serve several local processes. ``--max-tokens`` caps every request (short
answers keep tests fast). Provider failures answer HTTP 503 with an OpenAI-style error body.
The model is loaded before the port opens, so ``/health`` answering means ready.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse, StreamingResponse
from starlette.concurrency import run_in_threadpool

from knowzero.config import Settings
from knowzero.errors import ProviderError
from knowzero.llm.base import ChatProvider, StreamingProvider
from knowzero.llm.local import LocalGGUFProvider

log = logging.getLogger(__name__)

_ROLES = {"system", "user", "assistant"}


def _error(status: int, message: str, kind: str = "invalid_request_error") -> JSONResponse:
    return JSONResponse({"error": {"message": message, "type": kind, "code": status}}, status_code=status)


def _schema_of(response_format: Any) -> tuple[dict[str, Any] | None, str | None]:
    """The JSON schema a request asks for, or an error message."""
    if response_format is None:
        return None, None
    if not isinstance(response_format, dict):
        return None, "response_format must be an object"
    kind = response_format.get("type")
    if kind in (None, "text"):
        return None, None
    if kind == "json_object":
        schema = response_format.get("schema")
        return (schema if isinstance(schema, dict) else {"type": "object"}), None
    if kind == "json_schema":
        js = response_format.get("json_schema")
        if not isinstance(js, dict) or not isinstance(js.get("schema"), dict):
            return None, "response_format.json_schema.schema must be an object"
        return js["schema"], None
    return None, f"unsupported response_format type {kind!r}"


def _sse_finished(content: str, model: str) -> Iterator[str]:
    """A finished reply as an OpenAI-style stream: one ``data:`` chunk per sentence, then ``[DONE]``."""
    cid = f"chatcmpl-{uuid.uuid4().hex[:24]}"
    for piece in re.findall(r"[^。！？!?.]+[。！？!?.]?", content) or [content]:
        chunk = {"id": cid, "object": "chat.completion.chunk", "model": model,
                 "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
        yield f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n"
    yield "data: [DONE]\n\n"


def create_app(provider: ChatProvider, *, model_name: str = "local", max_tokens_cap: int | None = None) -> FastAPI:
    """The ASGI app. Requests run one at a time in FastAPI's thread pool (the provider decides concurrency)."""
    app = FastAPI(title="KnowZero OpenAI-compatible LLM server", docs_url=None, redoc_url=None, openapi_url=None)
    created = int(time.time())
    streamer = provider if isinstance(provider, StreamingProvider) else None

    @app.get("/health")
    def health() -> dict[str, Any]:
        out: dict[str, Any] = {"status": "ok", "model": model_name}
        if getattr(provider, "load_s", None) is not None:
            out["load_s"] = round(float(provider.load_s), 3)  # type: ignore[attr-defined]
        return out

    @app.get("/v1/models")
    def models() -> dict[str, Any]:
        return {"object": "list",
                "data": [{"id": model_name, "object": "model", "created": created, "owned_by": "knowzero"}]}

    @app.post("/v1/chat/completions", response_model=None)
    async def chat_completions(request: Request) -> Response:
        try:
            body = await request.json()
        except ValueError:
            return _error(400, "the request body is not valid JSON")
        if not isinstance(body, dict):
            return _error(400, "the request body must be a JSON object")
        stream = bool(body.get("stream"))
        messages = body.get("messages")
        if (not isinstance(messages, list) or not messages
                or not all(isinstance(m, dict) and m.get("role") in _ROLES and isinstance(m.get("content"), str)
                           for m in messages)):
            return _error(400, "messages must be a non-empty list of {role: system|user|assistant, content: str}")
        max_tokens = body.get("max_tokens", body.get("max_completion_tokens", 512))
        if not isinstance(max_tokens, int) or isinstance(max_tokens, bool) or max_tokens < 1:
            return _error(400, "max_tokens must be a positive integer")
        if max_tokens_cap:
            max_tokens = min(max_tokens, max_tokens_cap)
        schema, problem = _schema_of(body.get("response_format"))
        if problem:
            return _error(400, problem)
        msgs = [{"role": m["role"], "content": m["content"]} for m in messages]
        if stream and streamer is not None:
            if schema is not None:
                return _error(400, "a streamed answer cannot be constrained to a JSON schema here")
            return StreamingResponse(_sse(streamer, msgs, max_tokens, str(body.get("model") or model_name)),
                                     media_type="text/event-stream")
        t0 = time.perf_counter()
        try:
            content = await run_in_threadpool(provider.chat, msgs, max_tokens=max_tokens, json_schema=schema)
        except ProviderError as exc:
            return _error(503, exc.message, "llm_unavailable")
        elapsed_ms = round((time.perf_counter() - t0) * 1000, 1)
        if stream:  # a model that cannot stream (or a schema): the finished reply, one sentence per chunk
            return StreamingResponse(_sse_finished(content, str(body.get("model") or model_name)),
                                     media_type="text/event-stream")
        usage = dict(getattr(provider, "last_usage", None) or {})
        out: dict[str, Any] = {
            "id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": "chat.completion", "created": int(time.time()),
            "model": str(body.get("model") or model_name),
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {k: usage.get(k, 0) for k in ("prompt_tokens", "completion_tokens", "total_tokens")},
            "elapsed_ms": elapsed_ms,
        }
        timings = getattr(provider, "last_timings", None)
        if timings:
            out["timings"] = dict(timings)
        return JSONResponse(out)

    return app


def _sse(provider: StreamingProvider, messages: list[dict[str, str]], max_tokens: int, model: str) -> Iterator[str]:
    """``data:`` lines of chat.completion.chunk objects, then ``[DONE]`` (iterated in a worker thread by
    Starlette). A provider failure mid-stream ends the stream without ``[DONE]``, which clients treat as
    a failed answer."""
    cid, created = f"chatcmpl-{uuid.uuid4().hex[:24]}", int(time.time())

    def chunk(delta: dict[str, str], finish: str | None = None) -> str:
        return "data: " + json.dumps({"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                                      "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]},
                                     ensure_ascii=False) + "\n\n"

    yield chunk({"role": "assistant"})
    try:
        for piece in provider.stream(messages, max_tokens=max_tokens):
            yield chunk({"content": piece})
    except ProviderError as exc:
        log.warning("stream failed: %s", exc.message)
        return
    yield chunk({}, "stop")
    yield "data: [DONE]\n\n"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m knowzero.llm.server", description=__doc__.split("\n\n")[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8081)
    ap.add_argument("--model-path", default="", help="a GGUF file (default: the bundled pandas-sns model)")
    ap.add_argument("--threads", type=int, default=1, help="CPU threads for the model (1-2)")
    ap.add_argument("--n-ctx", type=int, default=4096)
    ap.add_argument("--max-tokens", type=int, default=0, help="cap on every request's max_tokens (0 = none)")
    ap.add_argument("--model-name", default="", help="the id /v1/models reports")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    provider = LocalGGUFProvider(args.model_path or None, n_ctx=args.n_ctx, threads=args.threads,
                                 cache_dir=Settings().data_path() / "models")
    try:
        provider.load()
    except ProviderError as exc:
        raise SystemExit(f"error: {exc.message}") from exc
    log.info("model %s ready (load %.2f s)", provider.model_name, provider.load_s or 0.0)

    import uvicorn

    app = create_app(provider, model_name=args.model_name or provider.model_name,
                     max_tokens_cap=args.max_tokens or None)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
