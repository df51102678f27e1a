"""Anonymous callers are rate limited on the routes that start work (issue 10, finding 10): per
identity (client id, or address without one) and per address across rotated client ids. 429 with
the one error shape and ``Retry-After``; signed-in callers are not limited; cheap reads are not."""

from __future__ import annotations

import pytest

from kz_testlib import api_client, assert_error_shape, redis_url


async def _turns(client, n: int, headers: dict[str, str]) -> list[int]:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(n):
        r = await client.post("/v1/kb/search", json={"query": "年假有几天"}, headers=headers)
        out.append(r.status_code)
    return out


async def test_an_anonymous_identity_gets_429_with_retry_after(small_kb):
    async with api_client(small_kb.settings.data_dir, anon_rate_limit="3/minute", anon_ip_rate_limit="") as client:
        a = {"X-Client-Id": "rate-limit-client-aaaa"}
        assert await _turns(client, 3, a) == [200, 200, 200]
        r = await client.post("/v1/kb/search", json={"query": "年假"}, headers=a)
        err = assert_error_shape(r, 429, "rate_limited")
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert "3 per 1 minute" in err["message"]
        # another identity has its own bucket; reads are not limited
        assert await _turns(client, 1, {"X-Client-Id": "rate-limit-client-bbbb"}) == [200]
        assert (await client.get("/v1/threads", headers=a)).status_code == 200
        # a chat turn counts against the same bucket
        r = await client.post("/v1/chat", json={"message": "你好", "stream": False}, headers=a)
        assert_error_shape(r, 429, "rate_limited")


async def test_without_a_client_id_the_address_is_the_identity(small_kb):
    async with api_client(small_kb.settings.data_dir, anon_rate_limit="2/minute", anon_ip_rate_limit="") as client:
        none = {"X-Client-Id": ""}
        assert await _turns(client, 3, none) == [200, 200, 429]


async def test_rotating_client_ids_hits_the_address_limit(small_kb):
    async with api_client(small_kb.settings.data_dir, anon_rate_limit="100/minute", anon_ip_rate_limit="4/minute") as client:
        codes = [(await _turns(client, 1, {"X-Client-Id": f"rotating-client-{i:04d}"}))[0] for i in range(6)]
        assert codes == [200, 200, 200, 200, 429, 429]


async def test_signed_in_callers_are_not_limited(small_kb):
    from knowzero.service.identity import announce_keys

    async with api_client(small_kb.settings.data_dir, anon_rate_limit="1/minute", anon_ip_rate_limit="1/minute",
                          demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        assert await _turns(client, 3, {"Authorization": "Bearer demo-alice"}) == [200, 200, 200]


async def test_empty_settings_turn_the_limits_off(small_kb):
    async with api_client(small_kb.settings.data_dir, anon_rate_limit="", anon_ip_rate_limit="") as client:
        assert set(await _turns(client, 25, {"X-Client-Id": "rate-limit-client-off0"})) == {200}


def test_a_malformed_limit_is_refused_at_start_up(tmp_path):
    from pydantic import ValidationError

    from knowzero.config import Settings

    with pytest.raises(ValidationError, match="anon_rate_limit"):
        Settings(data_dir=tmp_path, anon_rate_limit="lots")
    assert Settings(data_dir=tmp_path).anon_rate_limit == "20/minute;200/hour"


@pytest.mark.redis
async def test_limits_are_shared_through_redis(small_kb):
    url = redis_url()
    if url is None:
        pytest.skip("no Redis at 127.0.0.1:6379")
    import uuid

    cid = f"redis-rl-{uuid.uuid4().hex[:16]}"
    env = {"anon_rate_limit": "2/minute", "anon_ip_rate_limit": "", "redis_url": url}
    async with api_client(small_kb.settings.data_dir, **env) as first:
        assert await _turns(first, 2, {"X-Client-Id": cid}) == [200, 200]
    async with api_client(small_kb.settings.data_dir, **env) as second:  # another worker, same Redis
        assert await _turns(second, 1, {"X-Client-Id": cid}) == [429]
