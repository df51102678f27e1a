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

What a turn costs, per worker count (CPU, not wall: the figures hold on a busy machine):
- ``cpu_ms_per_turn``: after the load, ``cost_turns`` turns of each kind (``knowledge``, ``chat``,
  ``service``, ``learning``) one at a time, each on a new thread; the CPU the server's processes
  (the supervisor and its workers, read from ``/proc``) spent over them, less their idle rate,
  divided by the turns — request parsing, the graph, checkpoints and the SSE stream included;
- ``profile_top``: a sampling profile of the server over those turns (``py-spy record``, 100 Hz,
  non-blocking, idle threads left out): the 15 functions with the most own time, in CPU
  milliseconds (``profile`` says why it is empty when py-spy is not installed);
- ``cpu``: during the load itself, the server's CPU per turn and the CPU seconds the load generator
  (this process), PostgreSQL and Redis took — on a 2-core machine they share the cores.
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
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
from knowzero.vocabulary.service import TYPICAL_HANDOFF_REQUEST

MESSAGES: dict[str, list[str]] = {
    "knowledge": ["零件A的公差是多少？", "差旅住宿标准是多少", "年假有几天？", "哪个产品最贵", "上海办事处的联系方式",
                  "CNC加工中心开机后要做什么？", "XH-2001精密法兰盘的关键尺寸公差是多少？", "报销需要哪些材料？"],
    "chat": ["你好", "谢谢", "你是谁？", "今天天气不错", "好的，明白了"],
    "service": ["我的订单 201 到哪了？", "查一下订单 202 的状态", "我想退货，怎么办？", TYPICAL_HANDOFF_REQUEST, "订单 203 什么时候发货？"],
}
KINDS = ("knowledge", "chat", "service")
COST_MESSAGES: dict[str, list[str]] = MESSAGES | {
    "learning": ["我想学习CNC加工", "给我一个数控加工的学习路线", "介绍一下差旅报销", "什么是公差"]}
COST_KINDS = ("knowledge", "chat", "service", "learning")
PROFILE_RATE_HZ = 100
WAITS = frozenset({"EpollSelector.select (selectors.py)", "_worker (concurrent/futures/thread.py)",
                   "_connection_worker_thread (aiosqlite/core.py)", "Condition.wait (threading.py)"})
"""Leaf frames py-spy reports although the thread waits in them (the event loop's poll, idle pool and
aiosqlite threads): left out of ``profile_top``, summed in ``profile_waiting_ms``."""
_TICK_MS = 1000 / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _session(client: httpx.AsyncClient, base: str, i: int, turns: int, rng: random.Random,
                   out: list[dict[str, Any]], think: tuple[float, float] = (1.0, 3.0)) -> None:
    client_id = f"bench-load-{i:04d}-{uuid.uuid4().hex[:12]}"
    thread_id = f"load-{uuid.uuid4().hex}"
    await asyncio.sleep(rng.uniform(0, think[1]))  # users do not all arrive in the same second
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
        await asyncio.sleep(rng.uniform(*think))


async def _drive(base: str, sessions: int, turns: int, seed: int,
                 think: tuple[float, float] = (1.0, 3.0)) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    limits = httpx.Limits(max_connections=sessions + 10, max_keepalive_connections=sessions + 10)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120, connect=30), limits=limits) as client:
        await asyncio.gather(*(_session(client, base, i, turns, random.Random(seed * 1000 + i), out, think)
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


def _proc_stats() -> list[tuple[int, int, str, float]]:
    """(pid, parent pid, command name, CPU ms so far) of every process on the machine (Linux ``/proc``)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                raw = f.read().decode(errors="replace")
        except OSError:
            continue  # the process ended meanwhile
        name = raw[raw.index("(") + 1 : raw.rindex(")")]
        fields = raw[raw.rindex(")") + 2 :].split()
        out.append((int(entry), int(fields[1]), name, (int(fields[11]) + int(fields[12])) * _TICK_MS))
    return out


def tree_pids(root: int, stats: list[tuple[int, int, str, float]] | None = None) -> set[int]:
    """``root`` and all its descendants."""
    stats = _proc_stats() if stats is None else stats
    pids, grew = {root}, True
    while grew:
        more = {pid for pid, ppid, _, _ in stats if ppid in pids} - pids
        pids |= more
        grew = bool(more)
    return pids


def cpu_ms(pids: set[int] | None = None, names: tuple[str, ...] = ()) -> float:
    """CPU milliseconds (user + system) the given processes, or every process with one of ``names``
    as its command name, have used so far."""
    return sum(ms for pid, _, name, ms in _proc_stats() if (pids is not None and pid in pids) or name in names)


def summarize_profile(raw: str, rate_hz: int = PROFILE_RATE_HZ, top: int = 15,
                      skip: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The functions with the most own time in py-spy's ``--format raw`` output (collapsed stacks:
    ``frame;frame;…;leaf count`` per line, a frame being ``function (file:line)``) — pure.

    >>> summarize_profile("main (a.py:1);f (b.py:3) 5\\nmain (a.py:1);f (b.py:4) 2\\nmain (a.py:2) 1")
    [{'function': 'f (b.py)', 'own_ms': 70.0}, {'function': 'main (a.py)', 'own_ms': 10.0}]
    """
    own: dict[str, int] = {}
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        leaf = stack.rsplit(";", 1)[-1].strip()
        if leaf.endswith(")") and ":" in leaf:
            leaf = leaf[: leaf.rindex(":")] + ")"  # one function, whatever its line
        own[leaf] = own.get(leaf, 0) + int(count)
    ranked = sorted(((f, n) for f, n in own.items() if f not in skip), key=lambda kv: (-kv[1], kv[0]))[:top]
    return [{"function": f, "own_ms": round(n * 1000 / rate_hz, 1)} for f, n in ranked]


async def _one_turn(client: httpx.AsyncClient, base: str, msg: str, client_id: str) -> str:
    """One SSE turn on a new thread; the error ("" when it ended with ``done``)."""
    try:
        async with client.stream("POST", f"{base}/v1/chat", json={"message": msg, "thread_id": f"cost-{uuid.uuid4().hex}"},
                                 headers={"X-Client-Id": client_id}) as r:
            if r.status_code != 200:
                return f"HTTP {r.status_code}"
            async for line in r.aiter_lines():
                if line.startswith("event:") and line[6:].strip() in ("done", "error"):
                    return "" if line[6:].strip() == "done" else "error event"
        return "stream ended without done"
    except httpx.HTTPError as exc:
        return f"{type(exc).__name__}: {exc}"


def measure_costs(base: str, server_pid: int, data_dir: Path, cost_turns: int) -> dict[str, Any]:
    """CPU ms per turn by kind over sequential turns, and the server's top functions (see module doc)."""
    pids = tree_pids(server_pid)
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    profiler: subprocess.Popen[bytes] | None = None
    profile_path = data_dir / "profile.txt"
    note = ""
    if Path(spy).exists():
        profiler = subprocess.Popen([spy, "record", "--pid", str(server_pid), "--subprocesses", "--nonblocking",
                                     "--rate", str(PROFILE_RATE_HZ), "--format", "raw", "-o", str(profile_path)],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.5)  # py-spy attaches to every worker before the first turn
    else:
        note = "py-spy is not installed (pip install 'knowzero[bench]'): no profile"
    c0 = cpu_ms(pids)
    time.sleep(2.0)
    idle_ms_per_s = (cpu_ms(pids) - c0) / 2.0
    per_kind: dict[str, float] = {}
    errors: list[str] = []

    async def run_kind(kind: str) -> float:
        msgs = COST_MESSAGES[kind]
        async with httpx.AsyncClient(timeout=httpx.Timeout(300, connect=30)) as client:
            t0, c = time.perf_counter(), cpu_ms(pids)
            for i in range(cost_turns):
                err = await _one_turn(client, base, msgs[i % len(msgs)], f"bench-cost-{kind}-{uuid.uuid4().hex[:8]}")
                if err:
                    errors.append(f"{kind}: {err}")
            return cpu_ms(pids) - c - idle_ms_per_s * (time.perf_counter() - t0)

    for kind in COST_KINDS:
        per_kind[kind] = round(max(0.0, asyncio.run(run_kind(kind))) / cost_turns, 1)
    top: list[dict[str, Any]] = []
    waiting = 0.0
    if profiler is not None:
        profiler.send_signal(signal.SIGINT)  # py-spy writes its output when interrupted
        try:
            profiler.wait(timeout=60)
        except subprocess.TimeoutExpired:
            profiler.kill()
            profiler.wait(timeout=30)
        if profile_path.exists():
            raw = profile_path.read_text(errors="replace")
            top = summarize_profile(raw, skip=WAITS)
            waiting = sum(r["own_ms"] for r in summarize_profile(raw, top=10**6) if r["function"] in WAITS)
        else:
            note = "py-spy wrote no profile (is ptrace allowed here?)"
    return {"cpu_ms_per_turn": per_kind, "cost_turns_per_kind": cost_turns, "cost_errors": errors[:5],
            "idle_cpu_ms_per_s": round(idle_ms_per_s, 1), "profile_top": top, "profile_waiting_ms": round(waiting, 1),
            **({"profile": note} if note else {}), "profile_file": str(profile_path)}


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
             seed: int = 0, cost_turns: int = 12, think: tuple[float, float] = (1.0, 3.0),
             progress: Any = None) -> dict[str, Any]:
    out: dict[str, Any] = {"sessions": sessions, "turns_per_session": turns, "think_s": list(think), "workers": {},
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
            pids = tree_pids(proc.pid)
            t0, gen0 = time.perf_counter(), time.process_time()
            server0, pg0, redis0 = cpu_ms(pids), cpu_ms(names=("postgres",)), cpu_ms(names=("redis-server",))
            rows = asyncio.run(_drive(base, sessions, turns, seed, think))
            wall = time.perf_counter() - t0
            cpu = {"server_ms_per_turn": round((cpu_ms(pids) - server0) / max(1, len(rows)), 1),
                   "load_generator_s": round(time.process_time() - gen0, 1),
                   "postgres_s": round((cpu_ms(names=("postgres",)) - pg0) / 1000, 1),
                   "redis_s": round((cpu_ms(names=("redis-server",)) - redis0) / 1000, 1)}
            out["workers"][str(n)] = summarize(rows) | {"wall_s": round(wall, 1),
                                                        "turns_per_s": round(len(rows) / max(wall, 1e-9), 1),
                                                        "load_avg": os.getloadavg()[0], "cpu": cpu,
                                                        "server_log": str(data_dir / "server.log")}
            if cost_turns:
                if progress:
                    progress(f"{n} worker(s): {cost_turns} turns of each kind, one at a time (CPU per turn, profile)…")
                out["workers"][str(n)] |= measure_costs(base, proc.pid, data_dir, cost_turns)
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
