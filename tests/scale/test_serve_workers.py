"""``knowzero serve --workers N``: several API processes share PostgreSQL and Redis (issue 11);
embedded mode refuses N > 1 with a clear message.

The multi-worker test starts the real server (two uvicorn workers) on a free port against a
throw-away PostgreSQL database and the local Redis, uploads a document through one request and
finds it through many (whichever worker answers), then stops the server. Bounded: each wait has a
deadline; no timing is asserted.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from kz_testlib import redis_url

NOTE = "# 刀具寿命\n\n硬质合金铣刀每加工 800 件须检查刃口磨损，磨损量超过 0.2mm 即更换。\n".encode()


def test_embedded_mode_refuses_several_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KNOWZERO_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("KNOWZERO_DATABASE_URL", raising=False)
    r = CliRunner().invoke(app, ["serve", "--workers", "2"])
    assert r.exit_code == 2
    assert "KNOWZERO_DATABASE_URL" in r.output and "one worker" in r.output


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(d.name))
    return out


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_two_workers_share_postgres_and_redis(pg_url: str, tmp_path: Path) -> None:
    redis = redis_url()
    if redis is None:
        pytest.skip("Redis is not running at 127.0.0.1:6379")
    port = _free_port()
    env = os.environ | {"KNOWZERO_DATA_DIR": str(tmp_path), "KNOWZERO_DATABASE_URL": pg_url,
                        "KNOWZERO_REDIS_URL": redis, "KNOWZERO_DEMO_KEYS": "1", "KNOWZERO_EMBED_IN_SERVER": "false",
                        "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "knowzero.cli", "serve", "--workers", "2", "--port", str(port)],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else "server exited"
            try:
                if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not come up"
            time.sleep(1)
        assert len(_children(proc.pid)) >= 2, "two worker processes"
        r = httpx.post(f"{base}/v1/kb/upload", headers={"Authorization": "Bearer demo-editor"},
                       files={"files": ("刀具寿命.md", NOTE, "text/markdown")}, data={"collection": "team"}, timeout=120)
        assert r.status_code == 200 and r.json()["results"][0]["added"] == ["team/刀具寿命.md"], r.text
        for _ in range(12):  # connections are new each time: the kernel spreads them over the workers
            # signed in: the anonymous rate limit lives in the shared Redis and other tests' calls count too
            resp = httpx.post(f"{base}/v1/kb/search", json={"query": "铣刀 刃口磨损 更换", "strategy": "keyword"},
                              headers={"Authorization": "Bearer demo-editor"}, timeout=120)  # no vector yet: queued
            assert resp.status_code == 200, resp.text
            hits = resp.json()
            assert any(p["source"] == "team/刀具寿命.md" for p in hits["passages"]), hits
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)
