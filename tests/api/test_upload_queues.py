"""An upload is keyword-searchable when the request returns and its embeddings are queued, never
computed inside the API request (issue 11); a worker then embeds them."""

from __future__ import annotations

import pytest
from httpx import ASGITransport, AsyncClient

NOTE = "# 刀具寿命\n\n硬质合金铣刀每加工 800 件须检查刃口磨损，磨损量超过 0.2mm 即更换。\n".encode()


@pytest.fixture()
async def client(tmp_path, monkeypatch):
    monkeypatch.setenv("KNOWZERO_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("KNOWZERO_DEMO_KEYS", "1")
    monkeypatch.setenv("KNOWZERO_EMBED_IN_SERVER", "false")  # no background embedder: the queue stays visible
    monkeypatch.delenv("KNOWZERO_DATABASE_URL", raising=False)
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys
    from knowzero.wiring import build_deps

    deps = build_deps(Settings(), provider=None, classifier=False)
    announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    app = create_app(deps.settings, warm=False, deps=deps)
    async with app.router.lifespan_context(app):
        async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test", timeout=60) as c:
            c.app = app  # type: ignore[attr-defined]
            yield c


async def test_upload_is_searchable_at_once_and_queues_its_embeddings(client) -> None:
    r = await client.post("/v1/kb/upload", headers={"Authorization": "Bearer demo-editor"},
                          files={"files": ("刀具寿命.md", NOTE, "text/markdown")}, data={"collection": "team"})
    assert r.status_code == 200, r.text
    res = r.json()["results"][0]
    assert res["added"] == ["team/刀具寿命.md"] and res["embedded"] == 0 and res["queued"] == res["chunks"] >= 1

    files = (await client.get("/v1/kb/files")).json()
    doc = next(f for f in files["files"] if f["path"] == "team/刀具寿命.md")
    assert doc["status"] == "searchable" and doc["embedded_chunks"] == 0
    hits = (await client.post("/v1/kb/search", json={"query": "铣刀 刃口磨损 更换"})).json()
    assert any(p["source"] == "team/刀具寿命.md" for p in hits["passages"]), hits

    kb = client.app.state.kb
    assert kb.embed_pending() == res["queued"]  # what `knowzero worker` does
    doc = next(f for f in (await client.get("/v1/kb/files")).json()["files"] if f["path"] == "team/刀具寿命.md")
    assert doc["status"] == "embedded"
