"""Named things a question is about (part numbers, "零件A", product models) and the filter
that keeps part A's question away from part B's page. Pure functions.

Entity keys are lower-cased strings. A document is *about* the entities in its title; titles
that name two entities ("零件A-XH-1001 工艺说明") make them aliases. A passage is dropped when
the question names entities and the passage's document is about other entities only;
passages about no entity (general policies) always stay.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

_PATTERNS = [
    re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,4}-?\d{2,6}(?:-[A-Za-z0-9]{1,4})?(?![A-Za-z0-9])"),  # XH-1001, AB123
    re.compile(r"(?:零件|部件|产品|型号|工件|物料)\s?[A-Za-z0-9]{1,6}(?![A-Za-z0-9])"),  # 零件A, 产品B2
    re.compile(r"(?i)\b(?:part|product|model)\s+[A-Z0-9]{1,6}\b"),  # Part A
]


def extract(text: str) -> set[str]:
    """Entity keys mentioned in ``text``.

    >>> sorted(extract("零件A（XH-1001）的公差和 part B"))
    ['xh-1001', '零件a', '零件b']
    """
    text = unicodedata.normalize("NFKC", text)
    found: set[str] = set()
    for pat in _PATTERNS:
        for m in pat.finditer(text):
            key = re.sub(r"\s+", " ", m.group(0)).strip().lower()
            if re.fullmatch(r"[a-z]{1,4}-?\d{2,6}", key) and re.fullmatch(r"[a-z]+\d{2,4}", key.replace("-", "")):
                # Years and common units ("iso9001", "ra08") are not parts unless hyphenated.
                if "-" not in key and re.fullmatch(r"(?:iso|ra|gb|no|v)\d+", key):
                    continue
            found.add(_canonical(key))
    return found


def disagree(claim: str, quote: str) -> bool:
    """The claim names an item of one kind (a part name, a part number) and its quote names only
    other items of that kind: the quote is about something else. Names and numbers of different
    kinds are not compared (a title may make them aliases).

    >>> disagree("零件A的公差为±0.05mm", "零件B（XH-1002，公差±0.05mm）")
    True
    >>> disagree("零件A的公差为±0.01mm", "XH-1001的公差为±0.01mm")
    False
    """
    a, b = extract(claim), extract(quote)
    for kind in (_is_code, lambda e: not _is_code(e)):
        ka, kb = {e for e in a if kind(e)}, {e for e in b if kind(e)}
        if ka and kb and not ka & kb:
            return True
    return False


def _is_code(key: str) -> bool:
    return bool(re.fullmatch(r"[a-z]{1,4}-?\d{2,6}(?:-[a-z0-9]{1,4})?", key))


def first_mention(text: str) -> str:
    """The first named item as written ("零件A", "XH-1001"), or ''."""
    text = unicodedata.normalize("NFKC", text)
    hits = [m for pat in _PATTERNS for m in pat.finditer(text)]
    return min(hits, key=lambda m: m.start()).group(0).strip() if hits else ""


def _canonical(key: str) -> str:
    m = re.fullmatch(r"(?:part|product|model)\s+([a-z0-9]+)", key)
    if m:
        return "零件" + m.group(1) if key.startswith("part") else "产品" + m.group(1)
    return key.replace(" ", "")


def alias_groups(titles: Iterable[str]) -> dict[str, frozenset[str]]:
    """Entity → all entities named together with it in some title (including itself)."""
    groups: dict[str, set[str]] = {}
    for title in titles:
        ents = extract(title)
        if len(ents) < 2:
            continue
        merged = set(ents)
        for e in ents:
            merged |= groups.get(e, set())
        for e in merged:
            groups[e] = merged
    return {e: frozenset(g) for e, g in groups.items()}


def expand(entities: set[str], aliases: Mapping[str, frozenset[str]]) -> set[str]:
    out = set(entities)
    for e in entities:
        out |= aliases.get(e, frozenset())
    return out


def keep_passage(question_entities: set[str], passage_entities: set[str]) -> bool:
    """True when the passage may answer a question naming ``question_entities``.

    >>> keep_passage({"零件a"}, {"零件b", "xh-1002"}), keep_passage({"零件a"}, set())
    (False, True)
    """
    if not question_entities or not passage_entities:
        return True
    return bool(question_entities & passage_entities)
