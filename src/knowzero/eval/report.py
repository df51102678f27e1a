"""``knowzero eval report``: every benchmark there is data for, one Markdown page, PNG plots.

Looks for the public data sets in a folder laid out like ``shared/eval-data`` (``cmrc2018/``,
``drcd/``, ``halueval/``, ``clinc150/``) and runs, at a bounded size: knowledge (each SQuAD file,
each negatives mode, several seeds, worst first), conflicts, paraphrase + yes/no, HaluEval and
CLINC150 routing — offline, or with the chat model ``--provider`` names on every step that uses one
(each task's results then carry the ``llm_*`` keys of :mod:`knowzero.eval.llmuse`). Writes ``report.md``, ``results.json`` and, when matplotlib is installed (the
``bench`` extra), the answered-vs-false-answer curve as the abstention threshold moves, a
reliability diagram (coverage read as confidence) and latency distributions.
Not here: any benchmark logic (it calls the ``eval`` modules) or any tuning.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from knowzero.eval.factcheck import run_factcheck, run_paraphrases
from knowzero.eval.knowledge import (
    NEGATIVES,
    TODAY_THRESHOLD,
    reliability,
    run_conflicts,
    run_seeds,
    threshold_curve,
)
from knowzero.eval.routing import run_clinc
from knowzero.llm.metered import MeteredProvider, model_of

SQUAD_FILES = {"CMRC 2018 trial": "cmrc2018/cmrc2018_trial.json", "DRCD dev": "drcd/DRCD_dev.json"}
HALUEVAL_FILES = {"one-turn": "halueval/qa_one-turn_data_dev.jsonl", "multi-turn": "halueval/qa_multi-turn_data_dev.jsonl"}
CLINC_FILE = "clinc150/clinc150_dev.json"
TASKS = ("knowledge", "conflicts", "paraphrase", "factcheck", "routing")
KNOWLEDGE_KEYS = ("answer_contains_gold", "citation_accuracy", "answered_rate", "false_answer_rate",
                  "false_answer_confirmed_rate", "p50_ms", "p95_ms")


def find_data(data: Path | None) -> Path:
    """The data folder: the argument, ``KNOWZERO_EVAL_DATA``, or ``shared/eval-data`` beside or above the cwd."""
    candidates = [data] if data else []
    if os.environ.get("KNOWZERO_EVAL_DATA"):
        candidates.append(Path(os.environ["KNOWZERO_EVAL_DATA"]))
    candidates += [Path("../shared/eval-data"), Path("../../shared/eval-data")]
    for c in candidates:
        if c is not None and c.is_dir():
            return c
    raise FileNotFoundError("no data folder: give --data DIR (with cmrc2018/, drcd/, halueval/ …)")


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 10 else f"{v:.1f}"
    return str(v)


def _table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_fmt(c) for c in r) + " |" for r in rows]
    return "\n".join(lines)


def knowledge_section(name: str, runs: dict[str, dict[str, Any]]) -> str:
    """One table per data set: each negatives mode's worst seed, per-seed false answers, and the baseline."""
    out = [f"### Knowledge: {name}"]
    header = ["metric"] + [f"{neg} (worst seed)" for neg in runs] + [f"baseline ({neg})" for neg in runs]
    rows = []
    for k in KNOWLEDGE_KEYS:
        rows.append([k] + [runs[neg]["worst"].get(k) for neg in runs]
                    + [runs[neg]["worst"].get("baseline", {}).get(k) for neg in runs])
    out.append(_table(header, rows))
    for neg, r in runs.items():
        per = ", ".join(f"seed {s}: {_fmt(v.get('false_answer_rate'))} / {_fmt(v.get('answer_contains_gold'))}"
                        for s, v in r["per_seed"].items())
        w = r["worst"]
        out.append(f"- `{neg}` (n={w['n']}, {w['n_unanswerable']} unanswerable, {w['script']} text): false answers / "
                   f"contains gold per seed — {per}; worst seed {r['worst_seed']}.")
    return "\n\n".join(out)


def _plots(out: Path, knowledge: dict[str, dict[str, dict[str, Any]]]) -> list[str]:
    if not knowledge:
        return []
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    files = []
    for name, runs in knowledge.items():
        slug = name.split()[0].lower()
        fig, ax = plt.subplots(figsize=(5.5, 4.5))
        for neg, r in runs.items():
            curve = r["curve"]
            ax.plot([p["false_answer_rate"] for p in curve], [p["answered_rate"] for p in curve], marker=".", label=neg)
            today = min(curve, key=lambda p: abs(p["threshold"] - TODAY_THRESHOLD))
            ax.scatter([today["false_answer_rate"]], [today["answered_rate"]], color="black", zorder=3)
        ax.axvline(0.10, color="grey", linestyle=":", linewidth=1)
        ax.axhline(0.90, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("false-answer rate (unanswerable questions)")
        ax.set_ylabel("answered rate (answerable questions)")
        ax.set_title(f"{name}: abstention threshold sweep (dot = {TODAY_THRESHOLD})")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / f"curve_{slug}.png", dpi=100)
        plt.close(fig)
        files.append(f"curve_{slug}.png")
        fig, ax = plt.subplots(figsize=(5, 4.5))
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":")
        for neg, r in runs.items():
            rel = r["reliability"]
            ax.plot([b["confidence"] for b in rel], [b["accuracy"] for b in rel], marker="o", label=neg)
        ax.set_xlabel("coverage (checker's score) of answered questions")
        ax.set_ylabel("share right (answerable, gold quoted)")
        ax.set_title(f"{name}: reliability")
        ax.legend()
        fig.tight_layout()
        fig.savefig(out / f"reliability_{slug}.png", dpi=100)
        plt.close(fig)
        files.append(f"reliability_{slug}.png")
    fig, ax = plt.subplots(figsize=(6, 4))
    for name, runs in knowledge.items():
        ms = [row["ms"] for r in runs.values() for row in r["rows"]]
        if ms:
            ax.hist(ms, bins=40, alpha=0.5, label=name)
    ax.set_xlabel("ms per question (ours)")
    ax.set_ylabel("questions")
    ax.set_title("latency")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "latency.png", dpi=100)
    plt.close(fig)
    files.append("latency.png")
    return files


def run_report(out: Path, *, data: Path | None = None, limit: int = 200, seeds: Sequence[int] = (1, 5, 11),
               unanswerable_share: float = 0.2, data_dir: Path | None = None, tasks: Sequence[str] = TASKS,
               say: Callable[[str], None] = print, provider: MeteredProvider | None = None) -> Path:
    """Run the benchmarks (see module doc) and write ``out/report.md``; returns its path.

    ``provider`` (metered, as ``eval_app``'s ``--provider`` builds it) runs every benchmark's model
    steps; None runs them offline."""
    root = find_data(data)
    out.mkdir(parents=True, exist_ok=True)
    sections: list[str] = []
    model = {"provider": provider.name if provider is not None else "none",
             "model": model_of(provider) if provider is not None else ""}
    results: dict[str, Any] = {"limit": limit, "seeds": list(seeds), "unanswerable_share": unanswerable_share, **model}
    knowledge: dict[str, dict[str, dict[str, Any]]] = {}
    timings: dict[str, float] = {}
    squads = {name: root / rel for name, rel in SQUAD_FILES.items() if (root / rel).is_file()}

    def timed(label: str, fn: Callable[[], Any]) -> Any:
        say(f"{label} …")
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            timings[label] = round(time.perf_counter() - t0, 1)

    if "knowledge" in tasks:
        for name, path in squads.items():
            runs: dict[str, dict[str, Any]] = {}
            for neg in NEGATIVES:
                try:
                    r = timed(f"knowledge {name} {neg}", partial(
                        run_seeds, path, seeds, limit=limit, unanswerable_share=unanswerable_share, negatives=neg,
                        data_dir=data_dir, provider=provider))
                except ValueError as exc:
                    sections.append(f"- knowledge {name} `{neg}`: not run ({exc}).")
                    continue
                rows = r.pop("_rows")
                r["curve"] = threshold_curve(rows)
                r["reliability"] = reliability(rows)
                runs[neg] = {**r, "rows": rows}
            if runs:
                knowledge[name] = runs
                sections.append(knowledge_section(name, runs))
                results.setdefault("knowledge", {})[name] = {neg: {k: v for k, v in r.items() if k != "rows"}
                                                             for neg, r in runs.items()}
    if "conflicts" in tasks and squads:
        rows = []
        for name, path in squads.items():
            r = timed(f"conflicts {name}", partial(run_conflicts, path, limit=min(limit, 100), seed=seeds[0],
                                                   data_dir=data_dir, provider=provider))
            r.pop("_rows", None)
            results.setdefault("conflicts", {})[name] = r
            rows.append([name, r["n_conflicts"], r["conflicts_named"], r["both_values_shown"], r["both_sources_cited"],
                         r["conflict_confirmed_rate"], r["n_ordinary"], r["false_conflict_rate"]])
        sections.append("### Conflicting sources (synthetic pairs)\n\n" + _table(
            ["data", "pairs", "conflicts_named", "both values shown", "both sources cited", "verdict confirmed",
             "ordinary questions", "false_conflict_rate"], rows))
    if "paraphrase" in tasks and squads:
        rows = []
        for name, path in squads.items():
            r = timed(f"paraphrase {name}", partial(run_paraphrases, path, limit=min(limit, 100), seed=seeds[0],
                                                                      provider=provider))
            r.pop("_rows", None)
            results.setdefault("paraphrase", {})[name] = r
            rows.append([name, r["n"], r["paraphrase_accepted"], r["hallucination_rejected"], r["n_yesno"],
                         r["yesno_affirmed_accepted"], r["yesno_denied_rejected"]])
        sections.append("### Fact checker: paraphrases and yes/no polarity (rule-made)\n\n" + _table(
            ["data", "items", "paraphrase_accepted", "hallucination_rejected", "yes/no items", "yes accepted (source "
             "affirms)", "yes rejected (source denies)"], rows))
    if "factcheck" in tasks:
        rows = []
        for name, rel in HALUEVAL_FILES.items():
            if (root / rel).is_file():
                r = timed(f"factcheck {name}", partial(run_factcheck, root / rel, provider=provider))
                results.setdefault("factcheck", {})[name] = r
                rows.append([name, r["n"], r["accuracy"], r["right_accepted"], r["hallucinated_rejected"], r["p50_ms"]])
        if rows:
            sections.append("### Fact checker: HaluEval QA\n\n" + _table(
                ["file", "n", "accuracy", "right accepted", "hallucinated rejected", "p50 ms"], rows))
    if "routing" in tasks and (root / CLINC_FILE).is_file():
        r = timed("routing CLINC150", lambda: run_clinc(root / CLINC_FILE, "train", "val", limit=min(limit * 5, 3100),
                                                               provider=provider))
        results["routing"] = r
        peer = r.get("peer") or {}
        sections.append("### Routing: CLINC150 val (trained on train)\n\n" + _table(
            ["metric", "ours", "semantic-router peer"],
            [[k, r.get(k), peer.get(k)] for k in ("in_scope_accuracy", "oos_recall", "oos_precision", "p50_ms")]))
    results["timings_s"] = timings
    plots = _plots(out, knowledge)
    (out / "results.json").write_text(json.dumps(results, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    head = [f"# KnowZero eval report\n\nData: `{root}`; knowledge runs: {limit} questions per seed "
            f"(seeds {', '.join(map(str, seeds))}), {unanswerable_share:.0%} made unanswerable; the worst seed is "
            f"the one with the most false answers. Baseline: single agent (dense top-5 + the same reader, no "
            f"checker; it always answers). Chat model: "
            + (f"{model['model'] or '?'} (`{model['provider']}`), on every step that uses one" if provider is not None
               else "none (offline)") + ". Seconds per task: "
            + ", ".join(f"{k} {v}" for k, v in timings.items()) + "."]
    if plots:
        head.append("\n".join(f"![{p}]({p})" for p in plots))
    elif knowledge:
        head.append("(plots skipped: install the `bench` extra for matplotlib)")
    page = out / "report.md"
    page.write_text("\n\n".join(head + sections) + "\n", encoding="utf-8")
    return page
