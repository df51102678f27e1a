"""The learning facade used by the graph node, the API and the CLI.

One :class:`LearningService` per (database, knowledge base, provider): generate a document
(streamed section by section), expand the current document for a follow-up, merge a near topic
into an existing page, improve a section from a comment (new version, re-anchored comments),
open an entity (navigate to its page or create one under the source document), plan a path,
and read everything back. Built once by the dependency container (``knowzero.wiring``); a
comment that asks a question is answered by the one knowledge pipeline, not here.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from sqlalchemy import Engine, select

from knowzero.config import Settings
from knowzero.errors import InvalidInput, NotFound
from knowzero.input import AgentInput, message_language
from knowzero.knowledge.answer.checks.premise import premise
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.lexicon import Lexicon
from knowzero.knowledge.answer.pipeline import Answer, answer, answer_in_either
from knowzero.knowledge.answer.policy import PREMISE_WARNING
from knowzero.knowledge.index.headers import NAME_LABEL
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.rows import row_fields
from knowzero.knowledge.text import STOPWORDS, tokens
from knowzero.learning import store
from knowzero.learning.cache import KBCache
from knowzero.learning.compose import (
    Outline,
    clean_topic,
    document_markdown,
    insufficient_markdown,
    iter_section_events,
    iter_sections,
    plan_document,
    render_bullets,
    renumber,
    short_heading,
    table_rows,
)
from knowzero.learning.entities import extract_entities, kb_terms
from knowzero.learning.optimize import (
    CLARIFY_NEEDS,
    asks,
    change_summary,
    classify_request,
    document_collections,
    gives_kind,
    insert_after_anchor,
    missing_text,
    rewrite_section,
)
from knowzero.learning.planner import is_learned, make_plan, path_markdown
from knowzero.learning.render import insufficient_heading
from knowzero.learning.sentences import LIST_MARK, Cand, split_sentences
from knowzero.learning.tables import learning_documents as d
from knowzero.llm.base import ChatProvider, bounded
from knowzero.persistence.db import init_db
from knowzero.users import User, is_staff
from knowzero.vocabulary.questions import kind_of

_COMPARE = re.compile(r"\s*(?:和|与|跟|同|vs\.?|VS\.?|对比|比较)\s*")
_COMPARE_TAIL = re.compile(r"(?:的)?(?:区别|差别|不同|异同|对比|比较|哪个好|有什么不同|有何不同)[是吗呢？?。\s]*$")


def split_comparison(text: str) -> list[str]:
    """'零件A和零件B的区别' → ['零件A', '零件B']; [] when it is not a comparison of two things."""
    topic = clean_topic(text)
    if not _COMPARE_TAIL.search(topic) and not re.search(r"\bvs\.?\b|对比|比较", topic, re.I):
        return []  # "退货与退款" is one topic, "零件A和零件B的区别" is a comparison
    t = _COMPARE_TAIL.sub("", topic)
    parts = [p.strip(" ，,、") for p in _COMPARE.split(t) if p.strip(" ，,、")]
    return parts if len(parts) == 2 and all(len(p) >= 2 for p in parts) else []


class LearningService:
    """Facade over compose/optimize/planner/store (see module doc)."""

    def __init__(self, engine: Engine, kb: KnowledgeBase,
                 provider: ChatProvider | Callable[[], ChatProvider | None] | None = None,
                 settings: Settings | None = None) -> None:
        self.settings = settings or kb.settings
        self.engine = init_db(engine)
        self.kb = kb
        self._provider = provider
        """A chat model, or a function giving the one that answers now (the container's model switch)."""
        self.cache = KBCache()  # sentences, terms and text of ``kb``, per revision (no module-level caches)

    @property
    def provider(self) -> ChatProvider | None:
        """The chat model, every call bounded by ``llm_timeout_s`` (learning runs in worker threads)."""
        p = self._provider
        chat = p if p is None or isinstance(p, ChatProvider) else p()
        return bounded(chat, deadline_s=self.settings.llm_timeout_s) if chat is not None else None

    def _strategy(self) -> str:
        return "hybrid" if self.kb.has_vectors() else "keyword"

    # ----- generation -----
    def iter_generate(self, topic: str, *, level: str = "beginner", user_id: str = "anonymous",
                      parent_id: str | None = None, entity_name: str | None = None,
                      lang: str | None = None, collections: tuple[str, ...] = ()) -> Iterator[dict[str, Any]]:
        """Events: ``start`` (id, title), one ``section`` per section as it is written, then ``done``.
        ``lang`` (zh | en): the asker's language, for what we say ourselves (the topic's language when None);
        ``collections``: the thread's chosen collections (none: the team's own, as chat searches them).

        With a streaming model, each section's ``token`` events (the model's text as it arrives) and
        ``sentence`` events (each sentence checked against its evidence: kept or dropped) come before
        its ``section`` event; the section holds only the kept sentences."""
        t0 = time.perf_counter()
        level = level if level in ("beginner", "intermediate", "advanced") else "beginner"
        outline = self._outline(topic, level, collections=tuple(collections))
        doc_id = store.new_id()
        parent = self._parent(parent_id)
        category = f"{parent['category_path']}/{outline.topic}" if parent else outline.category_path
        if not outline.sufficient:
            said = lang or message_language(outline.topic) or "zh"  # the notice's language
            md = insufficient_markdown(outline.topic, outline.closest_topics, said)
            doc = {"id": None, "title": outline.topic, "topic": outline.topic, "category_path": category,
                   "status": "insufficient", "version": 0, "parent_id": parent_id,
                   "sections": [{"id": "insufficient", "heading": insufficient_heading(said), "kind": "notice", "markdown": md,
                                 "citations": []}],
                   "entities": [], "closest_topics": outline.closest_topics,
                   "follow_ups": [f"What is {t}?" if said == "en" else f"什么是{t}？" for t in outline.closest_topics[:3]],
                   "change_summary": "", "reason": outline.reason, "elapsed_ms": _ms(t0)}
            yield {"event": "done", "document": doc}
            return
        yield {"event": "start", "document": {"id": doc_id, "title": outline.title, "topic": outline.topic,
                                              "category_path": category, "status": "generating",
                                              "sources": outline.sources}, "elapsed_ms": _ms(t0)}
        sections: list[dict[str, Any]] = []
        methods: list[str] = []
        notes: list[str] = []
        for ev in iter_section_events(outline, level=level, provider=self.provider, new_id=store.new_section_id):
            if ev["event"] != "section":  # a streaming model's tokens and sentence checks, as they come
                yield {**ev, "document_id": doc_id, "elapsed_ms": _ms(t0)}
                continue
            i, sec, written = ev["index"], ev["section"], ev["written"]
            sections.append(sec.to_dict())
            methods.append(written.method)
            if written.note:
                notes.append(written.note)
            numbered = renumber(sections)[-1]
            yield {"event": "section", "index": i, "document_id": doc_id, "section": numbered, "elapsed_ms": _ms(t0),
                   "method": written.method, "note": written.note}
        sections = renumber(sections)
        text = "\n".join(s["markdown"] for s in sections)
        entities = extract_entities(self.kb, text, topic=outline.topic,
                                    page_of=lambda n: store.entity_page(self.engine, n, user_id),
                                    cache=self.cache)
        follow_ups = propose_follow_ups(outline, entities, {s["heading"] for s in sections})
        method = "llm" if "llm" in methods else ("offline_fallback" if "offline_fallback" in methods else "offline")
        meta = {"entities": entities, "follow_ups": follow_ups, "method": method, "notes": notes,
                "sources": sorted({c["source"] for s in sections for c in s["citations"]})}
        doc = store.create_document(self.engine, doc_id=doc_id, topic=outline.topic, title=outline.title,
                                    category_path=category, sections=sections, meta=meta, parent_id=parent_id,
                                    level=level, user_id=user_id)
        store.set_entity_page(self.engine, outline.topic, doc_id, type_="concept")
        if entity_name and store.topic_key(entity_name) != store.topic_key(outline.topic):
            store.set_entity_page(self.engine, entity_name, doc_id)
        doc["notes"] = notes
        doc["elapsed_ms"] = _ms(t0)
        yield {"event": "done", "document": doc}

    def generate(self, topic: str, **kw: Any) -> dict[str, Any]:
        doc: dict[str, Any] = {}
        for ev in self.iter_generate(topic, **kw):
            if ev["event"] == "done":
                doc = ev["document"]
        return doc

    def _outline(self, topic: str, level: str, exclude: list[str] | None = None,
                 collections: tuple[str, ...] = ()) -> Outline:
        parts = split_comparison(topic)
        if not parts:
            return plan_document(self.kb, topic, level=level, strategy=self._strategy(), exclude=exclude, cache=self.cache,
                                 collections=collections)
        outs: list[Outline] = []
        seen = list(exclude or [])
        for p in parts:  # the second side never repeats a sentence of the first
            o = plan_document(self.kb, p, level="beginner", strategy=self._strategy(), exclude=seen, cache=self.cache,
                              collections=collections)
            seen += [c.text for g in o.groups for c in g[2]]
            outs.append(o)
        title = f"{parts[0]} 与 {parts[1]} 对比"
        missing = [o.topic for o in outs if not o.sufficient]
        if missing:
            closest = [t for o in outs for t in o.closest_topics]
            return Outline(title, title, False, min(o.quality for o in outs), outs[0].category_path, [], [],
                           list(dict.fromkeys(closest))[:5], [], 0.0,
                           f"the knowledge base has too little on {', '.join(missing)}")
        groups = []
        for o in outs:  # side by side: each one's overview and main detail, then each one's pitfalls
            groups.append(("definition", f"{o.topic}：概述", o.groups[0][2]))
            detail = next((g for g in o.groups[1:] if g[0] == "detail"), None)
            if detail:
                groups.append(("detail", f"{o.topic}：{detail[1]}", detail[2]))
        for o in outs:
            pit = next((g for g in o.groups if g[0] == "pitfall"), None)
            if pit:
                groups.append(("pitfall", f"{o.topic}：注意事项", pit[2]))
        return Outline(title, title, True, min(o.quality for o in outs), outs[0].category_path, groups,
                       [c for o in outs for c in o.unused], [], [s for o in outs for s in o.sources],
                       sum(o.retrieval_ms for o in outs))

    def _parent(self, parent_id: str | None) -> dict[str, Any] | None:
        if not parent_id:
            return None
        try:
            return store.get_document(self.engine, parent_id)
        except NotFound:
            return None

    # ----- follow-ups and merges: new sections in an existing document -----
    def expand_document(self, doc_id: str, question: str, *, why: str = "追问") -> dict[str, Any]:
        """Add sections answering ``question`` with material not yet in the document (new version)."""
        doc = self.get_document(doc_id)
        existing = [c["quote"] for s in doc["sections"] for c in s["citations"]]
        outline = plan_document(self.kb, question, level="beginner", strategy=self._strategy(), exclude=existing,
                                cache=self.cache)
        used = {(c["source"], int(c["start"])) for s in doc["sections"] for c in s["citations"]}
        groups = [(k, h, [c for c in ev if (c.source, c.start) not in used]) for k, h, ev in outline.groups]
        groups = [g for g in groups if g[2]]
        if not outline.sufficient or not groups:
            doc["change_summary"] = ""
            doc["unchanged_reason"] = ("知识库中没有比当前文档更多的相关内容" if outline.sufficient
                                       else insufficient_markdown(outline.topic, outline.closest_topics))
            return doc
        headings = {s["heading"] for s in doc["sections"]}
        new_sections: list[dict[str, Any]] = []
        for k, h, ev in groups[:2]:
            heading = clean_topic(question) if not new_sections else h
            heading = heading if heading not in headings else f"{heading}（补充）"
            sec, _ = next(iter_sections(Outline(outline.topic, outline.title, True, outline.quality, "", [(k, heading, ev)],
                                                [], [], [], 0.0), provider=self.provider, new_id=store.new_section_id))
            new_sections.append(sec.to_dict())
            headings.add(heading)
        sections = renumber(doc["sections"] + new_sections)
        summary = (f"根据{why}「{question[:40]}」新增 {len(new_sections)} 节："
                   + "、".join(s["heading"] for s in new_sections))
        return self._save(doc, sections, summary, author="assistant")

    def merge_topic(self, doc_id: str, topic: str) -> dict[str, Any]:
        """A near-duplicate topic becomes new sections of the existing page (and an alias of it)."""
        doc = self.expand_document(doc_id, topic, why="相近主题合并")
        store.set_entity_page(self.engine, clean_topic(topic), doc_id, type_="concept")
        return doc

    def _save(self, doc: dict[str, Any], sections: list[dict[str, Any]], summary: str, *, author: str) -> dict[str, Any]:
        text = "\n".join(s["markdown"] for s in sections)
        entities = extract_entities(self.kb, text, topic=doc["topic"],
                                    page_of=lambda n: store.entity_page(self.engine, n, doc.get("user_id")),
                                    cache=self.cache)
        saved = store.save_version(self.engine, doc["id"], sections, change_summary=summary, author=author,
                                   meta_updates={"entities": entities,
                                                 "sources": sorted({c["source"] for s in sections for c in s["citations"]}),
                                                 "follow_ups": self._follow_ups_for(doc["topic"], entities, sections)})
        return self._link(saved)

    def _follow_ups_for(self, topic: str, entities: list[dict[str, Any]], sections: list[dict[str, Any]]) -> list[str]:
        outline = plan_document(self.kb, topic, strategy=self._strategy(), cache=self.cache,
                                exclude=[c["quote"] for s in sections for c in s["citations"]])
        return propose_follow_ups(outline, entities, {s["heading"] for s in sections})

    # ----- comments -----
    def improve_from_comment(self, doc_id: str, *, selected_text: str, comment: str, section_id: str | None = None,
                             position: int | None = None, user_id: str = "anonymous") -> dict[str, Any]:
        """Classify the request, anchor the comment, and add what serves it as a new version — or decline.

        Returns {need, kinds, term, reason, comment, document, changed, message}. A factual question
        (``need == "question"``) is left for the knowledge pipeline to answer in the comment's thread;
        a request the knowledge base cannot serve leaves the document unchanged and the comment
        ``declined`` with "未能采纳：知识库中没有…" (never ``applied``).
        """
        doc = self.get_document(doc_id)
        hint = next((s for s in doc["sections"] if s["id"] == section_id), None)
        req = classify_request(comment, selected_text, kb=self.kb, context=hint["markdown"] if hint else "",
                               cache=self.cache, topic=doc.get("topic", ""))
        c = store.add_comment(self.engine, doc_id, selected_text=selected_text, comment=comment,
                              section_id=section_id, position=position, need=req.need, user_id=user_id)
        base = {"need": req.need, "kinds": list(req.kinds), "term": req.term, "reason": req.reason}
        if req.need == "question":
            return {**base, "comment": c, "document": doc, "changed": False,
                    "message": "评论是一个问题，将在评论下回答。"}
        sid = c["anchor"]["section_id"] or section_id
        section = next((s for s in doc["sections"] if s["id"] == sid), None)
        if section is None:
            raise InvalidInput("the selected text is not in this document")
        rw = rewrite_section(self.kb, doc, section, request=req, selected=selected_text, provider=self.provider,
                             cache=self.cache)
        if rw.declined:
            status = "answered" if rw.already else "declined"
            c = store.update_comment(self.engine, c["id"], status=status, reply=rw.declined)
            return {**base, "comment": c, "document": doc, "changed": False, "message": rw.declined,
                    "missing": rw.missing}
        new_section = {**section, "markdown": rw.markdown, "citations": rw.citations}
        sections = renumber([new_section if s["id"] == section["id"] else s for s in doc["sections"]
                             if s["id"] != section["id"] or rw.markdown.strip()])  # a section left empty goes
        new_md = next((s["markdown"] for s in sections if s["id"] == section["id"]), "")
        old_md = renumber(doc["sections"])[[s["id"] for s in doc["sections"]].index(section["id"])]["markdown"]
        summary = change_summary(old_md, new_md, heading=section["heading"], need=req.need, comment=comment,
                                 sources=[a.title or a.source for a in rw.added], lang=req.lang)
        if rw.missing:
            summary += ("; " if req.lang == "en" else "；") + missing_text(req, rw.missing)
        saved = self._save(doc, sections, summary, author="assistant")
        c = store.update_comment(self.engine, c["id"], status="applied", reply=summary)
        return {**base, "comment": c, "document": saved, "changed": True, "message": summary, "method": rw.method,
                "served": rw.served, "missing": rw.missing}

    def answer_comment(self, comment_id: str, answer: str) -> dict[str, Any]:
        return store.update_comment(self.engine, comment_id, status="answered", reply=answer)

    def collections_of(self, doc: dict[str, Any]) -> tuple[str, ...]:
        """The collection a document is written from (:func:`document_collections`)."""
        return document_collections(self.kb, doc)

    def write_answer(self, comment: dict[str, Any], ans: Answer) -> dict[str, Any]:
        """A question comment's checked answer. Confirmed: the sentences it cites that the document lacks go into
        the commented section after the selection, cited, as a new version (the comment ``applied``, its reply the
        answer). Otherwise — or when the document already holds them — the comment is ``answered`` with the reply
        and the document stays as it is. {comment, document, changed, message}."""
        doc = self.get_document(comment["document_id"])
        section = next((s for s in doc["sections"] if s["id"] == comment["anchor"]["section_id"]), None)
        have = "\n".join(c["quote"] for s in doc["sections"] for c in s["citations"])
        quotes = [[Cand(t, c["source"], c.get("title") or "", "", start, start + len(t), c.get("passage_id") or "",
                        "general")
                   for t, start in map(_unmarked, split_sentences(c["quote"], offset=int(c["start"])))
                   if t.strip() and t.strip() not in have]
                  for c in ans.citations] if ans.verdict.level == "confirmed" else []
        # the sentences of the answer's first quote the document lacks, and of its other quotes from the same
        # file (a roster row beside the stipend table is not the answer); none when the document already holds
        # the first quote: the reply points there
        first = [x for x in split_sentences(ans.citations[0]["quote"]) if x.text.strip()] if quotes else []
        # a "no" is written as the sentence that says it, one the document lacks ("…也能打95折吗？" → "…不打折。")
        denied = _denying(ans, [q for qs in quotes for q in qs], have) if PREMISE_WARNING in ans.verdict.warnings else []
        if denied:
            quotes = [denied]
        elif quotes and first and first[0].text.strip() in have:
            # the answer's lead is in the document already; what else its quote says is written only when it
            # names what the question asks beyond the topic ("…须本人…到窗口办理" for "需要本人到窗口申请吗")
            topic = str(doc.get("topic", ""))
            lead = first[0].text
            asked = [w for w in tokens(comment["comment"], search=False) if len(w) >= 2 and w not in topic
                     and w not in lead and w not in STOPWORDS]  # what the lead already in the document does not say
            # in any of its quotes ("…也能打95折吗？": the lead is the due-dates rule, "…不打折" the next quote's);
            # a who-question ("Who are they? I need names") by a quoted row that names its person
            who = kind_of(comment["comment"].lower()) == "person"
            quotes = [kept for qs in quotes if (kept := [q for q in qs if any(w in q.text for w in asked) or who and any(
                NAME_LABEL.match(label.strip()) for label, _v in row_fields(q.text))])]
        if not quotes or not quotes[0]:
            quotes = []
        new = list({q.text: q for qs in quotes for q in qs if q.source == quotes[0][0].source}.values())[:3]
        if section is None or not new:
            c = store.update_comment(self.engine, comment["id"], status="answered", reply=ans.reply)
            return {"comment": c, "document": doc, "changed": False, "message": ans.reply}
        next_n = max((int(c["n"]) for s in doc["sections"] for c in s["citations"]), default=0) + 1
        rows = {(r.source, r.start): r for q in new if q.text.lstrip().startswith("|")
                for r in table_rows(self.kb, q.source, self.cache)}  # a Markdown row reads under its header
        new = [replace(q, display=rows[(q.source, q.start)].said) if (q.source, q.start) in rows else q for q in new]
        block, cits = render_bullets([(q.said, q) for q in new], first_n=next_n)
        md = insert_after_anchor(section["markdown"], comment["selected_text"], block)
        new_section = {**section, "markdown": md, "citations": in_marker_order(md, section["citations"] + cits)}
        sections = renumber([new_section if s["id"] == section["id"] else s for s in doc["sections"]])
        summary = change_summary(section["markdown"], md, heading=section["heading"], need="question",
                                 comment=comment["comment"], sources=[q.title or q.source for q in new],
                                 lang=message_language(comment["comment"]) or "zh")
        saved = self._save(doc, sections, summary, author="assistant")
        c = store.update_comment(self.engine, comment["id"], status="applied", reply=ans.reply)
        return {"comment": c, "document": saved, "changed": True, "message": f"{ans.reply}\n\n{summary}"}

    # ----- entities -----
    def entity_page(self, name: str, user_id: str | None = None) -> str | None:
        """The page for a name; with ``user_id`` only a page that user owns (pages are private)."""
        return store.entity_page(self.engine, name, user_id)

    # ----- ownership -----
    def check_input_ids(self, inp: AgentInput, user: User) -> None:
        """Every learning-document id a turn's input names, in any field, passes :meth:`document_for`
        (NotFound otherwise, the same answer as the REST routes give): the document the turn would change
        (``current_document_id``, the comment's ``document_id``) for writing, the parent a new page is filed
        under (``source_document_id``, as the REST ``parent_id``) and ``recent_document_ids`` for reading."""
        for did in (inp.current_document_id, inp.comment.document_id if inp.comment else None):
            if did:
                self.document_for(did, user, write=True)
        for did in (inp.source_document_id, *inp.recent_document_ids):
            if did:
                self.document_for(did, user)

    def document_for(self, doc_id: str, user: User, *, write: bool = False) -> dict[str, Any]:
        """The document if ``user`` may read it (owner, or staff) or change it (owner only).

        Anyone else gets the same NotFound as for a missing id, so ids cannot be probed.
        """
        doc = self.get_document(doc_id)
        if doc["user_id"] == user.id or (not write and is_staff(user)):
            return doc
        raise NotFound(f"document {doc_id} not found")

    def path_for(self, path_id: str, user: User) -> dict[str, Any]:
        p = self.get_path(path_id, user.id)
        if p["user_id"] != user.id and not is_staff(user):
            raise NotFound(f"path {path_id} not found")
        return p

    def entity_index(self, q: str = "", limit: int = 200, user: User | None = None) -> list[dict[str, Any]]:
        """Learning entities (with pages and mentions) plus knowledge-base terms not yet in it.

        With ``user``: only the entities that user's own documents gave (staff: all), as documents
        are private; knowledge-base terms are everyone's. ``None``: all (the service's own use)."""
        scope = None if user is None or is_staff(user) else user.id
        items = store.list_entities(self.engine, q=q, limit=limit, user_id=scope)
        have = {e["key"] for e in items}
        qk = store.topic_key(q) if q else ""
        for _, t in sorted(kb_terms(self.kb, self.cache).items()):
            key = store.topic_key(t.name)
            if key in have or (qk and qk not in key):
                continue
            items.append({"key": key, "name": t.name, "type": t.type, "aliases": sorted(t.aliases),
                          "document_id": None, "mentioned_in": 0, "kb_sources": sorted(t.sources)[:10]})
            if len(items) >= limit:
                break
        return items

    # ----- planner -----
    def plan(self, goal: str, *, user_id: str = "anonymous", learned: list[str] | None = None) -> dict[str, Any]:
        known = [t["topic"] for t in store.learned_topics(self.engine, user_id)] + list(learned or [])
        links = self._parent_links()
        p = make_plan(self.kb, goal, learned=known, page_of=lambda n: self.entity_page(n, user_id),
                      parent_links=links)
        p["markdown"] = path_markdown(p)
        if not p["sufficient"]:
            return p
        saved = store.save_path(self.engine, user_id=user_id, goal=goal, steps=p["steps"])
        return {**p, "id": saved["id"], "created_at": saved["created_at"]}

    def _parent_links(self) -> list[tuple[str, str]]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(d.c.id, d.c.topic, d.c.parent_id)).all()
        topic = {r.id: r.topic for r in rows}
        return [(topic[r.parent_id], r.topic) for r in rows if r.parent_id in topic]

    def get_path(self, path_id: str, user_id: str | None = None) -> dict[str, Any]:
        """A saved path with the learned marks and page links as of now."""
        p = store.get_path(self.engine, path_id)
        known = [t["topic"] for t in store.learned_topics(self.engine, user_id or p["user_id"])]
        for s in p["steps"]:
            s["learned"] = s.get("learned", False) or is_learned(s["topic"], known)
            s["document_id"] = s.get("document_id") or self.entity_page(s["topic"], p["user_id"])
        return p

    # ----- reads -----
    def get_document(self, doc_id: str) -> dict[str, Any]:
        return self._link(store.get_document(self.engine, doc_id))

    def _link(self, doc: dict[str, Any]) -> dict[str, Any]:
        for e in doc.get("entities", []):  # the owner's own pages only: a link never reveals another's page id
            e["document_id"] = store.entity_page(self.engine, e["name"], doc.get("user_id"))
        doc["markdown"] = document_markdown(doc["title"], doc.get("sections", []))
        return doc

    def mark_read(self, doc_id: str, user_id: str = "anonymous") -> dict[str, Any]:
        doc = store.get_document(self.engine, doc_id)
        return store.mark_learned(self.engine, user_id, doc["topic"], doc_id)


def propose_follow_ups(outline: Outline, entities: list[dict[str, Any]], headings: set[str], n: int = 5) -> list[str]:
    """3-5 questions the knowledge base can answer: unused sections of the sources, entities, the path."""
    out: list[str] = []
    topic = clean_topic(outline.topic)
    seen_headings = {clean_topic(h) for h in headings}

    def heading_question(section: str, title: str) -> str | None:
        h = clean_topic(short_heading(section, title))
        if not _NOUN_HEADING.fullmatch(h) or h in seen_headings or h == topic or h in title:
            return None
        seen_headings.add(h)
        return f"{h}有哪些具体规定？" if message_language(h) == "zh" else f"What are the rules on {h}?"

    for c in outline.unused:
        q = heading_question(c.section, c.title)
        if q:
            out.append(q)
        if len(out) >= 2:
            break
    for e in entities:
        if len(out) >= n - 1:
            break
        name = str(e["name"])
        if name.lower() not in topic.lower() and topic.lower() not in name.lower() and _NOUN_HEADING.fullmatch(name):
            out.append(f"{name}是什么？" if message_language(name) == "zh" else f"What is {name}?")
    if len(out) < 3:
        for s in outline.sources:
            q = heading_question(s.get("section", ""), s.get("title", ""))
            if q:
                out.append(q)
            if len(out) >= 3:
                break
    if _NOUN_HEADING.fullmatch(topic):
        out.append(f"如何系统地学习{topic}？" if message_language(topic) == "zh" else f"How do I learn {topic} step by step?")
    return list(dict.fromkeys(out))[:n]


# a heading or name a question can be built on: a short noun phrase, not a sentence or a question
_NOUN_HEADING = re.compile(r"(?![^？?。，,：:；;！!]*(?:有哪些|是什么|什么|怎么|如何|吗|呢))[^？?。，,：:；;！!\s]{2,16}")


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)


_POINTS_AT_SELECTION = re.compile(r"这|那(?=个|些|里|条|项|句|段|种|样|儿)|它|此|他们|她们|上面|这里|"
                                  r"\b(?:this|that|it|here|they|them|these|those|their)\b", re.I)
"""A comment that points at the selection ("这个…", "那些人…", "what does it mean"); the "那" that opens a new case
("那B组租5天的话…") points at nothing."""


def in_marker_order(markdown: str, citations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A section's citations in the order their markers first appear in its text (what :func:`renumber` numbers)."""
    pos = {int(m.group(1)): m.start() for m in reversed(list(re.finditer(r"\[(\d+)\]", markdown)))}
    return sorted(citations, key=lambda c: pos.get(int(c["n"]), len(markdown)))


def _denying(ans: Answer, new: list[Cand], have: str) -> list[Cand]:
    """The sentence of ``new`` (quoted sentences the document lacks) that denies the question's premise, as the
    answer's evidence read whole judges it (:func:`premise`); a denying sentence the document has is passed over."""
    evidence = [x.text for c in ans.citations for x in split_sentences(c["quote"])]
    for _ in range(3):
        p = premise(ans.question, evidence)
        if p.answer != "no" or not p.sentence:
            return []
        if p.sentence.strip() not in have:
            return [q for q in new if q.text.strip() == p.sentence.strip()][:1]
        evidence = [t for t in evidence if t != p.sentence]
    return []


def _unmarked(s: Any) -> tuple[str, int]:
    """A quoted sentence without its list mark ("- A qualifying night is…" is the line the document has)."""
    m = LIST_MARK.match(s.text)
    return (s.text[m.end():], s.start + m.end()) if m else (s.text, s.start)


def asked_parts(comment: str) -> list[str]:
    """The comment's sentences that ask, when it also requests something ("Explain what 'booked directly' means
    here - does booking by phone count?" → "does booking by phone count?"); none when it asks all through.

    >>> asked_parts("Explain what 'booked directly' means here - does booking by phone count?")
    ['does booking by phone count?']
    >>> asked_parts("清运费按每平方米算，是按哪个面积？解释一下"), asked_parts("Gold earns 1.5 points. Why?")
    (['清运费按每平方米算，是按哪个面积？'], ['Why?'])
    """
    parts = [p.strip() for p in re.split(r"(?<=[?？])|\s[-–—]\s|(?<=[.!])\s+|(?<=[。！])", comment) if p and p.strip()]
    asking = [p for p in parts if re.search(r"[?？]", p)]
    return asking if asking and len(asking) < len(parts) else []


def comment_question(selected_text: str, comment: str, topic: str = "") -> str:
    """The question a comment asks, standing alone: one that points at the selection ("这里说的预热要多久？")
    is asked about the selected text; one that names nothing of the document's topic is asked about it
    ("请假超过多少天会暂停发放？" on a document about 研究生助研津贴)."""
    if _POINTS_AT_SELECTION.search(comment):
        return f"{selected_text} {comment}"
    cjk = "".join(re.findall(r"[\u4e00-\u9fff]", topic))
    words = [cjk[i:i + 2] for i in range(len(cjk) - 1)] + re.findall(r"[a-z]{4,}", topic.lower())
    if topic and not any(w in comment.lower() for w in words):
        return _about(topic, comment)
    return comment


def _about(subject: str, question: str) -> str:
    """``question`` asked about ``subject``, with the colon of the question's language ("年假：…", "PTO: …")."""
    return f"{subject}：{question}" if re.search(r"[\u4e00-\u9fff]", question) else f"{subject}: {question}"


async def comment_on(svc: LearningService, doc_id: str, *, selected_text: str, comment: str, kdeps: KnowledgeDeps,
                     section_id: str | None = None, position: int | None = None,
                     user_id: str = "anonymous", lexicon: Lexicon | None = None) -> dict[str, Any]:
    """A comment on a learning document, whatever it asks — the one code path of the REST comment route, the
    chat comment turn and ``knowzero eval learning``. An edit, an example, a reason or an expansion goes through
    :meth:`LearningService.improve_from_comment`; a question is answered by the knowledge answerer (the chat
    path's checks and verdict) over the collections the document was written from, and a confirmed answer's
    cited sentences go into the commented section as a new version (:meth:`LearningService.write_answer`).
    The improve result, with ``verdict`` for a question."""
    res = await asyncio.to_thread(svc.improve_from_comment, doc_id, selected_text=selected_text, comment=comment,
                                  section_id=section_id, position=position, user_id=user_id)
    asked = res["need"] == "question"
    # a clarification that asks ("Explain the grades - which grade are the managers on?", "是按哪个面积？") and
    # that the sources' example, reason or definition sentences did not serve is answered as a question: a
    # confirmed answer goes in, anything less leaves the decline as it was
    fallback = (res["need"] in CLARIFY_NEEDS and not res["changed"] and res["comment"].get("status") == "declined"
                and asks(comment))
    if not (asked or fallback):
        return res
    # the document's own organisation, whatever the thread chose: another one's rule never goes into it
    kdeps = replace(kdeps, collections=svc.collections_of(res["document"]) or kdeps.collections)

    async def ask(question: str) -> Answer:  # in either language, as chat reads it ("What's the deposit…" over 押金)
        return await (answer_in_either(question, kdeps, lexicon) if lexicon is not None else answer(question, kdeps))

    term = str(res.get("term") or "")

    def serves(a: Answer) -> bool:  # a fallback's answer gives what the clarification asks (a reason for "why")
        return a.verdict.level == "confirmed" and (asked or gives_kind(" ".join(c["quote"] for c in a.citations),
                                                                        res["need"]))
    ans: Answer | None = None
    for part in asked_parts(comment) if fallback else []:
        # the part asked about the comment's term ("booked directly: does booking by phone count?")
        one = await ask(part if not term or term.lower() in part.lower() else _about(term, part))
        if serves(one):
            ans = one
            break
    if ans is None:
        # what the comment asks, without a remark beside it ("…一天多少钱？资料里没看到价格表。")
        comment = " ".join(parts) if asked and (parts := asked_parts(comment)) else comment
        ans = await ask(comment_question(selected_text, comment))
        about = comment_question(selected_text, comment, res["document"].get("topic", ""))
        if ans.verdict.level != "confirmed" and about != comment_question(selected_text, comment):
            ans = await ask(about)  # "请假超过多少天会暂停发放？" is asked about the document's topic
        if fallback and not serves(ans):
            return res
    out = await asyncio.to_thread(svc.write_answer, res["comment"], ans)
    return {**res, **out, "verdict": ans.verdict.to_dict(), "answer": ans}
