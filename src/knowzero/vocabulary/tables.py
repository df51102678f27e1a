"""The vocabulary's tables: the TOML files under ``vocabulary/data/``, each read once per process.

:func:`table` returns one file's content (read-only: every caller shares it); :func:`alternation`
joins a table's regex alternatives; :class:`Message` is one reply or label in both languages. The
compiled values live next to their users' idea (``vocabulary/service.py``: service words).

>>> table("handoff")["request"]["zh"][0]
'转人工'
>>> Message("【{name}】", "[{name}]").say(False, name="Ann")
'[Ann]'
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable, Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any, NamedTuple


def _frozen(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _frozen(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


@functools.cache
def table(name: str) -> Mapping[str, Any]:
    """``vocabulary/data/<name>.toml``, read once per process, as read-only mappings and tuples."""
    text = resources.files("knowzero.vocabulary").joinpath("data", f"{name}.toml").read_text("utf-8")
    return _frozen(tomllib.loads(text))  # type: ignore[no-any-return]


def alternation(*parts: Iterable[str]) -> str:
    """Regex alternatives (lists of a table) joined into one: ``(["a", "b"], ["c"])`` → ``"a|b|c"``."""
    return "|".join(p for group in parts for p in group)


class Message(NamedTuple):
    """A reply or label in Chinese and English; ``{placeholders}`` are filled by :meth:`say`."""

    zh: str
    en: str

    def say(self, zh: bool, **values: object) -> str:
        text = self.zh if zh else self.en
        return text.format(**values) if values else text

    @classmethod
    def of(cls, entry: Mapping[str, str]) -> Message:
        return cls(entry["zh"], entry["en"])
