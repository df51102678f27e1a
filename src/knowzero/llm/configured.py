"""The chat model an admin set up on the Settings page, and the switch that makes it live without a restart.

- :class:`ModelSettingsStore` keeps one row in the app database (table ``llm_settings``): whether the
  model is on, its OpenAI-compatible base URL, model name and API key, and a ``version`` that grows
  with every save. The key never leaves the server: :meth:`StoredModel.public` gives whether one is set
  and its last four characters, nothing more.
- :class:`ModelSwitch` is the small locked holder the request path reads (:meth:`ModelSwitch.current`).
  A save in this process swaps it at once; other workers (several ``uvicorn`` processes, other hosts on
  the same PostgreSQL database) see the stored ``version`` change at their next request (read at most
  once every ``recheck_s`` seconds) and rebuild their provider from the row.

Precedence: once an admin has saved a choice, it wins over the ``KNOWZERO_LLM_*`` environment (switched
off means offline, whatever the environment says); until then the environment's provider answers.

It does not call the model (the Settings page's test call is :func:`probe`) and does not decide who may
change it (the admin routes do).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import httpx
from sqlalchemy import Boolean, Column, DateTime, Engine, Integer, String, Table, Text, insert, select, update

from knowzero.errors import ProviderError
from knowzero.llm.base import ChatProvider
from knowzero.llm.openai_compat import OpenAICompatProvider
from knowzero.persistence.db import init_db, metadata

llm_settings = Table(
    "llm_settings", metadata,
    Column("id", Integer, primary_key=True),  # always 1: one choice per deployment
    Column("enabled", Boolean, nullable=False),
    Column("base_url", String(500), nullable=False, server_default=""),
    Column("model", String(200), nullable=False, server_default=""),
    Column("api_key", Text, nullable=False, server_default=""),  # secret: never returned, never logged
    Column("version", Integer, nullable=False),
    Column("updated_by", String(64), nullable=False, server_default=""),
    Column("updated_at", DateTime(timezone=True), nullable=True),
)


@dataclass(frozen=True)
class StoredModel:
    """The saved choice (one row of ``llm_settings``)."""

    enabled: bool
    """On: this model answers. Off: offline (the extractive reader), whatever the environment says."""
    base_url: str
    """OpenAI-compatible base URL, e.g. ``http://127.0.0.1:11434/v1``."""
    model: str
    """Model name sent with every call."""
    api_key: str
    """Bearer key for the model server ('' for none). Secret: see :meth:`public`."""
    version: int
    """Grows with every save; workers compare it to notice a change."""
    updated_by: str = ""
    """User id of the admin who saved it."""
    updated_at: datetime | None = None
    """When it was saved."""

    def public(self) -> dict[str, Any]:
        """What an admin's browser may see: never the key, only whether one is set and its last 4 characters."""
        return {"enabled": self.enabled, "base_url": self.base_url, "model": self.model,
                "key_set": bool(self.api_key), "key_last4": self.api_key[-4:] if len(self.api_key) >= 8 else "",
                "version": self.version, "updated_by": self.updated_by,
                "updated_at": self.updated_at.isoformat() if self.updated_at else None}


class ModelSettingsStore:
    """The ``llm_settings`` row on the app database."""

    def __init__(self, engine: Engine) -> None:
        self.engine = init_db(engine)

    def load(self) -> StoredModel | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(llm_settings).where(llm_settings.c.id == 1)).first()
        if r is None:
            return None
        return StoredModel(enabled=bool(r.enabled), base_url=r.base_url, model=r.model, api_key=r.api_key,
                           version=int(r.version), updated_by=r.updated_by, updated_at=r.updated_at)

    def version(self) -> int:
        """The saved version (0 when nothing was ever saved): one indexed read, cheap enough per request."""
        with self.engine.connect() as conn:
            v = conn.execute(select(llm_settings.c.version).where(llm_settings.c.id == 1)).scalar()
        return int(v or 0)

    def save(self, *, enabled: bool, base_url: str, model: str, api_key: str | None, by: str) -> StoredModel:
        """Store a choice; ``api_key=None`` keeps the stored key, ``""`` clears it. Returns the new row."""
        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            row = conn.execute(select(llm_settings).where(llm_settings.c.id == 1).with_for_update()).first()
            values: dict[str, Any] = {"enabled": enabled, "base_url": base_url, "model": model, "updated_by": by,
                                      "updated_at": now}
            if api_key is not None:
                values["api_key"] = api_key
            if row is None:
                conn.execute(insert(llm_settings).values(id=1, version=1, **{"api_key": "", **values}))
            else:
                conn.execute(update(llm_settings).where(llm_settings.c.id == 1)
                             .values(version=llm_settings.c.version + 1, **values))
        stored = self.load()
        assert stored is not None
        return stored


Build = Callable[[StoredModel], ChatProvider]


class ModelSwitch:
    """The live chat model: the environment's until an admin saves a choice, then the saved one.

    >>> switch = ModelSwitch(store, fallback=None, build=build)   # doctest: +SKIP
    >>> switch.current()            # None: offline                # doctest: +SKIP
    """

    def __init__(self, store: ModelSettingsStore, *, fallback: ChatProvider | None, build: Build,
                 recheck_s: float = 1.0) -> None:
        self.store = store
        self.fallback = fallback
        """The provider the environment configures (``KNOWZERO_LLM_*``), or None."""
        self._build = build
        self.recheck_s = recheck_s
        """Seconds between two reads of the stored version (other workers' saves show up within this)."""
        self._lock = threading.Lock()
        self._version = -1
        self._checked = 0.0
        self._provider: ChatProvider | None = fallback
        self._stored: StoredModel | None = None
        self._refresh(force=True)

    def _refresh(self, *, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._checked < self.recheck_s:
            return
        version = self.store.version()
        with self._lock:
            self._checked = now
            if version == self._version:
                return
        stored = self.store.load() if version else None
        self._install(stored)

    def _install(self, stored: StoredModel | None) -> None:
        provider = self.fallback if stored is None else (self._build(stored) if stored.enabled else None)
        with self._lock:
            if stored is not None and stored.version < self._version:
                return  # an older row read late: keep the newer one
            self._stored, self._provider = stored, provider
            self._version = stored.version if stored is not None else 0

    def current(self) -> ChatProvider | None:
        """The provider that answers now (None: offline); re-reads the stored choice when its version moved."""
        self._refresh()
        with self._lock:
            return self._provider

    def stored(self) -> StoredModel | None:
        self._refresh()
        with self._lock:
            return self._stored

    def save(self, *, enabled: bool, base_url: str, model: str, api_key: str | None, by: str) -> StoredModel:
        """Store a choice and make it live in this process at once (other workers follow within ``recheck_s``)."""
        stored = self.store.save(enabled=enabled, base_url=base_url, model=model, api_key=api_key, by=by)
        self._install(stored)
        return stored

    def describe(self) -> dict[str, Any]:
        """Which mode answers now, for anyone to see: ``provider`` (``openai`` | ``local`` | ``none``, or a test double's name), ``model``
        (its name, '' offline), ``offline`` and ``source`` (:meth:`source`). Never a URL, never a key."""
        p = self.current()
        name = str(getattr(p, "name", "openai")) if p is not None else "none"
        model = getattr(p, "model", "") if p is not None else ""
        return {"provider": name, "model": model if isinstance(model, str) else "", "offline": p is None, "source": self.source()}

    def source(self) -> str:
        """``settings`` (saved on the Settings page), ``environment`` (``KNOWZERO_LLM_*``) or ``none``."""
        if self.stored() is not None:
            return "settings"
        return "environment" if self.fallback is not None else "none"


@dataclass(frozen=True)
class ProbeResult:
    """One short test call's outcome."""

    ok: bool
    latency_ms: int
    reply: str = ""
    """The start of the model's reply (at most 120 characters)."""
    error: str = ""
    """Why it failed, in words (never a key, never a header)."""


PROBE_MESSAGES = [{"role": "user", "content": "Reply with the single word OK."}]


def probe(base_url: str, model: str, api_key: str, *, timeout_s: float) -> ProbeResult:
    """One short chat call to check a configuration, bounded by ``timeout_s`` in total (the client's own
    deadline: connect, send and read). Never raises for the model's failure; the result says it."""
    t0 = time.monotonic()
    provider = OpenAICompatProvider(base_url, model, api_key, timeout=timeout_s, cooldown_s=0)
    try:
        reply = provider.chat(PROBE_MESSAGES, max_tokens=8)
    except ProviderError as exc:
        return ProbeResult(False, round((time.monotonic() - t0) * 1000), error=str(exc))
    except (httpx.InvalidURL, ValueError):
        return ProbeResult(False, round((time.monotonic() - t0) * 1000), error="the base URL cannot be used")
    ms = round((time.monotonic() - t0) * 1000)
    if not reply.strip():
        return ProbeResult(False, ms, error="the language model answered with empty text")
    return ProbeResult(True, ms, reply=reply.strip()[:120])
