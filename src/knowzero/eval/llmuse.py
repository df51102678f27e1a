"""Which chat model a benchmark runs, and what it reports about the model's use.

Every ``knowzero eval …`` command takes ``--provider none|openai|local`` (default: the configured
``KNOWZERO_LLM_PROVIDER``). :func:`choose_provider` builds that provider from the settings
(``openai`` still needs ``KNOWZERO_LLM_BASE_URL`` and ``KNOWZERO_LLM_MODEL``) and wraps it in a
:class:`~knowzero.llm.metered.MeteredProvider`; :class:`LLMUse` then counts, per turn, whether the
model was called and whether a step fell back to the offline path (the ``llm_fallback`` events
the steps emit, plus those a benchmark reports itself), and :meth:`LLMUse.report` gives the keys
every eval prints beside its own figures:

``provider``, ``model``, ``llm_calls``, ``llm_errors`` (provider-level failures by reason),
``llm_fallbacks``, ``llm_fallback_reasons`` (``"step: reason"`` → count), ``llm_p50_s``,
``llm_p95_s``, ``llm_turns`` (turns that called the model), ``llm_fallback_turns``, ``turns``, and
``llm_refused``: calls the provider refused without contacting the model (its cool-down after a timeout),
which are fallbacks but not calls — they would otherwise count as instant calls and make a hanging model
look like the fastest.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from knowzero.config import Settings
from knowzero.eval.metrics import percentile
from knowzero.llm.factory import build_provider
from knowzero.llm.metered import CallLog, MeteredProvider, metered, model_of

PROVIDERS = ("none", "openai", "local")
PROVIDER_HELP = ("Chat model for the LLM steps: none (offline) | openai (KNOWZERO_LLM_BASE_URL/MODEL) | local "
                 "(the bundled GGUF). Default: the configured KNOWZERO_LLM_PROVIDER.")


def choose_provider(choice: str | None, settings: Settings | None = None) -> MeteredProvider | None:
    """The provider ``choice`` names (None: the configured one), metered; None for ``none``.

    Raises ValueError with a message for the user (an unknown name, ``openai`` without its URL/model).
    """
    base = settings if settings is not None else Settings()
    name = base.llm_provider if choice is None else choice
    if name not in PROVIDERS:
        raise ValueError(f"--provider must be one of {', '.join(PROVIDERS)} (got {name!r})")
    if name == "none":
        return None
    try:
        s = base.model_copy(update={"llm_provider": name})
        s = Settings.model_validate(s.model_dump())
    except ValueError as exc:
        raise ValueError(f"--provider {name}: set KNOWZERO_LLM_BASE_URL and KNOWZERO_LLM_MODEL "
                         "(an OpenAI-compatible server)" if name == "openai" else f"--provider {name}: {exc}") from exc
    inner = build_provider(s)
    return metered(inner) if inner is not None else None


def cli_provider(choice: str | None) -> MeteredProvider | None:
    """:func:`choose_provider` for a CLI command: a bad choice prints ``error: …`` and exits 2."""
    import typer

    try:
        return choose_provider(choice)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc


class LLMUse:
    """Counts a benchmark's use of one (metered) provider, turn by turn.

    >>> use = LLMUse(None)
    >>> with use.turn():
    ...     pass
    >>> use.report()["llm_calls"], use.report()["turns"]
    (0, 1)
    """

    def __init__(self, provider: MeteredProvider | None) -> None:
        self.provider = provider
        self.log: CallLog = provider.log if provider is not None else CallLog()
        self.turns = 0
        self.model_turns = 0
        self.fallback_turns = 0
        self._start = self.log.mark()
        """Only what the provider recorded from here on counts (one provider may serve several runs)."""
        self._refused0 = len(self.log.refused)

    def emit(self, event_type: str, **data: Any) -> None:
        """The event sink to hand to the steps (keeps ``llm_fallback`` events)."""
        self.log.emit(event_type, **data)

    def fallback(self, step: str, reason: str) -> None:
        """A fallback the benchmark saw itself (a step that reports it in its result, not as an event)."""
        self.log.fallback(step, reason)

    def reset(self) -> None:
        """Forget the calls and turns so far (a warm-up question that loaded the models)."""
        self._start = self.log.mark()
        self._refused0 = len(self.log.refused)
        self.turns = self.model_turns = self.fallback_turns = 0

    def turn(self) -> _Turn:
        """``with use.turn(): …`` around one question/turn/document."""
        return _Turn(self)

    def report(self) -> dict[str, Any]:
        p = self.provider
        calls0, fallbacks0 = self._start
        secs = self.log.seconds[calls0:]
        fallbacks = self.log.fallbacks[fallbacks0:]
        errors = Counter(reason for i, reason in self.log.errors if i >= calls0)
        reasons = Counter(f"{step}: {reason}" for step, reason in fallbacks)
        return {"provider": p.name if p is not None else "none", "model": model_of(p) if p is not None else "",
                "llm_calls": len(secs), "llm_refused": len(self.log.refused) - self._refused0,
                "llm_errors": dict(errors.most_common()),
                "llm_fallbacks": len(fallbacks), "llm_fallback_reasons": dict(reasons.most_common()),
                "llm_p50_s": round(percentile(secs, 50), 3) if secs else None,
                "llm_p95_s": round(percentile(secs, 95), 3) if secs else None,
                "llm_turns": self.model_turns, "llm_fallback_turns": self.fallback_turns, "turns": self.turns}


class _Turn:
    def __init__(self, use: LLMUse) -> None:
        self.use = use
        self.calls = 0
        self.fallbacks = 0

    def __enter__(self) -> _Turn:
        self._mark = self.use.log.mark()
        return self

    def __exit__(self, *exc: object) -> None:
        self.calls, self.fallbacks = self.use.log.since(self._mark)
        self.use.turns += 1
        self.use.model_turns += self.calls > 0
        self.use.fallback_turns += self.fallbacks > 0
