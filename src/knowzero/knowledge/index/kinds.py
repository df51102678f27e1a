"""Names of one kind, as the team's tables know them: a follow-up's "那云溪苑的呢？" swaps 江畔花园 because both head
a column of one table; "And for a W4?" swaps W2 because both are values of one column. Pure.

A phrase names a **column** when it is a column's label without its unit ("建筑面积" for "建筑面积(㎡)"), is contained in
it, or is an abbreviation of it (its characters in order, first and last shared: "二次供水费" for "二次加压供水费"); the
label's siblings are the table's other labels. A phrase names a **value** when a text cell of a column equals it;
its siblings are that column's other values. Labels and values are compared after :func:`key` (NFKC, lower case).

>>> t = kind_table(("物业类型", "江畔花园（元/平方米·月）", "云溪苑（元/平方米·月）"), {"物业类型": ("多层住宅", "高层住宅")})
>>> same_kind("云溪苑", [t])
('column', ('物业类型', '江畔花园'))
>>> same_kind("高层住宅", [t])
('value', ('多层住宅',))
>>> same_kind("电梯", [t])
('', ())
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

_UNIT = re.compile(r"\s*(?:[（(][^）)]{0,30}[）)]|_[^_]{1,12})\s*$")
"""A label's unit or note at its end: "（元/户·月）", "(㎡)", "_元"."""
MAX_PHRASE = 24
MAX_VALUE = 24
"""Longer phrases and cells are sentences, not names of a kind."""


@dataclass(frozen=True)
class KindTable:
    """One table as names, compared as :func:`key`: its column labels without their units (:func:`bare_label`),
    and each column's text values of at most :data:`MAX_VALUE` characters (built by :func:`kind_table`)."""

    labels: tuple[str, ...]
    values: tuple[tuple[str, ...], ...]


def kind_table(labels: Sequence[str], values: Mapping[str, Sequence[str]]) -> KindTable:
    """A table's labels and its values by column, read as names once (the table does not change)."""
    return KindTable(tuple(bare_label(lab) for lab in labels),
                     tuple(tuple(key(v) for v in column if len(v) <= MAX_VALUE) for column in values.values()))


def key(text: str) -> str:
    """How names are compared: NFKC, lower case, runs of spaces as one."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).lower()).strip()


def bare_label(label: str) -> str:
    """A column label without its unit ("电梯运行费（元/户·月）" → 电梯运行费), compared as :func:`key`.

    >>> bare_label("电梯运行费（元/户·月）"), bare_label("1-99件_元"), bare_label("建筑面积(㎡)")
    ('电梯运行费', '1-99件', '建筑面积')
    """
    k = key(label)
    stripped = _UNIT.sub("", k)
    return stripped if len(stripped) >= 2 else k


def _abbreviates(phrase: str, name: str) -> bool:
    """``phrase`` written inside ``name`` or as its abbreviation (its characters in order, the first and last
    shared): "二次供水费" for "二次加压供水费"; never a single character."""
    if len(phrase) < 2 or len(phrase) > len(name):
        return False
    if phrase in name:
        return True
    if phrase[0] != name[0] or phrase[-1] != name[-1]:
        return False
    it = iter(name)
    return all(ch in it for ch in phrase)


def same_kind(phrase: str, tables: Iterable[KindTable]) -> tuple[str, tuple[str, ...]]:
    """("column", the table's other labels) when ``phrase`` names a column; ("value", the column's other values)
    when it is a cell value; ("", ()) when no table knows it. The first table that knows it answers; a column
    before a value. Siblings are bare (:func:`bare_label`) and compared as :func:`key`."""
    p = key(phrase)
    if not 2 <= len(p) <= MAX_PHRASE:
        return "", ()
    tables = list(tables)
    for t in tables:
        hit = [i for i, b in enumerate(t.labels) if _abbreviates(p, b)]
        if len(hit) == 1:
            return "column", tuple(dict.fromkeys(b for i, b in enumerate(t.labels) if i != hit[0] and b != p))
    for t in tables:
        for keys in t.values:
            if p in keys:
                return "value", tuple(dict.fromkeys(k for k in keys if k != p))
    return "", ()
