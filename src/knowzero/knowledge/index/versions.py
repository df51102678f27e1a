"""Versions of one policy: which document is current, which ones it supersedes (pure).

A team keeps the old edition of a policy next to the new one ("运输安全管理规定（2024版）" and "（2026版）").
Answering from both named the old value, or showed a "documents disagree" note, where the team's answer is
simply the current one. A document supersedes another when

- it says so: "《…（2024版）》同时废止" / "…作废" / "supersedes the … (2024 edition)" naming the other's title, or
- both are editions of one title (the same title once its edition — a year with 版/edition/version, "v2",
  "第二版" — is taken out) in the same collection, and it is the later one: by the edition's year, else by the
  effective date its first lines state ("生效日期：2026年1月1日", "自2026年1月1日起施行", "takes effect on …").

The superseded editions are kept (a question may ask about the 2024 rule by name) but are not searched
otherwise (:func:`knowzero.knowledge.answer.retriever.retrieve`), and an answer from the current edition names them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

_EDITION = re.compile(r"[（(\[]?\s*(?:(?P<y>(?:19|20)\d{2})\s*(?:年)?\s*(?:版|修订版|修订|edition|version|ed\.?|rev\.?)|"
                      r"v(?:er(?:sion)?)?\s*\d+(?:\.\d+)*|第[一二三四五六七八九十\d]+版)\s*[)）\]]?"
                      r"|[（(]\s*(?:19|20)\d{2}\s*年?\s*[)）]\s*$", re.I)
"""An edition in a title: a year with 版/edition/version, "v2", "第二版", a bracketed year ending the title ("Expense
Approval Policy (2026)"; a bare year is no edition: "World Cup 2014")."""
_YEAR = re.compile(r"(?:19|20)\d{2}")
_EFFECTIVE = re.compile(r"(?:生效日期|施行日期|实施日期|执行日期|effective(?: date| from| on)?|takes effect on)[：:\s]*"
                        r"(?:[A-Za-z]+\s+\d{1,2},\s*|\d{1,2}\s+[A-Za-z]+\s+)?((?:19|20)\d{2})"
                        r"|自\s*((?:19|20)\d{2})\s*年.{0,12}?(?:起施行|起执行|起实施|施行)", re.I)
_REPEALS = re.compile(r"《([^》]{2,80})》[^。；;\n]{0,12}?(?:同时|即行|一并)?(?:废止|作废|停止执行|不再执行)")
_SUPERSEDES_EN = re.compile(r"(?:supersedes?|replaces?)\s+(?:the\s+)?(.{3,100}?)(?:,|\.|;| which\b| and\b|$)", re.I)
_TRAILING_YEAR = re.compile(r"\s+(?:19|20)\d{2}\s*$")
_NOISE = re.compile(r"[\s《》〈〉「」『』\"'“”‘’·・,，.。:：;；!！?？_\-—–()（）\[\]【】]+")


@dataclass(frozen=True)
class DocInfo:
    """What deciding needs of a document: its path, collection, title, first lines and last lines."""

    path: str
    collection: str
    title: str
    head: str
    tail: str = ""


def family(title: str) -> str:
    """The title without its edition, normalised ("瀚陆物流有限公司 运输安全管理规定（2024版）" → one key for
    every edition).

    >>> family("瀚陆物流有限公司 运输安全管理规定（2024版）") == family("瀚陆物流有限公司运输安全管理规定（2026版）")
    True
    >>> family("Continuing Education Policy (2024 edition)") == family("Continuing Education Policy (2026 edition)")
    True
    >>> family("Harbourline — Expense Approval Policy (2024)") == family("Harbourline — Expense Approval Policy (2026)")
    True
    """
    t = unicodedata.normalize("NFKC", title).lower()
    return _NOISE.sub("", _EDITION.sub(" ", t))


def edition_year(doc: DocInfo) -> int | None:
    """The edition's year from the title, else the effective date in the first lines."""
    m = _EDITION.search(unicodedata.normalize("NFKC", doc.title))
    if m and (y := _YEAR.search(m.group(0))):
        return int(y.group(0))
    e = _EFFECTIVE.search(doc.head)
    if e:
        return int(e.group(1) or e.group(2))
    return None


def superseded(docs: Iterable[DocInfo]) -> dict[str, str]:
    """Path of each superseded document → the path of the document that supersedes it."""
    docs = list(docs)
    out: dict[str, str] = {}
    by_title = {_NOISE.sub("", unicodedata.normalize("NFKC", d.title).lower()): d for d in docs}
    for d in docs:  # explicit: the newer document names the one it repeals
        said = f"{d.head}\n{d.tail}"  # "本办法自…起施行，《…》同时废止" closes a policy as often as it opens it
        named = [m.group(1) for m in _REPEALS.finditer(said)] + [m.group(1) for m in _SUPERSEDES_EN.finditer(said)]
        for title in named:
            key = _NOISE.sub("", unicodedata.normalize("NFKC", title).lower())
            old = by_title.get(key) or next((o for k, o in by_title.items() if min(len(k), len(key)) >= 8
                                             and (k in key or key in k) and o.collection == d.collection), None)
            if old is not None and old.path != d.path:
                out[old.path] = d.path
    families: dict[tuple[str, str], list[tuple[int, DocInfo]]] = {}
    for d in docs:
        year = edition_year(d)
        # a title ending in a bare year is an edition when the document states its effective date ("Object Loans
        # Policy 2026" … "Effective 1 January 2026"); a bare year alone is not ("World Cup 2014")
        key = family(_TRAILING_YEAR.sub("", d.title) if _EFFECTIVE.search(d.head) else d.title)
        if year is not None and key:
            families.setdefault((d.collection, key), []).append((year, d))
    for editions in families.values():
        years = {y for y, _ in editions}
        if len(years) < 2:
            continue
        newest_year = max(years)
        newest = [d for y, d in editions if y == newest_year]
        if len(newest) != 1:
            continue
        for y, d in editions:
            if y < newest_year:
                out.setdefault(d.path, newest[0].path)
    for path in list(out):  # a chain (2022 → 2024 → 2026) points at the current edition
        seen = {path}
        while out[path] in out and out[path] not in seen:
            seen.add(out[path])
            out[path] = out[out[path]]
    return out


def names_edition(question: str, title: str) -> bool:
    """The question asks about this edition by name (its year, or its title with the edition)."""
    m = _EDITION.search(unicodedata.normalize("NFKC", title))
    year = _YEAR.search(m.group(0)) if m else None
    return bool(year and year.group(0) in question)
