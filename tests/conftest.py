"""Shared fixtures: a temp data directory for every run, isolated settings, small and demo
knowledge bases. Helpers (scripted chat model, API client, SSE decoding, the error shape) live in
``kz_testlib`` (a unique name: there are several conftest.py files, so ``import conftest`` is
ambiguous).

Markers (strict, see pyproject): ``slow`` (real models over the whole demo knowledge base,
subprocesses), ``postgres`` (127.0.0.1:5432 database ``test``), ``redis`` (127.0.0.1:6379).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kz_testlib import SMALL_DOCS, knowzero_env, make_kb


@pytest.fixture(autouse=True, scope="session")
def _session_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Nothing in the suite may write to ./.knowzero: default every run to a temp data dir."""
    with knowzero_env(data_dir=str(tmp_path_factory.mktemp("kz-default")), env="test"):
        yield


@pytest.fixture()
def isolated(tmp_path: Path) -> Iterator[Path]:
    """A fresh data directory as the process settings for one test."""
    with knowzero_env(data_dir=str(tmp_path / "kz"), env="test"):
        yield tmp_path / "kz"


@pytest.fixture(scope="session")
def small_kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Three tiny Chinese documents (part A, part B, leave policy), embedded once per session."""
    return make_kb(tmp_path_factory.mktemp("small-kb") / "kz", SMALL_DOCS)


@pytest.fixture(scope="session")
def demo_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory with the bundled demo knowledge base ingested (shipped vectors: fast)."""
    from knowzero.knowledge.kb import demo_kb_path

    d = tmp_path_factory.mktemp("demo") / "kz"
    kb = make_kb(d)
    report = kb.ingest_paths([demo_kb_path()], collection="demo")
    assert report.added and not report.failed, report.to_dict()
    kb.engine.dispose()
    return d
