"""The ``knowzero`` command: serve | ask | ingest | worker | learn | eval | graph.

Errors are printed as one line (``error: …``) with exit code 2, never a traceback.
``--json`` commands print one JSON object on stdout's last line.
``ingest`` goes on past a bad file: it reports each one (``failed: …``, and ``skipped: …`` for
unsupported types, which are not failures) and exits 1 if any file failed. It makes every file
searchable first, then embeds the queued chunks with a progress bar (``--no-embed`` leaves that to
``knowzero worker`` or the server; Ctrl-C or a kill leaves the rest queued, never half a file).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import re
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import typer
import uvicorn
from sqlalchemy.exc import OperationalError

from knowzero import __version__
from knowzero.api.app import create_app
from knowzero.config import Settings
from knowzero.eval.conversation import conversation_command
from knowzero.eval.documents import documents_command
from knowzero.eval.factcheck import run_factcheck, run_paraphrases
from knowzero.eval.knowledge import NEGATIVES, compare_offline, run_conflicts, run_demo, run_knowledge, run_seeds
from knowzero.eval.learning import learning_command
from knowzero.eval.llmuse import PROVIDER_HELP, cli_provider
from knowzero.eval.load import run_load
from knowzero.eval.report import TASKS, run_report
from knowzero.eval.routing import routing_command
from knowzero.eval.scale import run_scale
from knowzero.eval.service import service_command
from knowzero.graph.builder import build_graph
from knowzero.knowledge.answer.pipeline import answer_in_either
from knowzero.knowledge.cli import fail, ingest_command, knowledge_base, print_json
from knowzero.knowledge.ingest.embedqueue import WorkProgress, run_worker
from knowzero.knowledge.names import COLLECTION_PATTERN
from knowzero.learning.cli import learn_command
from knowzero.llm.scripted import MODES, ScriptedProvider
from knowzero.llm.server import create_app as llm_app
from knowzero.persistence.db import make_engine
from knowzero.remote import ServerError, ask_at, client_url, find_server, record_server
from knowzero.service.identity import announce_keys, refuse_demo_keys
from knowzero.service.store import DEMO_USERS, SqlStore
from knowzero.wiring import build_deps

app = typer.Typer(help="KnowZero: offline-first knowledge assistant.", no_args_is_help=True, add_completion=False)
eval_app = typer.Typer(help="Benchmarks (not timed tests). Each prints one JSON object last with --json.",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")
bench_app = typer.Typer(help="Scale benchmarks (commands, not timed tests).", no_args_is_help=True)
app.add_typer(bench_app, name="bench")
dev_app = typer.Typer(help="Developer tools (a scripted chat model for measuring the LLM path).", no_args_is_help=True)
app.add_typer(dev_app, name="dev")
app.command("ingest")(ingest_command)


DEMO_USER_IDS = frozenset(u[0] for u in DEMO_USERS)


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


@app.command(help="Start the API and web UI (ingests the bundled demo knowledge base on first start).\n\n"
                  "Everything (indexes, SQLite files, uploads, API key hashes) lives in the data directory "
                  "KNOWZERO_DATA_DIR (default ./.knowzero); point it at an empty folder to start fresh: "
                  "KNOWZERO_DATA_DIR=/tmp/kz knowzero serve. Every setting is a KNOWZERO_* variable (README).")
def serve(host: str = typer.Option(None, help="Bind address (default KNOWZERO_HOST or 127.0.0.1)."),
          port: int = typer.Option(None, min=1, max=65535, help="Port, 1-65535 (default KNOWZERO_PORT or 8000)."),
          workers: int = typer.Option(1, min=1, max=64,
                                      help="API worker processes sharing one port (more than 1 needs PostgreSQL and "
                                           "Redis: KNOWZERO_DATABASE_URL, KNOWZERO_REDIS_URL).")) -> None:
    """Start the API and web UI (ingests the bundled demo knowledge base on first start); a bad or busy
    port is one ``error:`` line (exit 2) before anything is announced or a key is issued."""
    s = Settings()
    host, port = host or s.host, port or s.port
    if not 1 <= port <= 65535:
        fail(f"KNOWZERO_PORT must be 1-65535 (got {port})")
    if workers > 1 and not (s.is_postgres and s.redis_url):
        fail(f"--workers {workers} needs the shared engines: set KNOWZERO_DATABASE_URL to a PostgreSQL database "
              "and KNOWZERO_REDIS_URL (thread locks). Embedded mode (SQLite) serves with one worker: its turn "
              "locks live in the process, so two workers could run the same conversation at once.")
    sock = _bind(host, port)  # before anything is announced: a busy port is the first and only message
    store = SqlStore(make_engine(s.db_url))
    if s.env == "production":
        refuse_demo_keys(store, echo=lambda line: typer.echo(line, err=True))
    announce_keys(store, fixed_keys=s.demo_keys)
    typer.echo(f"KnowZero {__version__} on http://{host}:{port}  ({workers} worker{'s' if workers > 1 else ''}; "
               f"data: {s.db_url.split('@')[-1] if s.is_postgres else s.data_dir})", err=True)
    with _recorded(s, host, port):
        _run(s, sock, host, port, workers)


def _run(s: Settings, sock: socket.socket, host: str, port: int, workers: int) -> None:
    if workers > 1:
        sock.close()  # uvicorn's supervisor binds the port itself and shares it with its workers
        # Each worker process builds its own app from the same environment (uvicorn's factory mode).
        uvicorn.run("knowzero.api.app:create_app", factory=True, host=host, port=port, workers=workers,
                    log_level="warning")
    else:
        uvicorn.Server(uvicorn.Config(create_app(s), log_level="warning")).run(sockets=[sock])


@contextlib.contextmanager
def _recorded(s: Settings, host: str, port: int) -> Iterator[None]:
    """Note this server's URL in the data directory while it runs (``knowzero ask`` finds it there)."""
    path = record_server(s.data_path(), client_url(host, port))
    try:
        yield
    finally:
        path.unlink(missing_ok=True)


def _bind(host: str, port: int) -> socket.socket:
    """A listening-ready socket on host:port (as uvicorn binds one), or a one-line error and exit 2."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                          flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as exc:
        fail(f"cannot bind to host {host!r}: {exc}")
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(addr)
    except OSError as exc:
        sock.close()
        why = "already in use (another server, or another knowzero serve?)" if exc.errno == errno.EADDRINUSE else exc.strerror
        fail(f"cannot listen on {host}:{port}: {why}; choose another with --port")
    sock.set_inheritable(True)
    return sock


keys_app = typer.Typer(help="API keys: list users, issue a new key, revoke a key (keys are shown once; only hashes are kept).",
                       invoke_without_command=True)
app.add_typer(keys_app, name="keys")


def _user_store(*, seed: bool = True) -> SqlStore:
    """The app's user store; ``seed`` first creates the demo users and prints keys issued now (a
    fresh data directory). Commands check their arguments on an unseeded store first, so a failing
    one never issues (and so uses up) the once-shown keys."""
    store = SqlStore(make_engine(Settings().db_url))
    if seed:
        announce_keys(store, fixed_keys=Settings().demo_keys, hint=False)
    return store


@keys_app.callback()
def keys_list(ctx: typer.Context, json_out: bool = typer.Option(False, "--json", help="Print the users as JSON.")) -> None:
    """List users and whether they have a key (``knowzero keys``)."""
    if ctx.invoked_subcommand is not None:
        return
    users = _user_store().list_users()
    if json_out:
        print_json({"users": users})
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
    if _user_store(seed=False).get_user(user) is None and user not in DEMO_USER_IDS:
        if not name:
            fail(f"no user {user!r}; add --name (and --role) to create one")
        if role not in ("customer", "editor", "agent", "admin"):
            fail("--role must be one of customer, editor, agent, admin")
    known = _user_store(seed=False).get_user(user)
    if known is not None and known["key_revoked"]:
        fail(f"{user} was revoked; `knowzero keys restore {user}` lifts it and prints a new key")
    store = _user_store()
    if store.get_user(user) is None:
        store.upsert_user(user, name, role)
    key = store.issue_api_key(user)
    if json_out:
        print_json({"user_id": user, "api_key": key})
        return
    typer.echo(key)
    typer.echo(f"new key for {user} (shown once; the old key no longer works). "
               "Paste it into the web UI's sign-in dialog or send 'Authorization: Bearer <key>'.", err=True)


@keys_app.command("revoke")
def keys_revoke(user: str = typer.Argument(..., help="User id.")) -> None:
    """Revoke USER's key: signing in with it fails from now on."""
    store = _user_store(seed=False)  # nothing to seed: a user that does not exist yet has no key
    if store.get_user(user) is None:
        fail(f"no user {user!r}")
    if store.revoke_api_key(user):
        typer.echo(f"revoked {user}: the key no longer works and no new one is issued (not by `keys create`, "
                   f"not by a restart) until `knowzero keys restore {user}`", err=True)
    else:
        typer.echo(f"{user} was revoked already", err=True)


@keys_app.command("restore")
def keys_restore(user: str = typer.Argument(..., help="User id."),
                 json_out: bool = typer.Option(False, "--json")) -> None:
    """Lift USER's revocation and issue a new key (printed once)."""
    store = _user_store(seed=False)
    if store.get_user(user) is None:
        fail(f"no user {user!r}")
    key = store.restore_user(user)
    if json_out:
        print_json({"user_id": user, "api_key": key})
        return
    typer.echo(key)
    typer.echo(f"restored {user}; new key shown once", err=True)


@app.command()
def worker(batch: int = typer.Option(None, min=1, max=256,
                                     help="Chunks per model call (default KNOWZERO_EMBED_BATCH; PostgreSQL jobs hold "
                                          "at most that many, set at ingest)."),
           drain: bool = typer.Option(False, "--drain", help="Exit when the queue is empty instead of waiting."),
           json_out: bool = typer.Option(False, "--json", help="Print a summary as JSON when done.")) -> None:
    """Embed queued chunks (run any number, on any host that reaches the database; SIGTERM stops cleanly).

    SQLite: jobs in the knowledge base's own table, on one machine. PostgreSQL: a procrastinate
    worker on queue "embed"; a worker killed mid-batch is noticed by its missing heartbeat and its
    batch redone by another (KNOWZERO_EMBED_STALLED_S)."""
    s = Settings()
    kb = knowledge_base(s)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    typer.echo(f"worker: {kb.embedding_status()['pending']} embeddings pending (data: {s.db_url.split('@')[-1]})",
               err=True)
    last = [0.0]

    def tick(w: WorkProgress) -> None:
        if time.perf_counter() - last[0] > 5 or w.pending == 0:
            last[0] = time.perf_counter()
            eta = w.pending / w.rate if w.rate else 0
            typer.echo(f"worker: {w.embedded} embedded, {w.pending} pending, {w.rate:.1f}/s, ETA {eta:.0f}s", err=True)

    t0 = time.perf_counter()
    done = run_worker(kb.queue, lambda bodies: kb.encoder.passages(bodies), batch=batch or s.embed_batch,
                      drain=drain, stop=stop, progress=tick)
    if json_out:
        print_json({"embedded": done, "pending": kb.embedding_status()["pending"],
                     "embed_per_s": round(done / max(time.perf_counter() - t0, 1e-6), 2)})


@app.command()
def ask(question: str = typer.Argument(..., help="The question."),
        json_out: bool = typer.Option(False, "--json", help="One JSON object (answer, verdict, citations, …)."),
        local: bool = typer.Option(False, "--local", help="Load the models here even if a server is running."),
        server: str = typer.Option(None, "--server", help="Ask the server at this URL (default KNOWZERO_URL, else the "
                                                          "one `knowzero serve` recorded in the data directory, else "
                                                          "KNOWZERO_HOST:KNOWZERO_PORT); a named server that does not "
                                                          "answer is an error, never a silent local run."),
        collection: list[str] = typer.Option([], "--collection", "-c",
                                             help="Answer from this collection only (repeat for several; default: "
                                                  "your own documents, the demo only while it is all there is).")) -> None:
    """Answer from the ingested knowledge base (or the bundled demo one).

    When a server runs (``knowzero serve`` on any port records its URL in the data directory), the
    question goes to it: its models are loaded, so the answer takes milliseconds instead of seconds.
    Which one answered is said on stderr.
    """
    if not question.strip():
        fail("the question is empty")
    bad = [c for c in collection if not re.fullmatch(COLLECTION_PATTERN, c)]
    if bad:
        fail(f"--collection {bad[0]!r}: 1-64 letters, digits, '_', '-' or Chinese characters")
    if server is not None and not re.fullmatch(r"https?://\S+", server.strip()):
        fail(f"--server {server!r}: give a URL such as http://127.0.0.1:18200")
    s = Settings()
    out = None
    if not local:
        found = find_server(s, server)
        if found.url is not None:
            try:
                out = ask_at(found.url, question, collections=collection)
            except ServerError as exc:
                fail(str(exc))
            typer.echo(f"answered by the server at {found.url}", err=True)
        elif found.explicit:
            fail(f"no KnowZero server answers at {found.tried[0]} (--server / KNOWZERO_URL); start it with "
                  "`knowzero serve`, or add --local to load the models here")
        else:
            typer.echo(f"no server found (tried {', '.join(found.tried)}); loading the models here — start "
                       "`knowzero serve` (or point --server / KNOWZERO_URL at yours) for millisecond answers", err=True)
    if out is None:
        deps = build_deps(s, classifier=False)
        kb = deps.need_kb()
        if kb.is_empty():
            typer.echo("ingesting the bundled demo knowledge base…", err=True)
        kb.ensure_demo()
        out = asyncio.run(answer_in_either(question, deps.scoped(collection).knowledge(), deps.lexicon)).to_public()
    if json_out:
        print_json(out)
        return
    typer.echo(out["answer"])
    for i, c in enumerate(out["citations"], 1):
        typer.echo(f"  [{i}] {c['source']} [{c['start']}:{c['end']}] “{c['quote'][:80]}”")
    typer.echo(f"verdict: {out['verdict']} — {out['verdict_reason']}  ({out['elapsed_ms']:.0f} ms, domain {out['domain']})")


@app.command()
def graph() -> None:
    """Print the graph as mermaid."""
    typer.echo(build_graph().compile().get_graph(xray=1).draw_mermaid())


def _parse_seeds(seeds: str | None) -> list[int]:
    if seeds is None:
        return []
    try:
        out = [int(x) for x in seeds.replace(" ", "").split(",") if x]
    except ValueError:
        out = []
    if not out:
        fail(f"--seeds must be comma-separated integers, got {seeds!r}")
    return out


def _echo_result(r: dict[str, Any], json_out: bool, rows: Path | None = None) -> None:
    if rows is not None:
        with rows.open("w", encoding="utf-8") as fh:
            for row in r.get("_rows", []):
                fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    r = {k: v for k, v in r.items() if not k.startswith("_")}
    if json_out:
        print_json(r)
    else:
        for k, v in r.items():
            typer.echo(f"{k}: {v}")


def _on_squad(squad: Path, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a benchmark over a SQuAD-format file; a file that is not one is a clear CLI error."""
    try:
        return run()
    except json.JSONDecodeError as exc:
        fail(f"{squad}: not a SQuAD-format file ({exc})")
    except KeyError as exc:
        fail(f"{squad}: not a SQuAD-format file (missing {exc})")
    except ValueError as exc:
        fail(f"{squad}: {exc}")
    except OperationalError as exc:
        fail(f"cannot use the database: {str(exc.orig).strip().splitlines()[0] if exc.orig else exc}")
    raise AssertionError("unreachable: _fail exits")


def _tick(done: int, total: int) -> None:
    typer.echo(f"  {done}/{total}", err=True)


ROWS_HELP = "Also write one JSON line per question (reply, verdict, coverage …) to this file."


@eval_app.command("knowledge")
def eval_knowledge(squad: Path = typer.Option(None, exists=True, dir_okay=False, help="SQuAD-format JSON file (CMRC, DRCD)."),
                   demo: bool = typer.Option(False, "--demo", help="Use the bundled demo KB and its 48 questions instead "
                                                             "(--limit and --seed sample them)."),
                   limit: int = typer.Option(None, min=1, help="Ask at most N questions (seeded sample)."),
                   unanswerable_share: float = typer.Option(0.0, min=0.0, max=0.9,
                                                            help="Share of questions whose gold paragraph is removed."),
                   negatives: str = typer.Option("random", help="How questions are made unanswerable: random | "
                                                 "same-article (near miss: the article's other paragraphs stay) | "
                                                 "same-paragraph (the paragraph without its answer sentences stays)."),
                   seed: int = typer.Option(3, help="Seed of the sample and of the removal."),
                   seeds: str = typer.Option(None, help="Several seeds, e.g. 1,5,11: reports per_seed and the worst."),
                   data_dir: Path = typer.Option(None, help="Where to keep the benchmark's knowledge base."),
                   rows: Path = typer.Option(None, dir_okay=False, help=ROWS_HELP),
                   provider: str = typer.Option(None, help=PROVIDER_HELP),
                   compare: bool = typer.Option(False, "--compare-offline",
                                                help="Also run the same questions offline and print the per-metric "
                                                     "difference (model minus offline)."),
                   database_url: str = typer.Option("", help="Run the knowledge base in PostgreSQL mode in this "
                                                    "database (postgresql+psycopg://…); vectors already computed in "
                                                    "--data-dir are reused. Default: embedded SQLite in --data-dir."),
                   json_out: bool = typer.Option(False, "--json")) -> None:
    """Retrieval + cited answers + abstention on SQuAD-format data, beside a single-agent baseline."""

    if negatives not in NEGATIVES:
        fail(f"--negatives must be one of {', '.join(NEGATIVES)}")
    chat = cli_provider(provider)
    if compare and chat is None:
        fail("--compare-offline needs a model: give --provider openai|local (or configure KNOWZERO_LLM_PROVIDER)")
    if database_url and not database_url.startswith(("postgresql://", "postgresql+psycopg://")):
        fail("--database-url must be a PostgreSQL URL (postgresql+psycopg://user@host:5432/db)")
    if database_url and demo:
        fail("--database-url runs with --squad, not --demo")
    if demo:
        if unanswerable_share or negatives != "random" or seeds:
            fail("--demo asks its own questions (8 of 48 unanswerable): --unanswerable-share, --negatives and "
                  "--seeds apply to --squad; --limit and --seed sample the demo's questions")
        r = run_demo(data_dir=data_dir, provider=chat, limit=limit, seed=seed)
        _echo_result(compare_offline(r, run_demo(data_dir=data_dir, limit=limit, seed=seed)) if compare else r,
                     json_out, rows)
        return
    if squad is None:
        fail("give --squad FILE or --demo")
    seed_list = _parse_seeds(seeds)
    if compare and seed_list:
        fail("--compare-offline runs one seed: give --seed, not --seeds")
    kwargs: dict[str, Any] = {"limit": limit, "unanswerable_share": unanswerable_share, "data_dir": data_dir,
                              "progress": _tick, "negatives": negatives, "database_url": database_url}
    r = _on_squad(squad, lambda: run_seeds(squad, seed_list, provider=chat, **kwargs) if seed_list
                  else run_knowledge(squad, seed=seed, provider=chat, **kwargs))
    if compare:
        r = compare_offline(r, _on_squad(squad, lambda: run_knowledge(squad, seed=seed, baseline=False, **kwargs)))
    _echo_result(r, json_out, rows)


@eval_app.command("conflicts")
def eval_conflicts(squad: Path = typer.Option(..., exists=True, dir_okay=False, help="SQuAD-format JSON file (CMRC, DRCD)."),
                   limit: int = typer.Option(100, min=1, help="Conflict pairs to build (seeded)."),
                   seed: int = typer.Option(3),
                   data_dir: Path = typer.Option(None, help="Where to keep the benchmark's knowledge base."),
                   rows: Path = typer.Option(None, dir_okay=False, help=ROWS_HELP),
                   provider: str = typer.Option(None, help=PROVIDER_HELP),
                   json_out: bool = typer.Option(False, "--json")) -> None:
    """Synthetic conflicting sources: a paragraph and a copy with its answer swapped (conflicts_named,
    false_conflict_rate on as many ordinary questions)."""

    chat = cli_provider(provider)
    r = _on_squad(squad, lambda: run_conflicts(squad, limit=limit, seed=seed, data_dir=data_dir,
                                               progress=_tick, provider=chat))
    _echo_result(r, json_out, rows)


@eval_app.command("factcheck")
def eval_factcheck(halueval: Path = typer.Option(None, exists=True, dir_okay=False, help="HaluEval QA JSONL."),
                   paraphrase: Path = typer.Option(None, exists=True, dir_okay=False,
                                                   help="SQuAD-format file to build the paraphrase and yes/no sets from."),
                   limit: int = typer.Option(None, min=1, help="HaluEval lines, or paraphrase questions (default 100)."),
                   seed: int = typer.Option(3),
                   rows: Path = typer.Option(None, dir_okay=False, help=ROWS_HELP),
                   provider: str = typer.Option(None, help=PROVIDER_HELP + " With a model, its judge runs on every "
                                                "verdict as in an answer; the offline figures and the difference follow."),
                   json_out: bool = typer.Option(False, "--json")) -> None:
    """The checker on HaluEval QA (accept right answers, reject hallucinated ones) or on the rule-made
    paraphrase and yes/no sets (--paraphrase)."""

    if (halueval is None) == (paraphrase is None):
        fail("give one of --halueval FILE or --paraphrase FILE")
    chat = cli_provider(provider)
    if paraphrase is not None:
        try:
            r = run_paraphrases(paraphrase, limit=limit or 100, seed=seed, provider=chat)
        except json.JSONDecodeError as exc:
            fail(f"{paraphrase}: not a SQuAD-format file ({exc})")
        except KeyError as exc:
            fail(f"{paraphrase}: not a SQuAD-format file (missing {exc})")
        except ValueError as exc:
            fail(f"{paraphrase}: {exc}")
        _echo_result(r, json_out, rows)
        return
    try:
        r = run_factcheck(halueval, limit, provider=chat)
    except (ValueError, KeyError) as exc:
        fail(f"{halueval}: not a HaluEval QA file ({exc})")
    _echo_result(r, json_out)


@eval_app.command("report")
def eval_report(out: Path = typer.Option(..., help="Directory for report.md, results.json and the PNG plots."),
                data: Path = typer.Option(None, help="Folder with the public data sets (cmrc2018/, drcd/, halueval/, "
                                          "clinc150/); default: KNOWZERO_EVAL_DATA or ../shared/eval-data."),
                limit: int = typer.Option(200, min=1, help="Questions per knowledge run (bounded by default)."),
                seeds: str = typer.Option("1,5,11", help="Seeds of the knowledge runs (the worst is reported)."),
                unanswerable_share: float = typer.Option(0.2, min=0.05, max=0.9),
                tasks: str = typer.Option("knowledge,conflicts,paraphrase,factcheck,routing",
                                          help="Comma-separated subset of the benchmarks to run."),
                data_dir: Path = typer.Option(None, help="Where to keep the benchmarks' knowledge bases."),
                provider: str = typer.Option(None, help=PROVIDER_HELP)) -> None:
    """Run every benchmark there is data for and write one Markdown page with tables and plots."""

    seed_list = _parse_seeds(seeds)
    task_list = [t for t in tasks.replace(" ", "").split(",") if t]
    unknown = sorted(set(task_list) - set(TASKS))
    if unknown or not task_list:
        fail(f"--tasks must be a subset of {','.join(TASKS)} (got {tasks!r})")
    chat = cli_provider(provider)
    try:
        page = run_report(out, data=data, limit=limit, seeds=seed_list, unanswerable_share=unanswerable_share,
                          data_dir=data_dir, tasks=task_list, say=lambda m: typer.echo(m, err=True), provider=chat)
    except (FileNotFoundError, ImportError) as exc:
        fail(str(exc))
    typer.echo(str(page))


@bench_app.command("scale")
def bench_scale(chunks: str = typer.Option("1000,10000", help="Comma-separated corpus sizes in chunks."),
                squad: list[Path] = typer.Option(..., exists=True, dir_okay=False,
                                                 help="SQuAD-format files for paragraphs and questions (repeatable)."),
                database_url: str = typer.Option("", help="PostgreSQL server URL (a fresh database per size)."),
                questions: int = typer.Option(50, min=1, help="Questions per size (from each file)."),
                embed_sample: int = typer.Option(48, min=4, max=5000,
                                                 help="Chunks each worker embeds in the embedding-rate measurement."),
                json_out: bool = typer.Option(False, "--json")) -> None:
    """Ingest rate, embedding rate, query latency, worker memory and cold start per corpus size."""
    try:
        sizes = [int(x) for x in chunks.split(",") if x.strip()]
    except ValueError:
        fail("--chunks: comma-separated integers")
    r = run_scale(sizes, squad, database_url=database_url, questions=questions, embed_sample=embed_sample,
                  progress=lambda m: typer.echo(m, err=True))
    if json_out:
        print_json(r)
    else:
        typer.echo(json.dumps(r, ensure_ascii=False, indent=2))


@bench_app.command("load")
def bench_load(sessions: int = typer.Option(50, min=1, max=1000, help="Simulated users talking at once."),
               turns: int = typer.Option(4, min=1, max=100, help="Turns per session."),
               think: str = typer.Option("1,3", help="MIN,MAX seconds a user thinks between turns (0,0: as fast "
                                                      "as the server answers, to find its capacity)."),
               workers: str = typer.Option("1,2", help="Comma-separated API worker counts to measure."),
               database_url: str = typer.Option("", help="PostgreSQL server URL (a fresh database per run); "
                                                         "needed for more than one worker."),
               redis_url: str = typer.Option("", help="Redis URL (thread locks); needed for more than one worker."),
               seed: int = typer.Option(0, help="Seed of the message mix and think times."),
               cost_turns: int = typer.Option(12, min=0, max=1000,
                                              help="After the load, turns of each kind one at a time: CPU ms per "
                                                   "turn by kind and a py-spy profile (0: skip)."),
               json_out: bool = typer.Option(False, "--json")) -> None:
    """SSE turns from many sessions against a real server with 1 and 2 workers: errors, latencies, CPU per turn."""
    try:
        counts = [int(x) for x in workers.split(",") if x.strip()]
    except ValueError:
        fail("--workers: comma-separated integers")
    if not counts or min(counts) < 1:
        fail("--workers: at least one count of 1 or more")
    try:
        low, high = (float(x) for x in think.split(","))
    except ValueError:
        fail("--think: MIN,MAX seconds, e.g. 1,3 or 0,0")
    if not 0 <= low <= high <= 60:
        fail("--think: 0 <= MIN <= MAX <= 60")
    r = run_load(sessions, turns, counts, database_url=database_url, redis_url=redis_url, seed=seed,
                 cost_turns=cost_turns, think=(low, high), progress=lambda m: typer.echo(m, err=True))
    if json_out:
        print_json(r)
    else:
        typer.echo(json.dumps(r, ensure_ascii=False, indent=2))


@dev_app.command("scripted-llm")
def dev_scripted_llm(mode: str = typer.Option("faithful", help="faithful | paraphrase | invent | refuse"),
                     port: int = typer.Option(8090, min=1, max=65535, help="Port on 127.0.0.1.")) -> None:
    """Serve the scripted, deterministic chat model (OpenAI-compatible) on 127.0.0.1:PORT/v1.

    Point an eval at it: KNOWZERO_LLM_BASE_URL=http://127.0.0.1:PORT/v1 KNOWZERO_LLM_MODEL=scripted
    knowzero eval knowledge --demo --provider openai --compare-offline --json
    """
    if mode not in MODES:
        fail(f"--mode must be one of {', '.join(MODES)}")
    model = ScriptedProvider(mode)
    typer.echo(f"scripted model ({mode}) on http://127.0.0.1:{port}/v1", err=True)
    uvicorn.run(llm_app(model, model_name=model.model), host="127.0.0.1", port=port, log_level="warning")


eval_app.command("routing")(routing_command)
eval_app.command("service")(service_command)
eval_app.command("learning")(learning_command)
eval_app.command("documents")(documents_command)
eval_app.command("conversation")(conversation_command)
app.command("learn")(learn_command)


def main() -> None:
    try:
        typer.main.get_command(app)(prog_name="knowzero")
    except KeyboardInterrupt:
        sys.exit(130)
    except OperationalError as exc:  # a database that is missing or unreachable: a message, not a traceback
        first = str(exc.orig).strip().splitlines()[0] if exc.orig else str(exc)
        typer.echo(f"error: cannot use the database ({first}); check KNOWZERO_DATABASE_URL and that the "
                   "database exists (createdb NAME)", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
