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
  with the dates or numbers in the evidence.
Levels: ``confirmed`` (all checks pass, coverage high), ``uncertain`` (partial coverage or a
conflict between sources), ``insufficient`` (no claim survives or coverage too low),
``contradicted`` (a claim disagrees with its evidence). uncertain/contradicted need a human.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from knowzero.knowledge.text import STOPWORDS, char_ngrams, fold, iter_numbers, tokens

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
    """How well the evidence answers the question (``knowledge.answerable.score``), when measured."""
    features: dict[str, float] | None = None
    """What that score was computed from (``answerable.Features``), for the agent log and benchmarks."""

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "reason": self.reason, "coverage": round(self.coverage, 3),
                "needs_human_review": self.needs_human_review, "warnings": list(self.warnings),
                "claims": [{"level": c.level, "checks": c.checks, "reasons": c.reasons} for c in self.claims]}


_NEG = re.compile(r"不|没有|未|无|非|禁止|不得|不能|不可|\bnot\b|\bno\b|\bnever\b|n't|\bwithout\b")


def quote_matches(source_text: str, quote: str, start: int, end: int) -> bool:
    return 0 <= start < end <= len(source_text) and source_text[start:end] == quote


def missing_numbers(claim: str, evidence: str) -> list[str]:
    """Numbers of the claim that the evidence does not contain (unit-aware, digits compared)."""
    ev = unicodedata.normalize("NFKC", evidence).replace(",", "")
    ev_digits = {re.sub(r"[^\d.]", "", n) for n in iter_numbers(ev)}
    out = []
    for n in iter_numbers(claim):
        digits = re.sub(r"[^\d.]", "", n)
        if digits and digits not in ev_digits and n not in ev:
            out.append(n)
    return out


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
        return Verdict("insufficient", f"the sources cover only {coverage_value:.0%} of the question", claims,
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
    if _YESNO_Q.search(question.strip()) and re.fullmatch(r"(?i)(yes|no)\b.*", ans) and len(ans.split()) <= 3:
        return ClaimVerdict("confirmed", {"yes_no": True}, [])
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
        sents = _sentences(knowledge)
        best = max((sum(1 for w in new_words if w in s.lower()) / len(new_words) for s in sents), default=0.0)
        checks["one_sentence"] = best >= 0.99 or len(new_words) <= 1
        if not checks["one_sentence"]:
            reasons.append("the answer stitches words from different sentences")
    if similarity is not None:
        checks["similarity"] = similarity(ans, knowledge) >= 0.75
    if all(checks.values()):
        return ClaimVerdict("confirmed", checks, reasons)
    level = "contradicted" if checks.get("numbers") is False or checks.get("comparison") is False else "uncertain"
    return ClaimVerdict(level, checks, reasons)
