"""The fact checker alone: HaluEval QA (accept ``right_answer``, reject ``hallucinated_answer``) and
the rule-made paraphrase and yes/no sets of :mod:`knowzero.eval.synthetic`."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from knowzero.eval.metrics import percentile, ratio
from knowzero.eval.synthetic import build_paraphrases, build_polarity
from knowzero.knowledge.verify import check_answer


def load_halueval(path: Path, limit: int | None = None) -> list[dict[str, str]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if limit and len(rows) >= limit:
                break
    return rows


def run_factcheck(path: Path, limit: int | None = None) -> dict[str, Any]:
    rows = load_halueval(path, limit)
    right_ok = hall_ok = 0
    times: list[float] = []
    for r in rows:
        t0 = time.perf_counter()
        a = check_answer(r["question"], r["right_answer"], r["knowledge"])
        b = check_answer(r["question"], r["hallucinated_answer"], r["knowledge"])
        times.append((time.perf_counter() - t0) * 500)
        right_ok += a.level == "confirmed"
        hall_ok += b.level != "confirmed"
    n = len(rows)
    return {"n": n, "accuracy": ratio(right_ok + hall_ok, 2 * n), "right_accepted": ratio(right_ok, n),
            "hallucinated_rejected": ratio(hall_ok, n), "p50_ms": round(percentile(times, 50), 3),
            "p95_ms": round(percentile(times, 95), 3)}


def run_paraphrases(squad: Path, *, limit: int | None = 100, seed: int = 3) -> dict[str, Any]:
    """The checker (``verify.check_answer``) on rule-made paraphrases and on yes/no polarity.

    ``paraphrase_accepted``: share of reworded true answers judged ``confirmed``;
    ``hallucination_rejected``: share of the same rewrites with the answer swapped judged anything
    else; both per rule too. ``yesno_affirmed_accepted`` / ``yesno_denied_rejected``: "是的。" to a
    "…是…吗？" question against the source, and against the source with the predicate negated.
    """
    from knowzero.eval.knowledge import data_script, load_squad

    paragraphs, questions = load_squad(squad)
    script = data_script(paragraphs)  # the sets follow the data's own script
    traditional = script == "traditional"
    items = build_paraphrases(paragraphs, questions, seed=seed, limit=limit, traditional=traditional)
    polar = build_polarity(paragraphs, seed=seed, limit=limit, traditional=traditional)
    rows: list[dict[str, Any]] = []
    times: list[float] = []
    for it in items:
        t0 = time.perf_counter()
        a = check_answer(it.question, it.true_answer, it.knowledge)
        b = check_answer(it.question, it.hallucinated, it.knowledge)
        times.append((time.perf_counter() - t0) * 500)
        rows.append({"rule": it.rule, "accepted": a.level == "confirmed", "rejected": b.level != "confirmed",
                     "question": it.question, "true": it.true_answer, "fake": it.hallucinated,
                     "true_reasons": a.reasons})
    by_rule = {}
    for rule in sorted({r["rule"] for r in rows}):
        sel = [r for r in rows if r["rule"] == rule]
        by_rule[rule] = {"n": len(sel), "paraphrase_accepted": ratio(sum(r["accepted"] for r in sel), len(sel)),
                         "hallucination_rejected": ratio(sum(r["rejected"] for r in sel), len(sel))}
    yes_ok = sum(check_answer(p.question, p.answer, p.affirming).level == "confirmed" for p in polar)
    no_ok = sum(check_answer(p.question, p.answer, p.denying).level != "confirmed" for p in polar)
    n = len(rows)
    return {"dataset": squad.name, "script": script, "seed": seed, "n": n,
            "n_questions": len({r["question"] for r in rows}),
            "paraphrase_accepted": ratio(sum(r["accepted"] for r in rows), n),
            "hallucination_rejected": ratio(sum(r["rejected"] for r in rows), n), "by_rule": by_rule,
            "n_yesno": len(polar), "yesno_affirmed_accepted": ratio(yes_ok, len(polar)),
            "yesno_denied_rejected": ratio(no_ok, len(polar)),
            "p50_ms": round(percentile(times, 50), 3), "p95_ms": round(percentile(times, 95), 3), "_rows": rows}
