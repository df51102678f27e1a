"""Chunking along headings and sentence boundaries, with overlap and exact offsets.

A chunk never crosses a heading; inside a section, whole sentences are packed up to
``max_chars`` and the next chunk repeats the trailing sentences (up to ``overlap`` chars).
Every chunk keeps its section path and its character offsets into the parsed document text,
so a citation can point at the exact span. Chunk ids are content hashes (source + text),
which makes re-ingesting an unchanged file a no-op. Pure: no I/O.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from knowzero.knowledge.text import Sentence, split_sentences

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$", re.M)
MAX_HEADING_CHARS = 120
"""A longer '#' line is body text written after a heading marker (whole paragraphs on one line), not a
section name: read as a heading it would leave the section's text empty and the document unsearchable."""


@dataclass(frozen=True)
class Chunk:
    id: str
    source: str
    title: str
    section: str
    text: str
    start: int
    end: int
    ordinal: int
    sentences: tuple[Sentence, ...] = field(default_factory=tuple, compare=False)


def content_id(*parts: str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\x00")
    return h.hexdigest()[:32]


def sections(text: str) -> list[tuple[str, int, int]]:
    """(section path, start, end) for each Markdown section; text before the first heading is ''."""
    marks = [(m.start(), m.end(), len(m.group(1)), m.group(2).strip()) for m in _HEADING.finditer(text)
             if len(m.group(2)) <= MAX_HEADING_CHARS]
    out: list[tuple[str, int, int]] = []
    if not marks:
        return [("", 0, len(text))]
    if text[: marks[0][0]].strip():
        out.append(("", 0, marks[0][0]))
    stack: list[tuple[int, str]] = []
    for i, (_, body_start, level, name) in enumerate(marks):
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, name))
        end = marks[i + 1][0] if i + 1 < len(marks) else len(text)
        out.append((" / ".join(n for _, n in stack), body_start, end))
    return out


def chunk_text(text: str, *, source: str, title: str, max_chars: int = 500, overlap: int = 80) -> list[Chunk]:
    """Split a parsed document into chunks (see module doc).

    >>> [c.section for c in chunk_text("# A\\n一。二。\\n## B\\n三。", source="x.md", title="X")]
    ['A', 'A / B']
    """
    if max_chars < 50:
        raise ValueError("max_chars must be >= 50")
    if not 0 <= overlap < max_chars:
        raise ValueError("overlap must be >= 0 and < max_chars")
    chunks: list[Chunk] = []
    for section, start, end in sections(text):
        flat = [x for s in split_sentences(text[start:end], offset=start) for x in _hard_wrap(s, max_chars)]
        for group in _pack(flat, max_chars, overlap):
            c_start, c_end = group[0].start, group[-1].end
            body = text[c_start:c_end]
            chunks.append(Chunk(content_id(source, section, body), source, title, section, body,
                                c_start, c_end, len(chunks), tuple(group)))
    return chunks


def _hard_wrap(s: Sentence, max_chars: int) -> list[Sentence]:
    if len(s.text) <= max_chars:
        return [s]
    return [Sentence(s.text[i : i + max_chars], s.start + i, min(s.start + i + max_chars, s.end))
            for i in range(0, len(s.text), max_chars)]


def _pack(sents: list[Sentence], max_chars: int, overlap: int) -> list[list[Sentence]]:
    groups: list[list[Sentence]] = []
    cur: list[Sentence] = []
    i = 0
    while i < len(sents):
        s = sents[i]
        size = (s.end - cur[0].start) if cur else len(s.text)
        if cur and size > max_chars:
            groups.append(cur)
            tail: list[Sentence] = []
            for prev in reversed(cur):
                if sum(len(t.text) for t in tail) + len(prev.text) > overlap or len(tail) + 1 >= len(cur):
                    break
                tail.insert(0, prev)
            cur = tail
            continue
        cur.append(s)
        i += 1
    if cur:
        groups.append(cur)
    return groups
