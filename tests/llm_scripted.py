"""The scripted chat model (``knowzero.llm.scripted``) served over real HTTP on 127.0.0.1 (test helper).

``scripted_server(mode)`` starts uvicorn with the product's OpenAI-compatible server
(``knowzero.llm.server.create_app``) in front of a :class:`ScriptedProvider` on a free port, and
yields its base URL; the product reaches it through its real ``OpenAICompatProvider``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from knowzero.llm.openai_compat import OpenAICompatProvider
from knowzero.llm.scripted import ScriptedProvider
from knowzero.llm.server import create_app


@contextmanager
def scripted_server(mode: str) -> Iterator[str]:
    """Base URL (``http://127.0.0.1:PORT/v1``) of a scripted model in ``mode``, until the block ends."""
    model = ScriptedProvider(mode)
    server = uvicorn.Server(uvicorn.Config(create_app(model, model_name=model.model), host="127.0.0.1", port=0,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the scripted model server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.should_exit = True
        thread.join(10)


def client(base_url: str, mode: str, timeout: float = 30.0) -> OpenAICompatProvider:
    """The product's own HTTP client for the scripted model at ``base_url``."""
    return OpenAICompatProvider(base_url, f"scripted-{mode}", timeout=timeout, cooldown_s=0)
