"""compose.yaml (production: PostgreSQL with pgvector, Redis, N API workers, M embedding workers)
refers only to commands, options and settings that exist, and configures the multi-worker mode
``knowzero serve --workers N`` accepts. (``docker compose config`` is not available on the test
machines; this checks the file against the code instead.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import typer.main
import yaml

from knowzero.cli import app
from knowzero.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def _defaults(value: str) -> str:
    """Compose interpolation with every variable unset: ``${X:-d}`` → ``d``."""
    return re.sub(r"\$\{[A-Z_]+:-([^}]*)\}", r"\1", value)


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))


def _check_command(argv: list[str]) -> Any:
    """Parse ``argv`` with the real CLI (an unknown command or option raises); the parsed context."""
    assert argv[0] == "knowzero"
    root: Any = typer.main.get_command(app)
    cmd = root.get_command(root.make_context("knowzero", [argv[1]]), argv[1])
    assert cmd is not None, f"no command {argv[1]!r}"
    return cmd.make_context(argv[1], [_defaults(a) for a in argv[2:]])


def test_services_and_images() -> None:
    c = _compose()
    assert set(c["services"]) == {"db", "redis", "api", "worker"}
    assert c["services"]["db"]["image"].startswith("pgvector/pgvector:")
    assert c["services"]["redis"]["image"].startswith("redis:")
    assert int(_defaults(str(c["services"]["worker"]["deploy"]["replicas"]))) >= 1
    for name in ("api", "worker"):
        svc = c["services"][name]
        assert svc["build"] == "." and set(svc["depends_on"]) == {"db", "redis"}


def test_commands_and_settings_exist() -> None:
    c = _compose()
    fields = {f"KNOWZERO_{n.upper()}" for n in Settings.model_fields}
    for name in ("api", "worker"):
        svc = c["services"][name]
        env = {k: _defaults(str(v)) for k, v in svc["environment"].items()}
        assert set(env) <= fields, set(env) - fields
        s = Settings(**{k[len("KNOWZERO_"):].lower(): v for k, v in env.items()})
        assert s.is_postgres and s.redis_url and not s.embed_in_server
        ctx = _check_command(svc["command"])
        if name == "api":
            assert ctx.params["workers"] >= 2 and ctx.params["host"] == "0.0.0.0"


def test_dockerfile_default_command_exists() -> None:
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert cmd is not None
    _check_command(yaml.safe_load(cmd.group(1)))
    assert 'pip install --no-cache-dir ".[postgres]"' in text


def test_the_image_installs_the_postgres_extra() -> None:
    """The compose services run in PostgreSQL mode, whose embedding queue needs procrastinate."""
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert any(d.startswith("procrastinate==") for d in extras["postgres"])
