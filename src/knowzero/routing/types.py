"""The one result type every routing tier returns, and the product's intent names.

:class:`IntentResult` is what the graph turns into the ``intent_classified`` event: which intent,
how sure (a calibrated probability, not a raw similarity), which tier decided, how long it took
and a short human reason. It is a frozen value object; the classifier's cache hands out copies
marked ``cached=True`` rather than mutating anything.

This module deliberately holds no logic beyond (de)serialisation: tiers live in their own modules.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal, Protocol

import numpy as np

Method = Literal["rule", "fuzzy", "semantic", "llm", "source"]
"""Which tier decided: strong rule, fuzzy keyword match, embedding similarity, LLM, or the input's
non-chat ``source`` (no classification at all)."""

METHODS: tuple[str, ...] = ("rule", "fuzzy", "semantic", "llm", "source")

ProductIntent = Literal[
    "knowledge", "realtime", "action", "chitchat", "clarify", "mixed",
    "new_topic", "follow_up", "comparison", "optimize_content", "navigate", "plan",
]
"""The product's intents (PRODUCT.md §3). The data file must define exactly these."""

PRODUCT_INTENTS: tuple[str, ...] = (
    "knowledge", "realtime", "action", "chitchat", "clarify", "mixed",
    "new_topic", "follow_up", "comparison", "optimize_content", "navigate", "plan",
)

SERVICE_INTENTS: tuple[str, ...] = ("realtime", "action")
"""Intents that are customer-service requests: ``realtime`` looks something up (order, parcel,
ticket, refund status), ``action`` does something (refund, return, ticket, complaint, human agent)."""

Source = Literal["chat", "comment", "entity", "follow_up", "entry"]


@dataclass(frozen=True, slots=True)
class IntentResult:
    """One routing decision.

    >>> r = IntentResult("chitchat", 1.0, "rule", 0.02, "greeting", (("chitchat", 1.0),))
    >>> r.to_event()["method"]
    'rule'
    """

    intent: str
    """The decided intent (a product intent, or a label of a classifier built from examples)."""
    confidence: float
    """Calibrated probability in [0, 1] that ``intent`` is right (rules say 1.0)."""
    method: Method
    """The tier that decided (a cache hit keeps the original tier and sets ``cached``)."""
    elapsed_ms: float
    """Wall time measured with ``time.perf_counter``: the tier's own, or the whole chain's."""
    reasoning: str = ""
    """A short human-readable reason (which rule, which nearest example, why a fallback)."""
    candidates: tuple[tuple[str, float], ...] = field(default_factory=tuple)
    """Up to three ``(intent, score)`` pairs, best first."""
    cached: bool = False
    """True when the classifier answered from its cache."""
    tiers: tuple[tuple[str, float], ...] = field(default_factory=tuple)
    """``(method, elapsed_ms)`` of every tier the chain ran, in order (empty for a single tier)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence}")
        if self.method not in METHODS:
            raise ValueError(f"unknown method {self.method!r}")

    @property
    def service(self) -> bool:
        """True when ``intent`` is a service request (:data:`SERVICE_INTENTS`)."""
        return self.intent in SERVICE_INTENTS

    def with_(self, **changes: Any) -> IntentResult:
        """A copy with some fields changed (the result itself is immutable)."""
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict of every field."""
        d = asdict(self)
        d["candidates"] = [[name, score] for name, score in self.candidates]
        d["tiers"] = [[name, ms] for name, ms in self.tiers]
        return d

    def to_event(self) -> dict[str, Any]:
        """Payload of the ``intent_classified`` SSE event (PRODUCT.md §5)."""
        return {
            "intent": self.intent,
            "confidence": round(self.confidence, 4),
            "method": self.method,
            "elapsed_ms": round(self.elapsed_ms, 3),
            "reasoning": self.reasoning,
        }


class Encoder(Protocol):
    """What the semantic tier needs from an embedding model (``models.embeddings.router()``)."""

    def encode(self, texts: list[str]) -> np.ndarray:
        """``(n, d)`` L2-normalised float32 vectors."""
        ...
