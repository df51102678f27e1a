"""Issue 27, deliver 1: the chat request's ``collections`` scopes the answer (it was accepted and never
reached retrieval), on every entry point, and is remembered by the thread; with none named, the demo
company answers only while it is all the knowledge there is — once a team has its own documents the
demo never answers unasked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import api_client, assert_error_shape, copy_data_dir

EDITOR = {"Authorization": "Bearer demo-editor"}
ACME_LEAVE = """# 星光软件 请假制度

## 年假

员工入职满一年后每年享有7天带薪年假。年假须提前5个工作日在HR系统申请。

## 病假

病假须提交医院证明，每年带薪病假6天。
"""
CANTEEN = "员工食堂的午餐几点开始供应？"


COLLECTION_OF: dict[str, str] = {}


def sources(out: dict[str, Any]) -> set[str]:
    """The collections the answer's citations come from."""
    return {COLLECTION_OF.get(c["source"], "?" + c["source"]) for c in out.get("citations", [])}


async def _learn_collections(client: Any) -> None:
    files = (await client.get("/v1/kb/files")).json()["files"]
    COLLECTION_OF.update({f["path"]: f["collection"] for f in files})


@pytest.fixture()
def data_dir(demo_data_dir: Path, tmp_path: Path) -> Path:
    return copy_data_dir(demo_data_dir, tmp_path / "kz")


async def _upload_acme(client: Any) -> None:
    announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    r = await client.post("/v1/kb/upload", files={"files": ("请假制度.md", ACME_LEAVE.encode(), "text/markdown")},
                          data={"collection": "acme"}, headers=EDITOR)
    assert r.status_code == 200, r.text
    await _learn_collections(client)


async def _chat(client: Any, message: str, **body: Any) -> dict[str, Any]:
    r = await client.post("/v1/chat", json={"message": message, "stream": False, **body})
    assert r.status_code == 200, r.text
    return r.json()


async def test_the_demo_answers_while_it_is_all_there_is(data_dir: Path) -> None:
    async with api_client(data_dir) as client:
        await _learn_collections(client)
        out = await _chat(client, "年假有几天？")
        assert sources(out) == {"demo"}, out["citations"]


async def test_once_a_team_has_its_own_documents_the_demo_never_answers_unasked(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        await _upload_acme(client)
        out = await _chat(client, "年假有几天？")
        assert sources(out) == {"acme"}, out["citations"]
        assert "7天" in out["reply"]
        # the demo company's canteen rule is not the team's: nothing is confirmed from it
        out = await _chat(client, CANTEEN)
        assert "demo" not in sources(out), out["citations"]
        assert (out.get("verdict") or {}).get("level") != "confirmed"
        # asked for by name, the demo answers
        out = await _chat(client, "年假有几天？", collections=["demo"])
        assert sources(out) == {"demo"}, out["citations"]


async def test_named_collections_limit_every_entry_point_and_the_thread_remembers(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        await _upload_acme(client)
        first = await _chat(client, "年假有几天？", collections=["demo"])
        assert sources(first) == {"demo"}
        later = await _chat(client, "病假需要什么证明？", thread_id=first["thread_id"])  # no collections: kept
        assert sources(later) <= {"demo"} and sources(later), later["citations"]
        router = next(e for e in later["agent_log"] if e.get("action") == "route")
        assert router["collections"] == ["demo"]  # shown in the trace
        # an explicit [] clears the thread's choice: the team's own documents again
        cleared = await _chat(client, "年假有几天？", thread_id=first["thread_id"], collections=[])
        assert sources(cleared) == {"acme"}, cleared["citations"]

        r = await client.post("/v1/ask", json={"question": "年假有几天？", "collections": ["acme"]})
        assert r.status_code == 200 and sources(r.json()) == {"acme"}, r.text
        r = await client.post("/v1/ask", json={"question": "年假有几天？", "collections": ["demo"]})
        assert r.status_code == 200 and sources(r.json()) == {"demo"}, r.text

        r = await client.post("/v1/chat/completions", headers={"X-Thread-Id": "oa-collections-1"},
                              json={"messages": [{"role": "user", "content": "年假有几天？"}], "collections": ["demo"]})
        assert r.status_code == 200, r.text
        assert "5天" in r.json()["choices"][0]["message"]["content"]

        # a collection that holds nothing answers nothing from elsewhere
        out = await _chat(client, "年假有几天？", collections=["nothing-here"])
        assert sources(out) == set()


async def test_a_malformed_collection_name_is_refused(data_dir: Path) -> None:
    async with api_client(data_dir) as client:
        r = await client.post("/v1/chat", json={"message": "年假有几天？", "collections": ["../etc"], "stream": False})
        assert_error_shape(r, 422, "invalid_input")
        r = await client.post("/v1/ask", json={"question": "年假有几天？", "collections": ["a b"]})
        assert_error_shape(r, 422, "invalid_input")
