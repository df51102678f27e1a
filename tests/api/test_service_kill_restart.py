"""Exactly once across a crash: a real ``knowzero serve`` is SIGKILLed right after a refund is
approved, restarted on the same data dir, and the approval is replayed — one refund row per
approval, every time. Kill timing varies per round (0-60 ms after the approval is sent).
``KNOWZERO_KILL_ROUNDS`` sets the number of rounds (default 3; the issue's target is 20).

The crash suite (``benchmarks/crash_suite.py``: kill -9 at random points of the refund and ticket
flows, restart, finish each flow, count double actions, lost messages and stuck threads) runs here
with ``KNOWZERO_CRASH_ROUNDS`` rounds (default 3 — each flow once — seeded by ``KNOWZERO_CRASH_SEED``); the full 50
rounds run from the command line."""

import importlib.util
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.slow
HDR = {"Authorization": "Bearer demo-alice"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(data_dir: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "KNOWZERO_DATA_DIR": str(data_dir), "KNOWZERO_DEMO_KEYS": "1", "KNOWZERO_DATABASE_URL": ""}
    exe = Path(sys.executable).with_name("knowzero")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "knowzero.cli"]
    proc = subprocess.Popen([*cmd, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL,
                            stderr=open(data_dir / "server.log", "ab"))
    deadline = time.time() + 300
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError((data_dir / "server.log").read_text()[-2000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("server did not start")


def _refunds(data_dir: Path, thread_id: str | None = None) -> int:
    with sqlite3.connect(data_dir / "knowzero.db") as conn:
        q, args = "select count(*) from svc_refunds", ()
        if thread_id:
            q, args = q + " where thread_id = ?", (thread_id,)
        return conn.execute(q, args).fetchone()[0]


def test_sigkill_right_after_approval_executes_once(tmp_path):
    rounds = int(os.environ.get("KNOWZERO_KILL_ROUNDS", "3"))
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    proc = _start(tmp_path, port)
    try:
        for i in range(rounds):
            tid = f"kill-{i}"
            r = httpx.post(f"{base}/v1/chat", headers=HDR, timeout=60,
                           json={"thread_id": tid, "stream": False, "message": "订单123退款5元，因为坏了"})
            assert r.status_code == 200 and r.json()["interrupted"], r.text

            def approve(tid: str = tid) -> None:
                try:
                    httpx.post(f"{base}/v1/chat", headers=HDR, timeout=30,
                               json={"thread_id": tid, "stream": False, "resume": {"approved": True}})
                except httpx.HTTPError:
                    pass  # the server is being killed

            t = threading.Thread(target=approve)
            t.start()
            time.sleep((i * 7 % 61) / 1000)  # 0-60 ms after the approval was sent
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            t.join()
            proc = _start(tmp_path, port)
            # replay: resume again whatever happened (a pending interrupt resumes; a thread that waits for
            # nothing any more answers 409 and nothing happens)
            for _ in range(2):
                r = httpx.post(f"{base}/v1/chat", headers=HDR, timeout=60,
                               json={"thread_id": tid, "stream": False, "resume": {"approved": True}})
                assert r.status_code in (200, 409), r.text
            assert _refunds(tmp_path, tid) == 1, f"round {i}"
            state = httpx.get(f"{base}/v1/threads/{tid}", headers=HDR, timeout=30).json()
            assert not state["interrupted"]
        assert _refunds(tmp_path) == rounds
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait()


def _crash_suite():  # type: ignore[no-untyped-def]
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "crash_suite.py"
    spec = importlib.util.spec_from_file_location("kz_crash_suite", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it executes
    spec.loader.exec_module(module)
    return module


def test_kill_at_random_points_of_refund_and_ticket_flows(tmp_path):
    rounds = int(os.environ.get("KNOWZERO_CRASH_ROUNDS", "3"))
    out = _crash_suite().run(rounds, seed=int(os.environ.get("KNOWZERO_CRASH_SEED", "7")), data_dir=tmp_path)
    assert out["rounds"] == rounds and set(out["flows"]) == {"refund_approval", "refund_direct", "ticket"}
    counts = {k: out[k] for k in ("double_actions", "lost_messages", "stuck_threads", "incomplete_flows")}
    assert counts == dict.fromkeys(counts, 0), out["failures"]
