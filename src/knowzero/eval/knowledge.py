"""Knowledge benchmark on a SQuAD-format file (CMRC 2018 in Simplified, DRCD in Traditional Chinese).

Every paragraph becomes a document (source = paragraph id) in a fresh knowledge base. With
``unanswerable_share`` F, a seeded share F of questions is made unanswerable; those questions are
asked against what is left, so the honest verdict is ``insufficient``. How they are made
(``negatives``):

- ``random``: the gold paragraph is moved to a held-out collection (paragraphs chosen at random;
  the behaviour before the other modes existed, same seeds give the same figures);
- ``same-article``: the same, but only paragraphs whose article keeps at least one other paragraph
  in the pool are chosen, so the question meets a near miss (same subject, no answer). Needs
  articles with several paragraphs (DRCD; CMRC trial has one paragraph per article);
- ``same-paragraph``: the gold paragraph is held out and a copy without the sentences holding the
  answer stays in the pool: the sharpest near miss, available on every SQuAD file.

``--seeds`` runs the whole benchmark once per seed (sample and removal both follow the seed) and
reports each seed and the worst one. Also the conflict benchmark (:func:`run_conflicts`): a
paragraph and a copy whose answer span is swapped for another value of the same type.

Ours is asked through :func:`ask`, the one adapter to the product's answer entry; the single-agent
baseline is dense top-5 + the same extractive reader (no router, fusion, entity filter or checker;
it always answers). Not here: the product's thresholds (nothing is tuned by running this).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from sqlalchemy import Engine, select, update

from knowzero.config import Settings
from knowzero.eval.llmuse import LLMUse
from knowzero.eval.metrics import percentile, ratio
from knowzero.eval.synthetic import ConflictPair, build_conflicts, detect_script, strip_answer_sentences
from knowzero.knowledge.answer.check import claim_context
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.pipeline import answer
from knowzero.knowledge.answer.policy import MIN_COVERAGE
from knowzero.knowledge.answer.reader import extractive_read
from knowzero.knowledge.answer.retriever import key_terms
from knowzero.knowledge.index.tables import kb_chunks, kb_embeddings, kb_files
from knowzero.knowledge.ingest.embedqueue import store_vectors
from knowzero.knowledge.ingest.parsers import ParsedDoc
from knowzero.knowledge.kb import KnowledgeBase, SourceDoc, demo_kb_path
from knowzero.knowledge.types import Scored
from knowzero.llm.metered import MeteredProvider
from knowzero.persistence.db import make_engine

NEGATIVES = ("random", "same-article", "same-paragraph")
Progress = Callable[[int, int], None]
CONFLICT_NOTES = ("不同文档说法不一", "不同文檔說法不一", "the documents disagree")  # Simplified, Traditional, English


# ----- the one adapter to the product (swap here when the pipeline's entry changes) -----
async def ask(question: str, deps: KnowledgeDeps, collections: Sequence[str] = ()) -> dict[str, Any]:
    """Ask the product; returns the fields the benchmarks read, in a shape of their own.

    ``reply``, ``level`` (verdict), ``reason``, ``coverage`` (the checker's key-term coverage, the
    score its abstention threshold applies to), ``citations`` ([{source, quote, start, end}]),
    ``conflicts`` (how many source disagreements the reader listed), ``generated_shown`` /
    ``unverified_shown`` (sentences in the reply the model wrote rather than quoted, and how many of
    those were not confirmed by their own check), ``reader`` (``generate`` when the model's draft
    was used, else ``extract``).
    """
    a = await answer(question, replace(deps, collections=tuple(collections)))
    reader_log: dict[str, Any] = next((e for e in a.agent_log if e.get("agent") == "reader"), {})
    generated, unverified = shown_sentences(a.draft, a.verdict.claims if a.verdict.level != "insufficient" else None)
    return {"reply": a.reply, "level": a.verdict.level, "reason": a.verdict.reason, "coverage": float(a.verdict.coverage),
            "citations": [{k: c.get(k) for k in ("source", "quote", "start", "end")} for c in a.citations],
            "conflicts": int(reader_log.get("conflicts") or 0), "generated_shown": generated,
            "unverified_shown": unverified, "reader": str(reader_log.get("action") or "extract"),
            "answerability": a.verdict.answerability, "features": a.verdict.features,
            "evidence": evidence_of(a, deps.kb)}


def evidence_of(a: Any, kb: KnowledgeBase) -> dict[str, Any] | None:
    """What the answerability features were computed from (``answerable.features``' inputs), so a
    study can recompute features offline from the rows without running the pipeline again."""
    claims = a.draft.claims if a.draft else []
    if not claims or a.verdict.features is None:
        return None
    cited = next((s.passage for s in a.passages if s.passage.id == claims[0].passage_id), None)
    if cited is None:
        return None
    by_id = {s.passage.id: s.passage for s in a.passages}
    contexts = [claim_context(kb, c, by_id.get(c.passage_id)) for c in claims]
    return {"terms": key_terms(kb, a.question), "title": cited.title,
            "doc": f"{cited.title} {cited.section} {kb.text_of(cited.path)[:20000]}",
            "quotes": [c.quote for c in claims], "contexts": contexts, "similarity": a.verdict.features.get("similarity")}


def shown_sentences(draft: Any, claim_verdicts: Sequence[Any] | None) -> tuple[int, int]:
    """(model-written sentences in the reply, those among them whose own check did not confirm them).

    In a model's draft a claim whose text is its quote is the source's own words; any other text was
    written by the model (an extractive draft writes nothing: a table row read as a sentence is a
    rendering of the cells). ``claim_verdicts`` None: nothing was shown (the answer declined)."""
    if draft is None or claim_verdicts is None or draft.method == "extractive":
        return 0, 0
    generated = unverified = 0
    for i, c in enumerate(draft.claims):
        if c.text.strip() == c.quote.strip():
            continue
        generated += 1
        level = claim_verdicts[i].level if i < len(claim_verdicts) else "unchecked"
        unverified += level != "confirmed"
    return generated, unverified


# ----- data -----
def load_squad(path: Path) -> tuple[list[dict[str, str]], list[dict[str, Any]]]:
    """Paragraphs ``{id, article, title, context}`` and questions ``{id, question, answers, gold, starts}``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    paragraphs, questions = [], []
    for a_i, article in enumerate(data["data"]):
        art = str(article.get("id") or article.get("title") or a_i)
        for i, para in enumerate(article["paragraphs"]):
            pid = str(para.get("id") or f"{article.get('id', article.get('title', 'doc'))}_{i}")
            paragraphs.append({"id": pid, "article": art, "title": article.get("title", ""), "context": para["context"]})
            for qa in para["qas"]:
                answers = [a["text"] for a in qa.get("answers", []) if a.get("text")]
                starts = [int(a.get("answer_start", -1)) for a in qa.get("answers", []) if a.get("text")]
                if answers:
                    questions.append({"id": qa["id"], "question": qa["question"], "answers": answers, "gold": pid,
                                      "starts": starts})
    return paragraphs, questions


def data_script(paragraphs: Sequence[dict[str, str]]) -> str:
    """The data's script (``simplified`` | ``traditional``), detected by sampling its text; reported
    with every result. The product folds Traditional text for matching whatever the data is."""
    return detect_script(" ".join(p["context"][:200] for p in paragraphs[:50]))


def _doc(p: dict[str, str]) -> SourceDoc:
    return SourceDoc(p["id"], ParsedDoc(p["context"], p["title"], "text"),
                     hashlib.sha256((p["title"] + p["context"]).encode()).hexdigest())


def seed_vectors(data_dir: Path, engine: Engine) -> int:
    """Copy the dense vectors an embedded-mode run computed in ``data_dir`` into ``engine``'s database, so a
    PostgreSQL-mode run of the same data embeds nothing again (ingest reuses a stored vector by its key)."""
    lite = Settings(data_dir=data_dir, database_url="")
    if not (data_dir / "knowzero.db").exists():
        return 0
    src = make_engine(lite.db_url)
    n = 0
    try:
        with src.connect() as a:
            rows = a.execute(select(kb_embeddings.c.key, kb_embeddings.c.vector)).all()
        with engine.begin() as b:
            store_vectors(b, {k: np.frombuffer(v, dtype=np.float32) for k, v in rows})
            n = len(rows)
    finally:
        src.dispose()
    return n


def build_kb(paragraphs: list[dict[str, str]], held_out: set[str], data_dir: Path, progress: Any = None,
             extra: dict[str, list[dict[str, str]]] | None = None, database_url: str = "") -> KnowledgeBase:
    """Paragraphs in ``pool`` (``heldout`` for ``held_out``), plus ``extra`` documents per collection.
    With ``database_url`` the knowledge base lives in that PostgreSQL database (vectors from ``data_dir``
    reused)."""
    settings = Settings(data_dir=data_dir, database_url=database_url)
    kb = KnowledgeBase(make_engine(settings.db_url), settings)
    if database_url:
        seed_vectors(data_dir, kb.engine)
    colls: dict[str, list[dict[str, str]]] = {"pool": [p for p in paragraphs if p["id"] not in held_out],
                                              "heldout": [p for p in paragraphs if p["id"] in held_out]}
    for name, docs in (extra or {}).items():
        colls.setdefault(name, []).extend(docs)
    for name, docs in colls.items():
        kb.ingest_documents([_doc(p) for p in docs], collection=name, domain="general", progress=progress)
    # the cache keeps documents from earlier runs; a document's collection follows its content hash,
    # so set every collection explicitly and drop what this run does not have
    wanted = {p["id"]: name for name, docs in colls.items() for p in docs}
    with kb.engine.begin() as conn:
        stale = [r[0] for r in conn.execute(kb_files.select().with_only_columns(kb_files.c.path)) if r[0] not in wanted]
        for path in stale:
            kb.indexes.remove_document(conn, path)
        for name in colls:
            ids = [pid for pid, c in wanted.items() if c == name]
            for i in range(0, len(ids), 500):
                chunk = ids[i:i + 500]
                conn.execute(update(kb_chunks).where(kb_chunks.c.path.in_(chunk)).values(collection=name))
                conn.execute(update(kb_files).where(kb_files.c.path.in_(chunk)).values(collection=name))
    # the saved keyword index is stamped with the revision only: rebuild it, an older build may differ
    (kb.settings.data_path() / "keyword.idx").unlink(missing_ok=True)
    kb.refresh(force=True)
    return kb


def choose_held_out(questions: list[dict[str, Any]], share: float, rng: random.Random,
                    eligible: Callable[[str, set[str]], bool] | None = None) -> set[str]:
    """Gold paragraphs to remove so that about ``share`` of the questions become unanswerable.

    ``eligible(pid, held)`` restricts the choice (same-article: the article keeps a paragraph).
    """
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
        if eligible is not None and not eligible(pid, held):
            continue
        held.add(pid)
        count += by_para[pid]
    return held


def same_article_rule(paragraphs: Sequence[dict[str, str]]) -> Callable[[str, set[str]], bool]:
    article_of = {p["id"]: p["article"] for p in paragraphs}
    members: dict[str, list[str]] = {}
    for p in paragraphs:
        members.setdefault(p["article"], []).append(p["id"])

    def eligible(pid: str, held: set[str]) -> bool:
        return any(o != pid and o not in held for o in members[article_of[pid]])

    return eligible


def _contains(answer: str, golds: list[str]) -> bool:
    return any(g.strip() and g.strip() in answer for g in golds)


def _cache_dir(path: Path, data_dir: Path | None) -> Path:
    """One knowledge base per data file, reused across modes and seeds (its embeddings are the slow part)."""
    cache = data_dir or Path(".knowzero") / "eval" / hashlib.sha1(path.read_bytes()).hexdigest()[:12]
    cache.mkdir(parents=True, exist_ok=True)
    return cache


# ----- the knowledge benchmark -----
def run_knowledge(path: Path, *, limit: int | None = None, unanswerable_share: float = 0.0, seed: int = 3,
                  data_dir: Path | None = None, baseline: bool = True, progress: Any = None,
                  negatives: str = "random", provider: MeteredProvider | None = None,
                  database_url: str = "") -> dict[str, Any]:
    """The benchmark on ``path`` (see module doc); ``provider`` runs the model path (metered), None offline;
    ``database_url``: the knowledge base in PostgreSQL mode."""
    if not 0 <= unanswerable_share < 1:
        raise ValueError("unanswerable share must be in [0, 1)")
    if negatives not in NEGATIVES:
        raise ValueError(f"negatives must be one of {', '.join(NEGATIVES)}")
    paragraphs, questions = load_squad(path)
    script = data_script(paragraphs)
    rng = random.Random(seed)
    if limit:
        questions = rng.sample(questions, min(limit, len(questions)))
    eligible = same_article_rule(paragraphs) if negatives == "same-article" else None
    held_out = choose_held_out(questions, unanswerable_share, rng, eligible)
    if negatives == "same-article" and unanswerable_share and not held_out:
        raise ValueError("no article has a second paragraph to keep (use --negatives same-paragraph)")
    extra: dict[str, list[dict[str, str]]] = {}
    if negatives == "same-paragraph":
        by_id = {p["id"]: p for p in paragraphs}
        answers: dict[str, list[str]] = {}
        for q in questions:
            if q["gold"] in held_out:
                answers.setdefault(q["gold"], []).extend(q["answers"])
        extra["nearmiss"] = [m for pid in sorted(held_out)
                             if (m := strip_answer_sentences(by_id[pid], answers.get(pid, []))) is not None]
    kb = build_kb(paragraphs, held_out, _cache_dir(path, data_dir), progress=progress, extra=extra,
                  database_url=database_url)
    use = LLMUse(provider)
    deps = KnowledgeDeps(kb, kb.settings, provider=provider, emit=use.emit)
    # unanswerable questions see what is left (the pool, plus near-miss copies); answerable ones everything
    # but the near-miss copies (they would take citations from their own originals)
    unans_colls = ["pool", "nearmiss"] if extra else ["pool"]
    ans_colls = ["pool", "heldout"] if extra else []
    ours: list[dict[str, Any]] = []
    base: list[dict[str, Any]] = []

    async def run_all() -> None:
        await ask(questions[0]["question"], deps)  # load the models outside the timings
        use.reset()
        for i, q in enumerate(questions):
            unanswerable = q["gold"] in held_out
            t0 = time.perf_counter()
            with use.turn() as turn:
                out = await ask(q["question"], deps, unans_colls if unanswerable else ans_colls)
            ms = (time.perf_counter() - t0) * 1000
            cits = out["citations"]
            ours.append({"unanswerable": unanswerable, "ms": ms, "answered": out["level"] != "insufficient",
                         "generated_shown": out["generated_shown"], "unverified_shown": out["unverified_shown"],
                         "reader": out["reader"], "llm_calls": turn.calls, "llm_fallbacks": turn.fallbacks,
                         "contains": _contains(out["reply"], q["answers"]),
                         "cited_gold": bool(cits) and cits[0]["source"] == q["gold"], "level": out["level"],
                         "coverage": out["coverage"], "score": abstention_score(out), "conflicts": out["conflicts"],
                         "question": q["question"], "gold": q["gold"], "answers": q["answers"],
                         "reply": out["reply"], "reason": out["reason"], "top": cits[0]["source"] if cits else None,
                         "answerability": out["answerability"], "features": out["features"],
                         "evidence": out["evidence"]})
            if baseline:
                t0 = time.perf_counter()
                colls = tuple(unans_colls) if unanswerable else tuple(ans_colls)
                allowed = kb.allowed_ids(colls, None) if colls else None  # None: the collections hold everything
                hits = kb.vector_search(q["question"], 5, allowed)
                found = kb.passages_of([h.id for h in hits])
                scored = [Scored(found[h.id], h.score) for h in hits if h.id in found]
                d = extractive_read(q["question"], scored, kb.term_idf)
                ms = (time.perf_counter() - t0) * 1000
                base.append({"unanswerable": unanswerable, "ms": ms, "answered": bool(d.claims),
                             "contains": _contains(d.answer, q["answers"]),
                             "cited_gold": bool(d.claims) and d.claims[0].source == q["gold"]})
            if progress and (i + 1) % 50 == 0:
                progress(i + 1, len(questions))

    asyncio.run(run_all())
    result = summarize(ours)
    result.update({"dataset": path.name, "seed": seed, "unanswerable_share": unanswerable_share,
                   "negatives": negatives, "script": script, "mode": "postgresql" if database_url else "sqlite"})
    result.update(use.report())
    if extra:
        result["nearmiss_copies"] = len(extra["nearmiss"])
    if baseline:
        result["baseline"] = summarize(base)
        result["baseline"]["name"] = "single-agent: dense top-5 + extractive reader, no router/fusion/checker"
    result["_rows"] = ours
    return result


def run_seeds(path: Path, seeds: Sequence[int], **kwargs: Any) -> dict[str, Any]:
    """:func:`run_knowledge` once per seed: ``per_seed`` results, the ``worst`` seed and each metric's worst."""
    if not seeds:
        raise ValueError("give at least one seed")
    runs = {s: run_knowledge(path, seed=s, **kwargs) for s in seeds}
    return combine_seeds(runs)


def combine_seeds(runs: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """Per-seed results, the worst seed (most false answers, then least gold) and the worst of each metric."""
    def badness(r: dict[str, Any]) -> tuple[float, float]:
        return (r.get("false_answer_rate") or 0.0, -(r.get("answer_contains_gold") or 0.0))

    worst_seed = max(runs, key=lambda s: badness(runs[s]))
    higher_is_worse = ("false_answer_rate", "p50_ms", "p95_ms")
    lower_is_worse = ("answer_contains_gold", "citation_accuracy", "citation_accuracy_all", "answered_rate")
    worst_each: dict[str, Any] = {}
    for k in higher_is_worse + lower_is_worse:
        vals = [r[k] for r in runs.values() if r.get(k) is not None]
        if vals:
            worst_each[k] = max(vals) if k in higher_is_worse else min(vals)
    rows = [row for r in runs.values() for row in r.get("_rows", [])]
    per_seed = {str(s): {k: v for k, v in r.items() if k != "_rows"} for s, r in runs.items()}
    return {"seeds": list(runs), "worst_seed": worst_seed, "worst": per_seed[str(worst_seed)],
            "worst_of_each": worst_each, "per_seed": per_seed, "_rows": rows}


def abstention_score(out: dict[str, Any]) -> float:
    """The value the checker's abstention threshold applies to: its coverage, or -1 when it abstained
    for another reason (no claim, wrong entity, a bad quote) and no threshold would let it answer."""
    if out["level"] == "insufficient" and not out["reason"].startswith("the sources cover only"):
        return -1.0
    return out["coverage"]


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ans = [r for r in rows if not r["unanswerable"]]
    un = [r for r in rows if r["unanswerable"]]
    answered = [r for r in ans if r["answered"]]
    times = [r["ms"] for r in rows]
    out: dict[str, Any] = {
        "n": len(rows), "n_answerable": len(ans), "n_unanswerable": len(un),
        "answer_contains_gold": ratio(sum(r["contains"] for r in ans), len(ans)),
        "citation_accuracy": ratio(sum(r["cited_gold"] for r in answered), len(answered)),
        "citation_accuracy_all": ratio(sum(r["cited_gold"] for r in ans), len(ans)),
        "answered_rate": ratio(len(answered), len(ans)),
        "false_answer_rate": ratio(sum(r["answered"] for r in un), len(un)) if un else None,
        "p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2)}
    if rows and "level" in rows[0]:
        false = [r for r in un if r["answered"]]
        out["false_answer_confirmed_rate"] = ratio(sum(r["level"] == "confirmed" for r in false), len(un)) if un else None
        out["level_share"] = {lv: ratio(sum(r["level"] == lv for r in rows), len(rows))
                              for lv in ("confirmed", "uncertain", "contradicted", "insufficient")}
    if rows and "unverified_shown" in rows[0]:
        out["generated_sentences_shown"] = sum(r["generated_shown"] for r in rows)
        out["unverified_sentences_shown"] = sum(r["unverified_shown"] for r in rows)
        # of the answers a reader wrote: a table's cell or a computed value is read by no model, by design
        read = [r for r in rows if r["reader"] not in ("lookup", "compute")]
        out["model_reader_share"] = ratio(sum(r["reader"] == "generate" for r in read), len(read))
    return out


COMPARED = ("answer_contains_gold", "citation_accuracy", "citation_accuracy_all", "answered_rate", "false_answer_rate",
            "false_answer_confirmed_rate", "unverified_sentences_shown", "p50_ms", "p95_ms")


def compare_offline(with_model: dict[str, Any], offline: dict[str, Any]) -> dict[str, Any]:
    """``with_model`` plus ``offline`` (the same questions without a model) and ``difference``
    (model minus offline, per metric both report)."""
    off = {k: v for k, v in offline.items() if not k.startswith("_") and k != "baseline"}
    diff = {k: round(with_model[k] - off[k], 4) for k in COMPARED
            if isinstance(with_model.get(k), int | float) and isinstance(off.get(k), int | float)}
    return {**with_model, "offline": off, "difference": diff}


def threshold_curve(rows: Sequence[dict[str, Any]], thresholds: Sequence[float] | None = None) -> list[dict[str, float]]:
    """Answered rate (answerable) and false-answer rate (unanswerable) if the abstention threshold were t.

    Recomputed from each row's ``score`` (:func:`abstention_score`): answered iff score ≥ t. The
    checker's other gates (paraphrase rescue, sentence coverage) are not replayed, so the point at
    today's threshold can differ slightly from the measured rates.
    """
    ts = list(thresholds) if thresholds is not None else [round(0.05 * i, 2) for i in range(21)]
    ans = [r for r in rows if not r["unanswerable"]]
    un = [r for r in rows if r["unanswerable"]]
    return [{"threshold": t, "answered_rate": ratio(sum(r["score"] >= t for r in ans), len(ans)),
             "false_answer_rate": ratio(sum(r["score"] >= t for r in un), len(un)),
             "contains_gold": ratio(sum(r["score"] >= t and r["contains"] for r in ans), len(ans))} for t in ts]


def reliability(rows: Sequence[dict[str, Any]], bins: int = 10) -> list[dict[str, float]]:
    """Coverage read as confidence, against how often the answer was right (answerable, gold quoted).

    Over answered rows only; an answer to an unanswerable question counts as wrong.
    """
    out = []
    answered = [r for r in rows if r["answered"]]
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        sel = [r for r in answered if lo <= min(r["coverage"], 0.9999) < hi]
        if sel:
            right = sum((not r["unanswerable"]) and r["contains"] for r in sel)
            out.append({"lo": lo, "hi": hi, "n": len(sel), "confidence": round(sum(r["coverage"] for r in sel) / len(sel), 4),
                        "accuracy": ratio(right, len(sel))})
    return out


TODAY_THRESHOLD = MIN_COVERAGE


# ----- conflicts -----
def run_conflicts(path: Path, *, limit: int | None = 100, seed: int = 3,
                  ordinary: int | None = None, data_dir: Path | None = None, progress: Any = None,
                  provider: MeteredProvider | None = None) -> dict[str, Any]:
    """Synthetic conflicting pairs (see :func:`knowzero.eval.synthetic.build_conflicts`).

    ``conflicts_named``: share of conflict questions whose reply contains both values, cites (or
    names in its conflict note) both documents, and whose verdict is not ``confirmed``.
    ``false_conflict_rate``: share of ordinary questions (their paragraph has no copy) whose reply
    flags a disagreement between sources.
    """
    paragraphs, questions = load_squad(path)
    script = data_script(paragraphs)
    pairs = build_conflicts(paragraphs, questions, seed=seed, limit=limit)
    if not pairs:
        raise ValueError("no question has an answer of a swappable type")
    copied = {p.gold for p in pairs}
    rng = random.Random(seed)
    pool = [q for q in questions if q["gold"] not in copied]
    n_ord = len(pairs) if ordinary is None else ordinary
    plain = rng.sample(pool, min(n_ord, len(pool)))
    kb = build_kb(paragraphs, set(), _cache_dir(path, data_dir), progress=progress,
                  extra={"pool": [{"id": p.copy_id, "article": "", "title": p.title, "context": p.copy_context}
                                  for p in pairs]})
    use = LLMUse(provider)
    deps = KnowledgeDeps(kb, kb.settings, provider=provider, emit=use.emit)
    rows: list[dict[str, Any]] = []
    plain_rows: list[dict[str, Any]] = []

    async def run_all() -> None:
        await ask(pairs[0].question, deps)  # load the models outside the timings
        use.reset()
        for i, pair in enumerate(pairs):
            t0 = time.perf_counter()
            with use.turn():
                out = await ask(pair.question, deps)
            ms = (time.perf_counter() - t0) * 1000
            rows.append({**conflict_row(pair, out), "ms": ms})
            if progress and (i + 1) % 50 == 0:
                progress(i + 1, len(pairs))
        for q in plain:
            t0 = time.perf_counter()
            with use.turn():
                out = await ask(q["question"], deps)
            plain_rows.append({"flagged": conflict_flagged(out), "level": out["level"],
                               "ms": (time.perf_counter() - t0) * 1000, "question": q["question"],
                               "reply": out["reply"], "reason": out["reason"]})

    asyncio.run(run_all())
    n = len(rows)
    by_kind: dict[str, dict[str, float]] = {}
    for kind in sorted({r["kind"] for r in rows}):
        sel = [r for r in rows if r["kind"] == kind]
        by_kind[kind] = {"n": len(sel), "conflicts_named": ratio(sum(r["named"] for r in sel), len(sel))}
    times = [r["ms"] for r in rows + plain_rows]
    return {"dataset": path.name, "script": script, "seed": seed, "n_conflicts": n, "n_ordinary": len(plain_rows),
            "conflicts_named": ratio(sum(r["named"] for r in rows), n),
            "both_values_shown": ratio(sum(r["both_values"] for r in rows), n),
            "both_sources_cited": ratio(sum(r["both_sources"] for r in rows), n),
            "conflict_flagged": ratio(sum(r["flagged"] for r in rows), n),
            "conflict_confirmed_rate": ratio(sum(r["level"] == "confirmed" for r in rows), n),
            "conflict_abstained_rate": ratio(sum(r["level"] == "insufficient" for r in rows), n),
            "false_conflict_rate": ratio(sum(r["flagged"] for r in plain_rows), len(plain_rows)),
            "by_kind": by_kind, "p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2),
            **use.report(), "_rows": rows + [{"ordinary": True, **r} for r in plain_rows]}


def conflict_flagged(out: dict[str, Any]) -> bool:
    return out["conflicts"] > 0 or any(n in out["reply"] for n in CONFLICT_NOTES)


def conflict_row(pair: ConflictPair, out: dict[str, Any]) -> dict[str, Any]:
    """One conflict question scored (pure; see :func:`run_conflicts`)."""
    reply = out["reply"]
    both_values = pair.value in reply and pair.swapped in reply
    sources = {c["source"] for c in out["citations"]}
    both_sources = {pair.gold, pair.copy_id} <= sources or (
        conflict_flagged(out) and pair.gold in reply and pair.copy_id in reply)
    return {"kind": pair.kind, "level": out["level"], "both_values": both_values, "both_sources": both_sources,
            "flagged": conflict_flagged(out),
            "named": both_values and both_sources and out["level"] != "confirmed",
            "question": pair.question, "value": pair.value, "swapped": pair.swapped, "reply": reply,
            "reason": out["reason"], "conflicts": out["conflicts"], "cited": sorted(sources),
            "gold": pair.gold, "answerability": out.get("answerability")}


# ----- the bundled demo -----
def run_demo(*, data_dir: Path | None = None, provider: MeteredProvider | None = None,
             limit: int | None = None, seed: int = 3) -> dict[str, Any]:
    """The bundled demo knowledge base with its own questions (``demo_kb/questions.jsonl``).

    Answerable lines list acceptable answer strings and the gold source; the rest have
    ``"answerable": false`` (the honest verdict is ``insufficient``). Same keys as the SQuAD run.
    ``limit``: a sample of that many questions drawn with ``seed``, in file order.
    """

    questions = [json.loads(line) for line in (demo_kb_path() / "questions.jsonl").read_text("utf-8").splitlines()
                 if line.strip()]
    if limit is not None and limit < len(questions):
        keep = set(random.Random(seed).sample(range(len(questions)), limit))
        questions = [q for i, q in enumerate(questions) if i in keep]
    cache = data_dir or Path(".knowzero") / "eval" / "demo"
    cache.mkdir(parents=True, exist_ok=True)
    settings = Settings(data_dir=cache, database_url="")
    kb = KnowledgeBase(make_engine(settings.db_url), settings)
    kb.ensure_demo()
    use = LLMUse(provider)
    deps = KnowledgeDeps(kb, settings, provider=provider, emit=use.emit)
    rows: list[dict[str, Any]] = []

    async def run_all() -> None:
        for q in questions:
            t0 = time.perf_counter()
            with use.turn() as turn:
                out = await ask(q["question"], deps)
            ms = (time.perf_counter() - t0) * 1000
            cits = out["citations"]
            answerable = q.get("answerable", True)
            rows.append({"unanswerable": not answerable, "ms": ms, "answered": out["level"] != "insufficient",
                         "contains": answerable and _contains(out["reply"], q.get("answer_contains", [])),
                         "cited_gold": bool(cits) and bool(q.get("source")) and cits[0]["source"].endswith(q["source"]),
                         "level": out["level"], "generated_shown": out["generated_shown"],
                         "unverified_shown": out["unverified_shown"], "reader": out["reader"],
                         "llm_calls": turn.calls, "llm_fallbacks": turn.fallbacks, "question": q["question"],
                         "reply": out["reply"], "reason": out["reason"], "answerability": out["answerability"],
                         "features": out["features"], "evidence": out["evidence"]})

    asyncio.run(run_all())
    return {**summarize(rows), "dataset": "demo_kb", **use.report(), "_rows": rows}
