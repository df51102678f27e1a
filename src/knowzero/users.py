"""Who is calling, and what each role may do — the one table every entry point consults.

    role        who                                   may
    anonymous   a browser/client with no API key      chat, ask, learn (its own threads and documents)
    customer    a signed-in customer                  + its orders, refunds, tickets, preferences
    editor      a knowledge-base maintainer           + upload, ingest and delete knowledge
    agent       a support agent                       + queues (handoffs, approvals, reviews), customers' threads
    admin       an administrator                      everything

Anonymous identities are per client: ``anon:<hash of X-Client-Id>`` (the client id itself is a
secret the server never returns), or a fresh ``anon:eph-…`` per request when no client id is sent,
so callers without one never share anything. This module decides nothing about HTTP; the API's
dependencies and the runner call these predicates.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass

ROLES = ("anonymous", "customer", "editor", "agent", "admin")
STAFF = ("agent", "admin")
KB_WRITERS = ("editor", "admin")


@dataclass(frozen=True)
class User:
    id: str = "anonymous"
    """Stable id: a store user id, ``anon:<hash>`` for a client id, ``anon:eph-<uuid>`` otherwise."""
    role: str = "anonymous"
    """One of :data:`ROLES`."""
    name: str = ""
    """Display name (empty for anonymous callers)."""


def anonymous_for_client(client_id: str) -> User:
    """The identity of an anonymous client id (hashed: knowing a user id never lets anyone replay it)."""
    digest = hashlib.sha256(("knowzero-client\x00" + client_id).encode()).hexdigest()[:32]
    return User(id=f"anon:{digest}", role="anonymous")


def ephemeral_anonymous() -> User:
    """A one-request identity for a caller that sent no client id: it owns what it creates, alone."""
    return User(id=f"anon:eph-{uuid.uuid4().hex}", role="anonymous")


def is_staff(user: User) -> bool:
    """Agents and admins work the queues (handoffs, approvals, reviews) and may read customers' threads."""
    return user.role in STAFF


def is_admin(user: User) -> bool:
    """Admins manage people and keys and the chat model (the Settings page)."""
    return user.role == "admin"


def can_write_knowledge(user: User) -> bool:
    """Upload, ingest, re-index and delete knowledge-base files."""
    return user.role in KB_WRITERS


def is_ephemeral(user: User) -> bool:
    return user.id.startswith("anon:eph-")
