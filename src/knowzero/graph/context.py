"""Run dependencies handed to every node through LangGraph's runtime context.

Heavy objects (knowledge base, models, provider) are process-wide singletons; this only
bundles references to them, plus who is calling. Tests pass their own (a temp knowledge base,
a scripted fake chat model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from knowzero.config import Settings, get_settings
from knowzero.llm.base import ChatProvider
from knowzero.users import User


@dataclass
class Deps:
    settings: Settings = field(default_factory=get_settings)
    kb: Any = None  # KnowledgeBase; resolved lazily by knowledge_base()
    provider: ChatProvider | None = None
    user: User = field(default_factory=User)
    extras: dict[str, Any] = field(default_factory=dict)

    def knowledge_base(self):  # type: ignore[no-untyped-def]
        if self.kb is None:
            from knowzero.knowledge.kb import get_kb

            self.kb = get_kb(self.settings)
        return self.kb


def default_deps(**kw: Any) -> Deps:
    from knowzero.llm.base import get_provider

    kw.setdefault("provider", get_provider())
    return Deps(**kw)
