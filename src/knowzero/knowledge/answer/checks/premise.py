"""Yes/no questions: is the question asking one, what polarity a reply states, and what the evidence says
about the question's premise (pure)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from knowzero.knowledge.answer.checks.numbers import number_values, unit_of, value_forms, values_in, without_values
from knowzero.knowledge.answer.policy import ClaimVerdict, yes_no_verdict
from knowzero.knowledge.index.headers import english_flag, named_at
from knowzero.knowledge.index.sqlindex import normal_key
from knowzero.knowledge.rows import row_fields
from knowzero.knowledge.text import char_ngrams, split_sentences

_ZH_YESNO = re.compile(r"(?:吗|嗎|(?<![什怎这那多甚])么|(?<![什怎這那多甚])麼)\s*[？?]?\s*$|是否|是不是|能否|可否|有没有|有沒有|能不能|可不可以|会不会|會不會|要不要|"
                       r"需不需要|对不对|對不對|是吧\s*[？?]?$")
_WH = re.compile(r"什么|什麼|谁|誰|哪|几|幾|多少|怎么|怎麼|怎样|怎樣|为什么|為什麼|为何|如何|何时|何時|何地")
_NOT_WH = re.compile(r"几何|幾何|几乎|幾乎|哪怕|什么都|什麼都")
_EN_YESNO = re.compile(r"^(are|is|was|were|do|does|did|can|could|has|have|had|will|would|should|may)\b", re.I)
# Chinese negation in a clause; words that only look negated are masked first.
NEGATION = re.compile(r"不|没有|未|无|非|禁|不得|不能|不可|\bnot\b|\bno\b|\bnever\b|n't|\bwithout\b")
_ZH_NEG = re.compile(r"不|没|沒|未|无|無|非|否|禁|勿|毋|免(?=[收交缴繳付征徵])")  # 免收留宿费: the fee is not paid
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
    """A question answered by yes or no ("…是10万元吗？", "是否…", "Is Blur an English band?").

    >>> is_yes_no("A dad has offered to help on the trip. Can he count towards the ratio?"), is_yes_no("We're in X. Which bus?")
    (True, False)
    >>> is_yes_no("boatyard prices at Quarry Hard: Can the owner stay on board during the lift-out?")
    True
    """
    q = question.strip()
    # the asking sentence of several ("A dad … offered to help. Can he count towards the ratio?"), or after the
    # subject it is asked about ("boatyard prices: Can the owner stay on board?")
    if _EN_YESNO.search(q) or _EN_YESNO.search(re.split(r"(?<=[.!:])\s+", q)[-1]):
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
    return bool(_ZH_NEG.search(_NOT_NEG.sub("", text))) or bool(NEGATION.search(text.lower()) and re.search(r"[a-z]", text.lower()))


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


def clauses(sentence: str) -> list[str]:
    return [c for c in re.split(r"[，,；;：:]", sentence) if c.strip()]


def opposite_clauses(answer: str, window: str, question: str = "") -> bool:
    """A clause of the answer and a clause of the source say the same thing with opposite polarity (a
    negation the question itself states is the asker's, not the answer's)."""
    src = clauses(window) or [window]
    q_neg = negated(question)
    for c in clauses(answer) or [answer]:
        g = char_ngrams(c)
        if len(g) < 4:
            continue
        for sc in src:
            h = char_ngrams(sc)
            if len(g & h) / (min(len(g), len(h)) or 1) > 0.6 and negated(c) != negated(sc) and not (q_neg and negated(c)):
                return True
    return False


def premise(question: str, evidence: str | list[str]) -> Premise:
    """Whether the evidence affirms or denies a yes/no question's statement (pure).

    The source sentence sharing most of the question's words (values left out) is the one judged:
    ``no`` when the question states a value the sentence does not have while it has another
    (the question says 10万元, the source 5万元), or when the clause that matches the question is
    negated and the question is not (or the reverse: "零件B无需热处理" to "零件B需要热处理吗？");
    ``yes`` when it holds the question's statement; ``unknown`` when no sentence is about it.
    """
    stmt = yes_no_statement(question)
    if (flagged := row_flag(stmt, [evidence] if isinstance(evidence, str) else list(evidence))) is not None:
        return flagged
    q_grams = char_ngrams(without_values(stmt))
    if not q_grams:
        return Premise("unknown", reason="the question has no words to look for")
    texts = [evidence] if isinstance(evidence, str) else list(evidence)
    sents = [s.text for t in texts for s in split_sentences(t)]
    scored = sorted(((len(q_grams & char_ngrams(without_values(s))) / len(q_grams), i, s) for i, s in enumerate(sents)),
                    key=lambda x: (-x[0], x[1]))
    if not scored or scored[0][0] < PREMISE_MIN_OVERLAP:
        return Premise("unknown", reason="no source sentence is about the question's statement")
    top = scored[0][0]
    q_vals = values_in(stmt)
    if q_vals:
        # a sentence about the same thing that carries values is the one to compare values with
        near = [x for x in scored if x[0] >= 0.8 * top]
        with_vals = [x for x in near if values_in(x[2])]
        _, _, sent = (with_vals or near)[0]
        s_vals = number_values(sent)
        missing = [v for v in q_vals if not set(value_forms(v)) & s_vals]
        if not missing:
            return _polarity(stmt, sent)
        # the sentence's values of the question's kind (a date is no answer to "95折"): none, and it cannot deny
        units = {unit_of(v) for v in missing}
        found = [v for v in values_in(sent) if unit_of(v) in units]
        if found:
            return Premise("no", sent, tuple(missing), tuple(found),
                           f"the question says {', '.join(missing)}, the source says {', '.join(found)}")
        # no value to compare: a sentence about the same thing that says no ("电梯运行费…不打折" to "…也能打95折吗？")
        # still answers; a yes without the question's value never does
        denied = next((p for _, _, s in near if (p := _polarity(stmt, s)).answer == "no"), None)
        return denied or Premise("unknown", sent, tuple(missing), (), "the source does not give the question's value")
    return _polarity(stmt, scored[0][2])


_YES_CELLS = frozenset({"是", "有", "yes", "y"})
_NO_CELLS = frozenset({"否", "无", "無", "no", "n"})
_FLAG_PREFIX = re.compile(r"^(?:是否|有无|是不是)")


def row_flag(stmt: str, evidence: list[str]) -> Premise | None:
    """A quoted table row whose yes/no field the question names ("…曹晓东能去给客户送车上门" of a roster row with
    "准驾送车: 否"; "Can Joel sign the controlled drugs register" of "cd_signatory: No"): that field answers —
    ``no`` for 否/No, ``yes`` for 是/Yes (the other way round when the question says no); None when no row of the
    evidence has such a field.

    >>> row_flag("车辆专员曹晓东能去给客户送车上门", ["工号: XY04；姓名: 曹晓东；准驾送车: 否；夜班: 否。"]).answer
    'no'
    >>> row_flag("joel can sign the controlled drugs register", ["name: Joel；cd_signatory: Yes。"]).answer
    'yes'
    >>> row_flag("曹晓东能开车", ["工号: XY04；姓名: 曹晓东；准驾送车: 否。"]) is None
    True
    >>> row_flag("曹晓东准驾送车", ["工号: XY01；姓名: 沈建国；准驾送车: 是。", "工号: XY04；姓名: 曹晓东；准驾送车: 否。"]).answer
    'no'
    """
    low = normal_key(stmt)
    for text in evidence:
        fields = row_fields(text)
        # the row must be the one the question is about: another of its cells (a name, a code) is in the question
        if not any(len(v := normal_key(value.strip().rstrip("。.；;"))) >= 2 and v in low and v not in _YES_CELLS | _NO_CELLS
                   for _label, value in fields):
            continue
        for label, value in fields:
            cell = value.strip().rstrip("。.；;").strip().lower()
            if cell not in _YES_CELLS | _NO_CELLS:
                continue
            subject = _FLAG_PREFIX.sub("", normal_key(label).strip())
            if subject.isascii():
                named = english_flag(label, low)
                if named is None:
                    continue
                said_no = named[1]
            else:
                if (at := named_at(subject, low)) < 0:
                    continue
                said_no = negated(low[max(0, at - 3):at])
            yes = (cell in _YES_CELLS) != said_no
            return Premise("yes" if yes else "no", text, reason=f"the row's {label} is {value.strip()}")
    return None


def _shared_terms_out(stmt: str, clause: str) -> tuple[str, str]:
    """Both texts without the negated words they share ("非质量问题" in "可以因为非质量问题退货" and in "不接受非质量
    问题的退货"): a term both name is the topic, not the polarity of either."""
    for m in _ZH_NEG.finditer(stmt):
        term = stmt[m.start():m.start() + 3]
        if len(term) == 3 and term in clause:
            stmt, clause = stmt.replace(term, "　"), clause.replace(term, "　")
    return stmt, clause


def _polarity(stmt: str, sent: str) -> Premise:
    q_grams = char_ngrams(stmt)
    parts = clauses(sent) or [sent]
    clause = max(parts, key=lambda c: len(q_grams & char_ngrams(c)))
    # a Chinese yes/no question ends on its predicate ("…住宿能报销吗"): the clause that holds it says yes or no
    # ("出海作业期间由船方提供住宿，不另行报销住宿费用" shares more words in its first clause, but denies in its second)
    tail = re.sub(r"[吗嗎么麼呢吧？?。！!\s]+$", "", stmt)[-2:]
    if re.fullmatch(r"[\u4e00-\u9fff]{2}", tail) and tail not in clause:
        clause = max((c for c in parts if tail in c), key=lambda c: len(q_grams & char_ngrams(c)), default=clause)
    s_bare, c_bare = _shared_terms_out(stmt, clause)
    if negated(c_bare) != negated(s_bare):
        return Premise("no", sent, reason="the source says the opposite" if not negated(s_bare) else
                       "the source does not say the question's negation")
    if not negated(stmt) and _english_denial(stmt, sent):
        return Premise("no", sent, reason="the source says the opposite")
    return Premise("yes", sent, reason="a source sentence states it")


_EN_CONTENT = re.compile(r"[a-z]{4,}")


def _english_denial(stmt: str, sent: str) -> bool:
    """Another clause of the English sentence denies two of the statement's content words: "Is it paid on the
    first Friday (lunch stipend)?" against "On the first Friday … a catered lunch; no stipend is paid on those days".

    >>> _english_denial("it paid on the first friday (lunch stipend)", "On the first Friday the clinic provides "
    ...                 "a catered lunch; no stipend is paid on those days.")
    True
    >>> _english_denial("employees carry over pto", "Up to 5 unused PTO days may be carried over; they expire in March.")
    False
    """
    words = set(_EN_CONTENT.findall(stmt.lower()))
    if not words or re.search(r"[\u4e00-\u9fff]", sent):
        return False
    return any(negated(c) and len(words & set(_EN_CONTENT.findall(c.lower()))) >= 2 for c in clauses(sent))


def check_yes_no(question: str, answer: str, evidence: str) -> ClaimVerdict:
    """A "是的/可以" (or "不是/不能") answer to a yes/no question, judged by what the evidence says.

    ``confirmed`` only when the evidence's polarity is the answer's; ``contradicted`` when it is the
    opposite; ``uncertain`` when no source sentence is about the question.
    """
    said = reply_polarity(answer)
    p = premise(question, evidence)
    agrees = said is not None and p.answer == said
    known = p.answer != "unknown" and said is not None
    return yes_no_verdict(agrees, known, p.reason if agrees or not known else f"the sources answer {p.answer}: {p.reason}")


# ----- conflicting sources -----
