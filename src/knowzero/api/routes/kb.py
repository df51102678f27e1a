"""Knowledge base: upload/ingest files, list documents, read a source span, try a search.

Who may call: reading (files, source, search) is open to every caller, like asking a question;
writing (upload, delete) needs an editor or admin account (``EditorUser``, see knowzero.users).
Upload names and collections are sanitised by ``knowledge/names.py`` before they become citations.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, File, Form, Request, UploadFile
from pydantic import BaseModel, ConfigDict, Field

from knowzero.api.access import ANYONE, KB_WRITER, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import EditorUser
from knowzero.config import DOMAINS, Domain
from knowzero.errors import InvalidInput, NotFound
from knowzero.input import Integral
from knowzero.knowledge.domains import decide
from knowzero.knowledge.names import COLLECTION_PATTERN, safe_collection, safe_file_name
from knowzero.knowledge.pipeline import passage_to_dict
from knowzero.knowledge.retriever import Plan, retrieve

router = APIRouter(tags=["knowledge"], route_class=SafeRoute)
MAX_UPLOAD = 20 * 1024 * 1024
MAX_FILES = 50


@router.post("/v1/kb/upload", summary="Upload files: searchable at once, embeddings queued (per-file results)", **access(KB_WRITER))
async def upload(request: Request, user: EditorUser, files: list[UploadFile] = File(..., min_length=1),
                 collection: str = Form("uploads", pattern=f"^({COLLECTION_PATTERN.strip('^$')})?$",
                                        description="empty or absent: uploads"),
                 domain: Domain = Form("general")) -> dict[str, Any]:
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
        # Searchable by keyword (and SQL) when this returns; the dense vectors are queued for the
        # embedding workers like a CLI ingest's (`knowzero worker`, or the server's own thread), so an
        # upload never holds an API worker for the model (issue 11). ``queued`` says how many.
        report = await asyncio.to_thread(kb.ingest_bytes, name, data, collection=collection, domain=domain,
                                         embed=False)
        flagged = [c for path in (*report.added, *report.updated) for c in kb.flags_for(path)["flagged_chunks"]]
        results.append({"file": name, **report.to_dict(), "flags": ["instructions"] if flagged else [],
                        "flagged_chunks": flagged})
    return {"results": results}


@router.delete("/v1/kb/files", summary="Delete an ingested document (editors and admins)",
               **access(KB_WRITER, errors=(404,)))
async def delete_file(request: Request, user: EditorUser, path: str) -> dict[str, Any]:
    kb = request.app.state.kb
    if not await asyncio.to_thread(kb.delete_file, path):
        raise NotFound("no such document")
    return {"deleted": path}


@router.get("/v1/kb/files", summary="Ingested documents: chunk counts and status (searchable, embedded, failed)",
            **access(ANYONE))
async def files(request: Request) -> dict[str, Any]:
    """Each document's ``status``: ``searchable`` (keyword and SQL search now; ``embedded_chunks`` of
    ``chunks`` have their dense vector), ``embedded`` (all have), or ``failed`` with ``error`` (its last
    ingest failed). ``embeddings``: jobs still queued for the embedding workers, and given up."""
    kb = request.app.state.kb
    kb.refresh()
    items = kb.list_files()
    collections: dict[str, int] = {}
    for it in items:
        if it["collection"] is not None:
            collections[it["collection"]] = collections.get(it["collection"], 0) + 1
    return {"files": items, "collections": collections, "embeddings": kb.embedding_status()}


@router.get("/v1/kb/source", summary="A source document's text (for opening a citation)", **access(ANYONE, errors=(404,)))
async def source(request: Request, path: str, start: int | None = None, end: int | None = None) -> dict[str, Any]:
    kb = request.app.state.kb
    text = kb.file_texts.get(path)
    if text is None:
        raise NotFound("no such source")
    if start is not None and end is not None and not (0 <= start <= end <= len(text)):
        raise InvalidInput("start/end are outside the document")
    return {"path": path, "text": text, "start": start, "end": end}


class SearchBody(BaseModel):
    model_config = ConfigDict(strict=True)  # top_k: true is not 1
    query: str = Field(min_length=1, max_length=2000)
    top_k: Integral = Field(default=8, ge=1, le=50)
    strategy: str = Field(default="hybrid", pattern="^(hybrid|keyword|vector|sql)$")


@router.post("/v1/kb/search", summary="Hybrid retrieval with fused scores (no answer)", **access(ANYONE, limited=True))
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
            **access(ANYONE, errors=(404,)))
async def file_chunks(request: Request, path: str) -> dict[str, Any]:
    kb = request.app.state.kb
    kb.refresh()
    chunks = sorted((p for p in kb.passages.values() if p.path == path), key=lambda p: (p.start, p.id))
    if not chunks and path not in kb.file_texts:
        raise NotFound("no such document")
    return {"path": path, "chunks": [{"id": p.id, "section": p.section, "start": p.start, "end": p.end,
                                      "text": p.text, "kind": "table_row" if p.id.startswith("sql:") else "chunk"}
                                     for p in chunks]}
