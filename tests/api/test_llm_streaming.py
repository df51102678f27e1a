"""A streaming model's tokens reach the client as ``llm_token`` events as they arrive — each sentence
checked before it is sent — instead of the finished reply cut into pieces afterwards.

The model is a small OpenAI-compatible server on 127.0.0.1 that streams a scripted reply.
"""

from __future__ import annotations

import json
import threading
import time
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
    done = events[-1][1]
    assert events[-1][0] == "done" and done["reply"] == "".join(tokens)


async def test_a_streamed_sentence_that_states_facts_is_never_sent(model: str, demo_data_dir: Path) -> None:
    Streaming.mode = "facts"
    async with api_client(demo_data_dir, configured_llm=True, llm_provider="openai", llm_base_url=model, llm_model="m",
                          llm_timeout_s="5") as client:
        events = sse_events(await client.post("/v1/chat", json={"source": "chat", "message": "你好"}))
    sent = "".join(d["text"] for e, d in events if e == "llm_token")
    assert "365" not in sent and "365" not in events[-1][1]["reply"]
