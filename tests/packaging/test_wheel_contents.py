"""The wheel ships every file of the package: ``pip install .`` must work like the editable install.

``scripts/test.sh`` installs in editable mode, so a data file left out of ``package-data`` (as
``graph/data/replies.json`` once was: every greeting crashed after a plain ``pip install .``) is
invisible to the rest of the suite. This test builds the wheel from a copy of the tree and compares
its file list with ``src/knowzero``. It does not install or run the wheel: ``scripts/smoke_wheel.sh``
does that.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "knowzero"


def package_files(root: Path) -> set[str]:
    """Every file under the package as a wheel path (``knowzero/…``), bytecode caches excluded."""
    return {"knowzero/" + p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}


def build_wheel(project: Path, out: Path) -> Path:
    """``pip wheel`` in an isolated build environment (pyproject needs setuptools>=68)."""
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--disable-pip-version-check",
                        "--wheel-dir", str(out), str(project)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"pip wheel failed:\n{r.stdout}\n{r.stderr}"
    (wheel,) = out.glob("knowzero-*.whl")
    return wheel


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project as a clean copy: an in-tree build would reuse a stale ``build/`` and write into the repo."""
    dst = tmp_path_factory.mktemp("wheel-src") / "knowzero"
    dst.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, dst / name)
    shutil.copytree(PACKAGE, dst / "src" / "knowzero", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return dst


@pytest.mark.slow
def test_every_package_file_is_in_the_wheel(project_copy: Path, tmp_path: Path) -> None:
    expected = package_files(project_copy / "src" / "knowzero")
    assert "knowzero/graph/data/replies.json" in expected and "knowzero/web/index.html" in expected
    with zipfile.ZipFile(build_wheel(project_copy, tmp_path)) as z:
        shipped = {n for n in z.namelist() if n.startswith("knowzero/")}
    missing = sorted(expected - shipped)
    assert missing == [], f"not in the wheel (add them to [tool.setuptools.package-data]): {missing}"
