"""Knowledge benchmark on a SQuAD-format file (e.g. CMRC 2018).

Every paragraph becomes a document (source = paragraph id) in a fresh knowledge base. With
``unanswerable_share`` F, a random share F of questions (seeded) has its gold paragraph moved to
a held-out collection; those questions are asked against the pool only, so the honest verdict
is ``insufficient``. Reports ours beside a single-agent baseline (dense top-5 + the same reader;
no router, no fusion, no entity filter, no checker — it always answers).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from knowzero.config import Settings
from knowzero.eval.metrics import percentile, ratio
from knowzero.knowledge.kb import KnowledgeBase, SourceDoc
from knowzero.knowledge.parsers import ParsedDoc
from knowzero.knowledge.pipeline import KnowledgeDeps, answer
from knowzero.knowledge.reader import extractive_read
from knowzero.knowledge.types import Scored
from knowzero.persistence.db import make_engine


def load_squad(path: Path) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    paragraphs, questions = [], []
    for article in data["data"]:
        for i, para in enumerate(article["paragraphs"]):
            pid = str(para.get("id") or f"{article.get('id', article.get('title', 'doc'))}_{i}")
            paragraphs.append({"id": pid, "title": article.get("title", ""), "context": para["context"]})
            for qa in para["qas"]:
                answers = [a["text"] for a in qa.get("answers", []) if a.get("text")]
                if answers:
                    questions.append({"id": qa["id"], "question": qa["question"], "answers": answers, "gold": pid})
    return paragraphs, questions


def build_kb(paragraphs: list[dict[str, str]], held_out: set[str], data_dir: Path,
             progress: Any = None) -> KnowledgeBase:
    settings = Settings(data_dir=data_dir, database_url="")
    kb = KnowledgeBase(make_engine(settings.db_url), settings)
    for coll in ("pool", "heldout"):
        docs = [SourceDoc(p["id"], ParsedDoc(p["context"], p["title"], "text"),
                          hashlib.sha256((p["title"] + p["context"]).encode()).hexdigest())
                for p in paragraphs if (p["id"] in held_out) == (coll == "heldout")]
        kb.ingest_documents(docs, collection=coll, domain="general", progress=progress)
    # moving a paragraph between collections keeps its content hash: force the collection
    from sqlalchemy import update

    from knowzero.knowledge.tables import kb_chunks, kb_files
    with kb.engine.begin() as conn:
        conn.execute(update(kb_chunks).values(collection="pool"))
        conn.execute(update(kb_files).values(collection="pool"))
        if held_out:
            conn.execute(update(kb_chunks).where(kb_chunks.c.path.in_(held_out)).values(collection="heldout"))
            conn.execute(update(kb_files).where(kb_files.c.path.in_(held_out)).values(collection="heldout"))
    kb.refresh(force=True)
    return kb


def choose_held_out(questions: list[dict[str, Any]], share: float, rng: random.Random) -> set[str]:
    """Gold paragraphs to remove so that about ``share`` of the questions become unanswerable."""
    by_para: dict[str, int] = {}
    for q in questions:
        by_para[q["gold"]] = by_para.get(q["gold"], 0) + 1
    order = sorted(by_para)
    rng.shuffle(order)
    target = round(share * len(questions))
    held: set[str] = set()
    count = 0
    for pid in order:
        if count >= target:
            break
        if count + by_para[pid] > target + 2:
            continue
        held.add(pid)
        count += by_para[pid]
    return held


async def ask(question: str, deps: KnowledgeDeps) -> dict[str, Any]:
    """One question through the product's knowledge pipeline, as the rows below read it."""
    a = await answer(question, deps)
    return {"reply": a.reply, "citations": a.citations, "verdict": a.verdict.to_dict()}


def _contains(answer: str, golds: list[str]) -> bool:
    return any(g.strip() and g.strip() in answer for g in golds)


def run_knowledge(path: Path, *, limit: int | None = None, unanswerable_share: float = 0.0, seed: int = 3,
                  data_dir: Path | None = None, baseline: bool = True, progress: Any = None) -> dict[str, Any]:
    if not 0 <= unanswerable_share < 1:
        raise ValueError("unanswerable share must be in [0, 1)")
    paragraphs, questions = load_squad(path)
    rng = random.Random(seed)
    if limit:
        questions = rng.sample(questions, min(limit, len(questions)))
    held_out = choose_held_out(questions, unanswerable_share, rng)
    cache = data_dir or Path(".knowzero") / "eval" / hashlib.sha1(path.read_bytes()).hexdigest()[:12]
    cache.mkdir(parents=True, exist_ok=True)
    kb = build_kb(paragraphs, held_out, cache, progress=progress)
    deps = KnowledgeDeps(kb, kb.settings)
    ours: list[dict[str, Any]] = []
    base: list[dict[str, Any]] = []

    async def run_all() -> None:
        for i, q in enumerate(questions):
            unanswerable = q["gold"] in held_out
            colls = ["pool"] if unanswerable else []
            t0 = time.perf_counter()
            out = await ask(q["question"], replace(deps, collections=tuple(colls)))
            ms = (time.perf_counter() - t0) * 1000
            cits = out.get("citations") or []
            level = (out.get("verdict") or {}).get("level", "insufficient")
            ours.append({"unanswerable": unanswerable, "ms": ms, "answered": level != "insufficient",
                         "contains": _contains(out.get("reply", ""), q["answers"]),
                         "cited_gold": bool(cits) and cits[0]["source"] == q["gold"], "level": level,
                         "question": q["question"], "gold": q["gold"], "answers": q["answers"],
                         "reply": out.get("reply", ""), "top": cits[0]["source"] if cits else None})
            if baseline:
                t0 = time.perf_counter()
                allowed = frozenset(kb.collections.get("pool", set())) if unanswerable else None
                hits = kb.dense.search(q["question"], 5, allowed)
                scored = [Scored(kb.passages[h.id], h.score) for h in hits if h.id in kb.passages]
                d = extractive_read(q["question"], scored, kb.keyword.term_idf)
                ms = (time.perf_counter() - t0) * 1000
                base.append({"unanswerable": unanswerable, "ms": ms, "answered": bool(d.claims),
                             "contains": _contains(d.answer, q["answers"]),
                             "cited_gold": bool(d.claims) and d.claims[0].source == q["gold"]})
            if progress and (i + 1) % 50 == 0:
                progress(i + 1, len(questions))

    asyncio.run(run_all())
    result = summarize(ours)
    result["unanswerable_share"] = unanswerable_share
    if baseline:
        result["baseline"] = summarize(base)
        result["baseline"]["name"] = "single-agent: dense top-5 + extractive reader, no router/fusion/checker"
    result["_rows"] = ours
    return result


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ans = [r for r in rows if not r["unanswerable"]]
    un = [r for r in rows if r["unanswerable"]]
    answered = [r for r in ans if r["answered"]]
    times = [r["ms"] for r in rows]
    return {"n": len(rows), "n_answerable": len(ans), "n_unanswerable": len(un),
            "answer_contains_gold": ratio(sum(r["contains"] for r in ans), len(ans)),
            "citation_accuracy": ratio(sum(r["cited_gold"] for r in answered), len(answered)),
            "citation_accuracy_all": ratio(sum(r["cited_gold"] for r in ans), len(ans)),
            "answered_rate": ratio(len(answered), len(ans)),
            "false_answer_rate": ratio(sum(r["answered"] for r in un), len(un)) if un else None,
            "p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2)}


def run_demo(*, data_dir: Path | None = None) -> dict[str, Any]:
    """The bundled demo knowledge base with its own questions (``demo_kb/questions.jsonl``).

    Answerable lines list acceptable answer strings and the gold source; the rest have
    ``"answerable": false`` (the honest verdict is ``insufficient``). Same keys as the SQuAD run.
    """
    from knowzero.knowledge.kb import demo_kb_path

    questions = [json.loads(line) for line in (demo_kb_path() / "questions.jsonl").read_text("utf-8").splitlines()
                 if line.strip()]
    cache = data_dir or Path(".knowzero") / "eval" / "demo"
    cache.mkdir(parents=True, exist_ok=True)
    settings = Settings(data_dir=cache, database_url="")
    kb = KnowledgeBase(make_engine(settings.db_url), settings)
    kb.ensure_demo()
    deps = KnowledgeDeps(kb, settings)
    rows: list[dict[str, Any]] = []

    async def run_all() -> None:
        for q in questions:
            t0 = time.perf_counter()
            out = await ask(q["question"], deps)
            ms = (time.perf_counter() - t0) * 1000
            cits = out.get("citations") or []
            level = (out.get("verdict") or {}).get("level", "insufficient")
            answerable = q.get("answerable", True)
            rows.append({"unanswerable": not answerable, "ms": ms, "answered": level != "insufficient",
                         "contains": answerable and _contains(out.get("reply", ""), q.get("answer_contains", [])),
                         "cited_gold": bool(cits) and bool(q.get("source")) and cits[0]["source"].endswith(q["source"]),
                         "level": level})

    asyncio.run(run_all())
    return summarize(rows)
