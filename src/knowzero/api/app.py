"""``create_app()``: the FastAPI application (routes per resource, one error shape, lifespan).

At start-up it opens the checkpointer/store (SQLite or PostgreSQL by URL), compiles the graph
once, loads the knowledge base (ingesting the bundled demo when empty), warms the models (so no
request pays for loading) and finishes the turns a crash cut short (``Runner.recover_unfinished``);
at shutdown it lets running turns finish (``Runner.drain``). Errors of every kind leave as
``{"error": {code, message, details}}``; validation errors are 422 with the offending fields named.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.routing import iter_route_contexts
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute, Match, Route

from knowzero import __version__
from knowzero.api.access import ANYONE, SECURITY_SCHEMES, access
from knowzero.api.body import BodyLimit
from knowzero.api.ratelimit import AnonymousLimits
from knowzero.api.routes import admin as admin_routes
from knowzero.api.routes import chat as chat_routes
from knowzero.api.routes import kb as kb_routes
from knowzero.api.routes import learning as learning_routes
from knowzero.api.routes import meta as meta_routes
from knowzero.api.routes import openai_compat as openai_routes
from knowzero.api.routes import service as service_routes
from knowzero.api.routes.chat import INPUT_SCHEMA_DEFS
from knowzero.api.runner import Runner, ThreadLocks
from knowzero.api.slowlog import SlowRequests
from knowzero.config import Settings
from knowzero.errors import KnowZeroError, RateLimited, error_body, invalid_fields
from knowzero.graph.builder import build_graph
from knowzero.graph.context import Deps
from knowzero.graph.state import CHECKPOINT_TYPES
from knowzero.knowledge.ingest.embedqueue import run_worker
from knowzero.persistence.checkpoint import open_persistence
from knowzero.users import User
from knowzero.wiring import build_deps, thread_directory

log = logging.getLogger("knowzero.api")

ROUTE_MODULES = (chat_routes, kb_routes, openai_routes, service_routes, learning_routes, meta_routes, admin_routes)
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


def all_routes(app: FastAPI) -> list[BaseRoute]:
    """Every route of the app, included routers flattened (FastAPI keeps them nested in ``app.routes``).
    The routers are included without a prefix, so each route's own path is its path in the app."""
    return [ctx.original_route for ctx in iter_route_contexts(app.routes)]


def _allowed_methods(app: FastAPI, scope: Any) -> list[str]:
    """Every method some route serves at this path (Starlette's 405 names only the first route's)."""
    methods: set[str] = set()
    for route in all_routes(app):
        if isinstance(route, Route) and route.methods and route.matches(scope)[0] != Match.NONE:
            methods |= route.methods
    return sorted(methods)


def create_app(settings: Settings | None = None, *, warm: bool = True, deps: Deps | None = None) -> FastAPI:
    """The application; its dependency container is built at start-up (or ``deps`` when given)."""
    s = settings or (deps.settings if deps is not None else Settings())
    prebuilt = deps

    @asynccontextmanager
    async def lifespan(app: FastAPI):  # type: ignore[no-untyped-def]
        container: Deps = prebuilt if prebuilt is not None else await asyncio.to_thread(build_deps, s)
        async with open_persistence(s, CHECKPOINT_TYPES) as (saver, store):
            graph = build_graph().compile(checkpointer=saver, store=store)
            app.state.store = store
            app.state.deps = container
            app.state.kb = container.kb
            runner = Runner(graph, ThreadLocks(s.redis_url), thread_directory(container), container)
            app.state.runner = runner
            app.state.make_deps = lambda user=None: container.for_user(user or User())
            if warm:
                await asyncio.to_thread(_warm, container)
                # The models, indexes and dictionaries just loaded live as long as the process: keep the
                # cyclic garbage collector from re-scanning them (a full collection of a warm server took
                # ~0.8 s, stalling every request, /healthz included).
                gc.collect()
                gc.freeze()
            await runner.recover_unfinished()  # turns a crash cut short finish before anyone is served
            stop = _start_embedder(container) if s.embed_in_server else None
            try:
                yield
            finally:
                await runner.drain()  # turns whose client went away still finish and are stored
                if stop is not None:
                    stop.set()

    app = FastAPI(title="KnowZero", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Offline-first knowledge assistant: cited answers with verdicts, learning documents, "
                              "customer service. Streams typed events (see docs/events.md).")
    app.state.settings = s
    app.state.limits = AnonymousLimits(s.anon_rate_limit, s.anon_ip_rate_limit, s.redis_url,
                                       writes=s.anon_write_rate_limit)
    app.add_middleware(BodyLimit, default_cap=s.max_body_bytes,  # type: ignore[arg-type]
                       caps={kb_routes.UPLOAD_PATH: s.max_upload_request_bytes})
    app.add_middleware(SlowRequests)  # type: ignore[arg-type]

    @app.exception_handler(KnowZeroError)
    async def _kz_error(_: Request, exc: KnowZeroError) -> JSONResponse:
        headers = {"Retry-After": str(exc.retry_after_s)} if isinstance(exc, RateLimited) else None
        return JSONResponse(exc.to_dict(), status_code=exc.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        err = invalid_fields(exc.errors())
        return JSONResponse(err.to_dict(), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's "There was an error parsing the body" (malformed JSON or form data): the same
            # invalid_input every other bad body gets.
            return JSONResponse(error_body("invalid_input", "the request body could not be parsed"), status_code=422)
        code = {404: "not_found", 405: "method_not_allowed", 401: "unauthorized", 403: "forbidden",
                413: "too_large", 422: "invalid_input"}.get(
            exc.status_code, "http_error")
        message = exc.detail if isinstance(exc.detail, str) else code
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request.app, request.scope))
        return JSONResponse(error_body(code, message), status_code=exc.status_code, headers=headers or None)

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error", exc_info=exc)
        return JSONResponse(error_body("internal_error", "something went wrong on our side"), status_code=500)

    @app.get("/healthz", tags=["meta"], **access(ANYONE))
    async def healthz(request: Request) -> dict[str, Any]:
        kb = getattr(request.app.state, "kb", None)
        deps = getattr(request.app.state, "deps", None)
        llm = deps.model.describe()["provider"] if deps is not None and deps.model is not None else s.llm_provider
        return {"status": "ok", "version": __version__, "passages": len(kb.passages) if kb else 0,
                "database": "postgresql" if s.is_postgres else "sqlite", "llm": llm}

    for module in ROUTE_MODULES:
        app.include_router(module.router)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            schema.setdefault("components", {}).setdefault("schemas", {}).update(INPUT_SCHEMA_DEFS)
            schema["components"]["securitySchemes"] = SECURITY_SCHEMES
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    if (WEB_DIR / "vendor" / "swagger-ui").is_dir():
        # OpenAPI docs served from the package (no CDN: the product runs offline).
        app.mount("/vendor", StaticFiles(directory=WEB_DIR / "vendor"), name="vendor")

        @app.get("/docs", include_in_schema=False)
        async def docs() -> HTMLResponse:
            return get_swagger_ui_html(openapi_url="/openapi.json", title="KnowZero API",
                                       swagger_js_url="/vendor/swagger-ui/swagger-ui-bundle.js",
                                       swagger_css_url="/vendor/swagger-ui/swagger-ui.css",
                                       swagger_favicon_url="/vendor/swagger-ui/favicon-32x32.png")

    if (WEB_DIR / "index.html").is_file():
        app.mount("/assets", StaticFiles(directory=WEB_DIR / "assets", check_dir=False), name="assets")

        @app.get("/", include_in_schema=False)
        async def index() -> FileResponse:
            return FileResponse(WEB_DIR / "index.html")

    return app


def _start_embedder(deps: Deps) -> threading.Event:
    """A background thread that embeds queued chunks (files ingested with ``--no-embed``, or left
    queued by an interrupted ingest) and loads each batch's vectors; set the event to stop it."""
    kb = deps.need_kb()
    stop = threading.Event()

    def loop() -> None:
        try:
            run_worker(kb.queue, lambda bodies: kb.encoder.passages(bodies), batch=deps.settings.embed_batch,
                       stop=stop, idle_s=2.0, progress=lambda _w: kb.refresh())
        except Exception as exc:  # noqa: BLE001 - the server goes on; `knowzero worker` can take over
            log.warning("background embedding stopped: %s", exc)

    threading.Thread(target=loop, name="kz-embed", daemon=True).start()
    return stop


def _warm(deps: Deps) -> None:
    """Load models and indexes before the first request (cold start is paid once)."""
    kb = deps.need_kb()
    kb.ensure_demo()
    deps.need_classifier().classify("你好")
    kb.encoder.query("warm up")
    deps.lexicon.index()  # CC-CEDICT, parsed once (~1 s): the first question in either language reads it
