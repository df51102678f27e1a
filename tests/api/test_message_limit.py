"""The chat message limit is the server's, and the web UI can read it (outside review 1, finding 7)."""

from __future__ import annotations

from kz_testlib import api_client


async def test_the_limit_is_exposed_and_enforced(tmp_path):
    async with api_client(tmp_path / "data", max_message_chars="1200") as api:
        limits = (await api.get("/v1/settings")).json()["limits"]
        assert limits == {"max_message_chars": 1200}  # what the composer's maxlength is set to
        r = await api.post("/v1/chat", json={"source": "chat", "message": "长" * 1201, "stream": False})
        assert r.status_code == 422
        # the UI turns this detail into "消息过长：最多 1200 字"
        assert {"field": "message", "message": "message: longer than 1200 characters"} in r.json()["error"]["details"]
        r = await api.post("/v1/chat", json={"source": "chat", "message": "长" * 1200, "stream": False})
        assert r.status_code == 200, r.text
