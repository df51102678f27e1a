"""Tier 4: LLM classification with a JSON answer, the last and slowest tier.

The chain calls it only when a provider is configured and every earlier tier is below the
threshold. The prompt lists each intent with its one-line description (from the data file) and
passes the earlier tiers' best guesses as hints. The answer must be JSON
``{"intent": <one of the names>, "confidence": <0..1>, "reasoning": <short>}``; anything else —
invalid JSON, an unknown intent, a non-numeric confidence, a timeout — raises
:class:`knowzero.errors.ProviderError`, and the chain keeps the best earlier result.

Deliberately not done here: retries (a slow LLM is worse than the fallback), caching (the
classifier caches), and trusting the model's confidence beyond clamping it to [0, 1].
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from knowzero.errors import ProviderError
from knowzero.llm.base import ChatProvider, chat_json
from knowzero.routing.types import IntentResult

MAX_MESSAGE_CHARS = 2000

SYSTEM_PROMPT = """You are the intent router of KnowZero, a knowledge, learning and customer-service assistant.
Classify the user's message into exactly one intent:
{intents}
Pick "{fallback}" when the message is too vague to act on.
Answer with one JSON object and nothing else:
{{"intent": "<intent name>", "confidence": <number 0-1>, "reasoning": "<at most 15 words>"}}"""


class LLMTier:
    """JSON classifier over a provider; intents and descriptions come from the data file.

    >>> tier = LLMTier({"chitchat": "greetings", "clarify": "too vague"}, fallback="clarify")
    >>> tier.schema["properties"]["intent"]["enum"]
    ['chitchat', 'clarify']
    """

    method = "llm"

    def __init__(self, descriptions: Mapping[str, str], *, fallback: str | None = None,
                 max_tokens: int = 150) -> None:
        if len(descriptions) < 2:
            raise ValueError("the LLM tier needs at least two intents")
        self.descriptions = dict(descriptions)
        self.fallback = fallback if fallback in self.descriptions else next(iter(self.descriptions))
        self.max_tokens = max_tokens
        lines = "\n".join(f"- {name}: {desc}" for name, desc in self.descriptions.items())
        self.system_prompt = SYSTEM_PROMPT.format(intents=lines, fallback=self.fallback)
        self.schema: dict[str, Any] = {
            "type": "object",
            "required": ["intent", "confidence"],
            "properties": {
                "intent": {"type": "string", "enum": list(self.descriptions)},
                "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                "reasoning": {"type": "string", "maxLength": 80},  # bounded: fits max_tokens
            },
        }

    def messages(self, text: str, hints: Sequence[tuple[str, float]] = ()) -> list[dict[str, str]]:
        """The chat messages sent to the provider."""
        user = f"Message: {text[:MAX_MESSAGE_CHARS]}"
        if hints:
            user += "\nFaster classifiers guessed (not reliable): " + ", ".join(
                f"{name} {score:.2f}" for name, score in hints)
        return [{"role": "system", "content": self.system_prompt}, {"role": "user", "content": user}]

    def classify(self, text: str, provider: ChatProvider,
                 hints: Sequence[tuple[str, float]] = ()) -> IntentResult:
        """Ask the provider. Raises ProviderError on any failure or invalid answer."""
        start = time.perf_counter()
        data = chat_json(provider, self.messages(text, hints), self.schema, max_tokens=self.max_tokens)
        intent = data.get("intent")
        if intent not in self.descriptions:
            raise ProviderError("the model answered an unknown intent")
        try:
            confidence = min(1.0, max(0.0, float(data["confidence"])))
        except (TypeError, ValueError) as exc:
            raise ProviderError("the model's confidence was not a number") from exc
        reason = str(data.get("reasoning") or "").strip()[:200]
        name = getattr(provider, "name", type(provider).__name__)
        return IntentResult(
            intent=intent, confidence=confidence, method="llm",
            elapsed_ms=(time.perf_counter() - start) * 1000.0,
            reasoning=f"{name}: {reason}" if reason else f"{name} classified it",
            candidates=((intent, round(confidence, 4)),),
        )
