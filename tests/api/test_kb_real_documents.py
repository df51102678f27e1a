"""Uploading real documents (issue 29): a two-column PDF is parsed in a worker process, its file entry
shows pages and tables, its chunks carry their page, and an XLSX upload's sheet is a queryable table."""

from __future__ import annotations

import pytest
from httpx import ASGITransport, AsyncClient

from realdocs import table_xlsx, two_column_pdf

PARA = ("Employees who live more than 50 km from the office may claim a coworking allowance of 120 euros per month, "
        "paid with the salary of the following month.")
FILLER = "Every team keeps its own calendar of office days and shares it with the people team each quarter."
EDITOR = {"Authorization": "Bearer demo-editor"}


@pytest.fixture()
async def client(tmp_path, monkeypatch):
    monkeypatch.setenv("KNOWZERO_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("KNOWZERO_DEMO_KEYS", "1")
    monkeypatch.setenv("KNOWZERO_EMBED_IN_SERVER", "false")
    monkeypatch.delenv("KNOWZERO_DATABASE_URL", raising=False)
    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys
    from knowzero.wiring import build_deps

    deps = build_deps(Settings(), provider=None, classifier=False)
    announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
    app = create_app(deps.settings, warm=False, deps=deps)
    async with app.router.lifespan_context(app):
        async with AsyncClient(transport=ASGITransport(app=app), base_url="http://test", timeout=120) as c:
            yield c


async def test_pdf_upload_lists_pages_and_tables_and_chunks_carry_pages(client) -> None:
    pdf = two_column_pdf([("Coworking", [FILLER] * 20 + [PARA])],
                         tables=[("Rates", [["Grade", "Euros"], ["A", "120"], ["B", "150"]])])
    r = await client.post("/v1/kb/upload", headers=EDITOR, files={"files": ("handbook.pdf", pdf, "application/pdf")},
                          data={"collection": "team"})
    assert r.status_code == 200, r.text
    doc = next(f for f in (await client.get("/v1/kb/files")).json()["files"] if f["path"] == "team/handbook.pdf")
    assert doc["pages"] == 2 and doc["tables"] == 1 and doc["ocr_pages"] == [] and doc["warnings"] == []
    chunks = (await client.get("/v1/kb/files/chunks", params={"path": "team/handbook.pdf"})).json()["chunks"]
    assert {c["page"] for c in chunks} >= {1, 2} and all(c["ocr"] is False for c in chunks)
    assert any(PARA in c["text"] for c in chunks), "the sentence broken over lines and columns is whole"


async def test_xlsx_upload_is_a_table_the_sql_search_answers(client) -> None:
    data = table_xlsx([("Rates", [["Grade", "Monthly euros"], ["A", 120], ["B", 150], ["C", 90]])])
    r = await client.post("/v1/kb/upload", headers=EDITOR, files={"files": ("rates.xlsx", data, "application/octet-stream")},
                          data={"collection": "team"})
    assert r.status_code == 200, r.text
    doc = next(f for f in (await client.get("/v1/kb/files")).json()["files"] if f["path"] == "team/rates.xlsx")
    assert doc["tables"] == 1 and doc["kind"] == "xlsx"
    hits = (await client.post("/v1/kb/search", json={"query": "Which grade has the lowest Monthly euros?",
                                                      "strategy": "sql"})).json()["passages"]
    assert hits and hits[0]["text"].startswith("Grade: C"), hits
