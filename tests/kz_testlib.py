"""Shared test helpers (imported as ``kz_testlib``; tests/conftest.py turns some into fixtures).

Named uniquely because several ``conftest.py`` files exist, so ``import conftest`` is ambiguous.

The product keeps no process-wide instances (the dependency container is built per app/command) and
caches nothing from the environment: ``Settings()`` reads ``KNOWZERO_*`` when it is made, so a
fixture sets the variables (:func:`knowzero_env`) and builds its settings inside. The intent classifier
fits its semantic head in ~2 s, so tests share one (:func:`shared_classifier`). Nothing here writes
outside pytest's temporary directories.

Markers (strict, see pyproject): ``slow`` (real models over the whole demo knowledge base,
subprocesses), ``postgres`` (127.0.0.1:5432 database ``test``), ``redis`` (127.0.0.1:6379).
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"


@functools.lru_cache(maxsize=1)
def shared_classifier():  # type: ignore[no-untyped-def]
    """One intent classifier for the whole test run (it is stateless apart from its result cache)."""
    from knowzero.routing.classifier import IntentClassifier

    return IntentClassifier.from_package_data()


_CONFIGURED = object()


def make_deps(settings: Any = None, *, kb: Any = None, provider: Any = _CONFIGURED, **changes: Any):  # type: ignore[no-untyped-def]
    """A dependency container as the app builds it, sharing the test run's classifier; ``kb``
    replaces the container's knowledge base (and the learning service's), ``provider`` the model
    the settings configure (``None``: offline)."""
    from dataclasses import replace

    from knowzero.learning.service import LearningService
    from knowzero.wiring import build_deps

    s = settings if settings is not None else kb.settings
    deps = (build_deps(s, classifier=shared_classifier()) if provider is _CONFIGURED
            else build_deps(s, provider=provider, classifier=shared_classifier()))
    provider = deps.provider
    if kb is not None:
        deps = replace(deps, kb=kb, learning=LearningService(kb.engine, kb=kb, provider=provider, settings=s))
    return replace(deps, **changes) if changes else deps


async def answer_dict(question: str, kb: Any, *, provider: Any = None, settings: Any = None,
                      collections: tuple[str, ...] = ()) -> dict[str, Any]:
    """The knowledge pipeline's answer as the graph's output dict (reply, verdict, citations …)."""
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.answer.pipeline import answer, passage_to_dict

    a = await answer(question, KnowledgeDeps(kb, settings or kb.settings, provider, collections))
    return {"reply": a.reply, "verdict": a.verdict.to_dict(), "citations": a.citations, "domain": a.domain,
            "agent_log": a.agent_log, "passages": [passage_to_dict(s) for s in a.passages],
            "elapsed_ms": a.elapsed_ms}


@contextlib.contextmanager
def knowzero_env(**env: str) -> Iterator[None]:
    """Set ``KNOWZERO_<NAME>`` variables for a block (any scope); ``Settings()`` inside it reads them."""
    mp = pytest.MonkeyPatch()
    try:
        for name in ("DATABASE_URL", "REDIS_URL", "LLM_PROVIDER"):
            mp.delenv(f"KNOWZERO_{name}", raising=False)
        for k, v in env.items():
            mp.setenv(f"KNOWZERO_{k.upper()}", v)
        yield
    finally:
        mp.undo()








# ----------------------------------------------------------------------------- knowledge bases
SMALL_DOCS: dict[str, str] = {
    "technical/零件A-XH-1001工艺说明.md": "# 零件A-XH-1001 工艺说明\n\n## 技术要求\n\n零件A的外圆公差为±0.01mm，表面粗糙度Ra0.8。\n",
    "technical/零件B-XH-1002工艺说明.md": "# 零件B-XH-1002 工艺说明\n\n## 技术要求\n\n零件B的外圆公差为±0.05mm，表面粗糙度Ra1.6。\n",
    "hr/请假制度.md": "# 请假制度\n\n## 年假\n\n员工工作满一年后每年享有5天带薪年假，年假需提前三天申请。\n",
}


def write_docs(root: Path, docs: Mapping[str, str]) -> Path:
    for rel, text in docs.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def make_kb(data_dir: Path, docs: Mapping[str, str] | None = None, **settings: Any):  # type: ignore[no-untyped-def]
    """A KnowledgeBase in ``data_dir`` with ``docs`` ingested from a folder named ``kbdocs``."""
    from knowzero.config import Settings
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=data_dir, **settings)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()  # an existing data directory: load what is already indexed
    if docs:
        folder = write_docs(data_dir.parent / f"{data_dir.name}-docs" / "kbdocs", docs)
        report = kb.ingest_paths([folder])
        assert not report.failed, report.failed
    return kb








def copy_data_dir(src: Path, dst: Path) -> Path:
    """A private copy of a data directory (SQLite files with their WAL)."""
    shutil.copytree(src, dst)
    return dst


# ----------------------------------------------------------------------------- scripted chat model
class ScriptedProvider:
    """A fake chat model: answers from a script, records prompts.

    Each script item is a str, an Exception to raise, or ``fn(messages) -> str``.

    ``route`` maps a schema's required key (e.g. ``"domain"``) to a fixed answer so calls the test
    does not script (domain routing) do not consume the script.
    """

    name = "scripted"

    def __init__(self, replies: list[Any], route: Mapping[str, str] | None = None) -> None:
        self.replies = list(replies)
        self.route = dict(route or {})
        self.calls: list[list[dict[str, str]]] = []

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        for key, answer in self.route.items():
            if json_schema and key in (json_schema.get("required") or []):
                return answer
        self.calls.append(messages)
        if not self.replies:
            from knowzero.errors import ProviderError

            raise ProviderError("script exhausted")
        r = self.replies.pop(0)
        if isinstance(r, BaseException):
            raise r
        return str(r(messages) if callable(r) else r)


# ----------------------------------------------------------------------------- API
TEST_CLIENT_ID = "kz-test-client-0001"


@contextlib.asynccontextmanager
async def api_client(data_dir: Path, *, configured_llm: bool = False, **env: str) -> AsyncIterator[Any]:
    """An httpx client on ``create_app(Settings(data_dir=...), warm=False)`` with its lifespan running.

    The app is offline unless ``configured_llm`` is true: then it uses the chat model the
    ``KNOWZERO_LLM_*`` variables in ``env`` configure, as ``knowzero serve`` would.

    ASGITransport does not run the lifespan, so it is entered by hand. The client sends one fixed
    ``X-Client-Id`` (like the web UI does), so its anonymous threads persist across requests.
    """
    import httpx

    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.llm.factory import build_provider

    with knowzero_env(**{"data_dir": str(data_dir), "env": "test", **env}):
        s = Settings()
        app = create_app(s, warm=False, deps=make_deps(s, provider=build_provider(s) if configured_llm else None))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://kz.test", timeout=120,
                                         headers={"X-Client-Id": TEST_CLIENT_ID}) as client:
                client.app = app  # type: ignore[attr-defined]
                yield client


def postgres_url() -> str | None:
    """The first user that can connect to the local PostgreSQL ``test`` database, or None."""
    if os.environ.get("KNOWZERO_TEST_POSTGRES_URL"):
        return os.environ["KNOWZERO_TEST_POSTGRES_URL"]
    try:
        import psycopg
    except ImportError:
        return None
    for user in ("postgres", "root"):
        url = f"postgresql://{user}@127.0.0.1:5432/test"
        try:
            psycopg.connect(url, connect_timeout=3).close()
            return url
        except Exception:  # noqa: BLE001 - unavailable means skip
            continue
    return None


def redis_url() -> str | None:
    url = os.environ.get("KNOWZERO_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
        return url
    except Exception:  # noqa: BLE001 - unavailable means skip
        return None


# ----------------------------------------------------------------------------- SSE + error shape
def documented_event_types() -> set[str]:
    """Event types documented in docs/events.md (``### <type>`` headings)."""
    import re

    text = (Path(__file__).parents[1] / "docs" / "events.md").read_text("utf-8")
    return set(re.findall(r"^###\s+`?([a-z_]+)`?\s*$", text, re.M))


def sse_events(response: Any) -> list[tuple[str, dict[str, Any]]]:
    """Decode an SSE response body and check the stream's frame: first intent_classified, last done/error."""
    from knowzero.api.events import decode_stream

    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/event-stream")
    events = decode_stream(response.text)
    assert events, "empty stream"
    assert events[0][0] == "intent_classified", [e for e, _ in events]
    assert events[-1][0] in ("done", "error"), [e for e, _ in events]
    assert [e for e, _ in events].count("intent_classified") == 1
    assert sum(1 for e, _ in events if e in ("done", "error")) == 1
    return events


def assert_error_shape(response: Any, status: int, code: str) -> dict[str, Any]:
    """The one pinned error shape: exactly {"error": {"code", "message", "details"}}."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "details"}
    assert body["error"]["code"] == code
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert body["error"]["details"] is None or isinstance(body["error"]["details"], list)
    return body["error"]


async def restart_and_resume(data_dir: Path, thread_id: str, **env: str) -> None:
    """A thread survives an app restart: messages come back and a pronoun follow-up resolves.

    Shared by the SQLite (tests/api) and PostgreSQL (tests/scale) persistence tests.
    """
    async with api_client(data_dir, **env) as client:
        r = await client.post("/v1/chat", json={"source": "chat", "message": "我想学习 LangGraph", "thread_id": thread_id})
        first = sse_events(r)
        assert first[-1][0] == "done"
        assert r.headers["x-thread-id"] == thread_id
    # a new app on the same storage: nothing in memory survives
    async with api_client(data_dir, **env) as client:
        r = await client.get(f"/v1/threads/{thread_id}")
        assert r.status_code == 200, r.text
        thread = r.json()
        assert [(m["role"], m["content"]) for m in thread["messages"]][0] == ("user", "我想学习 LangGraph")
        assert [m["role"] for m in thread["messages"]] == ["user", "assistant"]
        assert thread["topic"] == "LangGraph"
        r = await client.post("/v1/chat", json={"source": "chat", "message": "它和 AutoGen 比有什么优势？",
                                                "thread_id": thread_id})
        events = sse_events(r)
        assert events[-1][0] == "done", events[-1]
        reasons = [d["text"] for e, d in events if e == "reasoning"]
        assert any("LangGraph和 AutoGen 比有什么优势" in t for t in reasons), reasons
        r = await client.get(f"/v1/threads/{thread_id}")
        assert [m["role"] for m in r.json()["messages"]] == ["user", "assistant", "user", "assistant"]


def build_small_kb(data_dir, docs=SMALL_DOCS):  # type: ignore[no-untyped-def]
    """A knowledge base in ``data_dir`` with ``docs`` (name -> Markdown) ingested."""
    import hashlib

    from knowzero.config import Settings
    from knowzero.knowledge.ingest.parsers import parse_bytes
    from knowzero.knowledge.kb import KnowledgeBase, SourceDoc
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    report = kb.ingest_documents([SourceDoc(name, parse_bytes(text.encode(), name),
                                            hashlib.sha256(text.encode()).hexdigest())
                                  for name, text in docs.items()], collection="test", domain="technical")
    assert not report.failed, report.failed
    return kb
