"""The tables a learning document's sources hold: every file's table rows read as sentences of their cells, and the
tables at the heart of a topic (:func:`topic_tables`), which a document carries whole (issue 28)."""

from __future__ import annotations

import re
from typing import Any

from knowzero.knowledge.answer.checks.injection import find_instructions
from knowzero.learning.cache import KBCache, cached
from knowzero.learning.sentences import Cand, classify, relevance, short_heading
from knowzero.vocabulary.questions import PRICE_NOUN, gives_value, names_price


def table_rows(kb: Any, path: str, cache: KBCache | None = None) -> list[Cand]:
    """The data rows of a file's tables (Markdown, and DOCX or HTML tables as parsed), each cited verbatim and
    read as a sentence of its cells under its header ("外径千分尺（0-25mm、25-50mm）：校准周期 6个月，校准方式 内部校准"); cached per revision."""
    return cached(cache, kb, ("table_rows", path), lambda: _table_rows(kb, path))


_ROW_LINE = re.compile(r"^\s*\|.*\|\s*$")
_RULE_LINE = re.compile(r"^[\s|:\-]+$")


def _table_rows(kb: Any, path: str) -> list[Cand]:
    from knowzero.knowledge.rows import row_sentence, table_cells

    src = kb.text_of(path)
    passages = kb.chunks_of(path)
    out: list[Cand] = []
    header: list[str] = []
    pos = 0
    lines = src.split("\n")
    for i, line in enumerate(lines):
        start, pos = pos, pos + len(line) + 1
        if _KV_ROW.match(line.strip()):  # a DOCX or HTML table's row as parsed: "类别: 博士研究生；基本津贴（元/月）: 3600。"
            text = line.strip()
            start += len(line) - len(line.lstrip())
            p = next((q for q in passages if q.start <= start < q.end), None)
            if p is not None and not find_instructions(text):
                out.append(Cand(text, path, p.title, p.section, start, start + len(text), p.id, p.domain, 0.0,
                                classify(text, p.section), text))
            continue
        if not _ROW_LINE.match(line) or _RULE_LINE.match(line):
            header = [] if not _ROW_LINE.match(line) else header
            continue
        if i + 1 < len(lines) and _RULE_LINE.match(lines[i + 1]) and "|" in lines[i + 1]:
            header = [line, lines[i + 1]]  # the header row and its rule name the cells below
            continue
        text = line.strip()
        start += len(line) - len(line.lstrip())
        said = row_sentence("\n".join(header + [text])) if header else row_sentence(text)
        p = next((q for q in passages if q.start <= start < q.end), None)
        if p is None or src[start:start + len(text)] != text or len(said) < 6 or find_instructions(said):
            continue
        if len(header) == 2 and (two := re.fullmatch(r"(.+?)：(\d[\d,.]*)", said)) and (cells := table_cells(header[0])):
            said = f"{two.group(1)}：{cells[-1]} {two.group(2)}"  # "80周岁至89周岁：津贴（元/月） 100", not a bare 100
        out.append(Cand(text, path, p.title, p.section, start, start + len(text), p.id, p.domain, 0.0,
                        classify(said, p.section), said))
    return out


MAX_TABLE_ROWS = 12
"""Rows of one table a document carries (a seniority or city-tier table is whole; a long list is its head)."""
_KV_ROW = re.compile(r"^(?:[^：:；;。\n]|:(?=\S)){1,48}: [^；\n]{1,80}(?:；(?:[^：:；;。\n]|:(?=\S)){1,48}: [^；\n]{1,80})+[。.]?$")
"""The parser joins a row's cells with "；", so a cell may hold an English ";" ("No charge; the deposit is refunded")
and a header may be long ("Completed years of service on 1 January") or hold a time ("Evening 18:00–23:00, flat
rate")."""


def is_row(c: Cand) -> bool:
    """A table row: a Markdown row, or a DOCX/HTML table's row as the parser writes it
    ("城市类别: 一类城市；住宿上限（元/晚）: 550。").

    >>> is_row(Cand("城市类别: 一类城市；住宿上限（元/晚）: 550。", "f", "t", "s", 0, 1, "p", "general"))
    True
    """
    return c.text.lstrip().startswith("|") or bool(_KV_ROW.match(c.text.strip()))


def file_tables(kb: Any, path: str, cache: KBCache | None = None) -> dict[str, list[Cand]]:
    """A file's table rows by the section that holds them, in document order (Markdown tables read through
    their headers, DOCX and HTML tables as parsed)."""
    out: dict[str, list[Cand]] = {}
    for c in table_rows(kb, path, cache):
        out.setdefault(c.section, []).append(c)
    return out


TABLE_RELEVANCE = 0.5
"""A table's share of the topic's term weight — or of one listed part's (see :func:`topic_tables`) — that makes it
one of the topic's tables."""


def topic_tables(kb: Any, paths: list[str], weights: dict[str, float], cache: KBCache | None = None,
                 n: int = 3, topic: str = "") -> list[tuple[str, list[Cand]]]:
    """(heading, rows) of the tables at the heart of a topic, at most ``n``, each whole up to MAX_TABLE_ROWS rows:
    those whose own heading and rows name the topic's terms best — the whole topic's, or one part's of a topic that
    lists its parts ("licence and experience, driving hours, allowances") — and the other tables of the best one's
    file that name a term of the topic (a rate card's pallet table beside its parcel table). The file's title counts
    half; in full when the table itself names one of the topic's terms (the "Tiers" table of the "Kestrel Club —
    Membership Terms" for "Kestrel Club membership tiers and benefits")."""
    parts = [{t: w for t, w in weights.items() if t in part.lower()} for part in _TOPIC_PARTS.split(topic)]
    parts = [p for p in parts if p and not all(t.isdigit() for t in p)]
    scored: list[tuple[float, str, list[Cand], bool]] = []
    for path in paths:
        for sec, rows in file_tables(kb, path, cache).items():
            own = " / ".join(sec.split(" / ")[1:]) or ("" if sec == rows[0].title else sec)
            text = own + " " + " ".join(r.said for r in rows)
            named = relevance(weights, text) > 0
            data = path.lower().endswith((".csv", ".tsv"))  # a roster is a topic's table by the whole topic only
            rel = max(_table_relevance(w, text + _priced(rows, w, own, rows[0].title), rows[0].title, named)
                      for w in (weights, *([] if data else parts)))
            scored.append((rel, sec, rows, named))
    # of tables as relevant, those of the file whose title names the topic first (the rate card's, not a club's),
    # by the topic's own words: "Charges" in a title says nothing of which charges
    subject = _singular({t: w for t, w in weights.items() if not names_price(t)})
    scored.sort(key=lambda x: (-x[0], -relevance(subject, x[2][0].title)))
    if not scored or scored[0][0] < TABLE_RELEVANCE:
        return []
    best, best_file = scored[0][0], scored[0][2][0].source
    return [(short_heading(sec, rows[0].title), rows[:MAX_TABLE_ROWS]) for rel, sec, rows, named in scored
            if (rel >= TABLE_RELEVANCE and rel >= 0.75 * best) or (named and rows[0].source == best_file)][:n]


_TOPIC_PARTS = re.compile(r"[,，、;；:：]|\band\b|和|与|及")
"""Where a topic that lists its parts divides ("2026 parcel and pallet prices, zones and surcharges")."""


def _priced(rows: list[Cand], weights: dict[str, float], heading: str, title: str) -> str:
    """The topic's words for prices ("价格", "charges"), to be read in a table of amounts most of whose rows give one
    ("3–6天（元/天）: 198", "Adult: £8.50") though it never says the word — when its heading or its file's title
    names prices in its own words ("车型组与租金", "Loan fees", "租车价目表", "Admission and Charges"); else "": a
    table of amounts alone is no topic's prices (a membership's tiers with their fees)."""
    asked = [t for t in weights if names_price(t)]
    if not asked or 2 * sum(gives_value("money", r.said) for r in rows) < len(rows):
        return ""
    return " " + " ".join(asked) if PRICE_NOUN.search(f"{heading} {title}") else ""


def _singular(weights: dict[str, float]) -> dict[str, float]:
    """An English plural term read as its singular, which the plural's text holds too ("concessions" finds the
    "Concession" column; "objects" the "object" row)."""
    out: dict[str, float] = {}
    for t, w in weights.items():
        stem = t[:-1] if len(t) > 4 and t.isascii() and t.isalpha() and t.endswith("s") and not t.endswith("ss") else t
        out[stem] = out.get(stem, 0.0) + w
    return out


def _table_relevance(weights: dict[str, float], text: str, title: str, named: bool) -> float:
    weights = _singular(weights)
    return relevance(weights, text + " " + title) if named else relevance(weights, text, title)
