"""Load benchmark: ``knowzero bench load --sessions 50 --workers 1,2 --json``.

For each worker count, a real server (``knowzero serve --workers N``) is started on a free port
with a fresh knowledge base (the bundled demo), then ``sessions`` simulated users talk to it at
once over SSE: each session is one thread with ``turns`` turns, a message drawn (seeded) from a mix
of knowledge questions, small talk and customer-service requests, and a think time of 1–3 s
between turns. Per worker count it prints ``turns``, ``errors`` (a non-200 status, an ``error``
event, a stream without ``done``, a transport failure), ``first_event_p95_ms`` (request sent →
first SSE event) and ``turn_p95_ms`` (→ ``done``), with the p50s beside them.

Several workers need the shared engines: ``--database-url`` (PostgreSQL; a fresh database per run,
dropped after) and ``--redis-url``. Without them only one worker (embedded SQLite) is measured.
The server started here lifts the anonymous rate limits (50 users from one address would trip
them) and leaves embedding to nobody (the demo ships its vectors). A benchmark, not a test: the
latencies depend on the machine's load, reported beside them.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from knowzero.eval.metrics import percentile
from knowzero.eval.scale import _fresh_database, drop_database

MESSAGES: dict[str, list[str]] = {
    "knowledge": ["零件A的公差是多少？", "差旅住宿标准是多少", "年假有几天？", "哪个产品最贵", "上海办事处的联系方式",
                  "CNC加工中心开机后要做什么？", "XH-2001精密法兰盘的关键尺寸公差是多少？", "报销需要哪些材料？"],
    "chat": ["你好", "谢谢", "你是谁？", "今天天气不错", "好的，明白了"],
    "service": ["我的订单 201 到哪了？", "查一下订单 202 的状态", "我想退货，怎么办？", "转人工", "订单 203 什么时候发货？"],
}
KINDS = ("knowledge", "chat", "service")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _session(client: httpx.AsyncClient, base: str, i: int, turns: int, rng: random.Random,
                   out: list[dict[str, Any]]) -> None:
    client_id = f"bench-load-{i:04d}-{uuid.uuid4().hex[:12]}"
    thread_id = f"load-{uuid.uuid4().hex}"
    await asyncio.sleep(rng.uniform(0, 3))  # users do not all arrive in the same second
    for _ in range(turns):
        kind = rng.choice(KINDS)
        msg = rng.choice(MESSAGES[kind])
        t0 = time.perf_counter()
        first: float | None = None
        error = ""
        done = False
        try:
            async with client.stream("POST", f"{base}/v1/chat", json={"message": msg, "thread_id": thread_id},
                                     headers={"X-Client-Id": client_id}) as r:
                if r.status_code != 200:
                    error = f"HTTP {r.status_code}: {(await r.aread())[:200]!r}"
                else:
                    async for line in r.aiter_lines():
                        if line.startswith("event:"):
                            first = first or time.perf_counter()
                            event = line[6:].strip()
                            if event == "error":
                                error = "error event"
                            if event == "done":
                                done = True
                                break
                    if not done and not error:
                        error = "stream ended without done"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}"
        end = time.perf_counter()
        out.append({"kind": kind, "error": error, "first_ms": ((first or end) - t0) * 1000, "turn_ms": (end - t0) * 1000})
        await asyncio.sleep(rng.uniform(1, 3))


async def _drive(base: str, sessions: int, turns: int, seed: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    limits = httpx.Limits(max_connections=sessions + 10, max_keepalive_connections=sessions + 10)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120, connect=30), limits=limits) as client:
        await asyncio.gather(*(_session(client, base, i, turns, random.Random(seed * 1000 + i), out)
                               for i in range(sessions)))
    return out


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one run (pure)."""
    ok = [r for r in rows if not r["error"]]
    firsts = [r["first_ms"] for r in ok] or [0.0]
    turns = [r["turn_ms"] for r in ok] or [0.0]
    errors = [r["error"] for r in rows if r["error"]]
    return {"turns": len(rows), "errors": len(errors), "error_examples": sorted(set(errors))[:5],
            "first_event_p50_ms": round(percentile(firsts, 50), 1), "first_event_p95_ms": round(percentile(firsts, 95), 1),
            "turn_p50_ms": round(percentile(turns, 50), 1), "turn_p95_ms": round(percentile(turns, 95), 1),
            "by_kind": {k: sum(r["kind"] == k for r in rows) for k in KINDS}}


def _start(workers: int, database_url: str, redis_url: str, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    env = os.environ | {"KNOWZERO_DATA_DIR": str(data_dir), "KNOWZERO_DATABASE_URL": database_url,
                        "KNOWZERO_REDIS_URL": redis_url, "KNOWZERO_EMBED_IN_SERVER": "false",
                        "KNOWZERO_ANON_RATE_LIMIT": "100000/minute", "KNOWZERO_ANON_IP_RATE_LIMIT": "100000/minute",
                        "OMP_NUM_THREADS": "1", "OMP_WAIT_POLICY": "PASSIVE"}
    # the server's log goes to a file: a pipe nobody reads fills up and blocks the workers mid-run
    with open(data_dir / "server.log", "wb") as log:
        return subprocess.Popen([sys.executable, "-m", "knowzero.cli", "serve", "--workers", str(workers),
                                 "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=log)


def _log_tail(data_dir: Path) -> str:
    path = data_dir / "server.log"
    return path.read_bytes()[-2000:].decode(errors="replace") if path.exists() else ""


def _wait_up(proc: subprocess.Popen[bytes], base: str, data_dir: Path, deadline_s: float = 900) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError("the server exited: " + _log_tail(data_dir))
        try:
            if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                # one warm-up turn per worker's share: the first turns load lazily built pieces
                for msg in ("你好", "零件A的公差是多少？", "我的订单 201 到哪了？"):
                    httpx.post(f"{base}/v1/chat", json={"message": msg, "stream": False}, timeout=300,
                               headers={"X-Client-Id": f"bench-load-warmup-{uuid.uuid4().hex[:12]}"})
                return
        except httpx.HTTPError:
            pass
        time.sleep(1)
    raise RuntimeError("the server did not come up")


def run_load(sessions: int, turns: int, workers: list[int], *, database_url: str = "", redis_url: str = "",
             seed: int = 0, progress: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"sessions": sessions, "turns_per_session": turns, "workers": {},
                           "load_avg": os.getloadavg()[0], "cpus": os.cpu_count(),
                           "mode": "postgresql+redis" if database_url else "sqlite"}
    for n in workers:
        if n > 1 and not (database_url and redis_url):
            out["workers"][str(n)] = {"skipped": "several workers need --database-url (PostgreSQL) and --redis-url"}
            continue
        if progress:
            progress(f"{n} worker(s): starting the server…")
        url = _fresh_database(database_url) if database_url else ""
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        data_dir = Path(tempfile.mkdtemp(prefix="kz-load-"))
        proc = _start(n, url, redis_url, data_dir, port)
        try:
            _wait_up(proc, base, data_dir)
            if progress:
                progress(f"{n} worker(s): {sessions} sessions × {turns} turns…")
            t0 = time.perf_counter()
            rows = asyncio.run(_drive(base, sessions, turns, seed))
            out["workers"][str(n)] = summarize(rows) | {"wall_s": round(time.perf_counter() - t0, 1),
                                                        "load_avg": os.getloadavg()[0],
                                                        "server_log": str(data_dir / "server.log")}
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=30)
            if url:
                drop_database(url)
    return out
