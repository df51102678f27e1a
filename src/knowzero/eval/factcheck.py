"""The fact checker alone: HaluEval QA (accept ``right_answer``, reject ``hallucinated_answer``) and
the rule-made paraphrase and yes/no sets of :mod:`knowzero.eval.synthetic`.

With a chat model (``provider``) every verdict the deterministic checks leave ``confirmed`` or
``uncertain`` also goes to the LLM judge, exactly as in an answer (``knowledge.answer.judge``: it may only
make a verdict stricter; a failed call keeps the deterministic verdict and counts as a fallback).
The figures are then the judge's, and ``offline`` holds the same items without it, with the
``difference`` (judge minus offline) per metric.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from knowzero.config import Settings
from knowzero.errors import ProviderError
from knowzero.eval.knowledge import data_script, load_squad
from knowzero.eval.llmuse import LLMUse
from knowzero.eval.metrics import percentile, ratio
from knowzero.eval.synthetic import build_paraphrases, build_polarity
from knowzero.knowledge.answer.checks.freetext import check_free_text
from knowzero.knowledge.answer.judge import STRICTER, judge_answer
from knowzero.llm.base import call_within_deadline
from knowzero.llm.metered import MeteredProvider


class Judged:
    """A verdict level with the LLM judge applied when a provider is given (see module doc)."""

    def __init__(self, provider: MeteredProvider | None) -> None:
        self.use = LLMUse(provider)
        self.provider = provider
        self.deadline_s = Settings().llm_timeout_s
        self.changed = 0

    def level(self, question: str, answer: str, knowledge: str, offline: str) -> str:
        if self.provider is None or offline not in ("confirmed", "uncertain"):
            return offline
        with self.use.turn():
            try:
                label, _ = call_within_deadline(judge_answer, self.provider, question, answer, [knowledge[:1500]],
                                                deadline_s=self.deadline_s)
            except ProviderError as exc:
                self.use.fallback("judge", exc.message)
                return offline
        stricter = STRICTER.get(label)
        if stricter and (stricter == "contradicted" or offline == "confirmed"):
            self.changed += stricter != offline
            return stricter
        return offline

    def report(self, figures: dict[str, Any], offline: dict[str, Any]) -> dict[str, Any]:
        """``figures`` (with the judge) plus the model's use, ``offline`` and their ``difference``."""
        out = {**figures, **self.use.report()}
        if self.provider is not None:
            out["judge_made_stricter"] = self.changed
            out["offline"] = offline
            out["difference"] = {k: round(figures[k] - v, 4) for k, v in offline.items()
                                 if isinstance(v, int | float) and isinstance(figures.get(k), int | float)}
        return out


def load_halueval(path: Path, limit: int | None = None) -> list[dict[str, str]]:
    rows = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                rows.append(json.loads(line))
            if limit and len(rows) >= limit:
                break
    return rows


def run_factcheck(path: Path, limit: int | None = None, *, provider: MeteredProvider | None = None) -> dict[str, Any]:
    rows = load_halueval(path, limit)
    judged = Judged(provider)
    right_ok = hall_ok = right_off = hall_off = 0
    times: list[float] = []
    for r in rows:
        t0 = time.perf_counter()
        a = check_free_text(r["question"], r["right_answer"], r["knowledge"]).level
        b = check_free_text(r["question"], r["hallucinated_answer"], r["knowledge"]).level
        right_off += a == "confirmed"
        hall_off += b != "confirmed"
        a = judged.level(r["question"], r["right_answer"], r["knowledge"], a)
        b = judged.level(r["question"], r["hallucinated_answer"], r["knowledge"], b)
        times.append((time.perf_counter() - t0) * 500)
        right_ok += a == "confirmed"
        hall_ok += b != "confirmed"
    n = len(rows)
    return judged.report(
        {"n": n, "accuracy": ratio(right_ok + hall_ok, 2 * n), "right_accepted": ratio(right_ok, n),
         "hallucinated_rejected": ratio(hall_ok, n), "p50_ms": round(percentile(times, 50), 3),
         "p95_ms": round(percentile(times, 95), 3)},
        {"accuracy": ratio(right_off + hall_off, 2 * n), "right_accepted": ratio(right_off, n),
         "hallucinated_rejected": ratio(hall_off, n)})


def run_paraphrases(squad: Path, *, limit: int | None = 100, seed: int = 3,
                    provider: MeteredProvider | None = None) -> dict[str, Any]:
    """The checker (``freetext.check_free_text``) on rule-made paraphrases and on yes/no polarity.

    ``paraphrase_accepted``: share of reworded true answers judged ``confirmed``;
    ``hallucination_rejected``: share of the same rewrites with the answer swapped judged anything
    else; both per rule too. ``yesno_affirmed_accepted`` / ``yesno_denied_rejected``: "是的。" to a
    "…是…吗？" question against the source, and against the source with the predicate negated.
    """
    paragraphs, questions = load_squad(squad)
    script = data_script(paragraphs)  # the sets follow the data's own script
    traditional = script == "traditional"
    items = build_paraphrases(paragraphs, questions, seed=seed, limit=limit, traditional=traditional)
    polar = build_polarity(paragraphs, seed=seed, limit=limit, traditional=traditional)
    rows: list[dict[str, Any]] = []
    times: list[float] = []
    judged = Judged(provider)
    for it in items:
        t0 = time.perf_counter()
        a = check_free_text(it.question, it.true_answer, it.knowledge)
        b = check_free_text(it.question, it.hallucinated, it.knowledge)
        a_level = judged.level(it.question, it.true_answer, it.knowledge, a.level)
        b_level = judged.level(it.question, it.hallucinated, it.knowledge, b.level)
        times.append((time.perf_counter() - t0) * 500)
        rows.append({"rule": it.rule, "accepted": a_level == "confirmed", "rejected": b_level != "confirmed",
                     "accepted_offline": a.level == "confirmed", "rejected_offline": b.level != "confirmed",
                     "question": it.question, "true": it.true_answer, "fake": it.hallucinated,
                     "true_reasons": a.reasons})
    by_rule = {}
    for rule in sorted({r["rule"] for r in rows}):
        sel = [r for r in rows if r["rule"] == rule]
        by_rule[rule] = {"n": len(sel), "paraphrase_accepted": ratio(sum(r["accepted"] for r in sel), len(sel)),
                         "hallucination_rejected": ratio(sum(r["rejected"] for r in sel), len(sel))}
    yes_ok = sum(check_free_text(p.question, p.answer, p.affirming).level == "confirmed" for p in polar)
    no_ok = sum(check_free_text(p.question, p.answer, p.denying).level != "confirmed" for p in polar)
    n = len(rows)
    offline = {"paraphrase_accepted": ratio(sum(r["accepted_offline"] for r in rows), n),
               "hallucination_rejected": ratio(sum(r["rejected_offline"] for r in rows), n)}
    return judged.report({"dataset": squad.name, "script": script, "seed": seed, "n": n,
            "n_questions": len({r["question"] for r in rows}),
            "paraphrase_accepted": ratio(sum(r["accepted"] for r in rows), n),
            "hallucination_rejected": ratio(sum(r["rejected"] for r in rows), n), "by_rule": by_rule,
            "n_yesno": len(polar), "yesno_affirmed_accepted": ratio(yes_ok, len(polar)),
            "yesno_denied_rejected": ratio(no_ok, len(polar)),
            "p50_ms": round(percentile(times, 50), 3), "p95_ms": round(percentile(times, 95), 3), "_rows": rows},
        offline)
