"""Browser fixtures: one real ``knowzero serve`` subprocess and one Debian Chromium per test module (module scope: the sync Playwright loop must be gone before the async tests run).

The server runs on a free localhost port with its own data directory and the fixed demo keys
(``KNOWZERO_DEMO_KEYS=1``: demo-alice, demo-bob, demo-agent, demo-admin). Chromium is Debian's
``/usr/bin/chromium`` driven by Playwright (never a downloaded browser). Every page records
console errors and uncaught exceptions; a test fails if its pages logged any.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 180.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"knowzero serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError("knowzero serve did not become healthy in time")


class Server(str):
    """The base URL, plus the server's data directory (for seeding state the UI then shows)."""

    data_dir: Path


@pytest.fixture(scope="module")
def kz_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """Base URL of a real ``knowzero serve`` (shared by all browser tests in the session)."""
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (apt-get install chromium fonts-wqy-microhei)")
    data = tmp_path_factory.mktemp("kz-browser")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWZERO_")}
    env.update(KNOWZERO_DATA_DIR=str(data), KNOWZERO_DEMO_KEYS="1", KNOWZERO_ENV="test",
               OMP_NUM_THREADS=env.get("OMP_NUM_THREADS", "1"))
    log = open(data / "server.log", "wb")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "knowzero.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            env=env, stdout=log, stderr=subprocess.STDOUT)
    url = Server(f"http://127.0.0.1:{port}")
    url.data_dir = data
    try:
        _wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        if os.environ.get("KZ_KEEP_SERVER_LOG"):
            shutil.copy(data / "server.log", os.environ["KZ_KEEP_SERVER_LOG"])


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


class Pages:
    """Opens pages in fresh contexts and remembers their console errors."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser, self.base = browser, base
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def new(self, *, locale: str = "zh-CN", width: int = 1400, height: int = 900, key: str | None = None,
            path: str = "/") -> Any:
        ctx = self.browser.new_context(locale=locale, viewport={"width": width, "height": height},
                                       base_url=self.base)
        ctx.set_default_timeout(20000)
        if key:
            role = {"demo-agent": "agent", "demo-admin": "admin", "demo-editor": "editor"}.get(key, "customer")
            name = key.removeprefix("demo-")
            ctx.add_init_script(f"localStorage.setItem('kz.key', {key!r});"
                                f"localStorage.setItem('kz.user', JSON.stringify({{id: {name!r}, name: {name!r}, role: {role!r}}}));")
        self.contexts.append(ctx)
        page = ctx.new_page()

        def on_console(msg: Any) -> None:
            if msg.type == "error":
                where = (msg.location or {}).get("url", "")
                text = f"{msg.text} @ {where}"
                if not any(a in text for a in self.allowed):
                    self.errors.append(text)

        page.on("console", on_console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.goto(path)
        return page

    def close(self) -> None:
        for c in self.contexts:
            c.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed browser test shows the tail of its server's log (slow requests are logged there)."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    server = getattr(item, "funcargs", {}).get("kz_server")
    if report.failed and server is not None and (Path(server.data_dir) / "server.log").exists():
        lines = (Path(server.data_dir) / "server.log").read_text(errors="replace").splitlines()
        report.sections.append(("knowzero serve log (last 80 lines)", "\n".join(lines[-80:])))


@pytest.fixture()
def pages(browser: Any, kz_server: str) -> Iterator[Pages]:
    p = Pages(browser, kz_server)
    yield p
    p.close()
    assert not p.errors, "console errors: " + "; ".join(p.errors)


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: docs/screenshots with KNOWZERO_SCREENSHOTS=1 (to refresh the docs), else a temp dir."""
    if os.environ.get("KNOWZERO_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return SCREENSHOTS
    return tmp_path_factory.mktemp("screenshots")
