"""Runs one turn of the compiled graph and turns it into the typed event stream.

- One turn per thread at a time: a second request on a busy thread is refused with 409
  ``conflict`` (in-process lock; with ``KNOWZERO_REDIS_URL`` a Redis lock spans workers).
- The first event is always ``intent_classified`` (events before it are held back and follow
  it); the last is ``done`` or ``error``. A graph interrupt (approval, handoff) becomes a
  ``human_review_request`` event and ``done`` carries ``interrupted: true``.
- Resuming (``Command(resume=...)``) goes through the same path, so approval endpoints and
  clients share one mechanism. Internal errors are logged, never sent.
- A turn runs as a task of the runner, not of the HTTP response: a client that disconnects does
  not cancel it (the reply is stored; the run releases the lock). Its steps are checkpointed where
  they have side effects (see :class:`Runner`: every step of a service, learning or tool turn; a
  knowledge, small-talk or clarifying turn once its path is decided and once at its end), and a turn
  a crash cut short is finished at start-up or before the thread is next used.
- Ownership is decided here, for every entry point (``/v1/chat``, ``/v1/chat/completions``, the
  service console, the CLI): a new thread id is claimed by its first caller; only the owner sends
  messages into a thread; staff (agent/admin) may also read it and resume its interrupts
  (approvals, handoffs). Anyone else gets ``not_found`` — the same answer as for a thread that
  does not exist, so thread ids cannot be probed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any, Literal

import redis.asyncio as aioredis
from langgraph.types import Command
from redis.asyncio import Redis
from redis.asyncio.lock import Lock as RedisLock
from redis.exceptions import LockError

from knowzero.errors import Conflict, KnowZeroError, NotFound
from knowzero.graph.context import Deps
from knowzero.graph.state import wire_values
from knowzero.input import AgentInput
from knowzero.persistence.threads import ThreadDirectory
from knowzero.users import User, is_staff

log = logging.getLogger("knowzero.runner")

QUIET_PATHS = frozenset({"knowledge", "chitchat", "clarify"})
"""Paths whose steps change nothing but the thread's own state (the knowledge path's review-queue
entry aside, which is for people and not keyed): checkpointed once, at the end of the turn."""


class ThreadLocks:
    """Per-thread mutual exclusion; non-blocking acquire (busy → Conflict).

    In process, a dict of thread id → the holding turn's token. With Redis, also a
    ``redis.asyncio.lock.Lock`` per thread (key ``knowzero:lock:<thread id>``) so several workers
    exclude each other: acquired with the turn's token, released by Redis's token-checked script (a
    late release can never free a later turn's lock), and kept alive while the turn runs by a task
    that extends it every ``ttl_s / 3`` seconds. A worker that dies stops renewing, so its locks
    expire after at most ``ttl_s`` and the thread can be used again.
    """

    KEY = "knowzero:lock:{}"

    def __init__(self, redis_url: str = "", *, ttl_s: float = 30.0) -> None:
        if ttl_s <= 0:
            raise ValueError("ttl_s must be positive")
        self.ttl_s = ttl_s
        self._local: dict[str, str] = {}  # thread id -> token of the turn holding it
        self._held: dict[str, tuple[RedisLock, asyncio.Task[None]]] = {}  # thread id -> (Redis lock, renewer)
        self._redis: Redis | None = aioredis.from_url(redis_url) if redis_url else None

    async def acquire(self, thread_id: str) -> str:
        if thread_id in self._local:
            raise Conflict("this thread is already answering a message; wait for it to finish")
        token = uuid.uuid4().hex
        self._local[thread_id] = token  # claimed before the first await: no second turn slips in
        if self._redis is not None:
            lock = RedisLock(self._redis, self.KEY.format(thread_id), timeout=self.ttl_s, blocking=False,
                             thread_local=False)
            try:
                ok = await lock.acquire(token=token)
            except BaseException:
                del self._local[thread_id]
                raise
            if not ok:
                del self._local[thread_id]
                raise Conflict("this thread is already answering a message; wait for it to finish")
            self._held[thread_id] = (lock, asyncio.create_task(self._renew(thread_id, lock)))
        return token

    def busy(self, thread_id: str) -> bool:
        """Whether a turn of this worker is running on the thread (another worker's is not seen)."""
        return thread_id in self._local

    async def _renew(self, thread_id: str, lock: RedisLock) -> None:
        """Extend the lock's TTL while the turn runs (cancelled on release)."""
        while True:
            await asyncio.sleep(self.ttl_s / 3)
            try:
                await lock.reacquire()
            except LockError:
                log.warning("lost the Redis lock of thread %s while its turn was running", thread_id)
                return

    async def release(self, thread_id: str, token: str) -> None:
        """Release if ``token`` still holds the thread (idempotent; never frees a later turn's lock)."""
        if self._local.get(thread_id) != token:
            return
        del self._local[thread_id]
        held = self._held.pop(thread_id, None)
        if held is None:
            return
        lock, renewer = held
        renewer.cancel()
        try:
            await lock.release()  # token-checked in Redis: a no-op if the lock expired and was taken since
        except LockError:
            log.warning("the Redis lock of thread %s had expired before its turn ended", thread_id)


class Turn:
    """The events of one running turn: an async iterator of (event_type, data).

    The graph run is a task of the :class:`Runner`, not of the reader: it writes into a queue this
    iterator reads, so a client that disconnects (or never reads) does not cancel it; the turn
    finishes, its reply is checkpointed, and the run releases the thread lock when it ends.
    """

    def __init__(self, queue: asyncio.Queue[tuple[str, dict[str, Any]] | None], task: asyncio.Task[None]) -> None:
        self._queue = queue
        self._head: list[tuple[str, dict[str, Any]] | None] = []
        self.task = task
        """The run; done when the turn has ended (checkpointed, lock released)."""

    async def started(self) -> None:
        """Wait for the first event (``intent_classified``, or an error). The user's message is
        checkpointed by then (with the turn's path, see :class:`Runner`): a caller that got the
        first event was heard."""
        if not self._head:
            self._head.append(await self._queue.get())

    async def _events(self) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        while True:
            item = self._head.pop() if self._head else await self._queue.get()
            if item is None:
                return
            yield item

    def __aiter__(self) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        return self._events()


Access = Literal["send", "resume", "read", "manage"]


def cut_short(snapshot: Any) -> bool:
    """The checkpoint has tasks (steps scheduled, or done with their writes saved but not yet
    applied by a next checkpoint) and none waits at an interrupt or failed: the process running the
    turn died between two checkpoints (only meaningful while holding the thread's lock).

    ``snapshot.next`` is not the test: it leaves out tasks whose writes are saved, so a turn killed
    right after such a step shows ``next == ()`` and looks finished although its graph never went on.
    """
    tasks = tuple(snapshot.tasks or ())
    return bool(tasks) and not any(getattr(t, "interrupts", ()) or getattr(t, "error", None) for t in tasks)


class Runner:
    """Owns the compiled graph, the thread locks and the thread ownership decisions for the process.

    Crash safety (see ``graph/nodes/service.py`` for the exactly-once rules of the nodes):
    - a new message first runs up to ``decide_path`` (normalise, classify, choose the path: no side
      effects) and is checkpointed there, once (``durability="exit"`` with a breakpoint after
      ``decide_path``); the rest of the turn then runs with ``durability="sync"`` when the path has
      side effects (service, learning, react) — a step's checkpoint is on disk before the next step
      starts, so a crash can cut a turn short only *between* two steps, and the step that re-runs is
      the one whose side effects carry idempotency keys — and with ``durability="exit"`` on the
      :data:`QUIET_PATHS`, checkpointed once at the end (a crash there re-runs the path's steps,
      which move nothing). A resume, and a cut-short turn being finished, always run with "sync".
      A knowledge turn writes 2 checkpoints instead of ~10 (measured in benchmarks/README.md);
    - a turn is recorded in the thread directory before it runs and forgotten when it ends; at
      start-up :meth:`recover_unfinished` finishes every turn a crash cut short, and any later use
      of a thread (a new message, a resume, a read) finishes it first (:meth:`recover`), so a
      thread is always either waiting at its interrupt or done — never half-way.
    """

    def __init__(self, graph: Any, locks: ThreadLocks, threads: ThreadDirectory, container: Deps | None = None) -> None:
        self.graph = graph
        self.locks = locks
        self.threads = threads
        self.container = container
        """The process's dependency container; recovery runs a thread's cut-short turn as its owner."""
        self._runs: set[asyncio.Task[None]] = set()

    def authorize(self, thread_id: str, user: User, access: Access, title: str = "") -> None:
        """Raise NotFound unless ``user`` may ``access`` the thread; ``send`` claims a new thread.

        send    the owner (a new id becomes the caller's)      read    the owner or staff
        resume  the owner or staff (approvals, handoffs)       manage  the owner (rename, delete)
        """
        owner = self.threads.owner(thread_id)
        if owner is None and access == "send":
            owner = self.threads.claim(thread_id, user.id, title)
        if owner is None:
            raise NotFound("thread not found")
        if owner == user.id or (access in ("read", "resume") and is_staff(user)):
            return
        raise NotFound("thread not found")

    async def snapshot(self, thread_id: str, user: User) -> Any:
        """The thread's checkpointed state, for a caller allowed to read it (a turn a crash cut
        short is finished first, so readers never see a half-done step)."""
        self.authorize(thread_id, user, "read")
        try:
            await self.recover(thread_id)
        except Exception:  # noqa: BLE001 - a failed recovery is logged; the reader still gets the state
            log.exception("could not finish the interrupted turn of thread %s", thread_id)
        return await self.graph.aget_state({"configurable": {"thread_id": thread_id}})

    async def stream_turn(self, thread_id: str, deps: Deps, *, payload: AgentInput | None = None,
                          resume: Any = None, title: str = "") -> Turn:
        """Start one turn and return its events once the first one is ready. Raises NotFound if the
        caller may not use the thread, and Conflict if the thread is busy.

        The run is independent of the reader (see :class:`Turn`): it releases the lock itself.
        """
        self.authorize(thread_id, deps.user, "resume" if resume is not None else "send", title)
        self.threads.touch(thread_id)
        token = await self.locks.acquire(thread_id)
        if resume is not None:
            try:  # decided under the lock: nothing can pause or finish the thread in between
                await self._finish_cut_short(thread_id)
                if not await self.waiting(thread_id):
                    raise Conflict("this thread is not waiting for an answer; there is nothing to resume")
            except BaseException:
                await self.locks.release(thread_id, token)
                raise
        queue: asyncio.Queue[tuple[str, dict[str, Any]] | None] = asyncio.Queue()
        task = asyncio.create_task(self._drive(thread_id, token, queue, self._run(thread_id, deps, payload, resume)),
                                   name=f"turn:{thread_id}")
        self._runs.add(task)
        task.add_done_callback(self._runs.discard)
        turn = Turn(queue, task)
        await turn.started()
        return turn

    async def _drive(self, thread_id: str, token: str, queue: asyncio.Queue[tuple[str, dict[str, Any]] | None],
                     events: AsyncIterator[tuple[str, dict[str, Any]]]) -> None:
        """Run a turn to its end whoever reads it: record the turn, finish a cut-short one first,
        forward the events, then forget the turn and release the lock — before the final ``done``
        or ``error`` is handed over, so a client that saw it may send its next message at once.
        (A ``done``/``error`` is held only until the next event: every other event goes out as it
        comes, so the first one is never delayed.)"""
        ended = sent = False
        last: tuple[str, dict[str, Any]] | None = None
        try:
            await asyncio.to_thread(self.threads.turn_started, thread_id)
            await self._finish_cut_short(thread_id)
            async for ev in events:
                sent = True
                if last is not None:
                    queue.put_nowait(last)
                    last = None
                if ev[0] in ("done", "error"):
                    last = ev
                else:
                    queue.put_nowait(ev)
            ended = True
        except asyncio.CancelledError:
            raise  # shutting down: the turn stays recorded and is finished at the next start
        except Exception:  # noqa: BLE001 - the stream must still end with a clean error event
            log.exception("turn failed on thread %s", thread_id)
            if last is not None:
                queue.put_nowait(last)
            elif not sent:
                queue.put_nowait(("intent_classified", {"intent": "unknown", "confidence": 0.0, "method": "none",
                                                        "elapsed_ms": 0.0, "reasoning": ""}))
            last = ("error", {"code": "internal_error", "message": "something went wrong while answering; "
                                                                   "the thread is kept and you can retry"})
            ended = True
        finally:
            try:
                if ended:
                    await asyncio.to_thread(self.threads.turn_ended, thread_id)
            finally:
                await self.locks.release(thread_id, token)
                if last is not None:
                    queue.put_nowait(last)
                queue.put_nowait(None)

    async def waiting(self, thread_id: str) -> bool:
        """The thread is paused at an interrupt (a confirmation, an approval, a handoff)."""
        snap = await self.graph.aget_state({"configurable": {"thread_id": thread_id}})
        return any(getattr(t, "interrupts", ()) for t in (snap.tasks or ()))

    @contextlib.asynccontextmanager
    async def exclusive(self, thread_id: str) -> AsyncIterator[None]:
        """Hold the thread's turn lock for a change made outside a turn (an agent's reply written
        straight into the thread, a hand-back): it cannot interleave with a running turn, which
        would overwrite it or be overwritten. A busy thread raises Conflict (409), like a second
        message; the caller authorizes first."""
        token = await self.locks.acquire(thread_id)
        try:
            await self._finish_cut_short(thread_id)
            yield
        finally:
            await self.locks.release(thread_id, token)

    async def recover(self, thread_id: str) -> bool:
        """Finish the thread's turn if a crash cut it short; False if there was nothing to do or a
        turn is running on it right now (that turn finishes it)."""
        config = {"configurable": {"thread_id": thread_id}}
        if self.graph is None or not cut_short(await self.graph.aget_state(config)):
            return False
        try:
            token = await self.locks.acquire(thread_id)
        except Conflict:
            return False
        try:
            done = await self._finish_cut_short(thread_id)
            await asyncio.to_thread(self.threads.turn_ended, thread_id)
            return done
        finally:
            await self.locks.release(thread_id, token)

    async def recover_unfinished(self) -> list[str]:
        """At start-up: finish every turn the last process left running; returns their thread ids."""
        done = []
        for thread_id in await asyncio.to_thread(self.threads.unfinished_turns):
            try:
                if await self.recover(thread_id):
                    done.append(thread_id)
                elif not cut_short(await self.graph.aget_state({"configurable": {"thread_id": thread_id}})):
                    await asyncio.to_thread(self.threads.turn_ended, thread_id)
            except Exception:  # noqa: BLE001 - one broken thread must not stop the server from starting
                log.exception("could not finish the interrupted turn of thread %s", thread_id)
        if done:
            log.warning("finished %d turn(s) cut short by a crash: %s", len(done), ", ".join(done))
        return done

    async def _finish_cut_short(self, thread_id: str) -> bool:
        """(Holding the lock.) Run the scheduled steps of a cut-short turn to its end or its next
        interrupt, as the thread's owner. Steps re-run from their first line; side effects are
        idempotent by key (``graph/nodes/service.py``), so nothing happens twice."""
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 60}
        if self.graph is None or not cut_short(await self.graph.aget_state(config)):
            return False
        deps = self._owner_deps(thread_id)
        if deps is None:
            return False
        log.warning("thread %s: finishing a turn cut short by a crash", thread_id)
        async for _ in self.graph.astream(None, config, context=deps, stream_mode="updates", durability="sync"):
            pass
        return True

    def _owner_deps(self, thread_id: str) -> Deps | None:
        if self.container is None:
            return None
        owner = self.threads.owner(thread_id)
        if owner is None:
            return None
        row = self.container.store.get_user(owner) if self.container.store is not None else None
        user = User(owner, row["role"], row.get("name") or "") if row else User(owner, "anonymous")
        return self.container.for_user(user)

    async def drain(self, timeout: float = 30.0) -> None:
        """Let running turns finish (app shutdown); a turn still running after ``timeout`` is
        cancelled and finished at the next start."""
        runs = list(self._runs)
        if not runs:
            return
        _, pending = await asyncio.wait(runs, timeout=timeout)
        for t in pending:
            t.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    async def _run(self, thread_id: str, deps: Deps, payload: AgentInput | None,
                   resume: Any) -> AsyncIterator[tuple[str, dict[str, Any]]]:
        t0 = time.perf_counter()
        config = {"configurable": {"thread_id": thread_id}, "recursion_limit": 60}
        held: list[tuple[str, dict[str, Any]]] = []
        started = False
        interrupts: list[Any] = []
        streamed = False  # a model streamed its (checked) sentences as llm_token events during the run
        try:
            if resume is not None:
                snapshot = await self.graph.aget_state(config)
                intent = (snapshot.values or {}).get("intent") or {}
                started = True
                yield "intent_classified", {"intent": intent.get("intent", "action"), "confidence": 1.0,
                                            "method": "resume", "elapsed_ms": 0.0,
                                            "reasoning": "resuming a paused thread"}
                inp: Any = Command(resume=resume)
            else:
                inp = {"input": payload}
            # (input, durability, breakpoint): a new message stops once after its path is decided
            runs: list[tuple[Any, Literal["sync", "exit"], list[str] | None]] = [
                (inp, "sync", None) if resume is not None else (inp, "exit", ["decide_path"])]
            path: str | None = None
            while runs:
                run_inp, durability, breakpoint = runs.pop()
                async for ns, mode, chunk in self.graph.astream(run_inp, config, context=deps, durability=durability,
                                                                interrupt_after=breakpoint,
                                                                stream_mode=["custom", "updates"], subgraphs=True):
                    if mode == "updates" and not ns and isinstance(chunk, dict) and "decide_path" in chunk:
                        path = (chunk["decide_path"] or {}).get("path")
                    if mode == "custom" and isinstance(chunk, dict) and "type" in chunk:
                        ev = (chunk["type"], chunk.get("data", {}))
                        # a learning section's tokens (``document_id``) are the document's text, not the reply
                        streamed = streamed or (ev[0] == "llm_token" and "document_id" not in ev[1])
                        if not started:
                            # held until the message is checkpointed (``breakpoint``: the first run) and
                            # until intent_classified, which goes first
                            held.append(ev)
                            if ev[0] == "intent_classified" and not breakpoint:
                                started = True
                                for h in sorted(held, key=lambda h: h[0] != "intent_classified"):
                                    yield h
                                held.clear()
                            continue
                        yield ev
                    elif mode == "updates" and isinstance(chunk, dict) and "__interrupt__" in chunk and not ns:
                        interrupts.extend(chunk["__interrupt__"])
                if breakpoint and any(h[0] == "intent_classified" for h in held):
                    started = True  # the message is on disk: a caller that gets the first event was heard
                    for h in sorted(held, key=lambda h: h[0] != "intent_classified"):
                        yield h
                    held.clear()
                if breakpoint and not interrupts:  # stopped after decide_path: the rest, as its path needs
                    runs.append((None, "exit" if path in QUIET_PATHS else "sync", None))
            snapshot = await self.graph.aget_state(config)
            values = snapshot.values or {}
            if not started:
                started = True
                yield "intent_classified", {"intent": "unknown", "confidence": 0.0, "method": "none",
                                            "elapsed_ms": 0.0, "reasoning": ""}
                for h in held:
                    yield h
            pending = [getattr(i, "value", i) for i in interrupts] or [
                getattr(i, "value", i) for t in (snapshot.tasks or ()) for i in (getattr(t, "interrupts", ()) or ())]
            for value in pending:
                data = value if isinstance(value, dict) else {"value": value}
                if not data.get("_emitted"):
                    yield "human_review_request", {k: v for k, v in data.items() if not k.startswith("_")}
            reply = values.get("reply") or ""
            # A reply no model streamed (offline, or a checked answer composed from quotes) exists whole: it goes
            # out as what it is, in ``done``, never cut into pretend tokens.
            yield "done", {"thread_id": thread_id, "elapsed_ms": round((time.perf_counter() - t0) * 1000, 2),
                           "interrupted": bool(pending), "reply": reply,
                           "citations": values.get("citations") or [],
                           "verdict": values["verdict"].level if values.get("verdict") is not None else None,
                           "quick_replies": list(values.get("quick_replies") or [])}
        except KnowZeroError as exc:
            if not started:
                yield "intent_classified", {"intent": "unknown", "confidence": 0.0, "method": "none",
                                            "elapsed_ms": 0.0, "reasoning": ""}
            yield "error", {"code": exc.code, "message": exc.message}
        except (asyncio.CancelledError, GeneratorExit):
            raise
        except Exception:  # noqa: BLE001 - the stream must end with a clean error event
            log.exception("turn failed on thread %s", thread_id)
            if not started:
                yield "intent_classified", {"intent": "unknown", "confidence": 0.0, "method": "none",
                                            "elapsed_ms": 0.0, "reasoning": ""}
            yield "error", {"code": "internal_error", "message": "something went wrong while answering; "
                                                                 "the thread is kept and you can retry"}

    async def run_to_end(self, thread_id: str, deps: Deps, *, payload: AgentInput | None = None,
                         resume: Any = None, title: str = "") -> dict[str, Any]:
        """The same turn as one JSON body (``"stream": false``)."""
        events: list[dict[str, Any]] = []
        body: dict[str, Any] = {"thread_id": thread_id}
        async for etype, data in await self.stream_turn(thread_id, deps, payload=payload, resume=resume, title=title):
            if etype == "llm_token":
                continue
            events.append({"type": etype, "data": data})
        snapshot = await self.graph.aget_state({"configurable": {"thread_id": thread_id}})
        values = wire_values(snapshot.values or {})
        done: dict[str, Any] = next((e["data"] for e in events if e["type"] == "done"), {})
        err = next((e["data"] for e in events if e["type"] == "error"), None)
        body.update({"reply": done.get("reply", ""), "intent": values.get("intent"), "path": values.get("path"),
                     "domain": values.get("domain"), "verdict": values.get("verdict"),
                     "citations": values.get("citations") or [], "document": values.get("document") or None,
                     "interrupted": done.get("interrupted", False), "quick_replies": done.get("quick_replies", []),
                     "elapsed_ms": done.get("elapsed_ms"), "agent_log": values.get("agent_log") or [],
                     "events": events, "error": err})
        return body
