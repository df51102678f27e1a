"""Learning agent: decide what this turn does to the learner's documents, then do it.

Route decisions (each emitted as a ``reasoning`` event with its reason and logged):
``new_document`` (a topic without a page; an entity click without a page, as a child of the
source document; a follow-up that opens a new sub-topic), ``navigate`` (the page exists:
"已存在 X 的文档，正在跳转"), ``update_current`` (a follow-up that deepens the current document: new
sections, new version), ``merge_and_update`` (a topic close to an existing page is merged into it),
``optimize_section`` (a comment: rewrite the anchored section, or answer a question in the
comment's thread), ``plan`` (a learning path). New documents stream: one ``document`` event per
section as it is written, then the finished document; with a streaming model, the section's text
first arrives token by token (``llm_token`` events carrying ``document_id``) and each sentence's
check follows it (``sentence_check``: kept, or dropped with the reason).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from langgraph.runtime import Runtime

from knowzero.errors import KnowZeroError, NotFound, in_language
from knowzero.graph.context import Deps
from knowzero.graph.state import AgentLogEntry, Document, State, as_document
from knowzero.graph.trace import collections_of, emit
from knowzero.input import AgentInput
from knowzero.knowledge.answer.checks.verify import coverage
from knowzero.knowledge.answer.retriever import key_terms
from knowzero.learning import store
from knowzero.learning.compose import asks_for_document, clean_topic, relevance, term_weights
from knowzero.learning.service import LearningService, comment_on
from knowzero.streaming import llm_fallback
from knowzero.users import User

_PLAN = re.compile(r"系统地?(?:学|学习|了解|掌握)|学习路径|学习路线|学习计划|学习顺序|路线图|从零开始学|roadmap|learning path", re.I)
_ASK_NEW = re.compile(r"(?:重新|再)(?:生成|写|出)(?:一份|一篇|一个)?|新(?:的)?(?:一份|一篇)?文档|另(?:一份|一篇|写)|new (?:document|page|version)|regenerate", re.I)
_ASK_WHAT = re.compile(r"^(?:什么是|何为)\s*(.+?)[？?]?$|^(.+?)\s*(?:是什么|是啥|指什么)[？?]?$")
MERGE_SCORE = 85.0


def public_document(doc: dict[str, Any], route: str) -> Document:
    """What the client gets in ``state.document`` and the final ``document`` event."""
    keys = ("id", "title", "topic", "category_path", "parent_id", "level", "status", "version", "change_summary",
            "entities", "follow_ups", "closest_topics", "method", "children", "anchors")
    out = {k: doc[k] for k in keys if k in doc}
    out["sections"] = [{k: s.get(k) for k in ("id", "heading", "kind", "markdown", "citations")}
                       for s in doc.get("sections", [])]
    out["route"] = route
    return as_document(out)


def _current_doc(svc: LearningService, inp: AgentInput, user: User) -> dict[str, Any] | None:
    for did in (inp.current_document_id, inp.source_document_id):
        if did:
            try:
                return svc.document_for(did, user, write=True)
            except NotFound:
                continue
    return None


def _readable(svc: LearningService, doc_id: str | None, user: User) -> str | None:
    """``doc_id`` when ``user`` may read it, else None (the API refused it already; other entry points too)."""
    if not doc_id:
        return None
    try:
        return str(svc.document_for(doc_id, user)["id"])
    except NotFound:
        return None


def _doc_coverage(svc: LearningService, question: str, doc: dict[str, Any]) -> float:
    text = " ".join([doc["title"]] + [s["heading"] + " " + s["markdown"] for s in doc["sections"]])
    return coverage(key_terms(svc.kb, clean_topic(question)), text)


def decide_route(svc: LearningService, state: State, user: User) -> tuple[str, str, dict[str, Any]]:
    """(decision, reason, arguments) for this turn; pure reads, no writes. Only ``user``'s own
    documents are candidates (another caller's page is never opened, merged or changed)."""
    inp: AgentInput = state["input"]
    source = inp.source
    intent = (state.get("intent") or {}).get("intent", "")
    text = (state.get("question") or "").strip() or inp.message.strip()
    if source == "comment" and inp.comment is not None:
        c = inp.comment
        did = c.document_id or inp.current_document_id
        if did:
            return "optimize_section", "a comment on a document section", {**c.model_dump(), "document_id": did}
    if intent == "optimize_content" and source != "comment":
        doc = _current_doc(svc, inp, user)
        if doc is not None and doc.get("sections"):
            sec = _best_section(svc, doc, text)
            first_line = next((ln[2:].split("[")[0] for ln in sec["markdown"].splitlines() if ln.startswith("- ")), "")
            return "optimize_section", f"asked to improve section 「{sec['heading']}」 of the current document", {
                "document_id": doc["id"], "section_id": sec["id"], "selected_text": first_line or sec["heading"],
                "comment": text}
    if source == "entity":
        name = (inp.entity or "").strip()
        page = svc.entity_page(name, user.id)
        if page:
            return "navigate", f"a page for 「{name}」 exists", {"document_id": page, "name": name}
        parent = _readable(svc, inp.source_document_id, user)
        return "new_document", f"no page for 「{name}」 yet: creating one under the source document", {
            "topic": name, "parent_id": parent, "entity_name": name}
    if _PLAN.search(text) or (intent == "plan" and not asks_for_document(text)):  # "a learning document about X" is one
        return "plan", "asked to learn a field systematically", {"goal": text}
    if source == "follow_up" or intent == "follow_up":
        current = _current_doc(svc, inp, user)
        m = _ASK_WHAT.match(text)
        sub = clean_topic((m.group(1) or m.group(2)) if m else "")
        if sub:
            page = svc.entity_page(sub, user.id)
            if page and (current is None or page != current["id"]):
                return "navigate", f"the question is about 「{sub}」, which has a page", {"document_id": page, "name": sub}
        if current is None:
            return "new_document", "a follow-up without a current document", {"topic": text}
        if sub and current["topic"].lower() not in sub.lower() and sub.lower() not in current["topic"].lower():
            return "new_document", f"「{sub}」 is a new sub-topic of 「{current['title']}」: child document", {
                "topic": sub, "parent_id": current["id"], "entity_name": sub}
        cov = _doc_coverage(svc, text, current)
        if cov >= 0.5:
            return "update_current", f"the question deepens the current document ({cov:.0%} of its terms are there)", {
                "document_id": current["id"], "question": text}
        return "new_document", f"the question goes beyond the current document ({cov:.0%} overlap): child document", {
            "topic": text, "parent_id": current["id"]}
    topic = clean_topic(inp.topic or text) if source == "entry" else clean_topic(text)
    if _ASK_NEW.search(text):
        return "new_document", "asked for a new document", {"topic": clean_topic(_ASK_NEW.sub("", topic)) or topic,
                                                            "parent_id": None}
    page = svc.entity_page(topic, user.id)
    if page:
        return "navigate", f"a page for 「{topic}」 exists", {"document_id": page, "name": topic}
    own = store.find_own_topic(svc.engine, topic, user.id)
    if own is not None:
        return "navigate", f"you already have a page for 「{topic}」", {"document_id": own["id"], "name": topic}
    similar = store.find_similar(svc.engine, topic, min_score=MERGE_SCORE)
    if similar is not None and similar[0].get("user_id") == user.id:
        doc, score = similar
        return "merge_and_update", f"「{topic}」 is close to the page 「{doc['title']}」 ({score:.0f}%): merging", {
            "document_id": doc["id"], "topic": topic}
    reason = "a comparison: side-by-side sections" if intent == "comparison" else f"no page for 「{topic}」 yet"
    return "new_document", reason, {"topic": topic, "parent_id": None}


def _best_section(svc: LearningService, doc: dict[str, Any], text: str) -> dict[str, Any]:
    w = term_weights(svc.kb, text)
    scored = [(relevance(w, s["heading"] + " " + s["markdown"]), -i, s) for i, s in enumerate(doc["sections"])]
    best = max(scored, key=lambda x: (x[0], x[1]))
    if best[0] > 0:
        return best[2]
    return next((s for s in doc["sections"] if s.get("kind") == "detail"), doc["sections"][0])


async def run_learning(state: State, runtime: Runtime[Deps]) -> State:
    deps = runtime.context.scoped(collections_of(state))
    inp: AgentInput = state["input"]
    svc = deps.need_learning()
    decision, reason, args = await asyncio.to_thread(decide_route, svc, state, deps.user)
    emit("reasoning", text=f"learning route: {decision} — {reason}")
    log: AgentLogEntry = {"agent": "learning", "action": decision, "reason": reason}
    user_id = deps.user.id
    level = inp.user_level or "beginner"
    try:
        if decision == "new_document":
            doc = await _stream_new(svc, args["topic"], level=level, user_id=user_id, parent_id=args.get("parent_id"),
                                    lang=inp.reply_language(), collections=deps.collections,
                                    entity_name=args.get("entity_name"))
            reply = _reply_for(doc, decision)
        elif decision == "navigate":
            doc = await asyncio.to_thread(svc.document_for, args["document_id"], deps.user)
            reply = f"已存在「{args.get('name') or doc['title']}」的文档，正在跳转。"
        elif decision == "update_current":
            await asyncio.to_thread(svc.document_for, args["document_id"], deps.user, write=True)
            doc = await asyncio.to_thread(svc.expand_document, args["document_id"], args["question"])
            reply = _reply_for(doc, decision)
        elif decision == "merge_and_update":
            await asyncio.to_thread(svc.document_for, args["document_id"], deps.user, write=True)
            doc = await asyncio.to_thread(svc.merge_topic, args["document_id"], args["topic"])
            reply = _reply_for(doc, decision)
        elif decision == "optimize_section":
            await asyncio.to_thread(svc.document_for, args["document_id"], deps.user, write=True)
            doc, reply, log = await _optimize(svc, args, user_id, deps, log)
        else:  # plan
            return await _plan(svc, args["goal"], inp, user_id, log)
    except KnowZeroError as exc:
        text = in_language(exc.code, exc.message, zh=inp.reply_language() == "zh")
        emit("error", code=exc.code, message=text)
        log["error"] = exc.code
        return {"reply": text, "agent_log": [log]}
    out = public_document(doc, decision)
    emit("document", **out)
    log.update({"document_id": out.get("id"), "version": out.get("version"), "sections": len(out["sections"]),
                "status": out.get("status"), "method": doc.get("method", "offline")})
    if doc.get("method") == "offline_fallback":
        log["fallback"] = True
    topic = out.get("topic") or state.get("topic", "")
    return {"reply": reply, "document": out, "topic": topic, "agent_log": [log]}


async def _stream_new(svc: LearningService, topic: str, **kw: Any) -> dict[str, Any]:
    """Generate in a worker thread, emitting each section as soon as it is written."""
    it = svc.iter_generate(topic, **kw)
    doc: dict[str, Any] = {}
    fell_back = False
    while True:
        ev = await asyncio.to_thread(next, it, None)
        if ev is None:
            break
        if ev["event"] == "start":
            d = ev["document"]
            emit("retrieval", sources=d.get("sources", []), query=d["topic"])
            emit("document", id=d["id"], title=d["title"], category_path=d["category_path"], status="generating",
                 sections=[])
        elif ev["event"] == "token":  # a streaming model writing the section, before its sentences are checked
            emit("llm_token", text=ev["text"], document_id=ev["document_id"], section=ev["index"],
                 heading=ev["heading"], sentence=ev["sentence"])
        elif ev["event"] == "sentence":
            emit("sentence_check", document_id=ev["document_id"], section=ev["index"], sentence=ev["sentence"],
                 kept=ev["kept"], reason=ev["reason"])
        elif ev["event"] == "section":
            if ev.get("method") == "offline_fallback" and not fell_back:
                fell_back = True  # said once per document; every section's note is in the document's notes
                llm_fallback(emit, "learning", ev.get("note") or "the model failed", "sentences quoted from the documents")
            emit("document", id=ev["document_id"], status="generating", index=ev["index"], section=ev["section"],
                 elapsed_ms=ev["elapsed_ms"])
        else:
            doc = ev["document"]
    return doc


def _reply_for(doc: dict[str, Any], decision: str) -> str:
    if doc.get("status") == "insufficient":
        return doc["sections"][0]["markdown"]
    if doc.get("unchanged_reason"):
        return f"《{doc['title']}》没有更新：{doc['unchanged_reason']}"
    n_cit = sum(len(s.get("citations", [])) for s in doc.get("sections", []))
    heads = "、".join(s["heading"] for s in doc.get("sections", [])[:6])
    if decision == "new_document":
        return f"已生成《{doc['title']}》（{len(doc['sections'])} 节，{n_cit} 处引用）：{heads}。"
    return f"《{doc['title']}》已更新到第 {doc.get('version')} 版：{doc.get('change_summary', '')}"


async def _optimize(svc: LearningService, args: dict[str, Any], user_id: str, deps: Deps,
                    log: AgentLogEntry) -> tuple[dict[str, Any], str, AgentLogEntry]:
    """Improve the commented section, or answer the comment's question: the document, the reply, and
    ``log`` with what the comment needed."""
    res = await comment_on(svc, args["document_id"], selected_text=args["selected_text"], comment=args["comment"],
                           kdeps=deps.knowledge(emit), section_id=args.get("section_id"),
                           position=(args.get("position") or {}).get("start"), user_id=user_id, lexicon=deps.lexicon)
    emit("reasoning", text=f"comment need: {res['need']} — {res['reason']}"
         + (f"; about 「{res['term']}」: {res['comment']['status']}" if res.get("term") else ""))
    log = {**log, "need": res["need"], "comment_id": res["comment"]["id"], "anchor": res["comment"]["anchor"]["status"],
           "status": res["comment"]["status"]}
    if res["need"] != "question":
        return res["document"], res["message"], log
    log["verdict"] = res["verdict"]["level"]
    doc = dict(res["document"])
    if not res["changed"]:
        doc["change_summary"] = ""
    return doc, res["answer"].reply + (f"\n\n{doc['change_summary']}" if res["changed"] else ""), log


async def _plan(svc: LearningService, goal: str, inp: AgentInput, user_id: str, log: AgentLogEntry) -> State:
    p = await asyncio.to_thread(svc.plan, goal, user_id=user_id, learned=list(inp.learned_topics))
    doc: Document = {"id": p.get("id"), "kind": "learning_path", "title": f"学习路径：{p['topic']}", "topic": p["topic"],
           "status": "ready" if p["sufficient"] else "insufficient", "steps": p["steps"],
           "total_minutes": p["total_minutes"], "closest_topics": p.get("closest_topics", []),
           "sections": [{"id": "path", "heading": "学习路径", "kind": "path", "markdown": p["markdown"], "citations": []}],
           "follow_ups": [f"我想学习{s['topic']}" for s in p["steps"] if not s["learned"]][:3],
           "route": "plan", "version": 1, "entities": [], "change_summary": ""}
    emit("document", **doc)
    log.update({"path_id": p.get("id"), "steps": len(p["steps"]), "sufficient": p["sufficient"]})
    reply = (f"「{p['topic']}」的学习路径（{len(p['steps'])} 步，约 {p['total_minutes']} 分钟）：\n{p['markdown']}"
             if p["sufficient"] else p["markdown"])
    return {"reply": reply, "document": doc, "topic": p["topic"], "agent_log": [log]}
