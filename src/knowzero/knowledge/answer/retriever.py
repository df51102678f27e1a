"""Hybrid retrieval: keyword ∥ dense ∥ SQL → weighted RRF → entity filter → context budget.

:func:`retrieve` runs one attempt for a plan; :func:`evidence_quality` scores what came back
(IDF-weighted coverage of the question's terms by the best passages), and :func:`rewrite` gives
the next attempt's query and plan when the evidence is poor (at most ``max_rewrites`` times;
the graph loops). Retrievers sit behind the small :class:`~knowzero.knowledge.types.Retriever`
protocol, so PostgreSQL/pgvector versions can replace the embedded ones.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from knowzero.knowledge.answer.fusion import leaders_within, weighted_rrf
from knowzero.knowledge.index import entities as ent
from knowzero.knowledge.index.keyword import number_form
from knowzero.knowledge.index.versions import names_edition
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.text import (
    ASKED_RELATION,
    NOT_NAMING,
    QUESTION_FILLER,
    STOPWORDS,
    fold,
    in_dictionary,
    pos_tags,
    query_text,
    question_word,
    story_word,
    tokens,
    told_and_asked,
    without_asking_phrases,
    without_question_word,
)
from knowzero.knowledge.types import Hit, Scored
from knowzero.vocabulary.questions import ASKERS_REQUEST, CALENDAR_DAYS

Strategy = Literal["hybrid", "keyword", "vector", "sql"]


@dataclass(frozen=True)
class Plan:
    """What the router decided: where to look and how."""

    domain: str = "general"
    collections: tuple[str, ...] = ()
    restrict_domain: bool = False
    strategy: Strategy = "hybrid"
    top_k: int = 5
    weights: dict[str, float] = field(default_factory=dict)


@dataclass
class Retrieval:
    query: str
    passages: list[Scored]
    entities: list[str]
    filtered_out: int
    per_retriever: dict[str, int]
    elapsed_ms: float
    pending_vectors: int = 0
    """Chunks searchable by keyword whose dense vector is still queued (dense covers the others)."""


def _allowed(kb: KnowledgeBase, plan: Plan) -> frozenset[str] | None:
    return kb.allowed_ids(plan.collections, plan.domain if plan.restrict_domain else None)


def with_named_days(query: str) -> str:
    """The keyword query with the days a word for several names ("周末能装修吗？" also finds "周六、周日可以施工").

    >>> with_named_days("周末能装修吗？"), with_named_days("Is the spa open at weekends?")
    ('周末能装修吗？ 周六 周日', 'Is the spa open at weekends? saturdays sundays')
    """
    extra = [d for m in _NAMED_DAYS.finditer(query.lower()) for d in CALENDAR_DAYS[m.group(0)][:2]]
    return f"{query} {' '.join(dict.fromkeys(extra))}" if extra else query


_NAMED_DAYS = re.compile("|".join(rf"(?<![a-z]){re.escape(w)}(?![a-z])" for w in sorted(CALENDAR_DAYS, key=len, reverse=True)))
"""A word for several days (:data:`CALENDAR_DAYS`), compiled once: every retrieval looks for one."""


READ_FIRST = 3
"""Each retriever's best hit is placed among this many (the extractive reader reads the first three)."""


def retrieve(kb: KnowledgeBase, query: str, plan: Plan, *, budget_chars: int = 3000) -> Retrieval:
    """One retrieval attempt (see module doc)."""
    t0 = time.perf_counter()
    query = query_text(query)
    allowed = _allowed(kb, plan)
    depth = max(plan.top_k * 4, 20)
    use = {"keyword": plan.strategy in ("hybrid", "keyword"),
           "dense": plan.strategy in ("hybrid", "vector") and bool(kb.dense.ids),
           "sql": plan.strategy in ("hybrid", "sql") and kb.sql is not None}
    rankings: dict[str, list[Hit]] = {}
    dense_future = kb.executor.submit(kb.dense.search, query, depth, allowed) if use["dense"] else None
    if use["keyword"]:
        rankings["keyword"] = kb.keyword.search(with_named_days(query), depth, allowed)
    if use["sql"] and kb.sql is not None:
        rankings["sql"] = kb.sql.search(query, plan.top_k, allowed)
    if dense_future is not None:
        rankings["dense"] = dense_future.result()
    unseen: dict[str, set[str]] = {}
    if "dense" in rankings and "keyword" in rankings and kb.pending_vectors > 0:
        # chunks searchable by keyword whose vectors are still queued: the dense list could not hold them
        unseen["dense"] = kb.dense.missing([h.id for h in rankings["keyword"]])
    fused = leaders_within(weighted_rrf(rankings, plan.weights or None, unseen=unseen or None),
                           {k: v for k, v in rankings.items() if (plan.weights or {}).get(k, 1.0) > 0},
                           min(plan.top_k, READ_FIRST))
    q_ents = ent.expand(ent.extract(query), kb.aliases)
    out: list[Scored] = []
    filtered = 0
    found = kb.passages_of([pid for pid, _, _ in fused])
    old = kb.superseded()
    for pid, score, parts in fused:
        p = found.get(pid) or kb.passage(pid)
        if p is None:
            continue
        if allowed is not None and pid not in allowed:
            continue
        if p.path in old and not names_edition(query, p.title):
            continue  # a superseded edition answers only when asked for by name (knowledge/index/versions.py)
        if not ent.keep_passage(q_ents, kb.passage_entities(p) | (ent.extract(p.text) if pid.startswith("sql:") else set())):
            filtered += 1
            continue
        out.append(Scored(p, score, parts))
        if len(out) >= plan.top_k:
            break
    kept: list[Scored] = []
    used = 0
    for s in out:
        if kept and used + len(s.passage.text) > budget_chars:
            break
        kept.append(s)
        used += len(s.passage.text)
    return Retrieval(query, kept, sorted(q_ents), filtered, {k: len(v) for k, v in rankings.items()},
                     (time.perf_counter() - t0) * 1000, kb.pending_vectors)


_CJK_WORD = re.compile(r"[\u4e00-\u9fff]+")


_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1|(?<=可)不可(?=以)")


def _tiling(parts: list[str], word: str) -> list[str]:
    """The parts of ``word`` that follow each other without overlap, left to right ("透射电镜": 透射, 电镜 —
    not the segmenter's 射电 across them).

    >>> _tiling(["透射", "射电", "电镜"], "透射电镜"), _tiling(["员工", "工资"], "员工工资")
    (['透射', '电镜'], ['员工', '工资'])
    """
    out: list[str] = []
    end = 0
    for p in sorted(parts, key=word.find):
        if (at := word.find(p)) < 0:
            out.append(p)  # a repaired part ("罗默" of "罗默为")
        elif at >= end:
            out.append(p)
            end = at + len(p)
    return out


_NUMBER_UNIT = re.compile(r"\d+(?:\.\d+)?-[a-z]+")


def key_terms(kb: KnowledgeBase, question: str) -> list[tuple[str, float]]:
    """The question's content terms with their IDF.

    Precise-mode tokens minus stopwords and question words (also as the segmenter glues them to a
    classifier or noun: "何年", "哪一位", "什么游戏" → 游戏, 哪|一部分 → 部分). A Chinese compound the
    knowledge base has never seen is replaced by its parts ("员工工资" → 员工, 工资), so a compound the
    segmenter happens to know does not make coverage all-or-nothing; an unseen token that is a
    segmentation artefact is repaired (:func:`unglued`).
    """
    def repaired(t: str) -> str:  # a token the index has stays; an unseen artefact is repaired ("" drops it)
        return t if kb.keyword.has_term(t) else unglued(t, kb.keyword.has_term, in_dictionary)

    terms: list[str] = []
    # an A-not-A question asks, its negated half is no term ("能不能自己操作" → 能自己操作; 有没有 → 有)
    plain = _CONTRACTED.sub("", _NEGATED.sub(r"\1", _A_NOT_A.sub(r"\1", without_asking_phrases(query_text(question)))))
    plain = ASKED_RELATION.sub(" ", plain)  # "名单出来以后", "开考多久以后": a connective, no term
    plain = _ASKERS_NEED.sub(r"\1 ", plain)  # "how many points do I need for a free night": need is the asker's
    plain = _ASKERS_NOW.sub(" ", plain)  # "right now", "at the moment": the asker's time, as 现在 and 目前 are
    words = kb.keyword.words(tokens(plain, search=False, keep_stopwords=True))  # the documents' own words
    tags = dict(pos_tags(plain)) if _CJK_WORD.search(plain) else {}
    tagger_words = frozenset(tags)  # the tagger's own cut of the question (it may cut elsewhere than the index)
    for w in words:  # a word re-cut from the segmenter's artefact ("店能代|煎" → 店, 能, 代煎) has its own kind
        if w not in tags and _CJK_WORD.fullmatch(w) and len(tagged := pos_tags(w)) == 1:
            tags[w] = tagged[0][1]
    for i, t in enumerate(words):
        # a question word is no term (no passage holds "何年" or "哪一位"; counted, it sank coverage)
        if question_word(t):
            continue
        if i and words[i - 1] == "哪" and t.startswith("一"):  # the segmenter's 哪|一片, 哪|一区, 哪|一部分: the numeral asks too
            t = t[1:] if len(t) >= 3 else ""
        t = without_question_word(t)
        if len(t) >= 2 and t[0] in _MEASURE and re.search(f"(?:几|多少){t}", plain):
            t = t[1:]  # "一共有几个人": the segmenter's 几|个人 — the measure word asks, 人 is the thing
        if t in STOPWORDS or t in QUESTION_FILLER or not t.strip():
            continue
        if _NUMBER_UNIT.fullmatch(t) and not kb.keyword.has_term(t):
            continue  # "12-hour" no document writes so: its number and its unit are terms of their own ("12 hours")
        if len(t) == 1 and t.isascii() and t.isalpha() and not re.search(rf"(?<![\w-]){t}(?![\w-])", plain, re.I):
            continue  # the "e" of "e-bikes" (its whole word is a term); "Zone B" keeps its letter
        if len(t) == 1 and _CJK_WORD.fullmatch(t) and not tags.get(t, "n").startswith(("n", "q")):
            continue  # one character that names nothing ("过了一年没去签注": 过, 没, 去); a unit (元) or a noun does
        if len(t) == 2 and _CJK_WORD.fullmatch(t) and t not in tagger_words and not kb.keyword.has_term(t) \
                and not in_dictionary(t):
            # a pair the segmenter made up that the tagger cuts elsewhere ("货进|仓" against 货|进仓): its nouns
            terms.extend(c for c in t if (pos_tags(c) or [("", "")])[0][1].startswith("n"))
            continue
        if len(t) >= 2 and _CJK_WORD.fullmatch(t) and not kb.keyword.has_term(t):
            parts = [p for p in dict.fromkeys(tokens(t, search=True, keep_stopwords=True)) if p != t and len(p) >= 2] \
                if len(t) >= 3 else []
            finest = [q for p in parts if not any(o != p and o in p for o in parts) if (q := repaired(p))]
            # a repair down to one character that names nothing is no term ("还要" → 还, an adverb)
            terms.extend(_tiling(finest, t) if finest else [q for q in [repaired(t)] if q and not (
                len(q) == 1 and not (pos_tags(q) or [("", "n")])[0][1].startswith(("n", "q")))])
            continue
        terms.append(number_form(t, kb.keyword.has_term) or stem(t) if t.isascii() and t.isalpha()
                     and not kb.keyword.has_term(t) else t)
    terms = [t for t in dict.fromkeys(terms) if not (_CJK_WORD.fullmatch(t) and askers_word(t, kb.keyword.has_term, tags))
             and not (summing_word(t) and not kb.keyword.has_term(t))]  # 一共, 加起来: the asking, not a thing
    if (split := told_and_asked(plain)) is not None:
        # a word of the asker's story that no document has ("driving up from london") is no part of the question
        told, asked = split
        terms = [t for t in terms if not (story_word(t, told, asked) and not kb.keyword.has_term(t))]
    return weighed(terms, kb.keyword.has_term, kb.keyword.term_idf, tags)


_MEASURE = frozenset("个位名条台辆张件只间套家")
_ASKERS_NOW = re.compile(r"(?i)\b(?:right now|at the moment|at present|these days|as of (?:now|today))\b")
"""The asker's "now" in more than one word (a single "now" or "currently" is :data:`QUESTION_FILLER`)."""
SUMMING = re.compile(r"一共|总共|合计|共计|总计|加起来|加在一起|altogether|in total", re.I)
"""Words that only ask to add up; narrower than ``aggregate``'s sum words, which also take a header's 总额 or "total"."""
_COUNTED = "个块盒剂班次天张件份位名人只条间套台辆本节门项回趟把双批"
_CN_COUNT = re.compile(f"[一二两三四五六七八九十百千万半]+[{_COUNTED}]?")
"""A number written in Chinese, alone or with its measure word (一个, 一剂, 三百, 半个): the documents write it
in digits ("每剂", "300克"), when at all."""
_ONE_OF = re.compile(f"[一每][{_COUNTED}]")
"""One of a thing ("一批", "一天", "每个"): the rate's or the story's article, not a thing asked ("一个托盘一天收多少钱"
is asked per 托盘 and 天; the documents write 元/托盘/天), whether or not some document writes it."""


def summing_word(term: str) -> bool:
    """A word that only asks to add up ("一共", "加起来", "altogether"): the documents write the rows, not it.

    >>> [summing_word(w) for w in ("一共", "加起来", "altogether", "合计金额", "工资")]
    [True, True, True, False, False]
    """
    return bool(SUMMING.fullmatch(term))


_ASKERS_NEED = re.compile(r"(?i)\b(i|we|you)\s+(?:really\s+)?(?:need|want|wish|like)\b(?:\s+to\b)?")
"""The asker's need or wish ("do I need", "we want to"): how the asker asks, never what the documents say."""
_NEGATED = re.compile(r"(?i)\b([a-z]+)n['’]t\b")
_CONTRACTED = re.compile(r"(?i)['’](?:s|ll|ve|re|d|m)\b")
"""English contractions: "doesn't" → does, "What's" → What (no "s" or "t" term)."""
_INFLECTED = re.compile(r"(?:ing|ed|es|s)$")


def stem(word: str) -> str:
    """An English word without its inflection, for matching inside the documents' words ("submitting" finds
    "submitted" as submit): the ending -ing/-ed/-es/-s off, a doubled last consonant undoubled, -ies → -y;
    unchanged when less than four letters would be left.

    >>> [stem(w) for w in ("submitting", "approved", "policies", "claims", "trip", "boss", "planned")]
    ['submit', 'approv', 'policy', 'claim', 'trip', 'boss', 'plan']
    """
    if word.endswith("ss") or len(word) < 5:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    core = _INFLECTED.sub("", word)
    if len(core) >= 2 and core[-1] == core[-2] and core[-1] not in "aeiouls":
        core = core[:-1]
    return core if len(core) >= 4 else word


_ASKING = NOT_NAMING | {"s"}
"""Words that name no subject: :data:`NOT_NAMING` and locatives (jieba's ``s``: "天内" of 多少天内)."""


def weighed(terms: Sequence[str], indexed: Callable[[str], bool], idf: Callable[[str], float],
            tags: Mapping[str, str]) -> list[tuple[str, float]]:
    """Each term with its IDF, except a Chinese verb, adverb or locative no document has ("带齐", "补上" where
    the documents say 齐全, 补正): weight 0. Such a word tells no passage from another, and missing from the
    sources it is a paraphrase of the asking more often than a thing they lack; so is a number written in
    Chinese no document has ("一剂", "三百": the documents write digits); a conjunction, preposition or particle
    ("另外") whether or not a document has it. An unseen noun or name
    (台湾, 宠物) keeps the full weight: it may be exactly what the documents do not cover.

    >>> weighed(["材料", "带齐", "台湾", "一批"], {"材料", "一批"}.__contains__,
    ...         {"材料": 2.0, "带齐": 7.0, "台湾": 7.0, "一批": 5.0}.get, {"带齐": "v", "台湾": "ns", "一批": "m"})
    [('材料', 2.0), ('带齐', 0.0), ('台湾', 7.0), ('一批', 0.0)]
    """
    # the word's kind first: the index is asked only about a Chinese verb, adverb or locative
    return [(t, 0.0 if _ONE_OF.fullmatch(t) or tags.get(t) in _JOINING or _CJK_WORD.fullmatch(t) and (
        tags.get(t) in _ASKING or _CN_COUNT.fullmatch(t)) and not indexed(t) else idf(t)) for t in terms]


_JOINING = frozenset({"c", "p", "u", "uj", "ul", "y"})
"""Conjunctions, prepositions and particles ("另外", "对于"): no subject, whether or not some document writes them."""


_ASKER_PRONOUNS = frozenset("我 我们 咱 咱们 你 你们 您 自己 本人 这次 这回 这边".split())
"""The asker's and the addressee's pronouns (a closed class): never what the documents are about."""


def askers_word(term: str, indexed: Callable[[str], bool], tags: Mapping[str, str]) -> bool:
    """A Chinese word of the question that is the asker's, not the question's: a pronoun of the asker or the
    addressee (自己, 这次, 你们 — wherever the documents use it) or any pronoun no document has; or, when no
    document has it, a time of the asker's own (下个月, 明年: no digit) or a pair of function words the segmenter
    glued (问下 = 问 + 下). No term: it neither counts for coverage nor stands for a subject the sources lack.

    >>> tags = {"自己": "r", "下个月": "t", "带齐": "v", "宠物": "n", "问": "v", "下": "f"}
    >>> [askers_word(t, {"自己"}.__contains__, tags) for t in ("自己", "下个月", "带齐", "宠物", "问下", "2021年", "驾驶", "帮忙")]
    [True, True, False, False, True, False, False, True]
    """
    tag = tags.get(term)
    if term in ASKERS_REQUEST and not indexed(term):
        return True  # "想让你们帮忙贴个标签": how the asker asks
    if tag == "r" and (term in _ASKER_PRONOUNS or not indexed(term)):
        return True  # not 一切 or 所有, which the documents use as they do ("一切权力的来源")
    if indexed(term) or any(c.isdigit() for c in term):
        return False
    if tag is None:  # a pair the segmenter glued: its parts as tagged in the question (问 of 想问下 is a verb)
        parts = pos_tags(term)  # one word is a part of an unseen compound (驾驶 of 驾驶证), no glued pair
        return len(parts) >= 2 and all(tags.get(w, flag) in _ASKING for w, flag in parts)
    return tag == "t"


_GLUE = frozenset("的了是在和与及之其所被把对从向由为于以将给到自也都就会能可要该")
"""Function characters the segmenter glues onto a neighbouring word ("罗默为", "战于", "军是", "上以")."""


def unglued(term: str, known: Callable[[str], bool], listed: Callable[[str], bool] = lambda _t: True) -> str:
    """A Chinese token no document contains, repaired when it is a segmentation artefact: a function
    character glued to either end comes off ("罗默为" → 罗默, "以兆康苑" → 兆康苑; "能码" → 码 when the
    segmenter made the word up, ``listed`` false: "最高能码多高" is 能 + 码), a reduplicated half-word ("陆陆" of
    陆陆续续, "个个") is dropped (``""``). Anything else is returned unchanged (an unseen word is evidence that
    the sources may be about something else: 会员 stays 会员). ``known(t)``: the index has ``t``.

    >>> known = {"罗默", "兆康苑", "战"}.__contains__
    >>> [unglued(t, known) for t in ("罗默为", "以兆康苑", "战于", "陆陆", "宠物", "于是")]
    ['罗默', '兆康苑', '战', '', '宠物', '于是']
    >>> [unglued(t, known, {"会员"}.__contains__) for t in ("能码", "会员")]
    ['码', '会员']
    """
    if len(set(term)) == 1:
        return ""
    core = term
    while len(core) >= 2 and (core[0] in _GLUE or core[-1] in _GLUE):
        core = core[1:] if core[0] in _GLUE else core[:-1]
    if core == term or not core or core in _GLUE:
        return term
    return core if len(core) >= 2 or known(core) or not listed(term) else term


def evidence_quality(kb: KnowledgeBase, question: str, r: Retrieval) -> float:
    """IDF-weighted share of the question's terms found in the top passages (0..1)."""
    terms = key_terms(kb, question)
    if not terms or not r.passages:
        return 0.0
    if r.passages[0].passage.id.startswith("sql:"):
        return 1.0  # a structured query answered on values/columns the question names
    if r.entities:
        named = set(r.entities)
        found = any(named & (kb.passage_entities(s.passage) | ent.extract(s.passage.text)) for s in r.passages[:3])
        if not found:
            return 0.0  # the question names an item none of the passages is about: look elsewhere
    # the terms are folded to Simplified (``tokens``): so is the text, or a Traditional passage covers nothing
    text = fold(unicodedata.normalize("NFKC", " ".join(f"{s.passage.title} {s.passage.section} {s.passage.text}"
                                                       for s in r.passages[:3]))).lower()
    total = sum(w for _, w in terms)
    return sum(w for t, w in terms if t in text) / total if total else 0.0


def rewrite(kb: KnowledgeBase, question: str, plan: Plan, attempt: int) -> tuple[str, Plan, str]:
    """The next attempt: (query, plan, reason). Attempt 1 widens scope, 2 keeps key terms, 3 goes deeper."""
    if attempt == 1 and (plan.restrict_domain or plan.strategy != "hybrid"):
        # The caller's collections are a hard limit; only the router's domain guess is widened.
        return question, replace(plan, restrict_domain=False, strategy="hybrid"), \
            "widened the search beyond the routed domain, with every retriever"
    if attempt <= 2:
        terms = [t for t, _ in sorted(key_terms(kb, question), key=lambda x: -x[1])]
        q = " ".join(terms[:8]) or question
        return q, replace(plan, restrict_domain=False, strategy="hybrid"), "kept only the question's key terms"
    return question, replace(plan, restrict_domain=False, top_k=min(plan.top_k * 2, 20), strategy="hybrid"), \
        "looked deeper (twice the passages)"
