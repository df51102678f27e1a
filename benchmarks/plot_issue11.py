"""Plots of issue 11's benchmarks from their JSON output (matplotlib, the ``bench`` extra).

    knowzero bench scale … --json > benchmarks/issue11/scale_sqlite.json   (and scale_pg.json)
    knowzero bench load … --json > benchmarks/issue11/load.json
    python benchmarks/plot_issue11.py benchmarks/issue11

Writes ``scale.png`` and ``load.png`` beside the JSON files (the last JSON line of each file is read).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def _last_json(path: Path) -> dict:  # type: ignore[type-arg]
    lines = [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip().startswith("{")]
    return json.loads(lines[-1])


def scale(folder: Path) -> None:
    runs = {name: _last_json(folder / f"scale_{name}.json") for name in ("sqlite", "pg")
            if (folder / f"scale_{name}.json").exists()}
    panels = [("ingest_searchable_per_s", "keyword-searchable ingest (chunks/s)", 200),
              ("query_p50_ms", "query p50 (ms)", 150), ("query_p95_ms", "query p95 (ms)", 400),
              ("worker_rss_mb", "worker RSS (MB)", None), ("cold_start_s", "cold start (s)", 5),
              ("embed_per_s", "embedding, 1 worker (chunks/s)", None)]
    fig, axes = plt.subplots(2, 3, figsize=(13, 7))
    for ax, (key, title, target) in zip(axes.flat, panels, strict=True):
        for name, run in runs.items():
            sizes = sorted(run["sizes"].values(), key=lambda r: r["chunks"])
            ax.plot([r["chunks"] for r in sizes], [r[key] for r in sizes], marker="o",
                    label={"sqlite": "embedded (SQLite)", "pg": "PostgreSQL + pgvector"}[name])
        if target:
            ax.axhline(target, color="grey", linestyle="--", linewidth=1, label="target")
        ax.set_xscale("log")
        ax.set_title(title)
        ax.set_xlabel("chunks")
        ax.legend(fontsize=7)
    loads = ", ".join(f"{n}: load {r['load_avg']:.1f}" for n, r in runs.items())
    fig.suptitle(f"knowzero bench scale (2-core machine shared with other work; {loads})")
    fig.tight_layout()
    fig.savefig(folder / "scale.png", dpi=90)


def load(folder: Path) -> None:
    run = _last_json(folder / "load.json")
    ws = {k: v for k, v in run["workers"].items() if "turns" in v}
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    labels = [f"{k} worker{'s' if k != '1' else ''}\n{v['turns']} turns, {v['errors']} errors" for k, v in ws.items()]
    for ax, key, title, target in ((axes[0], "first_event", "first SSE event (ms)", 1000),
                                   (axes[1], "turn", "whole turn (ms)", None)):
        x = range(len(ws))
        ax.bar([i - 0.2 for i in x], [v[f"{key}_p50_ms"] for v in ws.values()], width=0.4, label="p50")
        ax.bar([i + 0.2 for i in x], [v[f"{key}_p95_ms"] for v in ws.values()], width=0.4, label="p95")
        if target:
            ax.axhline(target, color="grey", linestyle="--", linewidth=1, label="target p95")
        ax.set_xticks(list(x), labels)
        ax.set_title(title)
        ax.legend(fontsize=8)
    fig.suptitle(f"knowzero bench load: {run['sessions']} sessions × {run['turns_per_session']} turns, "
                 f"{run['mode']}, load {run['load_avg']:.1f} on {run['cpus']} cores")
    fig.tight_layout()
    fig.savefig(folder / "load.png", dpi=90)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/issue11")
    if any((out / f"scale_{n}.json").exists() for n in ("sqlite", "pg")):
        scale(out)
    if (out / "load.json").exists():
        load(out)
