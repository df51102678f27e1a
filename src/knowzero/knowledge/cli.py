"""``knowzero ingest PATHS``: files and folders into the knowledge base, with progress.

The console script runs this module without importing the full CLI (``knowzero.entry``: the graph,
the API and the evaluation modules take seconds to import, which an ingest never uses); ``knowzero.cli``
registers the same command.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from knowzero.config import DOMAINS, Settings
from knowzero.knowledge.ingest.embedqueue import WorkProgress
from knowzero.knowledge.kb import IngestProgress, KnowledgeBase
from knowzero.persistence.db import make_engine


def fail(message: str) -> None:
    """The CLI's one-line error (``error: …``, exit code 2)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")


def knowledge_base(s: Settings) -> KnowledgeBase:
    """The knowledge base alone (commands that neither route nor chat)."""
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    return kb


def ingest_command(paths: list[Path] = typer.Argument(..., help="Files or folders."),
           collection: str = typer.Option("default", help="Collection name."),
           domain: str = typer.Option(None, help="technical | hr | product | policy | general (default: by folder)."),
           embed: bool = typer.Option(True, "--embed/--no-embed",
                                      help="Embed the queued chunks before exiting (else `knowzero worker` or the "
                                           "server does it; the files are keyword-searchable either way)."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Ingest Markdown, text, HTML, PDF, DOCX, CSV, XLSX, PPTX and PNG/JPEG/TIFF files (incremental, resumable).

    Scanned PDF pages and images are read by the bundled OCR engine (docs/documents.md). Every file is made
    keyword-searchable (and its tables queryable) first; dense vectors follow
    from the embedding queue. Other file types are skipped with a message. A missing path or a file
    that cannot be read or parsed is reported and the other files are still ingested; the exit code
    is then 1.
    """
    if domain is not None and domain not in DOMAINS:
        fail(f"--domain must be one of {', '.join(DOMAINS)}")
    kb = knowledge_base(Settings())
    columns = (TextColumn("{task.description:<10}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[info]}"), TextColumn("ETA"), TimeRemainingColumn())
    t0 = time.perf_counter()
    with Progress(*columns, transient=True, disable=json_out) as progress:
        files = progress.add_task("files", total=None, info="")

        def on_progress(p: IngestProgress) -> None:
            rate = p.chunks / max(time.perf_counter() - t0, 1e-6)
            reading = f" · reading {p.current} p. {p.page}/{p.pages}" if p.pages > 1 else ""
            progress.update(files, completed=p.files_done, total=p.files_total,
                            info=f"{p.chunks} chunks searchable · {p.queued} embeddings queued · {rate:.0f} chunks/s"
                                 + reading)

        report = kb.ingest_paths(paths, collection=collection, domain=domain, embed=False, on_progress=on_progress)
        searchable_s = time.perf_counter() - t0
        pending = kb.embedding_status()["pending"]
        if embed and pending:
            emb = progress.add_task("embeddings", total=pending, info="")

            def on_work(w: WorkProgress) -> None:
                progress.update(emb, completed=w.embedded, total=w.embedded + w.pending,
                                info=f"{w.pending} pending · {w.rate:.1f} chunks/s")

            report.embedded = kb.embed_pending(on_work=on_work)
    report.elapsed_ms = (time.perf_counter() - t0) * 1000
    for f in report.skipped:
        typer.echo(f"skipped: {f['path']}: {f['reason']}", err=True)
    for f in report.failed:
        typer.echo(f"failed: {f['error']}", err=True)
    if json_out:
        print_json(report.to_dict() | {"embeddings_pending": kb.embedding_status()["pending"],
                                        "searchable_s": round(searchable_s, 2)})
    else:
        typer.echo(f"added {len(report.added)}, updated {len(report.updated)}, unchanged {len(report.unchanged)}, "
                   f"removed {len(report.removed)}, skipped {len(report.skipped)}, failed {len(report.failed)}; "
                   f"{report.chunks} chunks, {report.embedded} embedded, {kb.embedding_status()['pending']} "
                   f"embeddings pending, in {report.elapsed_ms / 1000:.1f}s")
    if report.failed:
        typer.echo(f"error: {ingest_outcome(report)}", err=True)
        raise typer.Exit(1)


def ingest_outcome(report: Any) -> str:
    """The closing line of an ingest with failures: how many failed, and what (if anything) was ingested.

    >>> from knowzero.knowledge.kb import IngestReport
    >>> ingest_outcome(IngestReport(failed=[{"path": "/x", "error": "/x: no such file or folder"}]))
    'nothing was ingested: /x: no such file or folder'
    """
    done = len(report.added) + len(report.updated) + len(report.unchanged)
    if not done:
        if len(report.failed) == 1:
            return f"nothing was ingested: {report.failed[0]['error']}"
        return f"nothing was ingested: all {len(report.failed)} failed (listed above)"
    return (f"{len(report.failed)} failed (listed above); the other {done} file{'s' if done != 1 else ''} "
            f"{'were' if done != 1 else 'was'} ingested")


ingest_app = typer.Typer(add_completion=False)
"""``knowzero ingest`` alone, for the console script's fast path."""
ingest_app.command("ingest")(ingest_command)


@ingest_app.callback()
def _group() -> None:
    """KnowZero: offline-first knowledge assistant."""
