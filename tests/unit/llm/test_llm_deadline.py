"""Every provider call has a total deadline: the OpenAI-compatible client cuts off a server that drips
bytes faster than any per-read timeout, skips a timed-out endpoint for a cool-down, and synchronous
callers (learning documents) are bounded the same way as the graph's async nodes."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from knowzero.errors import ProviderError
from knowzero.learning.service import LearningService
from knowzero.llm.base import BoundedProvider, call_within_deadline, within_deadline
from knowzero.llm.openai_compat import OpenAICompatProvider
from kz_testlib import make_kb
from llm_fake import FakeLLM, fake_llm

MESSAGES = [{"role": "user", "content": "零件A的外圆公差是多少？"}]


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLM]:
    with fake_llm() as srv:
        yield srv


def test_a_drip_faster_than_any_read_timeout_is_cut_off_at_the_total_deadline(llm: FakeLLM) -> None:
    p = OpenAICompatProvider(llm.url("drip-0.2"), "fake", timeout=1.0)
    t0 = time.perf_counter()
    with pytest.raises(ProviderError, match="timed out"):
        p.chat(MESSAGES)
    assert time.perf_counter() - t0 < 1.5


@pytest.mark.parametrize("mode", ["hang", "drip"])
def test_after_a_timeout_the_endpoint_is_skipped_for_the_cooldown(llm: FakeLLM, mode: str) -> None:
    p = OpenAICompatProvider(llm.url(mode), "fake", timeout=0.5, cooldown_s=1.0)
    with pytest.raises(ProviderError, match="timed out"):
        p.chat(MESSAGES)
    started = len(llm.started)
    t0 = time.perf_counter()
    with pytest.raises(ProviderError, match="timed out recently"):
        p.chat(MESSAGES)
    assert time.perf_counter() - t0 < 0.05, "fails at once"
    assert len(llm.started) == started, "without a request"
    time.sleep(1.05)
    assert p.cooling_down() == 0.0
    ok = OpenAICompatProvider(llm.url("ok"), "fake", timeout=2.0)
    assert ok.chat(MESSAGES)


def test_an_error_status_does_not_start_a_cooldown(llm: FakeLLM) -> None:
    p = OpenAICompatProvider(llm.url("error500"), "fake", timeout=1.0, cooldown_s=60)
    for _ in range(2):
        with pytest.raises(ProviderError, match="HTTP 500"):
            p.chat(MESSAGES)
    assert p.cooling_down() == 0.0


def test_the_client_can_be_called_from_inside_an_event_loop(llm: FakeLLM) -> None:
    async def main() -> str:
        return OpenAICompatProvider(llm.url("ok"), "fake", timeout=2.0).chat(MESSAGES)

    assert asyncio.run(main())


def _blocker(release: threading.Event) -> object:
    def block(*_a: object, **_k: object) -> str:
        release.wait(30)
        return "late"
    return block


def test_sync_and_async_callers_are_bounded_the_same_way() -> None:
    release = threading.Event()
    try:
        t0 = time.perf_counter()
        with pytest.raises(ProviderError, match="within 0.2 s"):
            call_within_deadline(_blocker(release), deadline_s=0.2)  # type: ignore[arg-type]
        assert time.perf_counter() - t0 < 1.0
        t0 = time.perf_counter()
        with pytest.raises(ProviderError, match="within 0.2 s"):
            asyncio.run(within_deadline(_blocker(release), deadline_s=0.2))  # type: ignore[arg-type]
        assert time.perf_counter() - t0 < 1.0
        assert call_within_deadline(lambda x: x + 1, 1, deadline_s=1) == 2
        with pytest.raises(ValueError):
            call_within_deadline(int, "x", deadline_s=1)
    finally:
        release.set()


async def test_async_calls_do_not_wait_for_a_busy_shared_executor() -> None:
    """A model call gets its own thread: a saturated default executor cannot delay it."""
    release = threading.Event()
    loop = asyncio.get_running_loop()
    try:
        busy = [loop.run_in_executor(None, release.wait, 30) for _ in range(64)]
        t0 = time.perf_counter()
        assert await within_deadline(lambda: "ok", deadline_s=1.0) == "ok"
        assert time.perf_counter() - t0 < 0.5
    finally:
        release.set()
        await asyncio.gather(*busy)


class _Hanging:
    name = "hanging"

    def __init__(self) -> None:
        self.release = threading.Event()
        self.calls = 0

    def chat(self, messages: object, *, max_tokens: int = 512, json_schema: object = None) -> str:
        self.calls += 1
        self.release.wait(30)
        return "{}"


def test_a_learning_document_is_written_offline_when_the_model_hangs(tmp_path: Path) -> None:
    from knowzero.knowledge.kb import demo_kb_path

    kb = make_kb(tmp_path / "kz", llm_timeout_s=0.3)
    kb.ingest_paths([demo_kb_path() / "technical"], collection="demo")
    model = _Hanging()
    svc = LearningService(kb.engine, kb=kb, provider=model, settings=kb.settings)
    assert isinstance(svc.provider, BoundedProvider) and svc.provider.name == "hanging"
    try:
        t0 = time.perf_counter()
        doc = svc.generate("CNC加工中心日常维护")
        elapsed = time.perf_counter() - t0
    finally:
        model.release.set()
    assert doc["status"] == "ready" and doc["sections"]
    assert model.calls == len(doc["sections"])
    assert doc["method"] == "offline_fallback" and doc["notes"]
    assert elapsed < model.calls * (0.3 + 0.5) + 5, elapsed


class _DrippingStream(_Hanging):
    """A streaming model that sends one token, then nothing until released (a stalled stream)."""

    name = "dripping"

    def stream(self, messages: object, *, max_tokens: int = 512) -> Iterator[str]:
        self.calls += 1
        yield "主轴"
        self.release.wait(30)
        yield "需要预热。"


def test_a_stalled_stream_is_cut_at_the_deadline_and_the_document_is_written_from_quotes(tmp_path: Path) -> None:
    from knowzero.knowledge.kb import demo_kb_path
    from knowzero.llm.base import BoundedStreamingProvider

    kb = make_kb(tmp_path / "kz", llm_timeout_s=0.3)
    kb.ingest_paths([demo_kb_path() / "technical"], collection="demo")
    model = _DrippingStream()
    svc = LearningService(kb.engine, kb=kb, provider=model, settings=kb.settings)
    assert isinstance(svc.provider, BoundedStreamingProvider)
    try:
        t0 = time.perf_counter()
        events = list(svc.iter_generate("CNC加工中心日常维护"))
        elapsed = time.perf_counter() - t0
    finally:
        model.release.set()
    doc = events[-1]["document"]
    assert doc["status"] == "ready" and doc["method"] == "offline_fallback"
    assert [e["text"] for e in events if e["event"] == "token"] == ["主轴"], "the token came, then the stall"
    assert model.calls == 1, "one stalled stream per document, not one per section"
    assert elapsed < 0.3 + 0.5 + 5, elapsed


def test_a_stream_dripping_bytes_without_a_line_end_is_cut_off_at_the_total_deadline(llm: FakeLLM) -> None:
    # found by the issue-16 review: the deadline was checked between lines only
    p = OpenAICompatProvider(llm.url("drip-0.2"), "fake", timeout=1.0, cooldown_s=60)
    t0 = time.perf_counter()
    with pytest.raises(ProviderError, match="timed out"):
        list(p.stream(MESSAGES))
    assert time.perf_counter() - t0 < 1.5
    assert p.cooling_down() > 0, "the cool-down is armed like after any timeout"


def test_calls_refused_in_the_cooldown_are_counted_apart_from_calls(llm: FakeLLM) -> None:
    # a hanging model used to look like the fastest: 90 instant "calls" with p50 0.0 s
    from knowzero.errors import ProviderCoolingDown
    from knowzero.eval.llmuse import LLMUse
    from knowzero.llm.metered import metered
    from knowzero.llm.openai_compat import COOLING_DOWN

    p = metered(OpenAICompatProvider(llm.url("hang"), "fake", timeout=0.3, cooldown_s=60))
    use = LLMUse(p)
    with pytest.raises(ProviderError, match="timed out"):
        p.chat(MESSAGES)
    for _ in range(3):
        with pytest.raises(ProviderCoolingDown):
            p.chat(MESSAGES)
        use.fallback("reader", COOLING_DOWN)
    r = use.report()
    assert r["llm_calls"] == 1 and r["llm_refused"] == 3 and r["llm_p50_s"] >= 0.3
    assert r["llm_fallback_reasons"] == {f"reader: {COOLING_DOWN}": 3}, "one stable reason, no countdown"
