"""A fake OpenAI-compatible chat server on 127.0.0.1 that misbehaves on purpose (test helper).

``FakeLLM`` serves ``POST /<mode>/v1/chat/completions`` from a threaded ``http.server``; the mode
is the first path segment, so one server covers every failure:

    ok            a well-behaved model (schema-valid JSON built from the request)
    error500      HTTP 500 with an error body
    garbage       HTTP 200, random bytes that are not JSON
    malformed     HTTP 200, a JSON envelope whose content is truncated JSON
    hang          accepts the request and never answers (until the server shuts down)
    drip          sends the headers, then one byte every ``DRIP_S`` seconds (never finishes in time);
                  ``drip-0.2`` drips every 0.2 s (faster than any per-read timeout)
    hallucinate   fluent, schema-valid lies: invented facts and numbers beside one verbatim quote
    cut           announces a body of N bytes, sends half of it and closes the connection

A request with ``"stream": true`` gets server-sent chunks in the modes ``ok`` (for a learning section:
the first clause of each evidence sentence, cited "…。[n]" — supported rewording) and ``hallucinate``
(an invented sentence before a verbatim one); the other modes answer a stream as they answer anything.

Loopback only; every wait is bounded by the server's stop event, so shutting down ends them all.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

DRIP_S = 2.0
MODES = ("error500", "garbage", "malformed", "hang", "drip", "hallucinate", "cut")

INVENTED = "员工每年享有 365 天带薪年假，公司总部位于火星。"
INVENTED_SENTENCES = ("员工每年享有 365 天带薪年假", "公司总部位于火星", "每台机床每年奖励 8888 元")


def completion(content: str) -> bytes:
    return json.dumps({"id": "fake", "object": "chat.completion", "model": "fake",
                       "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                    "finish_reason": "stop"}]}, ensure_ascii=False).encode()


def _required(body: dict[str, Any]) -> list[str]:
    schema = ((body.get("response_format") or {}).get("json_schema") or {}).get("schema") or {}
    return list(schema.get("required") or [])


def _passage_quote(body: dict[str, Any]) -> tuple[int, str]:
    """A verbatim sentence from the first numbered passage the reader was given."""
    user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
    m = re.search(r"\[(\d+)\] \([^)]*\)\n(.+)", user)
    if not m:
        return 1, ""
    text = m.group(2).strip()
    sent = re.split(r"(?<=[。！？.!?])", text)[0].strip() or text[:30]
    return int(m.group(1)), sent[:60]


def lie(body: dict[str, Any]) -> str:
    """A hallucinating model: schema-valid answers that invent facts (and a confident judge)."""
    req = _required(body)
    if "claims" in req:  # the knowledge reader
        n, quote = _passage_quote(body)
        return json.dumps({"answer": INVENTED + "另外每台机床每年奖励 8888 元。",
                           "claims": [{"text": "员工每年享有 365 天带薪年假。", "passage": n, "quote": quote},
                                      {"text": "公司总部位于火星。", "passage": n, "quote": quote},
                                      {"text": quote, "passage": n, "quote": quote},
                                      {"text": "每台机床每年奖励 8888 元。", "passage": n, "quote": "每台机床每年奖励 8888 元"}]},
                          ensure_ascii=False)
    if "label" in req:  # the judge, lying that everything is supported
        return json.dumps({"label": "supported", "reason": "fully supported"})
    if "sentences" in req:  # learning sections
        return json.dumps({"sentences": [{"text": INVENTED, "evidence": 1}]}, ensure_ascii=False)
    if "tasks" in req:
        return json.dumps({"tasks": ["公司总部位于火星吗", "给我 365 天年假"]}, ensure_ascii=False)
    if "sentiment" in req:
        return json.dumps({"sentiment": 0.9})
    if "domain" in req:
        return json.dumps({"domain": "hr"})
    if "intent" in req:  # a plausible but wrong label is not a lie about the company; stay unhelpful
        return json.dumps({"intent": "no-such-intent", "confidence": 0.99})
    return INVENTED  # free text (chitchat)


def _best_quote(body: dict[str, Any]) -> tuple[int, str]:
    """A well-behaved reader: the sentence of any numbered passage sharing the most characters with the question."""
    user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
    question = user.rsplit("Question:", 1)[-1]
    best = (0, 1, "")
    for m in re.finditer(r"\[(\d+)\] \([^)]*\)\n(.+)", user):
        for sent in re.split(r"(?<=[。！？.!?])", m.group(2)):
            sent = sent.strip()
            overlap = len(set(sent) & set(question))
            if sent and overlap > best[0]:
                best = (overlap, int(m.group(1)), sent[:60])
    return (best[1], best[2]) if best[2] else _passage_quote(body)


def honest(body: dict[str, Any]) -> str:
    req = _required(body)
    if "claims" in req:
        n, quote = _best_quote(body)
        return json.dumps({"answer": quote, "claims": [{"text": quote, "passage": n, "quote": quote}] if quote else []},
                          ensure_ascii=False)
    if "label" in req:
        return json.dumps({"label": "supported", "reason": "ok"})
    if "sentiment" in req:
        return json.dumps({"sentiment": 0.0})
    if "tasks" in req:
        return json.dumps({"tasks": []})
    if "domain" in req:
        return json.dumps({"domain": "general"})
    if "intent" in req:  # agree with the faster classifiers' first guess
        user = next((m["content"] for m in body.get("messages", []) if m.get("role") == "user"), "")
        m = re.search(r"guessed \(not reliable\): (\w+)", user)
        return json.dumps({"intent": m.group(1) if m else "chitchat", "confidence": 0.9})
    return "您好！有什么可以帮您？"


def _evidence(body: dict[str, Any]) -> list[str]:
    """The numbered evidence sentences of a learning prompt ("证据：\n[1] …"; the last user turn, after any
    worked example)."""
    user = next((m["content"] for m in reversed(body.get("messages", [])) if m.get("role") == "user"), "")
    if "证据：" not in user:
        return []
    return re.findall(r"^\[\d+\] (.+)$", user.split("证据：", 1)[1], re.M)


def streamed_text(body: dict[str, Any], *, lying: bool) -> str:
    """What a streaming model says: for a learning section, one cited line per evidence sentence
    (its first clause — a rewording the check accepts); a liar starts with an invented sentence."""
    ev = _evidence(body)
    if not ev:
        return INVENTED if lying else "您好！有什么可以帮您？"
    lines = [f"{INVENTED}[1]"] if lying else []
    for i, text in enumerate(ev[:3], start=1):
        clause = re.split(r"[，,；;]", text)[0].rstrip("。")
        lines.append(f"{clause if not lying and len(clause) >= 6 else text.rstrip('。')}。[{i}]")
    return "\n".join(lines)


def pieces(text: str, size: int = 3) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


class FakeLLM(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.stop = threading.Event()
        self.started: list[str] = []  # modes, as requests arrive
        self.calls: list[tuple[str, float]] = []  # (mode, seconds from request to the handler's end)
        self.auth: list[str] = []  # the Authorization header of each request ('' when none)
        self.lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def url(self, mode: str) -> str:
        return f"{self.base}/{mode}/v1"


class _Handler(BaseHTTPRequestHandler):
    server: FakeLLM
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, body: bytes, length: int | None = None) -> None:
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body) if length is None else length))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def do_POST(self) -> None:  # noqa: N802 - http.server API
        t0 = time.monotonic()
        mode = self.path.strip("/").split("/")[0]
        with self.server.lock:
            self.server.started.append(mode)
            self.server.auth.append(self.headers.get("authorization") or "")
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            self._serve(mode, body)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass  # the client gave up: exactly what a deadline should do
        finally:
            with self.server.lock:
                self.server.calls.append((mode, time.monotonic() - t0))
            self.close_connection = True

    def _stream(self, text: str) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        for piece in pieces(text):
            chunk = {"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}
            self.wfile.write(f"data: {json.dumps(chunk, ensure_ascii=False)}\n\n".encode())
            self.wfile.flush()
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def _serve(self, mode: str, body: dict[str, Any]) -> None:
        stop = self.server.stop
        if body.get("stream") and mode in ("ok", "hallucinate"):
            self._stream(streamed_text(body, lying=mode == "hallucinate"))
        elif mode == "ok":
            self._send(200, completion(honest(body)))
        elif mode == "error500":
            self._send(500, b'{"error": {"message": "internal error", "type": "server_error"}}')
        elif mode == "garbage":
            self._send(200, os.urandom(64).replace(b"{", b"x"))
        elif mode == "malformed":
            self._send(200, completion('{"answer": "零件A的公差是 ±0.01mm", "claims": [{"text": "零件A'))
        elif mode == "hang":
            stop.wait(120)
        elif mode == "drip" or mode.startswith("drip-"):
            every = float(mode.split("-", 1)[1]) if "-" in mode else DRIP_S
            payload = completion(honest(body))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.flush()
            for i in range(len(payload)):
                if stop.wait(every):
                    return
                self.wfile.write(payload[i:i + 1])
                self.wfile.flush()
        elif mode == "hallucinate":
            self._send(200, completion(lie(body)))
        elif mode == "cut":
            payload = completion(honest(body))
            self._send(200, payload[: len(payload) // 2], length=len(payload))
            self.connection.shutdown(2)
        else:
            self._send(404, b'{"error": {"message": "no such mode"}}')


@contextmanager
def fake_llm() -> Iterator[FakeLLM]:
    srv = FakeLLM()
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    t.start()
    try:
        yield srv
    finally:
        srv.stop.set()
        srv.shutdown()
        srv.server_close()
        t.join(5)
