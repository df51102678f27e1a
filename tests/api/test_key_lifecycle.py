"""Issue 25, findings 2 and 6: demo keys never work in production, whatever an earlier start stored,
and a revoked identity stays revoked (no `keys create`, no restart with demo keys re-enables it) until
an admin restores it explicitly."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.config import Settings
from knowzero.errors import Unauthorized
from knowzero.persistence.db import make_engine
from knowzero.service.identity import announce_keys, user_for_token
from knowzero.service.store import DEMO_USERS, SqlStore
from kz_testlib import api_client, assert_error_shape, copy_data_dir, knowzero_env

DEMO = [uid for uid, _name, _role in DEMO_USERS]


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="knowzero")


def _store() -> SqlStore:
    return SqlStore(make_engine(Settings().db_url))


async def test_production_refuses_every_demo_key_an_earlier_start_stored(small_kb, tmp_path: Path) -> None:
    data_dir = copy_data_dir(small_kb.settings.data_dir, tmp_path / "kz")
    async with api_client(data_dir, demo_keys="1") as client:  # a development start stored demo-<user>
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        r = await client.get("/v1/me", headers={"Authorization": "Bearer demo-admin"})
        assert r.status_code == 200 and r.json()["role"] == "admin"
    async with api_client(data_dir, env="production") as client:
        for uid in DEMO:
            for headers in ({"Authorization": f"Bearer demo-{uid}"}, {"X-API-Key": f"demo-{uid}"}):
                r = await client.get("/v1/me", headers=headers)
                assert_error_shape(r, 401, "unauthorized")
        settings = (await client.get("/v1/settings")).json()
        assert settings["demo_keys"] is False


def test_serve_in_production_removes_stored_demo_keys_and_says_so(isolated: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    announce_keys(_store(), fixed_keys=True, echo=lambda _line: None)
    assert user_for_token("demo-agent", _store()).role == "agent"
    from knowzero import cli

    monkeypatch.setattr(cli.uvicorn, "Server", lambda *_a, **_k: type("S", (), {"run": lambda self, sockets: None})())
    monkeypatch.setattr(cli, "create_app", lambda *_a, **_k: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with knowzero_env(data_dir=str(isolated), env="production"):
        r = run("serve", "--port", str(port))
    assert r.exit_code == 0, r.output
    assert "demo keys (demo-<user>) are refused" in r.stderr
    assert "admin" in r.stderr.split("refused", 1)[1]
    for uid in DEMO:
        with pytest.raises(Unauthorized):
            user_for_token(f"demo-{uid}", _store())  # gone from the store, not only refused at the door


def test_a_revoked_user_stays_revoked_until_restored(isolated: Path) -> None:
    first = run("keys", "--json")
    assert first.exit_code == 0, first.output
    for uid in DEMO:  # every seeded user, admin included
        assert run("keys", "revoke", uid).exit_code == 0
        # `keys create` does not silently re-issue a key
        again = run("keys", "create", uid, "--json")
        assert again.exit_code == 2, again.output
        assert "keys restore" in again.stderr
        assert "kz-" not in again.stdout
    # another `keys` run, `keys create` of another user, and a start with demo keys re-enable nobody
    assert run("keys").exit_code == 0
    assert run("keys", "create", "zed", "--name", "Zed", "--role", "editor").exit_code == 0
    with knowzero_env(data_dir=str(isolated), env="test", demo_keys="1"):
        issued = announce_keys(_store(), fixed_keys=True, echo=lambda _line: None)
        assert issued == []
        users = json.loads(run("keys", "--json").stdout.strip().splitlines()[-1])["users"]
    for uid in DEMO:
        with pytest.raises(Unauthorized):
            user_for_token(f"demo-{uid}", _store())
    listed = {u["id"]: u for u in users}
    assert all(listed[uid]["revoked"] and not listed[uid]["has_key"] for uid in DEMO)
    # an admin restores one explicitly: a new key, shown once, works; the others stay revoked
    restored = run("keys", "restore", "bob", "--json")
    assert restored.exit_code == 0, restored.output
    key = json.loads(restored.stdout.strip().splitlines()[-1])["api_key"]
    assert user_for_token(key, _store()).id == "bob"
    with pytest.raises(Unauthorized):
        user_for_token("demo-alice", _store())
    assert run("keys", "restore", "nobody").exit_code == 2
