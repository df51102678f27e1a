"""One analysis of a message, made once when a turn enters the graph and carried in its typed state.

What every later step needs to know about the words of a question — its language and script, its folded
text and tokens, its content terms, the kind of value it asks for (a number, a time, a person …), whether
it is a yes/no question or asks to count or sum, the items it names, and its service signals (order and
ticket ids, a request for a person, a complaint) — is read here, by the owners of each idea, and nowhere
else for that turn. A follow-up is analysed in its standalone form ("那零件B呢？" → "零件B的公差是多少？"),
which is the form retrieval and checking use; ``text`` keeps what was typed.

Pure: the same text gives the same analysis (no knowledge base, no model). Steps that need the
knowledge base's view of the question (IDF-weighted key terms, the entity index's aliases) start from
``terms`` and ``entities`` here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from knowzero.input import message_language
from knowzero.knowledge.answer.aggregate import asks_to_compute
from knowzero.knowledge.answer.checks.answerable import asked_kind
from knowzero.knowledge.answer.checks.constraints import Constraint, constraints_of
from knowzero.knowledge.answer.checks.premise import is_yes_no
from knowzero.knowledge.index.entities import extract as extract_entities
from knowzero.knowledge.text import (
    STOPWORDS,
    fold,
    question_word,
    story_word,
    tokens,
    told_and_asked,
    traditional,
    without_question_word,
)
from knowzero.routing.signals import ServiceSignals, service_signals
from knowzero.vocabulary.questions import asked_value, asks_approver


@dataclass(frozen=True)
class Analysis:
    """What a question says, read once (see the module doc)."""

    text: str
    """The question as analysed (a follow-up's standalone form; a reading in the documents' language)."""
    typed: str = ""
    """What the user typed, when ``text`` is a rewrite of it ("" when it is not)."""
    language: str | None = None
    """"zh" or "en" from the text's own script; None when it has no words of either (an id, a number)."""
    traditional: bool = False
    """Written in Traditional Chinese (replies keep the script)."""
    folded: str = ""
    """Full-width folded, Traditional → Simplified, lower-cased: what matching compares."""
    tokens: tuple[str, ...] = ()
    """Its words (Chinese segmented), in order."""
    terms: tuple[str, ...] = ()
    """Its content words (tokens without stop words or single characters), in order, once each."""
    asked_kind: str | None = None
    """The kind of value it asks for ("number", "time", "person", "place", "reason" …), or None."""
    yes_no: bool = False
    """A yes/no question ("…吗？", "是否…", "Is …?")."""
    computes: bool = False
    """It asks to count, sum or average ("一共有多少名员工？")."""
    approver: bool = False
    """It asks who approves, signs or authorises something ("需要谁批准？"): the answer names a role."""
    asked_value: str | None = None
    """The form of value it asks for, when it has one: "money" ("扣多少钱？"), "phone" ("电话是多少？")."""
    entities: tuple[str, ...] = ()
    """Items it names (part numbers, "零件A", product models)."""
    constraints: tuple[Constraint, ...] = ()
    """Values the answer must meet: the year, edition ("第七届", "首批"), quarter or month, date, place ("清渠市"),
    the men's or women's, the placing ("冠军"), a text's title, a model, code or version ("X9", "CLTC", "标准版"),
    which event or which figure of a measure ("踩踏事故", "最高气温") the question names (:mod:`checks.constraints`)."""
    service: ServiceSignals = field(default_factory=ServiceSignals)
    """Explicit service signals: order/ticket ids, a request for a person, a complaint, account words."""
    told: tuple[str, ...] = ()
    """Terms only the asker's story names, in a clause or sentence that asks nothing ("家里下水道堵死了，叫物业师傅来通一下，
    人工费多少钱？": 家里, 堵死, 师傅, 通 …): what a source must hold is what the asking part names; a told word no
    document uses is no part of the question (the steps that know the knowledge base drop those)."""
    in_context: bool = False
    """``text`` is what was typed with the thread's topic put in front: the other reading of a message that found
    no answer alone (:func:`knowzero.routing.followup.with_context`); an answer must still name what was typed."""
    untranslated: tuple[str, ...] = ()
    """When ``text`` translates what was typed into the documents' language: the typed content words the
    translation has no word for (an answer to it may be about something else: never confirmed)."""

    def __post_init__(self) -> None:  # a checkpoint hands sequences back as lists: keep the declared tuples
        for name in ("tokens", "terms", "told", "entities", "constraints", "untranslated"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    @property
    def rewritten(self) -> bool:
        return bool(self.typed) and self.typed != self.text

    def reply_zh(self, ui: str | None = None) -> bool:
        """Reply in Chinese? The text's own language, else the UI's; English when neither says."""
        return (self.language or ui) == "zh"


def content_terms(words: Sequence[str]) -> tuple[str, ...]:
    """The words that name something: not stopwords, not question words, also as the segmenter glues them
    ("哪|一类" → nothing, "什么游戏" → 游戏).

    >>> content_terms(["洗牙", "属于", "医保", "哪", "一类"])
    ('洗牙', '属于', '医保')
    """
    out: list[str] = []
    for i, t in enumerate(words):
        if question_word(t):
            continue
        if i and words[i - 1] == "哪" and t.startswith("一"):  # 哪|一类: the numeral asks too
            t = t[1:] if len(t) >= 3 else ""
        t = without_question_word(t)
        if t and t not in STOPWORDS and (len(t) >= 2 or t.isdigit()):
            out.append(t)
    return tuple(dict.fromkeys(out))


def analyse(text: str, *, typed: str = "", untranslated: Sequence[str] = (), in_context: bool = False) -> Analysis:
    """The analysis of ``text`` (``typed``: what the user wrote, when ``text`` is its rewrite;
    ``untranslated``, ``in_context``: see :attr:`Analysis.untranslated`, :attr:`Analysis.in_context`)."""
    words = tuple(tokens(text, search=False))
    terms = content_terms(tokens(text, search=False, keep_stopwords=True))
    told: tuple[str, ...] = ()
    if (split := told_and_asked(text)) is not None:
        told = tuple(t for t in terms if story_word(t, *split))
    return Analysis(text=text, typed=typed if typed != text else "", language=message_language(text),
                    traditional=traditional(text), folded=fold(text).lower(), tokens=words, terms=terms, told=told,
                    asked_kind=asked_kind(text), yes_no=is_yes_no(text), computes=asks_to_compute(text),
                    approver=asks_approver(fold(text).lower()), asked_value=asked_value(fold(text).lower()),
                    entities=tuple(sorted(extract_entities(text))), constraints=constraints_of(text),
                    service=service_signals(text), untranslated=tuple(untranslated),
                    in_context=in_context and bool(typed) and typed != text)


def of(question: str, given: Analysis | None) -> Analysis:
    """``given`` when it is the analysis of ``question``, else a fresh one (a step called outside the graph,
    or on a rewritten question)."""
    return given if given is not None and given.text == question else analyse(question)
