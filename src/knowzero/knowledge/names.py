"""Names that come from outside (upload file names, collection names) made safe to store and cite.

A stored document is cited as ``<collection>/<file name>``; both parts are user input, so they are
normalised (Unicode NFKC), stripped of path parts and control characters, and checked against a
small grammar. Anything that cannot be made safe is refused with :class:`InvalidInput` rather than
silently rewritten into something that could collide with another file. Does not touch the disk.
"""

from __future__ import annotations

import re
import unicodedata

from knowzero.errors import InvalidInput
from knowzero.input import COLLECTION_PATTERN  # noqa: F401 - what a collection name may be (re-exported)

MAX_NAME_CHARS = 120
_COLLECTION = re.compile(COLLECTION_PATTERN)
_BAD_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def safe_file_name(name: str | None) -> str:
    """The last path part of an upload's name, normalised; refuses empty, hidden, odd or long names.

    >>> safe_file_name("../../etc/请假制度.md")
    '请假制度.md'
    >>> safe_file_name("C:\\\\Users\\\\me\\\\a.txt")
    'a.txt'
    """
    raw = unicodedata.normalize("NFKC", name or "")
    base = re.split(r"[\\\\/]", raw)[-1].strip()
    if not base or base in (".", "..") or base.startswith("."):
        raise InvalidInput("file name: empty or hidden names are not accepted", [{"field": "files", "message": "bad name"}])
    if any(unicodedata.category(ch) in _BAD_CATEGORIES for ch in base):
        raise InvalidInput("file name: control or invisible characters are not accepted",
                           [{"field": "files", "message": "bad name"}])
    if len(base) > MAX_NAME_CHARS:
        raise InvalidInput(f"file name: at most {MAX_NAME_CHARS} characters", [{"field": "files", "message": "too long"}])
    return base


def safe_collection(name: str | None) -> str:
    """A collection name: 1–64 letters, digits, CJK, ``_`` or ``-``.

    >>> safe_collection("team-docs")
    'team-docs'
    """
    value = unicodedata.normalize("NFKC", name or "").strip()
    if not _COLLECTION.fullmatch(value):
        raise InvalidInput("collection: 1–64 letters, digits, Chinese characters, '_' or '-'",
                           [{"field": "collection", "message": "invalid"}])
    return value
