"""A learning document's text: sections as Markdown bullets with numbered citations, and the whole document.

:func:`render_bullets` turns (sentence, evidence) pairs into "- text[n]" lines and their citations
(each saying whose wording its line is: the source's or a chat model's); :func:`renumber` numbers the
citations 1..N across a document in reading order; :func:`document_markdown` and
:func:`insufficient_markdown` give the whole document, or the note that the knowledge base has too
little on a topic. Pure: no knowledge base, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from knowzero.input import message_language
from knowzero.learning.sentences import Cand

_CITE = re.compile(r"\[(\d+)\]")


@dataclass
class Citation:
    n: int
    source: str
    title: str
    section: str
    quote: str
    start: int
    end: int
    passage_id: str

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "source": self.source, "title": self.title, "section": self.section,
                "quote": self.quote, "start": self.start, "end": self.end, "passage_id": self.passage_id}


@dataclass
class Section:
    id: str
    heading: str
    kind: str
    markdown: str
    citations: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "heading": self.heading, "kind": self.kind, "markdown": self.markdown,
                "citations": self.citations}


def render_bullets(items: list[tuple[str, Cand]], first_n: int = 1) -> tuple[str, list[dict[str, Any]]]:
    """Bullets "- text[n]" for (text, evidence) pairs; n counts from ``first_n`` within the section.

    A citation says whose wording its line is: ``"wording": "source"`` when the line is the quote
    itself, ``"model"`` when a chat model worded it (checked against the quote before it was kept)."""
    lines, cits = [], []
    for i, (text, c) in enumerate(items):
        n = first_n + i
        lines.append(f"- {text.rstrip()}[{n}]")
        cit = Citation(n, c.source, c.title, c.section, c.text, c.start, c.end, c.passage_id).to_dict()
        cit["wording"] = "source" if text.strip() in (c.text.strip(), c.said.strip()) else "model"
        cits.append(cit)
    return "\n".join(lines), cits


def renumber(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Number citations 1..N across the document in reading order (markers and lists together)."""
    n = 0
    out = []
    for s in sections:
        mapping: dict[int, int] = {}
        cits = []
        for c in s.get("citations", []):
            n += 1
            mapping[int(c["n"])] = n
            cits.append({**c, "n": n})
        md = _CITE.sub(_marker_sub(mapping), s.get("markdown", ""))
        out.append({**s, "markdown": md, "citations": cits})
    return out


def _marker_sub(mapping: dict[int, int]) -> Callable[[re.Match[str]], str]:
    def sub(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return f"[{mapping.get(k, k)}]"

    return sub


def document_markdown(title: str, sections: list[dict[str, Any]], *, with_references: bool = False) -> str:
    parts = [f"# {title}"]
    for s in sections:
        parts.append(f"## {s['heading']}\n\n{s['markdown']}")
    if with_references:
        refs = [f"[{c['n']}] {c['source']}（{c['start']}-{c['end']}）：「{c['quote']}」"
                + ("（正文为模型转述，已与此原文核对）" if c.get("wording") == "model" else "")
                for s in sections for c in s.get("citations", [])]
        if refs:
            parts.append("---\n参考来源：\n" + "\n".join(refs))
    return "\n\n".join(parts) + "\n"


def insufficient_markdown(topic: str, closest: list[str], lang: str | None = None) -> str:
    """What a document on a topic the knowledge base barely covers says instead, in ``lang`` (zh | en: the
    asker's language; the topic's by default)."""
    english = (lang or message_language(topic)) == "en"
    lines = [f"The knowledge base has too little on “{topic}” for a document I can source; I will not make one up."
             if english else f"知识库中关于「{topic}」的内容不足，无法生成有依据的学习文档，我不做编造。"]
    if closest:
        lines.append("Nearby topics it does cover:" if english else "知识库覆盖的相近主题：")
        lines.extend(f"- {t}" for t in closest)
    return "\n".join(lines)


def insufficient_heading(lang: str) -> str:
    """The not-enough notice's heading in ``lang`` (zh | en)."""
    return "Not enough in the knowledge base" if lang == "en" else "知识库内容不足"
