"""Two open items of the last review (issue 10):

- every refusal or error a Chinese conversation shows is Chinese (it was "please sign in to use this
  service" inside a Chinese reply of the safe-mode loop, English store messages after a refund race,
  English learning errors, English stop reasons);
- the service path's knowledge detour is checked like the knowledge path, and says so: its verdict
  and citations go out with the reply, in the events and in the stored message.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from knowzero.config import Settings
from knowzero.errors import Conflict
from knowzero.graph.nodes.react import STOP_ZH, Monitor
from knowzero.persistence.db import make_engine
from knowzero.service.identity import announce_keys
from knowzero.service.registry import ToolContext, run_tool
from knowzero.service.store import SqlStore, seed_demo
from kz_testlib import SMALL_DOCS, api_client, make_kb

ENGLISH = re.compile(r"[A-Za-z]{3,}(?:\s+[A-Za-z]{2,}){1,}")
"""Two or more English words in a row (ids like RF-…, XH-1001 or "API key" alone are not sentences)."""
ALICE = {"Authorization": "Bearer demo-alice"}


def english_in(text: str) -> list[str]:
    return [m for m in ENGLISH.findall(text) if m != "API key"]


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("lang") / "kz"
    make_kb(d, SMALL_DOCS).engine.dispose()
    return d


async def _chat(client: Any, thread: str, message: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = await client.post("/v1/chat", json={"message": message, "stream": False, "thread_id": thread}, headers=headers or {})
    assert r.status_code == 200, r.text
    return r.json()


async def test_chinese_conversations_get_chinese_refusals_and_the_detour_has_its_verdict(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)

        # the safe-mode loop, anonymous: the order step is refused, in Chinese
        body = await _chat(client, "lang-react", "查一下我的订单，然后告诉我年假有几天")
        assert body["path"] == "react"
        assert "登录" in body["reply"] and not english_in(body["reply"]), body["reply"]

        # the service flow's knowledge detour while a refund is being collected
        await _chat(client, "detour", "我要退款", ALICE)
        body = await _chat(client, "detour", "年假有几天？", ALICE)
        assert body["path"] == "service"
        assert "5天带薪年假" in body["reply"] and "哪个订单" in body["reply"]
        assert body["verdict"] is not None and body["verdict"]["level"] == "confirmed", body["verdict"]
        assert [c["source"] for c in body["citations"]] == ["kbdocs/hr/请假制度.md"]
        assert "[1]" in body["reply"]
        types = [e["type"] for e in body["events"]]
        assert "verdict" in types and "retrieval" in types
        done = next(e["data"] for e in body["events"] if e["type"] == "done")
        assert done["verdict"] == "confirmed" and done["citations"] == body["citations"]
        stored = (await client.get("/v1/threads/detour", headers=ALICE)).json()["messages"][-1]
        assert stored["meta"]["verdict"] == "confirmed" and stored["meta"]["citations"]

        # a turn with no detour carries no verdict (it is per turn)
        body = await _chat(client, "detour", "订单125", ALICE)
        assert body["verdict"] is None and body["citations"] == []


def _ctx(store: SqlStore, user: str, role: str, **kw: Any) -> ToolContext:
    return ToolContext(user, role, "t-lang", Settings(), store, store, "zh", **kw)


def test_every_tool_refusal_follows_the_conversation_language(tmp_path: Path) -> None:
    store = SqlStore(make_engine(Settings(data_dir=tmp_path).db_url))
    seed_demo(store, fixed_keys=True)
    refusals = {
        "unknown tool": run_tool("no_such_tool", {}, _ctx(store, "alice", "customer")),
        "anonymous": run_tool("list_my_orders", {}, _ctx(store, "anon:x", "anonymous")),
        "invalid arguments": run_tool("get_order_status", {"order_id": ""}, _ctx(store, "alice", "customer")),
        "not confirmed": run_tool("request_refund", {"order_id": "125", "amount": 10, "reason": "坏了",
                                                      "idempotency_key": "t-lang:1:request_refund"},
                                  _ctx(store, "alice", "customer")),
    }
    for what, result in refusals.items():
        assert not result["ok"], what
        msg = result["error"]["message"]
        assert re.search(r"[\u4e00-\u9fff]", msg) and not english_in(msg), (what, msg)


class RacingStore(SqlStore):
    """The real store, with another refund of the same order landing between the check and the write."""

    def create_refund(self, **kw: Any) -> dict[str, Any]:
        if not kw["key"].startswith("other:"):
            super().create_refund(**{**kw, "key": "other:" + kw["key"], "amount_cents": 100, "status": "pending"})
        return super().create_refund(**kw)


def test_a_refund_race_is_refused_in_chinese(tmp_path: Path) -> None:
    store = RacingStore(make_engine(Settings(data_dir=tmp_path).db_url))
    seed_demo(store, fixed_keys=True)
    args = {"order_id": "125", "amount": 10, "reason": "不想要了", "idempotency_key": "t-lang:2:request_refund"}
    result = run_tool("request_refund", args, _ctx(store, "alice", "customer", confirmed_by="alice"))
    assert not result["ok"] and result["error"]["code"] == Conflict.code
    msg = result["error"]["message"]
    assert "处理中的退款" in msg and not english_in(msg), msg


def test_every_stop_reason_of_the_loop_has_its_chinese_text() -> None:
    reasons = set()
    for steps in (["a", "a"], ["a", "b", "a", "b"], ["a", "b", "a", "c", "a"]):
        m = Monitor()
        for s in steps:
            ok, why = m.allow(s)
            if not ok:
                reasons.add(why)
                break
    assert reasons == {"repeated step", "ping-pong between two steps", "step already tried twice"}
    assert reasons | {"step limit", "time limit"} <= set(STOP_ZH)


ZH_UI = {"Accept-Language": "zh-CN,zh;q=0.9"}  # what the web UI sends in Chinese
EN_UI = {"Accept-Language": "en"}


async def test_a_message_without_a_language_of_its_own_is_answered_in_the_uis(data_dir: Path) -> None:
    """The server learns the UI's language from Accept-Language (validated into AgentInput once): a
    part number, a ticket number or a bare number gets its reply or refusal in it, on every path."""
    async with api_client(data_dir, demo_keys="1") as client:
        for ui, headers in (("zh", ZH_UI), ("en", EN_UI)):
            # not in the documents: the knowledge pipeline's refusal (the safe-mode loop's step)
            body = await _chat(client, f"part-{ui}", "XH-1005?", headers)
            assert ("没有足够的信息" in body["reply"]) == (ui == "zh"), body["reply"]
            assert ("does not contain the answer" in body["reply"]) == (ui == "en"), body["reply"]
            # a ticket number, anonymous: the service path's sign-in refusal
            body = await _chat(client, f"ticket-{ui}", "TK-0123456789", headers)
            assert body["path"] == "service"
            assert ("请先登录" in body["reply"]) == (ui == "zh") and ("Please sign in" in body["reply"]) == (ui == "en")
            # a bare number: chitchat; a lone code: the clarifying question
            body = await _chat(client, f"num-{ui}", "123", headers)
            assert body["path"] == "chitchat" and bool(english_in(body["reply"])) == (ui == "en"), body["reply"]
            body = await _chat(client, f"code-{ui}", "XH-9999?", headers)
            assert body["path"] == "clarify" and body["reply"].startswith("我想确认" if ui == "zh" else "To be sure")

        # a message with its own language keeps it whatever the UI says
        body = await _chat(client, "own-zh", "零件Z-XH-4040的保修期是多久？", EN_UI)
        assert not english_in(body["reply"]), body["reply"]
        body = await _chat(client, "own-en", "TK-0123456789 status please", ZH_UI)
        assert "Please sign in" in body["reply"]
        # the body may say it itself (it wins over the header); anything but zh/en is a 422
        r = await client.post("/v1/chat", json={"message": "TK-0123456789", "stream": False, "ui_language": "en"},
                              headers=ZH_UI)
        assert r.status_code == 200 and "Please sign in" in r.json()["reply"]
        r = await client.post("/v1/chat", json={"message": "TK-0123456789", "stream": False, "ui_language": "fr"})
        assert r.status_code == 422 and r.json()["error"]["details"][0]["field"] == "ui_language"
        # without the header (a script, curl) nothing changes: the path's own default
        body = await _chat(client, "no-ui", "TK-0123456789")
        assert "请先登录" in body["reply"]
