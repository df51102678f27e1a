"""Fact checking as pure functions: per-claim checks and an answer-level verdict.

Checks (each returns evidence, none calls a model):
- ``quote``: the cited quote really is the source text at the cited offsets;
- ``numbers``: every number (with unit) in a claim occurs in its evidence;
- ``terms``: the claim's content words occur in the evidence (a generated claim may not add facts);
- ``entities``: the parts/products the question names are the ones the evidence is about;
- ``negation``: a claim that negates what its evidence states (or the reverse);
- ``coverage``: IDF-weighted share of the question's key terms the cited evidence covers;
- ``similarity``: when coverage falls a little short (a paraphrased question), the bundled
  embedding model's cosine between the question and the cited passage can still carry the answer,
  as ``uncertain``;
- ``comparison``: for "which came first / is older / larger" questions, the named winner agrees
  with the dates or numbers in the evidence;
- ``polarity`` (:func:`premise`): a yes/no question is answered by what the evidence says — another value
  ("10万元" asked, "5万元" written) or a negated clause is a no, a "是的/可以" answer needs a source
  sentence affirming the question's predicate;
- ``grounded``/``terms`` for Chinese free-text answers (:func:`check_zh_answer`): the answer's new
  information (beyond the question's words) sits in the source sentence most about the answer; numbers
  in Chinese numerals count as numbers;
- :func:`value_conflict`: two documents giving different values (numbers, dates, names, places, yes/no)
  for the same statement.
Levels: ``confirmed`` (all checks pass, coverage high), ``uncertain`` (partial coverage or a
conflict between sources), ``insufficient`` (no claim survives or coverage too low),
``contradicted`` (a claim disagrees with its evidence). uncertain/contradicted need a human.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from knowzero.knowledge.text import STOPWORDS, char_ngrams, fold, iter_numbers, split_sentences, tokens

Level = str  # "confirmed" | "uncertain" | "insufficient" | "contradicted"
LEVELS = ("confirmed", "uncertain", "insufficient", "contradicted")

# Fitted on dev data (CMRC 2018 trial, 20% unanswerable): coverage of the question's key terms by
# the best passage ≥ 0.55 answers 91% of answerable questions and 7% of unanswerable ones.
MIN_COVERAGE = 0.55
CONFIRM_SENTENCE_COVERAGE = 0.45
# Same data: coverage 0.45-0.55 with an e5 cosine (question vs cited passage) ≥ 0.87 is a paraphrase
# more often than a near miss (answers 2.5% more of the answerable, 0.5% more of the unanswerable).
RESCUE_COVERAGE = 0.45
RESCUE_SIMILARITY = 0.87


@dataclass
class ClaimVerdict:
    level: Level
    checks: dict[str, bool]
    reasons: list[str] = field(default_factory=list)


@dataclass
class Verdict:
    level: Level
    reason: str
    claims: list[ClaimVerdict]
    coverage: float
    needs_human_review: bool
    warnings: tuple[str, ...] = ()
    """Problems the reader must see beside the answer (e.g. a cited source that gives the assistant orders)."""
    answerability: float | None = None
    """How well the evidence answers the question (``knowledge.answer.answerable.score``), when measured."""
    features: dict[str, float] | None = None
    """What that score was computed from (``answerable.Features``), for the agent log and benchmarks."""

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "reason": self.reason, "coverage": round(self.coverage, 3),
                "needs_human_review": self.needs_human_review, "warnings": list(self.warnings),
                "claims": [{"level": c.level, "checks": c.checks, "reasons": c.reasons} for c in self.claims]}


_NEG = re.compile(r"不|没有|未|无|非|禁止|不得|不能|不可|\bnot\b|\bno\b|\bnever\b|n't|\bwithout\b")


def quote_matches(source_text: str, quote: str, start: int, end: int) -> bool:
    return 0 <= start < end <= len(source_text) and source_text[start:end] == quote


# Chinese numerals count as numbers when a unit or measure word follows ("十二天", "三月", "五万元"),
# so "一致", "统一" or "十分重要" are not numbers; ordinals ("第一") are left out (第一次 = 首次).
_CN_NUMERAL = re.compile(r"(?<!第)(?P<n>[零〇一二两三四五六七八九十百千万亿]+)(?P<u>个|位|名|种|次|项|条|家|座|部|本|年|月|日|号|天|人|岁|倍|"
                         r"秒|米|元|首|张|册|所|辆|件|度|届|场|处|只|架|艘|层|周|世纪|小时|分钟|公里|公斤|平方|吨|克|斤|%)?")
_CN_PERCENT = re.compile(r"百分之(?P<n>[零〇一二两三四五六七八九十百千万亿点\d.]+)")
_EN_NUMBER = {w: str(i) for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
    "seventeen eighteen nineteen twenty".split())} | {w: str(10 * i) for i, w in enumerate(
    "_ _ _ thirty forty fifty sixty seventy eighty ninety".split()) if i >= 3}
_EN_NUMBER_RE = re.compile(r"\b(" + "|".join(w for w in _EN_NUMBER if w not in ("zero", "one")) + r")\b", re.I)


def _cn_value(numeral: str) -> list[str]:
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


def _written_numbers(text: str) -> list[tuple[str, list[str]]]:
    """Numbers written in Chinese numerals or English words, each with its digit forms."""
    out = [(m.group(0), _cn_value(m.group("n"))) for m in _CN_NUMERAL.finditer(text)
           if (m.group("u") or len(m.group("n")) >= 2 and re.search("[十百千万亿]", m.group("n")))
           and m.group("n") not in ("一", "零", "〇") and not text.startswith("零件", m.start())]
    out += [(m.group(0), _cn_value(m.group("n")) if not re.search(r"\d", m.group("n")) else [_digits(m.group("n"))])
            for m in _CN_PERCENT.finditer(text)]
    out += [(m.group(0), [_EN_NUMBER[m.group(1).lower()]]) for m in _EN_NUMBER_RE.finditer(text)]
    return [(w, v) for w, v in out if v]


def number_values(text: str) -> set[str]:
    """Every number of ``text`` as digits, whether written in digits, Chinese numerals or English words."""
    t = fold(unicodedata.normalize("NFKC", text)).replace(",", "")
    vals = {_digits(n) for n in iter_numbers(t)}
    for _, forms in _written_numbers(t):
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
    for written, forms in _written_numbers(fold(unicodedata.normalize("NFKC", claim))):
        if written not in ev and not set(forms) & ev_vals:
            out.append(written)
    return out


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
    written = {f"{form}{plain[m.end('n')]}" for m in _CN_NUMERAL.finditer(plain) if m.end("n") < len(plain)
               for form in _cn_value(m.group("n"))}
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
    checks, reasons, level = dict(cv.checks), list(cv.reasons), cv.level
    if level == "confirmed" and not compresses(claim, quote):
        checks["compression"] = False
        reasons.append("the model's wording is not a shortening of its quote: the quote is shown")
        level = "uncertain"
    if moved := swapped_values(claim, quote, question):  # "上海办事处主任是黄志明" citing "…主任周雅婷、…主任黄志明"
        checks["slots"] = False
        reasons.append("words in another place than the quote gives them: " + ", ".join(moved[:3]))
        level = "contradicted"
    if off := numbers_off_quote(claim, quote, question):  # "一般为80年" citing "一般为3年"; 80 from the next "80%"
        checks["numbers_in_quote"] = False
        reasons.append("numbers not in the cited words: " + ", ".join(off[:3]))
        level = "contradicted"
    return ClaimVerdict(level, checks, reasons)


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
    """True when exactly one of claim/evidence is negated while they otherwise overlap strongly."""
    if len(char_ngrams(claim)) < 6:
        return False
    a, b = bool(_NEG.search(claim.lower())), bool(_NEG.search(evidence_sentence.lower()))
    if a == b:
        return False
    ga, gb = char_ngrams(claim), char_ngrams(evidence_sentence)
    return len(ga & gb) / (min(len(ga), len(gb)) or 1) > 0.6


def coverage(terms: Iterable[tuple[str, float]], text: str) -> float:
    terms = list(terms)
    total = sum(w for _, w in terms)
    if not total:
        return 0.0
    low = fold(unicodedata.normalize("NFKC", text)).lower()
    return sum(w for t, w in terms if t in low) / total


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
    if not all(checks.values()):
        level = "contradicted" if (nums or checks.get("negation") is False) else "uncertain"
    else:
        level = "confirmed"
    return ClaimVerdict(level, checks, reasons)


LOW_COVERAGE = "the sources cover only"
"""How the verdict's reason starts when the evidence covers too little of the question."""


def rescued(coverage_value: float, similarity: float | None) -> bool:
    """Coverage a little short, but the cited passage means what the question asks (see module doc)."""
    return (similarity is not None and RESCUE_COVERAGE <= coverage_value < MIN_COVERAGE
            and similarity >= RESCUE_SIMILARITY)


def judge(claims: list[ClaimVerdict], *, coverage_value: float, entity_ok: bool, conflicts: int,
          quotes_ok: bool = True, sentence_coverage: float = 1.0, similarity: float | None = None) -> Verdict:
    """Answer-level verdict from claim verdicts and evidence coverage (see module doc).

    ``similarity`` is the embedding cosine between the question and the cited passage, when known.
    """
    if not claims or not quotes_ok:
        return Verdict("insufficient", "no claim is supported by a source", claims, coverage_value, False)
    if not entity_ok:
        return Verdict("insufficient", "the sources are about a different item than the question", claims,
                       coverage_value, False)
    if coverage_value < MIN_COVERAGE and not rescued(coverage_value, similarity):
        return Verdict("insufficient", f"{LOW_COVERAGE} {coverage_value:.0%} of the question", claims,
                       coverage_value, False)
    if any(c.level == "contradicted" for c in claims):
        bad = next(c for c in claims if c.level == "contradicted")
        return Verdict("contradicted", "; ".join(bad.reasons) or "a claim disagrees with its source", claims,
                       coverage_value, True)
    if conflicts:
        return Verdict("uncertain", "sources disagree; both are listed", claims, coverage_value, True)
    if any(c.level == "uncertain" for c in claims):
        bad = next(c for c in claims if c.level == "uncertain")
        return Verdict("uncertain", "; ".join(bad.reasons), claims, coverage_value, True)
    if coverage_value < MIN_COVERAGE:
        return Verdict("uncertain", f"the sources cover {coverage_value:.0%} of the question's words but read as a "
                       f"paraphrase of it (similarity {similarity:.2f})", claims, coverage_value, True)
    if sentence_coverage < CONFIRM_SENTENCE_COVERAGE:
        return Verdict("uncertain", f"the cited sentences cover only {sentence_coverage:.0%} of the question",
                       claims, coverage_value, True)
    return Verdict("confirmed", f"every claim is quoted from its source; {coverage_value:.0%} of the question covered",
                   claims, coverage_value, False)


# ----- yes/no questions: the answer follows the polarity of the evidence -----
_ZH_YESNO = re.compile(r"(?:吗|嗎|(?<![什怎这那多甚])么|(?<![什怎這那多甚])麼)\s*[？?]?\s*$|是否|是不是|能否|可否|有没有|有沒有|能不能|可不可以|会不会|會不會|要不要|"
                       r"需不需要|对不对|對不對|是吧\s*[？?]?$")
_WH = re.compile(r"什么|什麼|谁|誰|哪|几|幾|多少|怎么|怎麼|怎样|怎樣|为什么|為什麼|为何|如何|何时|何時|何地")
_NOT_WH = re.compile(r"几何|幾何|几乎|幾乎|哪怕|什么都|什麼都")
_EN_YESNO = re.compile(r"^(are|is|was|were|do|does|did|can|could|has|have|had|will|would|should|may)\b", re.I)
# Chinese negation in a clause; words that only look negated are masked first.
_ZH_NEG = re.compile(r"不|没|沒|未|无|無|非|否|禁止|严禁|嚴禁|勿|毋")
_NOT_NEG = re.compile(r"不锈钢|不鏽鋼|不断|不斷|不久|不仅|不僅|不少|不过|不過|不但|不论|不論|不管|不同|无论|無論|未来|未來|非常|"
                      r"除非|是否|能否|可否|与否|與否|有没有|有沒有|能不能|可不可以|会不会|會不會|要不要|需不需要|对不对|對不對|是不是|"
                      r"无线|無線|无人|無人|无机|無機|非洲|未婚|否则|否則")
# Turning a yes/no question into its statement: the question form's own words out.
_YESNO_FORMS = [("是不是", "是"), ("是否", ""), ("能否", "能"), ("可否", "可以"), ("有没有", "有"), ("有沒有", "有"),
                ("能不能", "能"), ("可不可以", "可以"), ("会不会", "会"), ("會不會", "會"), ("要不要", "要"),
                ("需不需要", "需要"), ("对不对", ""), ("對不對", "")]
_YES_REPLY = re.compile(r"^(?:是的|是|对的|对|對|没错|沒錯|正确|正確|可以|能|会|會|有|需要|确实|確實|yes|yeah|correct)(?:[，,。.!！；;\s]|$)", re.I)
_NO_REPLY = re.compile(r"^(?:不是|不对|不對|不可以|不能|不会|不會|没有|沒有|不需要|无需|無需|否|错|錯|no|not)(?:[，,。.!！；;\s]|$)", re.I)
PREMISE_MIN_OVERLAP = 0.5
"""Share of the question's words (character bigrams, values left out) a source sentence must hold for its
polarity to answer the question; chosen on CMRC 2018 trial's yes/no set (see benchmarks/README.md)."""


def is_yes_no(question: str) -> bool:
    """A question answered by yes or no ("…是10万元吗？", "是否…", "Is Blur an English band?")."""
    q = question.strip()
    if _EN_YESNO.search(q):
        return True
    if not _ZH_YESNO.search(q):
        return False
    return not _WH.search(_NOT_WH.sub("", _ZH_YESNO.sub("", q)))


def reply_polarity(answer: str) -> str | None:
    """``yes`` / ``no`` when the answer opens with one ("是的。", "不是，…", "No, …"), else None."""
    a = answer.strip()
    if _NO_REPLY.search(a):
        return "no"
    if _YES_REPLY.search(a):
        return "yes"
    return None


def negated(text: str) -> bool:
    """The clause says no (不/没/未/无/非/禁止 …), words that only contain such a character aside."""
    return bool(_ZH_NEG.search(_NOT_NEG.sub("", text))) or bool(_NEG.search(text.lower()) and re.search(r"[a-z]", text.lower()))


def yes_no_statement(question: str) -> str:
    """The statement a yes/no question asks about: "零件B的公差是±0.01mm吗？" → "零件B的公差是±0.01mm"."""
    q = question.strip().rstrip("？?。.!！ ")
    q = re.sub(r"(?:吗|嗎|么|麼|呢|吧)$", "", q)
    for form, plain in _YESNO_FORMS:
        q = q.replace(form, plain)
    return q


@dataclass(frozen=True)
class Premise:
    """What the sources say to a yes/no question (see :func:`premise`)."""

    answer: str
    """``yes`` (a source sentence affirms the question's statement), ``no`` (it gives another value or
    the opposite polarity) or ``unknown`` (no source sentence is about it)."""
    sentence: str = ""
    """The source sentence judged (quoted as written)."""
    asked: tuple[str, ...] = ()
    """Values the question states that the sentence does not have ("10万元")."""
    found: tuple[str, ...] = ()
    """The sentence's own values in their place ("5万元")."""
    reason: str = ""


_VALUE = re.compile(r"[±+\-]?\d[\d,]*(?:\.\d+)?\s*(?:[万萬亿億千百]?(?:%|mm|cm|km|kg|m|g|美元|元|天|小时|小時|分钟|分鐘|年|月|日|"
                    r"个|個|人|次|号|號|℃|°C|倍|岁|歲|米|公里|公斤|吨|噸|平方公里|万|萬|亿|億))?")


def _values(text: str) -> list[str]:
    """Numbers as written, with their unit ("5万元", "±0.05mm", "十二天")."""
    t = unicodedata.normalize("NFKC", text)
    return list(dict.fromkeys([*(m.group(0).replace(" ", "") for m in _VALUE.finditer(t)),
                               *(w for w, _ in _written_numbers(t))]))


def _unit(value: str) -> str:
    return re.sub(r"^[±+\-]?[\d,.]+|^[零〇一二两三四五六七八九十百千万亿]+", "", value)


def _without_values(text: str) -> str:
    t = unicodedata.normalize("NFKC", text)
    for v in sorted(_values(t), key=len, reverse=True):
        t = t.replace(v, " ")
    return t


def _clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r"[，,；;：:]", sentence) if c.strip()]


def premise(question: str, evidence: str | list[str]) -> Premise:
    """Whether the evidence affirms or denies a yes/no question's statement (pure).

    The source sentence sharing most of the question's words (values left out) is the one judged:
    ``no`` when the question states a value the sentence does not have while it has another
    (the question says 10万元, the source 5万元), or when the clause that matches the question is
    negated and the question is not (or the reverse: "零件B无需热处理" to "零件B需要热处理吗？");
    ``yes`` when it holds the question's statement; ``unknown`` when no sentence is about it.
    """
    stmt = yes_no_statement(question)
    q_grams = char_ngrams(_without_values(stmt))
    if not q_grams:
        return Premise("unknown", reason="the question has no words to look for")
    texts = [evidence] if isinstance(evidence, str) else list(evidence)
    sents = [s.text for t in texts for s in split_sentences(t)]
    scored = sorted(((len(q_grams & char_ngrams(_without_values(s))) / len(q_grams), i, s) for i, s in enumerate(sents)),
                    key=lambda x: (-x[0], x[1]))
    if not scored or scored[0][0] < PREMISE_MIN_OVERLAP:
        return Premise("unknown", reason="no source sentence is about the question's statement")
    top = scored[0][0]
    q_vals = _values(stmt)
    if q_vals:
        # a sentence about the same thing that carries values is the one to compare values with
        near = [x for x in scored if x[0] >= 0.8 * top]
        with_vals = [x for x in near if _values(x[2])]
        _, _, sent = (with_vals or near)[0]
        s_vals = number_values(sent)
        missing = [v for v in q_vals if not set(_value_forms(v)) & s_vals]
        if not missing:
            return _polarity(stmt, sent)
        found = _values(sent)
        units = {_unit(v) for v in missing}
        found = [v for v in found if _unit(v) in units] or found
        if found:
            return Premise("no", sent, tuple(missing), tuple(found),
                           f"the question says {', '.join(missing)}, the source says {', '.join(found)}")
        return Premise("unknown", sent, tuple(missing), (), "the source does not give the question's value")
    return _polarity(stmt, scored[0][2])


def _value_forms(written: str) -> list[str]:
    forms = [_digits(n) for n in iter_numbers(written)]
    for _, f in _written_numbers(written):
        forms += f
    return [f for f in forms if f]


def _polarity(stmt: str, sent: str) -> Premise:
    q_grams = char_ngrams(stmt)
    clause = max(_clauses(sent) or [sent], key=lambda c: len(q_grams & char_ngrams(c)))
    if negated(clause) != negated(stmt):
        return Premise("no", sent, reason="the source says the opposite" if not negated(stmt) else
                       "the source does not say the question's negation")
    return Premise("yes", sent, reason="a source sentence states it")


def check_yes_no(question: str, answer: str, evidence: str) -> ClaimVerdict:
    """A "是的/可以" (or "不是/不能") answer to a yes/no question, judged by what the evidence says.

    ``confirmed`` only when the evidence's polarity is the answer's; ``contradicted`` when it is the
    opposite; ``uncertain`` when no source sentence is about the question.
    """
    said = reply_polarity(answer)
    p = premise(question, evidence)
    checks = {"polarity": said is not None and p.answer == said}
    if checks["polarity"]:
        return ClaimVerdict("confirmed", checks, [p.reason])
    if p.answer == "unknown" or said is None:
        return ClaimVerdict("uncertain", checks, [p.reason or "the answer is neither yes nor no"])
    return ClaimVerdict("contradicted", checks, [f"the sources answer {p.answer}: {p.reason}"])


# ----- conflicting sources -----
CONFLICT_SIMILAR = 0.6
"""Two sentences from different documents say "the same thing" when this share of the shorter one's
character bigrams (values left out), or of its characters in line with the other's, is in the other;
chosen on CMRC 2018 trial's conflict set."""


def _fold_same_length(text: str) -> str:
    f = fold(unicodedata.normalize("NFKC", text))
    return f if len(f) == len(text) else unicodedata.normalize("NFKC", text)


def _similar(a: str, b: str) -> float:
    ga, gb = char_ngrams(_without_values(a)), char_ngrams(_without_values(b))
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
    only_a = [v for v in _values(fa) if not set(_value_forms(v)) & vb and not _bound(fa, v)]
    only_b = [v for v in _values(fb) if not set(_value_forms(v)) & va and not _bound(fb, v)]
    if only_a and only_b:
        pairs = [(x, y) for x in only_a for y in only_b if _unit(x) == _unit(y)]
        same_place = [(x, y) for x, y in pairs if len(_left_context(fa, x)) == 2 and _left_context(fa, x) == _left_context(fb, y)]
        if same_place or (pairs and sim >= CONFLICT_SIMILAR):
            chosen = same_place or pairs
            return {"values": [sorted({x for x, _ in chosen}), sorted({y for _, y in chosen})]}
    if sim < CONFLICT_SIMILAR:
        return None
    import difflib

    ops = [op for op in difflib.SequenceMatcher(None, fa, fb, autojunk=False).get_opcodes() if op[0] != "equal"]
    spans = [(fa[i1:i2], fb[j1:j2]) for _, i1, i2, j1, j2 in ops]
    spans = [(x, y) for x, y in spans if _PUNCT.sub("", x) or _PUNCT.sub("", y)]
    if not spans or sum(len(x) + len(y) for x, y in spans) > 0.5 * min(len(fa), len(fb)):
        return None  # not one statement with one value changed
    if negated(fa) != negated(fb) and all(negated(x) or negated(y) for x, y in spans):
        return {"values": [[a.strip()], [b.strip()]], "polarity": ["no" if negated(fa) else "yes",
                                                                    "no" if negated(fb) else "yes"]}
    wa, wb = _word_bounds(fa), _word_bounds(fb)
    xs = [(a if len(fa) == len(a) else fa).__getitem__(slice(*_widen_to_words(wa, i1, i2))) for _, i1, i2, _, _ in ops]
    ys = [(b if len(fb) == len(b) else fb).__getitem__(slice(*_widen_to_words(wb, j1, j2))) for _, _, _, j1, j2 in ops]
    xs, ys = [x for x in xs if _PUNCT.sub("", x)], [y for y in ys if _PUNCT.sub("", y)]
    if not xs or not ys:
        return None  # one sentence only adds words to the other: not a different value
    return {"values": [xs, ys]}


def _statement_form(text: str) -> str:
    return _PUNCT.sub("", fold(unicodedata.normalize("NFKC", text)).lower())


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
_CAP_PHRASE = re.compile(r"\b[A-Z][a-zA-Z'\-]+(?:\s+(?:of|the|de|van|von|and|&)?\s*[A-Z][a-zA-Z'\-]+)*")
_YEAR = re.compile(r"\b(1\d{3}|20\d{2})\b")

def _options(question: str) -> list[str]:
    """'A or B' alternatives named in a comparison question."""
    m = re.search(r"[,:]?\s*([^,?]+?)\s+or\s+([^,?]+?)\s*\??$", question)
    if not m:
        return []
    left = re.split(r"\b(?:first|older|younger|earlier|later|larger|smaller|more|less|longer|shorter|taller|higher),?\s+",
                    m.group(1))[-1]
    return [left.strip(" ,\"'"), m.group(2).strip(" ,\"'")]


_YESNO_Q = re.compile(r"^(are|is|was|were|do|does|did|can|could|has|have|had|will|would)\b", re.I)


def _sentences(text: str) -> list[str]:
    return [x for x in re.split(r"(?<=[.!?。！？])\s*|(?<=[a-z0-9)\"])\.(?=[A-Z])", text) if x.strip()]


def _first_year_after(knowledge: str, name: str) -> int | None:
    low = knowledge.lower()
    i = low.find(name.lower())
    while i >= 0:
        m = _YEAR.search(knowledge, i, i + 300)
        if m:
            return int(m.group(1))
        i = low.find(name.lower(), i + 1)
    return None


def comparison_winner(question: str, knowledge: str) -> str | None:
    """For 'which came first/is older … A or B' questions: the option the dates favour, if clear."""
    opts = _options(question)
    if len(opts) != 2:
        return None
    q = question.lower()
    earlier = re.search(r"\b(first|earlier|older|oldest|before)\b", q)
    later = re.search(r"\b(later|younger|newer|last|most recent)\b", q)
    if not (earlier or later):
        return None
    years = [_first_year_after(knowledge, o) for o in opts]
    if None in years or years[0] == years[1]:
        return None
    pick = 0 if (years[0] < years[1]) == bool(earlier) else 1  # type: ignore[operator]
    return opts[pick]


# ----- Chinese free-text answers: the new information must sit where the question's subject is -----
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_FUNCTION_CHARS = frozenset("的了是在和与及或也都就而被把对从向为以于之其这那个等着过地得所将曾已并且又还则即乃呢吗吧啊有为由到中上下里内外")
_PUNCT = re.compile(r"[\s\W_]+")
SYNONYM_TAGS = frozenset({"v", "vd", "vi", "c", "d", "f", "t", "a", "ad", "p", "s"})
"""jieba part-of-speech tags of words that may be reworded by a near-synonym sharing a character with the
source's word (担任→出任, 获得→取得, 之前→以前): verbs, adverbs, conjunctions, locality and time words.
Nouns, names, places and numbers never: a different one is a different fact."""
GROUNDED_MIN = 0.5
"""Share of the answer's content words one source passage (a sentence and its neighbour) must hold:
an answer's facts come from one place, not from words scattered over the document. Chosen on CMRC
2018 trial's paraphrase set, reported on DRCD (benchmarks/README.md)."""


def _uncovered(text: str, sources: list[str]) -> list[str]:
    """Runs of ``text`` not covered by any substring (2+ characters) of ``sources``."""
    covered = [False] * len(text)
    for i in range(len(text) - 1):
        length = 0
        while i + length + 2 <= len(text) and any(text[i:i + length + 2] in src for src in sources):
            length += 1
        for k in range(i, i + length + 1 if length else i):
            covered[k] = True
    runs, cur = [], ""
    for ch, ok in zip(text, covered, strict=True):
        if ok:
            if cur:
                runs.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        runs.append(cur)
    return runs


def _pos_tag(word: str) -> str | None:
    from knowzero.knowledge.text import _jieba

    _jieba()
    import jieba.posseg as pseg

    return pseg.dt.word_tag_tab.get(word)


def _near_synonym(piece: str, window_words: set[str], answer: str) -> bool:
    """A reworded function word or verb: same part of speech class, one shared character with a word of the
    source passage that the answer dropped (see :data:`SYNONYM_TAGS`)."""
    if len(piece) != 2 or _pos_tag(piece) not in SYNONYM_TAGS:
        return False
    return any(len(w) == 2 and w not in answer and set(w) & set(piece) and _pos_tag(w) in SYNONYM_TAGS
               for w in window_words)


def _new_pieces(answer: str, question: str, window: str) -> list[str]:
    """The answer's words (jieba) holding a character found in neither the question nor the source
    passage as part of a shared 2+ character string: the answer's new information."""
    from knowzero.knowledge.text import _jieba

    uncovered: set[int] = set()
    pos = 0
    for run in _uncovered(answer, [question, window]):
        i = answer.index(run, pos)
        uncovered.update(range(i, i + len(run)))
        pos = i + len(run)
    out: list[str] = []
    for word, a, b in _jieba().tokenize(answer):
        if not uncovered & set(range(a, b)):
            continue
        piece = _PUNCT.sub("", word)
        if not piece or len(piece) == 1 and (piece in _FUNCTION_CHARS or not _CJK.match(piece) and not piece.isdigit()):
            continue
        out.append(piece)
    return out


def _digits_for_written(answer: str, evidence: str) -> str:
    """Chinese numerals / number words of the answer whose value the evidence has, written in digits
    ("475年九月" → "475年9月" when the source says 9月): the number check has judged them already."""
    evidence_values = number_values(evidence)
    for written, forms in _written_numbers(answer):
        if written in evidence:
            continue
        hit = next((f for f in forms if f in evidence_values), None)
        if hit is None:
            continue
        if written.startswith("百分之"):
            answer = answer.replace(written, hit + "%", 1)
            continue
        m = re.match(r"[零〇一二两三四五六七八九十百千万亿]+", written)
        if m:
            numeral = m.group(0)
            tail = "万" if numeral.endswith("万") and hit != forms[0] else "亿" if numeral.endswith("亿") and hit != forms[0] else ""
            answer = answer.replace(written, hit + tail + written[len(numeral):], 1)
    return answer


def _negation_flip_clauses(answer: str, window: str, question: str = "") -> bool:
    """A clause of the answer and a clause of the source say the same thing with opposite polarity (a
    negation the question itself states is the asker's, not the answer's)."""
    src = _clauses(window) or [window]
    q_neg = negated(question)
    for c in _clauses(answer) or [answer]:
        g = char_ngrams(c)
        if len(g) < 4:
            continue
        for sc in src:
            h = char_ngrams(sc)
            if len(g & h) / (min(len(g), len(h)) or 1) > 0.6 and negated(c) != negated(sc) and not (q_neg and negated(c)):
                return True
    return False


def _content_words(text: str) -> set[str]:
    return {t for t in tokens(text, search=False) if t not in STOPWORDS and (len(t) >= 2 or t.isdigit())}


def check_zh_answer(question: str, answer: str, knowledge: str) -> ClaimVerdict:
    """A Chinese free-text answer judged by meaning rather than word overlap (pure).

    - numbers (in digits or Chinese numerals) must be the source's;
    - the answer's new information (what neither the question nor the source passage says in the same
      characters) must be empty, but for near-synonyms of verbs and function words;
    - one passage (a sentence, or two adjacent ones) must hold that information together with most of
      the answer's other content words, so a value taken from another sentence is not support;
    - the answer must not negate the passage (or the reverse).
    """
    checks: dict[str, bool] = {}
    reasons: list[str] = []
    q_f = fold(unicodedata.normalize("NFKC", question)).lower()
    nums = missing_numbers(answer, f"{knowledge} {question}")
    ans_f = _digits_for_written(fold(unicodedata.normalize("NFKC", answer)),
                                fold(unicodedata.normalize("NFKC", f"{knowledge} {question}"))).lower()
    checks["numbers"] = not nums
    if nums:
        reasons.append("numbers not in the source: " + ", ".join(nums[:3]))
    sents = [x.text for x in split_sentences(knowledge)] or [knowledge]
    windows = sents
    words = _content_words(answer)
    rows = []
    for w in windows:
        w_f = fold(unicodedata.normalize("NFKC", w)).lower()
        new = _new_pieces(ans_f, q_f, w_f)
        if new:
            w_words = set(tokens(w_f, search=False))
            new = [p for p in new if not _near_synonym(p, w_words, ans_f)]
        share = sum(1 for t in words if t in w_f) / len(words) if words else 1.0
        rows.append((len(new), -share, w, new))
    _, neg_share, window, new = min(rows, key=lambda r: (r[0], r[1]))
    share, top_share = -neg_share, max(-r[1] for r in rows)
    checks["terms"] = not new
    if new:
        reasons.append("words not in the source: " + ", ".join(new[:4]))
    # the passage that holds the answer's facts is the one most about the answer (or holds most of it)
    checks["grounded"] = share >= GROUNDED_MIN or (share > 0 and share >= top_share)
    if not checks["grounded"]:
        reasons.append(f"the source passage holding the answer has only {share:.0%} of its words")
    flip = _negation_flip_clauses(fold(answer), fold(window), fold(question))
    checks["negation"] = not flip
    if flip:
        reasons.append("the answer negates its source")
    moved = swapped_values(answer, window, question)
    checks["slots"] = not moved
    if moved:
        reasons.append("words in another place than the source gives them: " + ", ".join(moved[:3]))
    if all(checks.values()):
        return ClaimVerdict("confirmed", checks, reasons)
    level = "contradicted" if not checks["numbers"] or not checks["negation"] or moved else "uncertain"
    return ClaimVerdict(level, checks, reasons)


def check_answer(question: str, answer: str, knowledge: str, *,
                 similarity: Callable[[str, str], float] | None = None) -> ClaimVerdict:
    """Is a free-text answer supported by the knowledge? (LLM answers; HaluEval lines.)

    New information (answer words not in the question) must come from the knowledge; names and
    years must occur there; comparisons must agree with the dates; a sentence answer must be
    grounded in one or two knowledge sentences rather than stitched from scattered words.
    """
    checks: dict[str, bool] = {}
    reasons: list[str] = []
    ans = answer.strip().rstrip(".")
    q_low = question.lower()
    kn_low = knowledge.lower()
    if _CJK.search(question) and is_yes_no(question) and reply_polarity(ans) is not None:
        return check_yes_no(question, ans, knowledge)
    if _YESNO_Q.search(question.strip()) and re.fullmatch(r"(?i)(yes|no)\b.*", ans) and len(ans.split()) <= 3:
        return ClaimVerdict("confirmed", {"yes_no": True}, [])
    if _CJK.search(ans):
        return check_zh_answer(question, ans, knowledge)
    nums = missing_numbers(ans, knowledge)
    checks["numbers"] = not nums
    if nums:
        reasons.append("numbers not in the source: " + ", ".join(nums[:3]))
    extra = unsupported_terms(ans, knowledge)
    checks["terms"] = not extra
    if extra:
        reasons.append("words not in the source: " + ", ".join(extra[:4]))
    phrases = [p for p in _CAP_PHRASE.findall(ans) if p.lower() not in q_low]
    unknown = [p for p in phrases if p.lower() not in kn_low]
    checks["entities"] = not unknown
    if unknown:
        reasons.append("names not in the source: " + ", ".join(unknown[:3]))
    winner = comparison_winner(question, knowledge)
    if winner is not None:
        others = [o for o in _options(question) if o != winner]
        says_other = any(o.lower() in ans.lower() for o in others) and winner.lower() not in ans.lower()
        checks["comparison"] = not says_other
        if says_other:
            reasons.append(f"the dates in the source favour {winner}")
    new_words = [t for t in tokens(ans, search=False) if t not in STOPWORDS and t not in q_low]
    if len(new_words) >= 1 and len(ans.split()) >= 4:
        # a sentence answer states one fact: its words — those it restates from the question too — come
        # from one sentence of the knowledge, not from one sentence about something else plus the question
        said = [t for t in tokens(ans, search=False) if t not in STOPWORDS and t in kn_low]
        sents = _sentences(knowledge)
        best = max((sum(1 for w in new_words if w in s.lower()) / len(new_words) for s in sents), default=0.0)
        best_all = max((sum(1 for w in said if w in s.lower()) / len(said) for s in sents), default=1.0) if said else 1.0
        checks["one_sentence"] = (best >= 0.99 or len(new_words) <= 1) and best_all >= 0.99
        if not checks["one_sentence"]:
            reasons.append("the answer stitches words from different sentences")
    if similarity is not None:
        checks["similarity"] = similarity(ans, knowledge) >= 0.75
    if all(checks.values()):
        return ClaimVerdict("confirmed", checks, reasons)
    level = "contradicted" if checks.get("numbers") is False or checks.get("comparison") is False else "uncertain"
    return ClaimVerdict(level, checks, reasons)
