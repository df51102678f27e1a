"""Ingest survives kill -9 anywhere: no file lost, no finished embedding computed twice (issue 11).

A driver process ingests a folder with a slow fake encoder and SIGKILLs itself at a chosen point:
before a batch commits, inside a batch's transaction, in the middle of an embedding batch (after
the vectors were computed, before they were stored). After every kill the next run resumes; the
encoder logs every vector it computes, so the test can check that no vector stored before a run
is computed again in it. A final run without a kill completes everything.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from knowzero.knowledge.ingest.chunker import chunk_text
from knowzero.knowledge.ingest.parsers import parse_file

pytestmark = pytest.mark.slow

DRIVER = textwrap.dedent('''
    import os, signal, sys, time
    from pathlib import Path
    import numpy as np
    from knowzero.config import Settings
    from knowzero.knowledge import kb as kbmod
    from knowzero.persistence.db import make_engine

    data, docs, log, kill_at = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
    what, _, n = kill_at.partition(":")
    n = int(n or 0)
    calls = {"files": 0, "commit": 0, "embed": 0}

    def die_if(kind):
        calls[kind] += 1
        if what == kind and calls[kind] == n:
            os.kill(os.getpid(), signal.SIGKILL)

    class Enc:
        def passages(self, bodies):
            time.sleep(0.01 * len(bodies))
            with log.open("a") as fh:
                fh.writelines(f"{kbmod.vector_key(b)}\\n" for b in bodies)
            die_if("embed")
            return np.ones((len(bodies), 8), dtype=np.float32) / np.sqrt(8)

        def query(self, text):
            return np.ones(8, dtype=np.float32) / np.sqrt(8)

    enc = Enc()
    s = Settings(data_dir=data, database_url="", embed_batch=4)
    kb = kbmod.KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: enc)
    kb.commit_files = 5
    add = kb.keyword.add
    def add_then_maybe_die(passages, conn=None):
        out = add(passages, conn)
        die_if("commit")  # inside the batch's transaction, after its keyword rows
        return out
    kb.keyword.add = add_then_maybe_die
    report = kb.ingest_paths([docs], collection="c", embed=False,
                             on_progress=lambda p: die_if("files"))
    kb.embed_pending()
    print("done", len(report.added), report.chunks)
''')


def _stored(db: Path) -> set[str]:
    if not db.exists():
        return set()
    with sqlite3.connect(db) as conn:
        try:
            return {r[0] for r in conn.execute("SELECT key FROM kb_embeddings")}
        except sqlite3.OperationalError:
            return set()


def test_kill_9_anywhere_loses_no_file_and_repeats_no_embedding(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for i in range(24):
        body = "".join(f"第{i}号文档的第{j}句话，介绍零件{i}-{j}的加工要求和检验标准。" for j in range(40))
        (docs / f"doc{i:02d}.md").write_text(f"# 文档{i}\n\n{body}\n", encoding="utf-8")
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    data, db = tmp_path / "data", tmp_path / "data" / "knowzero.db"
    env = os.environ | {"OMP_NUM_THREADS": "1"}
    kills = ["files:8", "commit:2", "embed:3", "files:20", "embed:5", ""]
    for run, kill_at in enumerate(kills):
        before = _stored(db)
        log = tmp_path / f"embedded-{run}.log"
        proc = subprocess.run([sys.executable, str(driver), str(data), str(docs), str(log), kill_at],
                              env=env, capture_output=True, text=True, timeout=240)
        if kill_at:
            assert proc.returncode == -9, (kill_at, proc.returncode, proc.stderr[-2000:])
        else:
            assert proc.returncode == 0, proc.stderr[-2000:]
        again = set(log.read_text().split()) & before if log.exists() else set()
        assert not again, f"run {run} ({kill_at or 'to the end'}) re-embedded {len(again)} stored vectors"
    # Everything is there: every file, every chunk, searchable, with its vector; nothing left queued.
    expected = {}
    for f in sorted(docs.iterdir()):
        parsed = parse_file(f)
        expected[f"docs/{f.name}"] = len(chunk_text(parsed.text, source=f"docs/{f.name}", title=parsed.title))
    with sqlite3.connect(db) as conn:
        files = {r[0] for r in conn.execute("SELECT path FROM kb_files")}
        chunks = dict(conn.execute("SELECT path, count(*) FROM kb_chunks GROUP BY path").fetchall())
        fts = conn.execute("SELECT count(*) FROM kb_fts_ids").fetchone()[0]
        queued = conn.execute("SELECT count(*) FROM kb_embed_queue").fetchone()[0]
    assert files == set(expected)
    assert chunks == expected
    assert fts == sum(expected.values())
    assert queued == 0
    from knowzero.config import Settings
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=data, database_url="")
    kb = KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: None)
    kb.refresh()
    assert kb.pending_vectors == 0 and len(kb.dense.ids) == sum(expected.values())
    assert {f["status"] for f in kb.list_files()} == {"embedded"}
