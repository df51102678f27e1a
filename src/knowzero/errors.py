"""One exception hierarchy and one JSON error shape.

    KnowZeroError                      code            HTTP
    ├── InvalidInput                   invalid_input   422
    ├── NotFound                       not_found       404
    ├── Forbidden                      forbidden       403
    ├── Unauthorized                   unauthorized    401
    ├── Conflict                       conflict        409   (thread busy, duplicate action)
    ├── IngestError                    ingest_error    422   (one bad file; the run goes on)
    │   └── RefusedDocument            ingest_error    422   (knowledge/ingest/parsers.py: XML with a DTD or entities)
    │       └── DocumentTooLarge       too_large       413   (… and a PayloadTooLarge: a file past a parsing limit)
    ├── PayloadTooLarge                too_large       413   (a request body over its cap)
    ├── RateLimited                    rate_limited    429   (with a Retry-After header)
    └── ProviderError                  llm_unavailable 503   (LLM timeout / 5xx / invalid JSON;
                                                              callers fall back and log it)

The wire shape of every error (HTTP body and SSE ``error`` event) is
``{"error": {"code": str, "message": str, "details": list | None}}``: codes are stable,
messages are for people, and nothing internal (tracebacks, SQL, paths) is ever put in them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any


class KnowZeroError(Exception):
    code = "internal_error"
    status = 500

    def __init__(self, message: str = "", details: list[Any] | None = None) -> None:
        super().__init__(message or self.code)
        self.message = message or self.code
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return error_body(self.code, self.message, self.details)


class InvalidInput(KnowZeroError):
    code, status = "invalid_input", 422


class NotFound(KnowZeroError):
    code, status = "not_found", 404


class Forbidden(KnowZeroError):
    code, status = "forbidden", 403


class Unauthorized(KnowZeroError):
    code, status = "unauthorized", 401


class Conflict(KnowZeroError):
    code, status = "conflict", 409


class IngestError(KnowZeroError):
    code, status = "ingest_error", 422


class PayloadTooLarge(KnowZeroError):
    code, status = "too_large", 413


class RateLimited(KnowZeroError):
    code, status = "rate_limited", 429

    def __init__(self, message: str = "", retry_after_s: int = 1) -> None:
        super().__init__(message or "too many requests; try again shortly")
        self.retry_after_s = max(1, int(retry_after_s))
        """Seconds until the caller may try again (sent as ``Retry-After``)."""


class ProviderError(KnowZeroError):
    code, status = "llm_unavailable", 503


class ProviderCoolingDown(ProviderError):
    """Refused without contacting the model: it timed out recently and is in its cool-down. Not a call
    (a benchmark counts it apart from the calls: ``llm_refused``)."""


_FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")
MAX_FIELD_ERRORS = 20
"""A 422 names at most this many fields (a body of 40,000 unknown keys is not answered with 40,000 errors)."""


def field_errors(errors: Sequence[Mapping[str, Any]]) -> list[dict[str, str]]:
    """pydantic's errors as ``{field, message}`` details: the first :data:`MAX_FIELD_ERRORS`, each
    name and message cut to 200 characters, and never the caller's value (pydantic's ``input``).

    >>> field_errors([{"loc": ("body", "k" * 300), "msg": "Extra inputs are not permitted", "input": 1}])[0]["field"][-3:]
    'kk…'
    """
    out = []
    for e in errors[:MAX_FIELD_ERRORS]:
        msg = str(e.get("msg", "invalid")).removeprefix("Value error, ")
        loc = [str(p) for p in e.get("loc", ()) if p != "body"]
        if e.get("type") == "extra_forbidden" and loc and not _FIELD_NAME.fullmatch(loc[-1]):
            loc[-1] = "(unknown field)"  # a key the caller made up is not repeated back unless it is a plain name
        field = ".".join(loc) or (msg.split(":")[0] if ":" in msg else "")
        out.append({"field": _cut(field), "message": _cut(msg)})
    if len(errors) > MAX_FIELD_ERRORS:
        out.append({"field": "", "message": f"and {len(errors) - MAX_FIELD_ERRORS} more errors"})
    return out


def invalid_fields(errors: Sequence[Mapping[str, Any]]) -> InvalidInput:
    """One InvalidInput naming the (bounded) fields of pydantic's errors."""
    details = field_errors(errors)
    fields = ", ".join(dict.fromkeys(d["field"] for d in details if d["field"])) or "request"
    return InvalidInput(f"invalid input: {fields}", details)


def _cut(text: str, limit: int = 200) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def status_for(code: str) -> int:
    """The HTTP status of an error code (an SSE ``error`` event turned into a response); 500 if unknown.

    >>> status_for("llm_unavailable"), status_for("internal_error")
    (503, 500)
    """
    todo: list[type[KnowZeroError]] = [KnowZeroError]
    while todo:
        cls = todo.pop()
        if cls.code == code:
            return cls.status
        todo.extend(cls.__subclasses__())
    return KnowZeroError.status


def error_body(code: str, message: str, details: list[Any] | None = None) -> dict[str, Any]:
    """The one error shape (HTTP bodies and SSE error events)."""
    return {"error": {"code": code, "message": message, "details": details}}


ZH_BY_CODE = {
    "invalid_input": "输入有误，请检查后重试。", "not_found": "找不到要访问的内容（可能已删除，或不属于当前账号）。",
    "forbidden": "当前账号没有权限执行这个操作。", "unauthorized": "需要登录：请用 API 密钥登录后再试。",
    "conflict": "这个会话正在处理上一条消息，或并不在等待这个操作，请稍后再试。", "ingest_error": "这个文件无法导入。",
    "rate_limited": "请求太频繁，请稍后再试。", "llm_unavailable": "语言模型暂时不可用，已改用离线方式。",
    "internal_error": "服务器处理时出错了，会话已保留，可以重试。",
}
"""An error's code in Chinese, for a reply in a Chinese conversation whose message was written in English."""


def in_language(code: str, message: str, zh: bool) -> str:
    """The text of an error for the user: its message, unless the conversation is Chinese and the
    message is not (then the code's Chinese text) — English never shows inside a Chinese reply.

    >>> in_language("not_found", "document d1 not found", zh=True)
    '找不到要访问的内容（可能已删除，或不属于当前账号）。'
    >>> in_language("invalid_input", "订单号有误", zh=True), in_language("not_found", "gone", zh=False)
    ('订单号有误', 'gone')
    """
    if not zh or any("\u4e00" <= ch <= "\u9fff" for ch in message):
        return message
    return ZH_BY_CODE.get(code, ZH_BY_CODE["internal_error"])
