"""The dependency container every node receives through LangGraph's runtime context.

One :class:`Deps` is built per process by :func:`knowzero.wiring.build_deps` (the API's
``create_app`` and the CLI call it); each request gets a copy for its caller
(:meth:`Deps.for_user`). Nothing in the project reaches for a module-level instance: a node that
needs the knowledge base, a store or the classifier takes it from here. Tests build their own
(a temporary knowledge base, a scripted fake chat model) with the same function or by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from knowzero.config import Settings
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.lexicon import Lexicon
from knowzero.llm.base import ChatProvider
from knowzero.streaming import Emit, silent
from knowzero.users import User

if TYPE_CHECKING:
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.learning.service import LearningService
    from knowzero.llm.configured import ModelSwitch
    from knowzero.routing.classifier import IntentClassifier
    from knowzero.service.store import OrderSystem, SqlStore


class NotConfigured(RuntimeError):
    """A node needed a dependency the container was built without (a wiring bug, not user input)."""


@dataclass
class Deps:
    settings: Settings = field(default_factory=Settings)
    """This process's settings (never re-read from the environment by a node)."""
    kb: KnowledgeBase | None = None
    """The knowledge base (embedded indexes or PostgreSQL)."""
    provider: ChatProvider | None = None
    """The configured chat model, or None (offline). With a :attr:`model` switch, the copy each request
    gets (:meth:`for_user`) holds the switch's provider of that moment."""
    model: ModelSwitch | None = None
    """The run-time switchable model (Settings page → Model); None: ``provider`` is fixed for the process."""
    classifier: IntentClassifier | None = None
    """The tiered intent router."""
    store: SqlStore | None = None
    """Service tables: users and keys, tickets, handoffs, refunds, the review queue."""
    orders: OrderSystem | None = None
    """The order system the service tools use (the demo store unless a team plugs in its own)."""
    learning: LearningService | None = None
    """Learning documents, versions, comments, entities and paths."""
    user: User = field(default_factory=User)
    """Who is calling (per request)."""
    collections: tuple[str, ...] = ()
    """Knowledge collections this call is limited to (empty: the router decides)."""
    lexicon: Lexicon = field(default_factory=Lexicon)
    """English → Chinese terms (CC-CEDICT) for an English question over Chinese documents; loaded on first use."""

    def for_user(self, user: User, **changes: Any) -> Deps:
        """The same container for another caller (per request), with the model that answers now."""
        return replace(self, user=user, **{"provider": self.live_provider(), **changes})

    def live_provider(self) -> ChatProvider | None:
        """The chat model that answers now: the switch's (an admin may change it at run time) or the fixed one."""
        return self.model.current() if self.model is not None else self.provider

    def scoped(self, collections: Sequence[str] | None) -> Deps:
        """The same container limited to ``collections`` (a thread's choice); unchanged when none."""
        return replace(self, collections=tuple(collections)) if collections else self

    def need_kb(self) -> KnowledgeBase:
        if self.kb is None:
            raise NotConfigured("no knowledge base in the dependency container")
        return self.kb

    def need_store(self) -> SqlStore:
        if self.store is None:
            raise NotConfigured("no service store in the dependency container")
        return self.store

    def need_orders(self) -> OrderSystem:
        if self.orders is not None:
            return self.orders
        return self.need_store()

    def need_learning(self) -> LearningService:
        if self.learning is None:
            raise NotConfigured("no learning service in the dependency container")
        return self.learning

    def need_classifier(self) -> IntentClassifier:
        if self.classifier is None:
            raise NotConfigured("no intent classifier in the dependency container")
        return self.classifier

    def knowledge(self, emit: Emit = silent, ui_language: str | None = None) -> KnowledgeDeps:
        """What the knowledge pipeline needs, with an event sink and the asker's UI language."""
        return KnowledgeDeps(self.need_kb(), self.settings, self.live_provider(), self.collections, emit, ui_language)
