"""The OpenAI-compatible server in front of a scripted ChatProvider (in process, no model)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from knowzero.errors import ProviderError
from knowzero.llm.server import create_app


class Recorder:
    name = "recorder"

    def __init__(self, reply: str | BaseException = "好的") -> None:
        self.reply = reply
        self.calls: list[dict[str, Any]] = []
        self.last_usage = {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9}

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        self.calls.append({"messages": messages, "max_tokens": max_tokens, "json_schema": json_schema})
        if isinstance(self.reply, BaseException):
            raise self.reply
        return self.reply


def client(provider: Recorder, **kw: Any) -> httpx.AsyncClient:
    app = create_app(provider, model_name="qwen-test", **kw)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://llm.test")


async def test_models_and_health() -> None:
    async with client(Recorder()) as c:
        r = await c.get("/v1/models")
        assert r.status_code == 200
        assert r.json()["object"] == "list" and r.json()["data"][0]["id"] == "qwen-test"
        assert (await c.get("/health")).json()["status"] == "ok"


async def test_chat_completion_shape_and_schema_passthrough() -> None:
    rec = Recorder('{"answer": "x"}')
    schema = {"type": "object", "required": ["answer"]}
    async with client(rec) as c:
        r = await c.post("/v1/chat/completions", json={
            "model": "whatever", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}],
            "max_tokens": 33, "temperature": 0,
            "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}}})
    assert r.status_code == 200
    body = r.json()
    assert body["object"] == "chat.completion" and body["model"] == "whatever"
    assert body["choices"][0]["message"] == {"role": "assistant", "content": '{"answer": "x"}'}
    assert body["usage"] == {"prompt_tokens": 7, "completion_tokens": 2, "total_tokens": 9}
    assert rec.calls == [{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "q"}],
                          "max_tokens": 33, "json_schema": schema}]


async def test_json_object_and_max_tokens_cap() -> None:
    rec = Recorder("{}")
    async with client(rec, max_tokens_cap=50) as c:
        r = await c.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "q"}],
                                                       "max_tokens": 600, "response_format": {"type": "json_object"}})
    assert r.status_code == 200
    assert rec.calls[0]["max_tokens"] == 50 and rec.calls[0]["json_schema"] == {"type": "object"}


@pytest.mark.parametrize("body", [
    {"messages": []},
    {"messages": "hi"},
    {"messages": [{"role": "robot", "content": "hi"}]},
    {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 0},
    {"messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "xml"}},
    {"messages": [{"role": "user", "content": "hi"}], "response_format": {"type": "json_schema"}},
], ids=["empty", "not-list", "bad-role", "max-tokens", "format", "no-schema"])
async def test_bad_requests_are_400_in_openai_shape(body: dict[str, Any]) -> None:
    rec = Recorder()
    async with client(rec) as c:
        r = await c.post("/v1/chat/completions", json=body)
    assert r.status_code == 400 and r.json()["error"]["message"]
    assert rec.calls == []


async def test_stream_sends_the_reply_as_sse_chunks_then_done() -> None:
    rec = Recorder("您好。我是助手！")
    async with client(rec) as c:
        r = await c.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "hi"}], "stream": True})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    lines = [ln[5:].strip() for ln in r.text.splitlines() if ln.startswith("data:")]
    assert lines[-1] == "[DONE]"
    pieces = [json.loads(x)["choices"][0]["delta"]["content"] for x in lines[:-1]]
    assert pieces == ["您好。", "我是助手！"]


async def test_non_json_body_is_400() -> None:
    async with client(Recorder()) as c:
        r = await c.post("/v1/chat/completions", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400


async def test_provider_failure_is_503() -> None:
    async with client(Recorder(ProviderError("the local model failed (RuntimeError)"))) as c:
        r = await c.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "q"}]})
    assert r.status_code == 503
    assert r.json()["error"] == {"message": "the local model failed (RuntimeError)", "type": "llm_unavailable",
                                 "code": 503}


class StreamingRecorder(Recorder):
    def stream(self, messages: list[dict[str, str]], *, max_tokens: int = 512):  # type: ignore[no-untyped-def]
        self.calls.append({"messages": messages, "max_tokens": max_tokens, "stream": True})
        yield from ("主轴", "需要", "预热。")
        if isinstance(self.reply, BaseException):
            raise self.reply


async def test_a_streaming_model_streams_openai_chunks() -> None:
    rec = StreamingRecorder()
    async with client(rec) as c:
        r = await c.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "q"}], "stream": True,
                                                       "max_tokens": 20})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    lines = [ln[5:].strip() for ln in r.text.splitlines() if ln.startswith("data:")]
    assert lines[-1] == "[DONE]"
    text = "".join(json.loads(x)["choices"][0]["delta"].get("content", "") for x in lines[:-1])
    assert text == "主轴需要预热。" and rec.calls[0]["max_tokens"] == 20


async def test_a_stream_that_fails_ends_without_done() -> None:
    async with client(StreamingRecorder(ProviderError("decode failed"))) as c:
        r = await c.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "q"}], "stream": True})
    assert "[DONE]" not in r.text and "预热" in r.text
