"""Issue 13 (the first hour of a new user), over HTTP: an anonymous thread carried over on sign-in,
delete/rename of threads and learning documents (owner only), the same topic opening the existing
document, answer feedback in the review queue, the settings page's data, and the refund flow's
slot answers (a reason given early, a question at the reason step) and reloadable cards."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import ASGITransport, AsyncClient

from kz_testlib import assert_error_shape, copy_data_dir, make_deps

ANON = "first-hour-client-0001"
OTHER = "first-hour-client-0002"


@pytest.fixture()
async def api(tmp_path, monkeypatch, demo_data_dir):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KNOWZERO_DATA_DIR", str(copy_data_dir(demo_data_dir, tmp_path / "kz")))
    monkeypatch.setenv("KNOWZERO_DEMO_KEYS", "1")
    monkeypatch.delenv("KNOWZERO_DATABASE_URL", raising=False)
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys

    deps = make_deps(Settings())
    announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    app = create_app(deps.settings, warm=False, deps=deps)
    async with app.router.lifespan_context(app):
        async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test", timeout=120) as client:
            client.app = app  # type: ignore[attr-defined]
            yield client


def who(key: str | None = None, client_id: str | None = ANON) -> dict[str, str]:
    h = {}
    if client_id:
        h["X-Client-Id"] = client_id
    if key:
        h["Authorization"] = f"Bearer {key}"
    return h


async def say(api: Any, text: str, headers: dict[str, str], thread_id: str | None = None,
              resume: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"stream": False}
    if thread_id:
        body["thread_id"] = thread_id
    body.update({"resume": resume} if resume is not None else {"source": "chat", "message": text})
    r = await api.post("/v1/chat", json=body, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


async def test_sign_in_mid_conversation_keeps_the_anonymous_thread(api: Any) -> None:
    first = await say(api, "我的订单124到哪了？", who())
    tid = first["thread_id"]
    assert "登录" in first["reply"] or "sign in" in first["reply"].lower()
    # signed in, the thread is not hers yet
    assert (await api.get(f"/v1/threads/{tid}", headers=who("demo-alice"))).status_code == 404
    # another browser (other client id) cannot claim it, nor can an anonymous caller
    assert_error_shape(await api.post(f"/v1/threads/{tid}/claim", headers=who("demo-bob", OTHER)), 404, "not_found")
    assert_error_shape(await api.post(f"/v1/threads/{tid}/claim", headers=who()), 401, "unauthorized")
    r = await api.post(f"/v1/threads/{tid}/claim", headers=who("demo-alice"))
    assert r.status_code == 200 and r.json()["claimed"] is True
    # claiming again is harmless; the old anonymous identity lost it; bob cannot take it from alice
    assert (await api.post(f"/v1/threads/{tid}/claim", headers=who("demo-alice"))).json()["claimed"] is False
    assert (await api.get(f"/v1/threads/{tid}", headers=who())).status_code == 404
    assert (await api.post(f"/v1/threads/{tid}/claim", headers=who("demo-bob"))).status_code == 404
    listed = (await api.get("/v1/threads", headers=who("demo-alice"))).json()["threads"]
    assert tid in [t["id"] for t in listed]
    again = await say(api, "我的订单124到哪了？", who("demo-alice"), tid)
    assert "124" in again["reply"] and "运输中" in again["reply"]
    msgs = (await api.get(f"/v1/threads/{tid}", headers=who("demo-alice"))).json()["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant", "user", "assistant"]


async def test_me_names_the_user(api: Any) -> None:
    assert (await api.get("/v1/me", headers=who("demo-admin"))).json() == {"id": "admin", "role": "admin", "name": "管理员"}
    assert (await api.get("/v1/me", headers=who("demo-alice"))).json()["name"] == "张三"


async def test_delete_and_rename_threads_owner_only(api: Any) -> None:
    tid = (await say(api, "你好", who()))["thread_id"]
    assert (await api.delete(f"/v1/threads/{tid}", headers=who(client_id=OTHER))).status_code == 404
    assert (await api.delete(f"/v1/threads/{tid}", headers=who("demo-agent", None))).status_code == 404
    assert (await api.patch(f"/v1/threads/{tid}", json={"title": "x"}, headers=who(client_id=OTHER))).status_code == 404
    r = await api.delete(f"/v1/threads/{tid}", headers=who())
    assert r.status_code == 200 and r.json()["deleted"] is True
    assert (await api.get(f"/v1/threads/{tid}", headers=who())).status_code == 404
    assert tid not in [t["id"] for t in (await api.get("/v1/threads", headers=who())).json()["threads"]]


async def test_learning_documents_rename_delete_and_same_topic(api: Any) -> None:
    first = await say(api, "我想学习CNC维护", who())
    doc = first["document"]
    assert doc and doc["id"]
    # the same topic again (from the learn page) opens the existing document
    r = await api.post("/v1/learning/documents", json={"topic": "CNC维护"}, headers=who())
    assert r.status_code == 200 and r.json()["id"] == doc["id"] and r.json()["existing"] is True
    listed = (await api.get("/v1/learning/documents", headers=who())).json()["documents"]
    assert [d["id"] for d in listed] == [doc["id"]]
    # another user learning the same topic gets their own; then the first user still finds theirs
    other = await say(api, "我想学习CNC维护", who(client_id=OTHER))
    assert other["document"]["id"] != doc["id"]
    again = await say(api, "我想学习CNC维护", who(), first["thread_id"])
    assert again["document"]["id"] == doc["id"]
    # asked for a new one: a new document
    fresh = await say(api, "重新生成CNC维护", who(), first["thread_id"])
    assert fresh["document"]["id"] != doc["id"]
    # rename/delete: owner only
    url = f"/v1/learning/documents/{doc['id']}"
    assert (await api.patch(url, json={"title": "偷改"}, headers=who(client_id=OTHER))).status_code == 404
    assert (await api.delete(url, headers=who(client_id=OTHER))).status_code == 404
    r = await api.patch(url, json={"title": "我的 CNC 笔记"}, headers=who())
    assert r.status_code == 200 and r.json()["title"] == "我的 CNC 笔记"
    assert (await api.delete(url, headers=who())).json()["deleted"] is True
    assert (await api.get(url, headers=who())).status_code == 404


async def test_feedback_lands_in_the_review_queue(api: Any) -> None:
    turn = await say(api, "零件A的公差是多少？", who())
    tid = turn["thread_id"]
    msgs = (await api.get(f"/v1/threads/{tid}", headers=who())).json()["messages"]
    answer = msgs[-1]
    assert answer["meta"]["trace"], "the stored answer keeps its trace"
    body = {"thread_id": tid, "message_id": answer["id"], "rating": "down", "comment": "不够具体"}
    assert (await api.post("/v1/feedback", json=body, headers=who(client_id=OTHER))).status_code == 404
    r = await api.post("/v1/feedback", json=body, headers=who())
    assert r.status_code == 200
    assert (await api.post("/v1/feedback", json=body, headers=who())).json()["review_id"] == r.json()["review_id"]
    items = (await api.get("/v1/service/reviews", headers=who("demo-agent"))).json()["reviews"]
    item = next(i for i in items if i["id"] == r.json()["review_id"])
    assert item["question"] == "零件A的公差是多少？" and item["answer"] == answer["content"]
    assert item["verdict"] == "user_down" and item["evidence"][0]["comment"] == "不够具体"
    assert item["evidence"][0]["trace"]
    bad = {**body, "message_id": msgs[0]["id"]}
    assert (await api.post("/v1/feedback", json=bad, headers=who())).status_code == 404


async def test_feedback_is_kept_per_person(api: Any) -> None:
    """An agent's 👎 on a customer's answer does not stand in for the customer's own (outside review
    2, finding 11): each person's rating is its own review item; the same person twice is one."""
    turn = await say(api, "零件A的公差是多少？", who("demo-alice", client_id=None))
    tid = turn["thread_id"]
    msgs = (await api.get(f"/v1/threads/{tid}", headers=who("demo-alice", client_id=None))).json()["messages"]
    body = {"thread_id": tid, "message_id": msgs[-1]["id"], "rating": "down"}
    by_agent = await api.post("/v1/feedback", json={**body, "comment": "客服：引用不准"}, headers=who("demo-agent"))
    by_alice = await api.post("/v1/feedback", json={**body, "comment": "我看不懂"}, headers=who("demo-alice"))
    assert by_agent.status_code == by_alice.status_code == 200
    assert by_agent.json()["review_id"] != by_alice.json()["review_id"]
    again = await api.post("/v1/feedback", json={**body, "comment": "我看不懂"}, headers=who("demo-alice"))
    assert again.json()["review_id"] == by_alice.json()["review_id"]
    items = (await api.get("/v1/service/reviews", headers=who("demo-agent"))).json()["reviews"]
    mine = {i["user_id"]: i["evidence"][0]["comment"] for i in items if i["thread_id"] == tid}
    assert mine == {"agent": "客服：引用不准", "alice": "我看不懂"}


async def test_settings_public_and_staff(api: Any) -> None:
    pub = (await api.get("/v1/settings", headers=who())).json()
    assert pub["llm"]["offline"] is True and pub["demo_keys"] is True and pub["detail"] is False
    assert "data_dir" not in pub
    staff = (await api.get("/v1/settings", headers=who("demo-admin"))).json()
    assert staff["detail"] and staff["data_dir"] and staff["index"]["passages"] >= 0
    assert staff["models"]["embedding"]


async def test_reason_given_at_the_amount_step_is_kept_and_prompt_not_repeated(api: Any) -> None:
    h = who("demo-alice")
    tid = (await say(api, "我要退款订单123", h))["thread_id"]
    first = (await say(api, "质量有问题", h, tid))["reply"]
    assert "质量有问题" in first and first.count("要退款多少金额") == 0, first
    done = await say(api, "200", h, tid)
    assert done["interrupted"] and "质量有问题" in done["reply"]


async def test_a_question_at_the_reason_step_is_not_taken_as_the_reason(api: Any) -> None:
    h = who("demo-alice")
    tid = (await say(api, "我要退款订单123", h))["thread_id"]
    await say(api, "200", h, tid)
    asked = await say(api, "差旅报销标准是什么？", h, tid)
    assert not asked["interrupted"] and "原因" in asked["reply"]
    done = await say(api, "坏了", h, tid)
    assert done["interrupted"] and "坏了" in done["reply"]


async def test_reloaded_thread_keeps_the_confirmation_card_and_choice(api: Any) -> None:
    h = who("demo-alice")
    tid = (await say(api, "我要退款订单123", h))["thread_id"]
    await say(api, "200", h, tid)
    await say(api, "质量有问题", h, tid)
    await say(api, "", h, tid, resume={"approved": True})
    msgs = (await api.get(f"/v1/threads/{tid}", headers=h)).json()["messages"]
    cards = [m["meta"]["card"] for m in msgs if m.get("meta", {}).get("card")]
    assert len(cards) == 1 and cards[0]["kind"] == "refund_confirmation"
    assert cards[0]["answered"] == {"approved": True} and cards[0]["amount"] == 200.0
    assert "已执行" in msgs[-1]["content"] and msgs[-1]["meta"]["trace"]


async def test_kb_file_chunks(api: Any) -> None:
    files = (await api.get("/v1/kb/files", headers=who())).json()["files"]
    f = next(x for x in files if x["chunks"])
    r = await api.get("/v1/kb/files/chunks", params={"path": f["path"]}, headers=who())
    chunks = r.json()["chunks"]
    assert r.status_code == 200 and len(chunks) == f["chunks"] and chunks[0]["text"]
    assert [c["start"] for c in chunks] == sorted(c["start"] for c in chunks)
    assert_error_shape(await api.get("/v1/kb/files/chunks", params={"path": "nope.md"}, headers=who()), 404, "not_found")


async def test_ask_route_is_the_cli_json_shape(api: Any) -> None:
    r = await api.post("/v1/ask", json={"question": "零件A的公差是多少？"}, headers=who())
    out = r.json()
    assert r.status_code == 200 and "±0.01" in out["answer"]
    assert {"answer", "verdict", "verdict_reason", "citations", "elapsed_ms", "domain"} <= set(out)
    assert (await api.post("/v1/ask", json={"question": "  "}, headers=who())).status_code == 422
