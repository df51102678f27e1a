"""Issue 32, items 1 and 2: an admin sets up the chat model and manages people and keys from the browser.

- The model: a test call reports latency or the error; a save takes effect without a restart (this
  worker at once, another worker on the same database at its next check) and can be switched off; the
  key is stored server-side and never returned nor logged, and is sent only to the URL it was saved for.
- People and keys: the same store operations and rules as ``knowzero keys`` (a revoked user gets no key
  until restored), a key shown once, and an admin cannot revoke themselves.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from knowzero.config import Settings
from knowzero.llm.configured import ModelSettingsStore, ModelSwitch
from knowzero.persistence.db import make_engine
from knowzero.service.identity import announce_keys
from knowzero.service.store import SqlStore
from kz_testlib import api_client, assert_error_shape, copy_data_dir, knowzero_env
from llm_fake import fake_llm

ADMIN = {"Authorization": "Bearer demo-admin"}
SECRET = "sk-test-secret-7f3a9c21"


async def _seed(client) -> None:  # type: ignore[no-untyped-def]
    announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)


async def test_model_set_up_in_settings_answers_without_a_restart_and_the_key_never_leaves(
        demo_data_dir: Path, tmp_path: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)
    data = copy_data_dir(demo_data_dir, tmp_path / "kz")
    with fake_llm() as srv:
        async with api_client(data, demo_keys="1") as client:
            await _seed(client)
            public = (await client.get("/v1/settings")).json()["llm"]
            assert public["offline"] is True and public["provider"] == "none"

            # the test call: latency on success, the reason on failure; nothing is saved
            r = await client.post("/v1/admin/model/test", headers=ADMIN,
                                  json={"base_url": srv.url("ok"), "model": "m", "api_key": SECRET})
            assert r.status_code == 200, r.text
            assert r.json()["ok"] is True and r.json()["latency_ms"] >= 0 and r.json()["reply"]
            assert srv.auth[-1] == f"Bearer {SECRET}"
            r = await client.post("/v1/admin/model/test", headers=ADMIN,
                                  json={"base_url": srv.url("error500"), "model": "m"})
            assert r.json()["ok"] is False and "HTTP 500" in r.json()["error"]
            assert (await client.get("/v1/settings")).json()["llm"]["offline"] is True

            # save: live at once, the key write-only
            r = await client.put("/v1/admin/model", headers=ADMIN,
                                 json={"base_url": srv.url("ok"), "model": "m", "api_key": SECRET})
            assert r.status_code == 200, r.text
            assert SECRET not in r.text and SECRET[:-4] not in r.text
            saved = r.json()["saved"]
            assert saved["key_set"] is True and saved["key_last4"] == SECRET[-4:] and "api_key" not in saved
            assert r.json()["active"] == {"provider": "openai", "model": "m", "offline": False, "source": "settings"}
            assert SECRET not in (await client.get("/v1/admin/model", headers=ADMIN)).text
            public = (await client.get("/v1/settings")).json()["llm"]
            assert public["offline"] is False and public["model"] == "m" and "base_url" not in public
            assert (await client.get("/healthz")).json()["llm"] == "openai"

            before = len(srv.started)
            r = await client.post("/v1/chat", json={"message": "你好", "stream": False})
            assert r.status_code == 200, r.text
            assert len(srv.started) > before and srv.auth[-1] == f"Bearer {SECRET}"

            # saving again without a key keeps it (same URL); a new URL without a key sends none
            r = await client.put("/v1/admin/model", headers=ADMIN, json={"base_url": srv.url("ok"), "model": "m"})
            assert r.json()["saved"]["key_set"] is True
            r = await client.post("/v1/admin/model/test", headers=ADMIN, json={"base_url": srv.url("ok") + "/", "model": "m"})
            assert r.json()["ok"] is True and srv.auth[-1] == f"Bearer {SECRET}"  # the stored URL, trailing slash aside
            r = await client.post("/v1/admin/model/test", headers=ADMIN, json={"base_url": srv.base + "/hallucinate/v1", "model": "m"})
            assert srv.auth[-1] == ""

            # switched off: offline again, no restart, the model is not called
            r = await client.post("/v1/admin/model/off", headers=ADMIN)
            assert r.json()["active"]["offline"] is True and r.json()["saved"]["enabled"] is False
            assert r.json()["saved"]["base_url"] == srv.url("ok") and r.json()["saved"]["key_set"] is True  # kept
            assert (await client.get("/v1/settings")).json()["llm"]["offline"] is True
            before = len(srv.started)
            r = await client.post("/v1/chat", json={"message": "你好", "stream": False})
            assert r.status_code == 200 and len(srv.started) == before

            # only admins
            for headers, status in (({}, 401), ({"Authorization": "Bearer demo-agent"}, 403),
                                    ({"Authorization": "Bearer demo-editor"}, 403)):
                assert (await client.get("/v1/admin/model", headers=headers)).status_code == status
                r = await client.post("/v1/admin/model/off", headers=headers)
                assert r.status_code == status
    assert not [rec for rec in caplog.records if SECRET in rec.getMessage() or SECRET[-8:] in rec.getMessage()]
    assert any("saved the chat model" in rec.getMessage() for rec in caplog.records)


async def test_model_settings_refuse_bad_input(demo_data_dir: Path, tmp_path: Path) -> None:
    data = copy_data_dir(demo_data_dir, tmp_path / "kz")
    async with api_client(data, demo_keys="1") as client:
        await _seed(client)
        r = await client.put("/v1/admin/model", headers=ADMIN, json={"base_url": "", "model": ""})
        body = assert_error_shape(r, 422, "invalid_input")
        assert {d["field"] for d in body["details"]} == {"base_url", "model"}
        for url in ("ftp://x/v1", "127.0.0.1:8080", "http://exa mple/v1", "javascript:alert(1)", "https://[0]/v1",
                    "http://x:99999/v1", "http://\x7f/v1"):
            r = await client.post("/v1/admin/model/test", headers=ADMIN, json={"base_url": url, "model": "m"})
            assert_error_shape(r, 422, "invalid_input")
        r = await client.put("/v1/admin/model", headers=ADMIN, json={"base_url": "http://x/v1", "model": "m",
                                                                      "temperature": 2})
        assert_error_shape(r, 422, "invalid_input")


async def test_production_needs_https_for_a_remote_model_saved_in_settings(demo_data_dir: Path, tmp_path: Path) -> None:
    data = copy_data_dir(demo_data_dir, tmp_path / "kz")
    async with api_client(data, demo_keys="1") as client:
        await _seed(client)
        store = client.app.state.deps.need_store()
        store.upsert_user("ops", "Ops", "admin")
        key = store.issue_api_key("ops")
    async with api_client(data, env="production", host="0.0.0.0") as client:
        ops = {"Authorization": f"Bearer {key}"}
        r = await client.put("/v1/admin/model", headers=ops, json={"base_url": "http://models.example/v1", "model": "m"})
        body = assert_error_shape(r, 422, "invalid_input")
        assert "https" in body["message"]
        r = await client.put("/v1/admin/model", headers=ops, json={"base_url": "http://127.0.0.1:9/v1", "model": "m"})
        assert r.status_code == 200, r.text
        r = await client.put("/v1/admin/model", headers=ops, json={"base_url": "https://models.example/v1", "model": "m"})
        assert r.status_code == 200, r.text


async def test_the_test_call_is_bounded_by_its_timeout(demo_data_dir: Path, tmp_path: Path) -> None:
    data = copy_data_dir(demo_data_dir, tmp_path / "kz")
    with fake_llm() as srv:
        async with api_client(data, demo_keys="1", llm_timeout_s="1") as client:
            await _seed(client)
            t0 = time.monotonic()
            r = await client.post("/v1/admin/model/test", headers=ADMIN, json={"base_url": srv.url("hang"), "model": "m"})
            assert r.status_code == 200 and time.monotonic() - t0 < 5
            assert r.json()["ok"] is False and "timed out" in r.json()["error"] and r.json()["timeout_s"] == 1


def test_another_worker_follows_a_saved_model_at_its_next_check(isolated: Path) -> None:
    """Two workers on one database: a save in one reaches the other when it next reads the version."""
    with knowzero_env(data_dir=str(isolated), env="test"):
        url = Settings().db_url
    built: list[str] = []

    def build(m):  # type: ignore[no-untyped-def]
        built.append(m.base_url)
        return type("P", (), {"name": "openai", "model": m.model, "chat": lambda self, *a, **k: "ok"})()

    a = ModelSwitch(ModelSettingsStore(make_engine(url)), fallback=None, build=build, recheck_s=0.0)
    b = ModelSwitch(ModelSettingsStore(make_engine(url)), fallback=None, build=build, recheck_s=0.0)
    assert a.current() is None and b.current() is None and a.source() == "none"
    a.save(enabled=True, base_url="http://127.0.0.1:1/v1", model="m1", api_key="k" * 10, by="admin")
    assert b.current() is not None and b.describe()["model"] == "m1" and b.source() == "settings"
    a.save(enabled=False, base_url="http://127.0.0.1:1/v1", model="m1", api_key=None, by="admin")
    assert b.current() is None and b.stored().api_key == "k" * 10  # type: ignore[union-attr]
    a.save(enabled=True, base_url="http://127.0.0.1:2/v1", model="m2", api_key=None, by="admin")
    slow = ModelSwitch(ModelSettingsStore(make_engine(url)), fallback=None, build=build, recheck_s=3600)
    assert slow.current() is not None and slow.describe()["model"] == "m2"  # read at start
    a.save(enabled=False, base_url="", model="", api_key=None, by="admin")
    assert slow.current() is not None  # not re-read before recheck_s


async def test_admin_manages_people_and_keys_with_the_cli_rules(demo_data_dir: Path, tmp_path: Path) -> None:
    data = copy_data_dir(demo_data_dir, tmp_path / "kz")
    async with api_client(data, demo_keys="1") as client:
        await _seed(client)
        r = await client.post("/v1/admin/users", headers=ADMIN, json={"id": "carol", "name": "Carol", "role": "editor"})
        assert r.status_code == 200, r.text
        key = r.json()["api_key"]
        assert key.startswith("kz-") and r.json()["user"] == {"id": "carol", "name": "Carol", "role": "editor",
                                                              "has_key": True, "revoked": False}
        me = (await client.get("/v1/me", headers={"Authorization": f"Bearer {key}"})).json()
        assert me["id"] == "carol" and me["role"] == "editor"
        listed = (await client.get("/v1/admin/users", headers=ADMIN))
        assert key not in listed.text and "hash" not in listed.text
        assert {"id": "carol", "name": "Carol", "role": "editor", "has_key": True, "revoked": False} in listed.json()["users"]
        r = await client.post("/v1/admin/users", headers=ADMIN, json={"id": "carol", "name": "Carol", "role": "admin"})
        assert_error_shape(r, 409, "conflict")

        # revoke: the key stops working; no new key until restored (the store's rule, as in `knowzero keys`)
        r = await client.post("/v1/admin/users/carol/revoke", headers=ADMIN)
        assert r.status_code == 200 and r.json()["user"]["revoked"] is True and r.json()["changed"] is True
        assert_error_shape(await client.get("/v1/me", headers={"Authorization": f"Bearer {key}"}), 401, "unauthorized")
        assert_error_shape(await client.post("/v1/admin/users/carol/key", headers=ADMIN), 409, "conflict")
        store = SqlStore(client.app.state.deps.need_store().engine)
        assert store.get_user("carol")["key_revoked"] is True  # type: ignore[index]
        r = await client.post("/v1/admin/users/carol/restore", headers=ADMIN)
        new = r.json()["api_key"]
        assert r.status_code == 200 and new != key
        assert (await client.get("/v1/me", headers={"Authorization": f"Bearer {new}"})).json()["id"] == "carol"
        r = await client.post("/v1/admin/users/carol/key", headers=ADMIN)
        assert r.status_code == 200 and r.json()["api_key"] not in (key, new)
        assert_error_shape(await client.get("/v1/me", headers={"Authorization": f"Bearer {new}"}), 401, "unauthorized")

        # refusals
        assert_error_shape(await client.post("/v1/admin/users/admin/revoke", headers=ADMIN), 409, "conflict")
        assert (await client.get("/v1/me", headers=ADMIN)).status_code == 200
        assert_error_shape(await client.post("/v1/admin/users/nobody/revoke", headers=ADMIN), 404, "not_found")
        assert_error_shape(await client.post("/v1/admin/users/bad%20id/revoke", headers=ADMIN), 422, "invalid_input")
        r = await client.post("/v1/admin/users", headers=ADMIN, json={"id": "dave", "name": "", "role": "root"})
        assert {d["field"] for d in assert_error_shape(r, 422, "invalid_input")["details"]} >= {"name", "role"}
        for headers, status in (({}, 401), ({"Authorization": "Bearer demo-alice"}, 403),
                                ({"Authorization": "Bearer demo-agent"}, 403), ({"Authorization": "Bearer demo-editor"}, 403)):
            assert_error_shape(await client.get("/v1/admin/users", headers=headers), status,
                               "unauthorized" if status == 401 else "forbidden")
            r = await client.post("/v1/admin/users/alice/revoke", headers=headers)
            assert r.status_code == status
        assert (await client.get("/v1/me", headers={"Authorization": "Bearer demo-alice"})).json()["id"] == "alice"
