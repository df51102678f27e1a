"""Text helpers shared by the routing tiers: normalisation and the tokens behind n-gram features.

``normalize`` is the cache key and the form every tier matches against: Unicode NFKC (full-width
to half-width), case-folded, whitespace collapsed. ``tokens`` splits mixed Chinese/English text
into CJK characters and Latin words, so one n-gram vocabulary serves both languages.

Deliberately no word segmentation (jieba) here: character bigrams carry Chinese intent keywords
(退款, 订单, 区别) just as well and cost microseconds.
"""

from __future__ import annotations

import re
import unicodedata

_SPACE = re.compile(r"\s+")
_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")


def normalize(text: str) -> str:
    """NFKC, case-folded, whitespace collapsed and stripped.

    >>> normalize("  Ｈｅｌｌｏ\\n World？ ")
    'hello world?'
    """
    return _SPACE.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def tokens(text: str) -> list[str]:
    """CJK characters one by one, other runs of letters/digits as words (input already normalised).

    >>> tokens("帮我查订单 and refund")
    ['帮', '我', '查', '订', '单', 'and', 'refund']
    """
    return _TOKEN.findall(text)


def ngrams(text: str) -> list[str]:
    """Unigrams and bigrams of :func:`tokens` (bigrams joined with a space)."""
    toks = tokens(text)
    return toks + [f"{a} {b}" for a, b in zip(toks, toks[1:], strict=False)]
