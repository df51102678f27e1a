"""Builds the dependency container — the one place where the process's objects are made.

``create_app`` (the API) and the CLI call :func:`build_deps` once; everything else receives the
pieces it needs from the resulting :class:`~knowzero.graph.context.Deps`. Nothing below keeps a
module-level instance, so two containers (two data directories in one test run, an API next to a
benchmark) never share state by accident.

    deps = build_deps(Settings())            # engine, knowledge base, provider, router, stores, learning
    ans = answer_sync("零件A的公差是多少？", deps.knowledge())
"""

from __future__ import annotations

from knowzero.config import Settings
from knowzero.graph.context import Deps
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.learning.service import LearningService
from knowzero.llm.base import ChatProvider
from knowzero.llm.configured import ModelSettingsStore, ModelSwitch, StoredModel
from knowzero.llm.factory import build_provider, openai_provider
from knowzero.persistence.db import make_engine
from knowzero.persistence.threads import ThreadDirectory
from knowzero.routing.classifier import IntentClassifier
from knowzero.service.store import OrderSystem, SqlStore

_CONFIGURED = object()


def build_deps(settings: Settings, *, provider: ChatProvider | None | object = _CONFIGURED,
               classifier: IntentClassifier | bool = True, orders: OrderSystem | None = None) -> Deps:
    """The container for ``settings``: one engine shared by every store, the knowledge base
    (refreshed), the chat model behind a run-time switch (the one an admin saved on the Settings page,
    else the configured one or ``provider`` when given, ``None`` for offline), the
    intent router (skipped with ``classifier=False`` for commands that never route; an instance is
    used as given — its semantic head takes ~2 s to fit, so tests share one), the service
    store, the order system (``orders`` for a team's own, else the demo store) and learning."""
    engine = make_engine(settings.db_url)
    kb = KnowledgeBase(engine, settings)
    kb.refresh()
    fallback = build_provider(settings) if provider is _CONFIGURED else provider
    assert fallback is None or isinstance(fallback, ChatProvider)
    switch = ModelSwitch(ModelSettingsStore(engine), fallback=fallback,
                         build=lambda m: _saved_provider(settings, m))
    store = SqlStore(engine)
    return Deps(settings=settings, kb=kb, provider=switch.current(), model=switch,
                classifier=_classifier(classifier, settings.route_threshold),
                store=store, orders=orders or store, learning=LearningService(engine, kb=kb, provider=switch.current,
                                                                              settings=settings))


def _saved_provider(settings: Settings, m: StoredModel) -> ChatProvider:
    return openai_provider(settings, m.base_url, m.model, m.api_key)


def _classifier(choice: IntentClassifier | bool, threshold: float) -> IntentClassifier | None:
    if isinstance(choice, IntentClassifier):
        return choice
    return IntentClassifier.from_package_data(threshold=threshold) if choice else None


def thread_directory(deps: Deps) -> ThreadDirectory:
    """Thread owners and titles on the container's database."""
    return ThreadDirectory(deps.need_kb().engine)
