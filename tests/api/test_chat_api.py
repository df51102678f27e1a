"""The chat API end to end through a real SSE client (httpx ASGITransport) on the demo knowledge
base: every path, events in order, the JSON mode, threads, the error shape, the thread lock."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from knowzero.api.events import EVENT_TYPES
from kz_testlib import api_client, assert_error_shape, documented_event_types, sse_events


async def chat(client: Any, message: str, **extra: Any) -> list[tuple[str, dict[str, Any]]]:
    r = await client.post("/v1/chat", json={"source": "chat", "message": message, **extra})
    events = sse_events(r)
    undocumented = {e for e, _ in events} - documented_event_types()
    assert not undocumented, f"emitted but not documented in docs/events.md: {undocumented}"
    return events


def types(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [e for e, _ in events]


def one(events: list[tuple[str, dict[str, Any]]], etype: str) -> dict[str, Any]:
    found = [d for e, d in events if e == etype]
    assert len(found) == 1, (etype, types(events))
    return found[0]


def check_order(events: list[tuple[str, dict[str, Any]]]) -> None:
    """node_start/node_end pair up; the path is decided before its node runs; an offline reply (no model
    streamed it) comes whole in ``done.reply``, with no ``llm_token``."""
    stack: list[str] = []
    for e, d in events:
        if e == "node_start":
            stack.append(d["node"])
        elif e == "node_end":
            assert stack and stack[-1] == d["node"], (stack, d)
            stack.pop()
            assert d["elapsed_ms"] >= 0
    assert stack == [], f"unclosed nodes {stack}"
    names = types(events)
    assert names.index("path_decision") < len(names) - 1
    done = events[-1][1]
    assert done["reply"] and names[-1] == "done"
    reply_tokens = [d for e, d in events if e == "llm_token" and "document_id" not in d]
    assert reply_tokens == [], "the whole reply in done, never pretend tokens"


@pytest.fixture()
async def client(demo_data_dir: Path):  # type: ignore[no-untyped-def]
    async with api_client(demo_data_dir) as c:
        yield c


def node_names(events: list[tuple[str, dict[str, Any]]]) -> list[str]:
    return [d["node"] for e, d in events if e == "node_start"]


# ----------------------------------------------------------------------------- every path
async def test_knowledge_path(client: Any) -> None:
    events = await chat(client, "零件A的公差是多少？")
    check_order(events)
    assert one(events, "intent_classified")["intent"] == "knowledge"
    assert one(events, "path_decision")["path"] == "knowledge"
    assert node_names(events)[:3] == ["normalize", "classify", "decide_path"]
    assert {"route_domain", "retrieve", "read", "check", "finish"} <= set(node_names(events))
    retrieval = [d for e, d in events if e == "retrieval"][0]
    assert retrieval["sources"] and all("snippet" in s and "text" not in s for s in retrieval["sources"])
    verdict = one(events, "verdict")
    assert verdict["level"] == "confirmed"
    assert all(c["source"].endswith("零件A-XH-1001工艺说明.md") for c in verdict["claims"])
    assert "±0.01mm" in events[-1][1]["reply"]
    names = types(events)
    assert names.index("retrieval") < names.index("verdict") < names.index("done")


async def test_chitchat_path(client: Any) -> None:
    events = await chat(client, "你好")
    check_order(events)
    assert one(events, "intent_classified")["intent"] == "chitchat"
    assert one(events, "intent_classified")["method"] == "rule"
    assert one(events, "path_decision")["path"] == "chitchat"
    assert "chitchat" in node_names(events)
    assert "KnowZero" in events[-1][1]["reply"]


async def test_clarify_path(client: Any) -> None:
    events = await chat(client, "那个东西怎么弄？")
    check_order(events)
    assert one(events, "path_decision")["path"] == "clarify"
    assert "clarify" in node_names(events)
    done = events[-1][1]
    assert done["reply"].rstrip().endswith("。") or "？" in done["reply"]
    assert done["quick_replies"], "likely interpretations are offered"


async def test_learning_path(client: Any) -> None:
    events = await chat(client, "我想学习CNC维护")
    check_order(events)
    assert one(events, "intent_classified")["intent"] == "new_topic"
    assert one(events, "path_decision")["path"] == "learning"
    assert "learning" in node_names(events)
    docs = [d for e, d in events if e == "document"]
    assert docs[0]["status"] == "generating"
    assert docs[-1]["status"] != "generating" and docs[-1]["sections"], "the last event is the finished document"
    assert {"id", "title"} <= set(docs[-1])


async def test_tools_path(client: Any) -> None:
    events = await chat(client, "查一下我的订单")
    check_order(events)
    assert one(events, "intent_classified")["intent"] == "realtime"
    assert one(events, "path_decision")["path"] == "service"
    assert "service" in node_names(events)
    assert "登录" in events[-1][1]["reply"], "anonymous callers may not use account tools"


async def test_react_path_splits_and_composes(client: Any) -> None:
    events = await chat(client, "查一下我的订单，然后告诉我零件A的公差")
    check_order(events)
    assert one(events, "intent_classified")["intent"] == "mixed"
    assert one(events, "path_decision")["path"] == "react"
    assert "react" in node_names(events)
    steps = [d["text"] for e, d in events if e == "reasoning" and d["text"].startswith("step ")]
    assert steps == ["step 1: 查一下我的订单", "step 2: 告诉我零件A的公差"]
    assert one(events, "tool_call_start")["tool"] == "list_my_orders"
    assert one(events, "tool_call_end")["result"]["ok"] is False
    reply = events[-1][1]["reply"]
    assert reply.startswith("1. 查一下我的订单：") and "2. 告诉我零件A的公差：" in reply and "±0.01mm" in reply


async def test_mixed_order_and_refund_policy_goes_to_the_loop(client: Any) -> None:
    events = await chat(client, "帮我查订单，然后告诉我退款政策")
    assert one(events, "path_decision")["path"] == "react"


async def test_non_chat_sources_map_without_classification(client: Any) -> None:
    events = await (client.post("/v1/chat", json={"source": "entry", "topic": "CNC 加工中心维护"}))
    evs = sse_events(events)
    ic = one(evs, "intent_classified")
    assert ic["method"] == "source" and ic["intent"] == "new_topic"
    assert one(evs, "path_decision")["path"] == "learning"


# ----------------------------------------------------------------------------- JSON mode, threads
async def test_stream_false_returns_one_json_body(client: Any) -> None:
    r = await client.post("/v1/chat", json={"source": "chat", "message": "零件A的公差是多少？", "stream": False})
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    body = r.json()
    assert {"thread_id", "reply", "intent", "path", "verdict", "citations", "agent_log", "events", "error"} <= set(body)
    assert body["path"] == "knowledge" and body["verdict"]["level"] == "confirmed" and body["error"] is None
    assert body["citations"] and all({"source", "quote", "start", "end"} <= set(c) for c in body["citations"])
    assert [e["type"] for e in body["events"]][0] == "intent_classified"
    assert [e["type"] for e in body["events"]][-1] == "done"
    assert "llm_token" not in {e["type"] for e in body["events"]}
    assert {e["agent"] for e in body["agent_log"]} >= {"intent", "router", "retriever", "reader", "fact_checker"}


async def test_new_thread_is_created_listed_renamed_and_read(client: Any) -> None:
    client.headers["X-Client-Id"] = "c" * 32  # an anonymous browser's own id (threads are per browser)
    r = await client.post("/v1/chat", json={"source": "chat", "message": "你好", "stream": False})
    tid = r.json()["thread_id"]
    assert tid
    listed = (await client.get("/v1/threads")).json()["threads"]
    assert tid in [t["id"] for t in listed]
    r = await client.patch(f"/v1/threads/{tid}", json={"title": "问候"})
    assert r.status_code == 200 and r.json() == {"id": tid, "title": "问候"}
    assert next(t for t in (await client.get("/v1/threads")).json()["threads"] if t["id"] == tid)["title"] == "问候"
    thread = (await client.get(f"/v1/threads/{tid}")).json()
    assert [m["role"] for m in thread["messages"]] == ["user", "assistant"]
    assert thread["state"]["path"] == "chitchat"
    assert_error_shape(await client.patch(f"/v1/threads/{tid}", json={"title": ""}), 422, "invalid_input")
    assert_error_shape(await client.patch("/v1/threads/nope-nope", json={"title": "x"}), 404, "not_found")


async def test_restart_and_resume_on_sqlite(demo_data_dir: Path) -> None:
    from kz_testlib import restart_and_resume

    await restart_and_resume(demo_data_dir, f"resume-{uuid.uuid4().hex[:8]}")


# ----------------------------------------------------------------------------- concurrency
async def test_concurrent_requests_on_one_thread_one_gets_409(client: Any) -> None:
    tid = f"busy-{uuid.uuid4().hex[:8]}"
    body = {"source": "chat", "message": "零件A的公差是多少？", "thread_id": tid, "stream": False}
    r1, r2 = await asyncio.gather(client.post("/v1/chat", json=body), client.post("/v1/chat", json=body))
    statuses = sorted([r1.status_code, r2.status_code])
    assert statuses == [200, 409], (r1.text, r2.text)
    refused = r1 if r1.status_code == 409 else r2
    assert_error_shape(refused, 409, "conflict")
    # the refused turn left no trace; the lock was released afterwards
    thread = (await client.get(f"/v1/threads/{tid}")).json()
    assert [m["role"] for m in thread["messages"]] == ["user", "assistant"]
    r3 = await client.post("/v1/chat", json=body)
    assert r3.status_code == 200


async def test_concurrent_requests_on_different_threads_both_run(client: Any) -> None:
    bodies = [{"source": "chat", "message": "你好", "thread_id": f"free-{uuid.uuid4().hex[:8]}", "stream": False}
              for _ in range(2)]
    rs = await asyncio.gather(*(client.post("/v1/chat", json=b) for b in bodies))
    assert [r.status_code for r in rs] == [200, 200]


# ----------------------------------------------------------------------------- bad input, errors
@pytest.mark.parametrize(("body", "field"), [
    ({"source": "fax", "message": "hi"}, "source"),
    ({"source": "comment", "comment": {"comment": "举个例子"}}, "comment.selected_text"),
    ({"source": "comment", "message": "x"}, "comment"),
    ({"source": "chat", "message": ""}, "message"),
    ({"source": "chat", "message": "长" * 4001}, "message"),
    ({"source": "chat", "message": "hi", "thread_id": "a/b"}, "thread_id"),
    ({"source": "chat", "message": "hi", "stream": "maybe"}, "stream"),
])
async def test_bad_inputs_are_422_with_the_pinned_shape(client: Any, body: dict, field: str) -> None:
    err = assert_error_shape(await client.post("/v1/chat", json=body), 422, "invalid_input")
    assert field in [d["field"] for d in err["details"]], err
    assert field in err["message"]


async def test_body_that_is_not_a_json_object_is_422(client: Any) -> None:
    assert_error_shape(await client.post("/v1/chat", content=b"not json", headers={"content-type": "application/json"}),
                       422, "invalid_input")
    assert_error_shape(await client.post("/v1/chat", json=["a"]), 422, "invalid_input")


async def test_404_shape(client: Any) -> None:
    assert_error_shape(await client.get("/v1/threads/does-not-exist"), 404, "not_found")
    assert_error_shape(await client.get("/v1/no-such-route"), 404, "not_found")
    assert_error_shape(await client.get("/v1/kb/source", params={"path": "nope.md"}), 404, "not_found")


SECRET = "psycopg.OperationalError at /srv/secret/knowzero.db: SELECT password FROM users"


async def test_error_event_never_leaks_internals(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from knowzero.graph.nodes import chitchat

    def boom(text: str) -> str:
        raise RuntimeError(SECRET)

    monkeypatch.setattr(chitchat, "template_reply", boom)
    tid = f"err-{uuid.uuid4().hex[:8]}"
    r = await client.post("/v1/chat", json={"source": "chat", "message": "你好", "thread_id": tid})
    events = sse_events(r)
    assert events[-1][0] == "error"
    err = events[-1][1]
    assert set(err) == {"code", "message"} and err["code"] == "internal_error"
    for leak in ("secret", "SELECT", "Traceback", "RuntimeError", "psycopg", "/srv"):
        assert leak not in r.text
    # the lock is released and the thread still works once the fault is gone
    monkeypatch.undo()
    assert sse_events(await client.post("/v1/chat", json={"source": "chat", "message": "你好", "thread_id": tid}))[-1][0] \
        == "done"


async def test_http_500_has_the_shape_and_no_internals(demo_data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx


    def boom(*a: Any, **k: Any) -> None:
        raise RuntimeError(SECRET)

    async with api_client(demo_data_dir) as c:
        monkeypatch.setattr(c.app.state.runner.threads, "owner", boom)
        transport = httpx.ASGITransport(app=c.app, raise_app_exceptions=False)
        async with httpx.AsyncClient(transport=transport, base_url="http://kz.test") as raw:
            r = await raw.post("/v1/chat", json={"source": "chat", "message": "你好"})
    err = assert_error_shape(r, 500, "internal_error")
    assert "secret" not in r.text and "RuntimeError" not in r.text and err["details"] is None


# ----------------------------------------------------------------------------- documentation, meta
def test_event_types_equal_the_documented_set() -> None:
    documented = documented_event_types()
    assert len(documented) >= 14
    assert set(EVENT_TYPES) == documented
    assert len(EVENT_TYPES) == len(set(EVENT_TYPES))


def test_every_documented_event_has_a_json_example() -> None:
    import re

    text = (Path(__file__).parents[2] / "docs" / "events.md").read_text("utf-8")
    for etype in EVENT_TYPES:
        section = text.split(f"### {etype}\n", 1)[1].split("\n### ", 1)[0]
        example = re.search(r"```json\n(.*?)\n```", section, re.S)
        assert example, f"{etype} has no JSON example"
        assert isinstance(json.loads(example.group(1)), dict)


async def test_healthz(client: Any) -> None:
    r = await client.get("/healthz")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok" and body["database"] == "sqlite" and body["llm"] == "none"
    assert body["passages"] > 100, "the demo knowledge base is loaded"


async def test_openapi_documents_the_routes(client: Any) -> None:
    r = await client.get("/openapi.json")
    assert r.status_code == 200
    paths = r.json()["paths"]
    for p in ("/v1/chat", "/v1/threads", "/v1/threads/{thread_id}", "/healthz", "/v1/chat/completions"):
        assert p in paths, p
    assert (await client.get("/docs")).status_code == 200


async def test_anonymous_browsers_do_not_see_each_others_threads(client: Any) -> None:
    a = {"X-Client-Id": "a" * 32}
    b = {"X-Client-Id": "b" * 32}
    r = await client.post("/v1/chat", json={"source": "chat", "message": "你好", "stream": False}, headers=a)
    tid = r.json()["thread_id"]
    mine = (await client.get("/v1/threads", headers=a)).json()["threads"]
    assert [t["id"] for t in mine] == [tid]
    assert (await client.get("/v1/threads", headers=b)).json()["threads"] == []
    assert (await client.get(f"/v1/threads/{tid}", headers=b)).status_code == 404
    assert (await client.get("/v1/threads", headers={"X-Client-Id": ""})).json()["threads"] == [], \
        "no client id: nothing is listed"
    assert (await client.get(f"/v1/threads/{tid}", headers=a)).status_code == 200


async def test_openapi_docs_page_works_offline(client: Any) -> None:
    page = await client.get("/docs")
    assert page.status_code == 200 and "/vendor/swagger-ui/swagger-ui-bundle.js" in page.text
    assert "cdn" not in page.text.lower(), "no CDN: the product runs offline"
    js = await client.get("/vendor/swagger-ui/swagger-ui-bundle.js")
    assert js.status_code == 200 and len(js.content) > 100_000


async def test_long_history_is_trimmed_into_a_running_summary(client: Any) -> None:
    client.headers["X-Client-Id"] = "d" * 32
    tid = None
    for i in range(9):
        body = {"source": "chat", "message": f"你好 {i}", "stream": False, **({"thread_id": tid} if tid else {})}
        tid = (await client.post("/v1/chat", json=body)).json()["thread_id"]
    thread = (await client.get(f"/v1/threads/{tid}")).json()
    assert len(thread["messages"]) <= 12 + 2, "older messages leave the window"
    assert thread["messages"][-2]["content"] == "你好 8", "the newest turn is kept"
    assert "你好 0" in thread["summary"] and "你好 0" not in [m["content"] for m in thread["messages"]]


async def test_a_thread_whose_first_turn_is_not_stored_yet_opens_empty(client: Any) -> None:
    """A thread is listed once its first turn starts; opening it before that turn is stored (a slow
    stream the browser stopped) shows it empty and answering, not "not found"."""
    runner = client.app.state.runner  # type: ignore[attr-defined]
    me = (await client.get("/v1/me")).json()["id"]
    runner.threads.claim("slow-first-turn", me, "零件A的公差是多少？")
    token = await runner.locks.acquire("slow-first-turn")  # the turn is running
    try:
        body = (await client.get("/v1/threads/slow-first-turn")).json()
        assert body["messages"] == [] and body["answering"] is True
    finally:
        await runner.locks.release("slow-first-turn", token)
    assert (await client.get("/v1/threads/slow-first-turn")).json()["answering"] is False
    assert (await client.get("/v1/threads/slow-first-turn", headers={"X-Client-Id": "kz-test-client-0002"})).status_code == 404
