"""The OpenAI-compatible endpoint: one chat turn per call, plain and streamed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from knowzero.errors import ProviderError
from kz_testlib import api_client, assert_error_shape


@pytest.fixture()
async def client(demo_data_dir: Path):  # type: ignore[no-untyped-def]
    async with api_client(demo_data_dir) as c:
        yield c


async def test_completion(client: Any) -> None:
    r = await client.post("/v1/chat/completions", json={
        "model": "knowzero", "messages": [{"role": "system", "content": "be brief"},
                                          {"role": "user", "content": "零件A的公差是多少？"}]})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["object"] == "chat.completion" and body["id"].startswith("chatcmpl-")
    msg = body["choices"][0]["message"]
    assert msg["role"] == "assistant" and "±0.01mm" in msg["content"]
    assert body["choices"][0]["finish_reason"] == "stop"
    kz = body["knowzero"]
    assert kz["verdict"]["level"] == "confirmed" and kz["citations"] and kz["thread_id"]


async def test_completion_stream(client: Any) -> None:
    r = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "你好"}],
                                                        "stream": True})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    datas = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
    assert datas[-1] == "[DONE]"
    chunks = [json.loads(d) for d in datas[:-1]]
    assert all(c["object"] == "chat.completion.chunk" for c in chunks)
    text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
    assert "KnowZero" in text
    assert chunks[-1]["choices"][0]["finish_reason"] == "stop"


async def test_thread_header_continues_a_thread(client: Any) -> None:
    h = {"X-Thread-Id": "oa-thread-1"}
    for msg in ("你好", "谢谢"):
        r = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": msg}]}, headers=h)
        assert r.status_code == 200 and r.json()["knowzero"]["thread_id"] == "oa-thread-1"
    thread = (await client.get("/v1/threads/oa-thread-1")).json()
    assert [m["content"] for m in thread["messages"] if m["role"] == "user"] == ["你好", "谢谢"]


@pytest.mark.parametrize("body", [
    {"messages": []},
    {"messages": [{"role": "assistant", "content": "hi"}]},
    {"messages": [{"role": "user", "content": "  "}]},
    {"messages": [{"role": "wizard", "content": "hi"}]},
])
async def test_bad_requests_are_422(client: Any, body: dict) -> None:
    err = assert_error_shape(await client.post("/v1/chat/completions", json=body), 422, "invalid_input")
    assert "messages" in err["message"]


# ----------------------------------------------------------------------------- a failed turn is an error
SECRET = "sqlite3.OperationalError at /srv/secret/knowzero.db"


@pytest.fixture()
def broken_greeting(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Greetings fail inside the graph (as they did when replies.json was missing from the wheel)."""
    from knowzero.graph.nodes import chitchat

    def install(exc: BaseException) -> None:
        def boom(text: str, ui: str | None = None) -> str:
            raise exc

        monkeypatch.setattr(chitchat, "template_reply", boom)

    return install


@pytest.mark.parametrize(("exc", "status", "code"), [
    (RuntimeError(SECRET), 500, "internal_error"),
    (ProviderError("the language model did not answer"), 503, "llm_unavailable"),
])
async def test_failed_turn_is_an_error_not_an_empty_200(client: Any, broken_greeting: Any, exc: BaseException,
                                                        status: int, code: str) -> None:
    broken_greeting(exc)
    r = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "你好"}]},
                          headers={"X-Thread-Id": f"oa-fail-{code}"})
    err = assert_error_shape(r, status, code)
    assert "secret" not in r.text and "OperationalError" not in r.text and err["details"] is None
    assert r.headers["x-thread-id"] == f"oa-fail-{code}"


async def test_failed_turn_streams_an_error_chunk_not_a_stop(client: Any, broken_greeting: Any) -> None:
    broken_greeting(RuntimeError(SECRET))
    r = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "你好"}],
                                                        "stream": True})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
    datas = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
    assert datas[-1] == "[DONE]"
    chunks = [json.loads(d) for d in datas[:-1]]
    assert chunks[-1] == {"error": {"code": "internal_error", "message": chunks[-1]["error"]["message"],
                                    "details": None}}
    assert chunks[-1]["error"]["message"]
    assert not any(c.get("choices", [{}])[0].get("finish_reason") == "stop" for c in chunks[:-1])
    assert "secret" not in r.text and "RuntimeError" not in r.text


async def test_the_thread_works_again_after_a_failed_turn(client: Any, monkeypatch: pytest.MonkeyPatch,
                                                           broken_greeting: Any) -> None:
    broken_greeting(RuntimeError(SECRET))
    h = {"X-Thread-Id": "oa-recover"}
    assert (await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "你好"}]},
                              headers=h)).status_code == 500
    monkeypatch.undo()
    r = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "你好"}]}, headers=h)
    assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"]
