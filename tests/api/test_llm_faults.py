"""Fault injection: the app against a fake OpenAI-compatible model that fails every way.

For each mode of ``llm_fake.FakeLLM`` (HTTP 500, garbage, malformed JSON, a hang, a slow drip, a
hallucinating model, a cut body) the real app (``KNOWZERO_LLM_PROVIDER=openai`` pointed at the fake
on 127.0.0.1, ``KNOWZERO_LLM_TIMEOUT_S=2``) answers one turn on every path at once — knowledge,
chitchat, service (signed in), the safe-mode loop and learning — while ``/healthz`` is polled
throughout. Every turn must finish within the deadline plus a margin for the offline work, every
``/healthz`` under 100 ms, the fallback must be visible in the events (``llm_fallback``) and the
agent log (``fallback: true``), and nothing the model invented may reach the reply.

Set ``KNOWZERO_FAULT_REPORT=<file>`` to append each mode's figures as JSON lines.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from knowzero.api import app as app_module
from knowzero.knowledge.answer.pipeline import NOT_AN_ANSWER
from knowzero.service.identity import announce_keys
from kz_testlib import api_client, copy_data_dir, make_deps, make_kb, sse_events
from llm_fake import INVENTED_SENTENCES, MODES, FakeLLM, fake_llm

DEADLINE_S = 2.0
MARGIN_S = 2.5
"""Offline work after the fallback (retrieval, learning sections) on a shared 2-core machine."""
HEALTHZ_MAX_S = 0.100

TURNS: list[tuple[str, str | None, str]] = [  # (expected path, who, message)
    ("knowledge", None, "零件A的外圆公差是多少？"),
    ("chitchat", None, "你好"),
    ("service", "demo-alice", "帮我查一下我的订单"),
    ("react", "demo-bob", "查一下我的订单，然后告诉我零件A的公差"),
    ("learning", None, "我想学习CNC加工中心日常维护"),
]
SSE_TURN = ("knowledge (sse)", None, TURNS[0][2])
FAILING = tuple(m for m in MODES if m != "hallucinate")


@pytest.fixture(scope="module")
def pristine_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo knowledge base and nothing else (no learning documents other tests may have written)."""
    from knowzero.knowledge.kb import demo_kb_path

    d = tmp_path_factory.mktemp("faults-demo") / "kz"
    kb = make_kb(d)
    kb.ingest_paths([demo_kb_path()], collection="demo")
    kb.engine.dispose()
    return d


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLM]:
    with fake_llm() as srv:
        yield srv


async def _turn(client: Any, n: int, who: str | None, message: str) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {who}"} if who else {}
    t0 = time.perf_counter()
    r = await client.post("/v1/chat", json={"message": message, "stream": False, "thread_id": f"fault-{n}-{os.urandom(4).hex()}"},
                          headers=headers)
    elapsed = time.perf_counter() - t0
    assert r.status_code == 200, r.text
    return {**r.json(), "elapsed_s": elapsed}


async def _run_mode(demo_dir: Path, srv: FakeLLM, mode: str, tmp: Path) -> tuple[list[dict[str, Any]], list[float]]:
    data_dir = copy_data_dir(demo_dir, tmp / f"kz-{mode}")  # a new learning document every time
    try:
        return await _turns(data_dir, srv, mode)
    finally:
        gc.unfreeze()


async def _turns(data_dir: Path, srv: FakeLLM, mode: str) -> tuple[list[dict[str, Any]], list[float]]:
    async with api_client(data_dir, configured_llm=True, llm_provider="openai", llm_base_url=srv.url(mode),
                          llm_model="fake", llm_timeout_s=str(DEADLINE_S), demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        # start up as ``knowzero serve`` does: warm the models, then freeze the long-lived heap out of the
        # cyclic GC (api/app.py). Without it, a full collection of everything this test process holds
        # (~1 s here) is what /healthz would measure.
        await asyncio.to_thread(app_module._warm, client.app.state.deps)
        gc.collect()
        gc.freeze()
        latencies: list[float] = []
        stop = asyncio.Event()

        async def poll() -> None:
            for _ in range(2000):  # bounded: at most ~2000 polls per mode
                if stop.is_set():
                    return
                t = time.perf_counter()
                r = await client.get("/healthz")
                latencies.append(time.perf_counter() - t)
                assert r.status_code == 200
                await asyncio.sleep(0.02)

        poller = asyncio.create_task(poll())
        await asyncio.sleep(0.05)
        try:
            bodies = await asyncio.gather(*(_turn(client, n, who, msg) for n, (_, who, msg) in enumerate(TURNS)))
            t0 = time.perf_counter()  # and one turn over the wire as the browser gets it (SSE)
            r = await client.post("/v1/chat", json={"message": TURNS[0][2]})
            bodies.append({"sse": sse_events(r), "elapsed_s": time.perf_counter() - t0})
        finally:
            stop.set()
            await poller
        return bodies, latencies


def _report(mode: str, bodies: list[dict[str, Any]], latencies: list[float]) -> None:
    line = {"mode": mode, "deadline_s": DEADLINE_S,
            "turn_s": {path: round(b["elapsed_s"], 2) for (path, _, _), b in zip([*TURNS, SSE_TURN], bodies, strict=True)},
            "healthz_max_ms": round(max(latencies) * 1000, 1), "healthz_polls": len(latencies)}
    print(json.dumps(line))
    if os.environ.get("KNOWZERO_FAULT_REPORT"):
        with open(os.environ["KNOWZERO_FAULT_REPORT"], "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


def _events(body: dict[str, Any], etype: str) -> list[dict[str, Any]]:
    return [e["data"] for e in body["events"] if e["type"] == etype]


def _check_bounds(mode: str, bodies: list[dict[str, Any]], latencies: list[float]) -> None:
    _report(mode, bodies, latencies)
    sse = bodies.pop()
    assert sse["elapsed_s"] < DEADLINE_S + MARGIN_S, (mode, "sse", sse["elapsed_s"])
    assert sse["sse"][-1][0] == "done", sse["sse"][-1]
    if mode in FAILING:
        assert [d for e, d in sse["sse"] if e == "llm_fallback"], [e for e, _ in sse["sse"]]
    assert not any(s in sse["sse"][-1][1]["reply"] for s in INVENTED_SENTENCES)
    for (path, _, msg), body in zip(TURNS, bodies, strict=True):
        assert body["path"] == path, (msg, body["path"])
        assert body["error"] is None, (msg, body["error"])
        assert body["reply"], msg
        assert body["elapsed_s"] < DEADLINE_S + MARGIN_S, (mode, path, body["elapsed_s"])
    assert latencies and max(latencies) < HEALTHZ_MAX_S, (mode, max(latencies), len(latencies))


def _check_nothing_invented(kb: Any, body: dict[str, Any]) -> None:
    shown = [body["reply"], *(c.get("text", "") for v in _events(body, "verdict") for c in v["claims"])]
    for text in shown:
        assert not any(s in text for s in INVENTED_SENTENCES), text
    for c in body["citations"]:
        assert kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]


@pytest.mark.parametrize("mode", FAILING)
async def test_a_failing_model_never_holds_a_turn_or_the_server(pristine_dir: Path, tmp_path: Path, llm: FakeLLM, mode: str) -> None:
    bodies, latencies = await _run_mode(pristine_dir, llm, mode, tmp_path)
    _check_bounds(mode, bodies, latencies)
    for (path, _, _msg), body in zip(TURNS, bodies, strict=True):
        fallbacks = _events(body, "llm_fallback")
        assert fallbacks, (mode, path, [e["type"] for e in body["events"]])
        assert all(f["reason"] and f["step"] for f in fallbacks)
        assert any(f"the model was not used for {f['step']}" in r["text"]
                   for f in fallbacks for r in _events(body, "reasoning"))
        assert any(e.get("fallback") is True for e in body["agent_log"]), (mode, path, body["agent_log"])
    knowledge = bodies[0]
    reader = next(e for e in knowledge["agent_log"] if e.get("agent") == "reader")
    assert reader["action"] == "extract" and reader["fallback"] is True
    assert knowledge["verdict"]["level"] in ("confirmed", "uncertain")
    assert "±0.01" in knowledge["reply"]


async def test_a_hallucinating_model_never_reaches_the_reply(pristine_dir: Path, tmp_path: Path, llm: FakeLLM) -> None:
    bodies, latencies = await _run_mode(pristine_dir, llm, "hallucinate", tmp_path)
    _check_bounds("hallucinate", bodies, latencies)
    kb = None
    async with api_client(pristine_dir) as client:
        kb = client.app.state.deps.need_kb()
        for body in bodies:
            _check_nothing_invented(kb, body)
    knowledge = bodies[0]
    reader = next(e for e in knowledge["agent_log"] if e.get("agent") == "reader")
    if reader["action"] == "generate":  # the model's draft was shown: its invented claims were replaced
        assert knowledge["verdict"]["level"] != "confirmed", "invented sentences were removed, so it is not confirmed"
        check = next(e for e in knowledge["agent_log"] if e.get("agent") == "fact_checker")
        assert check["replaced_claims"] >= 2
    else:  # or it gave way to the offline reader's draft by the same checks (none of its words are shown)
        assert reader["fallback_reason"].startswith(NOT_AN_ANSWER), reader
    chitchat = bodies[1]
    assert _events(chitchat, "llm_fallback"), "the model's chitchat stated facts and was replaced by a template"
    learning = bodies[4]
    assert all(not any(s in sec.get("markdown", "") for s in INVENTED_SENTENCES)
               for sec in (learning.get("document") or {}).get("sections", []))


async def test_the_control_model_is_really_used(pristine_dir: Path, tmp_path: Path, llm: FakeLLM) -> None:
    """The suite reaches the model at all: with a well-behaved fake the reader generates."""
    bodies, latencies = await _run_mode(pristine_dir, llm, "ok", tmp_path)
    _check_bounds("ok", bodies, latencies)
    reader = next(e for e in bodies[0]["agent_log"] if e.get("agent") == "reader")
    assert reader["provider"] == "openai" and any(m == "ok" for m, _ in llm.calls), reader
    # the model's draft was read and either shown or, being weaker than the offline reader's by the same
    # checks (here: the offline answer cites the part's structured row), set aside with that reason: no error
    assert reader["action"] == "generate" or reader["fallback_reason"].startswith(NOT_AN_ANSWER), reader


async def test_a_warm_server_freezes_its_start_up_heap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full garbage collection of a warm server's heap took ~0.8 s (every request stalled, /healthz
    too): after warming up, the long-lived heap is frozen out of the cyclic collector."""
    from knowzero.config import Settings

    monkeypatch.setattr(app_module, "_warm", lambda _deps: None)
    gc.unfreeze()
    s = Settings(data_dir=tmp_path / "kz")
    app = app_module.create_app(s, warm=True, deps=make_deps(s))
    try:
        async with app.router.lifespan_context(app):
            assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
