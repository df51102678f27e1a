"""Two documents giving different values (numbers, dates, names, places, yes/no) for the same statement (pure)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from knowzero.knowledge.answer.checks.numbers import number_values, unit_of, value_forms, values_in, without_values
from knowzero.knowledge.answer.checks.premise import negated
from knowzero.knowledge.text import PUNCT_RUN, STOPWORDS, char_ngrams, fold, tokens

CONFLICT_SIMILAR = 0.6
"""Two sentences from different documents say "the same thing" when this share of the shorter one's
character bigrams (values left out), or of its characters in line with the other's, is in the other;
chosen on CMRC 2018 trial's conflict set."""


def _fold_same_length(text: str) -> str:
    f = fold(unicodedata.normalize("NFKC", text))
    return f if len(f) == len(text) else unicodedata.normalize("NFKC", text)


def _similar(a: str, b: str) -> float:
    ga, gb = char_ngrams(without_values(a)), char_ngrams(without_values(b))
    return len(ga & gb) / (min(len(ga), len(gb)) or 1)


_BOUND = re.compile(r"\s*(?:及|或|和)?(?:以上|以下|以内|之内|以外|之上|之下|更[严宽高低大小多少长短紧松])")


def _bound(text: str, value: str) -> bool:
    """``value`` is a bound that picks out a class ("公差为±0.02mm及更严格的零件", "3天以内的"), or the
    number of an identifier ("XH-1002"), not a value the sentence states for its subject."""
    i = text.find(value)
    if i < 0:
        return False
    if i > 0 and text[i - 1].isascii() and text[i - 1].isalpha():
        return True
    return bool(_BOUND.match(text, i + len(value)))


def _aligned(a: str, b: str) -> float:
    """Share of the longer sentence that lines up character for character with the other: a short
    sentence with one name changed ("它首先由莫瓦桑于1905年制得" / "…由梁启超于…") keeps most of its
    characters in place though a third of its character pairs differ (a short sentence inside a long
    one that says more is not "the same thing")."""
    import difflib

    same = sum(m.size for m in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return same / (max(len(a), len(b)) or 1)


def _left_context(text: str, value: str) -> str:
    i = text.find(value)
    left = re.sub(r"[\d.,±+\-\s年月日号號时時分秒]", "", text[max(0, i - 4):i]) if i >= 0 else ""  # words, not a date's units
    return left[-2:]


def _word_bounds(text: str) -> list[tuple[int, int]]:
    from knowzero.knowledge.text import _jieba

    return [(x, y) for _, x, y in _jieba().tokenize(text)]


def _widen_to_words(bounds: list[tuple[int, int]], i: int, j: int) -> tuple[int, int]:
    """[i, j) widened to whole words ("张三" rather than "三"); an insertion point stays empty."""
    if i == j:
        return i, j
    lo = min((x for x, y in bounds if y > i and x < j), default=i)
    hi = max((y for x, y in bounds if y > i and x < j), default=j)
    return min(lo, i), max(hi, j)


_WH_HEAD = r"(?:(?:哪|什么|什麼|何)一?[个個场場位种種座所家部本条條项項次届屆支间間]?|\b(?:which|what)\s+)\s*"


def _names(word: str, text: str) -> bool:
    """``text`` holds ``word``: a Latin word or number as a whole word ("5" of "WNP-5" is not in "1957")."""
    if word.isascii():
        return re.search(rf"(?<![a-z0-9]){re.escape(word)}(?![a-z0-9])", text) is not None
    return word in text


def value_conflict(question: str, a: str, b: str, *, context_a: str = "",
                   context_b: str = "") -> dict[str, object] | None:
    """The values two sources give for what the question asks, when they differ (pure), else None.

    Numbers and dates: a value of one sentence the other lacks, where the other has a value with the
    same unit in its place (the same two characters before it, or sentences that otherwise say the same
    thing); names, places and other words: the differing span of two sentences that otherwise say the
    same thing; yes/no: the same statement once negated, once not. Returns ``{"values": [[…], […]]}``.
    Both sentences (with ``context_a``/``context_b``, e.g. their documents' titles) must name the same
    words of the question: "零件A的公差为±0.01mm" and "零件B的公差为±0.05mm" are two parts, not a conflict.
    """
    if not a.strip() or not b.strip() or _fold_same_length(a) == _fold_same_length(b):
        return None
    q_words = {t for t in tokens(question, search=False, keep_stopwords=True)
               if len(t) >= 2 and t not in STOPWORDS or len(t) == 1 and t.isascii() and t.isalnum()}
    # the asked value's own category ("哪一場戰爭" → 戰爭) may be part of one value and not the other's
    # ("甲午戰爭" / "二戰"): it says what kind of value is asked, not which item the sentence is about
    q_fold = fold(unicodedata.normalize("NFKC", question)).lower()
    q_words -= {t for t in q_words if re.search(_WH_HEAD + re.escape(t), q_fold)}
    ha = fold(unicodedata.normalize("NFKC", f"{context_a} {a}")).lower()
    hb = fold(unicodedata.normalize("NFKC", f"{context_b} {b}")).lower()
    if {t for t in q_words if _names(t, ha)} != {t for t in q_words if _names(t, hb)}:
        return None
    fa, fb = _fold_same_length(a), _fold_same_length(b)
    sim = max(_similar(fa, fb), _aligned(fa, fb))
    va, vb = number_values(fa), number_values(fb)
    only_a = [v for v in values_in(fa) if not set(value_forms(v)) & vb and not _bound(fa, v)]
    only_b = [v for v in values_in(fb) if not set(value_forms(v)) & va and not _bound(fb, v)]
    if only_a and only_b:
        pairs = [(x, y) for x in only_a for y in only_b if unit_of(x) == unit_of(y)]
        same_place = [(x, y) for x, y in pairs if len(_left_context(fa, x)) == 2 and _left_context(fa, x) == _left_context(fb, y)]
        if same_place or (pairs and sim >= CONFLICT_SIMILAR):
            chosen = same_place or pairs
            return {"values": [sorted({x for x, _ in chosen}), sorted({y for _, y in chosen})]}
    if sim < CONFLICT_SIMILAR:
        return None
    import difflib

    ops = [op for op in difflib.SequenceMatcher(None, fa, fb, autojunk=False).get_opcodes() if op[0] != "equal"]
    spans = [(fa[i1:i2], fb[j1:j2]) for _, i1, i2, j1, j2 in ops]
    spans = [(x, y) for x, y in spans if PUNCT_RUN.sub("", x) or PUNCT_RUN.sub("", y)]
    if not spans or sum(len(x) + len(y) for x, y in spans) > 0.5 * min(len(fa), len(fb)):
        return None  # not one statement with one value changed
    if negated(fa) != negated(fb) and all(negated(x) or negated(y) for x, y in spans):
        return {"values": [[a.strip()], [b.strip()]], "polarity": ["no" if negated(fa) else "yes",
                                                                    "no" if negated(fb) else "yes"]}
    wa, wb = _word_bounds(fa), _word_bounds(fb)
    xs = [(a if len(fa) == len(a) else fa).__getitem__(slice(*_widen_to_words(wa, i1, i2))) for _, i1, i2, _, _ in ops]
    ys = [(b if len(fb) == len(b) else fb).__getitem__(slice(*_widen_to_words(wb, j1, j2))) for _, _, _, j1, j2 in ops]
    xs, ys = [x for x in xs if PUNCT_RUN.sub("", x)], [y for y in ys if PUNCT_RUN.sub("", y)]
    if not xs or not ys:
        return None  # one sentence only adds words to the other: not a different value
    return {"values": [xs, ys]}


def _statement_form(text: str) -> str:
    return PUNCT_RUN.sub("", fold(unicodedata.normalize("NFKC", text)).lower())


def same_title(title_a: str, title_b: str) -> bool:
    """Two documents' titles name one document: the same, or one inside the other ("议会简介" /
    "议会简介（2019年版）"), folded, without punctuation or spaces; an empty title names none."""
    ta, tb = _statement_form(title_a), _statement_form(title_b)
    return bool(ta and tb and (ta in tb or tb in ta))


def one_statement(a: str, b: str, values: Sequence[Sequence[object]], *, title_a: str = "", title_b: str = "") -> bool:
    """``a`` and ``b`` are one statement with only the disputed ``values`` changed (pure): two versions of
    one document, not two items that happen to share words. Either the two sentences differ in one region
    only, no longer than the rule of :func:`value_conflict` allows ("one statement with one value changed":
    at most half of the shorter sentence), or, with every occurrence of each side's values taken out, they
    are the same text (a name changed at each of its mentions). Folded, without punctuation or spaces.

    >>> one_statement("议会共有170个议席。", "议会共有70个议席。", [["170个"], ["70个"]])
    True
    >>> one_statement("张三身高1.80米。", "李四身高1.85米。", [["1.80米"], ["1.85米"]])
    False

    With the documents' titles, they must name one document (the same title, or one inside the other:
    "议会简介" / "议会简介（2019年版）"): "体长可达32公分" on two fishes' pages is two statements.

    >>> one_statement("体长可达32公分。", "体长可达80公分。", [["32"], ["80"]], title_a="黄鳍紫鱼", title_b="红鳍笛鲷")
    False
    """
    if len(values) != 2 or not all(values):
        return False
    if (_statement_form(title_a) or _statement_form(title_b)) and not same_title(title_a, title_b):
        return False
    fa, fb = _statement_form(a), _statement_form(b)
    if not fa or not fb or fa == fb:
        return False
    p = 0
    while p < min(len(fa), len(fb)) and fa[p] == fb[p]:
        p += 1
    q = 0
    while q < min(len(fa), len(fb)) - p and fa[-1 - q] == fb[-1 - q]:
        q += 1
    if (len(fa) - p - q) + (len(fb) - p - q) <= 0.5 * min(len(fa), len(fb)):
        return True

    def rest(text: str, side: Sequence[object]) -> str:
        t = _statement_form(text)
        for v in sorted((_statement_form(str(x)) for x in side), key=len, reverse=True):
            if v:
                t = t.replace(v, "")
        return t

    ra, rb = rest(a, values[0]), rest(b, values[1])
    return bool(ra) and ra == rb


# ----- answers that are not quotes (LLM output, HaluEval) -----
