"""Readers: turn retrieved passages into an answer whose every claim cites an exact span.

- :func:`extractive_read` (offline default): scores each sentence of the top passages by
  IDF-weighted overlap with the question, character-bigram overlap, the answer type the
  question asks for (number, time, person, place, another name), how well its passage as a
  whole matches and the passage's fused rank; the best sentence (and up to two close
  runners-up) become the claims, verbatim, with document offsets. The main claim is widened to whole thoughts: a
  sentence that leans on the one before it ("因此…", "他…") takes it along, one that announces a
  list ("特点如下：") takes what follows, and why/how/what-is-it-like questions get the sentences
  around it, since their answers are explanations rather than single facts.
- :func:`llm_read`: asks a chat model for JSON ``{answer, claims: [{text, passage, quote}]}``;
  a claim whose quote is not found in its passage is dropped; nothing usable → ProviderError,
  and the caller falls back to the extractive reader.
Conflicts (same question, different values — numbers, dates, names, places, yes/no — in the best
sentences of different documents) are listed and both sentences quoted, never merged.
Table rows are never shown as ``| … |`` fragments: a row reads as a sentence of its cells
("主要外径：Φ20mm，公差±0.01mm"), and a question naming one row's key ("上海办事处的电话是多少？")
narrows the claim to that row (the quote stays the exact source span).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from knowzero.errors import ProviderError
from knowzero.knowledge.answer.checks import answerable, constraints
from knowzero.knowledge.answer.checks.conflicts import one_statement, same_title, value_conflict
from knowzero.knowledge.answer.checks.premise import is_yes_no
from knowzero.knowledge.answer.clauses import narrow_to_condition
from knowzero.knowledge.index.bands import band, quantities
from knowzero.knowledge.rows import row_sentence, table_cells
from knowzero.knowledge.text import (
    Sentence,
    char_ngrams,
    fold,
    has_cjk,
    normalize,
    query_text,
    split_sentences,
    tokens,
    without_asking_phrases,
)
from knowzero.knowledge.types import Passage, Scored
from knowzero.llm.base import ChatProvider, chat_json
from knowzero.vocabulary.questions import READER_KINDS, asked_value, gives_value, kind_of


@dataclass
class Claim:
    text: str
    source: str
    quote: str
    start: int
    end: int
    passage_id: str
    title: str = ""
    score: float = 0.0


@dataclass
class Draft:
    answer: str
    claims: list[Claim]
    conflicts: list[dict[str, object]] = field(default_factory=list)
    method: str = "extractive"
    notes: list[str] = field(default_factory=list)


# Asking for another name of the subject, and sentences that give one.
_ALIAS_Q = re.compile(r"又称|又叫|也叫|也称|别称|别名|简称|称为什么|叫什么|称之为什么|原名|初名|本名|全称|史称|俗称|外号|昵称|绰号|"
                      r"also (?:called|known)|other name|nickname")
_ALIAS_S = re.compile(r"又称|又叫|也叫|也称|别称|别名|简称|或称|称为|原名|初名|本名|全称|史称|俗称|外号|昵称|绰号|又名|亦称|通称|"
                      r"also (?:called|known)|known as|nicknamed")
# Who or what the subject is: a document's lead sentence usually says it ("杨昊，中国足球运动员，…").
_IDENTITY_Q = re.compile(r"职业|身份|是谁|是什么人|什么是|是什么$|是什么？|国籍|^who (?:is|was)|^what is")
# Answers that are explanations or descriptions rather than one fact.
_DESCRIPTIVE_Q = re.compile(r"为什么|为何|怎么|怎样|如何|哪些|什么样|特点|特征|原因|内容|情节|影响|功效|功能|作用|评价|解释|什么是|意思|"
                            r"观点|症状|过程|样子|形状|外形|^why\b|^how (?:do|does|did|is|was|can)\b|describe|explain")
# A sentence that cannot stand alone: it refers back to the one before it.
_LEANS_BACK = re.compile(r"^(?:因此|所以|于是|因而|故|但|但是|然而|而|不过|此后|其后|之后|随后|后来|该|这|此|其|他|她|它|牠|同时|另外|"
                         r"此外|并且|并|且|也|又|最终|最后|结果|当时|赛后|那些)|^(?:This|That|These|Those|It|They|He|She|However|"
                         r"Therefore|Thus|So|But)\b")
# A sentence that announces what follows ("其特点主要有以下三点：").
_LEADS_ON = re.compile(r"[:：]$|以下|如下")
_HAS_NUM = re.compile(r"\d|[一二三四五六七八九十百千万两]")
_HAS_TIME = re.compile(r"\d{2,4}年|\d+月|\d+日|世纪|年代|朝|时期|\d{4}|[一二三四五六七八九十]+年|天|小时|分钟|周|月")


def answer_type(question: str) -> str | None:
    """The kind of value asked for (time, number, person, place) or None; Traditional script is
    folded first (the patterns are Simplified: "誰", "幾", "什麼時候" ask too)."""
    return kind_of(fold(question).lower(), READER_KINDS)


def _type_bonus(kind: str | None, sentence: str) -> float:
    """``sentence`` folded to Simplified (the caller's)."""
    if kind == "number":
        return 0.15 if _HAS_NUM.search(sentence) else -0.1
    if kind == "time":
        return 0.15 if _HAS_TIME.search(sentence) else -0.1
    return 0.0


@dataclass(frozen=True)
class _Cand:
    sent: Sentence
    passage: Passage
    rank: int
    idx: int


_UNIT = re.compile(r"\d[\d.,]*\s*(?:%|公斤|千克|克|吨|米|公里|平方公里|平方米|公顷|厘米|毫米|英尺|英里|岁|年|月|日|天|小时|"
                   r"分钟|秒|人|万|亿|元|美元|个|种|次|倍|度|℃|mm|cm|km|kg|m)")


# The asked value right after the asked term ("年假5天", "人口为120万", "成立于1990年"): a short link without
# punctuation (a "key：value" colon is a link) and not a possessive "的" — "单人标准的1.5倍" is a multiple of the
# standard, not the standard, and "3天以内的年假" a condition on the leave, not its length. Nor a preposition that
# brings in another argument ("年假以半天为最小单位": half a day is the unit, not the leave).
_LINK = r"(?:\s*\|\s*|[^\d\s|，,。；;！？!?、（）()\[\]【】“”\"'的以按从由被把对向与和及将让给据经比]{0,3}?\s?)"
_SLOT_VALUE = {
    "number": r"(?:[±+\-]?\d|(?!一[个位名种座部本只件块张首篇家条项])"  # "是一个…": an article, not a count
              r"[零一二两三四五六七八九十百千万亿半]+[个位名种次项条家座部本年天人岁倍层届只件块张首篇米元分秒集]|"
              r"[零一二两三四五六七八九十百千万亿]{2,}|百分之)",
    "time": r"(?:\d{1,4}\s*(?:年|月|日|世纪|年代)|[一二三四五六七八九十〇零]+(?:年|月|日|世纪)|\d{4})",
    "clock": r"(?:\d{1,2}\s*[:：]\s*\d{2}|[\d零一二两三四五六七八九十]{1,3}\s*[点點](?:半|\d|[零一二三四五六七八九十])?)",
}
_CLOCK_Q = re.compile(r"几点|幾點|几时|幾時|what time")


def slot_kind(question: str) -> str | None:
    """The kind of value :func:`holds_slot_value` looks for: a time of day ("几点开始供应？"), else
    :func:`answer_type`."""
    return "clock" if _CLOCK_Q.search(question.lower()) else answer_type(question)
# "…的1.5倍", "…的40%": a share or multiple of something else (unless the question asks for a ratio).
_RELATIVE = re.compile(r"的\s*(?:[\d.]+|[零一二两三四五六七八九十百千万]+)\s*(?:倍|%|％|成)|的\s*(?:百分之|[一二三四五六七八九十百千万]+分之)")
_RATIO_Q = re.compile(r"比例|比率|百分|倍|几成|占|率|ratio|percent")


def slot_terms(question: str) -> list[str]:
    """The question's own words (two characters or more) a value it asks for would follow."""
    return [t for t in dict.fromkeys(tokens(query_text(question), search=False)) if len(t) >= 2]


def holds_slot_value(kind: str | None, terms: list[str], text: str) -> bool:
    """``text`` gives a value of the asked ``kind`` (number or time) for one of the question's ``terms``:
    the value follows the term across a short link ("年假5天", "年假为5天", "住宿费：500元", a table's
    "| 午餐 | 11:30-13:00 |"), or for a
    time, precedes it ("1990年出生")."""
    value = _SLOT_VALUE.get(kind or "")
    if value is None or not terms:
        return False
    for t in terms:
        term = re.escape(t)
        if re.search(term + _LINK + value, text):
            return True
        if kind == "time" and re.search(value + r"[^\s，,。；;！？!?、的]{0,2}?" + term, text):
            return True
    return False


def absolute_units(question: str, text: str) -> bool:
    """A value with a unit that is not a share or multiple of something else ("…的1.5倍")."""
    if _RATIO_Q.search(question):
        return bool(_UNIT.search(text))
    return any(not _RELATIVE.search(text[max(0, m.start() - 2): m.end()]) for m in _UNIT.finditer(text))


BLOCK_MAX_CHARS = 600
TITLE_WEIGHT = 0.1
PASSAGE_WEIGHT = 0.1  # how much of the question the sentence's passage covers as a whole
RANK_PENALTY = 0.1  # per fused rank of the passage
ALIAS_BONUS = 0.2
LEAD_BONUS = 0.2
SQL_BONUS = 0.5  # SQL fires only on exact values/columns the question names: precise evidence
SQL_ONE_WORD_SHARE = 0.2
ONE_STATEMENT_SHARE = 0.75
"""A yes/no question is not answered by a whole section when one of its sentences holds this share of the
question words the section has."""
SLOT_BONUS = 0.25  # the sentence gives the asked value right after the asked term (holds_slot_value)
VALUE_FORM_BONUS = 0.25
VALUE_FORMS_PREFERRED = frozenset({"speed", "length", "weight"})
"""Asked value forms (:func:`asked_value`) whose sentence the reader prefers by :data:`VALUE_FORM_BONUS`: a speed.
Money and phone numbers are not (the weights fitted on CMRC were not measured again with them)."""
BAND_BONUS = 2.0  # a table row whose key range holds the value the question names ("12年" → "满10年不满20年")
RUNNER_UP_SHARE = 0.5  # a second claim scores at least this share of the best one
THIRD_SHARE = 0.7  # a third only when it is nearly as good: the reader cannot tell them apart


def one(token: str) -> str:
    """An English token in its singular ("bowsprits" → bowsprit), so a question and a sentence that differ only in
    number share the word; any other token as it is.

    >>> one("bowsprits"), one("class"), one("bus"), one("年假")
    ('bowsprit', 'class', 'bus', '年假')
    """
    return token[:-1] if len(token) >= 5 and token.isascii() and token.endswith("s") and not token.endswith("ss") \
        else token


def _words(text: str) -> set[str]:
    """The search tokens of ``text``, English ones in the singular (:func:`one`)."""
    return {one(t) for t in tokens(text, search=True)}


def score_sentences(question: str, passages: list[Scored], idf, *, max_passages: int = 3) -> list[tuple[float, _Cand]]:  # type: ignore[no-untyped-def]
    """Score every sentence of the top passages; returns [(score, candidate)], best first.

    Question terms are weighted by corpus IDF times a local IDF over the passage's sentences, and
    the document's title words weigh a tenth, so the subject every sentence repeats counts less than
    the predicate only one sentence has.
    Weights were fitted on the CMRC 2018 trial split (dev data).
    """
    question = query_text(question)
    q_terms = {one(t): idf(t) for t in tokens(without_asking_phrases(question), search=False)}
    q_terms.update({one(t): idf(t) * 0.5 for t in tokens(question, search=True) if one(t) not in q_terms})
    q_grams = char_ngrams(question)
    kind = answer_type(question)
    q_low = fold(question).lower().replace("甚么", "什么")  # the patterns below are Simplified
    alias_q = bool(_ALIAS_Q.search(q_low))
    identity_q = bool(_IDENTITY_Q.search(q_low))
    slot = slot_kind(q_low)
    slots = slot_terms(q_low) if slot in _SLOT_VALUE else []
    g_total = sum(q_terms.values()) or 1.0
    yes_no = is_yes_no(question)
    asked_values = digit_values(question)
    value_form = form if (form := asked_value(q_low)) in VALUE_FORMS_PREFERRED else None
    # each passage's words, title and heading included (read once: a band row checks the others' too)
    seen = [_words(f"{s.passage.title} {s.passage.section} {s.passage.text}")
            for s in passages[:max_passages]]
    scored: list[tuple[float, _Cand]] = []
    for rank, s in enumerate(passages[:max_passages]):
        p = s.passage
        sents = split_sentences(p.text, offset=p.start)
        stoks = [_words(x.text) for x in sents]
        n = len(sents)
        title = _words(p.title)
        # The document's subject (its title words) says which document, not which sentence: weigh it little.
        local = {t: w * math.log(1 + (n + 1) / (1 + sum(1 for st in stoks if t in st))) * (TITLE_WEIGHT if t in title else 1.0)
                 for t, w in q_terms.items()}
        total = sum(local.values()) or 1.0
        # ...but the passage as a whole must be about the question's subject: its coverage, title included.
        ptoks = seen[rank]
        passage_cov = sum(w for t, w in q_terms.items() if t in ptoks) / g_total
        for i, sent in enumerate(sents):
            cov = sum(w for t, w in local.items() if t in stoks[i]) / total
            bigram = len(q_grams & char_ngrams(sent.text)) / (len(q_grams) or 1)
            sent_f = fold(sent.text) if kind or alias_q or slots else sent.text
            unit = 0.15 if kind == "number" and absolute_units(question, sent_f) else 0.0
            score = (cov + 0.3 * bigram + 0.25 * _type_bonus(kind, sent_f) + unit + PASSAGE_WEIGHT * passage_cov
                     - RANK_PENALTY * rank)
            if holds_slot_value(slot, slots, sent_f.lower() if slots else sent_f):
                score += SLOT_BONUS
            if value_form and gives_value(value_form, sent.text):
                score += VALUE_FORM_BONUS  # "How fast…": the sentence with "6 km/h", not the refresher's "3 years"
            if alias_q and _ALIAS_S.search(sent_f.lower()):
                score += ALIAS_BONUS
            if identity_q and i == 0 and p.start == 0:
                score += LEAD_BONUS
            if p.id.startswith("sql:"):  # in full once the row holds two of the question's words (a row that
                # shares one cell value with it, 研发部 of a roster, is no precise evidence)
                shared = q_terms.keys() & stoks[i]  # 研发 inside 研发部 is the same word
                words = [t for t in shared if not any(t != u and t in u for u in shared)]
                score += SQL_BONUS if len(words) >= 2 else SQL_BONUS * SQL_ONE_WORD_SHARE
            if asked_values and not yes_no and band_row_holds(sent.text, asked_values) \
                    and not _elsewhere_only(q_terms, ptoks, seen):
                score += BAND_BONUS
            scored.append((score, _Cand(sent, p, rank, i)))
        if p.section and n >= 2 and len(p.text) <= BLOCK_MAX_CHARS \
                and _words(f"{p.title} {p.section}") & q_terms.keys():
            # A short section (a contact card, a table) answers as a whole when its heading names the subject.
            head = _words(f"{p.section} {p.text}")
            cov = sum(w for t, w in q_terms.items() if t in head) / g_total
            bigram = len(q_grams & char_ngrams(f"{p.section} {p.text}")) / (len(q_grams) or 1)
            block = Sentence(p.text, p.start, p.end)
            score = cov + 0.2 * bigram + PASSAGE_WEIGHT * passage_cov - RANK_PENALTY * rank - 0.1
            if _heading_holds_slot(slot, slots, p, question):
                score += SLOT_BONUS
            body = _words(p.text) & q_terms.keys()
            if yes_no and body and max(len(body & st) for st in stoks) >= ONE_STATEMENT_SHARE * len(body):
                score -= 1.0  # a yes or no is one statement's: the sentence holding the section's words answers
            scored.append((score, _Cand(block, p, rank, -1)))
    scored.sort(key=lambda x: -x[0])
    return scored


_ROW_KEY = re.compile(r"^[^:：；;]{1,12}[:：]\s*(?P<key>[^；;。]+)[；;]")


def digit_values(question: str) -> list[tuple[float, str]]:
    """The values with a unit a question writes in digits (:func:`quantities`): "一天累计" is "per day", not a
    value a row's range should hold.

    >>> digit_values("工作16年有几天年假？"), digit_values("一天累计最多能开多久？")
    ([(16.0, '年')], [])
    """
    return [v for v in quantities(question) if re.search(rf"(?<!\d){int(v[0])}(?:\.\d{{1,6}})?\s*\D", question)]


def _elsewhere_only(q_terms: dict[str, float], own: set[str], read: list[set[str]]) -> bool:
    """The question names a term its passage lacks while another passage read has it ("病假" beside a table
    of 年休假 rows): that table's row is not the answer, whatever its range holds."""
    return any(len(t) >= 2 and t not in own and any(t in r for r in read) for t in q_terms)


def band_row_holds(text: str, asked: list[tuple[float, str]]) -> bool:
    """One table row (a Markdown row, or a "label: key；label: value" row sentence) whose key cell is a
    range holding a value the question names.

    >>> band_row_holds("| 满10年不满20年 | 12天 |", [(12.0, "年")]), band_row_holds("| 满1年不满5年 | 6天 |", [(12.0, "年")])
    (True, False)
    >>> band_row_holds("工作年限: 满15年及以上；年休假天数: 14天。", [(16.0, "年")])
    True
    """
    line = text.strip()
    if "\n" in line:
        return False
    cells = table_cells(line)
    key = cells[0] if cells else (m.group("key") if (m := _ROW_KEY.match(line)) else "")
    b = band(key) if key else None
    return b is not None and any(b.holds(v, unit) for v, unit in asked)


def _heading_holds_slot(kind: str | None, terms: list[str], p: Passage, question: str) -> bool:
    """A short section whose own heading names an asked term ("三、住宿费标准") and whose text gives values
    of the asked kind (a table of amounts): the section is that term's value, as "term：value" would be."""
    value = _SLOT_VALUE.get(kind or "")
    if value is None:
        return False
    heading = re.split(r"\s*[>›»/]\s*", p.section or "")[-1]
    if not any(t in heading for t in terms):
        return False
    q = fold(question)
    return any(m.group(0) not in q for m in re.finditer(value, p.text))


CONFLICT_PASSAGES = 5
"""Passages searched for a sentence that disagrees with the answer: one document's chunks can fill the
reader's three, and the other version of the same text is then the fourth or fifth."""


def extractive_read(question: str, passages: list[Scored], idf, *, max_claims: int = 3) -> Draft:  # type: ignore[no-untyped-def]
    """Pick the best sentence(s) verbatim (see module doc)."""
    wide = score_sentences(question, passages, idf, max_passages=CONFLICT_PASSAGES)
    words = _english_words(question)  # once per question, not per sentence read
    wide = sentences_meeting_constraints(question, wide, lambda x: _mentions(words, x[1].sent.text))
    scored = [x for x in wide if x[1].rank < 3 and _mentions(words, x[1].sent.text)]
    if not scored and wide and wide[0][1].rank >= 3:  # only a lower-ranked passage meets the constraints
        scored = [x for x in wide if _mentions(words, x[1].sent.text)]
    if not scored:
        return Draft("", [])
    best_score, best = scored[0]
    chosen = [(best_score, best)]
    for sc, c in scored[1:]:
        if len(chosen) >= max_claims:
            break
        overlaps = any(c.passage.path == o.passage.path and c.sent.start < o.sent.end and o.sent.start < c.sent.end
                       for _, o in chosen)
        share = RUNNER_UP_SHARE if len(chosen) < 2 else THIRD_SHARE
        if sc >= share * best_score and not overlaps and c.sent.text != best.sent.text:
            chosen.append((sc, c))
    if best.passage.id.startswith("sql:"):
        # a structured query picked the row: another row of the same table is not a second answer
        chosen = [chosen[0]] + [(sc, c) for sc, c in chosen[1:] if c.passage.path != best.passage.path]
    # the best claim first (it is the answer's main citation); same-passage claims in document order
    chosen = [chosen[0]] + sorted(chosen[1:], key=lambda x: (x[1].passage.id != best.passage.id, x[1].sent.start))
    band_row = band_row_holds(best.sent.text, digit_values(question))  # the row itself is the answer: it leads
    if len(chosen) > 1 and chosen[1][1].passage.id == best.passage.id and chosen[1][1].sent.start < best.sent.start \
            and not band_row:
        chosen = [chosen[1], chosen[0]] + chosen[2:]
    claims: list[Claim] = []
    for sc, c in chosen:
        prev = claims[-1] if claims else None
        if prev is not None and prev.passage_id == c.passage.id and 0 <= c.sent.start - prev.end <= 2:
            # adjacent sentences of one passage: one contiguous quote, one claim
            text = c.passage.text[prev.start - c.passage.start : c.sent.end - c.passage.start]
            claims[-1] = Claim(text, prev.source, text, prev.start, c.sent.end, prev.passage_id, prev.title,
                               max(prev.score, round(sc, 4)))
            continue
        claims.append(Claim(c.sent.text, c.passage.path, c.sent.text, c.sent.start, c.sent.end, c.passage.id,
                            c.passage.title, round(sc, 4)))
    if not best.passage.id.startswith("sql:"):
        claims = _widen(question, claims, {c.passage.id: c.passage for _, c in chosen})
        claims = _narrow_to_row(question, claims, {c.passage.id: c.passage for _, c in chosen})
        claims = narrow_to_condition(question, claims)  # the clause of the condition asked (clauses.py)
    claims = [Claim(row_sentence(c.text), c.source, c.quote, c.start, c.end, c.passage_id, c.title, c.score)
              if "|" in c.text else c for c in claims]
    found = _conflicting(question, scored[0][1], wide)
    own = claims[:1] + [q for q in claims[1:] if same_title(q.title, claims[0].title)]
    if not found and own:  # the value may be in another sentence the answer quotes from its document
        inside = (c for q in own for _, c in wide if c is not scored[0][1] and c.idx >= 0
                  and c.passage.id == q.passage_id and q.start <= c.sent.start and c.sent.end <= q.end)
        found = next((f for c in inside if (f := _conflicting(question, c, wide))), [])
    if not found and own:  # two versions of the answer's document disagree in a sentence the reader did not quote
        found = _two_versions(question, wide, claims[0].title)
    claims = _with_conflicting_claims(claims, found)
    answer = joined(claims)
    conflicts: list[dict[str, object]] = []
    for d, _ in found:  # the two sides of one version conflict carry the same description
        if d not in conflicts:
            conflicts.append(d)
    return Draft(answer, claims, conflicts)


def sentences_meeting_constraints(question: str, scored: list[tuple[float, _Cand]],
                        usable: Callable[[tuple[float, _Cand]], bool]) -> list[tuple[float, _Cand]]:
    """``scored`` without the sentences that miss a constraint of the question (another year, edition, quarter,
    place …: :mod:`checks.constraints`), read in the sentence, its title and section, its passage, when some ``usable``
    sentence meets them all and names one of them (a sentence silent on every constraint is no reason to drop the
    others): "2023年…第一批录取控制分数线" is answered by the 2023 sentence, not beside the 2022
    one (as a conflict). When none meets them, ``scored`` as it is (the checker declines the answer)."""
    asked = constraints.constraints_of(question)
    if asked and kind_of(fold(question).lower()) == "time":  # its answer names another time than the question's year
        asked = tuple(c for c in asked if c.kind not in ("year", "date"))
    if not asked:
        return scored

    def verdicts(x: tuple[float, _Cand]) -> list[bool]:
        p = x[1].passage
        year = constraints.document_year(p.text) if p.start == 0 else None
        return [ok for _, ok in constraints.decided(asked, [x[1].sent.text, f"{p.title} {p.section}", p.text], year)]

    judged = [(x, verdicts(x)) for x in scored]
    kept = [x for x, v in judged if all(v)]
    named = [x for x, v in judged if v and all(v)]  # meets a constraint it names, misses none
    return kept if any(usable(x) for x in named) else scored


def quote_share(question: str, passages: list[Scored], idf, claim: Claim) -> float | None:  # type: ignore[no-untyped-def]
    """How the extractive reader rates ``claim``'s quote as an answer: the best score of the sentences
    it overlaps, as a share of the best sentence of all ``passages`` (every passage read, not only the
    top three). Below :data:`RUNNER_UP_SHARE` the reader would not quote it even beside its own pick.
    None when the quote overlaps no scored sentence or no sentence scores above zero."""
    scored = score_sentences(question, passages, idf, max_passages=len(passages))
    if not scored or scored[0][0] <= 0:
        return None
    own = [sc for sc, c in scored if c.idx >= 0 and c.passage.id == claim.passage_id
           and c.sent.start < claim.end and claim.start < c.sent.end]
    return max(own) / scored[0][0] if own else None


_HEADING_NO = re.compile(r"^[一二三四五六七八九十\d]+[、.．]\s*")


def _narrow_to_row(question: str, claims: list[Claim], passages: dict[str, Passage]) -> list[Claim]:
    """The main claim narrowed to the table row whose key the question names (its own section kept
    as context), so "上海办事处的电话是多少？" gets that phone number, not the whole table."""
    main = claims[0]
    p = passages.get(main.passage_id)
    if p is not None and main.text.count("|") < 4:
        return _narrow_to_rendered_row(question, claims, p)
    if p is None:
        return claims
    section = _HEADING_NO.sub("", re.split(r"\s*[>›»/]\s*", p.section or "")[-1]).strip()
    terms = {t for t in tokens(question) if len(t) >= 2 and t not in section and t not in (p.title or "")}
    asked = digit_values(question)
    best: tuple[int, int, int, list[str]] | None = None
    offset = main.start
    for line in main.quote.splitlines(keepends=True):
        cells = table_cells(line)
        if cells and len(cells) >= 2:
            # the row whose range holds the asked value ("16年" → 满15年及以上) beats a header naming its words
            hits = 100 if asked and band_row_holds(line, asked) else sum(1 for t in terms if t in cells[0])
            if hits and (best is None or hits > best[0]):
                a = offset + len(line) - len(line.lstrip())
                best = (hits, a, a + len(line.strip()), cells)
        offset += len(line)
    if best is None:
        return claims
    _, start, end, cells = best
    quote = p.text[start - p.start : end - p.start]
    if not quote.strip():
        return claims
    text = (section if section and section not in cells[0] and section != p.title else "") + row_sentence(quote)
    # the cell the question asked for is the answer: the runners-up (other rows, other documents) go
    return [Claim(text, main.source, quote, start, end, main.passage_id, main.title, main.score)]


def _narrow_to_rendered_row(question: str, claims: list[Claim], p: Passage) -> list[Claim]:
    """The main claim narrowed to one of its rendered rows ("类别: USB存储；规定: …禁用U盘…。", each row carrying
    its headers): the one row holding more of the question's words than any other, or whose range holds the
    asked value; unchanged when the claim is not rows or no row stands out."""
    main = claims[0]
    if _DESCRIPTIVE_Q.search(fold(question).lower()):
        return claims  # "过期没签注会怎么样？": the sentences after the table explain, not one row
    question = query_text(question)  # a long message is read up to the bound, like everywhere
    terms = {t for t in tokens(question, search=True) if len(t) >= 2 or t.isascii()}
    asked = digit_values(question)
    scored: list[tuple[int, int, int]] = []
    offset = main.start
    for line in main.quote.splitlines(keepends=True):
        text = line.strip()
        if _ROW_KEY.match(text):
            words = set(tokens(text, search=True))
            hits = 100 if asked and band_row_holds(text, asked) else len(terms & words)
            a = offset + len(line) - len(line.lstrip())
            scored.append((hits, a, a + len(text)))
        offset += len(line)
    if len(scored) < 2:
        return claims
    scored.sort(key=lambda x: -x[0])
    if scored[0][0] == 0 or scored[0][0] == scored[1][0]:
        return claims
    _, start, end = scored[0]
    quote = p.text[start - p.start : end - p.start]
    if not quote.strip() or quote.strip() not in main.quote:
        return claims
    return [Claim(quote, main.source, quote, start, end, main.passage_id, main.title, main.score)]


def about_question(question: str, sentence: str) -> bool:
    """An English sentence that shares no word with an English question is about something else (English
    states its subject in every sentence; Chinese often leaves it out, so Chinese text always passes)."""
    return _mentions(_english_words(question), sentence)


def _english_words(question: str) -> frozenset[str] | None:
    """The words of an English question (None for a Chinese one): :func:`about_question`'s half per question."""
    if has_cjk(question):
        return None
    return frozenset(t for t in tokens(without_asking_phrases(question)) if len(t) >= 2)


def _mentions(words: frozenset[str] | None, sentence: str) -> bool:
    return words is None or _ANAPHOR.match(sentence.strip()) is not None or bool(words & set(tokens(sentence)))


def widen_span(question: str, sents: list[Sentence], first: int, last: int) -> tuple[int, int]:
    """Sentence indices [a, b] of a whole answer around sentences first..last (see module doc)."""
    a, b = first, last
    # the patterns are Simplified: Traditional text is folded ("為什麼", "於是", "這" read as 为什么, 于是, 这)
    if _DESCRIPTIVE_Q.search(fold(question).lower().replace("甚么", "什么")):
        a, b = max(0, a - 1), min(len(sents) - 1, b + 1)
    while a > 0 and a > first - 2 and _LEANS_BACK.search(fold(sents[a].text.strip())):
        a -= 1
    if b + 1 < len(sents) and _LEADS_ON.search(fold(sents[b].text.strip())):
        b = min(len(sents) - 1, b + 2)
    # a question asking for a time, number, person or place whose best sentence holds none gets the
    # neighbour that does: the question often paraphrases one sentence while the value sits in the next
    # ("…設立加工出口區來增加外貿收入" after "1960年代起，…")
    kind = answerable.asked_kind(question)
    if kind in _VALUE_KINDS and not any(answerable.fills(kind, fold(sents[k].text), question) for k in range(a, b + 1)):
        near = [k for k in (b + 1, a - 1) if 0 <= k < len(sents) and answerable.fills(kind, fold(sents[k].text), question)]
        # not a neighbour about something else ("The longest river … is the Blue River, 820 km long." after
        # "The Danube flows through Vienna.")
        near = [k for k in near if about_question(question, sents[k].text)]
        if near:
            # both neighbours give a value: the one that shares more of the question's words ("1388年，…李成桂進攻遼東"
            # for "李成桂在哪一年…反對出兵遼東", not the next sentence's "1392年，李成桂…自立為王")
            words = {t for t in tokens(fold(question), search=True) if len(t) >= 2}
            k = max(near, key=lambda k: len(words & set(tokens(fold(sents[k].text), search=True))))
            a, b = min(a, k), max(b, k)
    return a, b


_VALUE_KINDS = ("time", "number", "person", "place")
_ANAPHOR = re.compile(r"(?:it|its|this|that|these|those|they|their|he|his|she|her|the same)\b", re.IGNORECASE)


def _widen(question: str, claims: list[Claim], passages: dict[str, Passage], *,
           context_only: bool = False) -> list[Claim]:
    """The main claim widened to whole sentences around it; claims it now covers are dropped.
    ``context_only``: only when :func:`widen_span` adds a sentence (a precise quote inside one sentence stays)."""
    main = claims[0]
    p = passages.get(main.passage_id)
    if p is None:
        return claims
    sents = split_sentences(p.text, offset=p.start)
    idx = [i for i, x in enumerate(sents) if x.start < main.end and main.start < x.end]
    if not idx:
        return claims
    a, b = widen_span(question, sents, min(idx), max(idx))
    if context_only and (a, b) == (min(idx), max(idx)):
        return claims
    start, end = min(sents[a].start, main.start), max(sents[b].end, main.end)
    if (start, end) == (main.start, main.end):
        return claims
    text = p.text[start - p.start : end - p.start]
    wide = Claim(text, main.source, text, start, end, main.passage_id, main.title, main.score)
    return [wide] + [c for c in claims[1:] if not (c.passage_id == main.passage_id and c.start < end and start < c.end)]


def joined(claims: list[Claim]) -> str:
    """The claims as one answer text, each ended as a sentence."""
    return "".join(_terminate(c.text) for c in claims)


def _terminate(s: str) -> str:
    s = s.strip()
    return s if re.search(r"[。！？.!?；;]$", s) else s + "。"


CONFLICT_SHARE = 0.7
"""A second document's best sentence takes part in a conflict when it scores at least this share of the
best one (a copy of the same sentence scores the same less the rank penalty)."""


def _conflicting(question: str, lead: _Cand, scored: list[tuple[float, _Cand]]) -> list[tuple[dict[str, object], _Cand]]:
    """Sentences of other documents that give another value than the answer's sentence ``lead`` for what
    the question asks: per document, the best-scoring sentence that disagrees with it, among those that
    score at least :data:`CONFLICT_SHARE` of the lead. Scores are compared without the fused-rank
    penalty — a copy of the same sentence is as good an answer wherever its document ranks."""
    if lead.idx < 0:
        lead = next((c for _, c in scored if c.idx >= 0 and c.passage.path == lead.passage.path), lead)
    if lead.idx < 0:
        return []
    plain = [(sc + RANK_PENALTY * c.rank, c) for sc, c in scored if c.idx >= 0]
    lead_score = next((sc for sc, c in plain if c is lead), 0.0)
    if lead_score <= 0:
        return []
    out: list[tuple[dict[str, object], _Cand]] = []
    done = {lead.passage.path}
    for sc, c in sorted(plain, key=lambda x: -x[0]):
        if sc < CONFLICT_SHARE * lead_score or len(done) > 4:
            break
        if c.passage.path in done:
            continue
        found = value_conflict(question, lead.sent.text, c.sent.text, context_a=lead.passage.title,
                                      context_b=c.passage.title)
        if found is not None and about_asked(question, found):
            values = found["values"]
            same = isinstance(values, list) and one_statement(lead.sent.text, c.sent.text, values,
                                                                     title_a=lead.passage.title, title_b=c.passage.title)
            done.add(c.passage.path)
            out.append(({"sources": [lead.passage.path, c.passage.path], "quotes": [lead.sent.text, c.sent.text],
                         "titles": [lead.passage.title, c.passage.title], **found,
                         "same_statement": same}, c))
    return out


_QUANTITY = re.compile(r"^[±+\-约]?[\d零一二两三四五六七八九十百千万亿.,，]+\s*\S{0,2}$")


def about_asked(question: str, found: dict[str, object]) -> bool:
    """The values two sentences disagree on are of the kind the question asks for: a count or a date
    for "多少"/"哪一年", not a date for "在哪里" ("1999年7月" against "475年9月" is no disagreement about
    a birthplace). Yes/no disagreements and questions of no typed kind always count."""
    values = found.get("values")
    if "polarity" in found or not isinstance(values, list) or len(values) != 2:
        return True
    kind = answer_type(question)
    sides = [" ".join(map(str, v)) for v in values]
    if kind == "number":
        return all(_HAS_NUM.search(v) for v in sides)
    if kind == "time":
        return all(_HAS_TIME.search(v) for v in sides)
    if kind in ("person", "place"):
        return not all(_QUANTITY.match(str(x).strip()) for v in values for x in v)  # type: ignore[union-attr]
    return True


def find_conflicts(question: str, scored: list[tuple[float, _Cand]]) -> list[dict[str, object]]:
    """Different values for what the question asks between the best sentence and the sentences of other
    documents (numbers, dates, names, places, yes/no: :func:`knowzero.knowledge.answer.checks.conflicts.value_conflict`)."""
    if not scored:
        return []
    return [d for d, _ in _conflicting(question, scored[0][1], scored)]


def _two_versions(question: str, wide: list[tuple[float, _Cand]], title: str) -> list[tuple[dict[str, object], _Cand]]:
    """Two versions of one statement (:func:`_conflicting`'s ``same_statement``: one value changed) in two
    versions of the answer's document (``title``), among the sentences scoring at least :data:`CONFLICT_SHARE`
    of the best, naming the question's words: the answer's own sentence may be a third one (the film's lead
    sentence, beside "in 2006 / in 2015 she received a star"). Both sentences join the answer's claims."""
    plain = sorted(((sc + RANK_PENALTY * c.rank, sc, c) for sc, c in wide if c.idx >= 0), key=lambda x: -x[0])
    if not plain or plain[0][0] <= 0:
        return []
    strong = [(sc, c) for p, sc, c in plain if p >= CONFLICT_SHARE * plain[0][0] and same_title(c.passage.title, title)]
    for _, a in strong:
        for found, b in _conflicting(question, a, strong):
            values = found["values"]
            if found["same_statement"] and isinstance(values, list) \
                    and answerable.conflict_fills_slot(question, values, [a.sent.text, b.sent.text], typed=False):
                return [(found, a), (found, b)]
    return []


def _with_conflicting_claims(claims: list[Claim], found: list[tuple[dict[str, object], _Cand]]) -> list[Claim]:
    """Every conflicting sentence is quoted and cited, so the reader sees both values with their sources."""
    out = list(claims)
    for _, c in found:
        if not any(x.passage_id == c.passage.id and x.start <= c.sent.start and c.sent.end <= x.end for x in out):
            out.append(Claim(c.sent.text, c.passage.path, c.sent.text, c.sent.start, c.sent.end, c.passage.id,
                             c.passage.title))
    return out


READER_SCHEMA = {
    "type": "object",
    "required": ["answer", "claims"],
    "properties": {
        "answer": {"type": "string", "maxLength": 160},
        "claims": {"type": "array", "maxItems": 3, "items": {
            "type": "object", "required": ["text", "passage", "quote"],
            "properties": {"text": {"type": "string", "maxLength": 80}, "passage": {"type": "integer"},
                           "quote": {"type": "string", "maxLength": 120}}}},
    },
}
"""Lengths are bounded so the whole object fits ``max_tokens`` (a server that enforces the schema, like the local
model's grammar, then always returns valid JSON: unbounded, a third of the local model's replies were cut off);
a quote cut at its bound is still verbatim."""


def llm_read(provider: ChatProvider, question: str, passages: list[Scored], *, language_hint: str = "") -> Draft:
    """Generated answer in the same schema; claims without a verbatim quote are dropped."""
    blocks = "\n\n".join(f"[{i + 1}] ({s.passage.title} / {s.passage.section})\n{s.passage.text}"
                         for i, s in enumerate(passages))
    system = ("You answer only from the numbered passages. Reply with JSON: {\"answer\": str, \"claims\": "
              "[{\"text\": one claim of the answer, \"passage\": passage number, \"quote\": exact text copied "
              "from that passage that supports the claim}]}. If the passages do not contain the answer, reply "
              "{\"answer\": \"\", \"claims\": []}. " + language_hint)
    data = chat_json(provider, [{"role": "system", "content": system},
                                {"role": "user", "content": f"Passages:\n{blocks}\n\nQuestion: {question}"}],
                     READER_SCHEMA, max_tokens=600)
    claims: list[Claim] = []
    dropped = 0
    for c in data.get("claims") or []:
        if not isinstance(c, dict):
            dropped += 1
            continue
        try:
            idx = int(c.get("passage", 0)) - 1
        except (TypeError, ValueError):
            dropped += 1
            continue
        quote = str(c.get("quote", "")).strip()
        if not (0 <= idx < len(passages)) or len(quote) < 2:
            dropped += 1
            continue
        p = passages[idx].passage
        pos = _find_quote(p.text, quote)
        if pos is None:
            dropped += 1
            continue
        a, b = pos
        claims.append(Claim(str(c.get("text") or quote), p.path, p.text[a:b], p.start + a, p.start + b, p.id, p.title))
    if not claims:
        raise ProviderError("the model's answer had no claim quoting a passage")
    if claims[0].text.strip() == claims[0].quote.strip():
        # a verbatim quote gets the context the offline reader gives any sentence it quotes (the sentence a
        # "这项制度" refers to, a why-question's cause next to it): the same rules, whoever chose the sentence
        claims = _widen(question, claims, {s.passage.id: s.passage for s in passages}, context_only=True)
    notes = [f"dropped {dropped} claim(s) whose quote was not in the cited passage"] if dropped else []
    return Draft(str(data.get("answer") or " ".join(c.text for c in claims)), claims, [], "llm", notes)


def _find_quote(text: str, quote: str) -> tuple[int, int] | None:
    i = text.find(quote)
    if i >= 0:
        return i, i + len(quote)
    # whitespace-insensitive match, mapped back to original offsets
    compact = [(j, ch) for j, ch in enumerate(text) if not ch.isspace()]
    hay = "".join(ch for _, ch in compact)
    needle = "".join(normalize(quote).split())
    k = hay.find(needle)
    if k < 0 or not needle:
        return None
    return compact[k][0], compact[k + len(needle) - 1][0] + 1
