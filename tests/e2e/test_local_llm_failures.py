"""The OpenAI-compatible provider against a real HTTP server on localhost that misbehaves on purpose.

Each failure (timeout, HTTP 500, invalid JSON body, JSON missing required keys, connection
refused) is a ProviderError, and through the knowledge graph the reader falls back to the
extractive reader and flags it in the agent log (``fallback: True``). No model is needed.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from knowzero.errors import ProviderError
from knowzero.knowledge.answer.reader import READER_SCHEMA
from knowzero.llm.base import chat_json
from knowzero.llm.openai_compat import OpenAICompatProvider
from kz_testlib import answer_dict
from kz_testlib import build_small_kb as build_kb  # noqa: E402

TIMEOUT_S = 0.5
SLEEP_S = 2.0


def completion(content: str) -> bytes:
    return json.dumps({"id": "x", "object": "chat.completion",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}]}, ensure_ascii=False).encode()


# mode -> (status, body); "slow" sleeps past the client's timeout first
MODES: dict[str, tuple[int, bytes]] = {
    "slow": (200, completion('{"answer": "late", "claims": []}')),
    "error500": (500, b'{"error": {"message": "internal error"}}'),
    "badjson": (200, b'{"choices": [{"message": {"content": "tru'),             # HTTP body is not JSON
    "nochoices": (200, b'{"id": "x", "object": "chat.completion"}'),           # JSON without choices
    "notjson": (200, completion("零件A的公差是±0.01mm")),                        # content is prose, not JSON
    "nokeys": (200, completion('{"answer": "±0.01mm"}')),                      # content lacks required "claims"
    "html": (502, b"<html>Bad Gateway</html>"),
}


class Misbehaving(BaseHTTPRequestHandler):
    requests: list[str] = []

    def log_message(self, *args: Any) -> None:  # keep pytest output clean
        pass

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        length = int(self.headers.get("content-length", 0))
        self.rfile.read(length)
        mode = self.path.strip("/").split("/")[0]
        Misbehaving.requests.append(self.path)
        status, body = MODES.get(mode, (404, b"{}"))
        if mode == "slow":
            time.sleep(SLEEP_S)
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout)


@pytest.fixture(scope="module")
def bad_server() -> Iterator[str]:
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Misbehaving)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def provider(base: str, mode: str) -> OpenAICompatProvider:
    return OpenAICompatProvider(f"{base}/{mode}/v1", "qwen", timeout=TIMEOUT_S)


MESSAGES = [{"role": "user", "content": "零件A的外圆公差是多少？"}]


@pytest.mark.parametrize("mode, reason", [
    ("slow", "timed out"),
    ("error500", "HTTP 500"),
    ("html", "HTTP 502"),
    ("badjson", "malformed"),
    ("nochoices", "malformed"),
    ("notjson", "not valid JSON"),
    ("nokeys", "did not match the schema"),
])
def test_each_failure_is_a_provider_error(bad_server: str, mode: str, reason: str) -> None:
    t0 = time.perf_counter()
    with pytest.raises(ProviderError, match=reason):
        chat_json(provider(bad_server, mode), MESSAGES, READER_SCHEMA)
    assert time.perf_counter() - t0 < SLEEP_S  # the timeout is honoured, nothing retries
    assert Misbehaving.requests[-1] == f"/{mode}/v1/chat/completions"


def test_connection_refused_is_a_provider_error() -> None:
    p = OpenAICompatProvider(f"http://127.0.0.1:{closed_port()}/v1", "qwen", timeout=TIMEOUT_S)
    with pytest.raises(ProviderError, match="could not be reached"):
        p.chat(MESSAGES)


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_kb(tmp_path_factory.mktemp("llm-failures") / "kz")


@pytest.mark.parametrize("mode", ["slow", "error500", "badjson", "nochoices", "notjson", "nokeys", "refused"])
async def test_the_graph_falls_back_to_the_extractive_reader_and_says_so(bad_server: str, kb, mode: str) -> None:  # type: ignore[no-untyped-def]
    base = f"http://127.0.0.1:{closed_port()}" if mode == "refused" else f"{bad_server}/{mode}"
    p = OpenAICompatProvider(f"{base}/v1", "qwen", timeout=TIMEOUT_S)
    t0 = time.perf_counter()
    out = await answer_dict("零件A的外圆公差是多少？", kb, provider=p)
    elapsed = time.perf_counter() - t0
    reader = [e for e in out["agent_log"] if e.get("agent") == "reader"]
    assert len(reader) == 1
    assert reader[0]["fallback"] is True and reader[0]["action"] == "extract" and reader[0]["fallback_reason"]
    # the answer is still the right one, cited verbatim from part A's document
    c = out["citations"][0]
    assert "零件A" in c["source"] and "±0.01mm" in c["quote"]
    assert kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]
    assert out["verdict"]["level"] in ("confirmed", "uncertain")
    assert elapsed < 10 * TIMEOUT_S + 5
