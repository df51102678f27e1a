"""Learning on a team's own documents: comments that do what they ask, documents that carry the tables.

The set (``learning.jsonl`` in an own-documents folder such as ``tests/data/orgdocs``; one folder per
organisation, uploaded as a collection beside the bundled demo) names documents, asked for as a user
asks ("帮我生成一份关于瀚陆物流年假的学习文档"), each with table rows that are the heart of its topic, and
comments on them with what serves each:

- ``question`` (op ``answer``): the answer is written into the document — a new line holds one of ``expect``;
  a question the sources do not answer (``servable: false``) leaves the document unchanged;
- ``clarify`` (``example``, ``why``, ``explain``, ``scope``): a new line holds one of ``expect`` (a source fact
  that serves); when the sources have none (``servable: false``) the document is unchanged and the reply
  does not pretend the document already covers it;
- ``edit`` (``delete``, ``simplify``): the selected sentence is gone (delete), or replaced by a shorter line
  that keeps its numbers and negations (simplify); every other line is kept.

Every comment is made on a freshly generated document through :func:`knowzero.learning.service.comment_on`,
the REST route's and the chat turn's code path. Figures per split (``dev`` fitted on, ``held`` reported),
worst first: ``comment_served_share``, ``skipped`` (comments on a sentence the document, generated anew, no
longer holds: left out of the shares), ``comment_served_share_by_kind``, ``comment_false_adopt_share``,
``table_coverage`` (documents whose every listed row is on one line of the document, key and value).
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
from pathlib import Path
from typing import Any

from knowzero.config import Settings
from knowzero.eval.metrics import ratio
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.lexicon import Lexicon
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.learning.service import LearningService, comment_on
from knowzero.persistence.db import make_engine

KINDS = ("question", "clarify", "edit")
_GONE = "the selection is not in the document"
_MARK = re.compile(r"\[\d+\]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NEGATION = re.compile(r"不|没|无|未|非|禁|\bnot\b|\bno\b|n't", re.I)
_ALREADY = re.compile(r"文档中已有|already (?:in|covered)", re.I)


def load_set(root: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(documents, comments) of ``root/learning.jsonl`` and ``root/learning_*.jsonl`` (more splits)."""
    files = [root / "learning.jsonl", *sorted(root.glob("learning_*.jsonl"))]
    rows = [json.loads(line) for f in files if f.is_file() for line in f.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [r for r in rows if r["type"] == "document"], [r for r in rows if r["type"] == "comment"]


def build_kb(root: Path, data_dir: Path, orgs: list[str]) -> KnowledgeBase:
    """The demo company and every organisation's folder, each its own collection (as a team uploads them)."""
    s = Settings(data_dir=data_dir, database_url="")
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.ensure_demo()
    for org in orgs:
        kb.ingest_paths(sorted(p for p in (root / org).iterdir() if p.is_file()), collection=org)
    kb.embed_pending()
    return kb


def lines_of(doc: dict[str, Any]) -> list[str]:
    """A document's text lines, citation markers and list marks stripped."""
    out = []
    for s in doc.get("sections", []):
        for line in s["markdown"].splitlines():
            t = _MARK.sub("", line).strip().removeprefix("- ").strip()
            if t:
                out.append(t)
    return out


def table_covered(doc: dict[str, Any], rows: list[list[str]]) -> bool:
    lines = lines_of(doc)
    return all(any(k in line and v in line for line in lines) for k, v in rows)


def judge(item: dict[str, Any], before: dict[str, Any], res: dict[str, Any]) -> dict[str, Any]:
    """served / false_adopt for one comment (see the module doc)."""
    old, new = lines_of(before), lines_of(res.get("document") or before)
    changed = bool(res.get("changed"))
    added = [line for line in new if line not in old]
    kept = all(line in new for line in old if item["selected"] not in line)
    op = item["op"]
    if op == "delete":
        served = changed and kept and not any(item["selected"] in line for line in new)
    elif op == "simplify":
        target = next((line for line in old if item["selected"] in line), "")
        short = [line for line in added if len(line) < len(target)]
        served = bool(changed and kept and target and target not in new and len(short) == 1
                      and set(_NUMBER.findall(target)) <= set(_NUMBER.findall(short[0]))
                      and len(_NEGATION.findall(short[0])) >= len(_NEGATION.findall(target)))
    elif item["servable"]:  # written in; or, unchanged, the reply quotes the document's own line that serves
        served = (changed and any(e in line for line in added for e in item["expect"])) or (
            not changed and any(e in str(res.get("message", "")) and any(e in line for line in old)
                                for e in item["expect"]))
    else:
        served = not changed and not _ALREADY.search(str(res.get("message", "")))
    served = served and not any(m in line for line in added for m in item.get("must_not", []))
    return {"served": bool(served), "false_adopt": changed and not served, "changed": changed}


def _section_of(doc: dict[str, Any], selected: str) -> str | None:
    return next((s["id"] for s in doc.get("sections", []) if selected in _MARK.sub("", s["markdown"])), None)


def run_own(root: Path, *, provider: Any = None, data_dir: Path | None = None,
            progress: Any = None) -> dict[str, Any]:
    """Every document of the set generated, every comment made on a fresh copy; figures per split."""
    documents, comments = load_set(root)
    orgs = sorted({d["org"] for d in documents})
    tmp = data_dir or Path(tempfile.mkdtemp(prefix="kz-learn-own-"))
    kb = build_kb(root, tmp / "kb", orgs)
    s = Settings(data_dir=tmp / "learning", database_url="")
    svc = LearningService(make_engine(s.db_url), kb=kb, provider=provider, settings=s)
    kdeps = KnowledgeDeps(kb, kb.settings, provider=provider)
    lexicon = Lexicon()  # as the server holds it: a comment in the other language is read in both
    by_id = {d["id"]: d for d in documents}
    doc_rows = []
    for d in documents:
        doc = svc.generate(d["request"], user_id=f"eval-{d['id']}")
        doc_rows.append({**d, "status": doc.get("status"), "title": doc.get("title"),
                         "sections": len(doc.get("sections", [])),
                         "table_covered": doc.get("status") == "ready" and table_covered(doc, d["table_rows"])})
    rows = []
    for k, item in enumerate(comments):
        if progress:
            progress(k + 1, len(comments))
        doc = svc.generate(by_id[item["doc"]]["request"], user_id=f"eval-{item['id']}")
        sid = _section_of(doc, item["selected"])
        if doc.get("status") != "ready" or sid is None:
            rows.append({**item, "served": False, "false_adopt": False, "changed": False,
                         "note": "no document" if doc.get("status") != "ready" else _GONE})
            continue
        res = asyncio.run(comment_on(svc, doc["id"], selected_text=item["selected"], comment=item["comment"],
                                     kdeps=kdeps, section_id=sid, user_id=f"eval-{item['id']}",
                                     lexicon=lexicon))
        rows.append({**item, **judge(item, doc, res), "need": res["need"], "status": res["comment"]["status"],
                     "message": str(res.get("message", ""))[:200]})
    out: dict[str, Any] = {"splits": {}}
    splits = list(dict.fromkeys(r["split"] for r in rows))
    for split in (*splits, "all"):
        every = [r for r in rows if split == "all" or r["split"] == split]
        # a comment written on an earlier generation of its document, whose sentence that document no longer
        # holds, cannot be made (a user comments on what they see): counted apart, not as served or failed
        rs = [r for r in every if r.get("note") != _GONE]
        ds = [r for r in doc_rows if split == "all" or r["split"] == split]
        fig = {"n": len(rs), "skipped": len(every) - len(rs), "comment_served_share": ratio(sum(r["served"] for r in rs), len(rs)),
               "comment_served_share_by_kind": {k: ratio(sum(r["served"] for r in rs if r["kind"] == k),
                                                         sum(r["kind"] == k for r in rs)) for k in KINDS},
               "comment_false_adopt_share": ratio(sum(r["false_adopt"] for r in rs), len(rs)),
               "documents": len(ds),  # a split of comments alone (on another split's documents) covers no table
               "table_coverage": ratio(sum(r["table_covered"] for r in ds), len(ds)) if ds else None}
        if split == "all":
            out.update(fig)
        else:
            out["splits"][split] = fig
    out["worst_split"] = min(splits, key=lambda sp: out["splits"][sp]["comment_served_share"]) if splits else None
    out["_rows"] = rows
    out["_doc_rows"] = doc_rows
    return out
