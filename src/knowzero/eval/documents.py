"""Own documents: ``knowzero eval documents --dir tests/data/orgdocs --split dev|held|all
[--collections named|none|both] [--json] [--rows FILE]``.

Runs the product the way an outside check of a team's own documents does: a fresh server
(a temporary data dir unless ``--data-dir``; the bundled demo company ingested on start, as
``knowzero serve`` does), each organisation's files (one sub-folder of ``--dir`` per organisation; its
name is the collection) uploaded through the public HTTP API as an editor (``POST /v1/kb/upload``),
the queued embeddings finished, then every question asked with ``POST /v1/chat`` (``stream: false``,
a new thread each) with ``collections: [org]`` (``named``) or without collections (``none``).
The app runs in process (``create_app`` + ``httpx.ASGITransport``), so nothing listens on a port.

The questions (``questions.jsonl`` in ``--dir``; see ``tests/data/orgdocs/README.md``) carry accepted
answers, ``must_not`` strings (a superseded value, another organisation's or the demo company's), a
``kind`` and a ``split``. :func:`grade` (pure) grades one reply:

- answerable question: ``right`` when an accepted answer appears in the reply (compared after
  :func:`normalise`: NFKC, case, spaces, 元/¥/$, thousands separators; a number only as a whole
  number), no ``must_not`` string does, and the verdict is not ``insufficient``; ``abstained`` when the
  verdict is ``insufficient``; otherwise ``wrong``;
- ``decline`` question (near miss: the topic is there, the asked fact is not): ``right`` when the reply
  declines (verdict ``insufficient`` or no citation) and states no ``must_not`` value; otherwise ``wrong``.

Figures per run (shares are of the questions they are about; counts are counts):
``right`` / ``wrong`` / ``abstained`` (shares of all questions), ``wrong_confirmed`` (wrong replies with
verdict ``confirmed``: a count), ``by_kind`` (kind → right share), ``outside_collections`` (replies
citing a file outside the question's organisation: a count), ``value_first_80`` (share of right
answerable replies with an accepted answer in the first 80 characters), ``false_conflicts`` (replies
carrying a "documents disagree"/矛盾 note on a question without a real conflict — every question
but ``newer_version`` ones and those marked ``"conflict": true``: a count), ``newer_version_alone``
(share of ``newer_version`` questions answered with the new value and without the old one),
``cross_language_right`` (right share of the ``cross_language`` questions), ``p50_ms`` / ``p95_ms``
(whole HTTP turn, client side), ``n``, and ``counts`` (the numerators and denominators).
With ``--collections both`` the two runs are under ``named`` and ``none`` (asked on the same server)
and the top-level figures are the ``named`` run's.

Not a timed test: the figures are reported, never asserted.
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
import time
import unicodedata
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import typer

from knowzero.api.app import create_app
from knowzero.config import Settings
from knowzero.eval.knowledge import CONFLICT_NOTES
from knowzero.eval.llmuse import PROVIDER_HELP, cli_provider
from knowzero.eval.metrics import percentile, ratio
from knowzero.service.identity import announce_keys
from knowzero.wiring import build_deps

KINDS = ("fact", "table_lookup", "computed", "condition", "near_miss", "newer_version", "yes_no")
SPLITS = ("dev", "held", "all")
MODES = ("named", "none", "both")
DOC_SUFFIXES = {".md", ".markdown", ".txt", ".html", ".htm", ".pdf", ".docx", ".csv"}
CONFLICT_MARKS = (*CONFLICT_NOTES, "矛盾", "conflicts with a source")
"""A reply saying its sources disagree: the reader's conflict note, or the ``contradicted`` preface."""
EDITOR = {"Authorization": "Bearer demo-editor"}
FIRST_CHARS = 80
Say = Callable[[str], None]


# ----- grading (pure) -------------------------------------------------------------------------------
_SPACE = re.compile(r"\s+")
_MARKERS = re.compile(r"\[\d{1,3}\]")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_TRAILING_ZEROS = re.compile(r"(?<![\d.])(\d+)\.(\d*?)0+(?![\d.])")
_CURRENCY = re.compile(r"[元¥$]|(?<![a-z])usd(?![a-z])|(?<![a-z])rmb(?![a-z])")


def normalise(text: str) -> str:
    """The form replies and answers are compared in: NFKC (full-width → half-width, ￥ → ¥), lower case,
    no currency marks (元, ¥, $, USD, RMB), no thousands separators, no trailing decimal zeros (a CSV
    cell 27.40 is shown as 27.4, 40 as 40.0), no whitespace — except one space between two digits, so the
    cells of a table row read one per line stay apart ("300\\n80" is not 30080).

    >>> normalise("每晚５５０ 元"), normalise("$1,500 per year"), normalise("0571-8816 2300"), normalise("300\\n80")
    ('每晚550', '1500peryear', '0571-8816 2300', '300 80')
    >>> normalise("27.40 / 40.0 / 3.5 / 1.05")
    '27.4/40/3.5/1.05'
    """
    t = unicodedata.normalize("NFKC", text or "").lower()
    t = _THOUSANDS.sub("", t)
    t = _TRAILING_ZEROS.sub(lambda m: m.group(1) + (f".{m.group(2)}" if m.group(2) else ""), t)
    t = _CURRENCY.sub("", t)
    return _SPACE.sub(_between_digits, t)


def _between_digits(m: re.Match[str]) -> str:
    s, a, b = m.string, m.start(), m.end()
    return " " if 0 < a and b < len(s) and s[a - 1].isdigit() and s[b].isdigit() else ""


def mentions(reply: str, answer: str) -> bool:
    """``answer`` appears in ``reply`` after :func:`normalise`; an answer that starts or ends with a digit
    must not run on into more digits there ("12" is not found in "120" or "3.12", "9天" is in "共9天").

    >>> mentions("年假为12天。", "12天"), mentions("年假为120天", "12"), mentions("合计 1,179 小时", "1179")
    (True, False, True)
    """
    a, r = normalise(answer), normalise(reply)
    if not a:
        return False
    if not (a[0].isdigit() or a[-1].isdigit()):
        return a in r
    before = r"(?<![\d.])" if a[0].isdigit() else ""
    after = r"(?!\d|\.\d)" if a[-1].isdigit() else ""
    return re.search(before + re.escape(a) + after, r) is not None


def declines(level: str | None, citations: Sequence[Any]) -> bool:
    """The reply gives no answer: verdict ``insufficient``, or nothing cited."""
    return level == "insufficient" or not citations


def has_conflict_note(reply: str) -> bool:
    return any(m.lower() in (reply or "").lower() for m in CONFLICT_MARKS)


def grade(question: dict[str, Any], reply: str, level: str | None, citations: Sequence[Any]) -> dict[str, Any]:
    r"""One reply graded: ``grade`` (right | wrong | abstained), ``reasons`` (why it is not right),
    ``found`` (the accepted answer seen), ``must_not_seen``, ``declined``, ``first_80`` (an accepted
    answer within the first 80 characters; None unless right and answerable), ``conflict_note``,
    ``newer_alone`` (None unless a ``newer_version`` question).

    Citation markers ([1], [2] …) are not part of the reply's text. For a ``computed`` question the
    number must be in the reply's own words (outside the cited quotes) or in the first cited quote
    (a maximum answered by its row): a count of 3 is not answered by the cells of the rows a reply lists.

    >>> q = {"answers": ["3.5小时"], "must_not": ["4小时"], "kind": "newer_version"}
    >>> grade(q, "连续驾驶不得超过3.5小时[1]", "confirmed", [{"source": "a"}])["grade"]
    'right'
    >>> grade(q, "连续驾驶不得超过4小时[1]", "confirmed", [{"source": "a"}])["reasons"]
    ['no accepted answer', 'states 4小时']
    >>> rows = [{"quote": "姓名: 甲；工龄: 30。"}, {"quote": "姓名: 乙；工龄: 3。"}]
    >>> c = {"answers": ["3"], "kind": "computed"}
    >>> [grade(c, f"共 {n} 人\n- 姓名: 甲；工龄: 30。[1]\n- 姓名: 乙；工龄: 3。[2]", "confirmed", rows)["grade"] for n in (2, 3)]
    ['wrong', 'right']
    """
    reply = reply or ""
    text = _MARKERS.sub("", reply)
    answers = [str(a) for a in question.get("answers") or []]
    must_not = [str(m) for m in question.get("must_not") or []]
    scope = text
    if question.get("kind") == "computed":
        quotes = [str(q) for c in citations if isinstance(c, dict) and (q := c.get("quote"))]
        for quote in sorted(set(quotes), key=len, reverse=True):
            scope = scope.replace(quote, "\n")
        scope = scope + "\n" + (quotes[0] if quotes else "")
    found = next((a for a in answers if mentions(scope, a)), None)
    bad = [m for m in must_not if mentions(text, m)]
    declined = declines(level, citations)
    reasons: list[str] = []
    if question.get("decline"):
        if not declined:
            reasons.append(f"answered (verdict {level}) where the fact is absent")
        reasons += [f"states {m}" for m in bad]
        result = "wrong" if reasons else "right"
    elif level == "insufficient":
        result = "abstained"
        reasons.append("verdict insufficient")
    else:
        if found is None:
            reasons.append("no accepted answer")
        reasons += [f"states {m}" for m in bad]
        result = "wrong" if reasons else "right"
    first = None
    if result == "right" and not question.get("decline"):
        first = any(mentions(text[:FIRST_CHARS], a) for a in answers)
    newer = (found is not None and not bad) if question.get("kind") == "newer_version" else None
    return {"grade": result, "reasons": reasons, "found": found, "must_not_seen": bad, "declined": declined,
            "first_80": first, "conflict_note": has_conflict_note(reply), "newer_alone": newer}


def summarise(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one run from its graded rows (see the module doc)."""
    n = len(rows)
    by = Counter(r["grade"] for r in rows)
    kinds: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        kinds[r["kind"]].append(r)
    right_answerable = [r for r in rows if r["grade"] == "right" and not r["decline"]]
    no_conflict = [r for r in rows if r["kind"] != "newer_version" and not r.get("conflict")]
    newer = [r for r in rows if r["kind"] == "newer_version"]
    cross = [r for r in rows if r.get("cross_language")]
    times = [r["elapsed_ms"] for r in rows]
    counts = {"right": by["right"], "wrong": by["wrong"], "abstained": by["abstained"],
              "answerable": sum(not r["decline"] for r in rows), "decline": sum(bool(r["decline"]) for r in rows),
              "right_answerable": len(right_answerable),
              "value_first_80": sum(bool(r["first_80"]) for r in right_answerable),
              "false_conflict_candidates": len(no_conflict),
              "newer_version": len(newer), "newer_version_alone": sum(bool(r["newer_alone"]) for r in newer),
              "cross_language": len(cross), "cross_language_right": sum(r["grade"] == "right" for r in cross),
              "by_kind": {k: f"{sum(r['grade'] == 'right' for r in kinds[k])}/{len(kinds[k])}"
                          for k in KINDS if kinds[k]},
              "by_org": {o: f"{sum(r['grade'] == 'right' for r in rs)}/{len(rs)}"
                         for o, rs in sorted(_group(rows, "org").items())}}
    return {"n": n, "right": ratio(by["right"], n), "wrong": ratio(by["wrong"], n),
            "abstained": ratio(by["abstained"], n),
            "wrong_confirmed": sum(r["grade"] == "wrong" and r["verdict"] == "confirmed" for r in rows),
            "by_kind": {k: ratio(sum(r["grade"] == "right" for r in kinds[k]), len(kinds[k])) for k in KINDS if kinds[k]},
            "outside_collections": sum(bool(r["outside"]) for r in rows),
            "value_first_80": ratio(counts["value_first_80"], len(right_answerable)),
            "false_conflicts": sum(bool(r["conflict_note"]) for r in no_conflict),
            "newer_version_alone": ratio(counts["newer_version_alone"], len(newer)),
            "cross_language_right": ratio(counts["cross_language_right"], len(cross)),
            "p50_ms": round(percentile(times, 50), 1), "p95_ms": round(percentile(times, 95), 1),
            "counts": counts}


def _group(rows: Iterable[dict[str, Any]], key: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        out[r[key]].append(r)
    return out


# ----- data -----------------------------------------------------------------------------------------
def load_questions(root: Path, split: str = "all", orgs: Sequence[str] = (),
                   path: Path | None = None) -> list[dict[str, Any]]:
    """``path`` (default ``root/questions.jsonl``): the questions of ``split`` (dev | held | all), of ``orgs``
    when given. Raises ValueError naming the line of a malformed question."""
    if split not in SPLITS:
        raise ValueError(f"--split must be one of {', '.join(SPLITS)}")
    path = path or root / "questions.jsonl"
    if not path.is_file():
        raise ValueError(f"{path}: no such file (one JSON question per line)")
    out = []
    for i, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        q = json.loads(line)
        missing = [k for k in ("id", "org", "question", "kind", "answers", "split") if k not in q]
        if missing or q["kind"] not in KINDS or q["split"] not in ("dev", "held"):
            raise ValueError(f"{path}:{i}: a question needs id, org, question, answers, kind (one of "
                             f"{', '.join(KINDS)}) and split (dev | held)")
        if not q.get("decline") and not q["answers"]:
            raise ValueError(f"{path}:{i}: an answerable question needs at least one accepted answer")
        if (split == "all" or q["split"] == split) and (not orgs or q["org"] in orgs):
            out.append(q)
    return out


def org_files(root: Path, orgs: Sequence[str] = ()) -> dict[str, list[Path]]:
    """Each organisation's documents: ``root/<collection>/*`` with a document suffix (scripts and notes
    beside them are not documents)."""
    out: dict[str, list[Path]] = {}
    for d in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        if orgs and d.name not in orgs:
            continue
        files = sorted(f for f in d.iterdir() if f.is_file() and f.suffix.lower() in DOC_SUFFIXES)
        if files:
            out[d.name] = files
    missing = sorted(set(orgs) - set(out))
    if missing:
        raise ValueError(f"no documents for {', '.join(missing)} under {root}")
    return out


# ----- running the product --------------------------------------------------------------------------
MIME = {".md": "text/markdown", ".markdown": "text/markdown", ".txt": "text/plain", ".html": "text/html",
        ".htm": "text/html", ".csv": "text/csv", ".pdf": "application/pdf",
        ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}


async def _upload(client: Any, files: dict[str, list[Path]], say: Say) -> dict[str, Any]:
    report: dict[str, Any] = {"files": 0, "chunks": 0, "failed": []}
    for org, paths in files.items():
        body = [("files", (p.name, p.read_bytes(), MIME.get(p.suffix.lower(), "application/octet-stream")))
                for p in paths]
        r = await client.post("/v1/kb/upload", data={"collection": org}, files=body, headers=EDITOR)
        if r.status_code != 200:
            raise RuntimeError(f"upload of {org} refused: {r.status_code} {r.text[:300]}")
        for res in r.json()["results"]:
            report["files"] += 1
            report["chunks"] += int(res.get("chunks") or 0)
            report["failed"] += [f"{org}/{f.get('path')}: {f.get('error')}" for f in res.get("failed") or []]
        say(f"uploaded {len(paths)} files into collection {org}")
    return report


async def _wait_embeddings(client: Any, say: Say, limit_s: float) -> tuple[float, int]:
    """Until no embedding job is pending (the server's own embedding thread runs them), at most ``limit_s``."""
    t0 = time.perf_counter()
    pending = -1
    while time.perf_counter() - t0 < limit_s:
        pending = int((await client.get("/v1/kb/files")).json()["embeddings"]["pending"])
        if pending == 0:
            break
        say(f"  waiting for {pending} embedding jobs")
        await asyncio.sleep(3)
    return round(time.perf_counter() - t0, 1), max(pending, 0)


def _collection_of(source: str, by_path: dict[str, str]) -> str:
    if source in by_path:
        return by_path[source]
    return source.split("/", 1)[0] if "/" in source else ""


async def _ask_all(client: Any, questions: Sequence[dict[str, Any]], mode: str, by_path: dict[str, str],
                   say: Say) -> list[dict[str, Any]]:
    rows = []
    for i, q in enumerate(questions, 1):
        body: dict[str, Any] = {"message": q["question"], "stream": False}
        if mode == "named":
            body["collections"] = [q["org"]]
        t0 = time.perf_counter()
        r = await client.post("/v1/chat", json=body, headers=EDITOR)
        elapsed = (time.perf_counter() - t0) * 1000
        data = r.json() if r.headers.get("content-type", "").startswith("application/json") else {}
        if r.status_code != 200:
            data = {"reply": f"HTTP {r.status_code}: {r.text[:200]}"}
        verdict = data.get("verdict") or {}
        level = verdict.get("level")
        cites = [{"source": c.get("source"), "collection": _collection_of(str(c.get("source") or ""), by_path),
                  "quote": c.get("quote")} for c in data.get("citations") or []]
        g = grade(q, data.get("reply") or "", level, cites)
        outside = sorted({c["source"] for c in cites if c["collection"] != q["org"]})
        rows.append({"id": q["id"], "org": q["org"], "mode": mode, "split": q["split"], "kind": q["kind"],
                     "question": q["question"], "answers": q["answers"], "must_not": q.get("must_not") or [],
                     "decline": bool(q.get("decline")), "cross_language": bool(q.get("cross_language")),
                     "conflict": bool(q.get("conflict")), **g, "reply": data.get("reply") or "", "verdict": level,
                     "verdict_reason": verdict.get("reason"), "path": data.get("path"), "citations": cites,
                     "outside": outside, "elapsed_ms": round(elapsed, 1)})
        if i % 10 == 0 or i == len(questions):
            say(f"  {mode} {i}/{len(questions)}")
    return rows


@asynccontextmanager
async def org_server(root: Path, orgs: Sequence[str], data_dir: Path, provider: Any, say: Say,
                     wait_s: float) -> AsyncIterator[tuple[Any, dict[str, str], dict[str, Any]]]:
    """A fresh server in process with every organisation's files uploaded as an editor and their
    embeddings finished: yields the HTTP client, each uploaded file's collection by path, and the set-up
    figures."""
    import httpx

    files = org_files(root, orgs)
    settings = Settings(data_dir=data_dir, env="development", demo_keys=True, database_url="", redis_url="",
                        llm_provider="none")
    say(f"starting the server on {data_dir} (the demo company is ingested on first start)")
    t0 = time.perf_counter()
    deps = await asyncio.to_thread(build_deps, settings, provider=provider)
    app = create_app(settings, warm=True, deps=deps)
    async with app.router.lifespan_context(app):
        announce_keys(app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None, hint=False)
        start_s = round(time.perf_counter() - t0, 1)
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://kz.eval", timeout=600) as client:
            upload = await _upload(client, files, say)
            waited, pending = await _wait_embeddings(client, say, wait_s)
            listing = (await client.get("/v1/kb/files")).json()
            by_path = {str(f["path"]): str(f.get("collection") or "") for f in listing["files"]}
            setup = {"server_start_s": start_s, "uploaded_files": upload["files"],
                     "uploaded_chunks": upload["chunks"], "upload_failed": upload["failed"],
                     "embeddings_wait_s": waited, "embeddings_pending": pending,
                     "collections": listing.get("collections")}
            yield client, by_path, setup


async def _run(root: Path, questions: list[dict[str, Any]], modes: Sequence[str], orgs: Sequence[str],
               data_dir: Path, provider: Any, say: Say, wait_s: float) -> dict[str, Any]:
    async with org_server(root, orgs, data_dir, provider, say, wait_s) as (client, by_path, setup):
        runs = {}
        for mode in modes:
            say(f"asking {len(questions)} questions, collections {mode}")
            runs[mode] = await _ask_all(client, questions, mode, by_path, say)
    return {"runs": runs, "setup": setup}


def run_documents(root: Path, *, split: str = "all", collections: str = "named", orgs: Sequence[str] = (),
                  data_dir: Path | None = None, provider: Any = None, provider_name: str = "none",
                  say: Say | None = None, wait_embeddings_s: float = 900.0,
                  questions_file: Path | None = None) -> dict[str, Any]:
    """The figures (see the module doc) and, under ``_rows``, one graded row per question and mode."""
    if collections not in MODES:
        raise ValueError(f"--collections must be one of {', '.join(MODES)}")
    say = say or (lambda _m: None)
    questions = load_questions(root, split, orgs, questions_file)
    if not questions:
        raise ValueError(f"no questions for split {split!r}" + (f" and {', '.join(orgs)}" if orgs else ""))
    asked_orgs = sorted({q["org"] for q in questions})
    modes = ("named", "none") if collections == "both" else (collections,)
    # every organisation's files are uploaded (others' documents are what a "none" answer may wrongly
    # use); --org narrows both the uploads and the questions
    with tempfile.TemporaryDirectory(prefix="kz-eval-documents-") as tmp:
        out = asyncio.run(_run(root, questions, modes, orgs, data_dir or Path(tmp) / "data", provider, say,
                               wait_embeddings_s))
    runs = out["runs"]
    summaries = {m: summarise(rows) for m, rows in runs.items()}
    result: dict[str, Any] = {"split": split, "collections": collections, "orgs": asked_orgs,
                              "provider": provider_name if provider is not None else "none",
                              **summaries[modes[0]]}
    if collections == "both":
        result["named"], result["none"] = summaries["named"], summaries["none"]
    result["setup"] = out["setup"]
    result["_rows"] = [r for m in modes for r in runs[m]]
    return result


# ----- command --------------------------------------------------------------------------------------
def documents_command(
        root: Path = typer.Option(..., "--dir", exists=True, file_okay=False,
                                  help="One folder per organisation (its name is the collection) and questions.jsonl."),
        split: str = typer.Option("dev", help="dev (fit on these) | held (report these) | all."),
        collections: str = typer.Option("named", help="named: each question names its organisation's collection; "
                                                      "none: no collection named; both: the two, on one server."),
        org: list[str] = typer.Option(None, "--org", help="Only this organisation (repeatable): its files and questions."),
        questions: Path = typer.Option(None, "--questions", dir_okay=False, exists=True,
                                       help="Another question file of the same form (default: DIR/questions.jsonl), "
                                            "e.g. a report-only set."),
        data_dir: Path = typer.Option(None, help="The server's data dir (default: a fresh temporary one)."),
        rows: Path = typer.Option(None, dir_okay=False, help="Also write one JSON line per question and mode "
                                  "(question, kind, reply, verdict, citations, grade, reasons) to this file."),
        wait_embeddings: float = typer.Option(900.0, min=0, help="Seconds to wait for the uploads' embeddings "
                                              "before asking (0: ask at once, keyword and SQL only)."),
        provider: str = typer.Option(None, help=PROVIDER_HELP),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object last.")) -> None:
    """A team's own documents through the public HTTP API: right / wrong / abstained, by kind, named and
    unnamed collections."""
    import sys

    def say(message: str) -> None:
        typer.echo(message, err=True)

    if split not in SPLITS:
        typer.echo(f"error: --split must be one of {', '.join(SPLITS)}", err=True)
        raise typer.Exit(2)
    if collections not in MODES:
        typer.echo(f"error: --collections must be one of {', '.join(MODES)}", err=True)
        raise typer.Exit(2)
    chat = cli_provider(provider)
    try:
        r = run_documents(root, split=split, collections=collections, orgs=tuple(org or ()), data_dir=data_dir,
                          provider=chat, provider_name=provider or "configured", say=say,
                          wait_embeddings_s=wait_embeddings, questions_file=questions)
    except (ValueError, json.JSONDecodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if rows is not None:
        with rows.open("w", encoding="utf-8") as fh:
            for row in r["_rows"]:
                fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    for row in r["_rows"]:
        if row["grade"] != "right":
            say(f"{row['grade'].upper():9} {row['mode']:5} {row['id']} {row['kind']}: {row['question']} "
                f"→ {row['reply'][:70]!r} ({'; '.join(row['reasons'])})")
    summary = {k: v for k, v in r.items() if not k.startswith("_")}
    if json_out:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False, default=str) + "\n")
    else:
        for mode in (("named", "none") if collections == "both" else (collections,)):
            s = summary[mode] if collections == "both" else summary
            typer.echo(f"{mode}: right {s['right']} wrong {s['wrong']} abstained {s['abstained']} "
                       f"(n {s['n']}), wrong_confirmed {s['wrong_confirmed']}, outside_collections "
                       f"{s['outside_collections']}, by_kind {s['by_kind']}, p50 {s['p50_ms']} ms, p95 {s['p95_ms']} ms")
