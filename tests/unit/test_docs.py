"""Docs that cannot drift: every setting is in the README, every CLI command and option in docs/cli.md."""

from __future__ import annotations

import re
from pathlib import Path

import typer.main

from knowzero.cli import app
from knowzero.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_every_setting_is_documented_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [f"KNOWZERO_{name.upper()}" for name in Settings.model_fields
               if f"KNOWZERO_{name.upper()}" not in readme]
    assert missing == [], f"undocumented settings: {missing}"


def _commands(group, prefix: str = ""):  # type: ignore[no-untyped-def]
    for name, cmd in group.commands.items():
        full = f"{prefix} {name}".strip()
        if hasattr(cmd, "commands"):
            yield from _commands(cmd, full)
        else:
            yield full, cmd


def test_every_cli_command_and_option_is_documented() -> None:
    doc = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    missing = []
    for name, cmd in _commands(typer.main.get_command(app)):
        if f"knowzero {name}" not in doc:
            missing.append(f"knowzero {name}")
        for p in cmd.params:
            for opt in p.opts:
                if opt.startswith("--") and not re.search(re.escape(opt) + r"\b", doc):
                    missing.append(f"knowzero {name} {opt}")
    assert missing == [], f"undocumented in docs/cli.md (run scripts/gen_cli_docs.py): {missing}"


def test_every_route_has_its_row_in_the_security_table() -> None:
    """docs/security.md lists every route of the app, one row each, saying what the route declares
    (who, the object it reaches and the rule, whether anonymous calls are rate limited)."""
    from starlette.routing import Route

    from knowzero.api.access import declared
    from knowzero.api.app import all_routes, create_app

    doc = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    rows = {m.group(1): [c.strip() for c in m.group(2).split("|")]
            for m in re.finditer(r"^\| `([A-Z]+ /[^`]*)` \|(.*)\|\s*$", doc, re.M)}
    app = create_app(Settings(), warm=False)
    problems = []
    routes = set()
    for route in all_routes(app):
        policy = declared(route) if isinstance(route, Route) else None
        if policy is None:
            continue  # static pages and /openapi.json: the table's last row
        for method in sorted((route.methods or set()) - {"HEAD"}):
            key = f"{method} {route.path}"
            routes.add(key)
            row = rows.get(key)
            if row is None:
                problems.append(f"{key}: no row")
                continue
            owned = f"{policy['owns'].replace('_', ' ')} ({policy['rule']})" if policy["owns"] else ""
            want = [policy["who"], owned, {True: "yes", "write": "writes"}.get(policy["limited"], "")]
            if row[:3] != want:
                problems.append(f"{key}: the row says {row[:3]}, the route declares {want}")
    problems += [f"{key}: a row for a route the app does not have" for key in sorted(set(rows) - routes)]
    assert problems == [], "docs/security.md's route table is out of date:\n" + "\n".join(problems)
