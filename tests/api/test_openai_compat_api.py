"""The OpenAI-compatible endpoint: one chat turn per call, plain and streamed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

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
