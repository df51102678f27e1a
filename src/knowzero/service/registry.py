"""The tool registry: typed arguments, safe vs sensitive, one place to look tools up.

A tool is a plain function ``fn(args: ArgsModel, ctx: ToolContext) -> dict`` registered with a
pydantic model for its arguments. ``sensitive`` tools (money, irreversible actions) run only
after approval, in their own node behind an interrupt: :func:`run_tool` refuses them unless the
context says the caller confirmed (``ctx.confirmed_by``), which only the confirmation node sets. Tool errors are returned as
``{"ok": False, "error": {...}}`` results, never raised into the graph.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from knowzero.config import Settings
from knowzero.errors import KnowZeroError
from knowzero.service.store import OrderSystem, SqlStore


@dataclass
class ToolContext:
    """Who calls a tool, on which thread, and the stores it may use (from the dependency container)."""

    user_id: str
    role: str
    thread_id: str
    settings: Settings
    store: SqlStore
    """Tickets, handoffs, refunds' audit trail, the review queue."""
    orders: OrderSystem
    """Orders and refunds (the demo store, or a team's own order system)."""
    lang: str = "zh"
    """Reply language of the tool's ``summary``."""
    confirmed_by: str | None = None
    """Set by the confirmation node after the customer said yes (sensitive tools check it)."""


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
    return _REGISTRY.get(name)


def list_tools() -> list[ToolSpec]:
    return list(_REGISTRY.values())


SIGN_IN = ("这项服务需要登录后使用，请先登录（使用您的 API key）。", "Please sign in (with your API key) to use this service.")
"""The refusal for an anonymous caller (Chinese, English): every tool message follows ``ctx.lang``."""


def run_tool(name: str, raw_args: dict[str, Any], ctx: ToolContext) -> dict[str, Any]:
    """Validate arguments and run a tool; every failure becomes an error result."""
    spec = get_tool(name)
    if spec is None:
        return {"ok": False, "error": {"code": "unknown_tool", "message": (
            f"没有名为 {name} 的工具。" if ctx.lang == "zh" else f"There is no tool named {name}.")}}
    if spec.requires_account and ctx.role == "anonymous":
        return {"ok": False, "error": {"code": "unauthorized", "message": SIGN_IN[0 if ctx.lang == "zh" else 1]}}
    if spec.sensitive and ctx.confirmed_by != ctx.user_id:
        # Sensitive tools run only after the customer confirmed in the approval node (an interrupt);
        # no path, prompt or document can call one directly.
        return {"ok": False, "error": {"code": "needs_confirmation", "message": (
            "这项操作需要客户本人确认后才能执行。" if ctx.lang == "zh" else "This action needs the customer's confirmation first.")}}
    try:
        args = spec.args_model.model_validate(raw_args)
    except ValidationError as exc:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) for e in exc.errors())
        return {"ok": False, "error": {"code": "invalid_arguments", "message": (
            f"参数有误：{fields}" if ctx.lang == "zh" else f"Invalid arguments: {fields}")}}
    try:
        result = spec.fn(args, ctx)
    except KnowZeroError as exc:
        return {"ok": False, "error": {"code": exc.code, "message": exc.message}}
    return {"ok": True, **result} if "ok" not in result else result
