"""Crash suite: kill -9 a real ``knowzero serve`` at random points of the refund and ticket flows,
restart it on the same data directory, finish every flow the way a client would, and count.

Each round runs one flow on a new thread (and, for refunds, a new order of alice's), sends its
steps until a chosen step, sends that one and SIGKILLs the server 0–350 ms later (seeded), so kills
land before, during and after each confirmation and interrupt. After the restart it observes the
thread as a user would (``GET /v1/threads/{id}``), then drives the flow to its end from the state it
finds (re-sending a message only when the thread does not have it, answering the interrupt it
shows) and checks the stores:

    double_actions   refunds (per thread and per order) or tickets (per thread) beyond one
    lost_messages    user messages the server accepted (HTTP 200 received) missing from the history
    stuck_threads    after the restart: a refund pending or a step waiting for a confirmation or an
                     approval without the thread showing that interrupt; a message taken whose turn
                     neither finished nor waits; a turn still recorded as running once the server is up
    incomplete_flows the flow could not be finished afterwards (its refund/ticket missing or not done)

Flows: ``refund_approval`` (¥600: confirmation, then an agent's approval), ``refund_direct`` (¥20:
confirmation, executed at once) and ``ticket`` (two turns of slot filling, then the ticket).
Nothing here is a unit test: it starts servers and takes minutes (``--rounds 50``: ~6 min on a
quiet 2-core machine). ``tests/api/test_service_kill_restart.py`` runs a 10-round slice in CI.

    python benchmarks/crash_suite.py --rounds 50 --seed 7            # prints one JSON object last
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ALICE = {"Authorization": "Bearer demo-alice"}
AGENT = {"Authorization": "Bearer demo-agent"}
FLOWS = ("refund_approval", "refund_direct", "ticket")
KILL_WINDOW_MS = 350


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``knowzero serve`` on a loopback port and a data directory, started and SIGKILLed at will."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir, self.port = data_dir, port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 300) -> float:
        env = {**os.environ, "KNOWZERO_DATA_DIR": str(self.data_dir), "KNOWZERO_DEMO_KEYS": "1",
               "KNOWZERO_DATABASE_URL": "", "KNOWZERO_REDIS_URL": "", "KNOWZERO_LLM_PROVIDER": "none"}
        exe = Path(sys.executable).with_name("knowzero")
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "knowzero.cli"]
        t0 = time.perf_counter()
        with open(self.data_dir / "server.log", "ab") as log:
            self.proc = subprocess.Popen([*cmd, "serve", "--port", str(self.port)], env=env,
                                         stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.time() + timeout
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError((self.data_dir / "server.log").read_text(errors="replace")[-3000:])
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return time.perf_counter() - t0
            except httpx.HTTPError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()


@dataclass
class Client:
    """What one flow's client saw: the user messages the server accepted, in order."""

    base: str
    thread_id: str
    accepted: list[str] = field(default_factory=list)

    def say(self, text: str, timeout: float = 60) -> dict[str, Any]:
        """One SSE turn read to its end; a message counts as accepted once the 200 arrives."""
        events: list[tuple[str, dict[str, Any]]] = []
        with httpx.stream("POST", f"{self.base}/v1/chat", headers=ALICE, timeout=timeout,
                          json={"thread_id": self.thread_id, "message": text}) as r:
            if r.status_code != 200:
                r.read()
                return {"status": r.status_code, "events": [], "body": r.text}
            self.accepted.append(text)
            etype = ""
            for line in r.iter_lines():
                if line.startswith("event:"):
                    etype = line[6:].strip()
                elif line.startswith("data:"):
                    events.append((etype, json.loads(line[5:])))
        return {"status": 200, "events": events}

    def thread(self) -> dict[str, Any]:
        r = httpx.get(f"{self.base}/v1/threads/{self.thread_id}", headers=ALICE, timeout=60)
        return r.json() if r.status_code == 200 else {"messages": [], "pending": [], "interrupted": False,
                                                      "state": {}, "status": r.status_code}

    def decide(self, refund_id: str) -> int:
        r = httpx.post(f"{self.base}/v1/service/refunds/{refund_id}/decision", headers=AGENT, timeout=60,
                       json={"approved": True})
        return r.status_code


class Store:
    """Read-only views of the app database (the server may be running: SQLite WAL)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "knowzero.db"

    def rows(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with sqlite3.connect(self.path, timeout=30) as conn:
            return conn.execute(sql, args).fetchall()

    def add_orders(self, ids: list[str]) -> None:
        with sqlite3.connect(self.path, timeout=30) as conn:
            for oid in ids:
                conn.execute("insert or ignore into svc_orders (id, customer_id, status, paid_cents, currency, "
                             "placed_at) values (?, 'alice', 'delivered', 100000, 'CNY', '2025-03-01')", (oid,))
                conn.execute("insert into svc_order_items (order_id, sku, name, qty, unit_cents) "
                             "values (?, 'XH-1001', '精密传动轴', 1, 100000)", (oid,))

    def refunds(self, thread_id: str) -> list[tuple[str, str, str]]:
        return [tuple(r) for r in self.rows("select id, order_id, status from svc_refunds where thread_id = ?",
                                            (thread_id,))]

    def refunds_of_order(self, order_id: str) -> int:
        return self.rows("select count(*) from svc_refunds where order_id = ?", (order_id,))[0][0]

    def tickets(self, thread_id: str) -> int:
        return self.rows("select count(*) from svc_tickets where thread_id = ?", (thread_id,))[0][0]

    def running_turns(self) -> list[str]:
        try:
            return [r[0] for r in self.rows("select thread_id from thread_turns")]
        except sqlite3.OperationalError:  # a server without the turn journal
            return []


def steps_of(flow: str, order_id: str) -> list[tuple[str, str]]:
    """A flow's client steps: ("say", text) or ("decide", "") for the agent's approval."""
    if flow == "refund_approval":
        return [("say", f"订单{order_id}退款600元，因为坏了"), ("say", "确认"), ("decide", "")]
    if flow == "refund_direct":
        return [("say", f"订单{order_id}退款20元，因为坏了"), ("say", "确认")]
    return [("say", "我要开个工单"), ("say", f"发票抬头开错了，编号{order_id}")]


def pending_kinds(thread: dict[str, Any]) -> list[str]:
    return [p.get("kind", "") for p in thread.get("pending") or [] if isinstance(p, dict)]


def stuck(thread: dict[str, Any], refunds: list[tuple[str, str, str]]) -> list[str]:
    """Why a thread is half-done (empty: it waits at its interrupt or is finished)."""
    why = []
    kinds = pending_kinds(thread)
    svc = (thread.get("state") or {}).get("service") or {}
    stage = (svc.get("pending") or {}).get("stage")
    if stage == "confirm" and "refund_confirmation" not in kinds:
        why.append("waits for a confirmation without the interrupt")
    if stage == "approval" and "refund_approval" not in kinds:
        why.append("waits for an approval without the interrupt")
    if any(st == "pending" for _, _, st in refunds) and "refund_approval" not in kinds:
        why.append("a refund is pending but the thread does not wait for its decision")
    msgs = thread.get("messages") or []
    if msgs and msgs[-1]["role"] == "user" and not kinds:
        why.append("a message was taken but its turn neither finished nor waits at an interrupt")
    return why


def missing(accepted: list[str], thread: dict[str, Any]) -> int:
    """Accepted user messages not in the history (as a multiset: "确认" may be sent twice)."""
    have = [m["content"] for m in thread.get("messages") or [] if m["role"] == "user"]
    lost = 0
    for text in accepted:
        if text in have:
            have.remove(text)
        else:
            lost += 1
    return lost


def user_messages(thread: dict[str, Any]) -> list[str]:
    return [m["content"] for m in thread.get("messages") or [] if m["role"] == "user"]


def stage_of(thread: dict[str, Any]) -> str | None:
    return ((((thread.get("state") or {}).get("service") or {}).get("pending")) or {}).get("stage")


def decide_pending(client: Client) -> None:
    thread = client.thread()
    for p in thread.get("pending") or []:
        if isinstance(p, dict) and p.get("kind") == "refund_approval":
            client.decide(p["refund_id"])
            return


def step(client: Client, kind: str, text: str) -> None:
    if kind == "say":
        client.say(text)
    else:
        decide_pending(client)


def drive(client: Client, store: Store, flow: str, steps: list[tuple[str, str]], start: int) -> None:
    """Finish a flow from whatever state the thread is in, as a careful client would: a message the
    thread already has is not sent again; the interrupt the thread shows is answered."""
    if flow == "ticket":
        for i, (_, text) in enumerate(steps[start:], start):
            if i == start and text in user_messages(client.thread()):
                continue
            client.say(text)
        return
    for _ in range(6):
        thread = client.thread()
        kinds = pending_kinds(thread)
        refunds = store.refunds(client.thread_id)
        if "refund_approval" in kinds:
            client.decide(thread["pending"][kinds.index("refund_approval")]["refund_id"])
        elif refunds and all(st == "executed" for _, _, st in refunds):
            return
        elif steps[0][1] not in user_messages(thread):
            client.say(steps[0][1])
        elif "refund_confirmation" in kinds or stage_of(thread) == "confirm":
            client.say("确认")
        else:
            return


@dataclass
class Counts:
    rounds: int = 0
    cut_short_turns: int = 0
    accepted_at_kill: int = 0
    double_actions: int = 0
    lost_messages: int = 0
    stuck_threads: int = 0
    incomplete_flows: int = 0
    per_flow: dict[str, int] = field(default_factory=dict)
    failures: list[dict[str, Any]] = field(default_factory=list)


def run(rounds: int = 50, seed: int = 7, data_dir: Path | None = None, log: Any = None) -> dict[str, Any]:
    """Run the suite; returns the counts (and the failing rounds, if any)."""
    rng = random.Random(seed)
    say = log or (lambda *_: None)
    tmp = None
    if data_dir is None:
        tmp = tempfile.TemporaryDirectory(prefix="kz-crash-")
        data_dir = Path(tmp.name)
    t0 = time.perf_counter()
    server = Server(data_dir)
    starts = [server.start()]
    store = Store(data_dir)
    order_ids = [f"9{seed % 10}{i:03d}" for i in range(rounds)]
    store.add_orders(order_ids)
    c = Counts()
    plan = [FLOWS[i % len(FLOWS)] for i in range(rounds)]
    rng.shuffle(plan)
    try:
        for i, flow in enumerate(plan):
            tid = f"crash-{seed}-{i}-{flow}"
            steps = steps_of(flow, order_ids[i])
            kill_at = rng.randrange(len(steps))
            delay = rng.uniform(0, KILL_WINDOW_MS) / 1000
            client = Client(server.base, tid)
            for kind, text in steps[:kill_at]:
                step(client, kind, text)
            kind, text = steps[kill_at]
            before = len(client.accepted)

            def fire(kind: str = kind, text: str = text, client: Client = client) -> None:
                try:
                    step(client, kind, text)
                except (httpx.HTTPError, json.JSONDecodeError):
                    pass  # the server is being killed

            sender = threading.Thread(target=fire)
            sender.start()
            time.sleep(delay)
            server.kill()
            sender.join()
            c.accepted_at_kill += len(client.accepted) - before
            c.cut_short_turns += tid in store.running_turns()
            starts.append(server.start())
            thread = client.thread()
            refunds = store.refunds(tid)
            problems = stuck(thread, refunds)
            left = store.running_turns()
            if left:
                problems.append(f"turns still recorded as running: {left}")
            lost = missing(client.accepted, thread)
            drive(client, store, flow, steps, kill_at)
            refunds = store.refunds(tid)
            if flow == "ticket":
                n = store.tickets(tid)
                double, done = max(n - 1, 0), n >= 1
            else:
                per_order = store.refunds_of_order(order_ids[i])
                double = max(len(refunds) - 1, 0) + max(per_order - 1, 0)
                done = len(refunds) == 1 and refunds[0][2] == "executed"
            final = client.thread()
            lost += missing(client.accepted, final) if not lost else 0
            c.rounds += 1
            c.per_flow[flow] = c.per_flow.get(flow, 0) + 1
            c.double_actions += double
            c.lost_messages += lost
            c.stuck_threads += bool(problems)
            c.incomplete_flows += not done
            if double or lost or problems or not done:
                c.failures.append({"round": i, "flow": flow, "kill_step": kill_at, "delay_ms": round(delay * 1000),
                                   "double": double, "lost": lost, "stuck": problems, "done": done,
                                   "refunds": refunds, "messages": [m["role"] for m in final.get("messages") or []]})
            say(f"round {i:2d} {flow:15s} kill at step {kill_at} +{delay * 1000:3.0f} ms: "
                f"double {double} lost {lost} stuck {len(problems)} done {done}")
    finally:
        server.kill()
        if tmp is not None:
            tmp.cleanup()
    return {"rounds": c.rounds, "seed": seed, "flows": c.per_flow, "double_actions": c.double_actions,
            "lost_messages": c.lost_messages, "stuck_threads": c.stuck_threads,
            "incomplete_flows": c.incomplete_flows, "cut_short_turns": c.cut_short_turns,
            "accepted_at_kill": c.accepted_at_kill, "restart_s_p50": round(sorted(starts)[len(starts) // 2], 2),
            "elapsed_s": round(time.perf_counter() - t0, 1), "failures": c.failures}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--data-dir", type=Path, default=None, help="keep the data here (default: a temporary dir)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    if args.data_dir:
        args.data_dir.mkdir(parents=True, exist_ok=True)
    out = run(args.rounds, args.seed, args.data_dir, log=None if args.quiet else lambda m: print(m, file=sys.stderr))
    print(json.dumps(out, ensure_ascii=False))
    sys.exit(1 if out["double_actions"] or out["lost_messages"] or out["stuck_threads"] or out["incomplete_flows"] else 0)


if __name__ == "__main__":
    main()
