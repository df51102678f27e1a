"""The knowledge base's sentences as candidates for a learning document, and how they are scored.

Each candidate (:class:`Cand`) is a sentence of a stored document copied verbatim, with its source and
character offsets, so a citation of it resolves by construction: :func:`passage_sentences` splits a
passage into sentences (list markers and emphasis stripped, offsets kept, metadata lines, table rows
and instructions to the assistant left out) and sorts each into definition | pitfall | example |
detail (:func:`classify`); :func:`file_sentences` does a whole document (cached per revision).
:func:`term_weights` and :func:`relevance` score a sentence against a topic (IDF-weighted term
coverage); :func:`dedupe` drops near-duplicates. Composing them into sections is ``compose.py``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from knowzero.knowledge.answer.checks.injection import find_instructions
from knowzero.knowledge.text import QUESTION_FILLER, STOPWORDS, char_ngrams, fold, split_sentences, tokens
from knowzero.knowledge.types import Passage
from knowzero.learning.cache import KBCache, cached

LIST_MARK = re.compile(r"^\s*(?:\d{1,3}[.、)）]|[（(]\d{1,3}[)）]|[-*+•·]|[一二三四五六七八九十]+、)\s*")
_HEAD_NUM = re.compile(r"^\s*(?:[一二三四五六七八九十]+[、.]|\d+(?:\.\d+)*[.、]?|第[一二三四五六七八九十\d]+[章节条])\s*")
_DEFINITION = re.compile(r"是指|指的是|是一种|定义为|称为|简称|目的|为了|适用于|本(?:规程|制度|办法|规范|手册|流程|政策|指南)|"
                         r"旨在|\bis an?\b|refers to|\bmeans\b|purpose|applies to", re.I)
DEF_SECTION = re.compile(r"目的|概述|简介|定义|适用范围|总则|范围|介绍|overview|purpose|scope|introduction", re.I)
_PITFALL = re.compile(r"不得|严禁|禁止|切勿|不能|不可|不予|避免|注意|否则|警告|风险|误区|错误|超标|不合格：|do not|don't|never|"
                      r"must not|avoid|warning|caution", re.I)
_EXAMPLE = re.compile(r"例如|比如|譬如|举例|如下|示例|案例|e\.g\.|for example|for instance|such as", re.I)
_METADATA = re.compile(r"文件编号|版本[：:]\s*V|生效日期[：:]|发布部门[：:]|归口部门[：:]|\s[·•]\s[^·•]+\s[·•]\s")
"""A document's metadata line: its fields ("文件编号：…"), or three or more parts joined by a middle dot ("Terms KC-2026 ·
Effective 1 January 2026 · Owner: Guest Loyalty Team")."""


@dataclass(frozen=True)
class Cand:
    """A knowledge-base sentence that may go into a document (verbatim, with file offsets)."""

    text: str
    source: str
    title: str
    section: str
    start: int
    end: int
    passage_id: str
    domain: str
    score: float = 0.0
    kind: str = "detail"
    display: str = ""  # how a table row reads ("外径千分尺：校准周期 6个月，…"); ``text`` stays the verbatim row

    @property
    def said(self) -> str:
        """What the sentence says, as a reader sees it: on one line (a source's wrapped line joined), an English
        line with English punctuation."""
        text = self.display or self.text
        if "\n" in text:
            text = re.sub(r"[ \t]*\n[ \t]*", " " if not _CJK.search(text) else "", text)
        return western_punctuation(text)


_FULLWIDTH = str.maketrans({"；": "; ", "：": ": ", "，": ", ", "。": ". "})
_CJK = re.compile(r"[\u3400-\u9fff]")


def western_punctuation(text: str) -> str:
    """A line without Chinese characters read with English punctuation: a table row parsed as "Key: v；Key2: w。"
    reads "Key: v; Key2: w." in an English document."""
    if _CJK.search(text) or not re.search("[；：，。]", text):
        return text
    return re.sub(r" {2,}", " ", text.translate(_FULLWIDTH)).strip()


# ----- sentences -----

def clean_sentence(text: str, start: int) -> tuple[str, int] | None:
    """Strip list markers and emphasis from a sentence; None when it is not prose."""
    m = LIST_MARK.match(text)
    if m:
        text, start = text[m.end():], start + m.end()
    lead = len(text) - len(text.lstrip("*_ \u3000"))
    text, start = text[lead:], start + lead
    text = text.rstrip("*_ \u3000")
    if (len(text) < 6 or len(text) > 260 or text.startswith(("#", "|", ">")) or text.count("|") >= 2
            or not re.search(r"[\u4e00-\u9fffA-Za-z]", text)):
        return None
    if text.endswith(("：", ":")):  # introduces a list that is not part of the sentence
        return None
    if _METADATA.search(text) or text.count("：") + text.count(": ") >= 3:  # document metadata, table rows
        return None
    return text, start


def short_heading(section: str, title: str = "") -> str:
    last = (section.split(" / ")[-1] if section else "") or title
    return _HEAD_NUM.sub("", last).strip() or last.strip()


def classify(text: str, section: str) -> str:
    """definition | pitfall | example | detail (first match wins, in that order)."""
    if _DEFINITION.search(text) or (DEF_SECTION.search(section.split(" / ")[-1] if section else "")
                                    and not _PITFALL.search(text)):
        return "definition"
    if _PITFALL.search(text):
        return "pitfall"
    if _EXAMPLE.search(text):
        return "example"
    return "detail"


def file_sentences(kb: Any, path: str, cache: KBCache | None = None) -> list[Cand]:
    """Every usable sentence of one knowledge-base file, in document order (cached per revision)."""
    return cached(cache, kb, ("file_sentences", path), lambda: _file_sentences(kb, path))


def _file_sentences(kb: Any, path: str) -> list[Cand]:
    seen: set[int] = set()
    out: list[Cand] = []
    for p in kb.chunks_of(path):
        for c in passage_sentences(kb, p):
            if c.start not in seen:
                seen.add(c.start)
                out.append(c)
    out.sort(key=lambda c: c.start)
    return out


def passage_sentences(kb: Any, p: Passage) -> list[Cand]:
    if p.path.lower().endswith((".csv", ".tsv")):  # rows are data, not prose to learn from
        return []
    src = kb.text_of(p.path)
    out = []
    for s in split_sentences(p.text, offset=p.start):
        cleaned = clean_sentence(s.text, s.start)
        if cleaned is None:
            continue
        text, start = cleaned
        end = start + len(text)
        if src[start:end] != text:  # never cite what is not verbatim in the source
            continue
        if find_instructions(text):  # orders to the assistant are flagged for review, never taught
            continue
        out.append(Cand(text, p.path, p.title, p.section, start, end, p.id, p.domain, 0.0,
                        classify(text, p.section)))
    return out


_NOT_TOPIC = STOPWORDS | QUESTION_FILLER
"""Words that name no part of a topic ("what we charge for it", "other museums")."""


def term_weights(kb: Any, query: str) -> dict[str, float]:
    idf = kb.term_idf
    w = {t: idf(t) for t in tokens(query, search=False) if t not in _NOT_TOPIC and t.strip()}
    for t in tokens(query, search=True):
        if t not in w and t not in _NOT_TOPIC and t.strip():
            w[t] = idf(t) * 0.5
    return w


def relevance(weights: dict[str, float], text: str, context: str = "") -> float:
    total = sum(weights.values()) or 1.0
    low = fold(unicodedata.normalize("NFKC", text)).lower()  # the weights' terms are folded to Simplified
    ctx = fold(unicodedata.normalize("NFKC", context)).lower()
    hit = sum(w for t, w in weights.items() if t in low)
    near = sum(w for t, w in weights.items() if t not in low and t in ctx)
    return (hit + 0.5 * near) / total


def near_duplicate(a: str, b: str, threshold: float = 0.8) -> bool:
    ga, gb = char_ngrams(a), char_ngrams(b)
    if not ga or not gb:
        return a == b
    return len(ga & gb) / min(len(ga), len(gb)) >= threshold


def dedupe(cands: list[Cand], existing: list[str] | None = None) -> list[Cand]:
    kept: list[Cand] = []
    texts = list(existing or [])
    seen: set[tuple[str, int]] = set()
    for c in cands:
        if (c.source, c.start) in seen or any(near_duplicate(c.text, t) for t in texts):
            continue
        seen.add((c.source, c.start))
        texts.append(c.text)
        kept.append(c)
    return kept
