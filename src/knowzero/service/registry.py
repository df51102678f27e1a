"""The tool registry: typed arguments, safe vs sensitive, one place to look tools up.

A tool is a plain function ``fn(args: ArgsModel, ctx: ToolContext) -> dict`` registered with a
pydantic model for its arguments. ``sensitive`` tools (money, irreversible actions) run only
after approval, in their own node behind an interrupt. Tool errors are returned as
``{"ok": False, "error": {...}}`` results, never raised into the graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from knowzero.errors import KnowZeroError


@dataclass
class ToolContext:
    user_id: str
    role: str
    thread_id: str
    extras: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    args_model: type[BaseModel]
    fn: Callable[[Any, ToolContext], dict[str, Any]]
    sensitive: bool = False
    requires_account: bool = True
    intents: tuple[str, ...] = ("realtime",)


_REGISTRY: dict[str, ToolSpec] = {}


def register(spec: ToolSpec) -> ToolSpec:
    if spec.name in _REGISTRY and _REGISTRY[spec.name] is not spec:
        raise ValueError(f"tool {spec.name!r} is already registered")
    _REGISTRY[spec.name] = spec
    return spec


def tool(name: str, description: str, args_model: type[BaseModel], *, sensitive: bool = False,
         requires_account: bool = True, intents: tuple[str, ...] = ("realtime",)) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator form of :func:`register`."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        register(ToolSpec(name, description, args_model, fn, sensitive, requires_account, intents))
        return fn

    return deco


def get_tool(name: str) -> ToolSpec | None:
    _load_builtin()
    return _REGISTRY.get(name)


def list_tools() -> list[ToolSpec]:
    _load_builtin()
    return list(_REGISTRY.values())


def _load_builtin() -> None:
    try:
        import knowzero.service.tools  # noqa: F401 - registers the built-in tools
    except ImportError as exc:
        if exc.name != "knowzero.service.tools":
            raise


def run_tool(name: str, raw_args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
    """Validate arguments and run a tool; every failure becomes an error result."""
    spec = get_tool(name)
    if spec is None:
        return {"ok": False, "error": {"code": "unknown_tool", "message": f"no tool named {name}"}}
    if spec.requires_account and ctx.role == "anonymous":
        return {"ok": False, "error": {"code": "unauthorized", "message": "please sign in to use this service"}}
    try:
        args = spec.args_model.model_validate(raw_args)
    except ValidationError as exc:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors())
        return {"ok": False, "error": {"code": "invalid_arguments", "message": f"invalid arguments: {fields}"}}
    try:
        result = spec.fn(args, ctx)
    except KnowZeroError as exc:
        return {"ok": False, "error": {"code": exc.code, "message": exc.message}}
    return {"ok": True, **result} if "ok" not in result else result
