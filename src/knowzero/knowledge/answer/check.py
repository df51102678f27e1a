"""The knowledge checker: a draft's claims and evidence → findings → the verdict (through ``policy``).

One checker for every caller: chat and ``/v1/ask`` (the graph's check node and :func:`answer`), the service
detour, comment questions, and learning's model-written sentences (:func:`check_written`). Each check it runs
is a pure function in ``checks/``; each decision it applies is a rule of ``policy``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from knowzero.errors import ProviderError
from knowzero.knowledge.answer import aggregate, cells, policy
from knowzero.knowledge.answer.checks import answerable, constraints, premise, verify
from knowzero.knowledge.answer.checks.injection import describe, find_instructions
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.judge import STRICTER, judge_answer
from knowzero.knowledge.answer.reader import Claim, Draft, joined, slot_terms
from knowzero.knowledge.answer.reply import shown_values
from knowzero.knowledge.answer.retriever import SUMMING, key_terms, stem, summing_word
from knowzero.knowledge.index import entities as ent
from knowzero.knowledge.index.bands import band, counts_in_digits, in_other_units, is_unit, quantities
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.rows import row_cells, row_fields, row_sentence
from knowzero.knowledge.text import (
    fold,
    has_cjk,
    iter_numbers,
    names_nothing,
    pos_tags,
    split_sentences,
    tokens,
    told_and_asked,
)
from knowzero.knowledge.types import Passage, Scored
from knowzero.llm.base import within_deadline
from knowzero.streaming import llm_fallback
from knowzero.understanding.analysis import Analysis, of
from knowzero.vocabulary.questions import (
    END_EVENTS,
    UNCONFIRMED,
    asked_event,
    asked_unit,
    asked_value,
    deferred_only,
    gives_count,
    gives_end,
    gives_time,
    gives_unit,
    gives_value,
    names_role,
    news_item,
    pending_only,
)


# ----- 4. check --------------------------------------------------------------------------------
def claim_similarity(kb: KnowledgeBase, claim: str, quote: str) -> float:
    """Cosine of the bundled retrieval model between a generated claim and the quote it cites."""
    enc = kb.encoder
    return float(enc.passages([quote])[0] @ enc.query(claim))


def quote_window(src: str, c: Claim) -> str:
    """A claim's quote with up to 200 characters of its document on each side."""
    return src[max(0, c.start - 200): c.end + 200] if src else c.quote


def claim_context(kb: KnowledgeBase, c: Claim, p: Passage | None) -> str:
    """What coverage is measured on: the passage's title and section, and the quote's window."""
    return f"{p.title if p else ''} {p.section if p else ''} {quote_window(kb.file_texts.get(c.source, ''), c)}"


_VALUE_NAMES = {"money": "amount of money", "phone": "phone number", "speed": "speed", "length": "length",
                "weight": "weight"}


def _names_subject(terms: Sequence[tuple[str, float]], indexed: Callable[[str], bool], context: str) -> bool:
    """The quote or its context (title, section, the text around it) holds the question's subject: one of its
    rarest content words that the knowledge base uses (weight at least 0.8 of the rarest's; not a word asking
    for the value, "电话"). "每人的体检费用标准是多少钱？" is not answered by the hospitality rule's "人均标准不超过200元"
    beside the check-up leave: it shares 费用 and 标准, not 体检."""
    text = context.lower()
    named = [(t.lower(), w) for t, w in terms if w > 0 and not t.isdigit() and not asked_value(t.lower()) and indexed(t)]
    return not named or any(answerable.present(t, text) or t.replace("-", " ") in text  # after-hours: after hours
                            for t, _w in answerable.rarest(named))


def story_words(a: Analysis, indexed: Callable[[str], bool]) -> list[str]:
    """The things the asker's Chinese story names that no document uses ("我哥哥现在在青禾读大三，…" → 哥哥): its nouns
    by the tagger (not a segmentation artefact such as 带实 of "带实训课"). An English story's words are not read
    (no tagger: "G6 here, flying 10 hours…" would name "here")."""
    if not a.told or (split := told_and_asked(a.text)) is None or not has_cjk(split[0]):
        return []
    nouns = {w for w, flag in pos_tags(split[0]) if flag.startswith("n")}

    def named(t: str) -> bool:  # a compound whose parts the documents use ("物业费" of 物业服务费) is theirs
        parts = [p for p in tokens(t, search=True, keep_stopwords=True) if p != t and len(p) >= 2]
        return indexed(t) or bool(parts) and all(indexed(p) for p in parts)

    return [t for t in a.told if t in nouns and not re.search(r"\d", t) and not is_unit(t) and not named(t)]


def check_draft(kb: KnowledgeBase, question: str, draft: Draft, passages: Sequence[Scored],
                analysis: Analysis | None = None) -> policy.Verdict:
    """The deterministic verdict for a draft (pure over the knowledge base's texts); ``analysis`` is the
    question's, made once for the turn (made here when a caller has none)."""
    a = of(question, analysis)
    claims = draft.claims
    by_id = {s.passage.id: s.passage for s in passages}
    verdicts = []
    quotes_ok = True
    evidence_texts = []
    extractive = draft.method in ("extractive", "computed", "lookup")
    for c in claims:
        src = kb.file_texts.get(c.source, "")
        if not verify.quote_matches(src, c.quote, c.start, c.end):
            quotes_ok = False
        context = quote_window(src, c)
        evidence_texts.append(claim_context(kb, c, by_id.get(c.passage_id)))
        verbatim = extractive or c.text.strip() == c.quote.strip()
        sim = None if verbatim else claim_similarity(kb, c.text, c.quote)
        # the model's own words are held against the quote itself, not only the text around it, and must be
        # about what the quote is about ("零件A的公差为±0.05mm" citing "零件B（XH-1002，公差±0.05mm）")
        cv = (verify.check_claim(c.text, c.quote, question=question, verbatim=True) if verbatim
              else check_written(question, c.text, c.quote, context=context, similarity=sim))
        verdicts.append(cv)
    terms = key_terms(kb, question)
    # Abstention: the evidence must cover the question's key terms. Coverage is measured on the cited
    # passage and on the best retrieved passage, each with its title, section path and document text;
    # the better of the two counts (a precise quote from a lower-ranked passage is not penalised).
    cited = (by_id.get(claims[0].passage_id) or kb.passage(claims[0].passage_id)) if claims else None
    best = passages[0].passage if passages else None
    cov = 0.0
    exact = False
    for p in (cited, best):
        if p is None:
            continue
        if p.id.startswith("sql:") and p is cited and (draft.method != "extractive" or kb.sql is not None
                                                        and kb.sql.ranked_for(question, p.id)):
            cov, exact = 1.0, True  # a structured query fired on a value or column the question names: exact evidence
            break
        # a row the reader merely quotes (its table holds a value the question names: "the Lakes") covers the
        # question as any passage does: "Up to when can I cancel?" is not answered by a room of that hotel
        doc_text = kb.file_texts.get(p.path, "")[:4000]
        cov = max(cov, verify.coverage(terms, f"{p.title} {p.section} {p.text} {doc_text}"))
    cited_sql = cited is not None and cited.id.startswith("sql:")
    cov_sent = 1.0 if exact else verify.coverage(terms, " ".join(evidence_texts))
    q_ents = ent.expand(set(a.entities), kb.aliases)
    entity_ok = True
    if q_ents and claims:
        cited_ents: set[str] = set()
        for c in claims:
            cited_ents |= set(kb.doc_entities.get(c.source, frozenset())) | ent.extract(c.quote)
        entity_ok = not cited_ents or bool(q_ents & cited_ents)
    sim = None
    if policy.needs_similarity(cov) and cited is not None:
        sim = kb.dense.similarity(kb.query_vector(question), cited.id)
    v = policy.judge(verdicts, coverage_value=cov, sentence_coverage=cov_sent, entity_ok=entity_ok,
                     conflicts=len(draft.conflicts), quotes_ok=quotes_ok, similarity=sim)
    if policy.declined_for_coverage(v):
        # two versions of one statement with the asked value changed: the sources do speak to the question
        # (a reworded question covers few of their words) and disagree — named for review, never declined
        v = disputed_slot(question, v, same_statement(draft.conflicts), typed=False)
    # a Chinese word no document of the knowledge base writes, in either language (刮痧): nothing about it was read
    # (not 一共, which asks to add up, nor the 个人 the segmenter cuts from 几个人: a measure word of the question word)
    absent = [w for w in a.untranslated if _HAN_WORD.fullmatch(w) and not kb.keyword.has_term(w) and not names_nothing(w)
              and not summing_word(w) and not re.search(f"(?:几|多少){w}", a.text)]
    # an English word the documents write as typed ("hire", "bikes" of an English handbook) is no gap of a translation:
    # the answer is in the typed language's documents, not in what the other language's reading found
    written = [w for w in a.untranslated if w.isascii() and len(w) >= 4
               and (kb.keyword.has_term(w.lower()) or kb.keyword.has_term(stem(w.lower())))]
    # a count or a sum over a reading without one of the question's words left a filter out ("How many staff can sign
    # the controlled drugs register?" read as 签字名册有多少员工: every row counted), as a yes/no may ask another question
    v = policy.untranslated(v, a.untranslated, a.yes_no or draft.method == "computed", absent, written,
                            _lost_subject(kb, a))
    if story := story_words(a, kb.keyword.has_term):
        v = policy.story_unmet(v, story[0])  # left out of the coverage (key_terms): never confirmed unread
    if cited is not None and a.constraints and (off := constraint_missed(kb, a, claims, by_id)):
        return policy.constraint_missed(v, off)  # a row of the 2026 rate card for "the 2025 rate card"
    if cited is not None and not cited_sql and (aside := subject_aside(kb, asked_names(a, terms), claims[0], cited, a)):
        return policy.subject_aside(v, aside)
    if cited is not None and cited_sql and draft.method == "extractive" and kb.sql is not None and \
            not (a.yes_no and row_says(question, claims[0].quote)) and \
            (why := cells.row_misses(kb.sql, cited.id, question, a.asked_kind)):
        return policy.row_misses(v, why)
    if v.level == "confirmed" and cited is not None and cited_sql and draft.method == "extractive" and kb.sql is not None \
            and (rule := cells.rule_beside(kb.sql, cited.id, question)):
        return policy.rule_unapplied(v, rule)  # the row quoted as it stands, a rule for the asker's case beside it
    if v.level == "confirmed" and draft.method == "extractive" and aggregate.asks_to_compute(a.typed or question) and (
            cited_sql or claims and all(_labelled_row(c.quote) for c in claims)):
        # (rows of a CSV's text too: two labelled fields or more, "sku: …；stock_qty: 0")
        # "Among our drivers, who has the most years…?" answered by quoting a driver's row: no ranking was computed
        return policy.total_not_computed(v, "a count, a sum or a ranking")
    if v.level == "confirmed" and (draft.method == "lookup" or draft.method == "extractive" and (
            cited_sql or len(claims) == 1 and _ROW_QUOTE.fullmatch(claims[0].quote.strip()))) and \
            (total := SUMMING.search(question)):
        # "…的员工，年假一共有几天？" answered by one cell: a total of several (年假 and 司龄假) is not computed
        return policy.total_not_computed(v, total.group(0))
    if v.level == "confirmed" and draft.method == "extractive" and len(claims) >= 2 and (added := _ADDED_UP.search(question)):
        # "…物业费加上电梯费、二次供水费，一共要交多少？" answered by the rows to add: the total is not computed
        return policy.total_not_computed(v, added.group(0))
    if (cited is None or cited_sql) and draft.method == "extractive" and a.asked_value and claims and \
            not any(gives_value(a.asked_value, c.quote) for c in claims):
        # "…空置满6个月…打完一个月多少钱？" answered by the unit's row and the discount rule: no amount is quoted
        # (a quote of a row is not read by the checks below; a passage of none of the retrieved is not either)
        return policy.asked_value_missing(v, _VALUE_NAMES.get(a.asked_value, a.asked_value))
    if draft.method == "lookup" and (n := number_unused_by_row(question, [c.quote for c in claims] + draft.notes)):
        return policy.uncomputed(v, n)
    if draft.method == "lookup" and (ratio := _RATIO.match(draft.answer.strip())) and _COUNT_ASKED.search(question):
        return policy.ratio_not_count(v, ratio.group(0))
    if (draft.method == "lookup" or cited_sql and draft.method == "extractive") and (after := _AFTER_RULE.search(question)):
        # "What's his Autumn term tuition after the sibling discount?" answered by the fee as listed (its cell or its
        # row): the discount is still to be applied (a rule the lookup applies is a computed draft, not this one)
        return policy.total_not_computed(v, after.group(0))
    if cited is None or cited_sql:
        return v
    if sim is None:
        sim = kb.dense.similarity(kb.query_vector(question), cited.id)
    doc = f"{cited.title} {cited.section} {kb.file_texts.get(cited.path, '')[:20000]}"
    f = answerable.features(question, terms, doc_text=doc, title=cited.title, quotes=[c.quote for c in claims],
                            contexts=evidence_texts, similarity=sim)
    prob = answerable.score(f)
    v = policy.scored(v, prob, f.to_dict())
    v = answerability_gate(question, v, prob, f, draft.conflicts)
    if v.level == "insufficient":
        return v
    if a.asked_value and claims and not any(gives_value(a.asked_value, c.quote)
                                            and _names_subject(terms, kb.keyword.has_term, context)
                                            for c, context in zip(claims, evidence_texts, strict=False)):
        # the value must stand in a quote about what the question names: a colleague's phone line beside
        # "安全员梁晓岚负责每周安全巡查" is not her number
        return policy.asked_value_missing(v, _VALUE_NAMES.get(a.asked_value, a.asked_value))
    kind = a.asked_kind
    about = slot_terms(a.folded)[-1:] if kind == "number" else []
    if about and policy.answers(v) and any(about[0] in c.quote for c in claims) \
            and all(deferred_only(about[0], c.quote) for c in claims if about[0] in c.quote):
        return policy.deferred(v, about[0])  # "婚假有几天？" over "婚假…的天数，按国家和本省的有关规定执行"
    if extractive and claims and (lack := news_slot_unmet(kb, a, claims, by_id)):
        return policy.news_slot_unmet(v, lack)  # "首场门票开售后不到3分钟即告售罄" for when tickets go on sale
    if v.level == "confirmed" and f.slot == 0.0 and (kind == "number" or (kind is not None and not extractive)):
        # a model may quote a real line that holds no value of the asked kind (a table's header row for
        # "零件D的公差是多少？"), the offline reader a sentence about the subject without the number asked
        # ("The Danube flows through Vienna." for "How long is the Danube?"): never confirmed. (The offline
        # reader's person/place/time slots are not checked: on CMRC/DRCD a third of its right answers have
        # none the slot patterns recognise; its numbers they do recognise.)
        return policy.no_value_of_kind(v, kind, quoted=kind == "number" and draft.method == "extractive" and (
            not any(gives_count(c.quote) for c in claims)  # no number but dates anywhere in the quotes
            or news_slot_unmet(kb, a, claims[:1], by_id) is not None))  # the main claim, news, gives no such figure
    if kind is not None and claims and all(pending_only(kind, c.quote) for c in claims):
        return policy.not_yet_known(v)  # "具体失联人数正在进一步核查中"
    if v.level == "confirmed" and draft.method == "extractive" and (unused := quantity_unused(question, evidence_texts)):
        return policy.uncomputed(v, unused)
    if v.level == "confirmed" and a.approver and not any(names_role(c.quote) for c in claims):
        # "需要谁批准？" answered by a line that names nobody who approves (the leave table's days)
        return policy.no_value_of_kind(v, "approver")
    if v.level == "confirmed" and (unknown := answerable.unknown_terms(question, terms, doc, kb.keyword.doc_freq)):
        return policy.unknown_term(v, unknown[0])
    if v.level == "confirmed" and f.subject == 0.0:
        return policy.subject_absent(v, max(terms, key=lambda tw: tw[1])[0])
    return v


def news_slot_unmet(kb: KnowledgeBase, a: Analysis, claims: Sequence[Claim],
                    by_id: dict[str, Passage] | None = None) -> str | None:
    """What the question asks that no claim's sentence gives, when a claim is quoted from a dated news item
    (:func:`news_item`: "本报讯 2023年4月21日电", "新华社江州2月5日电"): for a time, a date besides the dateline in a
    sentence that names the asked event (:func:`asked_event`: "开售", "首航"); for a count or amount, a number
    that is no date (in the unit the question names, :func:`asked_unit`: "多少人次", "奖金是多少"). A sentence saying the
    value is not known yet, or reports it as a rumour or an estimate, gives none; nor does a claim that misses a
    constraint of the question (another edition's, year's, place's figure). None when some sentence gives it, or no claim is a news item's.
    Policies and reference texts (no dateline) are not read this way: a paraphrased event is theirs to judge."""
    kind = a.asked_kind
    units = asked_unit(a.folded) if kind == "number" else ()
    event = asked_event(a.folded) if kind == "time" else None
    if kind not in ("time", "number"):
        return None
    if not any(news_item(kb.file_texts.get(c.source, "")) for c in claims):
        return None  # news beside an excerpt of another page is read as news
    words = _event_words(event) if event else []
    for c in claims:
        if a.constraints and claim_misses(kb, a, c, by_id or {}):
            continue  # the ninth festival's visitors are no answer for the tenth's
        for s in split_sentences(c.quote):
            text = fold(s.text)
            if pending_only(kind, text) or UNCONFIRMED.search(text):
                continue  # "伤亡人数仍在统计中", "起售价或控制在4000元以内，但这一说法未获官方证实"
            if kind == "time" and gives_time(_apposed_dates_out(text, a.terms, words)) \
                    and (not words or any(w in text for w in words) or event in END_EVENTS and gives_end(text)):
                return None
            if kind == "number" and (gives_unit(units, text) if units else gives_count(text)):
                return None
    if kind == "time":
        return f"date for 「{event}」" if event else "date besides their own"
    return f"number in {units[0]}" if units else "number"


_APPOSED = re.compile(r"[（(][^（）()]{0,16}[）)]")


def _apposed_dates_out(text: str, terms: Sequence[str], event: Sequence[str]) -> str:
    """``text`` without the dates set in brackets after a word of the question that is not its event: "2022年春运
    首日（1月17日）的火车票今天正式开售" gives the first day's date, not the day tickets go on sale.

    >>> _apposed_dates_out("春运首日（1月17日）的火车票今天开售", ["春运", "首日", "开售"], ["开售"])
    '春运首日的火车票今天开售'
    """
    def cut(m: re.Match[str]) -> str:
        before = text[max(0, m.start() - 4):m.start()]
        named = any(t in before or before.endswith(t[-2:]) for t in terms if t not in event and len(t) >= 2)
        return "" if named and gives_time(m.group(0)) else m.group(0)
    return _APPOSED.sub(cut, text)


def _event_words(phrase: str) -> list[str]:
    """The two-character words of an event phrase ("开通运营" → 开通, 运营; "开售" → 开售)."""
    return [w for w in tokens(phrase, search=False) if len(w) >= 2] or [phrase]


def constraint_missed(kb: KnowledgeBase, a: Analysis, claims: Sequence[Claim], by_id: dict[str, Passage]) -> str | None:
    """The question's constraint (as written) that the answer's first claim misses (:func:`claim_misses`); None
    when it meets them all."""
    off = claim_misses(kb, a, claims[0], by_id) if claims else []
    return off[0].written if off else None


def claim_verdicts(kb: KnowledgeBase, a: Analysis, c: Claim, by_id: dict[str, Passage]) -> list[bool]:
    """Whether ``c`` meets each constraint it speaks to (:func:`claim_misses`' reading; none: silent on all)."""
    return [ok for _, ok in constraints.decided(a.constraints, *_claim_layers(kb, a, c, by_id))] if a.constraints else []


def claim_misses(kb: KnowledgeBase, a: Analysis, c: Claim, by_id: dict[str, Passage]) -> list[constraints.Constraint]:
    """The question's constraints ``c`` misses, read in its own context, nearest first: the quote's sentence that
    gives the asked value, the whole quote, its title and section, the text around it (a cohort table's note
    beside its row); its document's "今年" is the document's year."""
    return constraints.missed(a.constraints, *_claim_layers(kb, a, c, by_id))


def _claim_layers(kb: KnowledgeBase, a: Analysis, c: Claim, by_id: dict[str, Passage]) -> tuple[list[str], int | None]:
    src = kb.file_texts.get(c.source, "")
    p = by_id.get(c.passage_id) or kb.passage(c.passage_id)
    heading = f"{p.title} {p.section}" if p is not None else c.title
    layers = [*([value_sentence(c.quote, a)] if a.asked_kind is not None else []), c.quote, heading, quote_window(src, c)]
    return layers, constraints.document_year(src)


ASIDE_CHARS = 20000
"""How much of a cited document :func:`subject_aside` reads (a value beyond it is never judged an aside)."""
_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
_WORK_TITLE = re.compile(r"《[^》]*》")
"""A work's title in the question (《中統建元詔》): its words name the work, not a subject it is compared with."""


def asked_names(a: Analysis, terms: Sequence[tuple[str, float]]) -> list[str]:
    """The question's key terms that are names (a person, place, organisation: by part of speech; not the words of
    a work's title), lower-cased — what :func:`subject_aside` looks for; none when no typed value is asked."""
    if a.asked_kind is None or a.yes_no:
        return []  # no value asked: no sentence that gives it
    names = {w.lower() for w, tag in pos_tags(_WORK_TITLE.sub("，", a.text)) if tag in _NAME_TAGS and len(w) >= 2}
    return [t.lower() for t, _ in terms if t.lower() in names]


def subject_aside(kb: KnowledgeBase, names: Sequence[str], c: Claim, p: Passage | None, a: Analysis) -> str | None:
    """One of the question's ``names`` (:func:`asked_names`) that ``c``'s document names only after the sentence that
    gives the asked value
    (:func:`value_sentence`; the quote's end when no sentence gives it), and neither in its title nor its section:
    the quote is about something else, which the text later compares with the asked subject ("鼎芯科技…第二季度
    营收42.1亿元。鼎芯科技与华屹电子同为…" for 华屹电子's revenue). None otherwise (named before or in that
    sentence, in the heading, or nowhere in the document: a paraphrase is the other checks' matter)."""
    if not names:
        return None
    doc = fold(kb.file_texts.get(c.source, "")[:ASIDE_CHARS]).lower()  # bounded per claim, as the answerability check
    named = [t for t in names if t in doc]
    if not named:
        return None
    heading = fold(f"{p.title} {p.section}" if p is not None else c.title).lower()
    end = c.end
    if (sentence := value_sentence(c.quote, a)) != c.quote:
        end = c.start + c.quote.find(sentence) + len(sentence)
    return next((t for t in named if doc.find(t) >= end and t not in heading), None)


def meeting_constraints(kb: KnowledgeBase, draft: Draft, passages: Sequence[Scored], a: Analysis) -> Draft:
    """The quoted draft without the claims that miss a constraint of the question, when one claim meets them all:
    "临溪县…失联" is not answered beside 云岭县's landslide, nor "2023年第一季度" beside the 2022 figure (and two
    such claims are no conflict). A draft whose every claim misses stays whole (the checker declines it)."""
    if draft.method != "extractive" or len(draft.claims) < 2:
        return draft
    by_id = {s.passage.id: s.passage for s in passages}
    names = asked_names(a, key_terms(kb, a.text)) if a.asked_kind is not None and not a.yes_no else []
    judged = [(c, claim_verdicts(kb, a, c, by_id)) for c in draft.claims]
    kept = [c for c, v in judged if all(v)
            and not subject_aside(kb, names, c, by_id.get(c.passage_id) or kb.passage(c.passage_id), a)]
    if not kept or len(kept) == len(draft.claims) or a.constraints and not any(v and all(v) for _, v in judged):
        return draft  # none meets, or none names a constraint it meets: nothing to prefer
    sources = {c.source for c in kept}
    return replace(draft, claims=kept, answer=joined(kept),
                   conflicts=[d for d in draft.conflicts if set(map(str, _listed(d.get("sources")))) <= sources])


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []


def value_sentence(quote: str, a: Analysis) -> str:
    """The sentence of ``quote`` that gives the asked kind of value and names most of the question's words (the whole
    quote when none gives it): the nearest context of the answer. "鹿原市…分数线为596分。鹿原市与清渠市相同…" answers for 鹿原市."""
    giving = [s.text for s in split_sentences(quote)  # a number asked: not the date of a news item's opening line
              if a.asked_kind == "number" and _DIGIT.search(s.text) and gives_count(s.text) or a.asked_kind not in (None, "number")
              and answerable.fills(a.asked_kind, fold(s.text), a.text)]
    if not giving:
        return quote
    words = [t.lower() for t in a.terms]
    return max(giving, key=lambda s: sum(w in fold(s).lower() for w in words))  # the first of the best


_DIGIT = re.compile(r"\d")
_ROW_QUOTE = re.compile(r"\|.*\||[^。；;：:|]{1,30}[:：][^。；;]{1,40}。?")
"""A quote that is one table row ("| 满5年不满10年 | 9天 |", "满5年不满10年：9天"): one value, no total of several."""
_ADDED_UP = re.compile(r"一共|总共|合计|共计|加起来|加在一起|加上|(?:打|减)完|(?:打折|折|优惠|减免)后|算下来|"
                       r"in total|altogether|add(?:ed)? up|combined|after (?:the )?discount", re.I)
"""Words asking for a total of several values, or a value after a rule is applied to it ("打完一个月多少？")."""
_AFTER_RULE = re.compile(r"(?:打折|折|优惠|减免|抵扣)后|(?:打|减)完|after (?:the |a |any |my |our |his |her )?"
                         r"[\w-]*\s*(?:discount|reduction|rebate|allowance)", re.I)
"""A value asked after a rule is applied to it ("折后", "after the sibling discount")."""
_AMOUNT_ASKED = re.compile(r"how much|多少钱|多少元|一共|总共|合计|共计|in total|\btotal\b|altogether|come to", re.I)


def _lost_subject(kb: KnowledgeBase, a: Analysis) -> str:
    """The typed question's rarest word when its translated reading has no counterpart for it ("公积金" read as "how
    many staff scale?"): what was found is about the rest of the question; "" otherwise."""
    if not (a.untranslated and a.typed and (typed := key_terms(kb, a.typed))):
        return ""
    subject, weight = max(typed, key=lambda tw: tw[1])
    return subject if subject in a.untranslated and weight > 0 else ""


def quantity_unused(question: str, evidence: Sequence[str]) -> str | None:
    """A quantity the question gives ("40-hour", "5天") that no cited text holds, when it asks for an amount (how
    much, 一共): the amount is to be computed from it; None otherwise.

    >>> quantity_unused("A W3 works a standard 40-hour week. How much shift allowance is that?", ["Night: £2.65 per hour"])
    '40'
    >>> quantity_unused("我出差5天，住宿费一共多少钱？", ["出差5天以内的，住宿费按每晚500元报销"]), quantity_unused("司龄6年有几天年假？", ["10天"])
    (None, None)
    >>> quantity_unused("年卡办了四个月想退，能退百分之多少？", ["自办卡之日起: 31天至180天；退款标准: 按剩余天数折算金额的60%退还"])
    """
    if not _AMOUNT_ASKED.search(question):
        return None
    text = " ".join(evidence)
    held = set(re.findall(r"\d+(?:\.\d+)?", unicodedata.normalize("NFKC", text).replace(",", "")))
    bands = [b for piece in re.split(r"[；;:：\n]", text) if (b := band(piece.strip())) is not None]
    for value, unit in quantities(question):
        shown = f"{value:g}"
        if "." in shown and shown.endswith("01"):
            continue  # "超过5000" is read as the band just above 5000: a threshold, no quantity to use
        if shown not in held and not any(b.holds(x, u) for b in bands for x, u in [(value, unit), *in_other_units([(value, unit)])]):
            return f"{shown}{unit}" if has_cjk(question) else shown  # (a band of the cited row holding it chose the row)
    return None


_RATIO = re.compile(r"\d+\s*[:：]\s*\d+(?![\d:：])")
_COUNT_ASKED = re.compile(r"how many|number of|多少(?:个|名|位|人)|几(?:个|名|位|人)", re.I)


_NOT_ASKING = frozenset("能 可 可以 会 要 需 需要 是 有 还 得 让 想 用".split())
_FLAG_VALUES = frozenset("有 无 是 否 可 不可 允许 不允许".split())


def row_says(question: str, row: str) -> bool:
    """A Chinese yes/no question's table row answers it when a cell beside the row's key writes the question's own
    verb ("处方药买了能退吗？" of the row "处方药 | 不退换 | 30天内可退换"): the cell is the yes or the no.

    >>> row_says("处方药买了能退吗？", "商品类别: 处方药；非质量问题: 不退换；质量问题: 30天内可退换")
    True
    >>> row_says("处方药能打折吗？", "商品类别: 处方药；非质量问题: 不退换；质量问题: 30天内可退换")
    False
    >>> row_says("理货员周晓燕能临时开一下叉车吗？", "姓名: 周晓燕；岗位: 理货员；叉车证: 无")
    True
    """
    if not has_cjk(question):
        return False
    verbs = {w for w, flag in pos_tags(question) if flag.startswith("v") and w not in _NOT_ASKING}
    values = row_cells(row)[1:]  # the first is the row's key
    if any(v in cell for v in verbs for cell in values):
        return True
    # a flag the question names by its header ("理货员周晓燕能开叉车吗？" of "叉车证: 无")
    return any(value.strip() in _FLAG_VALUES and any(label[i:i + 2] in question for i in range(len(label) - 1))
               for label, value in re.findall(r"([^：:；;。]+)[:：]\s*([^；;。]+)", row))


def number_unused_by_row(question: str, rows: Sequence[str]) -> str | None:
    """A measured quantity the question gives (a number with its unit, or a dimension "60 × 40 × 40") that the
    cited row neither holds nor reads through a range of its cells ("a box measuring 60 × 40 × 40 cm that weighs
    8 kg" answered by the "5.01 – 10 kg" row: 8 is its range's, 60 is nobody's — the chargeable weight is still to
    be computed); None when every such quantity is the row's. Years, codes and grades ("G6", "2026级") name rows.

    >>> number_unused_by_row("I'm sending a box measuring 60 × 40 × 40 cm that weighs 8 kg. What will it cost?",
    ...                      ["Chargeable weight: 5.01 – 10 kg；Zone B: £8.70"])
    '60'
    >>> number_unused_by_row("我家住12楼，电梯运行费每个月交多少？", ["所在楼层: 12–20层；电梯运行费（元/户·月）: 35"])
    >>> number_unused_by_row("Who approves an expense claim of USD 4,000?", ["Amount (USD): 2,500.01 – 5,000；Approver: CFO"])
    >>> number_unused_by_row("年卡办了4个月想退，能退百分之多少？", ["自办卡之日起: 31天至180天；退款标准: 60%退还"])
    >>> number_unused_by_row("A 9 m boat for three nights: the total?", ["LOA: 8.01–10.00 m；Short stay (09:00–17:00): £15；Per night: £36"])
    '3'
    >>> number_unused_by_row("An 8 m sloop staying three nights: what do we owe?", ["LOA: Up to 8.00 m；Per night: £28"])
    '3'
    """
    q = counts_in_digits(unicodedata.normalize("NFKC", question).replace(",", ""))  # "for three nights": 3
    text = unicodedata.normalize("NFKC", " ".join(rows)).replace(",", "")
    held = set(re.findall(r"\d+(?:\.\d+)?", text))
    # (not the minutes of a clock time: "09:00–17:00" is no range 0–17)
    ranges = [(float(a), float(b)) for a, b in
              re.findall(r"(?<![\d.:])(\d+(?:\.\d+)?)\s*(?:-|–|—|~|to|至|到)\s*(\d+(?:\.\d+)?)(?![\d:])", text)]
    bands = [b for row in rows for c in row_cells(row) if (b := band(c)) is not None]
    units = {f"{x:g}": u for x, u in quantities(question)}
    for m in _MEASURED.finditer(q):
        n = m.group(1) or m.group(2)
        v = float(n)
        # a count of nights or days the bands do not measure ("3 nights" is no length of the "Up to 8.00 m" band)
        unit = units.get(f"{v:g}") or (None if _COUNTED_UNIT.search(m.group(0)) else "")
        if n in held or any(lo <= v <= hi for lo, hi in ranges) or \
                unit is not None and any(b.holds(x, u) for b in bands
                                         for x, u in [(v, unit or b.unit), *in_other_units([(v, unit)] if unit else [])]):
            continue
        return n
    return None


_COUNTED_UNIT = re.compile(r"(?i)nights?|days?|hours?|晚|夜|天|日|小时")
_MEASURED = re.compile(r"(?<![\d.A-Za-z])(\d+(?:\.\d+)?)\s*(?=[×x*]\s*\d)|(?<![\d.A-Za-z])(?!(?:19|20)\d\d\s*年)"
                       r"(\d+(?:\.\d+)?)\s*(?:cm|mm|kg|km|m\b|g\b|公斤|千克|克|厘米|毫米|米|公里|天|日|晚|夜|小时|分钟|年|个月|元|块|美元|%"
                       r"|nights?\b|days?\b|hours?\b|years?\b|months?\b)", re.I)
"""A measured quantity of a question: a dimension ("60 × 40"), or a number with its unit (not a year "2024年")."""


def answerability_gate(question: str, v: policy.Verdict, prob: float, f: answerable.Features,
                       conflicts: Sequence[dict[str, Any]]) -> policy.Verdict:
    """The answerability veto (pure): below :data:`answerable.THRESHOLD` the evidence only mentions the
    question's words and the verdict abstains — unless two sources give different values for the asked
    slot (``conflicts`` from the reader). The disagreement itself says the slot is answered, so the reply
    names both values with their sources (``uncertain``, for review) rather than declining in silence."""
    if not policy.vetoable(v, prob, answerable.THRESHOLD):
        return v
    named = disputed_slot(question, policy.abstaining(v), conflicts)
    if not (named.level == "uncertain" and f.subject >= 1.0):  # about the question's own subject (its rarest words)
        # two versions of one statement: whatever the subject check says
        named = disputed_slot(question, policy.abstaining(v), same_statement(conflicts), typed=False)
    return policy.answerability_veto(v, named, answerable.explain(f))


def same_statement(conflicts: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conflicts between two versions of one statement (only the value changed: ``conflicts.one_statement``)."""
    return [c for c in conflicts if c.get("same_statement")]


def disputed_slot(question: str, v: policy.Verdict, conflicts: Sequence[dict[str, Any]], *,
                  typed: bool = True) -> policy.Verdict:
    """An abstaining verdict made ``uncertain`` (for review) when sources give different values for the
    asked slot (:func:`answerable.conflict_fills_slot`); otherwise ``v`` unchanged."""
    disputed = [c for c in conflicts if answerable.conflict_fills_slot(
        question, c.get("values") or [], [*map(str, c.get("quotes") or []), *map(str, c.get("titles") or [])],
        typed=typed)]
    return policy.disputed(v, conflict_summary(disputed[0]) if disputed else None)


def conflict_summary(c: dict[str, Any]) -> str:
    """"a.md: 5天 / b.md: 10天" for one disagreement between documents."""
    srcs, values = list(c.get("sources") or []), list(c.get("values") or [])
    return " / ".join(f"{src}: {', '.join(shown_values(v))}" for src, v in zip(srcs, values, strict=False))


_QUESTION_MARK = ("？", "?")


def echoes_question(claim: str, question: str) -> bool:
    """A generated "claim" that is a question, or says nothing the question did not (no new words)."""
    text = claim.strip()
    if not text or text.endswith(_QUESTION_MARK):
        return True
    asked = set(iter_numbers(question))
    return not verify.unsupported_terms(text, "", question) and all(n in asked for n in iter_numbers(text))


def checked_claims(question: str, draft: Draft, verdict: policy.Verdict) -> tuple[list[Claim], int]:
    """The claims the user will read, and how many generated sentences were replaced.

    Extractive claims are quotes and stay. A generated sentence stays only when it passed its check
    and says something; otherwise the verified quote it cited stands in its place, so the user
    reads the source's own words and never an unverified sentence (once: several invented
    sentences citing the same quote leave one copy of it).
    """
    if draft.method == "extractive" or not verdict.claims:
        return list(draft.claims), 0
    out: list[Claim] = []
    replaced = 0
    for c, v in zip(draft.claims, verdict.claims, strict=False):
        if v.level == "confirmed" and not echoes_question(c.text, question):
            out.append(c)
            continue
        replaced += 1
        if not any((o.source, o.start, o.end, o.text) == (c.source, c.start, c.end, c.quote) for o in out):
            out.append(replace(c, text=c.quote))
    return out, replaced


async def check_answer(question: str, draft: Draft, passages: Sequence[Scored],
                       deps: KnowledgeDeps, analysis: Analysis | None = None) -> tuple[policy.Verdict, Draft, dict[str, Any]]:
    """Verdict (deterministic floor, LLM judge may only make it stricter), the draft as shown, log."""
    a = of(question, analysis)
    draft = meeting_constraints(deps.kb, draft, passages, a)
    v = check_draft(deps.kb, question, draft, passages, a)
    judge_log: dict[str, Any] = {}
    shown, replaced = checked_claims(question, draft, v)
    if replaced:
        draft = replace(draft, claims=shown)
        v = check_draft(deps.kb, question, draft, passages, a)
        judge_log["replaced_claims"] = replaced
        v = policy.reworded_replaced(v, replaced)
    if deps.provider is not None and policy.answers(v) and draft.claims:
        try:
            label, why = await within_deadline(judge_answer, deps.provider, question,
                                               " ".join(c.text for c in draft.claims),
                                               [c.quote for c in draft.claims], deadline_s=deps.settings.llm_timeout_s)
            judge_log.update(judge=label, judge_reason=why)
            v = policy.stricter_by_judge(v, STRICTER.get(label), why or label)
        except ProviderError as exc:
            judge_log.update(judge="unavailable", judge_reason=exc.message, fallback=True, fallback_reason=exc.message)
            llm_fallback(deps.emit, "judge", exc.message, "the deterministic checks alone")
    v = judge_premise(v, a, draft, deps.kb.file_texts)
    v = asked_elsewhere(v, question, deps)
    v = flag_instructions(v, draft, passages, deps.kb)
    deps.emit("verdict", level=v.level, reason=v.reason, needs_human_review=v.needs_human_review,
              warnings=list(v.warnings),
              claims=[{"text": c.text, "source": c.source, "level": cv.level, "reasons": cv.reasons}
                      for c, cv in zip(draft.claims, v.claims, strict=False)])
    log = {"agent": "fact_checker", "action": "verify", "level": v.level, "reason": v.reason,
           "coverage": round(v.coverage, 3), "needs_human_review": v.needs_human_review,
           **({"warnings": list(v.warnings)} if v.warnings else {}), **judge_log}
    return v, draft, log


def asked_elsewhere(v: policy.Verdict, question: str, deps: KnowledgeDeps) -> policy.Verdict:
    """A near miss across collections: a term of the question that the searched collections never use while
    another collection does (the team's documents have no 婚假 rule, the demo company's do) means the asked
    thing is not in the team's documents — whatever neighbouring fact was found is not its answer."""
    if not policy.answers(v):
        return v
    kb = deps.kb
    searched = deps.collections or kb.default_collections()
    if not searched:
        return v  # everything is searched: there is no elsewhere
    terms = [_singular(t) for t, _ in key_terms(kb, question)
             if len(t) >= 2 and (_HAN_WORD.fullmatch(t) and not names_nothing(t) or t.isalpha() and len(t) >= 4)]
    missing = kb.terms_missing_from(terms, searched)  # "product" is in a price list's product_name
    return policy.asked_elsewhere(v, missing[0]) if missing else v


_HAN_WORD = re.compile(r"[\u4e00-\u9fff]+")


def _singular(term: str) -> str:
    """An English plural's singular ("products" → product, "policies" → policy); any other term as it is."""
    if not term.isascii() or len(term) < 5 or not term.endswith("s") or term.endswith("ss"):
        return term
    return term[:-3] + "y" if term.endswith("ies") else term[:-1]


def _labelled_row(quote: str) -> bool:
    """A row of a CSV's or table's text: two labelled fields or more ("sku: …；stock_qty: 0")."""
    return sum(bool(label) for label, _v in row_fields(quote)) >= 2


_WHOLE_TABLE = re.compile(r"^\s*\|(?:\s*:?-{3,}:?\s*\|)+\s*$", re.M)
"""A Markdown table's rule under its header: a quote that holds it lists the table from its header."""


def _listing(c: Claim, source: str) -> bool:
    """The claim lists a table from its header (its quote holds the header, and the reader narrowed it to no row),
    or quotes the header alone (the line under it in ``source``, the claim's document, is the table's rule)."""
    q = c.quote.strip()
    return bool(_WHOLE_TABLE.search(q) and c.text.strip() == row_sentence(q).strip()
                or q.startswith("|") and _WHOLE_TABLE.match(source[c.end:c.end + 200].lstrip("\n")))


def judge_premise(v: policy.Verdict, a: Analysis, draft: Draft, texts: Mapping[str, str] | None = None) -> policy.Verdict:
    """A yes/no question is answered from the polarity of the cited evidence: when the quotes contradict
    its premise ("…上限是10万元吗？" against "上限为5万元"), the verdict is ``contradicted`` with the
    source's value named, never a silent ``confirmed`` of the wrong premise. The answer itself (no, and
    the quote) is what the sources say, so nothing goes to human review for it."""
    if not policy.answers(v) or not draft.claims or not a.yes_no:
        return v
    if _listing(draft.claims[0], (texts or {}).get(draft.claims[0].source, "")) and all(
            _WHOLE_TABLE.search(c.quote) or _labelled_row(c.quote) for c in draft.claims[1:]):
        # "Can the owner stay on board during the lift-out?" answered by quoting the price table from its header
        # (and a roster's row): a table's listing says neither yes nor no; a sentence beside it may
        return policy.row_misses(v, "a yes/no question is not answered by a table's listing")
    p = premise.premise(a.text, [c.quote for c in draft.claims])
    return policy.premise_denied(v, p.reason) if p.answer == "no" else v


def flag_instructions(v: policy.Verdict, draft: Draft, passages: Sequence[Scored], kb: KnowledgeBase) -> policy.Verdict:
    """Never confirm text that gives the assistant orders: a claim whose quote or cited passage reads
    as instructions is ``uncertain`` at best, and the verdict says what was found."""
    by_id = {s.passage.id: s.passage for s in passages}
    found: list[str] = []
    flagged: list[bool] = []
    for c in draft.claims:
        p = by_id.get(c.passage_id) or kb.passage(c.passage_id)
        matches = find_instructions(c.quote) or find_instructions(p.text if p else "")
        flagged.append(bool(matches))
        if matches:
            found.append(describe(matches))
    return policy.instructions_found(v, flagged, found[0]) if found else v




def check_written(question: str, text: str, quote: str, *, context: str | None = None,
                  similarity: float | None = None) -> policy.ClaimVerdict:
    """A sentence a model wrote from ``quote`` (a learning section's sentence, an edit, an example), checked
    exactly as chat checks a model-written claim (:func:`check_draft`): its numbers, words and negations
    against the quote and the text around it (``context``), then held against the quote itself — a
    shortening that keeps every value in its place — and about the same item as the quote."""
    cv = verify.check_claim(text, context or quote, question=question, verbatim=False, similarity=similarity)
    cv = verify.check_reworded(cv, text, quote, question)
    if ent.disagree(text, quote):
        cv = policy.about_another_item(cv, f"the claim is about {ent.first_mention(text)}, its quote about "
                                           f"{ent.first_mention(quote)}")
    return cv
