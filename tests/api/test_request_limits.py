"""Issue 25, finding 1: one anonymous request must not freeze the server. Every route has a body-size
cap enforced before parsing (Content-Length, or counted while streaming when it is missing or lies),
validation errors are bounded and never echo the input, and every anonymous write is rate limited."""

from __future__ import annotations

import json
import time

import pytest

from knowzero.api.body import BodyLimit
from knowzero.service.identity import announce_keys
from kz_testlib import api_client, assert_error_shape, copy_data_dir

EDITOR = {"Authorization": "Bearer demo-editor"}


def _many_keys(n: int) -> bytes:
    return json.dumps({f"k{i}": 0 for i in range(n)}).encode()


@pytest.mark.parametrize("path", ["/v1/feedback", "/v1/chat", "/v1/ask", "/v1/chat/completions", "/v1/kb/search"])
async def test_a_body_over_the_cap_is_413_before_it_is_parsed(small_kb, path):
    body = _many_keys(500_000)  # ~6.9 MB of unknown keys, as the outside test sent
    async with api_client(small_kb.settings.data_dir) as client:
        started = time.perf_counter()
        r = await client.post(path, content=body, headers={"Content-Type": "application/json"})
        took = time.perf_counter() - started
        err = assert_error_shape(r, 413, "too_large")
        assert "256 KiB" in err["message"]
        assert len(r.content) < 500
        assert took < 2.0, took  # refused on its Content-Length: nothing read, nothing parsed


async def test_a_streamed_body_without_content_length_is_cut_off_at_the_cap(small_kb):
    sent = 0

    async def chunks():  # type: ignore[no-untyped-def]
        nonlocal sent
        yield b'{"message": "'
        for _ in range(1000):  # 64 MB if it were all read
            sent += 1
            yield b"a" * 65536
        yield b'"}'

    async with api_client(small_kb.settings.data_dir) as client:
        r = await client.post("/v1/chat", content=chunks(), headers={"Content-Type": "application/json"})
        assert "content-length" not in {k.lower() for k in r.request.headers}
        assert_error_shape(r, 413, "too_large")
        assert sent < 20, sent  # stopped reading a few chunks past 256 KiB


async def test_a_lying_content_length_does_not_get_past_the_cap():
    """Content-Length says 10 bytes, the body streams on: counted, cut off at the cap (unit, ASGI level)."""
    read = 0

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        nonlocal read
        more = True
        while more:
            message = await receive()
            read += len(message.get("body", b""))
            more = message.get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    limited = BodyLimit(app, default_cap=1024)
    chunks = [{"type": "http.request", "body": b"x" * 512, "more_body": True} for _ in range(100)]
    sent: list[dict] = []

    async def receive():  # type: ignore[no-untyped-def]
        return chunks.pop(0)

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/v1/chat", "headers": [(b"content-length", b"10")]}
    await limited(scope, receive, send)
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"]["code"] == "too_large"
    assert read <= 1024 and len(chunks) >= 97


async def test_validation_errors_are_bounded_and_never_echo_the_input(small_kb):
    marker = "ECHO-ME-" + "x" * 300
    body = {"message": "你好", **{f"{marker}{i}": marker for i in range(300)}}
    async with api_client(small_kb.settings.data_dir) as client:
        r = await client.post("/v1/chat", json=body)
        err = assert_error_shape(r, 422, "invalid_input")
        assert len(r.content) < 10_000, len(r.content)
        assert marker not in r.text  # neither a key in full nor a value
        assert len(err["details"]) <= 21
        # a body under the byte cap but with more values than a request can need: refused before validation
        many = {"message": "你好", "learned_topics": ["t"] * 6000}
        r = await client.post("/v1/chat", json=many)
        err = assert_error_shape(r, 422, "invalid_input")
        assert "5000" in err["message"]


async def test_every_anonymous_write_is_rate_limited(small_kb):
    """POST /v1/feedback had no limit at all; rename and delete neither."""
    async with api_client(small_kb.settings.data_dir, anon_write_rate_limit="3/minute", anon_ip_rate_limit="") as client:
        me = {"X-Client-Id": "rate-limit-writes-aaaa"}
        fb = {"thread_id": "nope-thread", "message_id": "m1", "rating": "up"}
        codes = [(await client.post("/v1/feedback", json=fb, headers=me)).status_code for _ in range(4)]
        assert codes[:3] == [404, 404, 404]
        assert codes[3] == 429
        r = await client.patch("/v1/threads/nope", json={"title": "x"}, headers=me)
        assert_error_shape(r, 429, "rate_limited")
        assert r.headers["retry-after"]
        # the writes bucket is not the work bucket: a search still goes through
        assert (await client.post("/v1/kb/search", json={"query": "年假"}, headers=me)).status_code == 200


async def test_an_upload_may_be_larger_than_the_json_cap(small_kb, tmp_path):
    data_dir = copy_data_dir(small_kb.settings.data_dir, tmp_path / "kz")
    text = ("员工年假规定第十条，" * 40 + "\n") * 200  # ~ 700 KB
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        r = await client.post("/v1/kb/upload", files={"files": ("big.md", text.encode(), "text/markdown")},
                              headers=EDITOR)
        assert r.status_code == 200, r.text
        r = await client.post("/v1/kb/upload", files={"files": ("big.md", b"x" * 300_000, "text/markdown")},
                              headers=EDITOR, data={"collection": "uploads"})
        assert r.status_code == 200, r.text
    async with api_client(data_dir, demo_keys="1", max_upload_request_bytes="200000") as client:
        r = await client.post("/v1/kb/upload", files={"files": ("big.md", text.encode(), "text/markdown")},
                              headers=EDITOR)
        assert_error_shape(r, 413, "too_large")


async def test_an_anonymous_upload_gets_the_small_cap(small_kb):
    """The upload's 100 MiB cap is for signed-in callers: without a key a large upload is refused unread
    (it used to be read and stored in full before the 401)."""
    async with api_client(small_kb.settings.data_dir) as client:
        started = time.perf_counter()
        r = await client.post("/v1/kb/upload", files={"files": ("big.md", b"x" * 2_000_000, "text/markdown")})
        assert_error_shape(r, 413, "too_large")
        assert time.perf_counter() - started < 2.0


async def test_a_made_up_key_is_not_repeated_back_and_every_router_checks_json(small_kb):
    async with api_client(small_kb.settings.data_dir) as client:
        r = await client.post("/v1/chat", json={"message": "x", "<img src=x onerror=alert(1)>SECRET": 1, "plain_name": 2})
        err = assert_error_shape(r, 422, "invalid_input")
        assert "SECRET" not in r.text and "<img" not in r.text
        assert "plain_name" in err["message"] and "(unknown field)" in err["message"]
        # the meta routes (feedback, ask) parse bodies with the same checks as every other router
        r = await client.post("/v1/feedback", json={"thread_id": "t", "message_id": "m", "rating": "up",
                                                    "comment": "x", **{f"k{i}": i for i in range(6000)}})
        assert_error_shape(r, 422, "invalid_input")
        assert "5000" in r.json()["error"]["message"]
