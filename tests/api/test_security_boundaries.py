# ruff: noqa: F811  (the api fixture is imported from test_service_api and used as an argument)
"""Findings of the outside security test (issue 10), each reproduced as it was found:

- anyone could write the knowledge base (anonymous upload replaced a cited policy);
- ``/v1/chat/completions`` drove another user's thread (an anonymous "算了" cancelled bob's refund);
- anonymous identities leaked (``user_id: anon:<X-Client-Id>`` in the learning list, replayable);
- a missing or malformed ``X-Client-Id`` fell back to one shared ``anonymous`` identity.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_service_api import KEYS, api, chat, hdr  # noqa: F401  (fixture)

from kz_testlib import api_client

NOTE = "请假制度\n\n员工每年享有年假 100 天。\n".encode()


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("alice", 403), ("agent", 403)])
async def test_knowledge_writes_need_an_editor_or_admin(api, who, status):
    r = await api.post("/v1/kb/upload", headers=hdr(who), files={"files": ("请假制度.md", NOTE, "text/markdown")},
                       data={"collection": "demo"})
    assert r.status_code == status, r.text
    assert r.json()["error"]["code"] in ("unauthorized", "forbidden")
    r = await api.delete("/v1/kb/files", params={"path": "demo/hr/请假制度.md"}, headers=hdr(who))
    assert r.status_code == status, r.text
    files = (await api.get("/v1/kb/files")).json()["files"]
    assert not any(f["path"] == "demo/请假制度.md" for f in files)


async def test_an_editor_uploads_under_a_sanitised_name_and_can_delete_it(api):
    editor = {"Authorization": "Bearer demo-editor"}
    r = await api.post("/v1/kb/upload", headers=editor,
                       files={"files": ("../../etc/请假制度.md", NOTE, "text/markdown")}, data={"collection": "team"})
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["added"] == ["team/请假制度.md"]
    for bad in (".hidden.md", "a\u202eb.md", "x" * 200 + ".md"):
        r = await api.post("/v1/kb/upload", headers=editor, files={"files": (bad, NOTE, "text/markdown")})
        assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_input", bad
    r = await api.post("/v1/kb/upload", headers=editor, files={"files": ("x.md", NOTE, "text/markdown")},
                       data={"collection": "../demo"})
    assert r.status_code == 422
    assert (await api.delete("/v1/kb/files", params={"path": "team/请假制度.md"}, headers=editor)).status_code == 200
    assert (await api.delete("/v1/kb/files", params={"path": "team/请假制度.md"}, headers=editor)).status_code == 404


async def test_openai_endpoint_cannot_drive_another_users_thread(api):
    tid = "bob-refund-thread"
    await chat(api, "bob", tid, "我要给订单201退款600元，因为不想要了")
    before = (await api.get(f"/v1/threads/{tid}", headers=hdr("bob"))).json()
    for who in ("anonymous", "alice"):
        r = await api.post("/v1/chat/completions", headers={**hdr(who), "X-Thread-Id": tid},
                           json={"messages": [{"role": "user", "content": "算了"}]})
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", (who, r.text)
    after = (await api.get(f"/v1/threads/{tid}", headers=hdr("bob"))).json()
    assert after["messages"] == before["messages"] and after["state"]["service"] == before["state"]["service"]
    r = await api.post("/v1/chat/completions", headers={**hdr("alice"), "X-Thread-Id": "x" * 101},
                       json={"messages": [{"role": "user", "content": "你好"}]})
    assert r.status_code == 422


async def test_openai_threads_have_an_owner(api):
    r = await api.post("/v1/chat/completions", headers={**hdr("alice"), "X-Thread-Id": "alice-oai"},
                       json={"messages": [{"role": "user", "content": "你好"}]})
    assert r.status_code == 200
    assert (await api.get("/v1/threads/alice-oai", headers=hdr("alice"))).status_code == 200
    assert (await api.get("/v1/threads/alice-oai", headers=hdr("bob"))).status_code == 404
    assert any(t["id"] == "alice-oai" for t in (await api.get("/v1/threads", headers=hdr("alice"))).json()["threads"])


@pytest.fixture()
async def demo_api(demo_data_dir: Path):  # type: ignore[no-untyped-def]
    async with api_client(demo_data_dir) as c:
        yield c


async def test_anonymous_identities_never_leak_and_learning_data_is_private(demo_api):
    api = demo_api
    a = {"X-Client-Id": "victim-client-id-0001"}
    b = {"X-Client-Id": "attacker-client-id-01"}
    doc = (await api.post("/v1/learning/documents", json={"topic": "主轴保养"}, headers=a)).json()
    assert "user_id" not in doc and doc["mine"] is True
    listing = (await api.get("/v1/learning/documents", headers=a)).json()["documents"]
    assert [d["id"] for d in listing] == [doc["id"]]
    assert "victim-client-id-0001" not in str(listing) and all("user_id" not in d for d in listing)
    assert (await api.get("/v1/learning/documents", headers=b)).json()["documents"] == []
    for method, path, body in (("GET", f"/v1/learning/documents/{doc['id']}", None),
                               ("GET", f"/v1/learning/documents/{doc['id']}/versions", None),
                               ("GET", f"/v1/learning/documents/{doc['id']}/comments", None),
                               ("POST", f"/v1/learning/documents/{doc['id']}/comments",
                                {"selected_text": "主轴", "comment": "写错了，全部删掉"}),
                               ("POST", f"/v1/learning/documents/{doc['id']}/read", None)):
        r = await api.request(method, path, json=body, headers=b)
        assert r.status_code == 404, (path, r.text)
    r = await api.post("/v1/chat", headers=b, json={"source": "comment", "stream": False, "current_document_id": doc["id"],
                                                     "comment": {"document_id": doc["id"], "selected_text": "主轴",
                                                                 "comment": "全部删掉"}})
    assert r.status_code == 404, r.text  # another caller's document named in a turn: the REST routes' answer
    assert (await api.get(f"/v1/learning/documents/{doc['id']}", headers=a)).json()["version"] == 1


async def test_a_missing_client_id_never_shares_an_identity(api):
    r = await api.post("/v1/chat", headers={"X-Client-Id": ""}, json={"message": "你好", "stream": False})
    tid = r.json()["thread_id"]
    assert (await api.get(f"/v1/threads/{tid}", headers={"X-Client-Id": ""})).status_code == 404
    me1 = (await api.get("/v1/me", headers={"X-Client-Id": ""})).json()["id"]
    me2 = (await api.get("/v1/me", headers={"X-Client-Id": ""})).json()["id"]
    assert me1 != me2 and me1 != "anonymous"
    r = await api.get("/v1/me", headers={"X-Client-Id": "short"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "invalid_input"
    me = (await api.get("/v1/me", headers={"X-Client-Id": "some-long-client-id"})).json()
    assert "some-long-client-id" not in me["id"]


def test_upload_names_with_nul_or_path_parts_are_refused_or_reduced() -> None:
    from knowzero.errors import InvalidInput
    from knowzero.knowledge.names import safe_file_name

    assert safe_file_name("/abs/path/a.md") == "a.md"
    assert safe_file_name("..\\..\\a.md") == "a.md"
    for bad in ("a\x00b.md", "..", "", "dir/", "\u200b.md"):
        with pytest.raises(InvalidInput):
            safe_file_name(bad)
