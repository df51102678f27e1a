"""Tier 1: strong rules (precompiled regexes and one compound-task rule), confidence 1.0.

A rule is ``(intent, pattern)``; rules are tried in data-file order and the first match wins, so
specific rules (``系统地学`` → plan) come before general ones (``我想学`` → new_topic). The one
non-regex rule detects *several tasks in one message*: the message split at connectors (然后,
另外, "+", "and also"...) has task keywords in at least two pieces, of different intents
(查订单 → realtime, 退款政策 → knowledge, 写邮件 → action) or of a repeatable one (two actions).
Keywords are matched longest first, so 退款政策 counts as knowledge, not as the action word 退款.

Rules return ``None`` when nothing matches: they never guess. They deliberately do not handle
typos (that is :mod:`knowzero.routing.fuzzy`) or paraphrases (:mod:`knowzero.routing.semantic`).

>>> tier = RuleTier([("chitchat", r"^(hi|hello|你好)[!！。.]*$")])
>>> tier.classify("你好！").intent
'chitchat'
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from knowzero.routing.text import normalize
from knowzero.routing.types import IntentResult


@dataclass(frozen=True, slots=True)
class Rule:
    """One strong rule."""

    intent: str
    pattern: re.Pattern[str]
    name: str


@dataclass(frozen=True, slots=True)
class CompoundRule:
    """Several tasks in one message → ``intent`` (the product's ``mixed``).

    The message is split at connectors; it is compound when at least ``min_segments`` pieces each
    hold a task keyword, and those keywords belong to different intents (or all to an intent in
    ``repeatable``: two actions are two tasks, two policies are one question).
    """

    intent: str
    connectors: re.Pattern[str]
    keywords: re.Pattern[str]
    keyword_intent: Mapping[str, str]
    min_segments: int = 2
    repeatable: frozenset[str] = frozenset()

    @classmethod
    def build(cls, intent: str, connectors: Iterable[str], keywords: Mapping[str, Iterable[str]],
              min_segments: int = 2, repeatable: Iterable[str] = ()) -> CompoundRule:
        """``connectors`` are regexes; ``keywords`` maps each task intent to literal words/phrases."""
        owner: dict[str, str] = {}
        for task_intent, words in keywords.items():
            for word in words:
                if norm := normalize(word):
                    owner.setdefault(norm, task_intent)
        if not owner or min_segments < 2:
            raise ValueError("a compound rule needs keywords and min_segments >= 2")
        alternation = "|".join(re.escape(w) for w in sorted(owner, key=len, reverse=True))
        return cls(intent, re.compile("|".join(f"(?:{c})" for c in connectors)), re.compile(alternation),
                   owner, min_segments, frozenset(repeatable))

    def match(self, text: str) -> str | None:
        """The reason string when ``text`` holds several tasks, else None."""
        pieces = self.connectors.split(text)
        if len(pieces) < self.min_segments:
            return None
        found: list[tuple[str, str]] = []
        for piece in pieces:
            m = self.keywords.search(piece)
            if m is not None:
                found.append((self.keyword_intent[m.group(0)], m.group(0)))
        intents = {i for i, _ in found}
        if len(found) < self.min_segments or (len(intents) == 1 and not intents <= self.repeatable):
            return None
        return "several tasks: " + " + ".join(f"{i} ({w})" for i, w in found)


class RuleTier:
    """Precompiled strong rules; :meth:`classify` costs a few microseconds.

    ``rules`` is a sequence of ``(intent, regex)`` or mappings with ``intent``, ``pattern`` and an
    optional ``name``. Patterns are matched case-insensitively against the normalised message.
    """

    method = "rule"

    def __init__(self, rules: Sequence[tuple[str, str] | Mapping[str, str]],
                 compound: CompoundRule | None = None) -> None:
        compiled: list[Rule] = []
        for i, spec in enumerate(rules):
            if isinstance(spec, Mapping):
                intent, pattern, name = spec["intent"], spec["pattern"], spec.get("name", f"rule {i}")
            else:
                intent, pattern = spec
                name = f"rule {i}"
            try:
                compiled.append(Rule(intent, re.compile(pattern, re.IGNORECASE), name))
            except re.error as exc:
                raise ValueError(f"rule {name!r} ({intent}) has an invalid regex: {exc}") from exc
        self.rules: tuple[Rule, ...] = tuple(compiled)
        self.compound = compound

    @property
    def intents(self) -> set[str]:
        found = {r.intent for r in self.rules}
        if self.compound is not None:
            found.add(self.compound.intent)
        return found

    def classify(self, text: str) -> IntentResult | None:
        """The first matching rule's intent with confidence 1.0, or None."""
        start = time.perf_counter()
        norm = normalize(text)
        if self.compound is not None:
            reason = self.compound.match(norm)
            if reason is not None:
                return self._result(self.compound.intent, f"rule 'compound': {reason}", start)
        for rule in self.rules:
            m = rule.pattern.search(norm)
            if m is not None:
                return self._result(rule.intent, f"rule '{rule.name}' matched '{m.group(0)}'", start)
        return None

    def _result(self, intent: str, reasoning: str, start: float) -> IntentResult:
        return IntentResult(intent=intent, confidence=1.0, method="rule",
                            elapsed_ms=(time.perf_counter() - start) * 1000.0,
                            reasoning=reasoning, candidates=((intent, 1.0),))
