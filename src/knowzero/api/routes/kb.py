"""Knowledge base: upload/ingest files, list documents, read a source span, try a search; manage a
document (re-index it, switch it off and on, delete it) or a whole collection (switch, delete).

Who may call: reading (files, source, search, chunks) is open to every caller, like asking a question;
writing (upload, delete, re-index, enable/disable) needs an editor or admin account (``EditorUser``,
see knowzero.users). A disabled document stays listed (``enabled: false``, status ``disabled``) but is
never retrieved, so never cited, until it is enabled again.
Upload names and collections are sanitised by ``knowledge/names.py`` before they become citations.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, File, Form, Path, Request, UploadFile
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from knowzero.api.access import ANYONE, KB_WRITER, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import CurrentUser, EditorUser
from knowzero.config import DOMAINS, Domain
from knowzero.errors import Conflict, InvalidInput, NotFound
from knowzero.input import integral
from knowzero.knowledge.answer.domains import decide
from knowzero.knowledge.answer.pipeline import passage_to_dict
from knowzero.knowledge.answer.retriever import Plan, retrieve
from knowzero.knowledge.index.tables import kb_files
from knowzero.knowledge.ingest.parse_worker import parse_uploads
from knowzero.knowledge.names import COLLECTION_PATTERN, safe_collection, safe_file_name
from knowzero.users import can_write_knowledge

router = APIRouter(tags=["knowledge"], route_class=SafeRoute)
MAX_UPLOAD = 20 * 1024 * 1024
MAX_FILES = 50
UPLOAD_PATH = "/v1/kb/upload"
"""The one route whose body may be larger than ``max_body_bytes`` (``max_upload_request_bytes``)."""


@router.post(UPLOAD_PATH, summary="Upload files: searchable at once, embeddings queued (per-file results)",
             **access(KB_WRITER, errors=(409,)))
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
    await asyncio.to_thread(refuse_collisions, kb, collection, [f.filename or "" for f in files], names)
    uploads = [(name, await f.read(MAX_UPLOAD + 1)) for f, name in zip(files, names, strict=True)]
    # Each file is parsed in a worker process with a time and memory limit (knowledge/ingest/parse_worker.py), so a
    # decompression bomb never grows this server; one over a parsing limit refuses the upload (413
    # too_large, every such file named) before anything is stored.
    parses = await parse_uploads(uploads, MAX_UPLOAD)
    results = []
    for (name, data), parsed in zip(uploads, parses, strict=True):
        if parsed is None:
            results.append({"file": name, "failed": [{"path": name, "error": "larger than 20 MB"}]})
            continue
        # Searchable by keyword (and SQL) when this returns; the dense vectors are queued for the
        # embedding workers like a CLI ingest's (`knowzero worker`, or the server's own thread), so an
        # upload never holds an API worker for the model. ``queued`` says how many.
        report = await asyncio.to_thread(kb.ingest_bytes, name, data, collection=collection, domain=domain,
                                         embed=False, parsed=parsed)
        flagged = [c for path in (*report.added, *report.updated) for c in kb.flags_for(path)["flagged_chunks"]]
        results.append({"file": name, **report.to_dict(), "flags": ["instructions"] if flagged else [],
                        "flagged_chunks": flagged})
    for r, f in zip(results, files, strict=True):
        if (f.filename or "").strip() != r["file"]:
            r["submitted_as"] = f.filename or ""  # folders are not kept: say which name the file is stored under
    return {"results": results}


def refuse_collisions(kb: Any, collection: str, submitted: list[str], names: list[str]) -> None:
    """Two different upload names must not silently become one stored document (``a/x.csv`` and
    ``b\\x.csv`` are both ``x.csv``): 409 for two files of one upload stored under the same name,
    and for a name whose folders were dropped when a document of that name is already stored. A
    plain re-upload of ``x.csv`` still replaces ``x.csv`` (that is how a document is updated)."""
    seen: dict[str, str] = {}
    for sub, name in zip(submitted, names, strict=True):
        if name in seen:
            raise Conflict(f"two files of this upload would both be stored as {collection}/{name} "
                           f"({seen[name]!r} and {sub!r}; folders are not kept): rename one",
                           details=[{"rule": "duplicate_name", "name": f"{collection}/{name}", "files": [seen[name], sub]}])
        seen[name] = sub
    renamed = {f"{collection}/{name}": sub for sub, name in zip(submitted, names, strict=True) if sub.strip() != name}
    if not renamed:
        return
    with kb.engine.connect() as conn:
        taken = sorted(conn.execute(select(kb_files.c.path).where(kb_files.c.path.in_(list(renamed)))).scalars())
    if taken:
        path = taken[0]
        raise Conflict(f"{path} is already stored, and {renamed[path]!r} would replace it (folders are not kept): "
                       f"rename the file, or upload it as {path.split('/', 1)[1]} to replace that document",
                       details=[{"rule": "name_taken", "name": path, "files": [renamed[path]]}])


@router.delete("/v1/kb/files", summary="Delete an ingested document (editors and admins)",
               **access(KB_WRITER, errors=(404,)))
async def delete_file(request: Request, user: EditorUser, path: str) -> dict[str, Any]:
    kb = request.app.state.kb
    if not await asyncio.to_thread(kb.delete_file, path):
        raise NotFound("no such document")
    return {"deleted": path}


class FileRef(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    path: str = Field(min_length=1, max_length=1000, description="the document's path as /v1/kb/files lists it")


class FileSwitch(FileRef):
    enabled: bool


@router.patch("/v1/kb/files", summary="Enable or disable a document (editors and admins): a disabled one is not "
                                      "retrieved or cited", **access(KB_WRITER, errors=(404,)))
async def switch_file(request: Request, user: EditorUser, body: FileSwitch) -> dict[str, Any]:
    kb = request.app.state.kb
    if not await asyncio.to_thread(kb.set_enabled, body.path, body.enabled, by=user.id):
        raise NotFound("no such document")
    return {"path": body.path, "enabled": body.enabled}


class CollectionSwitch(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    enabled: bool


CollectionParam = Path(pattern=COLLECTION_PATTERN, description="the collection's name as /v1/kb/files lists it")


async def _collection_paths(request: Request, collection: str) -> tuple[str, list[str]]:
    """The collection's (normalised) name and its documents' paths; 404 when it has none."""
    name = safe_collection(collection)
    paths = await asyncio.to_thread(request.app.state.kb.collection_paths, name)
    if not paths:
        raise NotFound("no such collection")
    return name, paths


@router.patch("/v1/kb/collections/{collection}", summary="Enable or disable every document of a collection "
                                                         "(editors and admins)", **access(KB_WRITER, errors=(404,)))
async def switch_collection(request: Request, user: EditorUser, body: CollectionSwitch,
                            collection: str = CollectionParam) -> dict[str, Any]:
    """The per-document switch (``PATCH /v1/kb/files``) for each document of the collection."""
    name, paths = await _collection_paths(request, collection)
    kb = request.app.state.kb
    changed = [p for p in paths if await asyncio.to_thread(kb.set_enabled, p, body.enabled, by=user.id)]
    return {"collection": name, "enabled": body.enabled, "files": len(changed)}


@router.delete("/v1/kb/collections/{collection}", summary="Delete every document of a collection (editors and admins)",
               **access(KB_WRITER, errors=(404,)))
async def delete_collection(request: Request, user: EditorUser, collection: str = CollectionParam) -> dict[str, Any]:
    """The per-document delete (``DELETE /v1/kb/files``) for each document of the collection."""
    name, paths = await _collection_paths(request, collection)
    kb = request.app.state.kb
    deleted = [p for p in paths if await asyncio.to_thread(kb.delete_file, p)]
    return {"collection": name, "deleted": len(deleted)}


@router.post("/v1/kb/files/reindex", summary="Re-index a document: parse (from its file when still there) and "
                                             "chunk it again (editors and admins)", **access(KB_WRITER, errors=(404,)))
async def reindex_file(request: Request, user: EditorUser, body: FileRef) -> dict[str, Any]:
    kb = request.app.state.kb
    report = await asyncio.to_thread(kb.reindex_file, body.path)
    if report is None:
        raise NotFound("no such document")
    return {"path": body.path, **report.to_dict()}


@router.get("/v1/kb/files", summary="Ingested documents: chunk counts and status (searchable, embedded, failed)",
            **access(ANYONE))
async def files(request: Request) -> dict[str, Any]:
    """Each document's ``status``: ``searchable`` (keyword and SQL search now; ``embedded_chunks`` of
    ``chunks`` have their dense vector), ``embedded`` (all have), or ``failed`` with ``error`` (its last
    ingest failed). ``embeddings``: jobs still queued for the embedding workers, and given up. From the
    parse: ``pages`` (PDF pages, slides or image frames; null for a document without pages), ``tables``
    (structured tables found in it, queried by the SQL retriever), ``ocr_pages`` (the pages read by OCR)
    and ``warnings`` (e.g. a scanned page OCR found no text on)."""
    kb = request.app.state.kb
    kb.refresh()
    items = kb.list_files()
    collections: dict[str, int] = {}
    for it in items:
        if it["collection"] is not None:
            collections[it["collection"]] = collections.get(it["collection"], 0) + 1
    return {"files": items, "collections": collections, "embeddings": kb.embedding_status()}


@router.get("/v1/kb/source", summary="A source document's text (for opening a citation)", **access(ANYONE, errors=(404,)))
async def source(request: Request, user: CurrentUser, path: str, start: int | None = None,
                 end: int | None = None) -> dict[str, Any]:
    kb = request.app.state.kb
    text = kb.file_texts.get(path)
    if text is None or (path in kb.disabled and not can_write_knowledge(user)):
        raise NotFound("no such source")  # a switched-off document is withdrawn: only its maintainers still see it
    if start is not None and end is not None and not (0 <= start <= end <= len(text)):
        raise InvalidInput("start/end are outside the document")
    return {"path": path, "text": text, "start": start, "end": end}


class SearchBody(BaseModel):
    model_config = ConfigDict(strict=True)  # top_k: true is not 1
    query: str = Field(min_length=1, max_length=2000)
    top_k: integral(ge=1, le=50) = Field(default=8)  # type: ignore[valid-type]
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
async def file_chunks(request: Request, user: CurrentUser, path: str) -> dict[str, Any]:
    kb = request.app.state.kb
    kb.refresh()
    if path in kb.disabled and not can_write_knowledge(user):
        raise NotFound("no such document")  # switched off: withdrawn for readers, viewable by its maintainers
    chunks = await asyncio.to_thread(kb.chunks_of, path)
    if not chunks and path in kb.disabled:
        chunks = await asyncio.to_thread(kb.document_chunks, path)  # switched off: not loaded, still viewable
    if not chunks and path not in kb.file_texts:
        raise NotFound("no such document")
    return {"path": path, "chunks": [{"id": p.id, "section": p.section, "start": p.start, "end": p.end,
                                      "page": p.page, "ocr": p.ocr,
                                      "text": p.text, "kind": "table_row" if p.id.startswith("sql:") else "chunk"}
                                     for p in chunks]}
