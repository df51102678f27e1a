"""Learning storage: documents with stable section ids, versions, comments (re-anchored on every
change), entities and their pages, learned topics and learning paths. SQLAlchemy Core over the
app database (SQLite by default, PostgreSQL by URL).

Every content change goes through :func:`save_version`, which writes the full snapshot, replaces
the current sections and re-anchors every comment of the document in the same transaction, so a
comment never points into a version it was not checked against. Nothing here composes text.
"""

from __future__ import annotations

import difflib
import json
import re
import time
import unicodedata
import uuid
from typing import Any

from sqlalchemy import Engine, delete, func, or_, select, update

from knowzero.errors import InvalidInput, NotFound
from knowzero.learning import anchors
from knowzero.learning.compose import document_markdown
from knowzero.learning.tables import (
    learning_comments,
    learning_documents,
    learning_entities,
    learning_entity_links,
    learning_paths,
    learning_sections,
    learning_topics,
    learning_versions,
)


def new_id() -> str:
    return uuid.uuid4().hex[:16]


def new_section_id() -> str:
    return "s" + uuid.uuid4().hex[:9]


def topic_key(text: str) -> str:
    """Normalised topic/entity key: NFKC, lower case, no spaces or punctuation."""
    t = unicodedata.normalize("NFKC", text).lower()
    return re.sub(r"[\s\W_]+", "", t)


# ----- documents -----

def create_document(engine: Engine, *, doc_id: str | None = None, topic: str, title: str, category_path: str,
                    sections: list[dict[str, Any]], meta: dict[str, Any], parent_id: str | None = None,
                    level: str = "beginner", user_id: str = "anonymous", status: str = "ready",
                    change_summary: str = "首次生成") -> dict[str, Any]:
    did = doc_id or new_id()
    now = time.time()
    with engine.begin() as conn:
        if not parent_id or conn.execute(select(learning_documents.c.id).where(learning_documents.c.id == parent_id)).first() is None:
            parent_id = None  # "" is no parent (it reached the foreign key as an id: a 500)
        conn.execute(learning_documents.insert().values(
            id=did, topic=topic, topic_key=topic_key(topic), title=title, category_path=category_path,
            parent_id=parent_id, level=level, user_id=user_id, version=1, status=status,
            meta=json.dumps(meta, ensure_ascii=False), created_at=now, updated_at=now))
        _write_sections(conn, did, sections)
        conn.execute(learning_versions.insert().values(
            document_id=did, version=1, content=_snapshot(title, sections, meta),
            markdown=document_markdown(title, sections), change_summary=change_summary, author="assistant",
            created_at=now))
        _link_entities(conn, did, meta.get("entities") or [])
    return get_document(engine, did)


def _write_sections(conn: Any, did: str, sections: list[dict[str, Any]]) -> None:
    conn.execute(delete(learning_sections).where(learning_sections.c.document_id == did))
    if sections:
        conn.execute(learning_sections.insert(), [
            {"document_id": did, "id": s["id"], "ordinal": i, "kind": s.get("kind", "detail"), "heading": s["heading"],
             "markdown": s["markdown"], "citations": json.dumps(s.get("citations", []), ensure_ascii=False)}
            for i, s in enumerate(sections)])


def _snapshot(title: str, sections: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    return json.dumps({"title": title, "sections": sections, "entities": meta.get("entities", []),
                       "follow_ups": meta.get("follow_ups", [])}, ensure_ascii=False)


def _link_entities(conn: Any, did: str, entities: list[dict[str, Any]]) -> None:
    conn.execute(delete(learning_entity_links).where(learning_entity_links.c.document_id == did))
    keys = sorted({topic_key(e["name"]) for e in entities if e.get("name")})
    now = time.time()
    for e in entities:
        k = topic_key(e.get("name", ""))
        if k and conn.execute(select(learning_entities.c.key).where(learning_entities.c.key == k)).first() is None:
            conn.execute(learning_entities.insert().values(key=k, name=e["name"], type=e.get("type", "term"),
                                                           aliases=json.dumps(e.get("aliases", []), ensure_ascii=False),
                                                           document_id=None, created_at=now))
    if keys:
        conn.execute(learning_entity_links.insert(), [{"entity_key": k, "document_id": did} for k in keys])


def _row_doc(row: Any) -> dict[str, Any]:
    meta = json.loads(row.meta or "{}")
    return {"id": row.id, "topic": row.topic, "title": row.title, "category_path": row.category_path,
            "parent_id": row.parent_id, "level": row.level, "user_id": row.user_id, "version": row.version,
            "status": row.status, "created_at": row.created_at, "updated_at": row.updated_at,
            "entities": meta.get("entities", []), "follow_ups": meta.get("follow_ups", []),
            "method": meta.get("method", "offline"), "sources": meta.get("sources", [])}


def get_document(engine: Engine, doc_id: str) -> dict[str, Any]:
    with engine.connect() as conn:
        row = conn.execute(select(learning_documents).where(learning_documents.c.id == doc_id)).first()
        if row is None:
            raise NotFound(f"document {doc_id} not found")
        secs = conn.execute(select(learning_sections).where(learning_sections.c.document_id == doc_id)
                            .order_by(learning_sections.c.ordinal)).all()
        summary = conn.execute(select(learning_versions.c.change_summary).where(
            learning_versions.c.document_id == doc_id, learning_versions.c.version == row.version)).scalar() or ""
        children = conn.execute(select(learning_documents.c.id, learning_documents.c.title)
                                .where(learning_documents.c.parent_id == doc_id)).all()
    doc = _row_doc(row)
    doc["sections"] = [{"id": s.id, "heading": s.heading, "kind": s.kind, "markdown": s.markdown,
                        "citations": json.loads(s.citations or "[]")} for s in secs]
    doc["change_summary"] = summary
    doc["children"] = [{"id": c.id, "title": c.title} for c in children]
    return doc


def list_documents(engine: Engine, *, user_id: str | None = None, q: str = "", limit: int = 100) -> list[dict[str, Any]]:
    stmt = select(learning_documents).order_by(learning_documents.c.updated_at.desc()).limit(max(1, min(limit, 500)))
    if user_id:
        stmt = stmt.where(learning_documents.c.user_id == user_id)
    if q:
        stmt = stmt.where(learning_documents.c.topic_key.contains(topic_key(q)))
    with engine.connect() as conn:
        return [_row_doc(r) for r in conn.execute(stmt)]


def rename_document(engine: Engine, did: str, title: str) -> dict[str, Any]:
    """Change a document's title (its sections and versions stay as they are)."""
    with engine.begin() as conn:
        n = conn.execute(update(learning_documents).where(learning_documents.c.id == did)
                         .values(title=title[:300], updated_at=time.time())).rowcount
    if not n:
        raise NotFound(f"document {did} not found")
    return get_document(engine, did)


def delete_document(engine: Engine, did: str) -> None:
    """Delete a document with its sections, versions, comments and entity links (children keep living)."""
    with engine.begin() as conn:
        for table in (learning_sections, learning_versions, learning_comments, learning_entity_links):
            conn.execute(delete(table).where(table.c.document_id == did))
        conn.execute(update(learning_entities).where(learning_entities.c.document_id == did).values(document_id=None))
        conn.execute(update(learning_documents).where(learning_documents.c.parent_id == did).values(parent_id=None))
        n = conn.execute(delete(learning_documents).where(learning_documents.c.id == did)).rowcount
    if not n:
        raise NotFound(f"document {did} not found")


def find_own_topic(engine: Engine, topic: str, user_id: str) -> dict[str, Any] | None:
    """The user's newest ready document on exactly this topic (normalised), if any."""
    k = topic_key(topic)
    if not k:
        return None
    with engine.connect() as conn:
        r = conn.execute(select(learning_documents.c.id).where(learning_documents.c.topic_key == k,
                                                               learning_documents.c.user_id == user_id,
                                                               learning_documents.c.status == "ready")
                         .order_by(learning_documents.c.updated_at.desc()).limit(1)).first()
    return get_document(engine, r.id) if r else None


def find_by_topic(engine: Engine, topic: str) -> dict[str, Any] | None:
    """The page for a topic or entity name (exact normalised match), if there is one."""
    did = entity_page(engine, topic)
    return get_document(engine, did) if did else None


def find_similar(engine: Engine, topic: str, *, min_score: float = 80.0) -> tuple[dict[str, Any], float] | None:
    """The existing document whose topic is nearest (rapidfuzz), when it is near enough."""
    from rapidfuzz import fuzz, process

    k = topic_key(topic)
    with engine.connect() as conn:
        rows = conn.execute(select(learning_documents.c.id, learning_documents.c.topic_key)).all()
    if not rows or not k:
        return None
    choices = {r.id: r.topic_key for r in rows}
    best = process.extractOne(k, choices, scorer=fuzz.token_set_ratio if " " in k else fuzz.ratio)
    if best is None:
        return None
    _, score, did = best
    partial = fuzz.partial_ratio(k, choices[did]) if min(len(k), len(choices[did])) >= 3 else 0
    score = max(score, partial * 0.95)
    return (get_document(engine, did), score) if score >= min_score else None


# ----- versions -----

def save_version(engine: Engine, doc_id: str, sections: list[dict[str, Any]], *, change_summary: str,
                 author: str = "assistant", meta_updates: dict[str, Any] | None = None,
                 title: str | None = None) -> dict[str, Any]:
    """Write a new version (see module doc); returns the document with ``anchors`` (what moved)."""
    if author not in ("user", "assistant"):
        raise InvalidInput("author must be user or assistant")
    now = time.time()
    with engine.begin() as conn:
        row = conn.execute(select(learning_documents).where(learning_documents.c.id == doc_id)).first()
        if row is None:
            raise NotFound(f"document {doc_id} not found")
        meta = json.loads(row.meta or "{}") | (meta_updates or {})
        version = row.version + 1
        title = title or row.title
        _write_sections(conn, doc_id, sections)
        conn.execute(learning_versions.insert().values(
            document_id=doc_id, version=version, content=_snapshot(title, sections, meta),
            markdown=document_markdown(title, sections), change_summary=change_summary, author=author,
            created_at=now))
        conn.execute(update(learning_documents).where(learning_documents.c.id == doc_id).values(
            version=version, title=title, meta=json.dumps(meta, ensure_ascii=False), updated_at=now))
        if meta_updates and "entities" in meta_updates:
            _link_entities(conn, doc_id, meta.get("entities") or [])
        moved = _reanchor_all(conn, doc_id, {s["id"]: s["markdown"] for s in sections})
    doc = get_document(engine, doc_id)
    doc["anchors"] = moved
    return doc


def _reanchor_all(conn: Any, doc_id: str, texts: dict[str, str]) -> list[dict[str, Any]]:
    out = []
    for c in conn.execute(select(learning_comments).where(learning_comments.c.document_id == doc_id)).all():
        if c.anchor_status == "orphaned":
            continue
        old = anchors.Anchor(c.selected_text, c.prefix, c.suffix, c.section_id, c.start, c.end, c.anchor_status)
        new = anchors.reanchor(old, texts)
        conn.execute(update(learning_comments).where(learning_comments.c.id == c.id).values(
            section_id=new.section_id, prefix=new.prefix, suffix=new.suffix, start=new.start, end=new.end,
            anchor_status=new.status))
        out.append({"comment_id": c.id, "status": new.status, "section_id": new.section_id})
    return out


def list_versions(engine: Engine, doc_id: str) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        if conn.execute(select(learning_documents.c.id).where(learning_documents.c.id == doc_id)).first() is None:
            raise NotFound(f"document {doc_id} not found")
        rows = conn.execute(select(learning_versions.c.version, learning_versions.c.change_summary,
                                   learning_versions.c.author, learning_versions.c.created_at)
                            .where(learning_versions.c.document_id == doc_id)
                            .order_by(learning_versions.c.version)).all()
    return [dict(r._mapping) for r in rows]


def get_version(engine: Engine, doc_id: str, version: int) -> dict[str, Any]:
    with engine.connect() as conn:
        row = conn.execute(select(learning_versions).where(learning_versions.c.document_id == doc_id,
                                                           learning_versions.c.version == version)).first()
    if row is None:
        raise NotFound(f"version {version} of document {doc_id} not found")
    content = json.loads(row.content)
    return {"document_id": doc_id, "version": row.version, "change_summary": row.change_summary,
            "author": row.author, "created_at": row.created_at, "markdown": row.markdown, **content}


def diff_versions(engine: Engine, doc_id: str, a: int, b: int) -> dict[str, Any]:
    """Unified diff of two versions' markdown plus per-section added/removed line counts."""
    va, vb = get_version(engine, doc_id, a), get_version(engine, doc_id, b)
    lines = list(difflib.unified_diff(va["markdown"].splitlines(), vb["markdown"].splitlines(),
                                      fromfile=f"v{a}", tofile=f"v{b}", lineterm=""))
    return {"document_id": doc_id, "from": a, "to": b, "diff": "\n".join(lines),
            "added": sum(1 for x in lines if x.startswith("+") and not x.startswith("+++")),
            "removed": sum(1 for x in lines if x.startswith("-") and not x.startswith("---")),
            "sections": section_changes(va["sections"], vb["sections"])}


def section_changes(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_id = {s["id"]: s for s in old}
    out = []
    for s in new:
        o = by_id.pop(s["id"], None)
        if o is None:
            out.append({"section_id": s["id"], "heading": s["heading"], "change": "added"})
            continue
        if o["markdown"] != s["markdown"] or o["heading"] != s["heading"]:
            ops = difflib.SequenceMatcher(None, o["markdown"].splitlines(), s["markdown"].splitlines()).get_opcodes()
            add = sum(j2 - j1 for tag, _, _, j1, j2 in ops if tag in ("insert", "replace"))
            rem = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag in ("delete", "replace"))
            out.append({"section_id": s["id"], "heading": s["heading"], "change": "modified",
                        "lines_added": add, "lines_removed": rem})
    out.extend({"section_id": sid, "heading": s["heading"], "change": "removed"} for sid, s in by_id.items())
    return out


# ----- comments -----

def add_comment(engine: Engine, doc_id: str, *, selected_text: str, comment: str, section_id: str | None = None,
                position: int | None = None, need: str = "note", user_id: str = "anonymous") -> dict[str, Any]:
    if not selected_text.strip() or not comment.strip():
        raise InvalidInput("a comment needs selected_text and comment")
    doc = get_document(engine, doc_id)
    texts = {s["id"]: s["markdown"] for s in doc["sections"]}
    a = anchors.make_anchor(texts, selected_text, section_id, position)
    cid = new_id()
    with engine.begin() as conn:
        conn.execute(learning_comments.insert().values(
            id=cid, document_id=doc_id, section_id=a.section_id, selected_text=a.selected_text, prefix=a.prefix,
            suffix=a.suffix, start=a.start, end=a.end, anchor_status=a.status, comment=comment.strip(), need=need,
            status="open", reply="", version=doc["version"], user_id=user_id, created_at=time.time()))
    return get_comment(engine, cid)


def update_comment(engine: Engine, comment_id: str, **values: Any) -> dict[str, Any]:
    allowed = {k: v for k, v in values.items() if k in ("status", "reply", "need")}
    with engine.begin() as conn:
        conn.execute(update(learning_comments).where(learning_comments.c.id == comment_id).values(**allowed))
    return get_comment(engine, comment_id)


def _row_comment(r: Any) -> dict[str, Any]:
    return {"id": r.id, "document_id": r.document_id, "section_id": r.section_id, "selected_text": r.selected_text,
            "comment": r.comment, "need": r.need, "status": r.status, "reply": r.reply, "version": r.version,
            "user_id": r.user_id, "created_at": r.created_at,
            "anchor": {"status": r.anchor_status, "section_id": r.section_id, "start": r.start, "end": r.end,
                       "prefix": r.prefix, "suffix": r.suffix}}


def get_comment(engine: Engine, comment_id: str) -> dict[str, Any]:
    with engine.connect() as conn:
        r = conn.execute(select(learning_comments).where(learning_comments.c.id == comment_id)).first()
    if r is None:
        raise NotFound(f"comment {comment_id} not found")
    return _row_comment(r)


def list_comments(engine: Engine, doc_id: str) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(select(learning_comments).where(learning_comments.c.document_id == doc_id)
                            .order_by(learning_comments.c.created_at)).all()
    return [_row_comment(r) for r in rows]


# ----- entities -----

def set_entity_page(engine: Engine, name: str, document_id: str, *, type_: str = "term",
                    aliases: list[str] | None = None) -> None:
    k = topic_key(name)
    with engine.begin() as conn:
        if conn.execute(select(learning_entities.c.key).where(learning_entities.c.key == k)).first() is None:
            conn.execute(learning_entities.insert().values(key=k, name=name, type=type_,
                                                           aliases=json.dumps(aliases or [], ensure_ascii=False),
                                                           document_id=document_id, created_at=time.time()))
        else:
            conn.execute(update(learning_entities).where(learning_entities.c.key == k).values(document_id=document_id))


def entity_page(engine: Engine, name: str, user_id: str | None = None) -> str | None:
    """Id of the page for a topic or entity name: the entity index first, then the oldest document on that
    topic. With ``user_id`` only a page that user owns (pages are private: a link never hands out the id
    of another user's page)."""
    k = topic_key(name)
    if not k:
        return None
    indexed = select(learning_entities.c.document_id).where(learning_entities.c.key == k,
                                                            learning_entities.c.document_id.is_not(None))
    oldest = (select(learning_documents.c.id).where(learning_documents.c.topic_key == k)
              .order_by(learning_documents.c.created_at).limit(1))
    if user_id is not None:
        mine = select(learning_documents.c.id).where(learning_documents.c.user_id == user_id)
        indexed = indexed.where(learning_entities.c.document_id.in_(mine))
        oldest = oldest.where(learning_documents.c.user_id == user_id)
    with engine.connect() as conn:
        did = conn.execute(indexed).scalar()
        if did is None:
            did = conn.execute(oldest).scalar()
    return did


def list_entities(engine: Engine, *, q: str = "", limit: int = 200, user_id: str | None = None) -> list[dict[str, Any]]:
    """The entity index. With ``user_id`` only what that user's own documents gave: entities whose
    page is theirs or that their documents mention, with ``document_id`` and ``mentioned_in``
    counted over their documents only (pages and topics are private, like the documents).
    ``None`` (staff, who may read every document) lists everything."""
    stmt = select(learning_entities).order_by(learning_entities.c.name).limit(max(1, min(limit, 1000)))
    links = select(learning_entity_links.c.entity_key, func.count())
    if user_id is not None:
        mine = select(learning_documents.c.id).where(learning_documents.c.user_id == user_id)
        stmt = stmt.where(or_(learning_entities.c.document_id.in_(mine),
                              learning_entities.c.key.in_(select(learning_entity_links.c.entity_key)
                                                          .where(learning_entity_links.c.document_id.in_(mine)))))
        links = links.where(learning_entity_links.c.document_id.in_(mine))
    if q:
        stmt = stmt.where(learning_entities.c.key.contains(topic_key(q)))
    with engine.connect() as conn:
        rows = conn.execute(stmt).all()
        link_rows = conn.execute(links.group_by(learning_entity_links.c.entity_key)).all()
        pages = {r.document_id for r in rows if r.document_id}
        if user_id is not None and pages:
            pages = set(conn.execute(select(learning_documents.c.id).where(
                learning_documents.c.id.in_(pages), learning_documents.c.user_id == user_id)).scalars())
    counts: dict[str, int] = {str(k): int(n) for k, n in link_rows}
    return [{"key": r.key, "name": r.name, "type": r.type, "aliases": json.loads(r.aliases or "[]"),
             "document_id": r.document_id if r.document_id in pages else None,
             "mentioned_in": int(counts.get(r.key, 0))} for r in rows]


def entity_documents(engine: Engine, name: str) -> list[str]:
    with engine.connect() as conn:
        return list(conn.execute(select(learning_entity_links.c.document_id)
                                 .where(learning_entity_links.c.entity_key == topic_key(name))).scalars())


def owned_ids(engine: Engine, ids: list[str], user_id: str) -> list[str]:
    """The subset of document ``ids`` that ``user_id`` owns, in the given order."""
    if not ids:
        return []
    with engine.connect() as conn:
        mine = set(conn.execute(select(learning_documents.c.id).where(
            learning_documents.c.id.in_(ids), learning_documents.c.user_id == user_id)).scalars())
    return [i for i in ids if i in mine]


# ----- learned topics -----

def mark_learned(engine: Engine, user_id: str, topic: str, document_id: str | None = None) -> dict[str, Any]:
    k = topic_key(topic) or " ".join(topic.lower().split())  # a topic of symbols only keys as itself
    if not k:
        raise InvalidInput("topic must not be empty")
    now = time.time()
    with engine.begin() as conn:
        conn.execute(delete(learning_topics).where(learning_topics.c.user_id == user_id, learning_topics.c.topic_key == k))
        conn.execute(learning_topics.insert().values(user_id=user_id, topic_key=k, topic=topic, document_id=document_id,
                                                     learned_at=now))
    return {"user_id": user_id, "topic": topic, "document_id": document_id, "learned_at": now}


def learned_topics(engine: Engine, user_id: str) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(select(learning_topics).where(learning_topics.c.user_id == user_id)
                            .order_by(learning_topics.c.learned_at)).all()
    return [{"topic": r.topic, "document_id": r.document_id, "learned_at": r.learned_at} for r in rows]


# ----- paths -----

def save_path(engine: Engine, *, user_id: str, goal: str, steps: list[dict[str, Any]], status: str = "ready") -> dict[str, Any]:
    pid = new_id()
    with engine.begin() as conn:
        conn.execute(learning_paths.insert().values(id=pid, user_id=user_id, goal=goal,
                                                    steps=json.dumps(steps, ensure_ascii=False), status=status,
                                                    created_at=time.time()))
    return get_path(engine, pid)


def get_path(engine: Engine, path_id: str) -> dict[str, Any]:
    with engine.connect() as conn:
        r = conn.execute(select(learning_paths).where(learning_paths.c.id == path_id)).first()
    if r is None:
        raise NotFound(f"learning path {path_id} not found")
    return {"id": r.id, "user_id": r.user_id, "goal": r.goal, "steps": json.loads(r.steps), "status": r.status,
            "created_at": r.created_at}


def list_paths(engine: Engine, user_id: str | None = None) -> list[dict[str, Any]]:
    stmt = select(learning_paths.c.id).order_by(learning_paths.c.created_at.desc())
    if user_id:
        stmt = stmt.where(learning_paths.c.user_id == user_id)
    with engine.connect() as conn:
        ids = list(conn.execute(stmt).scalars())
    return [get_path(engine, i) for i in ids]
