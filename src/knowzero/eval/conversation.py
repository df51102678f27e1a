"""Conversations: ``knowzero eval conversation --dir tests/data/orgdocs --split dev|held|all [--json]
[--rows FILE]``.

Chains of turns (``chains.jsonl`` in ``--dir``; see ``tests/data/orgdocs/README.md``) asked the way a team
talks to KnowZero: one thread per chain through the public HTTP API (``POST /v1/chat``, ``stream: false``,
the thread's ``thread_id`` on every turn, ``collections: [org]`` on an organisation's chains), on a fresh
server with every organisation's files uploaded (:func:`knowzero.eval.documents.org_server`). Knowledge
and learning chains are asked as an editor, the demo shop's service chains as the customer ``alice``.

A turn with ``answers`` or ``decline`` is graded like a question of ``knowzero eval documents``
(:func:`knowzero.eval.documents.grade`); a turn with ``lang`` must also answer in that language (its own
words, outside the quotes: :func:`in_language`). Figures:

- ``followup_right``: right share of the graded last turns of ``followup`` chains (turns that lean on the
  thread: "那B呢", "需要谁批准？", "what about interns?");
- ``standalone_kept``: share of the turns marked ``standalone`` (a new topic after others) that were not
  rewritten as a follow-up (no ``reasoning`` event with ``understood: follow_up``);
- ``cross_language_right``: right share of the graded turns of ``cross_language`` chains (an English
  question over Chinese documents, a Chinese one over English documents);
- ``slot_f1``: micro F1 of the slots the service chains' tickets and refunds carry against each chain's
  ``expect_slots`` (``order_id`` equal; ``subject`` / ``reason``: one of the listed words in the ticket's
  description or the refund's reason); a slot the chain does not expect counts as a false positive;
- ``learning_right``, ``service_right``: right shares of those chains' graded turns;
- ``outside_collections``: graded replies citing a file outside the chain's organisation (a count);
  ``wrong_confirmed``: wrong graded replies marked confirmed (a count);
- ``p50_ms`` / ``p95_ms``: every turn, the whole HTTP request, client side.

Not a timed test: the figures are reported, never asserted.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer

from knowzero.eval.documents import EDITOR, SPLITS, Say, _collection_of, grade, org_server
from knowzero.eval.llmuse import PROVIDER_HELP, cli_provider
from knowzero.eval.metrics import percentile, ratio

KINDS = ("followup", "standalone", "cross_language", "service", "learning")
CUSTOMER = {"Authorization": "Bearer demo-alice"}
SLOT_TEXT = ("subject", "reason")
"""Slots graded by words: the expected value is a list of words, one of which must appear."""
_CJK = re.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
_MARKERS = re.compile(r"\[\d{1,3}\]")
_CLAIM = {"en": re.compile(r"(?:[^A-Za-z\[\]\n]|[A-Za-z](?![A-Za-z]))*\[\d{1,3}\]"),
          "zh": re.compile(r"[^\u3400-\u9fff\[\]\n]*\[\d{1,3}\]")}
"""A cited claim in the other language before its marker: the documents' words, not the reply's."""
_TITLE = re.compile(r"“[^”]*”|《[^》]*》")


def in_language(reply: str, lang: str, quotes: Sequence[str] = ()) -> bool:
    """The reply's own words (the cited quotes taken out) are in ``lang`` (``en`` | ``zh``).

    >>> in_language("12 days — 满5年不满10年：12天 [1]", "en", ["满5年不满10年：12天"])
    True
    >>> in_language("满5年不满10年：12天 [1]", "en", ["满5年不满10年：12天"])
    False
    >>> in_language("每晚最多报销 $150。[1]", "zh"), in_language("Lodging: up to $150 per night.[1]", "zh")
    (True, False)
    >>> in_language("14 days — 工作年限: 满15年及以上；年休假天数: 14天。[1] (Answered from the current edition; “办法（2024版）” is superseded.)", "en")
    True
    """
    own = _TITLE.sub(" ", reply or "")  # a document's name is quoted as written
    for q in sorted({q for q in quotes if q}, key=len, reverse=True):
        own = own.replace(q, " ")
    own = _MARKERS.sub("", _CLAIM[lang].sub(" ", own))
    cjk, latin = len(_CJK.findall(own)), len(_LATIN_WORD.findall(own))
    return latin >= 1 and latin * 2 >= cjk if lang == "en" else cjk >= 2


def slot_counts(expected: dict[str, Any], got: dict[str, Any]) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of one chain's slots.

    >>> slot_counts({"order_id": "124", "subject": ["裂纹"]}, {"order_id": "124", "subject": "法兰盘有裂纹"})
    (2, 0, 0)
    >>> slot_counts({"order_id": "124", "subject": ["裂纹"]}, {"order_id": "124", "subject": "订单124"})
    (1, 1, 1)
    >>> slot_counts({"order_id": "123"}, {})
    (0, 0, 1)
    """
    tp = fp = fn = 0
    for key in set(expected) | {k for k, v in got.items() if v not in (None, "")}:
        want, have = expected.get(key), got.get(key)
        if want is None:
            fp += 1
            continue
        if have in (None, ""):
            fn += 1
            continue
        if key in SLOT_TEXT:
            ok = any(str(w).lower() in str(have).lower() for w in (want if isinstance(want, list) else [want]))
        else:
            ok = str(have).strip().upper() == str(want).strip().upper()
        if ok:
            tp += 1
        else:
            fp, fn = fp + 1, fn + 1
    return tp, fp, fn


def load_chains(root: Path, split: str = "all") -> list[dict[str, Any]]:
    """``root/chains.jsonl``: the chains of ``split``. Raises ValueError naming a malformed line."""
    if split not in SPLITS:
        raise ValueError(f"--split must be one of {', '.join(SPLITS)}")
    path = root / "chains.jsonl"
    if not path.is_file():
        raise ValueError(f"{path}: no such file (one JSON chain per line)")
    out = []
    for i, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if not line.strip():
            continue
        c = json.loads(line)
        turns = c.get("turns")
        if (not isinstance(turns, list) or not turns or c.get("kind") not in KINDS
                or c.get("split") not in ("dev", "held") or "id" not in c
                or not all(isinstance(t, dict) and isinstance(t.get("message"), str) for t in turns)):
            raise ValueError(f"{path}:{i}: a chain needs id, kind (one of {', '.join(KINDS)}), split (dev | held) "
                             "and turns (a list of {message, …})")
        if split == "all" or c["split"] == split:
            out.append(c)
    return out


def _understood(events: Sequence[dict[str, Any]]) -> tuple[str, str]:
    """How the turn was read (``follow_up`` | ``translation`` | "") and, for a follow-up, the rewrite shown."""
    found = [e.get("data") or {} for e in events if e.get("type") == "reasoning" and (e.get("data") or {}).get("understood")]
    kind = str(found[0]["understood"]) if found else ""
    rewrite = next((str(d.get("text") or "") for d in found if d.get("understood") == "follow_up"), "")
    return kind, rewrite


async def _made(client: Any) -> dict[str, list[dict[str, Any]]]:
    tickets = (await client.get("/v1/me/tickets", headers=CUSTOMER)).json().get("tickets") or []
    refunds = (await client.get("/v1/me/refunds", headers=CUSTOMER)).json().get("refunds") or []
    return {"tickets": tickets, "refunds": refunds}


def chain_slots(before: dict[str, list[dict[str, Any]]], after: dict[str, list[dict[str, Any]]],
                pending: dict[str, Any] | None) -> dict[str, Any]:
    """The slots a service chain ended with: the ticket or refund it created (the newest), else the
    slots of the action still being filled."""
    seen = {(k, str(x.get("id"))) for k, rows in before.items() for x in rows}
    new_tickets = [t for t in after["tickets"] if ("tickets", str(t.get("id"))) not in seen]
    new_refunds = [r for r in after["refunds"] if ("refunds", str(r.get("id"))) not in seen]
    if new_tickets:
        t = new_tickets[-1]
        return {"order_id": t.get("order_id"), "subject": " ".join(str(t.get(k) or "") for k in ("subject", "body"))}
    if new_refunds:
        r = new_refunds[-1]
        return {"order_id": r.get("order_id"), "reason": r.get("reason")}
    slots = dict((pending or {}).get("slots") or {})
    return {k: slots.get(k) for k in ("order_id", "subject", "reason") if slots.get(k) not in (None, "")}


async def _ask_chain(client: Any, chain: dict[str, Any], by_path: dict[str, str]) -> dict[str, Any]:
    org = chain.get("org")
    headers = CUSTOMER if chain["kind"] == "service" else EDITOR
    thread_id = f"eval-conv-{uuid.uuid4().hex}"
    before = await _made(client) if chain["kind"] == "service" else None
    turns = []
    for t in chain["turns"]:
        body: dict[str, Any] = {"message": t["message"], "thread_id": thread_id, "stream": False}
        if org:
            body["collections"] = [org]
        t0 = time.perf_counter()
        r = await client.post("/v1/chat", json=body, headers=headers)
        elapsed = (time.perf_counter() - t0) * 1000
        data = r.json() if r.headers.get("content-type", "").startswith("application/json") else {}
        if r.status_code != 200:
            data = {"reply": f"HTTP {r.status_code}: {r.text[:200]}"}
        level = (data.get("verdict") or {}).get("level")
        cites = [{"source": c.get("source"), "collection": _collection_of(str(c.get("source") or ""), by_path),
                  "quote": c.get("quote")} for c in data.get("citations") or []]
        reply = data.get("reply") or ""
        events = data.get("events") or []
        understood, rewrite = _understood(events)
        row: dict[str, Any] = {"message": t["message"], "reply": reply, "verdict": level, "path": data.get("path"),
                               "citations": cites, "understood": understood, "rewrite": rewrite,
                               "elapsed_ms": round(elapsed, 1),
                               "standalone": bool(t.get("standalone"))}
        if t.get("answers") or t.get("decline"):
            q = {"answers": t.get("answers") or [], "must_not": t.get("must_not") or [],
                 "decline": bool(t.get("decline")), "kind": "fact"}
            g = grade(q, reply, level, cites if chain["kind"] != "service" else cites or [{"source": "service"}])
            if t.get("lang") and g["grade"] == "right" and not in_language(reply, t["lang"],
                                                                             [str(c["quote"] or "") for c in cites]):
                g["grade"] = "wrong"
                g["reasons"].append(f"not answered in {t['lang']}")
            row |= {"graded": True, "grade": g["grade"], "reasons": g["reasons"],
                    "outside": sorted({c["source"] for c in cites if org and c["collection"] != org})}
        turns.append(row)
    out: dict[str, Any] = {"id": chain["id"], "org": org, "kind": chain["kind"], "split": chain["split"],
                           "turns": turns}
    if chain["kind"] == "service" and before is not None:
        state = (await client.get(f"/v1/threads/{thread_id}", headers=CUSTOMER)).json().get("state") or {}
        pending = (state.get("service") or {}).get("pending")
        got = chain_slots(before, await _made(client), pending)
        out["slots"] = got
        out["slot_counts"] = slot_counts(chain.get("expect_slots") or {}, got)
    return out


def summarise(chains: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one run from its asked chains (see the module doc; pure)."""
    by_kind: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for c in chains:
        by_kind[c["kind"]].append(c)

    def last_graded(kind: str) -> list[dict[str, Any]]:
        return [g[-1] for c in by_kind[kind] if (g := [t for t in c["turns"] if t.get("graded")])]

    def all_graded(kind: str) -> list[dict[str, Any]]:
        return [t for c in by_kind[kind] for t in c["turns"] if t.get("graded")]

    def right(rows: list[dict[str, Any]]) -> int:
        return sum(r["grade"] == "right" for r in rows)

    follow, cross = last_graded("followup"), all_graded("cross_language")
    learning, service = last_graded("learning"), all_graded("service")
    alone = [t for c in chains for t in c["turns"] if t["standalone"]]
    kept = sum(t["understood"] != "follow_up" for t in alone)
    tp = sum(c["slot_counts"][0] for c in chains if "slot_counts" in c)
    fp = sum(c["slot_counts"][1] for c in chains if "slot_counts" in c)
    fn = sum(c["slot_counts"][2] for c in chains if "slot_counts" in c)
    precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
    graded = [t for c in chains for t in c["turns"] if t.get("graded")]
    times = [t["elapsed_ms"] for c in chains for t in c["turns"]] or [0.0]
    return {"chains": len(chains), "turns": sum(len(c["turns"]) for c in chains),
            "followup_right": ratio(right(follow), len(follow)), "standalone_kept": ratio(kept, len(alone)),
            "cross_language_right": ratio(right(cross), len(cross)),
            "slot_precision": precision, "slot_recall": recall,
            "slot_f1": round(2 * precision * recall / (precision + recall), 4) if precision + recall else 0.0,
            "learning_right": ratio(right(learning), len(learning)),
            "service_right": ratio(right(service), len(service)),
            "outside_collections": sum(bool(t.get("outside")) for t in graded),
            "wrong_confirmed": sum(t["grade"] == "wrong" and t["verdict"] == "confirmed" for t in graded),
            "p50_ms": round(percentile(times, 50), 1), "p95_ms": round(percentile(times, 95), 1),
            "counts": {"followup": f"{right(follow)}/{len(follow)}", "standalone_kept": f"{kept}/{len(alone)}",
                       "cross_language": f"{right(cross)}/{len(cross)}", "slots_tp_fp_fn": [tp, fp, fn],
                       "learning": f"{right(learning)}/{len(learning)}",
                       "service": f"{right(service)}/{len(service)}"}}


async def _run(root: Path, chains: list[dict[str, Any]], data_dir: Path, provider: Any, say: Say,
               wait_s: float) -> dict[str, Any]:
    async with org_server(root, (), data_dir, provider, say, wait_s) as (client, by_path, setup):
        asked = []
        for i, chain in enumerate(chains, 1):
            asked.append(await _ask_chain(client, chain, by_path))
            if i % 5 == 0 or i == len(chains):
                say(f"  {i}/{len(chains)} chains")
    return {"chains": asked, "setup": setup}


def run_conversation(root: Path, *, split: str = "all", data_dir: Path | None = None, provider: Any = None,
                     provider_name: str = "none", say: Say | None = None,
                     wait_embeddings_s: float = 900.0) -> dict[str, Any]:
    """The figures (see the module doc) and, under ``_chains``, every chain as asked."""
    say = say or (lambda _m: None)
    chains = load_chains(root, split)
    if not chains:
        raise ValueError(f"no chains for split {split!r}")
    with tempfile.TemporaryDirectory(prefix="kz-eval-conversation-") as tmp:
        out = asyncio.run(_run(root, chains, data_dir or Path(tmp) / "data", provider, say, wait_embeddings_s))
    return {"split": split, "provider": provider_name if provider is not None else "none",
            **summarise(out["chains"]), "setup": out["setup"], "_chains": out["chains"]}


def conversation_command(
        root: Path = typer.Option(..., "--dir", exists=True, file_okay=False,
                                  help="One folder per organisation (its name is the collection) and chains.jsonl."),
        split: str = typer.Option("dev", help="dev (fit on these) | held (report these) | all."),
        data_dir: Path = typer.Option(None, help="The server's data dir (default: a fresh temporary one)."),
        rows: Path = typer.Option(None, dir_okay=False, help="Also write one JSON line per chain as asked "
                                  "(every turn's reply, verdict, citations, rewrite, grade) to this file."),
        wait_embeddings: float = typer.Option(900.0, min=0, help="Seconds to wait for the uploads' embeddings "
                                              "before asking (0: ask at once, keyword and SQL only)."),
        provider: str = typer.Option(None, help=PROVIDER_HELP),
        json_out: bool = typer.Option(False, "--json", help="Print one JSON object last.")) -> None:
    """Conversations through the public HTTP API: follow-ups, new topics kept, either language, service slots."""
    def say(message: str) -> None:
        typer.echo(message, err=True)

    if split not in SPLITS:
        typer.echo(f"error: --split must be one of {', '.join(SPLITS)}", err=True)
        raise typer.Exit(2)
    chat = cli_provider(provider)
    try:
        r = run_conversation(root, split=split, data_dir=data_dir, provider=chat,
                             provider_name=provider or "configured", say=say, wait_embeddings_s=wait_embeddings)
    except (ValueError, json.JSONDecodeError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if rows is not None:
        with rows.open("w", encoding="utf-8") as fh:
            for chain in r["_chains"]:
                fh.write(json.dumps(chain, ensure_ascii=False, default=str) + "\n")
    for chain in r["_chains"]:
        for t in chain["turns"]:
            if t.get("graded") and t["grade"] != "right":
                say(f"{t['grade'].upper():9} {chain['id']} {chain['kind']}: {t['message']} → {t['reply'][:70]!r} "
                    f"({'; '.join(t['reasons'])})" + (f" [理解为 {t['rewrite']}]" if t["rewrite"] else ""))
            if t["standalone"] and t["understood"] == "follow_up":
                say(f"REWRITTEN {chain['id']}: {t['message']} → {t['rewrite']}")
        if chain.get("slot_counts") and chain["slot_counts"][1:] != (0, 0):
            say(f"SLOTS     {chain['id']}: {chain['slots']}")
    summary = {k: v for k, v in r.items() if not k.startswith("_")}
    if json_out:
        sys.stdout.write(json.dumps(summary, ensure_ascii=False, default=str) + "\n")
    else:
        typer.echo(f"follow-ups {summary['followup_right']} ({summary['counts']['followup']}), standalone kept "
                   f"{summary['standalone_kept']}, cross-language {summary['cross_language_right']}, slot F1 "
                   f"{summary['slot_f1']}, learning {summary['learning_right']}, service {summary['service_right']}, "
                   f"outside collections {summary['outside_collections']}, p50 {summary['p50_ms']} ms")
