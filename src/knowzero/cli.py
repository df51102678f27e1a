"""The ``knowzero`` command: serve | ask | ingest | learn | eval | graph.

Errors are printed as one line (``error: …``) with exit code 2, never a traceback.
``--json`` commands print one JSON object on stdout's last line.
``ingest`` goes on past a bad file: it reports each one (``failed: …``, and ``skipped: …`` for
unsupported types, which are not failures) and exits 1 if any file failed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer
import uvicorn
from rich.progress import Progress

from knowzero import __version__
from knowzero.api.app import create_app
from knowzero.config import DOMAINS, Settings
from knowzero.eval.factcheck import run_factcheck
from knowzero.eval.knowledge import run_demo, run_knowledge
from knowzero.eval.learning import learning_command
from knowzero.eval.routing import routing_command
from knowzero.eval.service import service_command
from knowzero.graph.builder import build_graph
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.pipeline import answer_sync
from knowzero.learning.cli import learn_command
from knowzero.persistence.db import make_engine
from knowzero.remote import ask_server
from knowzero.service.identity import announce_keys
from knowzero.service.store import SqlStore
from knowzero.wiring import build_deps

app = typer.Typer(help="KnowZero: offline-first knowledge assistant.", no_args_is_help=True, add_completion=False)
eval_app = typer.Typer(help="Benchmarks (not timed tests). Each prints one JSON object last with --json.",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")


def _fail(message: str) -> None:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _knowledge_base(s: Settings) -> KnowledgeBase:
    """The knowledge base alone (commands that neither route nor chat)."""
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    return kb


def _print_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


@app.command()
def serve(host: str = typer.Option(None, help="Bind address (default KNOWZERO_HOST or 127.0.0.1)."),
          port: int = typer.Option(None, help="Port (default KNOWZERO_PORT or 8000).")) -> None:
    """Start the API and web UI (ingests the bundled demo knowledge base on first start)."""
    s = Settings()
    announce_keys(SqlStore(make_engine(s.db_url)), fixed_keys=s.demo_keys)
    typer.echo(f"KnowZero {__version__} on http://{host or s.host}:{port or s.port}  (data: {s.data_dir})", err=True)
    uvicorn.run(create_app(s), host=host or s.host, port=port or s.port, log_level="warning")


keys_app = typer.Typer(help="API keys: list users, issue a new key, revoke a key (keys are shown once; only hashes are kept).",
                       invoke_without_command=True)
app.add_typer(keys_app, name="keys")


def _user_store() -> SqlStore:
    store = SqlStore(make_engine(Settings().db_url))
    announce_keys(store, fixed_keys=Settings().demo_keys, hint=False)
    return store


@keys_app.callback()
def keys_list(ctx: typer.Context, json_out: bool = typer.Option(False, "--json", help="Print the users as JSON.")) -> None:
    """List users and whether they have a key (``knowzero keys``)."""
    if ctx.invoked_subcommand is not None:
        return
    users = _user_store().list_users()
    if json_out:
        _print_json({"users": users})
        return
    for u in users:
        typer.echo(f"{u['id']:<10} {u['role']:<9} {u['name']:<8} {'key set' if u['has_key'] else 'no key'}")
    typer.echo("new key: knowzero keys create USER   ·   revoke: knowzero keys revoke USER", err=True)


@keys_app.command("create")
def keys_create(user: str = typer.Argument(..., help="User id (see `knowzero keys`)."),
                name: str = typer.Option(None, help="Create the user with this display name if it does not exist."),
                role: str = typer.Option("customer", help="Role for a new user: customer | editor | agent | admin."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Issue a new key for USER (replaces the old key). The key is printed once."""
    store = _user_store()
    if store.get_user(user) is None:
        if not name:
            _fail(f"no user {user!r}; add --name (and --role) to create one")
        if role not in ("customer", "editor", "agent", "admin"):
            _fail("--role must be one of customer, editor, agent, admin")
        store.upsert_user(user, name, role)
    key = store.issue_api_key(user)
    if json_out:
        _print_json({"user_id": user, "api_key": key})
        return
    typer.echo(key)
    typer.echo(f"new key for {user} (shown once; the old key no longer works). "
               "Paste it into the web UI's sign-in dialog or send 'Authorization: Bearer <key>'.", err=True)


@keys_app.command("revoke")
def keys_revoke(user: str = typer.Argument(..., help="User id.")) -> None:
    """Revoke USER's key: signing in with it fails from now on."""
    store = _user_store()
    if store.get_user(user) is None:
        _fail(f"no user {user!r}")
    if store.revoke_api_key(user):
        typer.echo(f"revoked the key of {user}", err=True)
    else:
        typer.echo(f"{user} had no key", err=True)


@app.command()
def ingest(paths: list[Path] = typer.Argument(..., help="Files or folders."),
           collection: str = typer.Option("default", help="Collection name."),
           domain: str = typer.Option(None, help="technical | hr | product | policy | general (default: by folder)."),
           json_out: bool = typer.Option(False, "--json", help="Print the report as JSON.")) -> None:
    """Ingest Markdown, text, HTML, PDF, DOCX and CSV files (incremental).

    Other file types are skipped with a message. A missing path or a file that cannot be read or
    parsed is reported and the other files are still ingested; the exit code is then 1.
    """
    if domain is not None and domain not in DOMAINS:
        _fail(f"--domain must be one of {', '.join(DOMAINS)}")
    kb = _knowledge_base(Settings())
    with Progress(transient=True, disable=json_out) as progress:
        task = progress.add_task("embedding", total=None)

        def tick(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        report = kb.ingest_paths(paths, collection=collection, domain=domain, progress=tick)
    for f in report.skipped:
        typer.echo(f"skipped: {f['path']}: {f['reason']}", err=True)
    for f in report.failed:
        typer.echo(f"failed: {f['error']}", err=True)
    if json_out:
        _print_json(report.to_dict())
    else:
        typer.echo(f"added {len(report.added)}, updated {len(report.updated)}, unchanged {len(report.unchanged)}, "
                   f"removed {len(report.removed)}, skipped {len(report.skipped)}, failed {len(report.failed)}; "
                   f"{report.chunks} chunks, {report.embedded} embedded in {report.elapsed_ms / 1000:.1f}s")
    if report.failed:
        typer.echo(f"error: {len(report.failed)} failed (listed above); everything else was ingested", err=True)
        raise typer.Exit(1)


@app.command()
def ask(question: str = typer.Argument(..., help="The question."),
        json_out: bool = typer.Option(False, "--json", help="One JSON object (answer, verdict, citations, …)."),
        local: bool = typer.Option(False, "--local", help="Load the models here even if a server is running.")) -> None:
    """Answer from the ingested knowledge base (or the bundled demo one).

    When a server runs on the configured port (``knowzero serve``), the question goes to it: its
    models are already loaded, so the answer takes milliseconds instead of seconds.
    """
    if not question.strip():
        _fail("the question is empty")
    s = Settings()
    out = None if local else ask_server(s, question)
    if out is None:
        deps = build_deps(s, classifier=False)
        kb = deps.need_kb()
        if kb.is_empty():
            typer.echo("ingesting the bundled demo knowledge base…", err=True)
        kb.ensure_demo()
        out = answer_sync(question, deps.knowledge()).to_public()
    if json_out:
        _print_json(out)
        return
    typer.echo(out["answer"])
    for i, c in enumerate(out["citations"], 1):
        typer.echo(f"  [{i}] {c['source']} [{c['start']}:{c['end']}] “{c['quote'][:80]}”")
    typer.echo(f"verdict: {out['verdict']} — {out['verdict_reason']}  ({out['elapsed_ms']:.0f} ms, domain {out['domain']})")


@app.command()
def graph() -> None:
    """Print the graph as mermaid."""
    typer.echo(build_graph().compile().get_graph(xray=1).draw_mermaid())


@eval_app.command("knowledge")
def eval_knowledge(squad: Path = typer.Option(None, exists=True, dir_okay=False, help="SQuAD-format JSON file."),
                   demo: bool = typer.Option(False, "--demo", help="Use the bundled demo KB and its questions instead."),
                   limit: int = typer.Option(None, min=1, help="Ask at most N questions (seeded sample)."),
                   unanswerable_share: float = typer.Option(0.0, min=0.0, max=0.9,
                                                            help="Share of questions whose gold paragraph is removed."),
                   seed: int = typer.Option(3),
                   data_dir: Path = typer.Option(None, help="Where to keep the benchmark's knowledge base."),
                   json_out: bool = typer.Option(False, "--json")) -> None:
    """Retrieval + cited answers + abstention on SQuAD-format data, beside a single-agent baseline."""
    def tick(done: int, total: int) -> None:
        typer.echo(f"  {done}/{total}", err=True)

    if demo:
        r = run_demo(data_dir=data_dir)
        if json_out:
            _print_json(r)
        else:
            for k, v in r.items():
                typer.echo(f"{k}: {v}")
        return
    if squad is None:
        _fail("give --squad FILE or --demo")
    try:
        r = run_knowledge(squad, limit=limit, unanswerable_share=unanswerable_share, seed=seed, data_dir=data_dir,
                          progress=tick)
    except (ValueError, KeyError) as exc:
        _fail(f"{squad}: not a SQuAD-format file ({exc})")
    r.pop("_rows", None)
    if not json_out:
        for k, v in r.items():
            typer.echo(f"{k}: {v}")
        return
    _print_json(r)


@eval_app.command("factcheck")
def eval_factcheck(halueval: Path = typer.Option(..., exists=True, dir_okay=False, help="HaluEval QA JSONL."),
                   limit: int = typer.Option(None, min=1), json_out: bool = typer.Option(False, "--json")) -> None:
    """The checker on HaluEval QA: accept right answers, reject hallucinated ones."""
    try:
        r = run_factcheck(halueval, limit)
    except (ValueError, KeyError) as exc:
        _fail(f"{halueval}: not a HaluEval QA file ({exc})")
    if json_out:
        _print_json(r)
    else:
        for k, v in r.items():
            typer.echo(f"{k}: {v}")


eval_app.command("routing")(routing_command)
eval_app.command("service")(service_command)
eval_app.command("learning")(learning_command)
app.command("learn")(learn_command)


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
