"""Compose a learning document for a topic from the knowledge base, one section at a time.

Offline (the default) every sentence of the document *is* a sentence of the knowledge base,
copied verbatim with its source and character offsets, so every citation resolves by
construction: retrieve passages for the topic → split them into sentences (list markers stripped,
offsets kept) → score each against the topic (IDF-weighted term coverage, the passage's rank) →
drop near-duplicates → sort into headed sections: overview/definitions first, then details
grouped by the knowledge base's own section headings (in document order), examples, and common
pitfalls. With a chat model, each section is rewritten by the model from the same numbered
evidence; every sentence it writes is checked with :func:`knowzero.knowledge.answer.check.check_written`
against the evidence it cites, and sentences that fail are removed (the count is reported).
When the knowledge base has too little on the topic, :func:`plan_document` says so and lists the
closest topics it does cover; it never fills the gap.

Here: the outline (:func:`plan_document`) and writing its sections (:func:`iter_section_events`). The
candidate sentences and their scores are ``sentences.py``; the Markdown and citations ``render.py``
(both re-exported here). Does not store anything (see ``store.py``) and does not know about the graph.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from knowzero.errors import ProviderError
from knowzero.input import message_language
from knowzero.knowledge.answer import check
from knowzero.knowledge.answer.retriever import Plan, evidence_quality, retrieve
from knowzero.learning.cache import KBCache
from knowzero.learning.render import (
    Citation,
    Section,
    document_markdown,
    insufficient_markdown,
    render_bullets,
    renumber,
)
from knowzero.learning.sentences import (
    DEF_SECTION,
    LIST_MARK,
    Cand,
    classify,
    clean_sentence,
    dedupe,
    file_sentences,
    near_duplicate,
    passage_sentences,
    relevance,
    short_heading,
    term_weights,
)
from knowzero.learning.source_tables import MAX_TABLE_ROWS, file_tables, is_row, table_rows, topic_tables
from knowzero.llm.base import ChatProvider, StreamingProvider, chat_json
from knowzero.understanding.analysis import analyse

__all__ = [  # what callers import from here; the sentences and the rendering live in sentences.py and render.py
    "DOMAIN_LABELS", "HEADINGS", "MIN_SENTENCES", "SUFFICIENT_QUALITY", "Cand", "Citation", "Outline", "STREAM_EXAMPLE",
    "STREAM_SYSTEM", "Section", "Unsupported", "WRITE_SCHEMA", "Written", "check_sentence", "classify",
    "asks_for_document", "clean_sentence", "clean_topic", "closest_topics", "dedupe", "defines", "document_markdown", "file_sentences",
    "in_evidence_order", "insufficient_markdown", "iter_section_events", "iter_sections", "main_source",
    "near_duplicate", "parse_sentence", "passage_sentences", "plan_document", "referenced", "relevance",
    "render_bullets", "renumber", "section_heading", "short_heading", "stream_section", "subject_definitions",
    "table_rows", "take_sentences", "term_weights", "write_section",
]

SUFFICIENT_QUALITY = 0.5
MIN_SENTENCES = 2
RELATED_RELEVANCE = 0.5
_LEVEL_SHAPE = {  # (detail sections, sentences per detail section, overview sentences)
    "beginner": (3, 4, 3),
    "intermediate": (4, 5, 3),
    "advanced": (5, 6, 4),
}
HEADINGS = {"overview": ("概述与定义", "Overview and definitions"), "other": ("其他要点", "Other points"),
            "example": ("示例", "Examples"), "pitfall": ("常见误区与注意事项", "Pitfalls and cautions"),
            "related": ("相关：", "Related: ")}
"""The headings a document's sections get, in the topic's language (an English topic gets English headings)."""


def section_heading(key: str, topic: str) -> str:
    """A standard section's heading in the topic's language.

    >>> section_heading("overview", "Annual leave"), section_heading("overview", "年假")
    ('Overview and definitions', '概述与定义')
    """
    zh, en = HEADINGS[key]
    return en if message_language(topic) == "en" else zh


DOMAIN_LABELS = {"technical": "技术", "hr": "人事", "product": "产品", "policy": "制度", "general": "综合"}


@dataclass
class Outline:
    """What :func:`plan_document` found: enough to stream sections, or why not."""

    topic: str
    title: str
    sufficient: bool
    quality: float
    category_path: str
    groups: list[tuple[str, str, list[Cand]]]  # (kind, heading, sentences)
    unused: list[Cand]
    closest_topics: list[str]
    sources: list[dict[str, Any]]
    retrieval_ms: float
    reason: str = ""


def _top(c: Cand) -> str:
    """The top-level heading a sentence is under ("" for the text before the first one): the second part
    of "Title / 一、… / 1.1 …", or the first when the file's headings are all top-level (a DOCX's)."""
    parts = c.section.split(" / ")
    if len(parts) > 1:
        return parts[1]
    return "" if parts[0] in ("", c.title) else parts[0]




# ----- outline -----

_QUESTION_FRAME = re.compile(r"(?:有哪些具体规定|有哪些规定|有什么规定|有哪些要求|有什么要求|的具体规定|具体怎么做|怎么做|如何做|"
                             r"包括哪些(?:步骤|内容)?|有哪些步骤|是什么|是指什么|吗|呢|吧|的知识|相关知识|的文档)?[？?。！!\s]*$")


_DOCUMENT_ASK = re.compile(
    r"(?:关于|有关)(?P<x>.{2,40}?)的?(?:学习|培训)?(?:文档|资料|材料|笔记|讲义|教程)"
    r"|(?:^|(?<=[，,。！？!?\s])|(?<=能不能)|(?<=能否)|(?<=可以)|(?<=麻烦))(?:请|帮我|给我|为我|给[^，,。！？]{1,8}?)?(?:生成|写|整理|做|创建|出)(?:一份|一篇|一个|个|份|篇)?(?![一个份篇]|关于|有关)(?P<y>.{2,40}?)的?(?:学习|培训)(?:文档|资料|材料|笔记|讲义)"
    r"|\b(?:learning|study|training)\s+(?:document|doc|guide|notes?|page)\s+(?:for\s+[\w\s-]{2,30}?\s+(?=about|on)|)(?:about|on|for)\s+(?P<z>.{2,80}?)\s*[.?!]?$"
    r"|(?:^|(?<=[.!?]\s))(?:please\s+)?(?:write|generate|create|make|put together)\s+(?:me\s+)?(?:a|an)\s+(?:document|doc|guide|page)\s+(?:for\s+[\w\s-]{2,30}?\s+(?=about|on)|)(?:about|on)\s+"
    r"(?P<w>.{2,80}?)\s*[.?!]?$"
    # "Please write a guide for new drivers: which licence …": the readers, and what the guide must say
    r"|(?:^|(?<=[.!?]\s))(?:please\s+)?(?:write|generate|create|make|put together)\s+(?:me\s+)?(?:a|an)\s+(?:learning\s+)?(?:document|doc|guide|page)\s+"
    r"(?:for|to)\s+(?P<v>[^:：]{2,40}[:：].{2,120}?)\s*[.?!]?$", re.I)


_FOR_READER = re.compile(r"\s+for\s+(?:a\s+|an\s+|the\s+|our\s+)?(?:new|newly[- ]\w+)\b[\w\s-]{0,40}$", re.I)
"""The reader a request names after its topic ("… booking deposits for a new events assistant"): not the topic."""


def asks_for_document(text: str) -> bool:
    """The message asks for a document on a topic ("Generate a learning document about X", "帮我生成一份关于X的学习文档").

    >>> asks_for_document("Create a study guide on remote work at Qinglan"), asks_for_document("系统地学习热处理")
    (True, False)
    """
    return _DOCUMENT_ASK.search(text.strip()) is not None


def clean_topic(text: str) -> str:
    """'我想系统地学习班后保养' / '班后保养有哪些具体规定？' / '如何系统地学习班后保养？' → '班后保养';
    a request for a document names its topic: '帮我生成一份关于年假的学习文档' → '年假'.

    >>> clean_topic("帮我生成一份关于清源实验室研究生助研津贴的学习文档"), clean_topic("Write a learning guide about paid time off.")
    ('清源实验室研究生助研津贴', 'paid time off')
    >>> clean_topic("Write a learning guide for new staff about annual leave at Kestrelmoor")
    'annual leave at Kestrelmoor'
    >>> clean_topic("I just started in the marina office. Write a guide about the visitor berthing tariff for 2026")
    'visitor berthing tariff for 2026'
    >>> clean_topic("Write a learning guide on venue hire prices and booking deposits for a new events assistant")
    'venue hire prices and booking deposits'
    >>> clean_topic("我家孩子秋天入学，能不能帮我整理一份学费和住宿费的学习文档？"), clean_topic("learning doc on overtime pay")
    ('学费和住宿费', 'overtime pay')

    """
    if m := _DOCUMENT_ASK.search(text.strip()):  # the request names its topic: 学费 keeps its 学
        named = re.sub(r"^(?:the|a|an|our|my|your|their)\s+", "", next(g for g in m.groups() if g), flags=re.I)
        named = _FOR_READER.sub("", named) or named
        return _QUESTION_FRAME.sub("", named).strip(" ：:，,") or named.strip()
    t = re.sub(r"^(?:请|帮我|我想|我要|想要|给我)?(?:如何|怎样|怎么)?(?:系统地?|全面地?|深入地?)?(?:学会|学习|学|掌握|了解一下|了解|"
               r"介绍一下|介绍|讲讲|讲一下|说说|什么是|teach me|explain|learn)\s*", "", text.strip(), flags=re.I)
    t = _QUESTION_FRAME.sub("", t)
    return t.strip(" ：:，,") or text.strip()


def closest_topics(kb: Any, topic: str, passages: list[Any], k: int = 5,
                   collections: tuple[str, ...] = ()) -> list[str]:
    """Titles of knowledge-base documents nearest to the topic (real titles only), from the searched
    ``collections`` only (() — every collection): another organisation's or the demo's titles are not offered."""
    out: list[str] = []
    for s in passages:
        t = s.passage.title or s.passage.path
        if t not in out:
            out.append(t)
    if len(out) < k:
        from rapidfuzz import fuzz, process

        allowed = {p for c in collections for p in kb.collection_paths(c)} if collections else None
        titles = sorted({t for p, t in kb.document_titles().items() if allowed is None or p in allowed})
        for t, _, _ in process.extract(topic, titles, scorer=fuzz.partial_ratio, limit=k):
            if t not in out:
                out.append(t)
    return out[:k]


OPENING_CHARS = 200
"""Where a file names its organisation: its title and first lines."""


def owner_of(kb: Any, topic: str) -> tuple[tuple[str, ...], str]:
    """(the collection ``topic`` names by its organisation's name, the topic without that name); ((), topic)
    when it names none. "Maple Grove purchase approval" → (("maplegrove-vet",), "purchase approval"): the same
    reading as chat's (:func:`~knowzero.knowledge.answer.pipeline.scoped_by_question`)."""
    # a topic is a title: a capitalised first word may name the organisation too ("Maple Grove …")
    proper = {w.lower() for w in re.findall(r"\b[A-Z][A-Za-z]+", topic)}
    words = [t for t in analyse(topic).terms if not t.isascii() or t in proper]
    named = kb.collections_named(words)
    if not named:
        return (), topic
    subject = topic
    openings = [kb.text_of(p)[:OPENING_CHARS] for p in kb.collection_paths(named[0])] if len(named) == 1 else []
    for w in words:
        # the organisation's name, not a topic word only it writes ("会员折扣" of the one company with members):
        # a capitalised word, or one most of its files open with ("行远租车 租车价目表")
        opens = sum(w in o for o in openings) * 2 >= len(openings) > 0
        if (w.isascii() or opens) and kb.collections_named([w]) == named:
            subject = re.sub(re.escape(w), " ", subject, flags=re.I)
    subject = re.sub(r"\s+", " ", subject).strip()
    return named, subject or topic


def plan_document(kb: Any, topic: str, *, level: str = "beginner", strategy: str = "hybrid",
                  top_k: int = 10, exclude: list[str] | None = None, cache: KBCache | None = None,
                  collections: tuple[str, ...] = ()) -> Outline:
    """Retrieve and sort the topic's evidence into section groups (fast: no model but the query encoder);
    ``collections``: the ones chosen (none: the team's own, the demo only while it is all there is)."""
    topic = clean_topic(topic)
    t0 = time.perf_counter()
    if strategy == "hybrid" and not kb.has_vectors():
        strategy = "keyword"
    # none chosen: the organisation the topic names ("Maple Grove purchase approval"), as chat scopes a question;
    # else the team's own documents (the demo only while it is all there is)
    owner, subject = ((), topic) if collections else owner_of(kb, topic)
    # within it, what the topic asks about: the organisation's name is the collection's, not a word each of
    # its files writes (the purchase matrix never says "Maple Grove"; the handbook would outrank it by name)
    searched = tuple(collections) or owner or tuple(kb.default_collections())
    r = retrieve(kb, subject, Plan(top_k=top_k, strategy=strategy, collections=searched),  # type: ignore[arg-type]
                 budget_chars=8000)
    retrieval_ms = (time.perf_counter() - t0) * 1000
    old = kb.superseded()  # a policy's current edition, never the one it replaces
    passages = [s for s in r.passages if not s.passage.id.startswith("sql:") and s.passage.path not in old]
    quality = evidence_quality(kb, subject, r)
    weights = term_weights(kb, subject)
    cands: list[Cand] = []
    for rank, s in enumerate(passages):
        p = s.passage
        head = f"{p.title} {p.section}"
        for c in passage_sentences(kb, p):
            rel = relevance(weights, c.text, head)
            if rel <= 0:
                continue
            score = rel + 0.3 / (1 + rank) + (0.15 if c.kind == "definition" else 0.0)
            cands.append(Cand(c.text, c.source, c.title, c.section, c.start, c.end, c.passage_id, c.domain,
                              round(score, 4), c.kind))
    cands.sort(key=lambda c: -c.score)
    cands = dedupe(cands, exclude)
    domain = _dominant(c.domain for c in cands) or "general"
    top_title = cands[0].title if cands else ""
    category = "/".join(x for x in (DOMAIN_LABELS.get(domain, "综合"), top_title, topic) if x)
    sources = [{"source": s.passage.path, "title": s.passage.title, "section": s.passage.section,
                "score": round(s.score, 5)} for s in passages]
    if quality < SUFFICIENT_QUALITY or len(cands) < MIN_SENTENCES:
        reason = (f"the knowledge base covers {quality:.0%} of the topic's terms" if quality < SUFFICIENT_QUALITY
                  else f"only {len(cands)} relevant sentence(s) found")
        return Outline(topic, topic, False, quality, category, [], [], closest_topics(kb, topic, passages,
                                                                                     collections=searched), sources,
                       retrieval_ms, reason)
    n_groups, per_group, n_overview = _LEVEL_SHAPE.get(level, _LEVEL_SHAPE["beginner"])
    main = main_source(kb, subject, passages, weights)
    if main is not None:
        return _outline_by_source(kb, topic, main, cands, quality, category, sources, retrieval_ms, per_group,
                                  n_overview, exclude or [], weights, cache)
    used: set[tuple[str, int]] = set()

    def take(pool: list[Cand], n: int) -> list[Cand]:
        out: list[Cand] = []
        for c in pool:
            if len(out) >= n:
                break
            if (c.source, c.start) not in used:
                used.add((c.source, c.start))
                out.append(c)
        return out

    groups: list[tuple[str, str, list[Cand]]] = []
    defining = [c for c in cands if defines(c.text, topic)] or subject_definitions(kb, referenced(kb, cands, topic), topic, cache)
    overview = take(defining[:1], 1)
    # a scope or purpose line from the file about the topic, not from another policy of the same company
    titled = {c.source: relevance(weights, c.title) for c in cands}
    best_title = max(titled.values(), default=0.0)
    own = [c for c in cands if titled[c.source] >= 0.5 * best_title]
    overview += take([c for c in own if c.kind == "definition" and c.section.split(" / ")[-1:] != [""]
                      and DEF_SECTION.search(c.section.split(" / ")[-1]) or defines(c.text, topic)],
                     n_overview - len(overview))
    overview += take([c for c in own if c.kind == "definition"], n_overview - len(overview))
    if len(overview) < 2:  # no definition: sentences about the topic itself, not "可能原因：…" lists
        plain = sorted((c for c in cands if c.kind in ("detail", "definition") and not _LABEL.match(c.text)
                        and not is_row(c)),  # a table's row stays with its table
                       key=lambda c: (_subject_pos(c.text, topic), -c.score))
        overview += take(plain, 2 - len(overview))
    groups.append(("definition", section_heading("overview", topic), overview[:1] + sorted(overview[1:], key=_doc_order)))
    by_heading: dict[tuple[str, str], list[Cand]] = {}
    for c in cands:
        if c.kind in ("detail", "definition") and (c.source, c.start) not in used:
            by_heading.setdefault((c.title, short_heading(c.section, c.title)), []).append(c)
    ranked = sorted(by_heading.items(), key=lambda kv: -sum(c.score for c in kv[1][:3]))
    singles: list[Cand] = []
    for (_, heading), members in ranked:
        if len(groups) - 1 >= n_groups:
            break
        if len(members) < 2:
            singles.extend(members)
            continue
        picked = take(sorted(members, key=lambda c: -c.score), per_group)
        if picked:
            heading = heading if heading not in {g[1] for g in groups} else f"{heading}（{picked[0].title}）"
            groups.append(("detail", heading, sorted(picked, key=_doc_order)))
    groups[1:] = sorted(groups[1:], key=lambda g: _doc_order(g[2][0]))  # details in the sources' own order
    if len(groups) - 1 < n_groups and singles:
        picked = take(sorted(singles, key=lambda c: -c.score), per_group)
        if picked:
            groups.append(("detail", section_heading("other", topic), sorted(picked, key=_doc_order)))
    paths = list(dict.fromkeys(s.passage.path for s in passages))[:5]
    for heading, rows in reversed(topic_tables(kb, paths, weights, cache, topic=topic)):  # the topic's table, first after the overview
        rows = [c for c in rows if (c.source, c.start) not in used]
        if not rows:
            continue
        used |= {(c.source, c.start) for c in rows}
        same = next((i for i, g in enumerate(groups) if g[1] == heading), None)
        if same is not None:  # a section of that heading already: the table goes into it
            kind, h, members = groups[same]
            groups[same] = (kind, h, sorted(members + rows, key=_doc_order))
        else:
            groups.insert(1, ("detail", heading, rows))
    examples = take([c for c in cands if c.kind == "example"], per_group)
    if examples:
        groups.append(("example", section_heading("example", topic), sorted(examples, key=_doc_order)))
    pitfalls = take([c for c in cands if c.kind == "pitfall"], per_group)
    if pitfalls:
        groups.append(("pitfall", section_heading("pitfall", topic), sorted(pitfalls, key=_doc_order)))
    unused = [c for c in cands if (c.source, c.start) not in used]
    return Outline(topic, topic, True, quality, category, groups, unused, [], sources, retrieval_ms)


def defines(text: str, topic: str) -> bool:
    """'X是…/X指…/X用于…' (or 'X（…）是一种…'): the sentence says what the topic is."""
    t = unicodedata.normalize("NFKC", topic).lower().strip()
    s = unicodedata.normalize("NFKC", text).lower()
    i = s.find(t) if t else -1
    if i < 0 or i > 12:  # the topic must be the sentence's subject, near its start
        return False
    rest = s[i + len(t):]
    return re.match(r"\s*(?:[（(][^）)]{0,40}[)）])?\s*[，,]?\s*(?:是指|指的是|是一种|是一個|是一个|是|指|即|用于|用來|用来|"
                    r"又称|简称|称为|定义为|\bis\b|\bare\b|refers to|means)", rest) is not None \
        and not re.match(r"\s*(?:是否|是不是)", rest)


_LABEL = re.compile(r"^[^，,。]{1,6}[：:]")


def _subject_pos(text: str, topic: str) -> int:
    i = unicodedata.normalize("NFKC", text).lower().find(unicodedata.normalize("NFKC", topic).lower())
    return i if i >= 0 else 99


def referenced(kb: Any, cands: list[Cand], topic: str) -> list[str]:
    """Files the knowledge base itself points to for the topic: '主轴相关的详细检查项目，请参考英文文件《CNC Spindle
    Maintenance Checklist》' makes that checklist a source on 主轴."""
    titles = {unicodedata.normalize("NFKC", t).lower(): path for path, t in kb.document_titles().items() if t != path}
    out: list[str] = []
    for c in cands:
        if _subject_pos(c.text, topic) == 99:
            continue
        for ref in re.findall(r"《([^》]{2,80})》", c.text):
            path = titles.get(unicodedata.normalize("NFKC", ref).lower())
            if path and path != c.source and path not in out:
                out.append(path)
    return out


def subject_definitions(kb: Any, paths: list[str], topic: str, cache: KBCache | None = None) -> list[Cand]:
    """'The spindle is…' in the purpose section of a file the knowledge base names as a source on the topic,
    whose title names that subject ("CNC Spindle Maintenance Checklist"): what the topic is, when the
    knowledge base says it only there (possibly in another language)."""
    out: list[Cand] = []
    for path in paths:
        for c in file_sentences(kb, path, cache):
            title = unicodedata.normalize("NFKC", c.title or "").lower()
            m = re.match(r"(?:the |a |an )?([a-z][a-z \-]{2,30}?) (?:is|are|refers to) (?:the|a|an) ", c.text.lower())
            if m and m.group(1) in title and c.kind == "definition":
                out.append(c)
    return out[:1]


def main_source(kb: Any, topic: str, passages: list[Any], weights: dict[str, float]) -> str | None:
    """The file a topic names as a whole ("CNC维护" → the CNC maintenance procedure): its title holds the
    topic's terms and it holds most of the retrieved evidence. None for a narrower topic ("年假", "主轴")."""
    score: dict[str, float] = {}
    title: dict[str, str] = {}
    for s in passages:
        score[s.passage.path] = score.get(s.passage.path, 0.0) + s.score
        title.setdefault(s.passage.path, s.passage.title or "")
    if not score:
        return None
    # the organisation a topic names ("Maple Grove continuing education") is in the file's first lines, not its title
    hits = {p: relevance(weights, title[p], kb.text_of(p)[:600]) for p in score}
    best = max(score, key=lambda k: score[k])
    total = sum(score.values())
    if hits[best] >= 0.6 and score[best] >= 0.4 * total:
        return best
    named = [p for p in score if hits[p] >= 0.6]  # the one file whose title names the topic, though others say more
    return named[0] if len(named) == 1 and score[named[0]] >= 0.2 * total else None


def _outline_by_source(kb: Any, topic: str, path: str, cands: list[Cand], quality: float, category: str,
                       sources: list[dict[str, Any]], retrieval_ms: float, per_group: int, n_overview: int,
                       exclude: list[str], weights: dict[str, float], cache: KBCache | None = None) -> Outline:
    """One section per top-level heading of the main source, in its order; the purpose first (``weights``: the
    topic's term weights, :func:`term_weights`)."""
    sents = dedupe([c for c in file_sentences(kb, path, cache) if not is_row(c)], exclude)
    by_top: dict[str, list[Cand]] = {}
    for c in sorted(sents + [r for rows in file_tables(kb, path, cache).values() for r in rows[:MAX_TABLE_ROWS]],
                    key=lambda c: c.start):
        by_top.setdefault(_top(c), []).append(c)
    used: set[tuple[str, int]] = set()
    groups: list[tuple[str, str, list[Cand]]] = []
    heads = list(by_top)
    overview: list[Cand] = []
    if heads and (DEF_SECTION.search(heads[0]) or not heads[0]):  # 一、目的与适用范围 is the overview
        first = by_top.pop(heads[0])
        overview = [c for c in first if not is_row(c)][:n_overview]
        if rows := [c for c in first if is_row(c)]:  # a table before the first heading is kept whole, after it
            by_top = {heads[0]: rows, **by_top}
    defining = [c for c in sents if defines(c.text, topic) and c not in overview]
    overview = (defining[:1] + overview)[:n_overview]
    if overview:
        groups.append(("definition", section_heading("overview", topic), overview))
        used |= {(c.source, c.start) for c in overview}
    for top, members in by_top.items():
        free = [c for c in members if (c.source, c.start) not in used]
        rows = [c for c in free if is_row(c)]  # a section's table is kept whole: it is the section's facts
        picked = sorted(_spread([c for c in free if not is_row(c)], per_group) + rows, key=_doc_order)
        if not picked:
            continue
        used |= {(c.source, c.start) for c in picked}
        kind = "pitfall" if all(c.kind == "pitfall" for c in picked) else "detail"
        groups.append((kind, short_heading(top) or topic, picked))
    others = [c for c in cands if c.source != path and (c.source, c.start) not in used]
    # another file's sentence must be about the topic itself, not its organisation
    extra = [c for c in others if c.kind in ("detail", "definition")
             and relevance(weights, c.text, f"{c.title} {c.section}") >= RELATED_RELEVANCE][:per_group]
    if len(extra) >= 2:
        groups.append(("detail", section_heading("related", topic) + short_heading(extra[0].section, extra[0].title),
                       sorted(extra, key=_doc_order)))
        used |= {(c.source, c.start) for c in extra}
    unused = [c for c in cands if (c.source, c.start) not in used]
    return Outline(topic, topic, True, quality, category, groups, unused, [], sources, retrieval_ms)


def _spread(members: list[Cand], n: int) -> list[Cand]:
    """Up to ``n`` sentences taken in turn from each sub-heading (start-up checks and warm-up, not just one)."""
    subs: dict[str, list[Cand]] = {}
    for c in members:
        subs.setdefault(c.section, []).append(c)
    for k in subs:  # prose before label lines ("低速段：…")
        subs[k] = sorted(subs[k], key=lambda c: bool(_LABEL.match(c.text)))
    out: list[Cand] = []
    rnd = 0
    while len(out) < n and any(len(v) > rnd for v in subs.values()):
        for v in subs.values():
            if len(v) > rnd and len(out) < n:
                out.append(v[rnd])
        rnd += 1
    return sorted(out, key=_doc_order)


def _doc_order(c: Cand) -> tuple[str, int]:
    return (c.source, c.start)


def _dominant(values: Any) -> str:
    counts: dict[str, int] = {}
    for v in values:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda k: counts[k]) if counts else ""


# ----- writing sections (offline, or by a chat model and checked) -----

WRITE_SCHEMA = {
    "type": "object",
    "required": ["sentences"],
    "properties": {"sentences": {"type": "array", "maxItems": 8, "items": {
        "type": "object", "required": ["text", "evidence"],
        "properties": {"text": {"type": "string", "maxLength": 120}, "evidence": {"type": "integer"}}}}},
}  # bounded to fit max_tokens: a server that enforces the schema then always returns valid JSON


@dataclass
class Written:
    markdown: str
    citations: list[dict[str, Any]]
    method: str  # offline | llm | offline_fallback
    removed: int = 0
    note: str = ""


def write_section(heading: str, kind: str, evidence: list[Cand], *, topic: str, level: str = "beginner",
                  provider: ChatProvider | None = None, instruction: str = "") -> Written:
    """Text for one section from its evidence sentences (see module doc)."""
    if provider is not None and evidence:
        try:
            return _llm_section(provider, heading, kind, evidence, topic=topic, level=level, instruction=instruction)
        except ProviderError as exc:
            md, cits = render_bullets([(c.said, c) for c in evidence])
            return Written(md, cits, "offline_fallback", note=exc.message)
    md, cits = render_bullets([(c.said, c) for c in evidence])  # a table row as its cells read
    return Written(md, cits, "offline")


def _llm_section(provider: ChatProvider, heading: str, kind: str, evidence: list[Cand], *, topic: str, level: str,
                 instruction: str) -> Written:
    blocks = "\n".join(f"[{i + 1}] {c.text}" for i, c in enumerate(evidence))
    system = ("你是学习文档的作者。只用给出的编号证据写作，不得添加证据中没有的事实。"
              "返回 JSON：{\"sentences\": [{\"text\": 一句中文, \"evidence\": 支撑这句话的证据编号}]}。"
              f"读者水平：{level}。" + instruction)
    user = f"主题：{topic}\n小节：{heading}（{kind}）\n证据：\n{blocks}"
    data = chat_json(provider, [{"role": "system", "content": system}, {"role": "user", "content": user}],
                     WRITE_SCHEMA, max_tokens=800)
    kept: list[tuple[str, Cand]] = []
    removed = 0
    for s in data.get("sentences") or []:
        if not isinstance(s, dict):
            removed += 1
            continue
        text = str(s.get("text") or "").strip()
        try:
            idx = int(s.get("evidence", 0)) - 1
        except (TypeError, ValueError):
            idx = -1
        if not text or not 0 <= idx < len(evidence):
            removed += 1
            continue
        if check.check_written(topic, text, evidence[idx].text).level != "confirmed":
            removed += 1
            continue
        kept.append((text, evidence[idx]))
    if not kept:
        raise ProviderError("no sentence the model wrote was supported by the knowledge base")
    md, cits = render_bullets(kept)
    note = f"removed {removed} sentence(s) the knowledge base does not support" if removed else ""
    return Written(md, cits, "llm", removed, note)


# ----- a streaming model: tokens as they come, each sentence checked before it is kept -----

STREAM_SYSTEM = ("你是学习文档的作者。把给出的编号证据改写成通俗易懂的中文句子，只写证据中有的事实，"
                 "不得添加证据中没有的事实、数字或名称。每句话单独一行，句末用方括号写出依据的证据编号。"
                 "不要写标题、列表符号或其他说明。读者水平：{level}。")
# one worked exchange (facts from no knowledge base): small models otherwise answer with bare "[1] [2]"
STREAM_EXAMPLE = [
    {"role": "user", "content": "主题：图书馆\n小节：开放时间（detail）\n证据：\n[1] 图书馆每天8点开门，周一闭馆。\n"
                                "[2] 借书须出示借书证。"},
    {"role": "assistant", "content": "图书馆每天早上8点开门。[1]\n每周一图书馆闭馆。[1]\n借书时要出示借书证。[2]"},
]
_SENT_END = re.compile(r"[。！？!?]|\n")
_MARKS = re.compile(r"^(?:\s*[\[【［]\s*\d{1,2}\s*[\]】］])+[。.]?")
_PARTIAL_MARK = re.compile(r"^\s*(?:[\[【［]\s*\d{0,2}\s*)?$")
_ANY_MARK = re.compile(r"[\[【［]\s*(\d{1,2})\s*[\]】］]")


def take_sentences(buf: str, *, final: bool = False) -> tuple[list[str], str]:
    """Complete sentences at the head of a streamed buffer and the rest: a sentence ends at 。！？ or a
    line break, with the evidence markers that follow it ("…预热。[1]"); at the end of the stream
    (``final``) whatever is left is one more sentence."""
    out: list[str] = []
    while True:
        m = _SENT_END.search(buf)
        if m is None:
            break
        end = m.end()
        tail = buf[end:]
        marks = _MARKS.match(tail)
        if marks:
            end += marks.end()
        elif _PARTIAL_MARK.match(tail) and tail.strip() and not final:
            break  # "…预热。[" — the marker is still arriving
        end += len(buf[end:]) - len(buf[end:].lstrip())  # and the line break after it
        out.append(buf[:end])
        buf = buf[end:]
    if final and buf.strip():
        out.append(buf)
        buf = ""
    return out, buf


def parse_sentence(raw: str) -> tuple[str, int | None]:
    """(the sentence without list markers and evidence markers, the last evidence number it cites)."""
    nums = [int(n) for n in _ANY_MARK.findall(raw)]
    text = _ANY_MARK.sub("", raw).strip()
    text = LIST_MARK.sub("", text).strip().strip("*").strip()
    return text, (nums[-1] if nums else None)


def check_sentence(text: str, n: int | None, evidence: list[Cand], topic: str,
                   kept: list[tuple[str, Cand]]) -> tuple[Cand | None, str]:
    """The evidence sentence that supports ``text`` (the one it cites first, then any other), or why
    none does. The same sentence-level check as answers (:func:`knowzero.knowledge.answer.check.check_written`)."""
    if any(near_duplicate(text, k) for k, _ in kept):
        return None, "repeats a sentence already kept"
    order = ([evidence[n - 1]] if n is not None and 1 <= n <= len(evidence) else []) + list(evidence)
    reasons: list[str] = []
    for ev in dict.fromkeys(order):
        v = check.check_written(topic, text, ev.text)
        if v.level == "confirmed":
            return ev, ""
        reasons.extend(v.reasons)
    return None, (reasons[0] if reasons else "not supported by the section's sources")


class Unsupported(ProviderError):
    """The model answered, but none of its sentences passed the check (the model itself works)."""


def stream_section(provider: Any, heading: str, kind: str, evidence: list[Cand], *, topic: str, level: str,
                   instruction: str = "") -> Iterator[dict[str, Any]]:
    """Events of one section written by a streaming model: ``token`` (a piece of text as it arrives,
    with the number of the sentence it belongs to), ``sentence`` (that sentence checked: kept, or
    dropped with the reason), then ``written`` (the :class:`Written` section). Raises ProviderError
    when the stream fails or no sentence survives its check (the caller falls back to quotes)."""
    blocks = "\n".join(f"[{i + 1}] {c.text}" for i, c in enumerate(evidence))
    messages = [{"role": "system", "content": STREAM_SYSTEM.format(level=level) + instruction}, *STREAM_EXAMPLE,
                {"role": "user", "content": f"主题：{topic}\n小节：{heading}（{kind}）\n证据：\n{blocks}"}]
    kept: list[tuple[str, Cand]] = []
    removed = 0
    k = 0  # the number of the sentence being written
    buf = ""

    def settle(raw: str) -> Iterator[dict[str, Any]]:
        nonlocal removed, k
        text, n = parse_sentence(raw)
        if not text:
            return  # a bare marker or line break: part of no sentence
        ev: Cand | None = None
        if len(text) < 4 or not re.search(r"[\u4e00-\u9fffA-Za-z]", text):
            reason = "not a sentence"
        else:
            ev, reason = check_sentence(text, n, evidence, topic, kept)
            if ev is not None:
                kept.append((text, ev))
            else:
                removed += 1
        yield {"event": "sentence", "sentence": k, "text": text, "kept": ev is not None, "reason": reason}
        k += 1

    for piece in provider.stream(messages, max_tokens=min(800, 80 * len(evidence) + 60)):
        start = len(buf)  # where this piece begins in the buffer
        buf += piece
        done, rest = take_sentences(buf)
        pos = 0
        for raw in done:  # each finished sentence gets its share of the piece, then its check
            share = piece[max(0, pos - start): max(0, pos + len(raw) - start)]
            if share:
                yield {"event": "token", "sentence": k, "text": share}
            yield from settle(raw)
            pos += len(raw)
        tail = piece[max(0, pos - start):]
        if tail:
            yield {"event": "token", "sentence": k, "text": tail}
        buf = rest
    for raw in take_sentences(buf, final=True)[0]:
        yield from settle(raw)
    if not kept:
        raise Unsupported("no sentence the model wrote was supported by the knowledge base")
    items = in_evidence_order(kept, evidence)
    md, cits = render_bullets(items)
    notes = [f"removed {removed} sentence(s) the knowledge base does not support" if removed else "",
             f"quoted {len(items) - len(kept)} source sentence(s) the model left out" if len(items) > len(kept) else ""]
    yield {"event": "written", "written": Written(md, cits, "llm", removed, "; ".join(n for n in notes if n))}


def in_evidence_order(kept: list[tuple[str, Cand]], evidence: list[Cand]) -> list[tuple[str, Cand]]:
    """The model's checked sentences in the order of the evidence they rest on, and the quote of every
    evidence sentence none of them uses: the model words the section, it does not choose what it says
    (a small model skips items, or the defining sentence that must come first)."""
    by_ev: dict[Cand, list[str]] = {}
    for text, ev in kept:
        by_ev.setdefault(ev, []).append(text)
    return [(t, ev) for ev in evidence for t in by_ev.get(ev, [ev.said])]


def iter_section_events(outline: Outline, *, level: str = "beginner", provider: ChatProvider | None = None,
                        new_id: Callable[[], str]) -> Iterator[dict[str, Any]]:
    """Write the outline's sections one by one: ``section`` events (index, Section, Written) and, with a
    streaming model, the ``token`` and ``sentence`` events of each section before it (see
    :func:`stream_section`). A model that fails on a section gives that section's quotes instead."""
    down = ""  # why the model failed earlier in this document: the rest is written from quotes at once
    for i, (kind, heading, evidence) in enumerate(outline.groups):
        w: Written | None = None
        if isinstance(provider, StreamingProvider) and evidence and down:
            md, cits = render_bullets([(c.said, c) for c in evidence])
            w = Written(md, cits, "offline_fallback", note=f"not asked: the model failed earlier in this document ({down})")
        elif isinstance(provider, StreamingProvider) and evidence:
            try:
                for ev in stream_section(provider, heading, kind, evidence, topic=outline.topic, level=level):
                    if ev["event"] == "written":
                        w = ev["written"]
                    else:
                        yield {**ev, "index": i, "heading": heading}
            except ProviderError as exc:
                if not isinstance(exc, Unsupported):
                    down = exc.message  # a timeout or a broken stream: do not wait for it once per section
                md, cits = render_bullets([(c.text, c) for c in evidence])
                w = Written(md, cits, "offline_fallback", note=exc.message)
        if w is None:
            w = write_section(heading, kind, evidence, topic=outline.topic, level=level, provider=provider)
        yield {"event": "section", "index": i, "section": Section(new_id(), heading, kind, w.markdown, w.citations),
               "written": w}


def iter_sections(outline: Outline, *, level: str = "beginner", provider: ChatProvider | None = None,
                  new_id: Callable[[], str]) -> Iterator[tuple[Section, Written]]:
    """Write the outline's sections one by one (the caller streams each as it comes)."""
    for ev in iter_section_events(outline, level=level, provider=provider, new_id=new_id):
        if ev["event"] == "section":
            yield ev["section"], ev["written"]


