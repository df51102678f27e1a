"""Learning documents: read documents, versions and diffs, comments (with anchor status), entities,
learning paths and learned topics. Generation and comment-driven edits normally happen in a chat
turn (``POST /v1/chat`` with source entry/comment/entity/follow_up); the POST routes here are the
same operations for clients that do not stream.

Who may call: documents, comments, versions and paths belong to the caller who created them
(``LearningService.document_for``): only the owner changes them, the owner or staff read them,
anyone else gets 404. Responses never carry another caller's identity (``user_id`` is replaced
by ``mine``)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from knowzero.api.access import ANYONE, access
from knowzero.api.body import SafeRoute
from knowzero.api.deps import CurrentUser
from knowzero.errors import InvalidInput
from knowzero.input import CollectionName, integral
from knowzero.learning import store
from knowzero.learning.service import LearningService, comment_on
from knowzero.users import User


def _public(item: dict[str, Any], user: User) -> dict[str, Any]:
    """An object without its owner's id; ``mine`` says whether it is the caller's."""
    out = {k: v for k, v in item.items() if k != "user_id"}
    if "user_id" in item:
        out["mine"] = item["user_id"] == user.id
    return out

router = APIRouter(tags=["learning"], route_class=SafeRoute)


def _svc(request: Request) -> LearningService:
    return request.app.state.deps.need_learning()


# ids are generated hex: "" is not an id (it reached a foreign key); texts need one visible character


class GenerateBody(BaseModel):
    model_config = ConfigDict(strict=True)
    topic: str = Field(min_length=1, max_length=200, pattern=r"\S")
    level: str = Field(default="beginner", pattern="^(beginner|intermediate|advanced)$")
    parent_id: str | None = Field(default=None, min_length=1, max_length=64)
    new: bool = Field(default=False, description="write a new document even if you already have one on this topic")
    collections: list[CollectionName] | None = Field(default=None, max_length=20,
                                                     description="write it from these collections only")


class CommentBody(BaseModel):
    model_config = ConfigDict(strict=True)
    selected_text: str = Field(min_length=1, max_length=5000)
    comment: str = Field(min_length=1, max_length=2000)
    section_id: str | None = None
    position: integral(ge=0) | None = None  # type: ignore[valid-type]
    improve: bool = Field(default=True, description="rewrite the section for the comment (new version)")


class LearnedBody(BaseModel):
    model_config = ConfigDict(strict=True)
    topic: str = Field(min_length=1, max_length=500, pattern=r"\S")
    document_id: str | None = Field(default=None, min_length=1, max_length=64)


class PlanBody(BaseModel):
    model_config = ConfigDict(strict=True)
    goal: str = Field(min_length=1, max_length=500)
    learned_topics: list[str] = Field(default_factory=list, max_length=500)


@router.get("/v1/learning/documents", summary="Learning documents, newest first", **access(ANYONE))
async def list_documents(request: Request, user: CurrentUser, q: str = "",
                         limit: int = Query(default=100, ge=1, le=500)) -> dict[str, Any]:
    svc = _svc(request)
    docs = await asyncio.to_thread(store.list_documents, svc.engine, user_id=user.id, q=q, limit=limit)
    return {"documents": [_public(d, user) for d in docs]}


@router.post("/v1/learning/documents", summary="Generate a document for a topic (not streamed)",
             **access(ANYONE, owns="learning_document", limited=True))  # owns: the parent_id it may name
async def generate(request: Request, user: CurrentUser, body: GenerateBody) -> dict[str, Any]:
    svc = _svc(request)
    if body.parent_id is not None:
        await asyncio.to_thread(svc.document_for, body.parent_id, user)
    if not body.new:
        own = await asyncio.to_thread(store.find_own_topic, svc.engine, body.topic, user.id)
        if own is not None:
            return {**_public(own, user), "mine": True, "existing": True}
    doc = await asyncio.to_thread(svc.generate, body.topic, level=body.level, user_id=user.id, parent_id=body.parent_id,
                                  collections=tuple(dict.fromkeys(body.collections or ())))
    return {**_public(doc, user), "mine": True}


@router.get("/v1/learning/documents/{doc_id}", summary="A document: sections with citations, entities, follow-ups", **access(ANYONE, owns="learning_document"))
async def get_document(request: Request, user: CurrentUser, doc_id: str) -> dict[str, Any]:
    return _public(await asyncio.to_thread(_svc(request).document_for, doc_id, user), user)


@router.get("/v1/learning/documents/{doc_id}/versions", summary="Versions with change summaries", **access(ANYONE, owns="learning_document"))
async def versions(request: Request, user: CurrentUser, doc_id: str) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user)
    return {"document_id": doc_id, "versions": await asyncio.to_thread(store.list_versions, svc.engine, doc_id)}


@router.get("/v1/learning/documents/{doc_id}/versions/{version}", summary="One version's full content", **access(ANYONE, owns="learning_document"))
async def version(request: Request, user: CurrentUser, doc_id: str,
                  version: int = Path(ge=1, le=1_000_000)) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user)
    return await asyncio.to_thread(store.get_version, svc.engine, doc_id, version)


@router.get("/v1/learning/documents/{doc_id}/diff", summary="Unified diff between two versions", **access(ANYONE, owns="learning_document"))
async def diff(request: Request, user: CurrentUser, doc_id: str, from_version: int = Query(ge=1, le=1_000_000),
               to_version: int | None = Query(default=None, ge=1, le=1_000_000)) -> dict[str, Any]:
    svc = _svc(request)
    doc = await asyncio.to_thread(svc.document_for, doc_id, user)
    if to_version is None:
        to_version = doc["version"]
    if from_version < 1 or to_version < 1:
        raise InvalidInput("versions start at 1")
    return await asyncio.to_thread(store.diff_versions, svc.engine, doc_id, from_version, to_version)


@router.get("/v1/learning/documents/{doc_id}/comments", summary="Comments with their anchor status", **access(ANYONE, owns="learning_document"))
async def comments(request: Request, user: CurrentUser, doc_id: str) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user)
    items = await asyncio.to_thread(store.list_comments, svc.engine, doc_id)
    return {"document_id": doc_id, "comments": [_public(c, user) for c in items]}


@router.post("/v1/learning/documents/{doc_id}/comments",
             summary="Comment on selected text; by default the section is improved as a new version",
             **access(ANYONE, owns="learning_document", rule="write", limited=True))
async def add_comment(request: Request, user: CurrentUser, doc_id: str, body: CommentBody) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user, write=True)
    if not body.improve:
        c = await asyncio.to_thread(store.add_comment, svc.engine, doc_id, selected_text=body.selected_text,
                                    comment=body.comment, section_id=body.section_id, position=body.position,
                                    user_id=user.id)
        return {"comment": _public(c, user), "changed": False}
    res = await comment_on(svc, doc_id, selected_text=body.selected_text, comment=body.comment,
                           kdeps=request.app.state.deps.knowledge(), section_id=body.section_id,
                           position=body.position, user_id=user.id, lexicon=request.app.state.deps.lexicon)
    res.pop("answer", None)
    return {**res, **{k: _public(res[k], user) for k in ("comment", "document") if isinstance(res.get(k), dict)}}


@router.post("/v1/learning/documents/{doc_id}/read", summary="The user read this document: mark its topic learned",
             **access(ANYONE, owns="learning_document", rule="write", limited="write"))
async def mark_read(request: Request, user: CurrentUser, doc_id: str) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user, write=True)
    return _public(await asyncio.to_thread(svc.mark_read, doc_id, user.id), user)


@router.get("/v1/learning/entities",
            summary="Entity index: the caller's own learning pages and mentions, and knowledge-base terms", **access(ANYONE))
async def entities(request: Request, user: CurrentUser, q: str = "", limit: int = 200) -> dict[str, Any]:
    return {"entities": await asyncio.to_thread(_svc(request).entity_index, q, max(1, min(limit, 1000)), user)}


@router.get("/v1/learning/entities/{name}", summary="One entity: its page (if any) and the documents mentioning it", **access(ANYONE))
async def entity(request: Request, user: CurrentUser, name: str) -> dict[str, Any]:
    svc = _svc(request)
    page = await asyncio.to_thread(svc.entity_page, name, user.id)
    ids = await asyncio.to_thread(store.entity_documents, svc.engine, name)
    docs = await asyncio.to_thread(store.owned_ids, svc.engine, ids, user.id)
    return {"name": name, "document_id": page, "exists": page is not None, "mentioned_in": docs}


@router.get("/v1/learning/paths", summary="The user's learning paths", **access(ANYONE))
async def paths(request: Request, user: CurrentUser) -> dict[str, Any]:
    return {"paths": [_public(p, user) for p in await asyncio.to_thread(store.list_paths, _svc(request).engine, user.id)]}


@router.post("/v1/learning/paths", summary="Plan a learning path for a goal", **access(ANYONE, limited=True))
async def plan(request: Request, user: CurrentUser, body: PlanBody) -> dict[str, Any]:
    return _public(await asyncio.to_thread(_svc(request).plan, body.goal, user_id=user.id,
                                           learned=body.learned_topics), user)


@router.get("/v1/learning/paths/{path_id}", summary="A learning path with current learned marks", **access(ANYONE, owns="learning_path"))
async def get_path(request: Request, user: CurrentUser, path_id: str) -> dict[str, Any]:
    return _public(await asyncio.to_thread(_svc(request).path_for, path_id, user), user)


@router.get("/v1/learning/topics", summary="The user's learned topics", **access(ANYONE))
async def learned(request: Request, user: CurrentUser) -> dict[str, Any]:
    topics = await asyncio.to_thread(store.learned_topics, _svc(request).engine, user.id)
    return {"topics": [_public(t, user) for t in topics]}


@router.post("/v1/learning/topics", summary="Mark a topic learned",
             **access(ANYONE, owns="learning_document", limited="write"))  # owns: the document_id it may name
async def mark_learned(request: Request, user: CurrentUser, body: LearnedBody) -> dict[str, Any]:
    svc = _svc(request)
    if body.document_id is not None:
        await asyncio.to_thread(svc.document_for, body.document_id, user)
    return _public(await asyncio.to_thread(store.mark_learned, svc.engine, user.id, body.topic, body.document_id), user)


class RenameBody(BaseModel):
    title: str = Field(min_length=1, max_length=300)


@router.patch("/v1/learning/documents/{doc_id}", summary="Rename a document (owner only)",
              **access(ANYONE, owns="learning_document", rule="write", limited="write"))
async def rename_document(request: Request, user: CurrentUser, doc_id: str, body: RenameBody) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user, write=True)
    doc = await asyncio.to_thread(store.rename_document, svc.engine, doc_id, body.title.strip() or body.title)
    return _public(doc, user)


@router.delete("/v1/learning/documents/{doc_id}", summary="Delete a document with its versions and comments (owner only)",
               **access(ANYONE, owns="learning_document", rule="write", limited="write"))
async def delete_document(request: Request, user: CurrentUser, doc_id: str) -> dict[str, Any]:
    svc = _svc(request)
    await asyncio.to_thread(svc.document_for, doc_id, user, write=True)
    await asyncio.to_thread(store.delete_document, svc.engine, doc_id)
    return {"id": doc_id, "deleted": True}
