"""Tier 2: fuzzy keyword matching with rapidfuzz (typos, near phrases, keyword containment).

Every intent has a list of keyword phrases (data file). A phrase is found in the message by
``fuzz.partial_ratio`` (fast prefilter), then scored strictly by ``fuzz.ratio``: Chinese phrases
against the aligned character window (one wrong character in four scores 75, a missing or extra
one inside about 86), Latin phrases against runs of as many whole words ("cancle my order" meets
"cancel my order" at 93; "detail" never matches "email"). Latin phrases need ``latin_cutoff``
(85). The best intent's score / 100 is the confidence.

Three guards keep keyword matching honest:

* **real-word check (Chinese):** a window that differs from the phrase by forming another real
  word is a different word, not a typo. 我要退出 is not 我要退款 (退出 is in jieba's dictionary),
  while 我要退宽 and 报消流程 are typos (退宽, 报消 are not words). The dictionary is jieba's own
  ``dict.txt`` (two-character entries), loaded once per process.
* **exclusivity:** when another intent also has a phrase above ``cutoff`` within ``margin`` points
  (申请退款的流程 holds an action and a knowledge phrase) the result is returned at half
  confidence, so the chain falls through to the semantic tier.
* **whole-message phrases:** phrases of the intents in ``whole_message`` (the product's chitchat:
  你叫什么, 你是谁) only count when they cover the message: what is left outside the matched window,
  once punctuation and ``fillers`` (呀, 名字, please...) are removed, must be empty. "访客WiFi叫什么？"
  holds 'i叫什么' one edit from 你叫什么, but 访客wif is content of its own: a question about the
  WiFi, not a question to the assistant. Besides, a Latin letter or digit standing where a Chinese
  phrase has a character is never a typo.

Deliberately not done here: phrases shorter than ``min_chars`` (one wrong character out of two
is indistinguishable from another word), phrases longer than the message plus one character,
pinyin/homophone matching (no pinyin data ships offline) and anything semantic.

>>> tier = FuzzyTier({"action": ["申请退款", "我要退款"], "knowledge": ["报销流程"]})
>>> r = tier.classify("我要退宽")
>>> (r.intent, r.confidence)
('action', 0.75)
"""

from __future__ import annotations

import bisect
import importlib.util
import os
import re
import time
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache

from rapidfuzz import fuzz, process
from rapidfuzz.distance import Levenshtein

from knowzero.routing.text import normalize
from knowzero.routing.types import IntentResult

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_WORD = re.compile(r"[^\s,.!?;:]+")
_CONTENT = re.compile(r"[^\W_]")
_LATIN_OR_DIGIT = re.compile(r"[a-z0-9]")


@lru_cache(maxsize=1)
def _jieba_bigrams(min_freq: int = 20) -> frozenset[str]:
    """Two-character words of jieba's bundled dictionary with frequency >= ``min_freq``."""
    spec = importlib.util.find_spec("jieba")  # locate its dictionary without importing jieba
    if spec is None or spec.origin is None:  # pragma: no cover - jieba is a project dependency
        return frozenset()
    path = os.path.join(os.path.dirname(spec.origin), "dict.txt")
    words: set[str] = set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split(" ", 2)
            if len(parts) >= 2 and len(parts[0]) == 2 and int(parts[1]) >= min_freq:
                words.add(parts[0])
    return frozenset(words)


def is_real_word(word: str) -> bool:
    """True when ``word`` is a two-character entry of jieba's dictionary (used by the typo guard)."""
    return word in _jieba_bigrams()


class FuzzyTier:
    """rapidfuzz matching against per-intent keyword phrases.

    ``cutoff`` is the lowest strict score (0-100) that counts as a hit; ``margin`` is how many
    points the best intent must beat any other matching intent by to keep its full confidence.
    ``real_word`` decides whether a differing window is a real word (default: jieba's dictionary).
    """

    method = "fuzzy"

    def __init__(self, keywords: Mapping[str, Iterable[str]], *, cutoff: float = 75.0,
                 latin_cutoff: float = 85.0, min_chars: int = 3, margin: float = 25.0,
                 real_word: Callable[[str], bool] | None = is_real_word,
                 whole_message: Iterable[str] = (), fillers: Iterable[str] = ()) -> None:
        if not (0 < cutoff <= 100 and 0 < latin_cutoff <= 100):
            raise ValueError("cutoffs must be in (0, 100]")
        if min_chars < 1 or margin < 0:
            raise ValueError("min_chars must be >= 1 and margin >= 0")
        owner: dict[str, str] = {}
        for intent, phrases in keywords.items():
            for phrase in phrases:
                norm = normalize(phrase)
                if len(norm) >= min_chars:
                    owner.setdefault(norm, intent)
        ordered = sorted(owner, key=len)
        self._phrases: list[str] = ordered
        self._lengths: list[int] = [len(p) for p in ordered]
        self._intent_of: list[str] = [owner[p] for p in ordered]
        self.cutoff, self.latin_cutoff = cutoff, latin_cutoff
        self.margin = margin
        self._real_word = real_word
        self.whole_message = frozenset(whole_message)
        self._fillers = sorted({normalize(f) for f in fillers if normalize(f)}, key=len, reverse=True)
        if real_word is is_real_word and any(_CJK.search(p) for p in ordered):
            _jieba_bigrams()  # load now, not on the first user's message

    @property
    def intents(self) -> set[str]:
        return set(self._intent_of)

    def classify(self, text: str) -> IntentResult | None:
        """Best intent by keyword similarity, or None when no phrase reaches ``cutoff``."""
        start = time.perf_counter()
        norm = normalize(text)
        upto = bisect.bisect_right(self._lengths, len(norm) + 1) if norm else 0
        if upto == 0:
            return None
        rough = process.extract(norm, self._phrases[:upto], scorer=fuzz.partial_ratio,
                                processor=None, score_cutoff=self.cutoff, limit=None)
        best: dict[str, tuple[float, str, str]] = {}
        for phrase, _, idx in rough:
            score, window = self._score(phrase, norm)
            if score < (self.cutoff if _CJK.search(phrase) else self.latin_cutoff):
                continue
            intent = self._intent_of[idx]
            if intent in self.whole_message and not self._covers(norm, window):
                continue
            if intent not in best or score > best[intent][0]:
                best[intent] = (score, phrase, window)
        if not best:
            return None
        ranked = sorted(best.items(), key=lambda kv: kv[1][0], reverse=True)
        intent, (score, phrase, window) = ranked[0]
        confidence = score / 100.0
        if score >= 100.0:
            reasoning = f"keyword '{phrase}'"
        else:
            reasoning = f"'{window}' ≈ '{phrase}' ({score:.0f}/100)"
        if len(ranked) > 1 and score - ranked[1][1][0] < self.margin:
            other, (other_score, other_phrase, _) = ranked[1]
            confidence *= 0.5
            reasoning += f"; ambiguous with {other} ('{other_phrase}' {other_score:.0f})"
        return IntentResult(
            intent=intent, confidence=round(confidence, 4), method="fuzzy",
            elapsed_ms=(time.perf_counter() - start) * 1000.0, reasoning=reasoning,
            candidates=tuple((name, round(s / 100.0, 4)) for name, (s, _, _) in ranked[:3]),
        )

    def _score(self, phrase: str, text: str) -> tuple[float, str]:
        """Strict score of ``phrase`` against its best window in ``text`` (0 if it is a real word)."""
        if _CJK.search(phrase) is None:
            return self._score_words(phrase, text)
        if phrase in text:
            return 100.0, phrase
        align = fuzz.partial_ratio_alignment(phrase, text)
        if align is None:
            return 0.0, ""
        n = len(phrase)
        best, window = 0.0, ""
        for size in (n - 1, n, n + 1):
            for begin in range(max(0, align.dest_start - 1), align.dest_start + 2):
                candidate = text[begin:begin + size]
                if len(candidate) != size or size < 1:
                    continue
                if size != n and (candidate[0] != phrase[0] or candidate[-1] != phrase[-1]):
                    continue  # an inserted/missing character only counts inside the phrase
                score = fuzz.ratio(phrase, candidate)
                if score > best:
                    best, window = score, candidate
        if best < 100.0 and set(_LATIN_OR_DIGIT.findall(window)) - set(phrase):
            return 0.0, window  # a Latin letter or digit is not a typo of a Chinese character
        if best and self._real_word is not None and self._forms_other_word(phrase, window):
            return 0.0, window
        return best, window

    def _covers(self, text: str, window: str) -> bool:
        """Is ``text`` nothing but ``window`` plus punctuation and fillers?"""
        at = text.find(window)
        if at < 0:
            return False
        rest = text[:at] + " " + text[at + len(window):]
        for filler in self._fillers:
            rest = rest.replace(filler, " ")
        return not _CONTENT.search(rest)

    @staticmethod
    def _score_words(phrase: str, text: str) -> tuple[float, str]:
        """Latin phrases: compare with runs of as many whole words (a typo stays inside its word)."""
        words = _WORD.findall(text)
        n = len(phrase.split())
        best, window = 0.0, ""
        for i in range(0, len(words) - n + 1):
            candidate = " ".join(words[i:i + n])
            score = fuzz.ratio(phrase, candidate)
            if score > best:
                best, window = score, candidate
        return best, window

    def _forms_other_word(self, phrase: str, window: str) -> bool:
        """Does an edited position of ``window`` sit inside a real word absent from ``phrase``?"""
        assert self._real_word is not None
        for op in Levenshtein.editops(phrase, window):
            p = op.dest_pos
            for bigram in (window[p - 1:p + 1] if p >= 1 else "", window[p:p + 2]):
                if len(bigram) == 2 and bigram not in phrase and self._real_word(bigram):
                    return True
        return False
