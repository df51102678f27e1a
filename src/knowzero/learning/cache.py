"""Derived views of one knowledge base for learning (sentences per file, entity terms, its text).

A :class:`KBCache` belongs to one :class:`~knowzero.learning.service.LearningService` (built once by
the dependency container), so there is no module-level state and nothing is keyed by ``id(kb)``.
Entries are rebuilt when the knowledge base's ``revision`` changes (an ingest or a deletion).
Callers that pass no cache simply compute the value (tests, one-off evaluation).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class KBCache:
    """Values computed from a knowledge base, valid for one revision of it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._revision: Any = None
        self._values: dict[Hashable, Any] = {}

    def get(self, kb: Any, key: Hashable, build: Callable[[], T]) -> T:
        with self._lock:
            if self._revision != kb.revision:
                self._values.clear()
                self._revision = kb.revision
            if key in self._values:
                return self._values[key]  # type: ignore[no-any-return]
        value = build()  # outside the lock: a slow build does not block readers of other keys
        with self._lock:
            if self._revision == kb.revision:
                self._values.setdefault(key, value)
        return value


def cached(cache: KBCache | None, kb: Any, key: Hashable, build: Callable[[], T]) -> T:
    return cache.get(kb, key, build) if cache is not None else build()
