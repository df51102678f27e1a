"""Per-identity rate limits for anonymous callers.

Signed-in callers (API keys) are not limited here: a key names who is responsible. Anonymous
callers are limited on the routes that start real work (a chat turn, a search, generating a
document or a path — routes whose access declaration says ``limited=True``) and on every other
anonymous write (``limited="write"``: rename, delete, feedback, marking read), in three buckets:

    anon_rate_limit          work, per anonymous identity: its X-Client-Id, or its address when it sends none
    anon_write_rate_limit    the other writes, per anonymous identity
    anon_ip_rate_limit       both, per client address, whatever client ids it rotates through

Limits use the ``limits`` library's moving-window strategy (``"30/minute;300/hour"`` syntax, an
empty string turns a bucket off). Counters live in process memory, or in Redis when
``KNOWZERO_REDIS_URL`` is set so several workers share them. In memory the synchronous storage is
used, called straight from the event loop (dict operations, no I/O): the asyncio one sweeps every
key with a thread hop each at every request (~100 hops per chat turn once 50 callers had been
seen). An exhausted bucket is a 429
``rate_limited`` error with ``Retry-After``. Behind a reverse proxy the address is the proxy's
unless uvicorn is told to trust its forwarded headers (``--forwarded-allow-ips``).

It does not bound what one request may cost; the knowledge steps do that (``knowledge/text.py``
``QUERY_CHARS``, the dense encoder's window).
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter as LocalMovingWindowRateLimiter

from knowzero.errors import RateLimited
from knowzero.users import User, is_ephemeral


def parse_limits(spec: str) -> list[RateLimitItem]:
    """``"30/minute;300/hour"`` → limit items; empty → none. Raises ValueError on bad syntax.

    >>> [str(i) for i in parse_limits("30/minute;300/hour")]
    ['30 per 1 minute', '300 per 1 hour']
    """
    return list(parse_many(spec)) if spec.strip() else []


class AnonymousLimits:
    """The two anonymous buckets of one app (see the module doc)."""

    def __init__(self, per_identity: str, per_address: str, redis_url: str = "", *, writes: str = "") -> None:
        self.per_identity = parse_limits(per_identity)
        self.per_address = parse_limits(per_address)
        self.writes = parse_limits(writes)
        self._shared = (MovingWindowRateLimiter(RedisStorage("async+" + redis_url, implementation="redispy",
                                                             key_prefix="knowzero-rl")) if redis_url else None)
        self._local = LocalMovingWindowRateLimiter(MemoryStorage())

    async def _hit(self, item: RateLimitItem, kind: str, key: str) -> bool:
        if self._shared is not None:
            return await self._shared.hit(item, kind, key)
        return self._local.hit(item, kind, key)

    async def _reset_time(self, item: RateLimitItem, kind: str, key: str) -> float:
        if self._shared is not None:
            return (await self._shared.get_window_stats(item, kind, key)).reset_time
        return self._local.get_window_stats(item, kind, key).reset_time

    async def check(self, user: User, address: str, *, write: bool = False) -> None:
        """Count one request (``write``: a cheap write, counted in the writes bucket instead of the
        work bucket); raise RateLimited when a bucket is exhausted."""
        if user.role != "anonymous":
            return
        identity = f"addr:{address}" if is_ephemeral(user) else user.id
        buckets = [(item, "writes" if write else "identity", identity)
                   for item in (self.writes if write else self.per_identity)]
        buckets += [(item, "address", address) for item in self.per_address]
        for item, kind, key in buckets:
            if not await self._hit(item, kind, key):
                wait = math.ceil(await self._reset_time(item, kind, key) - time.time())
                raise RateLimited(f"too many requests without an API key ({item}); try again in {max(wait, 1)} s",
                                  retry_after_s=wait)
