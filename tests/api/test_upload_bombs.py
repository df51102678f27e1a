"""Uploads that expand far past their size (security finding 4): refused with 413 ``too_large`` (or
422 for a DTD) in the one error shape, nothing of the upload stored, while ``/healthz`` keeps
answering — each file is parsed in a worker process with a time and memory limit
(knowledge/ingest/parse_worker.py), never in the server's own heap. A damaged file is still a per-file
failure of a 200, and real documents are still ingested.

Before: the finding's 45 KB DOCX (5M empty paragraphs) held an upload for 131 s and 2 GB RSS and
pushed /healthz to 7.5 s.
"""

from __future__ import annotations

import asyncio
import io
import random
import time
import zipfile
from typing import Any

import pytest

from knowzero.knowledge.ingest import parse_worker
from knowzero.service.identity import announce_keys
from kz_testlib import DATA, api_client

EDITOR = {"Authorization": "Bearer demo-editor"}
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def docx(body: str, head: str = "") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml",
                   '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Override PartName="/word/document.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>')
        z.writestr("_rels/.rels",
                   '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Target="word/document.xml" '
                   'Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"/>'
                   '</Relationships>')
        z.writestr("word/document.xml", f'{head}<w:document xmlns:w="{W}"><w:body>{body}</w:body></w:document>')
    return buf.getvalue()


@pytest.fixture()
async def api(tmp_path):
    async with api_client(tmp_path / "data", demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def upload(api: Any, *files: tuple[str, bytes]) -> Any:
    return await api.post("/v1/kb/upload", headers=EDITOR, data={"collection": "uploads"},
                          files=[("files", (name, data, "application/octet-stream")) for name, data in files])


async def upload_watching_health(api: Any, *files: tuple[str, bytes]) -> tuple[Any, float]:
    """The upload's response, and the slowest /healthz answer while it ran (polled every 50 ms)."""
    task = asyncio.create_task(upload(api, *files))
    slowest = 0.0
    while True:
        t0 = time.perf_counter()
        r = await api.get("/healthz")
        slowest = max(slowest, time.perf_counter() - t0)
        assert r.status_code == 200, r.text
        if task.done():
            return task.result(), slowest
        await asyncio.sleep(0.05)


async def stored(api: Any) -> set[str]:
    return {f["path"] for f in (await api.get("/v1/kb/files")).json()["files"]}


async def test_the_findings_docx_is_refused_413_and_healthz_keeps_answering(api) -> None:
    bomb = docx("<w:p/>" * 5_000_000)
    assert len(bomb) < 60_000
    t0 = time.perf_counter()
    r, slowest = await upload_watching_health(api, ("bomb.docx", bomb))
    assert time.perf_counter() - t0 < 10 and slowest < 1.0
    assert r.status_code == 413, r.text
    err = r.json()["error"]
    assert err["code"] == "too_large" and err["message"].startswith("bomb.docx: a member (word/document.xml) compressed")
    assert err["details"] == [{"file": "bomb.docx", "error": err["message"], "limit": "MAX_ZIP_RATIO", "max": 200}]
    assert "uploads/bomb.docx" not in await stored(api)
    assert (await api.get("/healthz")).status_code == 200


async def test_a_runaway_parse_is_killed_at_its_time_limit(api, monkeypatch: pytest.MonkeyPatch) -> None:
    """A DOCX under every count limit that still takes seconds: its worker is killed at PARSE_SECONDS."""
    monkeypatch.setattr(parse_worker, "PARSE_SECONDS", 0.3)
    rng = random.Random(7)
    slow = docx("".join(f"<w:p><w:r><w:t>clause {rng.random():.12f}</w:t></w:r></w:p>" for _ in range(99_000)))
    r, slowest = await upload_watching_health(api, ("slow.docx", slow))
    assert r.status_code == 413, r.text
    err = r.json()["error"]
    assert err["code"] == "too_large" and err["message"].startswith("slow.docx: took longer than 0.3 seconds")
    assert err["details"][0]["limit"] == "PARSE_SECONDS" and slowest < 1.0


async def test_one_bomb_refuses_the_whole_upload_naming_each(api) -> None:
    good = "# 刀具寿命\n\n硬质合金铣刀每加工 800 件须检查刃口磨损。\n".encode()
    html = ("<html><body>" + "<p></p>" * 2_500_000).encode()  # 17.5 MB: under the 20 MB upload cap
    wide = b"a" + b"," * 2_000_000 + b"\n1\n"
    r = await upload(api, ("good.md", good), ("page.html", html), ("wide.csv", wide))
    assert r.status_code == 413, r.text
    err = r.json()["error"]
    assert [(d["file"], d["limit"]) for d in err["details"]] == [("page.html", "MAX_HTML_ELEMENTS"),
                                                                 ("wide.csv", "MAX_CSV_LINE_CHARS")]
    assert err["message"].endswith("(2 of 3 files refused: nothing from this upload was stored)")
    assert not {"uploads/good.md", "uploads/page.html", "uploads/wide.csv"} & await stored(api)


async def test_xml_entities_in_a_docx_are_refused_422(api) -> None:
    lol = '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    r = await upload(api, ("lol.docx", docx("<w:p><w:r><w:t>&b;</w:t></w:r></w:p>", head=lol)))
    assert r.status_code == 422, r.text
    err = r.json()["error"]
    assert err["code"] == "ingest_error" and "declares a DTD or XML entities" in err["message"]
    assert err["details"] == [{"file": "lol.docx", "error": err["message"]}]


async def test_real_documents_are_ingested_and_a_damaged_one_is_still_a_per_file_failure(api) -> None:
    files = [(n, (DATA / n).read_bytes()) for n in ("sample.docx", "sample.pdf", "products.csv", "corrupt.pdf")]
    r = await upload(api, *files)
    assert r.status_code == 200, r.text
    results = {x["file"]: x for x in r.json()["results"]}
    for name in ("sample.docx", "sample.pdf", "products.csv"):
        assert results[name]["added"] == [f"uploads/{name}"] and results[name]["failed"] == []
    assert results["corrupt.pdf"]["failed"][0]["error"].startswith("corrupt.pdf: corrupt or unreadable PDF")
