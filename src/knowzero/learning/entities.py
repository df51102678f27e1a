"""Entities of learning documents and the entity index over the knowledge base.

The index's terms come from the knowledge base itself, never from a model: the segmenter's
domain dictionary (``knowledge/data/user_dict.txt``), part numbers and named parts
(:mod:`knowzero.knowledge.index.entities`), and the stems of document titles ("热处理工艺规范" → "热处理").
A term is kept only when at least one knowledge-base file mentions it, and records which files do.
:func:`extract_entities` picks the index terms a document mentions (most frequent first), adds
entities that already have pages, and marks each with the page it links to (``document_id``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from knowzero.knowledge.index import entities as kb_entities
from knowzero.learning.cache import KBCache, cached

_TITLE_SUFFIXES = ("规程", "规范", "制度", "手册", "办法", "流程", "说明", "政策", "指南", "管理", "工艺", "要点", "规定",
                   "总结", "介绍", "系列", "清单", "checklist", "policy", "brochure", "maintenance")
_TITLE_PREFIX = re.compile(r"^(?:星河精密制造有限公司|xinghe precision manufacturing)\s*[—\-–]?\s*", re.I)


@dataclass
class Term:
    name: str
    type: str  # term | part | document
    sources: set[str] = field(default_factory=set)
    aliases: set[str] = field(default_factory=set)


def title_stem(title: str) -> str:
    """'CNC加工中心日常维护规程' → 'CNC加工中心日常维护'; '热处理工艺规范' → '热处理'."""
    t = _TITLE_PREFIX.sub("", unicodedata.normalize("NFKC", title).strip())
    t = re.sub(r"\s+", " ", t).strip(" -—_")
    changed = True
    while changed:
        changed = False
        for suf in _TITLE_SUFFIXES:
            if t.lower().endswith(suf) and len(t) - len(suf) >= 2:
                t = t[: -len(suf)].rstrip(" -—_")
                changed = True
    return t


def _user_dict_terms() -> list[str]:
    f = resources.files("knowzero.knowledge").joinpath("data/user_dict.txt")
    if not f.is_file():
        return []
    return [line.split()[0] for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]


def kb_terms(kb: Any, cache: KBCache | None = None) -> dict[str, Term]:
    """The knowledge base's entity index: lower-cased name → Term (cached per revision)."""
    return cached(cache, kb, "kb_terms", lambda: _kb_terms(kb))


def _kb_terms(kb: Any) -> dict[str, Term]:
    titles = kb.document_titles()
    candidates: dict[str, Term] = {}
    for name in _user_dict_terms():
        candidates.setdefault(name.lower(), Term(name, "term"))
    for title in titles.values():
        stem = title_stem(title)
        if 2 <= len(stem) <= 20 and not re.fullmatch(r"[\w.]+\.(?:csv|md|txt|html)", stem):
            candidates.setdefault(stem.lower(), Term(stem, "document"))
        for e in kb_entities.extract(title):
            candidates.setdefault(e, Term(_surface(title, e), "part"))
    for alias_key, group in kb.aliases.items():
        if alias_key in candidates:
            candidates[alias_key].aliases |= {g for g in group if g != alias_key}
    for path in titles:  # one document's text at a time: PostgreSQL mode holds no copy of the corpus
        text = unicodedata.normalize("NFKC", kb.text_of(path)).lower()
        for k, t in candidates.items():
            if k in text:
                t.sources.add(path)
    return {k: t for k, t in candidates.items() if t.sources}


def _surface(text: str, key: str) -> str:
    """The key as written in ``text`` (keeps the original case), or the key."""
    m = re.search(re.escape(key), unicodedata.normalize("NFKC", text), re.I)
    return m.group(0) if m else key


def extract_entities(kb: Any, text: str, *, topic: str = "", limit: int = 10,
                     page_of: Callable[[str], str | None] | None = None,
                     known: list[str] | None = None, cache: KBCache | None = None) -> list[dict[str, Any]]:
    """Terms that matter in ``text``: [{name, type, document_id, sources}] (see module doc).

    ``known`` are names of entities that already have pages elsewhere (the learning index);
    ``page_of`` maps a name to its page id (None when there is no page yet).
    """
    low = unicodedata.normalize("NFKC", text).lower()
    topic_low = unicodedata.normalize("NFKC", topic).lower().strip()
    found: dict[str, tuple[int, dict[str, Any]]] = {}
    for k, t in kb_terms(kb, cache).items():
        n = low.count(k)
        if n and k != topic_low:
            found[k] = (n, {"name": t.name, "type": t.type, "aliases": sorted(t.aliases),
                            "sources": sorted(t.sources)[:5]})
    for e in kb_entities.extract(text):
        if e not in found and e != topic_low:
            found[e] = (low.count(e) or 1, {"name": _surface(text, e), "type": "part", "aliases": [], "sources": []})
    for name in known or []:
        k = unicodedata.normalize("NFKC", name).lower()
        if k and k not in found and k != topic_low and k in low:
            found[k] = (low.count(k), {"name": name, "type": "concept", "aliases": [], "sources": []})
    # drop a term contained in a longer found term that occurs as often (e.g. "加工" inside "加工中心")
    keys = list(found)
    for k in keys:
        if any(k != o and k in o and found[o][0] >= found[k][0] for o in keys if o in found):
            found.pop(k, None)
    ranked = sorted(found.values(), key=lambda x: (-x[0], x[1]["name"]))[:limit]
    out: list[dict[str, Any]] = []
    for n, item in ranked:
        item["mentions"] = n
        item["document_id"] = page_of(item["name"]) if page_of else None
        out.append(item)
    return out
