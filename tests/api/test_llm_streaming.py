"""A streaming model's tokens reach the client as ``llm_token`` events as they arrive — each sentence
checked before it is sent — instead of the finished reply cut into pieces afterwards.

The model is a small OpenAI-compatible server on 127.0.0.1 that streams a scripted reply.
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from kz_testlib import api_client, sse_events

REPLIES: dict[str, list[str]] = {
    "clean": ["你好", "！很高兴", "见到你。", "想了解什么", "制度或工艺？"],
    "facts": ["你好！", "员工每年有", " 365 天年假。"],
}


class Streaming(BaseHTTPRequestHandler):
    mode = "clean"

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if not body.get("stream"):
            self.send_response(500)
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for piece in REPLIES[Streaming.mode]:
            chunk = {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
            self.wfile.flush()
            time.sleep(0.05)
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()


@pytest.fixture()
def model() -> Iterator[str]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Streaming)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    finally:
        srv.shutdown()
        srv.server_close()


async def test_streamed_sentences_arrive_as_llm_tokens(model: str, demo_data_dir: Path) -> None:
    Streaming.mode = "clean"
    async with api_client(demo_data_dir, configured_llm=True, llm_provider="openai", llm_base_url=model, llm_model="m",
                          llm_timeout_s="5") as client:
        events = sse_events(await client.post("/v1/chat", json={"source": "chat", "message": "你好"}))
    tokens = [d["text"] for e, d in events if e == "llm_token"]
    assert tokens == ["你好！", "很高兴见到你。", "想了解什么制度或工艺？"], "one event per checked sentence, as streamed"
    assert all("whole" not in d for e, d in events if e == "llm_token"), "streamed tokens are tokens"
    done = events[-1][1]
    assert events[-1][0] == "done" and done["reply"] == "".join(tokens)


async def test_a_streamed_sentence_that_states_facts_is_never_sent(model: str, demo_data_dir: Path) -> None:
    Streaming.mode = "facts"
    async with api_client(demo_data_dir, configured_llm=True, llm_provider="openai", llm_base_url=model, llm_model="m",
                          llm_timeout_s="5") as client:
        events = sse_events(await client.post("/v1/chat", json={"source": "chat", "message": "你好"}))
    sent = "".join(d["text"] for e, d in events if e == "llm_token")
    assert "365" not in sent and "365" not in events[-1][1]["reply"]


async def test_a_learning_section_streams_token_by_token_and_each_sentence_is_checked(demo_data_dir: Path,
                                                                                      tmp_path: Path) -> None:
    """A new learning document with a streaming model: the sections' text arrives as ``llm_token``
    events carrying the document id, each sentence's ``sentence_check`` follows it, and the reply (its
    own tokens, without a document id) is still the reply."""
    from kz_testlib import copy_data_dir
    from llm_fake import fake_llm

    data_dir = copy_data_dir(demo_data_dir, tmp_path / "kz")
    with fake_llm() as srv:
        async with api_client(data_dir, configured_llm=True, llm_provider="openai", llm_base_url=srv.url("ok"),
                              llm_model="m", llm_timeout_s="10") as client:
            # a caller of its own: another test's document on this topic (same demo data) would just be reopened
            events = sse_events(await client.post("/v1/chat", json={"message": "我想学习CNC加工中心日常维护"},
                                                  headers={"X-Client-Id": uuid.uuid4().hex}))
    section_tokens = [d for e, d in events if e == "llm_token" and "document_id" in d]
    checks = [d for e, d in events if e == "sentence_check"]
    assert len(section_tokens) > 5 and checks and all(c["kept"] for c in checks), checks
    doc = next(d for e, d in reversed(events) if e == "document")
    assert {t["document_id"] for t in section_tokens} == {doc["id"]}
    first = next(i for i, (e, d) in enumerate(events) if e == "document" and d.get("section"))
    assert any(e == "llm_token" and "document_id" in d for e, d in events[:first]), "tokens come before the section"
    kept = [c for c in checks if c["section"] == 0]
    assert len(doc["sections"][0]["markdown"].splitlines()) >= len(kept), "kept lines, and quotes of what the model left out"
    assert any(c.get("wording") == "model" for s in doc["sections"] for c in s["citations"])
    reply_tokens = [d for e, d in events if e == "llm_token" and "document_id" not in d]
    assert events[-1][0] == "done" and "已生成" in events[-1][1]["reply"]
    assert reply_tokens == [], "the reply itself was not streamed: it is done.reply"
