"""The tiered intent classifier: rules → fuzzy → semantic → LLM, with an LRU cache.

Each tier answers with an :class:`IntentResult`; the first whose confidence reaches the
threshold (``settings.route_threshold``, 0.6) decides. Below it, the chain falls through; the
LLM tier runs only when a provider is passed, and if it fails (:class:`ProviderError`) the best
earlier result is kept and the reasoning says so. With no provider the best earlier result is
returned as is, low confidence included, so the graph can take the safe (ReAct) path.

Results are cached per normalised message (and per "was a provider offered"), least recently
used first out; a hit returns the original tier's result with ``cached=True`` and the lookup's
own ``elapsed_ms``. A result reached after an LLM failure is not cached, so the next identical
message tries the LLM again.

``IntentClassifier.from_package_data()`` builds the product classifier from
``routing/data/intents.json``; ``IntentClassifier.from_examples()`` builds one from any labelled
examples (used by the evaluation). :func:`classify_source` maps non-chat inputs without any
classification. Deliberately not here: conversation context (pronoun resolution happens before
routing), and deciding paths from intents (the graph does that).

>>> clf = IntentClassifier.from_package_data()  # doctest: +SKIP
>>> clf.classify("我想学 LangGraph").to_event()  # doctest: +SKIP
{'intent': 'new_topic', 'confidence': 1.0, 'method': 'rule', 'elapsed_ms': 0.012, 'reasoning': "rule 'new-topic' ..."}
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, model_validator

from knowzero.config import Settings
from knowzero.errors import InvalidInput, ProviderError
from knowzero.llm.base import ChatProvider
from knowzero.routing.fuzzy import FuzzyTier
from knowzero.routing.llm import LLMTier
from knowzero.routing.rules import CompoundRule, RuleTier
from knowzero.routing.semantic import SemanticTier
from knowzero.routing.text import normalize
from knowzero.routing.types import PRODUCT_INTENTS, Encoder, IntentResult

MAX_CLASSIFY_CHARS = 1000


# ---------------------------------------------------------------------------- data file
LLM_CHOICES = 3
"""The LLM tier chooses among this many of the offline tiers' best guesses (their ranked candidates)."""
LLM_UNAVAILABLE = "LLM unavailable"
"""Marks a result's reasoning when the LLM tier failed and an offline tier decided."""


def unavailable_reason(reasoning: str | None) -> str | None:
    """Why the LLM tier failed, from a result's reasoning (``"LLM unavailable (why); kept …"``), or None.

    >>> unavailable_reason("LLM unavailable (the language model answered HTTP 500); kept the rule result")
    'the language model answered HTTP 500'
    >>> unavailable_reason("semantic match 0.91") is None
    True
    """
    if not reasoning or LLM_UNAVAILABLE not in reasoning:
        return None
    rest = reasoning.split(LLM_UNAVAILABLE, 1)[1].strip()
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0:
                return rest[1:i].strip()
    return rest.strip(" ();").split(";")[0]

class IntentSpec(BaseModel):
    """One intent in the data file."""

    description: str
    examples: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    task_words: list[str] = Field(default_factory=list)
    """Short topical words (订单, policy) that mark a task for the compound rule only (too generic for fuzzy)."""
    whole_message: bool = False
    """Keywords count for the fuzzy tier only when they cover the message (chitchat's 你叫什么 must
    not fire inside "访客WiFi叫什么"); see :class:`FuzzyTier`."""
    cue: str | None = None
    """A regex the message must match for the semantic tier to choose this intent: a learning plan is asked for
    with a word of learning ("学习", "掌握", "roadmap"); "一个学期里晚归了3次，学校会怎么处理？" is like no example
    and merely nearest to "我想在一个月内掌握 SQL，怎么安排" — its next candidate is taken instead."""


class RuleSpec(BaseModel):
    """One strong rule: a regex on the normalised message."""

    name: str
    intent: str
    pattern: str


class CompoundSpec(BaseModel):
    """Several task intents joined by a connector → ``intent``."""

    intent: str
    task_intents: list[str]
    connectors: list[str]
    min_segments: int = 2
    repeatable_intents: list[str] = Field(default_factory=list)


class RoutingData(BaseModel):
    """The whole ``intents.json``; validated so a typo in the data fails at load, not per message."""

    version: int
    about: str = ""
    oos_label: str
    intents: dict[str, IntentSpec]
    compound: CompoundSpec | None = None
    rules: list[RuleSpec] = Field(default_factory=list)
    fillers: list[str] = Field(default_factory=list)
    """Words that may surround a whole-message keyword without adding content (呀, 名字, please)."""

    @model_validator(mode="after")
    def _known_intents(self) -> RoutingData:
        known = set(self.intents)
        used = {r.intent for r in self.rules} | {self.oos_label}
        if self.compound is not None:
            used |= {self.compound.intent, *self.compound.task_intents, *self.compound.repeatable_intents}
        if unknown := sorted(used - known):
            raise ValueError(f"rules or labels name unknown intents: {unknown}")
        return self


def load_routing_data(path: Path | None = None) -> RoutingData:
    """Read and validate a routing data file (default: the packaged ``data/intents.json``)."""
    if path is None:
        raw = resources.files("knowzero.routing").joinpath("data/intents.json").read_text(encoding="utf-8")
    else:
        raw = Path(path).read_text(encoding="utf-8")
    return RoutingData.model_validate(json.loads(raw))


# ---------------------------------------------------------------------------- classifier
DEFAULT_ROUTE_THRESHOLD: float = Settings.model_fields["route_threshold"].default


class IntentClassifier:
    """The tier chain. Build it with :meth:`from_package_data` or :meth:`from_examples`.

    ``threshold`` defaults to the setting's default (the container passes ``route_threshold``). ``fallback`` is the intent
    returned (confidence 0) when no tier has an opinion at all (a chain without a semantic tier).
    """

    def __init__(self, *, rules: RuleTier | None = None, fuzzy: FuzzyTier | None = None,
                 semantic: SemanticTier | None = None, llm: LLMTier | None = None,
                 threshold: float | None = None, cache_size: int = 1024, fallback: str = "clarify",
                 cues: Mapping[str, str] | None = None) -> None:
        if threshold is None:
            threshold = DEFAULT_ROUTE_THRESHOLD
        if not 0.0 <= threshold <= 1.0:
            raise ValueError("threshold must be in [0, 1]")
        if cache_size < 0:
            raise ValueError("cache_size must be >= 0")
        self.rules, self.fuzzy, self.semantic, self.llm = rules, fuzzy, semantic, llm
        self.threshold = threshold
        self.fallback = fallback
        self.cues = {name: re.compile(pattern, re.I) for name, pattern in (cues or {}).items()}
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, bool], IntentResult] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    # ------------------------------------------------------------------ builders
    @classmethod
    def from_package_data(cls, path: Path | None = None, *, encoder: Encoder | None = None,
                          threshold: float | None = None, cache_size: int = 1024) -> IntentClassifier:
        """The product classifier: every tier, configured from the data file."""
        data = load_routing_data(path)
        keywords = {name: spec.keywords for name, spec in data.intents.items() if spec.keywords}
        compound = None
        if data.compound is not None:
            compound = CompoundRule.build(
                data.compound.intent, data.compound.connectors,
                {name: data.intents[name].keywords + data.intents[name].task_words
                 for name in data.compound.task_intents},
                data.compound.min_segments, data.compound.repeatable_intents)
        return cls(
            rules=RuleTier([r.model_dump() for r in data.rules], compound=compound),
            fuzzy=FuzzyTier(keywords, fillers=data.fillers,
                            whole_message=[name for name, spec in data.intents.items() if spec.whole_message]),
            semantic=SemanticTier({name: spec.examples for name, spec in data.intents.items()},
                                  oos_label=data.oos_label, encoder=encoder),
            llm=LLMTier({name: spec.description for name, spec in data.intents.items()},
                        fallback=data.oos_label),
            threshold=threshold, cache_size=cache_size, fallback=data.oos_label,
            cues={name: spec.cue for name, spec in data.intents.items() if spec.cue},
        )

    @classmethod
    def from_examples(cls, examples: Mapping[str, Sequence[str]], oos_label: str | None = None, *,
                      keywords: Mapping[str, Sequence[str]] | None = None,
                      rules: Sequence[tuple[str, str] | Mapping[str, str]] | None = None,
                      descriptions: Mapping[str, str] | None = None, encoder: Encoder | None = None,
                      threshold: float | None = None, cache_size: int = 1024,
                      **semantic_options: Any) -> IntentClassifier:
        """A classifier for arbitrary labelled data.

        ``examples`` maps label → utterances. With ``oos_label``, utterances under that label (if
        any) are out-of-scope examples and low-confidence predictions become ``oos_label``.
        ``keywords``/``rules`` add the fuzzy/rule tiers; ``descriptions`` feed the LLM tier
        (default: three examples per label). ``semantic_options`` go to :class:`SemanticTier`.
        """
        if descriptions is None:
            descriptions = {label: "e.g. " + " | ".join(utts[:3]) for label, utts in examples.items() if utts}
            if oos_label is not None:
                descriptions.setdefault(oos_label, "out of scope: none of the other intents")
        return cls(
            rules=RuleTier(rules) if rules else None,
            fuzzy=FuzzyTier(keywords) if keywords else None,
            semantic=SemanticTier(examples, oos_label=oos_label, encoder=encoder, **semantic_options),
            llm=LLMTier(descriptions, fallback=oos_label),
            threshold=threshold, cache_size=cache_size,
            fallback=oos_label if oos_label is not None else next(iter(examples)),
        )

    # ------------------------------------------------------------------ classify
    @property
    def intents(self) -> tuple[str, ...]:
        """Every intent this classifier can return."""
        found: list[str] = list(self.semantic.labels) if self.semantic is not None else []
        for tier in (self.rules, self.fuzzy):
            if tier is not None:
                found += sorted(tier.intents - set(found))
        return tuple(found)

    def classify(self, text: str, provider: ChatProvider | None = None) -> IntentResult:
        """Route one chat message. Never raises for a provider failure (falls back instead)."""
        start = time.perf_counter()
        norm = normalize(text)[:MAX_CLASSIFY_CHARS]
        key = (norm, provider is not None and self.llm is not None)
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None:
                self._cache.move_to_end(key)
                self._hits += 1
        if hit is not None:
            return hit.with_(cached=True, elapsed_ms=(time.perf_counter() - start) * 1000.0)
        result, cacheable = self._run(norm, provider)
        result = result.with_(elapsed_ms=(time.perf_counter() - start) * 1000.0)
        with self._lock:
            self._misses += 1
            if cacheable and self.cache_size:
                self._cache[key] = result
                self._cache.move_to_end(key)
                while len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        return result

    def _run(self, norm: str, provider: ChatProvider | None) -> tuple[IntentResult, bool]:
        tried: list[IntentResult] = []
        for tier in (self.rules, self.fuzzy, self.semantic):
            if tier is None:
                continue
            r = tier.classify(norm)
            if r is None:
                continue
            if tier is self.semantic:
                r = self._cued(r, norm)
            tried.append(r)
            if r.confidence >= self.threshold:
                return self._decide(r, tried), True
        best = max(tried, key=lambda r: r.confidence) if tried else None
        if provider is not None and self.llm is not None:
            hints = best.candidates if best is not None else ()
            try:
                r = self.llm.classify(norm, provider, hints=hints)
            except ProviderError as exc:
                note = f"{LLM_UNAVAILABLE} ({exc.message}); kept the {best.method if best else 'fallback'} result"
                chosen = best or self._nothing()
                return self._decide(chosen, tried, note=note), False
            shortlist = {name for name, _ in hints[:LLM_CHOICES]}
            if best is not None and shortlist and r.intent not in shortlist:
                # the model picks among the offline tiers' best guesses: a model that invents ("订单123退款500元"
                # → a learning plan) cannot send a message where none of them would
                note = (f"{LLM_UNAVAILABLE} (the model's intent is none of the offline tiers' {LLM_CHOICES} best "
                        f"guesses); kept the {best.method} result, not the model's {r.intent}")
                return self._decide(best, tried, note=note), True
            tried.append(r)
            return self._decide(r, tried), True
        return self._decide(best or self._nothing(), tried), True

    def _cued(self, r: IntentResult, norm: str) -> IntentResult:
        """``r``, or its best candidate whose cue (:attr:`IntentSpec.cue`) the message meets when ``r``'s is not —
        with its probability given that ``r``'s intent is ruled out (the candidates' shares renormalised)."""
        if (cue := self.cues.get(r.intent)) is None or cue.search(norm):
            return r
        left = 1.0
        ruled_out = []
        for name, p in r.candidates:
            if (c := self.cues.get(name)) is not None and not c.search(norm):
                left -= p
                ruled_out.append(name)
                continue
            return r.with_(intent=name, confidence=round(min(1.0, p / left), 4) if left > 0 else 0.0,
                           candidates=tuple(x for x in r.candidates if x[0] not in ruled_out),
                           reasoning=f"{r.reasoning}; no word asks for {' or '.join(ruled_out)}: {name}")
        return r

    def _nothing(self) -> IntentResult:
        return IntentResult(self.fallback, 0.0, "rule", 0.0, "no tier had an opinion")

    def _decide(self, chosen: IntentResult, tried: list[IntentResult], note: str = "") -> IntentResult:
        below = [f"{r.method} {r.intent} {r.confidence:.2f}" for r in tried
                 if r is not chosen and r.confidence < self.threshold]
        reasoning = chosen.reasoning
        if below:
            reasoning = f"{'; '.join(below)} below {self.threshold:.2f} → {chosen.method}: {reasoning}"
        if note:
            reasoning = f"{reasoning}; {note}"
        return chosen.with_(reasoning=reasoning, tiers=tuple((r.method, r.elapsed_ms) for r in tried))

    # ------------------------------------------------------------------ cache
    def cache_info(self) -> dict[str, int]:
        """Hits, misses, current size and capacity of the result cache."""
        with self._lock:
            return {"hits": self._hits, "misses": self._misses, "size": len(self._cache), "maxsize": self.cache_size}

    def clear_cache(self) -> None:
        with self._lock:
            self._cache.clear()
            self._hits = self._misses = 0


# ---------------------------------------------------------------------------- non-chat sources
_SOURCE_REASON = {
    "comment": ("optimize_content", "a comment on highlighted text is a request to improve that passage"),
    "follow_up": ("follow_up", "a clicked suggested question continues the current topic"),
    "entry": ("new_topic", "a topic picked on the start page starts a new topic"),
}


def classify_source(source: str, has_entity_page: bool | None = None) -> IntentResult:
    """Map a non-chat input to its intent without classification (method ``source``, confidence 1).

    ``comment`` → optimize_content; ``entity`` → navigate when its page exists (or when that is
    not known: the navigate path checks and creates the page), new_topic when it does not;
    ``follow_up`` → follow_up; ``entry`` → new_topic. ``chat`` needs :meth:`IntentClassifier.classify`.
    """
    start = time.perf_counter()
    if source == "entity":
        if has_entity_page is False:
            intent, reason = "new_topic", "clicked term has no page yet: create it"
        else:
            known = "exists" if has_entity_page else "may exist (the navigate path checks)"
            intent, reason = "navigate", f"clicked term's page {known}"
    elif source in _SOURCE_REASON:
        intent, reason = _SOURCE_REASON[source]
    elif source == "chat":
        raise InvalidInput("chat messages need classification: use IntentClassifier.classify")
    else:
        raise InvalidInput(f"unknown input source {source!r}")
    assert intent in PRODUCT_INTENTS
    return IntentResult(intent=intent, confidence=1.0, method="source",
                        elapsed_ms=(time.perf_counter() - start) * 1000.0,
                        reasoning=f"source '{source}': {reason}", candidates=((intent, 1.0),))
