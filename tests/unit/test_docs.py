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
