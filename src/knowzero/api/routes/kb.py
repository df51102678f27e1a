"""Knowledge base: upload/ingest files, list documents, read a source span, try a search.

Who may call: reading (files, source, search) is open to every caller, like asking a question;
writing (upload, delete) needs an editor or admin account (``EditorUser``, see knowzero.users).
Upload names and collections are sanitised by ``knowledge/names.py`` before they become citations.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from pydantic import BaseModel, Field

from knowzero.api.deps import EditorUser
from knowzero.config import DOMAINS
from knowzero.errors import InvalidInput, NotFound
from knowzero.knowledge.domains import decide
from knowzero.knowledge.names import safe_collection, safe_file_name
from knowzero.knowledge.pipeline import passage_to_dict
from knowzero.knowledge.retriever import Plan, retrieve

router = APIRouter(tags=["knowledge"])
MAX_UPLOAD = 20 * 1024 * 1024
MAX_FILES = 50


@router.post("/v1/kb/upload", summary="Upload files and ingest them (reports per-file results)")
async def upload(request: Request, user: EditorUser, files: list[UploadFile] = File(...),
                 collection: str = Form("uploads"), domain: str = Form("general")) -> dict[str, Any]:
    collection = safe_collection(collection)
    if domain not in DOMAINS:
        raise InvalidInput(f"domain: one of {', '.join(DOMAINS)}", [{"field": "domain", "message": "unknown"}])
    if len(files) > MAX_FILES:
        raise InvalidInput(f"files: at most {MAX_FILES} per upload", [{"field": "files", "message": "too many"}])
    names = [safe_file_name(f.filename) for f in files]
    kb = request.app.state.kb
    results = []
    for f, name in zip(files, names, strict=True):
        data = await f.read(MAX_UPLOAD + 1)
        if len(data) > MAX_UPLOAD:
            results.append({"file": name, "failed": [{"path": name, "error": "larger than 20 MB"}]})
            continue
        report = await asyncio.to_thread(kb.ingest_bytes, name, data, collection=collection, domain=domain)
        results.append({"file": name, **report.to_dict()})
    return {"results": results}


@router.delete("/v1/kb/files", summary="Delete an ingested document (editors and admins)",
               responses={404: {"description": "no such document"}})
async def delete_file(request: Request, user: EditorUser, path: str) -> dict[str, Any]:
    kb = request.app.state.kb
    if not await asyncio.to_thread(kb.delete_file, path):
        raise NotFound("no such document")
    return {"deleted": path}


@router.get("/v1/kb/files", summary="Ingested documents with their chunk counts")
async def files(request: Request) -> dict[str, Any]:
    kb = request.app.state.kb
    kb.refresh()
    items = kb.list_files()
    collections: dict[str, int] = {}
    for it in items:
        collections[it["collection"]] = collections.get(it["collection"], 0) + 1
    return {"files": items, "collections": collections}


@router.get("/v1/kb/source", summary="A source document's text (for opening a citation)")
async def source(request: Request, path: str, start: int | None = None, end: int | None = None) -> dict[str, Any]:
    kb = request.app.state.kb
    text = kb.file_texts.get(path)
    if text is None:
        raise NotFound("no such source")
    if start is not None and end is not None and not (0 <= start <= end <= len(text)):
        raise InvalidInput("start/end are outside the document")
    return {"path": path, "text": text, "start": start, "end": end}


class SearchBody(BaseModel):
    query: str = Field(min_length=1, max_length=2000)
    top_k: int = Field(default=8, ge=1, le=50)
    strategy: str = Field(default="hybrid", pattern="^(hybrid|keyword|vector|sql)$")


@router.post("/v1/kb/search", summary="Hybrid retrieval with fused scores (no answer)")
async def search(request: Request, body: SearchBody) -> dict[str, Any]:
    kb = request.app.state.kb
    kb.refresh()
    d = decide(body.query, sql_available=kb.sql is not None)
    plan = Plan(domain=d.domain, strategy=body.strategy, top_k=body.top_k,  # type: ignore[arg-type]
                weights=request.app.state.settings.fusion_weights.get(d.domain, {}))
    r = await asyncio.to_thread(retrieve, kb, body.query, plan, budget_chars=100000)
    return {"query": body.query, "domain": d.domain, "entities": r.entities, "elapsed_ms": round(r.elapsed_ms, 2),
            "per_retriever": r.per_retriever, "passages": [passage_to_dict(s) for s in r.passages]}


@router.get("/v1/kb/files/chunks", summary="One document's chunks in order (the knowledge-base page's chunk view)",
            responses={404: {"description": "no such document"}})
async def file_chunks(request: Request, path: str) -> dict[str, Any]:
    kb = request.app.state.kb
    kb.refresh()
    chunks = sorted((p for p in kb.passages.values() if p.path == path), key=lambda p: (p.start, p.id))
    if not chunks and path not in kb.file_texts:
        raise NotFound("no such document")
    return {"path": path, "chunks": [{"id": p.id, "section": p.section, "start": p.start, "end": p.end,
                                      "text": p.text, "kind": "table_row" if p.id.startswith("sql:") else "chunk"}
                                     for p in chunks]}
