"""The ``knowzero`` command's argument checks and ``ingest`` reporting, through typer's CliRunner.

Bad arguments are one ``error: …`` line and exit code 2 before anything is loaded; ``ingest`` goes
on past bad files, reports each (``skipped:`` for unsupported types, ``failed:`` for the rest) and
exits 1 when any failed. Answer and document quality are tested elsewhere.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from kz_testlib import DATA


def run(*args: str) -> Any:
    return CliRunner().invoke(app, list(args), prog_name="knowzero")


@pytest.fixture()
def no_kb(monkeypatch: pytest.MonkeyPatch) -> None:
    """Argument errors must be found before the knowledge base (and its models) are loaded."""
    from knowzero.learning import cli as learn_cli

    def refuse(*a: Any, **k: Any) -> None:
        raise AssertionError("the knowledge base was loaded for a bad argument")

    monkeypatch.setattr(learn_cli, "KnowledgeBase", refuse)


# ----------------------------------------------------------------------------- learn
@pytest.mark.parametrize("topic", ["", "   "])
def test_learn_rejects_an_empty_topic(no_kb: None, topic: str) -> None:
    r = run("learn", topic)
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: the topic is empty"
    assert "Traceback" not in r.output


def test_learn_rejects_an_unknown_level(no_kb: None) -> None:
    r = run("learn", "CNC维护", "--level", "expert")
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == "error: --level must be one of beginner, intermediate, advanced (got 'expert')"
    assert "Traceback" not in r.output


# ----------------------------------------------------------------------------- ingest
def report(r: Any) -> dict[str, Any]:
    """``--json``: the report is stdout's last line."""
    return json.loads(r.stdout.strip().splitlines()[-1])


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_ingest_skips_unsupported_files_with_a_message(isolated: Path, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    write(folder / "technical" / "零件C.md", "# 零件C\n\n零件C的外圆公差为±0.02mm。\n")
    shutil.copy(DATA / "sample.md", folder / "sample.md")
    (folder / "drawing.dwg").write_bytes(b"AC1032" + bytes(64))  # a CAD drawing: no reader (images are OCR'd now)
    r = run("ingest", str(folder), "--json")
    assert r.exit_code == 0, r.output
    assert "skipped: docs/drawing.dwg: unsupported file type" in r.stderr.splitlines()
    rep = report(r)
    assert len(rep["added"]) == 2 and rep["failed"] == []
    assert rep["skipped"] == [{"path": "docs/drawing.dwg", "reason": "unsupported file type"}]


def test_ingest_skips_a_named_unsupported_file_without_failing(isolated: Path, tmp_path: Path) -> None:
    good = write(tmp_path / "in" / "good.md", "# 好文件\n\n这是可以导入的内容。\n")
    dwg = tmp_path / "in" / "plan.dwg"
    dwg.write_bytes(b"AC1032" + bytes(64))
    r = run("ingest", str(dwg), str(good))
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == ["skipped: plan.dwg: unsupported file type"]
    assert r.stdout.strip().splitlines()[-1].startswith("added 1, updated 0, unchanged 0, removed 0, skipped 1, failed 0;")


def test_ingest_reports_every_failure_and_exits_non_zero(isolated: Path, tmp_path: Path) -> None:
    good = write(tmp_path / "in" / "good.md", "# 好文件\n\n这是可以导入的内容。\n")
    corrupt = shutil.copy(DATA / "corrupt.pdf", tmp_path / "in" / "corrupt.pdf")
    empty = shutil.copy(DATA / "empty.txt", tmp_path / "in" / "empty.txt")
    r = run("ingest", str(corrupt), str(good), str(empty), "--json")
    assert r.exit_code == 1, r.output
    failed = [line for line in r.stderr.splitlines() if line.startswith("failed: ")]
    assert len(failed) == 2 and any("corrupt.pdf" in f for f in failed) and any("empty.txt" in f for f in failed)
    assert r.stderr.strip().splitlines()[-1].startswith("error: 2 failed")
    assert "Traceback" not in r.output
    rep = report(r)
    assert rep["added"] == ["good.md"] and len(rep["failed"]) == 2


def test_a_missing_path_does_not_abort_the_others(isolated: Path, tmp_path: Path) -> None:
    good = write(tmp_path / "in" / "good.md", "# 好文件\n\n这是可以导入的内容。\n")
    missing = tmp_path / "in" / "nope.md"
    r = run("ingest", str(missing), str(good))
    assert r.exit_code == 1, r.output
    assert f"failed: {missing}: no such file or folder" in r.stderr.splitlines()
    assert r.stdout.strip().splitlines()[-1].startswith("added 1, updated 0, unchanged 0, removed 0, skipped 0, failed 1;")
    assert r.stderr.strip().splitlines()[-1] == "error: 1 failed (listed above); the other 1 file was ingested"


@pytest.mark.parametrize("json_out", [False, True])
def test_ingest_of_only_a_missing_path_says_nothing_was_ingested(isolated: Path, tmp_path: Path, json_out: bool) -> None:
    missing = tmp_path / "nonexistent"
    r = run("ingest", str(missing), *(["--json"] if json_out else []))
    assert r.exit_code != 0, r.output
    assert r.stderr.strip().splitlines()[-1] == f"error: nothing was ingested: {missing}: no such file or folder"
    assert "everything else" not in r.output and "Traceback" not in r.output


def test_ingest_where_every_path_fails_says_nothing_was_ingested(isolated: Path, tmp_path: Path) -> None:
    r = run("ingest", str(tmp_path / "a.md"), str(tmp_path / "b.md"))
    assert r.exit_code != 0
    assert r.stderr.strip().splitlines()[-1] == "error: nothing was ingested: all 2 failed (listed above)"


# ----------------------------------------------------------------------------- keys
def test_keys_list_create_revoke(isolated: Path) -> None:
    from knowzero.config import Settings
    from knowzero.errors import Unauthorized
    from knowzero.persistence.db import make_engine
    from knowzero.service.identity import user_for_token
    from knowzero.service.store import SqlStore

    first = run("keys", "--json")
    assert first.exit_code == 0, first.output
    users = json.loads(first.stdout.strip().splitlines()[-1])["users"]
    assert {u["id"] for u in users} >= {"alice", "admin"} and all(u["has_key"] for u in users)
    assert "kz-" in first.stderr  # the first run issues keys and shows them once
    assert "kz-" not in run("keys").stderr  # never again
    made = run("keys", "create", "alice", "--json")
    key = json.loads(made.stdout.strip().splitlines()[-1])["api_key"]
    store = SqlStore(make_engine(Settings().db_url))
    assert user_for_token(key, store).name == "张三"
    assert "api_key_hash" not in json.dumps(users)
    assert run("keys", "create", "zed").exit_code == 2
    assert run("keys", "create", "zed", "--name", "Zed", "--role", "editor").exit_code == 0
    assert run("keys", "revoke", "alice").exit_code == 0
    with pytest.raises(Unauthorized):
        user_for_token(key, store)


# ----------------------------------------------------------------------------- ask: the warm path
def test_ask_uses_a_running_server(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import httpx

    from knowzero import entry, remote

    calls: list[str] = []
    body = {"question": "q", "answer": "零件A的公差为±0.01mm。", "verdict": "confirmed", "verdict_reason": "ok",
            "citations": [{"source": "a.md", "start": 0, "end": 5, "quote": "公差±0.01"}], "elapsed_ms": 8.0,
            "domain": "technical"}

    def get(url: str, **_: Any) -> httpx.Response:
        calls.append(url)
        return httpx.Response(200, json={"status": "ok", "version": "x"})

    def post(url: str, **kw: Any) -> httpx.Response:
        calls.append(url)
        assert kw["json"] == {"question": "零件A的公差是多少？", "collections": []}
        return httpx.Response(200, json=body)

    monkeypatch.setattr(remote.httpx, "get", get)
    monkeypatch.setattr(remote.httpx, "post", post)
    monkeypatch.setattr("sys.argv", ["knowzero", "ask", "零件A的公差是多少？", "--json"])
    entry.main()
    assert json.loads(capsys.readouterr().out)["answer"] == body["answer"]
    assert calls[0].endswith("/healthz") and calls[1].endswith("/v1/ask")
    # no server: the full command is used (here: its argument check), never a traceback
    def down(url: str, **_: Any) -> httpx.Response:
        raise httpx.ConnectError("refused")

    monkeypatch.setattr(remote.httpx, "get", down)
    assert remote.ask_server(entry.Settings(), "x") is None
    assert not entry._fast_ask(["ask", "--local", "x"]) and not entry._fast_ask(["ask", "--help"])


def _fake_server(monkeypatch: pytest.MonkeyPatch, up: str) -> list[str]:
    """httpx as seen by knowzero.remote: a KnowZero server answers at ``up`` only."""
    import httpx

    from knowzero import remote

    calls: list[str] = []
    body = {"question": "q", "answer": "年假5天。", "verdict": "confirmed", "verdict_reason": "ok", "citations": [],
            "elapsed_ms": 3.0, "domain": "hr"}

    def get(url: str, **_: Any) -> httpx.Response:
        calls.append(url)
        if not url.startswith(up):
            raise httpx.ConnectError("refused")
        return httpx.Response(200, json={"status": "ok", "version": "x"})

    def post(url: str, **_: Any) -> httpx.Response:
        calls.append(url)
        assert url.startswith(up)
        return httpx.Response(200, json=body)

    monkeypatch.setattr(remote.httpx, "get", get)
    monkeypatch.setattr(remote.httpx, "post", post)
    return calls


def test_ask_finds_a_server_on_another_port_and_says_which(isolated: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32.8: `serve --port 18200` records its URL in the data directory; `ask` finds it there (and
    --server / KNOWZERO_URL name one), and says on stderr which server answered."""
    from knowzero import entry
    from knowzero.remote import record_server

    isolated.mkdir(parents=True, exist_ok=True)
    record_server(isolated, "http://127.0.0.1:18200")
    calls = _fake_server(monkeypatch, "http://127.0.0.1:18200")
    r = run("ask", "年假几天？", "--json")
    assert r.exit_code == 0, r.output
    assert "answered by the server at http://127.0.0.1:18200" in r.output
    assert calls[-1] == "http://127.0.0.1:18200/v1/ask"
    monkeypatch.setattr("sys.argv", ["knowzero", "ask", "年假几天？"])
    entry.main()  # the fast path too
    out = capsys.readouterr()
    assert "年假5天" in out.out and "answered by the server at http://127.0.0.1:18200" in out.err

    (isolated / "server.url").unlink()
    calls = _fake_server(monkeypatch, "http://10.0.0.7:9000")
    monkeypatch.setattr("sys.argv", ["knowzero", "ask", "--server", "http://10.0.0.7:9000", "年假几天？", "--json"])
    entry.main()
    assert "answered by the server at http://10.0.0.7:9000" in capsys.readouterr().err
    monkeypatch.setenv("KNOWZERO_URL", "http://10.0.0.7:9000")
    r = run("ask", "年假几天？")
    assert r.exit_code == 0 and "answered by the server at http://10.0.0.7:9000" in r.output


def test_ask_fails_when_the_named_server_does_not_answer(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server named with --server or KNOWZERO_URL that is down is an error, never a silent local run."""
    _fake_server(monkeypatch, "http://nowhere.invalid")
    r = run("ask", "--server", "http://127.0.0.1:9", "年假几天？")
    assert r.exit_code == 2, r.output
    assert "no KnowZero server answers at http://127.0.0.1:9" in r.output and "--local" in r.output
    monkeypatch.setenv("KNOWZERO_URL", "http://127.0.0.1:9")
    r = run("ask", "年假几天？")
    assert r.exit_code == 2 and "no KnowZero server answers at http://127.0.0.1:9" in r.output
    r = run("ask", "--server", "localhost:8000", "年假几天？")
    assert r.exit_code != 0 and "give a URL" in r.output


def test_serve_records_its_url_while_it_runs(isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    from knowzero import cli

    seen: list[str] = []

    class FakeServer:
        def __init__(self, *_a: Any, **_k: Any) -> None:
            pass

        def run(self, sockets: Any) -> None:
            seen.append((isolated / "server.url").read_text())

    monkeypatch.setattr(cli.uvicorn, "Server", FakeServer)
    monkeypatch.setattr(cli, "create_app", lambda *_a, **_k: None)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    r = run("serve", "--port", str(port))
    assert r.exit_code == 0, r.output
    assert seen == [f"http://127.0.0.1:{port}\n"]
    assert not (isolated / "server.url").exists()


def test_eval_service_says_where_its_data_comes_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 32.9: no path inside the virtualenv; the scenarios ship with the package, CrossWOZ is asked for."""
    from knowzero.eval import service as ev

    monkeypatch.setattr(ev, "CHECKOUT_CROSSWOZ", tmp_path / "shared" / "val.json.zip")  # an installed package
    assert ev.default_crosswoz() is None
    note = ev.slot_report(None)["slot_note"]
    assert "--crosswoz" in note and "ship with the package" in note and "eval-data" not in note
    r = run("eval", "service", "--crosswoz", str(tmp_path / "missing.zip"))
    assert r.exit_code == 2 and "no such file" in r.output and "Traceback" not in r.output
    assert "ships with the package" in ev.SCENARIOS_FROM


# ----------------------------------------------------------------------------- serve and keys: review finding 10
@pytest.mark.parametrize("port", ["99999", "-1"])
def test_serve_refuses_a_port_out_of_range(isolated: Path, port: str) -> None:
    r = run("serve", "--port", port)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and "OverflowError" not in r.output
    assert "Invalid value for '--port'" in r.output


def test_serve_reports_a_busy_port_before_announcing_anything(isolated: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        r = run("serve", "--host", "127.0.0.1", "--port", str(port))
    assert r.exit_code == 2, r.output
    assert r.stderr.strip() == (f"error: cannot listen on 127.0.0.1:{port}: already in use (another server, or "
                                "another knowzero serve?); choose another with --port")
    # nothing was announced: no "KnowZero … on http://…", and no once-shown key spent on a failed start
    assert "on http://" not in r.output and "kz-" not in r.output
    first = run("keys")
    assert "kz-" in first.stderr  # the keys are still issued (and shown) by the first command that succeeds


def test_serve_help_names_the_data_directory() -> None:
    r = run("serve", "--help")
    assert r.exit_code == 0 and "KNOWZERO_DATA_DIR" in r.output


def test_a_failing_keys_command_issues_no_keys(isolated: Path) -> None:
    for args in (("keys", "revoke", "typo"), ("keys", "create", "typo")):
        r = run(*args)
        assert r.exit_code == 2 and r.stderr.startswith("error: no user 'typo'"), r.output
        assert "kz-" not in r.output and "API keys" not in r.output, args
    first = run("keys")
    assert first.exit_code == 0 and first.stderr.count("kz-") == 5  # shown once, by the first command that works


@pytest.mark.parametrize(("url", "says"), [("sqlite:///x.db", "must be a PostgreSQL URL"),
                                            ("postgresql+psycopg://nobody@127.0.0.1:1/none", "cannot use the database")])
def test_eval_knowledge_database_url_errors_are_messages(tmp_path: Path, url: str, says: str) -> None:
    squad = Path(__file__).resolve().parents[1] / "data" / "squad" / "cmrc2018_slice.json"
    r = run("eval", "knowledge", "--squad", str(squad), "--limit", "2", "--data-dir", str(tmp_path / "kb"),
            "--database-url", url)
    assert r.exit_code == 2 and says in r.output and "Traceback" not in r.output


def test_a_missing_database_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    """A new user who set KNOWZERO_DATABASE_URL but skipped ``createdb`` got ~200 lines of traceback."""
    import os
    import subprocess
    import sys

    env = os.environ | {"KNOWZERO_DATABASE_URL": "postgresql+psycopg://postgres@127.0.0.1:5432/kz_no_such_db_0",
                        "KNOWZERO_DATA_DIR": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "knowzero.cli", "worker", "--drain"], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 2 and "error: cannot use the database" in r.stderr and "Traceback" not in r.stderr


def test_eval_knowledge_demo_samples_with_limit_and_refuses_squad_only_options(tmp_path: Path) -> None:
    # found by the issue-16 review: --demo silently ran all 48 questions whatever --limit said
    res = run("eval", "knowledge", "--demo", "--limit", "5", "--data-dir", str(tmp_path / "d"), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout.strip().splitlines()[-1])["n"] == 5
    res = run("eval", "knowledge", "--demo", "--unanswerable-share", "0.2", "--json")
    assert res.exit_code == 2 and "apply to --squad" in res.output


def test_the_console_script_ingests_without_loading_the_full_cli(tmp_path: Path) -> None:
    """``knowzero ingest`` through the console script's entry loads only the knowledge base's command."""
    import os
    import subprocess
    import sys

    folder = tmp_path / "docs"
    write(folder / "parking.md", "# Parking\n\nThe car park opens at 6:30.\n")
    code = ("import sys; from knowzero.entry import main\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print('full cli loaded:', 'knowzero.cli' in sys.modules, 'knowzero.graph.builder' in sys.modules)")
    env = {**os.environ, "KNOWZERO_DATA_DIR": str(tmp_path / "data")}
    env.pop("KNOWZERO_DATABASE_URL", None)
    out = subprocess.run([sys.executable, "-c", code, "ingest", str(folder), "--no-embed", "--json"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.strip().splitlines()
    assert json.loads(lines[-2])["added"] == ["docs/parking.md"]
    assert lines[-1] == "full cli loaded: False False"
