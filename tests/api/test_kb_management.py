"""Knowledge-base management (issue 13): re-index a document, switch it off and on.

A disabled document is listed (``enabled: false``, status ``disabled``, its chunks still viewable)
but never retrieved — not by /v1/kb/search, not by a chat answer — so never cited; enabling it
brings it back, and the choice survives a restart and a re-index. Only editors and admins may do
either (the authorization matrix proves the refusals for every role).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import SMALL_DOCS, api_client, make_kb

EDITOR = {"Authorization": "Bearer demo-editor"}
LEAVE = "kbdocs/hr/请假制度.md"


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "kz"
    make_kb(d, SMALL_DOCS).engine.dispose()
    return d


async def _ask(client: Any, question: str, thread: str) -> dict[str, Any]:
    r = await client.post("/v1/chat", json={"message": question, "stream": False, "thread_id": thread})
    assert r.status_code == 200, r.text
    return r.json()


async def _search_sources(client: Any, query: str) -> set[str]:
    r = await client.post("/v1/kb/search", json={"query": query, "top_k": 20})
    assert r.status_code == 200, r.text
    return {p["source"] for p in r.json()["passages"]}


def _file(files: list[dict[str, Any]], path: str) -> dict[str, Any]:
    return next(f for f in files if f["path"] == path)


async def test_disable_and_enable_a_document(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        body = await _ask(client, "年假有几天？", "before")
        assert [c["source"] for c in body["citations"]] == [LEAVE] and body["verdict"]["level"] == "confirmed"
        assert LEAVE in await _search_sources(client, "年假 带薪")

        r = await client.patch("/v1/kb/files", json={"path": LEAVE, "enabled": False}, headers=EDITOR)
        assert r.status_code == 200 and r.json() == {"path": LEAVE, "enabled": False}
        files = (await client.get("/v1/kb/files")).json()["files"]
        assert _file(files, LEAVE) | {"enabled": False, "status": "disabled"} == _file(files, LEAVE)
        assert _file(files, LEAVE)["chunks"] >= 1
        assert all(f["enabled"] for f in files if f["path"] != LEAVE)
        chunks = (await client.get("/v1/kb/files/chunks", params={"path": LEAVE}, headers=EDITOR)).json()["chunks"]
        assert chunks and "5天带薪年假" in chunks[0]["text"], "its editors can still view a disabled document's chunks"
        assert (await client.get("/v1/kb/files/chunks", params={"path": LEAVE})).status_code == 404, "withdrawn for readers"

        assert LEAVE not in await _search_sources(client, "年假 带薪")
        body = await _ask(client, "年假有几天？", "while-off")
        assert all(c["source"] != LEAVE for c in body["citations"]), body["citations"]
        assert "5天" not in body["reply"]
        assert body["verdict"]["level"] in ("insufficient", "uncertain")
        # the other documents are untouched
        body = await _ask(client, "零件A的公差是多少？", "others")
        assert body["verdict"]["level"] == "confirmed" and "±0.01mm" in body["reply"]

        again = await client.patch("/v1/kb/files", json={"path": LEAVE, "enabled": False}, headers=EDITOR)
        assert again.status_code == 200  # idempotent

    # the choice is stored: a new app on the same data still leaves it out
    async with api_client(data_dir, demo_keys="1") as client:
        assert LEAVE not in await _search_sources(client, "年假 带薪")
        r = await client.patch("/v1/kb/files", json={"path": LEAVE, "enabled": True}, headers=EDITOR)
        assert r.status_code == 200 and r.json()["enabled"] is True
        assert _file((await client.get("/v1/kb/files")).json()["files"], LEAVE)["enabled"] is True
        assert LEAVE in await _search_sources(client, "年假 带薪")
        body = await _ask(client, "年假有几天？", "after")
        assert [c["source"] for c in body["citations"]] == [LEAVE] and body["verdict"]["level"] == "confirmed"


async def test_reindex_picks_up_the_changed_file_and_keeps_the_switch(data_dir: Path) -> None:
    origin = data_dir.parent / f"{data_dir.name}-docs" / "kbdocs" / "hr" / "请假制度.md"
    assert origin.is_file()
    origin.write_text("# 请假制度\n\n## 年假\n\n员工工作满一年后每年享有7天带薪年假，年假需提前三天申请。\n", "utf-8")
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        r = await client.post("/v1/kb/files/reindex", json={"path": LEAVE}, headers=EDITOR)
        assert r.status_code == 200, r.text
        report = r.json()
        assert report["updated"] == [LEAVE] and report["chunks"] >= 1 and report["failed"] == []
        body = await _ask(client, "年假有几天？", "reindexed")
        assert "7天带薪年假" in body["reply"] and body["verdict"]["level"] == "confirmed"

        # a disabled document re-indexed stays disabled
        await client.patch("/v1/kb/files", json={"path": LEAVE, "enabled": False}, headers=EDITOR)
        r = await client.post("/v1/kb/files/reindex", json={"path": LEAVE}, headers=EDITOR)
        assert r.status_code == 200
        assert LEAVE not in await _search_sources(client, "年假 带薪")
        assert _file((await client.get("/v1/kb/files")).json()["files"], LEAVE)["status"] == "disabled"

        # an uploaded document (no file on disk) is re-indexed from its stored text
        up = await client.post("/v1/kb/upload", data={"collection": "notes"}, headers=EDITOR,
                               files={"files": ("班车.md", "# 班车\n\n班车每天早上7点30分从南门发车。\n".encode(), "text/markdown")})
        assert up.status_code == 200, up.text
        r = await client.post("/v1/kb/files/reindex", json={"path": "notes/班车.md"}, headers=EDITOR)
        assert r.status_code == 200 and r.json()["updated"] == ["notes/班车.md"] and r.json()["failed"] == []
        assert "notes/班车.md" in await _search_sources(client, "班车 发车")


@pytest.mark.parametrize("who,status", [({}, 401), ({"Authorization": "Bearer demo-alice"}, 403),
                                        ({"X-API-Key": "demo-agent"}, 403)])
async def test_only_editors_and_admins_manage_documents(data_dir: Path, who: dict[str, str], status: int) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        r = await client.patch("/v1/kb/files", json={"path": LEAVE, "enabled": False}, headers=who)
        assert r.status_code == status and set(r.json()) == {"error"}
        r = await client.post("/v1/kb/files/reindex", json={"path": LEAVE}, headers=who)
        assert r.status_code == status and set(r.json()) == {"error"}
        assert _file((await client.get("/v1/kb/files")).json()["files"], LEAVE)["enabled"] is True
        for path in ("kbdocs/nope.md",):
            r = await client.patch("/v1/kb/files", json={"path": path, "enabled": False}, headers={"Authorization": "Bearer demo-admin"})
            assert r.status_code == 404
            r = await client.post("/v1/kb/files/reindex", json={"path": path}, headers=EDITOR)
            assert r.status_code == 404


async def test_a_file_that_failed_in_ingest_is_listed_and_can_be_removed(data_dir: Path, tmp_path: Path) -> None:
    """Issue 32.5: a file `knowzero ingest` could not read is on the KB screen with its reason, and deleting it
    through the API removes it from the list (it answered 404)."""
    from typer.testing import CliRunner

    from knowzero.cli import app
    from kz_testlib import knowzero_env

    bad = tmp_path / "in" / "broken.pdf"
    bad.parent.mkdir(parents=True)
    bad.write_bytes(b"%PDF-1.7 not really a pdf")
    with knowzero_env(data_dir=str(data_dir), env="test"):
        r = CliRunner().invoke(app, ["ingest", str(bad)])
    assert r.exit_code != 0
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        files = (await client.get("/v1/kb/files")).json()["files"]
        failed = [f for f in files if f["status"] == "failed"]
        assert len(failed) == 1 and failed[0]["error"], files
        path = failed[0]["path"]
        r = await client.delete("/v1/kb/files", params={"path": path}, headers=EDITOR)
        assert r.status_code == 200, r.text
        assert not [f for f in (await client.get("/v1/kb/files")).json()["files"] if f["path"] == path]
        r = await client.delete("/v1/kb/files", params={"path": path}, headers=EDITOR)
        assert r.status_code == 404
