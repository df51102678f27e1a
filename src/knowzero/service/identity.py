"""Who is calling: an API key (``Authorization: Bearer <key>`` or ``X-API-Key: <key>``) → a User.

No token → anonymous (the API then picks the per-client identity, see ``knowzero.users``). An
unknown token raises :class:`~knowzero.errors.Unauthorized` (a typo should not silently downgrade
a signed-in agent to anonymous). Only key hashes are stored (see ``store.seed_demo``). This module
does not decide what a user may do; ``knowzero.users`` and the routes do.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from knowzero.errors import Unauthorized
from knowzero.service.store import SqlStore, seed_demo
from knowzero.users import User

DEMO_KEY_PREFIX = "demo-"
"""Fixed demo keys are ``demo-<user id>``; issued keys are ``kz-…``."""


def parse_authorization(authorization: str | None, x_api_key: str | None = None) -> str | None:
    """The token from an ``Authorization`` header (``Bearer``/``Token``/bare) or ``X-API-Key``."""
    if x_api_key and x_api_key.strip():
        return x_api_key.strip()
    if not authorization or not authorization.strip():
        return None
    parts = authorization.strip().split(None, 1)
    if len(parts) == 2 and parts[0].lower() in ("bearer", "token"):
        return parts[1].strip() or None
    return parts[0]


def user_for_token(token: str | None, store: SqlStore, *, production: bool = False) -> User:
    """Resolve a token to a User; ``None``/empty → anonymous; unknown token → Unauthorized. In
    production a demo key is refused whatever the store holds."""
    if token is None or not token.strip():
        return User()
    if production and token.strip().startswith(DEMO_KEY_PREFIX):
        raise Unauthorized("demo keys are refused in production")
    row = store.user_by_key(token.strip())
    if row is None:
        raise Unauthorized("unknown API key")
    return User(id=row["id"], role=row["role"], name=row["name"])


def refuse_demo_keys(store: SqlStore, echo: Callable[[str], None] | None = None) -> list[str]:
    """Production start-up: remove every demo key an earlier (development) start stored, and say so."""
    dropped = store.drop_demo_keys()
    out = echo or (lambda line: print(line, file=sys.stderr))
    msg = "production: demo keys (demo-<user>) are refused"
    if dropped:
        msg += f"; removed the ones an earlier start stored for {', '.join(dropped)} (`knowzero keys create USER` issues a real key)"
    out(msg)
    return dropped


def announce_keys(store: SqlStore, *, fixed_keys: bool = False,
                  echo: Callable[[str], None] | None = None, hint: bool = True) -> list[dict[str, str]]:
    """Seed the demo store and print keys issued now (first start, or ``KNOWZERO_DEMO_KEYS=1``).

    Called by ``knowzero serve`` before the server starts. Keys are printed once (only their hashes
    are kept); ``knowzero keys`` lists users and issues new keys later.
    """
    issued = seed_demo(store, fixed_keys=fixed_keys)
    out = echo or (lambda line: print(line, file=sys.stderr))
    if issued:
        out("API keys (shown once; send as 'Authorization: Bearer <key>' or 'X-API-Key: <key>'):")
        for k in issued:
            out(f"  {k['user_id']:<6} {k['role']:<8} {k['name']:<6} {k['api_key']}")
    if hint:
        out("Sign in on the web page with one of these keys. Lost one? `knowzero keys` lists users; "
            "`knowzero keys create alice` prints a new key.")
    return issued
