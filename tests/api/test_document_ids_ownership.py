"""Issue 25, finding 3: a learning-document id that arrives in any field of any entry point passes the
same ownership check as the REST routes (bob named alice's private document as the ``source_document_id``
of an entity turn and his page was filed under hers), and entity links never hand out the id of a page
the caller may not read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kz_testlib import api_client, assert_error_shape, copy_data_dir

ALICE = {"X-Client-Id": "ownership-alice-0001"}
BOB = {"X-Client-Id": "ownership-bob-00001"}


async def _generate(client: Any, headers: dict[str, str], topic: str) -> dict[str, Any]:
    r = await client.post("/v1/learning/documents", json={"topic": topic, "new": True}, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


@pytest.fixture()
def data_dir(demo_data_dir: Path, tmp_path: Path) -> Path:
    return copy_data_dir(demo_data_dir, tmp_path / "kz")


@pytest.mark.parametrize("field", ["source_document_id", "current_document_id", "recent_document_ids", "comment"])
async def test_a_chat_turn_cannot_name_another_users_document(data_dir: Path, field: str) -> None:
    async with api_client(data_dir) as client:
        hers = (await _generate(client, ALICE, "请假制度"))["id"]
        assert hers
        body: dict[str, Any] = {"source": "entity", "entity": "婚假", "stream": False}
        if field == "recent_document_ids":
            body[field] = [hers]
        elif field == "comment":
            body = {"source": "comment", "stream": False,
                    "comment": {"selected_text": "年假", "comment": "请举个例子", "document_id": hers}}
        else:
            body[field] = hers
        r = await client.post("/v1/chat", json=body, headers=BOB)
        assert_error_shape(r, 404, "not_found")
        # nothing of bob's was filed under alice's document
        children = (await client.get(f"/v1/learning/documents/{hers}", headers=ALICE)).json().get("children", [])
        assert children == []
        mine = (await client.get("/v1/learning/documents", headers=BOB)).json()["documents"]
        assert all(d.get("parent_id") != hers for d in mine)
        # the owner may name her own document
        r = await client.post("/v1/chat", json=body, headers=ALICE)
        assert r.status_code == 200, r.text


async def test_entity_links_never_reveal_another_users_page(data_dir: Path) -> None:
    async with api_client(data_dir) as client:
        alices = {(await _generate(client, ALICE, t))["id"] for t in ("年假", "病假", "婚假", "产假")}
        assert None not in alices
        doc = await _generate(client, BOB, "请假制度")
        mine = {d["id"] for d in (await client.get("/v1/learning/documents", headers=BOB)).json()["documents"]}
        linked = {e.get("document_id") for e in doc.get("entities", [])}
        read = (await client.get(f"/v1/learning/documents/{doc['id']}", headers=BOB)).json()
        linked |= {e.get("document_id") for e in read.get("entities", [])}
        assert doc.get("entities"), "the document names some entities"
        assert not (linked & alices), "a link handed out the id of alice's private page"
        assert linked - {None} <= mine
        entities = (await client.get("/v1/learning/entities", headers=BOB)).json()
        assert not ({e.get("document_id") for e in entities.get("entities", [])} & alices)
