# ruff: noqa: F811  (pytest fixtures imported from test_learning_kb are redefined as arguments)
"""Learning API: documents, versions, diffs, comments with anchor status, entities, paths, topics."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from test_learning_kb import kb  # noqa: F401  (fixture)

from knowzero.api.ratelimit import AnonymousLimits
from knowzero.api.routes.learning import router
from knowzero.config import Settings
from knowzero.errors import KnowZeroError
from knowzero.graph.context import Deps
from knowzero.learning.service import LearningService
from knowzero.service.store import SqlStore


@pytest.fixture()
def client(kb, tmp_path: Path):  # type: ignore[no-untyped-def]  # noqa: F811
    app = FastAPI()
    app.state.settings = Settings(data_dir=tmp_path, database_url="")
    app.state.kb = kb
    app.state.deps = Deps(settings=app.state.settings, kb=kb, store=SqlStore(kb.engine),
                          learning=LearningService(kb.engine, kb=kb, settings=app.state.settings))
    app.state.limits = AnonymousLimits("", "")  # the router alone, without create_app: no rate limits

    @app.exception_handler(KnowZeroError)
    async def _err(_: Request, exc: KnowZeroError) -> JSONResponse:
        return JSONResponse(exc.to_dict(), status_code=exc.status)

    app.include_router(router)
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t",
                             headers={"X-Client-Id": "learner-0000000001"})


async def test_document_lifecycle_over_http(client: httpx.AsyncClient) -> None:
    async with client:
        r = await client.post("/v1/learning/documents", json={"topic": "主轴保养"})
        assert r.status_code == 200
        doc = r.json()
        did = doc["id"]
        sec = next(s for s in doc["sections"] if s["kind"] == "detail")
        sel = sec["citations"][0]["quote"][:10]
        r = await client.post(f"/v1/learning/documents/{did}/comments",
                              json={"selected_text": sel, "comment": "详细点", "section_id": sec["id"]})
        assert r.status_code == 200 and r.json()["changed"] is True
        assert "user_id" not in r.json()["comment"] and "user_id" not in r.json()["document"]  # never an owner's id
        assert r.json()["comment"]["mine"] is True
        assert [v["version"] for v in (await client.get(f"/v1/learning/documents/{did}/versions")).json()["versions"]] == [1, 2]
        d = (await client.get(f"/v1/learning/documents/{did}/diff", params={"from_version": 1})).json()
        assert d["to"] == 2 and d["added"] > 0
        comments = (await client.get(f"/v1/learning/documents/{did}/comments")).json()["comments"]
        assert comments[0]["anchor"]["status"] == "anchored"
        assert (await client.get("/v1/learning/documents")).json()["documents"][0]["id"] == did
        ents = (await client.get("/v1/learning/entities", params={"q": "主轴保养"})).json()["entities"]
        assert any(e["document_id"] == did for e in ents)
        assert (await client.get("/v1/learning/entities/主轴保养")).json()["exists"] is True
        p = (await client.post("/v1/learning/paths", json={"goal": "系统地学习主轴"})).json()
        assert (await client.get(f"/v1/learning/paths/{p['id']}")).json()["steps"]
        assert (await client.post("/v1/learning/topics", json={"topic": "主轴保养"})).status_code == 200
        assert (await client.get("/v1/learning/topics")).json()["topics"][0]["topic"] == "主轴保养"


async def test_errors_use_the_one_shape(client: httpx.AsyncClient) -> None:
    async with client:
        r = await client.get("/v1/learning/documents/missing")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
        r = await client.get("/v1/learning/documents/missing/diff", params={"from_version": 0, "to_version": 1})
        assert r.status_code in (404, 422)


def test_a_question_comment_is_asked_about_the_selection_only_when_it_points_at_it() -> None:
    """One rule for both comment paths (REST and chat): "这里说的…" is about the selected text."""
    from knowzero.learning.service import comment_question

    assert comment_question("主轴预热10分钟", "这里说的预热要多久？") == "主轴预热10分钟 这里说的预热要多久？"
    assert comment_question("主轴预热10分钟", "What does this mean?") == "主轴预热10分钟 What does this mean?"
    assert comment_question("主轴预热10分钟", "普通员工在一类城市每晚住宿上限是多少？") == "普通员工在一类城市每晚住宿上限是多少？"


async def test_a_document_asked_over_http_may_name_its_collections(client: httpx.AsyncClient) -> None:
    async with client:
        r = await client.post("/v1/learning/documents", json={"topic": "主轴保养", "collections": ["no such kb"]})
        assert r.status_code == 422  # a collection name is a name, never SQL or a path
        r = await client.post("/v1/learning/documents", json={"topic": "主轴保养", "new": True, "collections": ["elsewhere"]})
        assert r.status_code == 200 and r.json()["status"] == "insufficient", r.json()  # nothing in that collection
        r = await client.post("/v1/learning/documents", json={"topic": "主轴保养", "new": True,
                                                              "collections": sorted(_collections(client))})
        assert r.status_code == 200 and r.json()["status"] == "ready"


def _collections(client: httpx.AsyncClient) -> set[str]:
    app = client._transport.app  # type: ignore[attr-defined]
    return set(app.state.deps.learning.kb.collections)
