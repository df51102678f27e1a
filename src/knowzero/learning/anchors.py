"""Comment anchors as content fingerprints: the selected text plus a little context either side.

A character offset breaks at the first edit above it; a fingerprint survives edits. After a
document changes, :func:`reanchor` looks for the selected text again:

1. exact occurrences in every section (a sentence can move); several occurrences are told apart
   by how well the context before/after matches, then by staying in the comment's section near
   its old position;
2. a fuzzy match (rapidfuzz alignment) for selections of at least ``MIN_FUZZY_CHARS`` characters:
   accepted when the aligned text scores ≥ ``FUZZY_SURE``, or ≥ ``FUZZY_MIN`` with the context
   agreeing (≥ ``CONTEXT_MIN``), or ≥ ``FUZZY_LOW`` with the context agreeing strongly
   (≥ ``CONTEXT_SURE``) — a similar sentence somewhere else is not the same text;
3. otherwise the comment is ``orphaned``: its text is gone, and saying so beats attaching the
   comment to the wrong words.

Pure functions over strings; the store persists the result.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz

CONTEXT_CHARS = 32
MIN_FUZZY_CHARS = 8
FUZZY_MIN = 88.0
FUZZY_SURE = 96.0
CONTEXT_MIN = 60.0
FUZZY_LOW = 75.0
CONTEXT_SURE = 85.0
EDGE_MIN = 4
NEAR_CHARS = 8
OWN_SECTION_BONUS = 0.0  # the section only breaks ties: content and context decide


@dataclass(frozen=True)
class Anchor:
    selected_text: str
    prefix: str
    suffix: str
    section_id: str | None
    start: int | None
    end: int | None
    status: str = "anchored"  # anchored | moved | fuzzy | orphaned

    def to_dict(self) -> dict[str, object]:
        return {"selected_text": self.selected_text, "prefix": self.prefix, "suffix": self.suffix,
                "section_id": self.section_id, "start": self.start, "end": self.end, "status": self.status}


def make_anchor(sections: dict[str, str], selected_text: str, section_id: str | None = None,
                position: int | None = None) -> Anchor:
    """Fingerprint a selection made on the current text (``sections``: id → markdown).

    The selection must exist; when the client names no section, or names the wrong one, the
    sections are searched. ``position`` (an offset in the section) picks among repeats.
    """
    sel = selected_text.strip()
    order = ([section_id] if section_id in sections else []) + [s for s in sections if s != section_id]
    for sid in order:
        text = sections[sid]
        starts = _occurrences(text, sel)
        if not starts:
            continue
        start = min(starts, key=lambda s: abs(s - position)) if position is not None else starts[0]
        end = start + len(sel)
        return Anchor(sel, text[max(0, start - CONTEXT_CHARS):start], text[end:end + CONTEXT_CHARS], sid, start, end)
    if section_id in sections:  # not found verbatim: keep the fingerprint, it may be whitespace noise
        a = _fuzzy_in(sections[section_id], Anchor(sel, "", "", section_id, None, None), require_context=False)
        if a is not None:
            return a
    return Anchor(sel, "", "", section_id, None, None, "orphaned")


def reanchor(anchor: Anchor, sections: dict[str, str]) -> Anchor:
    """Where the fingerprinted text is in the new ``sections`` (or orphaned; see module doc)."""
    sel = anchor.selected_text
    if not sel:
        return _orphan(anchor)
    own = anchor.section_id if anchor.section_id in sections else None
    order = ([own] if own else []) + [s for s in sections if s != own]
    exact = [(sid, st) for sid in order for st in _occurrences(sections[sid], sel)]
    if exact:
        def rank(c: tuple[str, int]) -> tuple[float, float]:
            sid, st = c
            ctx = _context_score(anchor, sections[sid], st, st + len(sel)) + (OWN_SECTION_BONUS if sid == own else 0)
            return ctx, -abs(st - (anchor.start or 0)) if sid == own else -1e9
        sid, best = max(exact, key=rank)
        status = "anchored" if sid == anchor.section_id else "moved"
        return _at(anchor, sections[sid], sid, best, best + len(sel), status)
    if len(sel) >= MIN_FUZZY_CHARS:
        found = [a for sid in order if (a := _fuzzy_in(sections[sid], anchor, sid=sid)) is not None]
        if found:
            return max(found, key=lambda a: (_fuzzy_score(a, sections), a.section_id == own))
    return _orphan(anchor)


def _orphan(anchor: Anchor) -> Anchor:
    return Anchor(anchor.selected_text, anchor.prefix, anchor.suffix, anchor.section_id, None, None, "orphaned")


def _at(anchor: Anchor, text: str, sid: str, start: int, end: int, status: str) -> Anchor:
    """Same fingerprint, new position. The context stays the one recorded when the comment was
    made (as a W3C TextQuoteSelector does): refreshing it would let a neighbour inserted later
    (a copy of the sentence, say) become part of the fingerprint."""
    return Anchor(anchor.selected_text, anchor.prefix, anchor.suffix, sid, start, end, status)


def _occurrences(text: str, sel: str) -> list[int]:
    out, i = [], text.find(sel)
    while i >= 0 and sel:
        out.append(i)
        i = text.find(sel, i + 1)
    return out


def _context_score(anchor: Anchor, text: str, start: int, end: int) -> float:
    """0-100: how well the text around [start, end) matches the fingerprint's context.

    Each side scores the nearest ``NEAR_CHARS`` characters and the whole window (as many as both
    texts have) equally: what touches the selection says most. Context cut to fewer than
    ``EDGE_MIN`` characters by the section's edge counts as neutral (50).
    """
    before = text[max(0, start - CONTEXT_CHARS):start]
    after = text[end:end + CONTEXT_CHARS]
    scores = []
    if anchor.prefix:
        n = min(len(anchor.prefix), len(before))
        k = min(n, NEAR_CHARS)
        scores.append((fuzz.ratio(anchor.prefix[-k:], before[-k:]) + fuzz.ratio(anchor.prefix[-n:], before[-n:])) / 2
                      if n >= EDGE_MIN else 50.0)
    if anchor.suffix:
        n = min(len(anchor.suffix), len(after))
        k = min(n, NEAR_CHARS)
        scores.append((fuzz.ratio(anchor.suffix[:k], after[:k]) + fuzz.ratio(anchor.suffix[:n], after[:n])) / 2
                      if n >= EDGE_MIN else 50.0)
    return sum(scores) / len(scores) if scores else 100.0


def _fuzzy_in(text: str, anchor: Anchor, sid: str | None = None, require_context: bool = True) -> Anchor | None:
    sel = anchor.selected_text
    if len(text) < MIN_FUZZY_CHARS:
        return None
    al = fuzz.partial_ratio_alignment(sel, text, score_cutoff=FUZZY_LOW)
    if al is None:
        return None
    start, end = al.dest_start, al.dest_end
    # the aligned span must be about as long as the selection (no swallowing a neighbour)
    if not 0.75 * len(sel) <= end - start <= 1.25 * len(sel):
        return None
    whole = fuzz.ratio(sel, text[start:end])
    if whole < FUZZY_SURE:
        context = _context_score(anchor, text, start, end) if require_context else 100.0
        # a lower text score needs stronger agreement of the surroundings
        if not ((whole >= FUZZY_MIN and context >= CONTEXT_MIN) or (whole >= FUZZY_LOW and context >= CONTEXT_SURE)):
            return None
    return Anchor(sel, anchor.prefix or text[max(0, start - CONTEXT_CHARS):start],
                  anchor.suffix or text[end:end + CONTEXT_CHARS], sid or anchor.section_id, start, end, "fuzzy")


def _fuzzy_score(a: Anchor, sections: dict[str, str]) -> float:
    text = sections.get(a.section_id or "", "")
    return fuzz.ratio(a.selected_text, text[a.start or 0:a.end or 0]) if text else 0.0


def span_text(anchor: Anchor, sections: dict[str, str]) -> str:
    """The text the anchor currently points at ('' when orphaned)."""
    if anchor.status == "orphaned" or anchor.start is None or anchor.section_id not in sections:
        return ""
    return sections[anchor.section_id][anchor.start:anchor.end]
