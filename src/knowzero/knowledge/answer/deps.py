"""What answering needs, built once by the caller from its dependency container and passed to every step."""

from __future__ import annotations

from dataclasses import dataclass

from knowzero.config import Settings
from knowzero.input import message_language
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.llm.base import ChatProvider
from knowzero.streaming import Emit, silent


@dataclass(frozen=True)
class KnowledgeDeps:
    """What answering needs; built by the caller from its dependency container."""

    kb: KnowledgeBase
    settings: Settings
    provider: ChatProvider | None = None
    collections: tuple[str, ...] = ()
    """Collections the caller limits the search to (empty: the router decides)."""
    emit: Emit = silent
    """Event sink ``emit(event_type, **data)``; the graph passes its stream writer."""
    ui_language: str | None = None
    """The asker's UI language (zh | en): replies to a question without a language of its own follow it."""
    reply_language: str | None = None
    """The asker's language when the question read is a translation of what was asked (our words follow it)."""


def zh(text: str, ui: str | None = None) -> bool:
    """Reply in Chinese? The text's own language, else the UI's (``ui``); English when neither says."""
    return (message_language(text) or ui) == "zh"

