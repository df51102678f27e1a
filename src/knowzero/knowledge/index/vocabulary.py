"""A question's Chinese words re-cut into the words the documents use (a pure function).

jieba segments a question without knowing the documents: "城北店能代煎中药吗" is cut 城北 | 店能代 | 煎 | 中药,
so 代煎 — a word the documents index — never reaches the search or the coverage check. :func:`resegmented`
re-cuts a run of neighbouring words that holds a word no document has into the documents' own words
(longest indexed word first). Only a run holding a word no document has is touched, so a question in
the documents' own words reads as before. The index is asked through ``known(word)`` (some chunk holds it).
(An abbreviation — 年假 where the documents say 年休假 — is a reading of the question instead:
:meth:`knowzero.knowledge.catalog.Catalog.spaced_variant`.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from knowzero.knowledge.text import STOPWORDS

Known = Callable[[str], bool]

_CJK = re.compile(r"[\u4e00-\u9fff]+")
FUNCTION_CHARS = frozenset("的了是在和与及之其所被把对从向由为于以将给到自也都就会能可要该着过吗呢吧啊")
"""Characters that glue onto a neighbouring word and never start a re-cut one."""
LONGEST_WORD = 4
"""The longest word :func:`resegmented` looks for (jieba's dictionary words are mostly two to four characters)."""


def _cjk(word: str) -> bool:
    return bool(_CJK.fullmatch(word))


def _content(word: str) -> bool:
    """A Chinese neighbour a re-cut may take in: not a function word ("上周|在": no 周在)."""
    return _cjk(word) and word not in STOPWORDS and not (len(word) == 1 and word in FUNCTION_CHARS)


def resegmented(words: Sequence[str], known: Known) -> list[str]:
    """``words`` with every run of adjacent Chinese words that holds a word no document has (of two or more
    characters) re-cut, left to right, into the longest indexed words of two to :data:`LONGEST_WORD`
    characters; characters no indexed word covers stay as one-character words. Other words are kept.

    >>> known = {"城北", "代煎", "中药", "店"}.__contains__
    >>> resegmented(["城北", "店能代", "煎", "中药"], known)
    ['城北', '店', '能', '代煎', '中药']
    >>> resegmented(["年假", "几天"], known)  # nothing indexed to re-cut into: kept as it was
    ['年假', '几天']
    >>> resegmented(["上周", "在", "店"], {"周在", "店"}.__contains__)  # a function word is no part of a re-cut
    ['上周', '在', '店']
    """
    out: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if not (_cjk(w) and len(w) >= 2 and not known(w)):
            out.append(w)
            i += 1
            continue
        lo, hi = i, i + 1  # the unseen word with its Chinese neighbours on either side, not a function word
        if lo > 0 and _content(words[lo - 1]) and out and out[-1] == words[lo - 1]:
            lo -= 1
            out.pop()
        if hi < len(words) and _content(words[hi]):
            hi += 1
        run = "".join(words[lo:hi])
        cut = _longest_first(run, known)
        if not any(len(c) >= 2 and c not in words[lo:hi] for c in cut):
            out.extend(words[lo:hi])  # the documents have no word here either: the segmenter's cut stands
        else:
            out.extend(cut)
        i = hi
    return out


def _longest_first(run: str, known: Known) -> list[str]:
    out: list[str] = []
    at = 0
    while at < len(run):
        for n in range(min(LONGEST_WORD, len(run) - at), 1, -1):
            if known(run[at:at + n]):
                out.append(run[at:at + n])
                at += n
                break
        else:
            out.append(run[at])
            at += 1
    return out
