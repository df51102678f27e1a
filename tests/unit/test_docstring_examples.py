"""Every example in the package's docstrings runs and prints what it says (they are the pure functions' specs)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import knowzero

MODULES = sorted(m.name for m in pkgutil.walk_packages(knowzero.__path__, "knowzero."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} docstring examples failed"
