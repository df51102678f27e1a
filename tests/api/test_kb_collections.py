"""Whole-collection actions (issue 27, deliver 1): an editor switches off, back on, or deletes every
document of a collection in one call (``PATCH`` / ``DELETE /v1/kb/collections/{collection}``), built on
the per-document operations; searches then leave the collection out. Editors and admins only;
an unknown collection is 404 and a malformed name 422, in the one error shape."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import SMALL_DOCS, api_client, assert_error_shape, make_kb

EDITOR = {"Authorization": "Bearer demo-editor"}
ADMIN = {"Authorization": "Bearer demo-admin"}
SHUTTLE = "# 班车\n\n班车每天早上7点30分从南门发车，晚上6点返回。\n"
CANTEEN = "# 食堂\n\n员工食堂午餐11点30分开始供应，晚餐5点30分。\n"


@pytest.fixture()
def data_dir(tmp_path: Path) -> Path:
    d = tmp_path / "kz"
    make_kb(d, SMALL_DOCS).engine.dispose()  # collection "default"
    return d


async def _setup(client: Any) -> None:
    announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    r = await client.post("/v1/kb/upload", data={"collection": "notes"}, headers=EDITOR,
                          files=[("files", ("班车.md", SHUTTLE.encode(), "text/markdown")),
                                 ("files", ("食堂.md", CANTEEN.encode(), "text/markdown"))])
    assert r.status_code == 200, r.text


async def _sources(client: Any, query: str) -> set[str]:
    r = await client.post("/v1/kb/search", json={"query": query, "top_k": 20})
    assert r.status_code == 200, r.text
    return {p["source"] for p in r.json()["passages"]}


async def _listing(client: Any) -> dict[str, Any]:
    r = await client.get("/v1/kb/files")
    assert r.status_code == 200, r.text
    return r.json()


async def test_an_editor_disables_enables_and_deletes_a_collection(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        await _setup(client)
        assert {"notes/班车.md", "notes/食堂.md"} & await _sources(client, "班车 食堂 午餐 发车")

        r = await client.patch("/v1/kb/collections/notes", json={"enabled": False}, headers=EDITOR)
        assert r.status_code == 200, r.text
        assert r.json() == {"collection": "notes", "enabled": False, "files": 2}
        listing = await _listing(client)
        notes = [f for f in listing["files"] if f["collection"] == "notes"]
        assert len(notes) == 2 and all(not f["enabled"] and f["status"] == "disabled" for f in notes)
        assert all(f["enabled"] for f in listing["files"] if f["collection"] != "notes"), "other collections untouched"
        assert listing["collections"]["notes"] == 2, "a disabled collection is still listed"
        found = await _sources(client, "班车 食堂 午餐 发车")
        assert not any(s.startswith("notes/") for s in found), found
        assert "kbdocs/hr/请假制度.md" in await _sources(client, "年假 带薪")

        r = await client.patch("/v1/kb/collections/notes", json={"enabled": True}, headers=ADMIN)
        assert r.status_code == 200 and r.json()["enabled"] is True
        assert "notes/班车.md" in await _sources(client, "班车 发车")

        r = await client.delete("/v1/kb/collections/notes", headers=EDITOR)
        assert r.status_code == 200, r.text
        assert r.json() == {"collection": "notes", "deleted": 2}
        listing = await _listing(client)
        assert "notes" not in listing["collections"]
        assert not any(f["collection"] == "notes" for f in listing["files"])
        assert not any(s.startswith("notes/") for s in await _sources(client, "班车 食堂 午餐 发车"))
        assert "kbdocs/technical/零件A-XH-1001工艺说明.md" in await _sources(client, "零件A 公差")

        # deleted: now an unknown collection
        r = await client.delete("/v1/kb/collections/notes", headers=EDITOR)
        assert_error_shape(r, 404, "not_found")


async def test_a_chinese_collection_name(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        r = await client.post("/v1/kb/upload", data={"collection": "行政"}, headers=EDITOR,
                              files={"files": ("班车.md", SHUTTLE.encode(), "text/markdown")})
        assert r.status_code == 200, r.text
        r = await client.patch("/v1/kb/collections/行政", json={"enabled": False}, headers=EDITOR)
        assert r.status_code == 200 and r.json() == {"collection": "行政", "enabled": False, "files": 1}
        assert "行政/班车.md" not in await _sources(client, "班车 发车")


@pytest.mark.parametrize("who,status", [({}, 401), ({"X-Client-Id": "anon-browser-client-01"}, 401),
                                        ({"Authorization": "Bearer demo-alice"}, 403),
                                        ({"X-API-Key": "demo-agent"}, 403)])
async def test_only_editors_and_admins(data_dir: Path, who: dict[str, str], status: int) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        await _setup(client)
        code = {401: "unauthorized", 403: "forbidden"}[status]
        r = await client.patch("/v1/kb/collections/notes", json={"enabled": False}, headers=who)
        assert_error_shape(r, status, code)
        r = await client.delete("/v1/kb/collections/notes", headers=who)
        assert_error_shape(r, status, code)
        listing = await _listing(client)
        assert listing["collections"]["notes"] == 2
        assert all(f["enabled"] for f in listing["files"])


async def test_unknown_is_404_and_malformed_is_422(data_dir: Path) -> None:
    async with api_client(data_dir, demo_keys="1") as client:
        await _setup(client)
        for method, kw in (("PATCH", {"json": {"enabled": False}}), ("DELETE", {})):
            r = await client.request(method, "/v1/kb/collections/no-such-collection", headers=EDITOR, **kw)
            assert_error_shape(r, 404, "not_found")
            for bad in ("a%20b", "x" * 65, "a.b", "notes%E2%80%8B", "%3Cscript%3E"):
                r = await client.request(method, f"/v1/kb/collections/{bad}", headers=EDITOR, **kw)
                assert_error_shape(r, 422, "invalid_input")
        r = await client.patch("/v1/kb/collections/notes", json={"enabled": "no"}, headers=EDITOR)
        assert_error_shape(r, 422, "invalid_input")
        r = await client.patch("/v1/kb/collections/notes", json={"enabled": False, "extra": 1}, headers=EDITOR)
        assert_error_shape(r, 422, "invalid_input")
        assert (await _listing(client))["collections"]["notes"] == 2
        assert all(f["enabled"] for f in (await _listing(client))["files"])


async def test_a_switched_off_document_is_withdrawn_from_readers_but_not_from_its_editors(data_dir: Path) -> None:
    """Disabling withdraws a document: its text and chunks are 404 to anyone who cannot maintain the
    knowledge base (as if it did not exist), and still there for editors, who may switch it back on."""
    async with api_client(data_dir, demo_keys="1") as client:
        await _setup(client)
        for q in ("/v1/kb/source?path=notes/班车.md", "/v1/kb/files/chunks?path=notes/班车.md"):
            assert (await client.get(q)).status_code == 200
        r = await client.patch("/v1/kb/files", json={"path": "notes/班车.md", "enabled": False}, headers=EDITOR)
        assert r.status_code == 200, r.text
        for q in ("/v1/kb/source?path=notes/班车.md", "/v1/kb/files/chunks?path=notes/班车.md"):
            anon = await client.get(q)
            assert anon.status_code == 404, (q, anon.text)
            assert_error_shape(anon, 404, "not_found")
            assert (await client.get(q, headers={"Authorization": "Bearer demo-alice"})).status_code == 404
            assert (await client.get(q, headers=EDITOR)).status_code == 200
        assert (await client.get("/v1/kb/source?path=notes/食堂.md")).status_code == 200, "the other one stays"
