"""Checks of a claim against its quote and evidence (pure; none calls a model).

- ``quote``: the cited quote really is the source text at the cited offsets (:func:`quote_matches`);
- ``numbers``: every number (with unit) in a claim occurs in its evidence (``checks/numbers.py``);
- ``terms``: the claim's content words occur in the evidence (a generated claim may not add facts);
- ``negation``: a claim that negates what its evidence states (or the reverse);
- ``similarity``: a generated claim means what its quote says (the bundled embedding model's cosine);
- ``compression``/``slots``/``numbers_in_quote``: a model's rewording is a shortening of its quote that
  keeps every value in its place (:func:`check_reworded`);
- :func:`coverage`: IDF-weighted share of the question's key terms the cited evidence covers.

Yes/no premises are in ``checks/premise.py``, conflicts between documents in ``checks/conflicts.py``, free
text in ``checks/freetext.py``, answerability in ``checks/answerable.py``. What the findings make of the
verdict is decided in ``answer/policy.py`` alone.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from knowzero.knowledge.answer.checks.numbers import CN_NUMERAL, cn_value, missing_numbers
from knowzero.knowledge.answer.checks.premise import opposite_clauses
from knowzero.knowledge.answer.policy import QUOTED_CLAIM_CONTRADICTS, REWORDED_CONTRADICTS, ClaimVerdict, claim_verdict
from knowzero.knowledge.text import STOPWORDS, char_ngrams, fold, iter_numbers, tokens
from knowzero.vocabulary.questions import days_named


def quote_matches(source_text: str, quote: str, start: int, end: int) -> bool:
    return 0 <= start < end <= len(source_text) and source_text[start:end] == quote


# Chinese numerals count as numbers when a unit or measure word follows ("十二天", "三月", "五万元"),
# so "一致", "统一" or "十分重要" are not numbers; ordinals ("第一") are left out (第一次 = 首次).
_NUMBER_WORD = re.compile(r"\d[\d,.]*(?:\s*)([\u4e00-\u9fff])")
_QUOTE_CLAUSE = re.compile(r"[，,；;。！？!?：:、\n]")
_ATOM = re.compile(r"\d+(?:\.\d+)?|[a-z]+|[\u3400-\u9fff]")
_LINKING = frozenset("的了是为在于和与及有着之也")
_LEAD_IN = re.compile(r"^(?:根据|按照|依据)?(?:资料|文档|文件|规定|制度|原文)(?:显示|写道|规定|所述|中写道|中说)?$")


def _atoms(text: str) -> list[str]:
    t = fold(unicodedata.normalize("NFKC", text)).lower().replace(",", "")
    return [a for a in _ATOM.findall(t) if a not in _LINKING]


def _subsequence(small: list[str], big: list[str]) -> bool:
    it = iter(big)
    return all(any(a == b for b in it) for a in small)


def compresses(claim: str, quote: str) -> bool:
    """A reworded claim says nothing its quote does not (pure): each clause of the claim, read as numbers
    (whole), Latin words and Chinese characters, is one clause of the quote with parts left out — same
    order, nothing added but linking characters (的, 是, 为 …) or a lead-in ("根据资料"). Clauses may be
    reordered. What the checks can confirm without understanding meaning: "上海办事处主任是黄志明" is not a
    shortening of "上海办事处主任周雅婷", "婚假1天" not of "婚假13天", "per month" not of "per week".

    >>> compresses("零件A的外圆公差为±0.01mm", "零件A的外圆公差为±0.01mm，表面粗糙度Ra0.8。")
    True
    >>> compresses("表面粗糙度Ra0.8，零件A的外圆公差为±0.01mm。", "零件A的外圆公差为±0.01mm，表面粗糙度Ra0.8。")
    True
    >>> q = "三个办事处的负责人分别为：上海办事处主任周雅婷、深圳办事处主任黄志明。"
    >>> compresses("上海办事处主任是周雅婷。", q), compresses("上海办事处主任是黄志明。", q), compresses("根据资料，上海办事处主任是周雅婷。", q)
    (True, False, True)
    >>> compresses("可享受婚假1天", "可享受婚假13天（含法定婚假3天）"), compresses("up to 2 days per month", "up to 2 days per week")
    (False, False)
    >>> compresses("女员工，安排加班和夜班", "孕期女员工，不得安排加班和夜班。"), compresses("申请3天的年假", "申请3天以内的年假，需提前3天")
    (False, False)
    """
    clauses = [(_atoms(c), _bounds(c)) for c in _QUOTE_CLAUSE.split(quote)]
    clauses = [c for c in clauses if c[0]]
    for part in _QUOTE_CLAUSE.split(claim):
        atoms = _atoms(part)
        if not atoms or _LEAD_IN.match("".join(atoms)):
            continue
        # parts may be left out, but not a word that negates or bounds the clause ("不得", "以内", "至少")
        if not any(_subsequence(atoms, c) and bounds <= _bounds(part) for c, bounds in clauses):
            return False
    return True


_LIMITS = re.compile(r"不|没|無|无|非|未|勿|禁|否|莫|别|以内|以上|以下|以前|以后|之前|之后|超过|不足|至少|最多|最少|"
                     r"仅|只|约|左右|\bnot\b|\bno\b|\bnever\b|\bonly\b|\bat (?:least|most)\b|\bup to\b")


def _bounds(text: str) -> set[str]:
    """The words of ``text`` that negate or bound what it says (a shortening must keep them)."""
    return set(_LIMITS.findall(fold(unicodedata.normalize("NFKC", text)).lower()))


def numbers_off_quote(claim: str, quote: str, question: str = "") -> list[str]:
    """A reworded claim's numbers that its own quote does not give (pure): values missing from the quote
    (the question's own numbers may be restated), and numbers bound to another word than in the quote
    ("试用期为3公司" from "试用期为3个月"). The quote's neighbourhood does not count: a number from the next
    sentence ("80%") is not what the cited words say.

    >>> numbers_off_quote("合同期限一般为80年", "劳动合同期限一般为3年，试用期为3个月")
    ['80年']
    >>> numbers_off_quote("试用期为3公司", "劳动合同期限一般为3年，试用期为3个月")
    ['3公']
    >>> numbers_off_quote("试用期有3个月", "劳动合同期限一般为3年，试用期为3个月"), numbers_off_quote("2017年他任市长", "任市长", "2017年他任什么？")
    ([], [])
    >>> numbers_off_quote("试用期为3个月", "试用期为三个月")
    []
    """
    hay = f"{quote} {question}"
    out = missing_numbers(claim, hay)
    plain = _PUNCT_SPACE.sub("", fold(unicodedata.normalize("NFKC", hay)).replace(",", ""))
    # numbers the quote writes in Chinese numerals, as digits with the word after them ("三个月" → "3个")
    written = {f"{form}{plain[m.end('n')]}" for m in CN_NUMERAL.finditer(plain) if m.end("n") < len(plain)
               for form in cn_value(m.group("n"))}
    text = fold(unicodedata.normalize("NFKC", claim)).replace(",", "")
    for m in _NUMBER_WORD.finditer(text):
        bound = _PUNCT_SPACE.sub("", m.group(0))
        if bound not in plain and bound not in written and bound not in out:
            out.append(bound)
    return out


_PUNCT_SPACE = re.compile(r"\s+")
_SLOT_NOISE = re.compile(r"[\W_的了是为在于和与及有]+")
"""What a paraphrase may add or drop around a value without moving it: punctuation and linking characters."""
SLOT_CONTEXT_MIN = 3
"""Characters of the claim's own context that must point at another slot of the quote (see :func:`swapped_values`):
the shortest that names a slot ("公差", "主任" are two; "年假", "董事长" with what precedes them are more)."""


def _slot_norm(text: str) -> str:
    return _SLOT_NOISE.sub("", fold(unicodedata.normalize("NFKC", text)).lower())


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


_NAME_TAGS = frozenset({"nr", "ns", "nt", "nz", "nrt", "nrfg"})


def _tag_kind(word: str, tag: str) -> str | None:
    """``"number"`` (has a digit), ``"name"`` (a person, place, organisation or other proper name by jieba's
    tagger) or None."""
    if any(c.isdigit() for c in word):
        return "number"
    return "name" if tag in _NAME_TAGS and len(word) >= 2 else None


def swapped_values(claim: str, quote: str, question: str = "") -> list[str]:
    """Numbers and names a reworded claim put in another slot than its quote gives them (pure): for each
    number or name of the claim that the quote holds (and the question does not), what precedes it in its
    clause of the claim (with the clause before, when that is under :data:`SLOT_CONTEXT_MIN` characters) is
    looked for in the quote: when the quote holds all of it followed by another value of the same kind, and
    not followed by this one, the claim moved the value. Punctuation and linking characters (的, 是, 为 …)
    are ignored; a value right after a name (its subject: "潘嘉丽是新加坡人") is not compared.

    >>> q = "三个办事处的负责人分别为：上海办事处主任周雅婷、深圳办事处主任黄志明。"
    >>> swapped_values("上海办事处主任是黄志明。", q), swapped_values("上海办事处主任是周雅婷。", q)
    (['黄志明'], [])
    >>> swapped_values("切削液浓度应控制在8%至5%之间", "切削液浓度应控制在5%至8%之间")
    ['8%']
    >>> swapped_values("周雅婷担任上海办事处主任", q), swapped_values("接替王光宇担任局长，2001年8月，总计在位8年", "2001年8月，接替王光宇担任局长，总计在位8年。")
    ([], [])
    """
    from knowzero.knowledge.text import pos_tags

    nq = _slot_norm(quote)
    asked = _slot_norm(question)
    kinds_at: dict[int, str] = {}  # where a number or a name starts in the (normalised) quote
    pos = 0
    for word, tag in pos_tags(nq):
        if (kind := _tag_kind(word, tag)) is not None:
            kinds_at[pos] = kind
        pos += len(word)
    folded = fold(unicodedata.normalize("NFKC", claim))
    values = [(w, k) for w, t in pos_tags(claim) if (k := _tag_kind(w, t)) == "name"]
    values += [(n, "number") for n in iter_numbers(folded)]
    out: list[str] = []
    for w, kind in dict.fromkeys(values):
        nw = _slot_norm(w)
        if not nw or nw not in nq or (asked and nw in asked) or w in out:
            continue
        at = folded.lower().find(w.lower())
        if at <= 0:
            continue
        parts = _QUOTE_CLAUSE.split(folded[:at])
        before = _slot_norm(parts[-1])
        if before and len(before) < SLOT_CONTEXT_MIN and len(parts) > 1:  # "…不满20年的，年假15天": spans a comma
            before = _slot_norm(parts[-2]) + before
        tags = pos_tags(before) if len(before) >= SLOT_CONTEXT_MIN else []
        if not tags or _tag_kind(*tags[-1]) is not None:
            continue  # too little said before it, or its subject right before it: no slot to compare
        own = max(_common_suffix(before, nq[:j]) for j in range(len(nq)) if nq.startswith(nw, j))
        if own < len(before) and any(_common_suffix(before, nq[:i]) == len(before) for i, k in kinds_at.items()
                                     if k == kind and not nq.startswith(nw, i)):
            out.append(w)
    return out


def check_reworded(cv: ClaimVerdict, claim: str, quote: str, question: str = "") -> ClaimVerdict:
    """A model-written claim's verdict ``cv`` (checked against the text around its quote) held against the
    quote itself (pure): confirmed only when it is a shortening of the quote (:func:`compresses`; otherwise
    ``uncertain``: the checks cannot read meaning), contradicted when it moves a number or name of the quote
    to another slot (:func:`swapped_values`) or gives numbers the cited words do not (:func:`numbers_off_quote`)."""
    checks, reasons = dict(cv.checks), list(cv.reasons)
    if cv.level == "confirmed" and not compresses(claim, quote):
        checks["compression"] = False
        reasons.append("the model's wording is not a shortening of its quote: the quote is shown")
    if moved := swapped_values(claim, quote, question):  # "上海办事处主任是黄志明" citing "…主任周雅婷、…主任黄志明"
        checks["slots"] = False
        reasons.append("words in another place than the quote gives them: " + ", ".join(moved[:3]))
    if off := numbers_off_quote(claim, quote, question):  # "一般为80年" citing "一般为3年"; 80 from the next "80%"
        checks["numbers_in_quote"] = False
        reasons.append("numbers not in the cited words: " + ", ".join(off[:3]))
    return claim_verdict(checks, reasons, REWORDED_CONTRADICTS, floor=cv.level)


def _word_forms(w: str) -> set[str]:
    forms = {w}
    for suf in ("'s", "s", "es", "ed", "ing", "ly"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            forms.add(w[: -len(suf)])
    return forms


def unsupported_terms(claim: str, evidence: str, question: str = "") -> list[str]:
    """Content words of the claim found neither in the evidence nor in the question."""
    hay = fold(unicodedata.normalize("NFKC", f"{evidence} {question}")).lower()
    hay_tokens = set(tokens(hay, search=True))
    hay_stems = {f for t in hay_tokens for f in _word_forms(t)}
    out = []
    for t in tokens(claim, search=False):
        if t in STOPWORDS or len(t) < 2 and not t.isdigit():
            continue
        if t in hay or t in hay_tokens or _word_forms(t) & hay_stems:
            continue
        out.append(t)
    return out


def negation_flip(claim: str, evidence_sentence: str) -> bool:
    """A clause of the claim says what a clause of the evidence says, with the opposite polarity
    (:func:`premise.opposite_clauses`; a claim too short to compare is never a flip)."""
    return len(char_ngrams(claim)) >= 6 and opposite_clauses(claim, evidence_sentence)


def coverage(terms: Iterable[tuple[str, float]], text: str) -> float:
    terms = list(terms)
    total = sum(w for _, w in terms)
    if not total:
        return 0.0
    low = fold(unicodedata.normalize("NFKC", text)).lower()
    return sum(w for t, w in terms if t in low or days_named(t, low)) / total  # 周末: "周六、周日" covers it


SIMILARITY_MIN = 0.86  # e5 cosine claim vs quote: paraphrases ~0.93-0.95 here, an unrelated pair 0.82 (e5 scores are compressed)


def check_claim(claim: str, evidence: str, *, question: str = "", verbatim: bool = False,
                similarity: float | None = None) -> ClaimVerdict:
    """Checks one claim against its evidence (the cited span plus its context).

    ``similarity`` is the embedding cosine between a generated claim and its quote, when the
    caller computed one (extractive claims are the quote itself and need none).
    """
    checks: dict[str, bool] = {}
    reasons: list[str] = []
    if similarity is not None:
        checks["similarity"] = similarity >= SIMILARITY_MIN
        if not checks["similarity"]:
            reasons.append(f"the claim says something else than its quote (similarity {similarity:.2f})")
    nums = missing_numbers(claim, evidence)
    checks["numbers"] = not nums
    if nums:
        reasons.append("numbers not in the source: " + ", ".join(nums[:3]))
    if not verbatim:
        extra = unsupported_terms(claim, evidence, question)
        checks["terms"] = not extra
        if extra:
            reasons.append("words not supported by the source: " + ", ".join(extra[:4]))
        flip = any(negation_flip(claim, s) for s in re.split(r"(?<=[。！？.!?])\s*", evidence) if s)
        checks["negation"] = not flip
        if flip:
            reasons.append("the claim negates its source")
    return claim_verdict(checks, reasons, QUOTED_CLAIM_CONTRADICTS)
