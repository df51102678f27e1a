"""Numbers in claims and evidence: digits, Chinese numerals and English number words as values (pure).

A claim's number must be its evidence's; "十二天", "五万元", "百分之五" and "twelve" count as the numbers
they write. Values with units ("5万元", "±0.05mm") are compared by value and unit."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from knowzero.knowledge.text import fold, iter_numbers

CN_NUMERAL = re.compile(r"(?<!第)(?P<n>[零〇一二两三四五六七八九十百千万亿]+)(?P<u>个|位|名|种|次|项|条|家|座|部|本|年|月|日|号|天|人|岁|倍|"
                         r"秒|米|元|首|张|册|所|辆|件|度|届|场|处|只|架|艘|层|周|世纪|小时|分钟|公里|公斤|平方|吨|克|斤|%)?")
_CN_PERCENT = re.compile(r"百分之(?P<n>[零〇一二两三四五六七八九十百千万亿点\d.]+)")
_EN_NUMBER = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {w: str(10 * i) for i, w in enumerate(
    "_ _ _ thirty forty fifty sixty seventy eighty ninety".split()) if i >= 3}
_EN_NUMBER_RE = re.compile(r"\b(" + "|".join(w for w in _EN_NUMBER if w not in ("zero", "one")) + r")\b", re.I)


def cn_value(numeral: str) -> list[str]:
    """Digit forms of a Chinese numeral (cn2an): "十二" → ["12"], "五万" → ["50000", "5"] (the way "5万" is written).

    Remembered: cn2an parses slowly (~0.1 ms a numeral; ~3 ms of CPU per knowledge turn) and a
    check meets the same numerals in every passage it reads."""
    return list(_cn_value_cached(numeral))


@lru_cache(maxsize=4096)
def _cn_value_cached(numeral: str) -> tuple[str, ...]:
    import warnings

    import cn2an

    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for part in (numeral, numeral[:-1] if numeral[-1] in "万亿" and len(numeral) > 1 else ""):
            if not part:
                continue
            try:
                v = cn2an.cn2an(part, "smart")
            except (ValueError, KeyError, IndexError):
                continue
            out.append(f"{v:g}" if isinstance(v, float) else str(v))
    return tuple(out)


def _digits(n: str) -> str:
    d = re.sub(r"[^\d.]", "", n)
    return d[:-2] if d.endswith(".0") else d


def written_numbers(text: str) -> list[tuple[str, list[str]]]:
    """Numbers written in Chinese numerals or English words, each with its digit forms."""
    out = [(m.group(0), cn_value(m.group("n"))) for m in CN_NUMERAL.finditer(text)
           if (m.group("u") or len(m.group("n")) >= 2 and re.search("[十百千万亿]", m.group("n")))
           and m.group("n") not in ("一", "零", "〇") and not text.startswith("零件", m.start())]
    out += [(m.group(0), cn_value(m.group("n")) if not re.search(r"\d", m.group("n")) else [_digits(m.group("n"))])
            for m in _CN_PERCENT.finditer(text)]
    out += [(m.group(0), [_EN_NUMBER[m.group(1).lower()]]) for m in _EN_NUMBER_RE.finditer(text)]
    return [(w, v) for w, v in out if v]


def number_values(text: str) -> set[str]:
    """Every number of ``text`` as digits, whether written in digits, Chinese numerals or English words."""
    t = fold(unicodedata.normalize("NFKC", text)).replace(",", "")
    vals = {_digits(n) for n in iter_numbers(t)}
    for _, forms in written_numbers(t):
        vals.update(forms)
    return vals - {""}


def missing_numbers(claim: str, evidence: str) -> list[str]:
    """Numbers of the claim that the evidence does not contain (unit-aware, values compared: "十二天"
    matches "12天", "百分之二十" matches "20%")."""
    ev = fold(unicodedata.normalize("NFKC", evidence)).replace(",", "")
    ev_vals = number_values(ev)
    out = []
    for n in iter_numbers(claim):
        digits = _digits(n)
        if digits and digits not in ev_vals and n not in ev:
            out.append(n)
    for written, forms in written_numbers(fold(unicodedata.normalize("NFKC", claim))):
        if written not in ev and not set(forms) & ev_vals:
            out.append(written)
    return out




_VALUE = re.compile(r"[±+\-]?\d[\d,]*(?:\.\d+)?\s*(?:[万萬亿億千百]?(?:%|mm|cm|km|kg|m|g|美元|元|天|小时|小時|分钟|分鐘|年|月|日|"
                    r"个|個|人|次|号|號|℃|°C|倍|岁|歲|米|公里|公斤|吨|噸|平方公里|万|萬|亿|億))?")


def values_in(text: str) -> list[str]:
    """Numbers as written, with their unit ("5万元", "±0.05mm", "十二天")."""
    t = unicodedata.normalize("NFKC", text)
    return list(dict.fromkeys([*(m.group(0).replace(" ", "") for m in _VALUE.finditer(t)),
                               *(w for w, _ in written_numbers(t))]))


def unit_of(value: str) -> str:
    return re.sub(r"^[±+\-]?[\d,.]+|^[零〇一二两三四五六七八九十百千万亿]+", "", value)


def without_values(text: str) -> str:
    t = unicodedata.normalize("NFKC", text)
    for v in sorted(values_in(t), key=len, reverse=True):
        t = t.replace(v, " ")
    return t



def value_forms(written: str) -> list[str]:
    forms = [_digits(n) for n in iter_numbers(written)]
    for _, f in written_numbers(written):
        forms += f
    return [f for f in forms if f]
