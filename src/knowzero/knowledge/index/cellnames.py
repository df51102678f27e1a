"""How a question names a table's cell: whole (an English one as whole words), by its head before a bracketed aside
("spay (cat)" by "spay a cat"), with its last English word cut short ("vet consult" of "vet consultation"), or a
Chinese key by its first or last two characters when no other key has them. Pure functions over normalised text."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from knowzero.knowledge.index.bands import band
from knowzero.knowledge.index.sqlindex import normal_key
from knowzero.knowledge.ingest.csvtable import TableColumn
from knowzero.vocabulary.questions import opposite_bound

ASIDE = re.compile(r"[（(][^）)]*[）)]")
"""A bracketed aside of a key ("（15 minutes）")."""
MAX_KEY_CHARS = 10
"""A row key named by a word of it is at most this long (a name, not a remark)."""


def bigrams(text: str) -> set[str]:
    return {text[i:i + 2] for i in range(len(text) - 1) if not re.search(r"[\s\d\W_]", text[i:i + 2])}


def named(value: str, q: str) -> bool:
    """The (normalised) cell value is named by the (normalised) question; an English one as a whole word or phrase,
    its last word in either number ("3 bedrooms" by "a 3 bedroom house").

    >>> named("3 bedrooms", "a 3 bedroom house"), named("cat", "education"), named("2 bedrooms", "a 3 bedroom house")
    (True, False, False)
    """
    if len(value) < 2:
        return False
    if value.isascii():  # a whole word or phrase ("cat" is not in "education")
        # a counted noun ("3 bedrooms") in either number; not "news", "glass", "bus", nor a role ("shift managers" of a
        # policy question is no roster row's "Shift manager")
        stem = value[:-1] if re.search(r"\d", value) and re.search(r"[a-z]{3}[^sui]s$", value) else value
        if stem not in q:
            return False
        plural = "s?" if stem != value else ""
        return bool(re.search(rf"(?<![a-z0-9]){re.escape(stem)}{plural}(?![a-z0-9])", q))
    return value in q


def named_with_aside(value: str, q: str, asked: Sequence[tuple[float, str]]) -> int:
    """How strongly the question names a key with a bracketed aside ("spay (cat)" by "spay a cat"): its head's
    length plus that of each word of the aside it names too; 0 when it does not name the head, or when the aside
    is a range that holds no quantity the question names ("spay (dog under 50 lb)" of "a dog over 50 lb")."""
    head = ASIDE.sub("", value).strip()
    if head == value or len(head) < (3 if head.isascii() else 2) or not (named(head, q) or clipped(head, q)):
        return 0
    aside = " ".join(ASIDE.findall(value)).strip("（）() ")
    if asked and (b := band(aside)) is not None and not any(b.holds(x, unit) for x, unit in asked) \
            or opposite_bound(aside, q):  # "under 50 lb" is not "over 50 lb"
        return 0
    words = re.findall(r"[a-z0-9]+", aside) if aside.isascii() else [aside]
    return len(head) + sum(len(w) for w in words if len(w) >= 2 and named(w, q))


def clipped(phrase: str, q: str) -> bool:
    """An English phrase of two words or more the question writes with its last word cut short ("vet consult" of
    "vet consultation", five letters or more kept).

    >>> clipped("vet consultation", "a normal vet consult on saturday"), clipped("vet consultation", "a vet con")
    (True, False)
    """
    words = phrase.split()
    if len(words) < 2 or not phrase.isascii() or len(words[-1]) < 6:
        return False
    lead = r"\s+".join(re.escape(w) for w in words[:-1])
    return any(words[-1].startswith(m.group(1)) for m in re.finditer(rf"(?<![a-z0-9]){lead}\s+([a-z]{{5,}})\b", q))


def partly_named(value: str, col: TableColumn, key_col: TableColumn, leads: Counter[str], q: str) -> bool:
    """A Chinese key of three or more characters the question names by its first or last two characters, when no
    other key of its column has them (``leads``: how many keys of the key column hold each two characters, see
    :func:`key_bigrams`; "首次申领" by 首次 in "首次申请居住证需要多久？"; "本实验室成员" is not named by the 实验 of any
    question about the lab): weaker than a key named whole."""
    if len(value) < 3 or len(value) > MAX_KEY_CHARS or value.isascii() or col is not key_col:
        return False  # only a short key in the table's first text column: not a remark that mentions a word
    head = ASIDE.sub("", value)  # the key without its bracketed aside ("晚餐（值班人员）" is a 晚餐)
    # the modifier that sets the key apart comes first (首次申领, 一类城市); the head noun last (普通护照 by 护照)
    return any(part in bigrams(head) and leads[part] == 1 and part in bigrams(q) for part in (head[:2], head[-2:]))


def key_bigrams(values: Sequence[tuple[int, TableColumn, str]], key_col: TableColumn) -> Counter[str]:
    """For each two characters, how many keys of ``key_col`` (without their asides) hold them: counted once per
    table and question, not once per key."""
    return Counter(b for _r, c, v in values if c is key_col for b in bigrams(ASIDE.sub("", v)))


def shown_noun(noun: str, question: str, context: Sequence[str]) -> str:
    """The counted noun as the answer says it: without the organisation's name — a word the question capitalises
    that two or more of the documents' titles carry ("How many Dunmarrow staff…" → "9 staff"); the head noun stays.

    >>> shown_noun("dunmarrow staff", "How many Dunmarrow staff are keyholders?", ["Dunmarrow Museums Trust Staff", "Dunmarrow Fees"])
    'staff'
    >>> shown_noun("gold members", "How many Gold members are there?", ["Kestrel Club: Gold, Silver"])
    'gold members'
    """
    words = noun.split()
    if not noun.isascii() or len(words) < 2:
        return noun
    named = {w.lower() for w in re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+", question.strip())}
    org = {w for w in words[:-1] if w in named and sum(w in c.lower().split() for c in context) >= 2}
    return " ".join(w for w in words if w not in org)


_ENDS = re.compile(r"\s*(?:—|–|-|~|～|→|至|到)\s*")


def both_ends(key: str, q: str) -> bool:
    """A route or a span key ("鹤湾—芦屿", "Selbury – Ashcombe") whose two ends the question names, apart.

    >>> both_ends("鹤湾—芦屿", "从鹤湾坐船去芦屿"), both_ends("芦屿—松门", "从鹤湾坐船去芦屿"), both_ends("3–6天", "租5天")
    (True, False, False)
    """
    ends = _ENDS.split(key.strip())
    return len(ends) == 2 and all(len(e) >= 2 and not re.search(r"\d", e) and named(e, q) for e in ends)


def for_other_rows(rule: str, key: str, others: Sequence[str]) -> bool:
    """A rule that names another row of the table by its key's head ("4号线") and not this row's: not this row's rule.

    >>> for_other_rows("春节和国庆期间，4号线快船票价一律上浮20%", "1号线", ["2号线", "4号线（快船）"])
    True
    >>> for_other_rows("春节和国庆期间，4号线快船票价一律上浮20%", "4号线（快船）", ["1号线", "2号线"])
    False
    """
    text = normal_key(rule)

    def head(k: str) -> str:
        return normal_key(ASIDE.sub("", k).strip())

    return len(head(key)) >= 2 and head(key) not in text and any(len(h := head(o)) >= 2 and h in text for o in others)


def aside_named(key: str, q: str) -> int:
    """The length of a key's Chinese aside the question names when it does not name the key's head ("4号线（快船）" by
    "坐快船去松门"), else 0.

    >>> aside_named("4号线（快船）", "国庆节坐快船去松门"), aside_named("4号线（快船）", "4号线快船"), aside_named("晚餐（值班人员）", "值班")
    (2, 0, 0)
    """
    head = ASIDE.sub("", key).strip()
    inner = [x.strip("（）() ") for x in ASIDE.findall(key)]
    said = [x for x in inner if len(x) >= 2 and re.fullmatch(r"[\u4e00-\u9fff]+", x) and named(x, q)]
    return len(said[0]) if len(said) == 1 and head and not named(head, q) else 0
