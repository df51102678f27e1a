"""Improve a section from a reader's comment.

:func:`classify_need` reads the comment: 太抽象 → ``examples``, 太简单 → ``depth``, 看不懂 → ``clearer``,
详细点 → ``expand``, a real question → ``question`` (answered in the comment's thread by the
knowledge pipeline, the document is left alone). :func:`rewrite_section` then adds what the need
asks for, taken from the knowledge base (never invented): examples (sentences with 例如/比如 or
concrete values), depth (reasons and the stricter details of the same sources), clearer (what the
terms in the selection mean, then the sentence before/after it in its source), or expand (the
neighbouring sentences of what the section already cites, then related passages). The new block
goes right after the line the comment is anchored to, each sentence cited. With a chat model the
section is rewritten from the same evidence and every sentence is checked (see ``compose``).
:func:`change_summary` describes the edit from a line diff (difflib).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from knowzero.knowledge.retriever import Plan, retrieve
from knowzero.learning.compose import (
    _EXAMPLE,
    _REASON,
    Cand,
    dedupe,
    file_sentences,
    passage_sentences,
    relevance,
    render_bullets,
    term_weights,
    write_section,
)
from knowzero.learning.entities import kb_terms
from knowzero.llm.base import ChatProvider

NEED_LABELS = {"examples": "补充示例", "depth": "增加深度", "clearer": "讲得更清楚", "expand": "展开细节",
               "question": "回答提问"}
BLOCK_TITLES = {"examples": "示例", "depth": "深入一点", "clearer": "帮助理解", "expand": "补充细节"}
_RULES: list[tuple[str, re.Pattern[str]]] = [
    ("examples", re.compile(r"太抽象|抽象|举个?例|例子|示例|案例|具体点|具体一些|不够具体|example|concrete", re.I)),
    ("depth", re.compile(r"太简单|太浅|浅了|深入|更深|深度|原理|进阶|高级|更专业|too (?:simple|basic)|deeper|in depth", re.I)),
    ("clearer", re.compile(r"看不懂|没看懂|不懂|不明白|不理解|太难|难懂|晦涩|讲清楚|通俗|简单点|说人话|confus|unclear|don't understand", re.I)),
    ("expand", re.compile(r"详细点|详细一些|详细|展开|多讲|多说|补充|更多|不够|elaborate|more detail|expand", re.I)),
]
_QUESTION = re.compile(r"[?？]\s*$|为什么|为何|怎么|怎样|如何|是否|能否|能不能|可不可以|多少|多久|哪(?:个|些|里|种|一)|是不是|有没有|"
                       r"^(?:什么|谁|几)|(?:吗|呢)\s*$|^(?:why|what|how|when|where|who|which|is|are|can|does|do)\b", re.I)


def classify_need(comment: str) -> tuple[str, str]:
    """(need, reason). A question mark alone does not make 'why so abstract?' a question."""
    text = comment.strip()
    for need, pat in _RULES:
        m = pat.search(text)
        if m:
            return need, f"the comment says 「{m.group(0)}」"
    if _QUESTION.search(text):
        return "question", "the comment asks a question"
    return "expand", "no specific need recognised; expanding the passage"


@dataclass
class Rewrite:
    markdown: str
    citations: list[dict[str, Any]]
    added: list[Cand]
    method: str  # offline | llm | offline_fallback
    note: str = ""


def _used_quotes(doc: dict[str, Any]) -> tuple[set[tuple[str, int]], list[str]]:
    keys, texts = set(), []
    for s in doc.get("sections", []):
        for c in s.get("citations", []):
            keys.add((c["source"], int(c["start"])))
            texts.append(c["quote"])
    return keys, texts


def evidence_pool(kb: Any, doc: dict[str, Any], section: dict[str, Any], selected: str, *, k: int = 12) -> list[Cand]:
    """Knowledge-base sentences near the section's sources and the selection, not yet in the document."""
    used, used_texts = _used_quotes(doc)
    query = f"{selected} {section['heading']} {doc.get('topic', '')}".strip()
    weights = term_weights(kb, query)
    sel_weights = term_weights(kb, selected)
    cited = section.get("citations", [])
    pool: list[Cand] = []
    for c in cited:
        for s in file_sentences(kb, c["source"]):
            if (s.source, s.start) in used:
                continue
            rel = relevance(weights, s.text) + 2 * relevance(sel_weights, s.text)
            same_section = s.section == c["section"]
            if rel <= 0 and not same_section:  # near in the file is not enough: it must be about the same thing
                continue
            near = 0.5 / (1 + abs(s.start - int(c["start"])) / 400)
            pool.append(_with_score(s, rel + near + (0.3 if same_section else 0.0)))
    strategy = "hybrid" if kb.dense.ids else "keyword"
    r = retrieve(kb, query, Plan(top_k=8, strategy=strategy), budget_chars=6000)  # type: ignore[arg-type]
    for rank, sp in enumerate(r.passages):
        if sp.passage.id.startswith("sql:"):
            continue
        for s in passage_sentences(kb, sp.passage):
            rel = relevance(weights, s.text) + 2 * relevance(sel_weights, s.text)
            if (s.source, s.start) not in used and rel > 0:
                pool.append(_with_score(s, rel + 0.3 / (1 + rank)))
    pool.sort(key=lambda c: -c.score)
    best: dict[tuple[str, int], Cand] = {}
    for c in pool:
        best.setdefault((c.source, c.start), c)
    return dedupe(list(best.values()), used_texts)[: k * 3]


def _with_score(c: Cand, score: float) -> Cand:
    return Cand(c.text, c.source, c.title, c.section, c.start, c.end, c.passage_id, c.domain, round(score, 4), c.kind)


def pick_for_need(kb: Any, need: str, pool: list[Cand], selected: str, section: dict[str, Any], n: int = 3) -> list[Cand]:
    if need == "examples":
        picks = [c for c in pool if c.kind == "example" or _EXAMPLE.search(c.text)]
        picks += [c for c in pool if c not in picks and re.search(r"\d", c.text) and c.kind in ("detail", "pitfall")]
        return picks[:n]
    if need == "depth":
        picks = [c for c in pool if _REASON.search(c.text)]
        picks += [c for c in pool if c not in picks and c.kind in ("detail", "pitfall") and re.search(r"\d", c.text)]
        return picks[:n]
    if need == "clearer":
        low = selected.lower()
        terms = [k for k in kb_terms(kb) if k in low]
        picks = [c for c in pool if c.kind == "definition" and any(t in c.text.lower() for t in terms)]
        cited = {(c["source"], int(c["start"])) for c in section.get("citations", [])}
        for c in section.get("citations", []):  # the sentences around the cited ones, in their source
            if selected and selected not in c["quote"] and c["quote"] not in selected:
                continue
            sents = file_sentences(kb, c["source"])
            idx = next((i for i, s in enumerate(sents) if s.start == int(c["start"])), None)
            if idx is None:
                continue
            for j in (idx - 1, idx + 1):
                if 0 <= j < len(sents) and (sents[j].source, sents[j].start) not in cited:
                    match = next((p for p in pool if (p.source, p.start) == (sents[j].source, sents[j].start)), None)
                    if match is not None and match not in picks:
                        picks.append(match)
        picks += [c for c in pool if c not in picks and c.kind == "definition"]
        if not picks:  # the purpose/overview of the sources the section cites
            for c in section.get("citations", []):
                picks += [s for s in file_sentences(kb, c["source"]) if s.kind == "definition"
                          and (s.source, s.start) not in cited and s not in picks][:2]
            used = {(c.source, c.start) for c in pool}
            picks = [p for p in picks if (p.source, p.start) in used or not _in_doc(p, section)]
        return picks[:n]
    return pool[: n + 1]  # expand


def _in_doc(c: Cand, section: dict[str, Any]) -> bool:
    return any((x["source"], int(x["start"])) == (c.source, c.start) for x in section.get("citations", []))


def rewrite_section(kb: Any, doc: dict[str, Any], section: dict[str, Any], *, need: str, selected: str,
                    comment: str, provider: ChatProvider | None = None) -> Rewrite | None:
    """The section rewritten for ``need``; None when the knowledge base has nothing to add."""
    pool = evidence_pool(kb, doc, section, selected)
    picks = pick_for_need(kb, need, pool, selected, section)
    if not picks:
        return None
    if provider is not None:
        existing = [Cand(c["quote"], c["source"], c.get("title", ""), c.get("section", ""), int(c["start"]),
                         int(c["end"]), c.get("passage_id", ""), "", 0.0, "detail") for c in section.get("citations", [])]
        instruction = (f"读者对「{selected}」的评论是「{comment}」，请{NEED_LABELS.get(need, '改写')}，"
                       "保留原有要点。")
        w = write_section(section["heading"], section.get("kind", "detail"), existing + picks,
                          topic=doc.get("topic", ""), provider=provider, instruction=instruction)
        if w.method == "llm":
            return Rewrite(w.markdown, w.citations, picks, "llm", w.note)
        note = w.note
    else:
        note = ""
    start_n = max((int(c["n"]) for c in section.get("citations", [])), default=0) + 1
    block_md, block_cits = render_bullets([(c.text, c) for c in picks], first_n=start_n)
    block = f"**{BLOCK_TITLES.get(need, '补充')}**\n\n{block_md}"
    md = insert_after_anchor(section["markdown"], selected, block)
    return Rewrite(md, list(section.get("citations", [])) + block_cits, picks,
                   "offline_fallback" if provider is not None else "offline", note)


def insert_after_anchor(markdown: str, selected: str, block: str) -> str:
    """Insert ``block`` after the line holding ``selected`` (or at the end)."""
    lines = markdown.split("\n")
    idx = next((i for i, line in enumerate(lines) if selected and selected in line), None)
    if idx is None:
        return markdown.rstrip() + "\n\n" + block
    return "\n".join(lines[: idx + 1] + ["", block, ""] + lines[idx + 1:]).strip()


def change_summary(old: str, new: str, *, heading: str, need: str, comment: str, sources: list[str]) -> str:
    """'根据评论「…」为「heading」补充示例：新增 3 行，删除 0 行（来源：…）' from a line diff."""
    ops = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines()).get_opcodes()
    added = sum(j2 - j1 for tag, _, _, j1, j2 in ops if tag in ("insert", "replace"))
    removed = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag in ("delete", "replace"))
    src = "、".join(dict.fromkeys(sources)) if sources else ""
    out = f"根据评论「{comment[:40]}」为「{heading}」{NEED_LABELS.get(need, '改写')}：新增 {added} 行，删除 {removed} 行"
    return out + (f"（来源：{src}）" if src else "")
