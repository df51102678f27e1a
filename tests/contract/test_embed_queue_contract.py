"""One suite both embedding-queue engines pass (issue 11): our table on SQLite, procrastinate on
PostgreSQL (``knowledge/ingest/embedqueue.py``).

* a job exists exactly when a committed chunk lacks its vector (and a rolled-back ingest leaves none);
* a worker killed with SIGKILL mid-batch loses nothing: another worker redoes that batch, and no
  vector stored before is computed again;
* concurrent workers never embed the same chunk twice;
* pending and failed counts and per-document statuses follow.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import text

from knowzero.config import Settings
from knowzero.knowledge.ingest.embedqueue import MAX_ATTEMPTS, run_worker
from knowzero.knowledge.ingest.queues import open_queue
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine
from kz_testlib import postgres_url

STALLED_S = 2.0  # PostgreSQL: a silent worker's batch comes back after this long (30 s by default)


def _vec(body: str) -> np.ndarray:
    v = np.zeros(64, dtype=np.float32)
    for ch in body:
        v[ord(ch) % 64] += 1.0
    return v / (np.linalg.norm(v) or 1.0)


class LogEncoder:
    """A deterministic stand-in for e5 that records every body it embeds (thread-safe)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.seen: list[str] = []
        self.delay = delay
        self._lock = threading.Lock()

    def passages(self, bodies: list[str]) -> np.ndarray:
        time.sleep(self.delay * len(bodies))
        with self._lock:
            self.seen += bodies
        return np.vstack([_vec(b) for b in bodies])

    def query(self, q: str) -> np.ndarray:
        return _vec(q)


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield ""
        return
    admin = postgres_url()
    if admin is None:
        pytest.skip("PostgreSQL is not reachable")
    import psycopg

    name = f"kz_queue_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield admin.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _settings(tmp_path: Path, db_url: str) -> Settings:
    return Settings(data_dir=tmp_path / "data", database_url=db_url, embed_batch=4, embed_stalled_s=STALLED_S)


def _kb(tmp_path: Path, db_url: str, enc: LogEncoder) -> KnowledgeBase:
    s = _settings(tmp_path, db_url)
    return KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: enc)


def _docs(tmp_path: Path, n: int = 8) -> Path:
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    for i in range(n):
        body = "".join(f"第{i}号零件的第{j}道工序：外圆公差±0.0{j % 9 + 1}mm，检验员签字后转下一工序。\n\n" for j in range(30))
        (docs / f"part{i:02d}.md").write_text(f"# 零件{i}\n\n{body}\n", encoding="utf-8")
    return docs


def _lacking(kb: KnowledgeBase) -> set[str]:
    """Vector keys of committed chunks that have no stored vector."""
    with kb.engine.connect() as conn:
        return set(conn.execute(text("SELECT DISTINCT c.vkey FROM kb_chunks c WHERE NOT EXISTS "
                                     "(SELECT 1 FROM kb_embeddings e WHERE e.key = c.vkey)")).scalars())


def _stored(kb: KnowledgeBase) -> set[str]:
    with kb.engine.connect() as conn:
        return set(conn.execute(text("SELECT key FROM kb_embeddings")).scalars())


def _check_invariant(kb: KnowledgeBase) -> set[str]:
    lacking = _lacking(kb)
    assert kb.queue.queued_keys() == lacking, "a job exists exactly when a committed chunk lacks its vector"
    assert kb.embedding_status() == {"pending": len(lacking), "failed": 0}
    return lacking


def _work_until_empty(kb: KnowledgeBase, enc: LogEncoder, timeout: float = 60.0) -> int:
    """A waiting worker (not a drain: PostgreSQL hands a dead worker's batch back only after
    ``STALLED_S``), stopped once nothing is pending."""
    stop = threading.Event()
    out: list[int] = []
    t = threading.Thread(target=lambda: out.append(run_worker(open_queue(kb.engine, kb.settings), enc.passages,
                                                              batch=4, stop=stop, idle_s=0.2)))
    t.start()
    deadline = time.monotonic() + timeout
    while kb.embedding_status()["pending"] and time.monotonic() < deadline:
        time.sleep(0.2)
    stop.set()
    t.join(30)
    assert not t.is_alive() and out, "the worker stops when asked"
    return out[0]


def test_a_job_exists_exactly_when_a_committed_chunk_lacks_its_vector(tmp_path: Path, db_url: str) -> None:
    enc = LogEncoder()
    kb = _kb(tmp_path, db_url, enc)
    docs = _docs(tmp_path)
    report = kb.ingest_paths([docs], collection="c", embed=False)
    lacking = _check_invariant(kb)
    assert report.queued == len(lacking) == report.chunks > 8 and not enc.seen
    assert {f["status"] for f in kb.list_files()} == {"searchable"}

    # Part of the queue done: the invariant and the counts hold between batches.
    stop = threading.Event()
    run_worker(kb.queue, enc.passages, batch=4, stop=stop, idle_s=0.2, progress=lambda w: stop.set())
    assert 0 < len(enc.seen) < report.chunks
    left = _check_invariant(kb)
    assert len(left) == report.chunks - len(enc.seen)

    # A changed file before its vectors came: its unchanged chunks are not queued twice, new ones are.
    f = docs / "part03.md"
    f.write_text(f.read_text(encoding="utf-8") + "\n## 补充\n\n第3号零件新增热处理要求：淬火后回火两次。\n", encoding="utf-8")
    again = kb.ingest_paths([docs], collection="c", embed=False)
    assert again.updated == ["docs/part03.md"]
    _check_invariant(kb)

    assert kb.embed_pending() > 0
    assert _check_invariant(kb) == set()
    assert len(enc.seen) == len(set(enc.seen)) == len(_stored(kb)), "every vector computed once"
    kb.refresh()
    assert kb.pending_vectors == 0 and {f["status"] for f in kb.list_files()} == {"embedded"}


def test_a_rolled_back_ingest_leaves_no_job(tmp_path: Path, db_url: str) -> None:
    kb = _kb(tmp_path, db_url, LogEncoder())

    def broken(passages, conn=None):  # type: ignore[no-untyped-def]
        raise RuntimeError("disk full")  # inside the batch's transaction, after its jobs were queued

    kb.keyword.add = broken  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="disk full"):
        kb.ingest_paths([_docs(tmp_path, 3)], collection="c", embed=False)
    assert kb.queue.queued_keys() == set() and kb.embedding_status() == {"pending": 0, "failed": 0}
    with kb.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM kb_chunks")).scalar() == 0
        table = "procrastinate_jobs" if kb.engine.dialect.name == "postgresql" else "kb_embed_queue"
        assert conn.execute(text(f"SELECT count(*) FROM {table}")).scalar() == 0, "the deferred job rolled back"


def test_concurrent_workers_never_embed_a_chunk_twice(tmp_path: Path, db_url: str) -> None:
    enc = LogEncoder(delay=0.005)
    kb = _kb(tmp_path, db_url, enc)
    report = kb.ingest_paths([_docs(tmp_path, 10)], collection="c", embed=False)
    with ThreadPoolExecutor(3) as pool:
        done = list(pool.map(lambda w: run_worker(open_queue(kb.engine, kb.settings), enc.passages, batch=4,
                                                  drain=True, who=f"test:{w}"), range(3)))
    assert sum(done) == report.chunks == len(enc.seen) == len(set(enc.seen)), "every chunk embedded exactly once"
    assert _check_invariant(kb) == set()


def test_a_failed_batch_is_retried_then_reported(tmp_path: Path, db_url: str) -> None:
    kb = _kb(tmp_path, db_url, LogEncoder())
    report = kb.ingest_paths([_docs(tmp_path, 2)], collection="c", embed=False)
    calls = []

    def broken(bodies: list[str]) -> np.ndarray:
        calls.append(len(bodies))
        raise RuntimeError("model exploded")

    for _ in range(MAX_ATTEMPTS + 1):
        if not kb.embedding_status()["pending"]:
            break
        run_worker(kb.queue, broken, batch=4, drain=True)
    assert kb.embedding_status() == {"pending": 0, "failed": report.chunks}
    assert sum(calls) == MAX_ATTEMPTS * report.chunks, "each batch tried MAX_ATTEMPTS times"
    kb.refresh()
    assert kb.pending_vectors == report.chunks  # still keyword-searchable, never dense


DRIVER = textwrap.dedent('''
    import os, signal, sys, time
    from pathlib import Path
    import numpy as np
    from knowzero.config import Settings
    from knowzero.knowledge.ingest.embedqueue import run_worker
    from knowzero.knowledge.kb import KnowledgeBase, vector_key
    from knowzero.persistence.db import make_engine

    data, db_url, log, stalled = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3]), float(sys.argv[4])
    batches = [0]

    def encode(bodies):
        time.sleep(0.02 * len(bodies))
        with log.open("a") as fh:
            fh.writelines(f"{vector_key(b)}\\n" for b in bodies)
        batches[0] += 1
        if batches[0] == 2:  # computed, not yet stored
            os.kill(os.getpid(), signal.SIGKILL)
        return np.ones((len(bodies), 64), dtype=np.float32) / 8.0

    s = Settings(data_dir=data, database_url=db_url, embed_batch=4, embed_stalled_s=stalled)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    run_worker(kb.queue, encode, batch=4, drain=True)
''')


def test_a_worker_killed_mid_batch_loses_nothing_and_repeats_nothing(tmp_path: Path, db_url: str) -> None:
    enc = LogEncoder()
    kb = _kb(tmp_path, db_url, enc)
    report = kb.ingest_paths([_docs(tmp_path, 4)], collection="c", embed=False)
    driver, log = tmp_path / "driver.py", tmp_path / "killed.log"
    driver.write_text(DRIVER, encoding="utf-8")
    proc = subprocess.run([sys.executable, str(driver), str(tmp_path / "data"), db_url, str(log), str(STALLED_S)],
                          env=os.environ | {"OMP_NUM_THREADS": "1"}, capture_output=True, text=True, timeout=120)
    assert proc.returncode == -9, proc.stderr[-2000:]
    computed = log.read_text().split()
    stored = _stored(kb)
    assert len(stored) == 4 and set(computed) > stored, "the first batch was stored, the second was not"
    killed = set(computed) - stored
    assert _check_invariant(kb) >= killed, "the killed batch is still queued"

    _work_until_empty(kb, enc)
    from knowzero.knowledge.kb import vector_key

    redone = {vector_key(b) for b in enc.seen}
    assert redone >= killed, "another worker redid the killed batch"
    assert not redone & stored, "no stored vector was computed again"
    assert len(enc.seen) == len(set(enc.seen)) == report.chunks - len(stored)
    assert _check_invariant(kb) == set()
    kb.refresh()
    assert kb.pending_vectors == 0 and {f["status"] for f in kb.list_files()} == {"embedded"}
