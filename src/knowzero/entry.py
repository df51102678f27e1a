"""The ``knowzero`` console script: a fast path for ``knowzero ask`` when a server is running.

Importing the full CLI loads the graph, the models' code and every evaluation module (seconds).
``knowzero ask "…"`` first asks a running KnowZero server (``--server``/``KNOWZERO_URL``, else the one
``knowzero serve`` recorded in the data directory, else the configured port; see :mod:`knowzero.remote`)
and prints the same output as the full command, saying on stderr which server answered; only when no
server answers (or with ``--local``/``--help``) does it load the full CLI. ``knowzero ingest …`` loads only
the knowledge base's command (:mod:`knowzero.knowledge.cli`: about a second to start instead of five).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from knowzero.config import Settings
from knowzero.remote import ServerError, ask_at, find_server


def print_answer(out: dict[str, Any], json_out: bool) -> None:
    if json_out:
        sys.stdout.write(json.dumps(out, ensure_ascii=False, default=str) + "\n")
        return
    print(out["answer"])
    for i, c in enumerate(out["citations"], 1):
        page = f" p. {c['page']}" if c.get("page") else ""
        print(f"  [{i}] {c['source']}{page} [{c['start']}:{c['end']}] “{c['quote'][:80]}”")
    print(f"verdict: {out['verdict']} — {out['verdict_reason']}  ({out['elapsed_ms']:.0f} ms, domain {out['domain']})")


def _fast_ask(argv: list[str]) -> bool:
    if not argv or argv[0] != "ask":
        return False
    rest = list(argv[1:])
    server = None
    for i, a in enumerate(rest):
        if a.startswith("--server="):
            server = rest.pop(i).split("=", 1)[1]
            break
        if a == "--server" and i + 1 < len(rest):
            server = rest[i + 1]
            del rest[i:i + 2]
            break
    flags = {a for a in rest if a.startswith("-")}
    words = [a for a in rest if not a.startswith("-")]
    if flags - {"--json"} or len(words) != 1 or not words[0].strip():
        return False  # --local, --help, bad arguments: the full command decides
    try:
        found = find_server(Settings(), server)
    except ValueError:  # invalid settings: the full command reports them
        return False
    if found.url is None:
        return False  # the full command says what it tried, and either fails (a named server) or loads the models
    try:
        out = ask_at(found.url, words[0])
    except ServerError:
        return False  # the full command reports the refusal
    print_answer(out, "--json" in flags)
    print(f"answered by the server at {found.url}", file=sys.stderr)
    return True


def main() -> None:
    if _fast_ask(sys.argv[1:]):
        return
    if sys.argv[1:2] == ["ingest"]:  # the knowledge base alone: no graph, API or evaluation modules to import
        from knowzero.knowledge.cli import ingest_app

        ingest_app(prog_name="knowzero")
        return
    from knowzero.cli import main as full_cli  # only now: the full CLI takes seconds to import

    full_cli()
