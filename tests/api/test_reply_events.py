"""How a reply reaches a streaming client (docs/events.md, ``llm_token``): a reply no model streamed exists
whole, so it is sent as what it is — in ``done.reply``, with no ``llm_token`` — never cut into pretend
tokens; a turn that pauses for a person sends no reply tokens; an OpenAI-compatible client gets the same
whole reply as one delta."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient

from kz_testlib import api_client, make_deps, sse_events


def reply_tokens(events: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    return [d for e, d in events if e == "llm_token" and "document_id" not in d]


@pytest.mark.parametrize("message", ["零件A的公差是多少？", "你好", "量子计算机的退相干时间是多少？",
                                     "我想学习CNC加工中心日常维护"])
async def test_an_offline_reply_is_one_event_with_the_whole_text(demo_data_dir: Path, message: str) -> None:
    async with api_client(demo_data_dir) as client:
        events = sse_events(await client.post("/v1/chat", json={"message": message}))
    done = events[-1][1]
    assert events[-1][0] == "done" and len(done["reply"]) > 12, "long enough that pieces would have shown"
    assert reply_tokens(events) == [], "no pretend tokens: the reply is done.reply"


async def test_the_json_mode_has_no_tokens(demo_data_dir: Path) -> None:
    async with api_client(demo_data_dir) as client:
        body = (await client.post("/v1/chat", json={"message": "零件A的公差是多少？", "stream": False})).json()
    assert body["reply"] and "llm_token" not in {e["type"] for e in body["events"]}


@pytest.fixture()
async def signed_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KNOWZERO_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("KNOWZERO_DEMO_KEYS", "1")
    monkeypatch.delenv("KNOWZERO_DATABASE_URL", raising=False)
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys

    deps = make_deps(Settings(), provider=None)
    announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    app = create_app(deps.settings, warm=False, deps=deps)
    async with app.router.lifespan_context(app):
        async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test", timeout=60,
                               headers={"Authorization": "Bearer demo-alice"}) as client:
            yield client


async def test_a_turn_that_waits_for_a_person_sends_no_reply_tokens(signed_in: Any) -> None:
    events = sse_events(await signed_in.post("/v1/chat", json={"thread_id": "whole-reply-confirm",
                                                               "message": "订单123退款50元，原因是质量问题"}))
    done = events[-1][1]
    assert done["interrupted"] is True and done["reply"], "paused at the customer's confirmation, with its prompt"
    assert any(e == "human_review_request" for e, _ in events)
    assert reply_tokens(events) == []


async def test_an_openai_compatible_stream_gets_the_whole_offline_reply_as_one_delta(demo_data_dir: Path) -> None:
    async with api_client(demo_data_dir) as client:
        r = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "零件A的公差是多少？"}],
                                                            "stream": True})
        body = (await client.post("/v1/chat/completions", json={"messages": [
            {"role": "user", "content": "零件A的公差是多少？"}]})).json()
    datas = [line[5:].strip() for line in r.text.splitlines() if line.startswith("data:")]
    chunks = [json.loads(d) for d in datas[:-1]]
    contents = [c["choices"][0]["delta"]["content"] for c in chunks if c["choices"][0]["delta"].get("content")]
    assert contents == [body["choices"][0]["message"]["content"]]
