"""The authorization matrix, generated from the app's routes (issue 10): every route × every kind
of caller × owner / non-owner of the object the route reaches, against the policy each route
declares next to itself (``**access(...)``, see ``knowzero/api/access.py``).

A route without a declaration, or without a request recipe below, fails this test, so a new route
cannot land without a decision. The expected status is derived from the declaration alone:

    who          anonymous (with or without client id)   customer / other    editor     agent/admin
    anyone       ok                                       ok                  ok         ok
    signed_in    401                                      ok                  ok         ok
    kb_writer    401                                      403                 ok         403 / ok
    staff        401                                      403                 403        ok
    admin        401                                      403                 403        403 / ok
  then, for a route that reaches an owned object (a thread, a learning document, a path):
    rule read    the owner or staff: ok; anyone else: 404
    rule write   the owner: ok; anyone else (staff too): 404

"ok" is the status the recipe says a permitted caller gets (200, or the declared 404/409 when the
recipe names an object that does not exist or is not waiting for that action). Each owned object is
created twice: once by a customer (alice) and once by an anonymous client, so both kinds of owner
are checked against every other caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from starlette.routing import Mount, Route

from knowzero.api.access import declared
from knowzero.api.app import all_routes
from kz_testlib import copy_data_dir, knowzero_env, make_deps

IDENTITIES: dict[str, dict[str, str]] = {
    "anonymous": {},
    "anonymous_client": {"X-Client-Id": "matrix-anon-client-A1"},
    "customer": {"Authorization": "Bearer demo-alice"},
    "other_customer": {"Authorization": "Bearer demo-bob"},
    "editor": {"Authorization": "Bearer demo-editor"},
    "agent": {"X-API-Key": "demo-agent"},
    "admin": {"Authorization": "Bearer demo-admin"},
}
ROLE = {"anonymous": "anonymous", "anonymous_client": "anonymous", "customer": "customer",
        "other_customer": "customer", "editor": "editor", "agent": "agent", "admin": "admin"}
OWNERS = ("customer", "anonymous_client")  # who creates the owned objects, in turn


@dataclass(frozen=True)
class Recipe:
    """How to call a route: ``build(objects) -> request kwargs`` and what a permitted caller gets."""

    build: Callable[[dict[str, str]], dict[str, Any]]
    ok: int = 200


def _get(url: str) -> Callable[[dict[str, str]], dict[str, Any]]:
    return lambda o: {"url": url.format(**o)}


def _json(url: str, body: dict[str, Any]) -> Callable[[dict[str, str]], dict[str, Any]]:
    return lambda o: {"url": url.format(**o), "json": {k: (v.format(**o) if isinstance(v, str) else v) for k, v in body.items()}}


RECIPES: dict[tuple[str, str], Recipe] = {
    ("GET", "/healthz"): Recipe(_get("/healthz")),
    ("POST", "/v1/chat"): Recipe(_json("/v1/chat", {"thread_id": "{thread}", "message": "你好", "stream": False})),
    ("GET", "/v1/me"): Recipe(_get("/v1/me")),
    ("GET", "/v1/threads"): Recipe(_get("/v1/threads")),
    ("PATCH", "/v1/threads/{thread_id}"): Recipe(_json("/v1/threads/{thread}", {"title": "renamed"})),
    ("GET", "/v1/threads/{thread_id}"): Recipe(_get("/v1/threads/{thread}")),
    ("POST", "/v1/kb/upload"): Recipe(lambda o: {"url": "/v1/kb/upload", "data": {"collection": "matrix"},
                                                  "files": {"files": ("matrix-note.md", "# 矩阵\n\n测试。\n".encode(), "text/markdown")}}),
    ("DELETE", "/v1/kb/files"): Recipe(lambda o: {"url": "/v1/kb/files", "params": {"path": "matrix/no-such-file.md"}}, ok=404),
    ("GET", "/v1/kb/files"): Recipe(_get("/v1/kb/files")),
    ("PATCH", "/v1/kb/files"): Recipe(_json("/v1/kb/files", {"path": "matrix/no-such-file.md", "enabled": False}), ok=404),
    ("PATCH", "/v1/kb/collections/{collection}"): Recipe(_json("/v1/kb/collections/no-such-collection", {"enabled": False}),
                                                         ok=404),
    ("DELETE", "/v1/kb/collections/{collection}"): Recipe(_get("/v1/kb/collections/no-such-collection"), ok=404),
    ("POST", "/v1/kb/files/reindex"): Recipe(_json("/v1/kb/files/reindex", {"path": "matrix/no-such-file.md"}), ok=404),
    ("GET", "/v1/kb/source"): Recipe(lambda o: {"url": "/v1/kb/source", "params": {"path": o["kb_path"]}}),
    ("POST", "/v1/kb/search"): Recipe(_json("/v1/kb/search", {"query": "年假"})),
    ("POST", "/v1/chat/completions"): Recipe(lambda o: {"url": "/v1/chat/completions", "headers": {"X-Thread-Id": o["thread"]},
                                                        "json": {"messages": [{"role": "user", "content": "你好"}]}}),
    ("GET", "/v1/learning/documents"): Recipe(_get("/v1/learning/documents")),
    ("POST", "/v1/learning/documents"): Recipe(_json("/v1/learning/documents", {"topic": "年假制度", "parent_id": "{doc}"})),
    ("GET", "/v1/learning/documents/{doc_id}"): Recipe(_get("/v1/learning/documents/{doc}")),
    ("GET", "/v1/learning/documents/{doc_id}/versions"): Recipe(_get("/v1/learning/documents/{doc}/versions")),
    ("GET", "/v1/learning/documents/{doc_id}/versions/{version}"): Recipe(_get("/v1/learning/documents/{doc}/versions/1")),
    ("GET", "/v1/learning/documents/{doc_id}/diff"): Recipe(_get("/v1/learning/documents/{doc}/diff?from_version=1")),
    ("GET", "/v1/learning/documents/{doc_id}/comments"): Recipe(_get("/v1/learning/documents/{doc}/comments")),
    ("POST", "/v1/learning/documents/{doc_id}/comments"): Recipe(_json("/v1/learning/documents/{doc}/comments",
                                                                       {"selected_text": "{quote}", "comment": "好", "improve": False})),
    ("POST", "/v1/learning/documents/{doc_id}/read"): Recipe(_json("/v1/learning/documents/{doc}/read", {})),
    ("GET", "/v1/learning/entities"): Recipe(_get("/v1/learning/entities")),
    ("GET", "/v1/learning/entities/{name}"): Recipe(_get("/v1/learning/entities/LangGraph")),
    ("GET", "/v1/learning/paths"): Recipe(_get("/v1/learning/paths")),
    ("POST", "/v1/learning/paths"): Recipe(_json("/v1/learning/paths", {"goal": "学习请假制度"})),
    ("GET", "/v1/learning/paths/{path_id}"): Recipe(_get("/v1/learning/paths/{path}")),
    ("GET", "/v1/learning/topics"): Recipe(_get("/v1/learning/topics")),
    ("POST", "/v1/learning/topics"): Recipe(_json("/v1/learning/topics", {"topic": "年假", "document_id": "{doc}"})),
    ("GET", "/v1/service/handoffs"): Recipe(_get("/v1/service/handoffs")),
    ("GET", "/v1/service/handoffs/{handoff_id}"): Recipe(_get("/v1/service/handoffs/no-such-handoff"), ok=404),
    ("GET", "/v1/service/approvals"): Recipe(_get("/v1/service/approvals")),
    ("GET", "/v1/service/reviews"): Recipe(_get("/v1/service/reviews")),
    ("POST", "/v1/service/reviews/{review_id}"): Recipe(_json("/v1/service/reviews/no-such-review", {"action": "approve"}), ok=404),
    ("GET", "/v1/service/threads/{thread_id}"): Recipe(_get("/v1/service/threads/{thread}")),
    ("POST", "/v1/service/threads/{thread_id}/reply"): Recipe(_json("/v1/service/threads/{thread}/reply", {"text": "您好"}), ok=409),
    ("POST", "/v1/service/threads/{thread_id}/return"): Recipe(_json("/v1/service/threads/{thread}/return", {}), ok=409),
    ("POST", "/v1/service/refunds/{refund_id}/decision"): Recipe(_json("/v1/service/refunds/no-such-refund/decision",
                                                                       {"approved": False}), ok=404),
    ("GET", "/v1/admin/users"): Recipe(_get("/v1/admin/users")),
    ("POST", "/v1/admin/users"): Recipe(_json("/v1/admin/users", {"id": "matrix-new", "name": "Matrix", "role": "customer"})),
    ("POST", "/v1/admin/users/{user_id}/key"): Recipe(_json("/v1/admin/users/no-such-user/key", {}), ok=404),
    ("POST", "/v1/admin/users/{user_id}/revoke"): Recipe(_json("/v1/admin/users/no-such-user/revoke", {}), ok=404),
    ("POST", "/v1/admin/users/{user_id}/restore"): Recipe(_json("/v1/admin/users/no-such-user/restore", {}), ok=404),
    ("GET", "/v1/admin/model"): Recipe(_get("/v1/admin/model")),
    ("PUT", "/v1/admin/model"): Recipe(_json("/v1/admin/model", {"base_url": "http://127.0.0.1:9/v1", "model": "none"})),
    ("POST", "/v1/admin/model/off"): Recipe(_json("/v1/admin/model/off", {})),
    ("POST", "/v1/admin/model/test"): Recipe(_json("/v1/admin/model/test", {"base_url": "http://127.0.0.1:9/v1",
                                                                            "model": "none"})),
    ("GET", "/v1/me/orders"): Recipe(_get("/v1/me/orders")),
    ("GET", "/v1/me/tickets"): Recipe(_get("/v1/me/tickets")),
    ("GET", "/v1/me/refunds"): Recipe(_get("/v1/me/refunds")),
    ("GET", "/v1/me/preferences"): Recipe(_get("/v1/me/preferences")),
    ("DELETE", "/v1/me/preferences"): Recipe(_get("/v1/me/preferences")),
    # not in the API schema: the web UI and the docs, open to everyone
    ("DELETE", "/v1/threads/{thread_id}"): Recipe(_get("/v1/threads/{thread_del}")),
    ("POST", "/v1/threads/{thread_id}/claim"): Recipe(_json("/v1/threads/{thread}/claim", {})),
    ("GET", "/v1/kb/files/chunks"): Recipe(lambda o: {"url": "/v1/kb/files/chunks", "params": {"path": o["kb_path"]}}),
    ("PATCH", "/v1/learning/documents/{doc_id}"): Recipe(_json("/v1/learning/documents/{doc}", {"title": "改名"})),
    ("DELETE", "/v1/learning/documents/{doc_id}"): Recipe(_get("/v1/learning/documents/{doc_del}")),
    ("GET", "/v1/settings"): Recipe(_get("/v1/settings")),
    ("POST", "/v1/feedback"): Recipe(_json("/v1/feedback", {"thread_id": "{thread}", "message_id": "no-such-message",
                                                            "rating": "up"}), ok=404),
    ("POST", "/v1/ask"): Recipe(_json("/v1/ask", {"question": "年假有几天？"})),
    ("GET", "/openapi.json"): Recipe(_get("/openapi.json")),
    ("GET", "/docs"): Recipe(_get("/docs")),
    ("GET", "/"): Recipe(_get("/")),
    ("GET", "/assets"): Recipe(_get("/assets/js/md.js")),
    ("GET", "/vendor"): Recipe(_get("/vendor/swagger-ui/swagger-ui.css")),
}
UNDECLARED_PUBLIC = {"/openapi.json", "/docs", "/", "/assets", "/vendor"}
"""Routes outside the API schema (static files, the docs page): public, with no declaration."""


def expected(policy: dict[str, Any], who: str, owner: str | None, ok: int) -> int:
    role = ROLE[who]
    need = policy["who"]
    if need != "anyone" and role == "anonymous":
        return 401
    if need == "staff" and role not in ("agent", "admin"):
        return 403
    if need == "kb_writer" and role not in ("editor", "admin"):
        return 403
    if need == "admin" and role != "admin":
        return 403
    if policy["owns"]:
        if who == owner:
            return ok
        if policy["rule"] == "read" and role in ("agent", "admin"):
            return ok
        return 404
    return ok


def route_table(app) -> list[tuple[str, str, dict[str, Any] | None]]:  # type: ignore[no-untyped-def]
    rows = []
    for route in all_routes(app):
        if isinstance(route, Mount):
            rows.append(("GET", route.path, None))
        elif isinstance(route, Route):
            for method in sorted(route.methods or ()):
                if method != "HEAD":
                    rows.append((method, route.path, declared(route)))
    return rows


@pytest.fixture()
async def matrix_api(demo_data_dir, tmp_path):  # type: ignore[no-untyped-def]
    import httpx

    from knowzero.api.app import create_app
    from knowzero.config import Settings
    from knowzero.service.identity import announce_keys

    data = copy_data_dir(demo_data_dir, tmp_path / "kz")
    with knowzero_env(data_dir=str(data), env="test", demo_keys="1", anon_rate_limit="", anon_ip_rate_limit="", anon_write_rate_limit=""):
        deps = make_deps(Settings())
        announce_keys(deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        app = create_app(deps.settings, warm=False, deps=deps)
        async with app.router.lifespan_context(app):
            async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://kz.test",
                                         timeout=120) as client:
                client.app = app  # type: ignore[attr-defined]
                yield client


async def _objects(client, owner: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """One thread, learning document and learning path owned by ``owner``."""
    h = IDENTITIES[owner]
    thread = f"matrix-thread-{owner}"
    r = await client.post("/v1/chat", json={"thread_id": thread, "message": "你好", "stream": False}, headers=h)
    assert r.status_code == 200, r.text
    r = await client.post("/v1/learning/documents", json={"topic": "请假制度"}, headers=h)
    assert r.status_code == 200, r.text
    doc = r.json()
    quote = next(s["markdown"] for s in doc["sections"] if s.get("markdown"))[:6]
    r = await client.post("/v1/learning/paths", json={"goal": "了解请假制度"}, headers=h)
    assert r.status_code == 200, r.text
    path_id = r.json()["id"]
    files = (await client.get("/v1/kb/files")).json()["files"]
    # deleting routes get objects of their own: the owner's successful delete must not take away
    # the thread or document the other routes reach
    thread_del = f"matrix-thread-del-{owner}"
    r = await client.post("/v1/chat", json={"thread_id": thread_del, "message": "你好", "stream": False}, headers=h)
    assert r.status_code == 200, r.text
    r = await client.post("/v1/learning/documents", json={"topic": "考勤制度", "new": True}, headers=h)
    assert r.status_code == 200, r.text
    return {"thread": thread, "doc": doc["id"], "quote": quote, "path": path_id, "kb_path": files[0]["path"],
            "thread_del": thread_del, "doc_del": r.json()["id"]}


def test_every_route_has_a_decision_and_a_recipe():
    from knowzero.api.app import create_app
    from knowzero.config import Settings

    app = create_app(Settings(), warm=False)
    missing = []
    for method, path, policy in route_table(app):
        if policy is None and path not in UNDECLARED_PUBLIC:
            missing.append(f"{method} {path}: no access(...) declaration")
        if (method, path) not in RECIPES:
            missing.append(f"{method} {path}: no request recipe in this test")
    assert not missing, "\n".join(missing)
    assert len(route_table(app)) >= 45


async def test_authorization_matrix(matrix_api):
    app = matrix_api.app
    objects = {owner: await _objects(matrix_api, owner) for owner in OWNERS}
    wrong: list[str] = []
    cells = 0
    for method, path, policy in route_table(app):
        recipe = RECIPES[(method, path)]
        policy = policy or {"who": "anyone", "owns": None, "rule": None}
        for owner in OWNERS if policy["owns"] else (OWNERS[0],):
            for who, headers in IDENTITIES.items():
                req = recipe.build(objects[owner])
                req["headers"] = {**headers, **req.get("headers", {})}
                r = await matrix_api.request(method, **req)
                want = expected(policy, who, owner, recipe.ok)
                cells += 1
                if r.status_code != want:
                    wrong.append(f"{method} {path} as {who} (owner {owner if policy['owns'] else '-'}): "
                                 f"{r.status_code}, expected {want}: {r.text[:160]}")
                elif r.status_code >= 400 and r.headers.get("content-type", "").startswith("application/json"):
                    assert set(r.json()) == {"error"}, r.text
    print(f"\nauthorization matrix: {cells} cells over {len(route_table(app))} method+path pairs")
    assert not wrong, f"{len(wrong)} of {cells} cells wrong:\n" + "\n".join(wrong)
    assert cells >= 7 * 45


async def test_entity_index_lists_only_what_the_caller_may_read(matrix_api):
    """``GET /v1/learning/entities`` (outside review 2, finding 6): the topics and page ids that come
    from someone's private learning documents are not listed to anyone else (staff may read every
    document, so they see them); knowledge-base terms stay listed for everyone, without a page."""
    topic = "CNC维护保养计划"
    r = await matrix_api.post("/v1/learning/documents", json={"topic": topic}, headers=IDENTITIES["customer"])
    assert r.status_code == 200, r.text
    doc_id = r.json()["id"]

    async def index(who: str) -> list[dict[str, Any]]:
        r = await matrix_api.get("/v1/learning/entities", params={"limit": 1000}, headers=IDENTITIES[who])
        assert r.status_code == 200, r.text
        return r.json()["entities"]

    def pages(items: list[dict[str, Any]]) -> dict[str, str]:
        return {e["name"]: e["document_id"] for e in items if e["document_id"]}

    mine = await index("customer")
    assert pages(mine).get(topic) == doc_id, pages(mine)
    assert doc_id in set(pages(await index("agent")).values())
    kb_only = {e["key"] for e in await index("other_customer")}
    for who in ("anonymous", "anonymous_client", "other_customer", "editor"):
        items = await index(who)
        assert doc_id not in set(pages(items).values()), (who, pages(items))
        assert topic not in {e["name"] for e in items}, who
        assert all(e["mentioned_in"] == 0 for e in items), who  # mentions count their own documents only
        assert {e["key"] for e in items} == kb_only, who  # the knowledge-base terms, the same for everyone
    # mentions of alice's own document are counted for her
    assert any(e["mentioned_in"] for e in mine)
