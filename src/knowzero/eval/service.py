"""Service benchmark: ``knowzero eval service [--json] [--crosswoz PATH]``.

1. Scenarios (``service/data/scenarios.json``) run through the real compiled graph with the real
   SQLite checkpointer and store (``open_persistence``) in a temp data dir, each on a fresh demo
   store; reports ``pass_rate`` and per-turn ``p50_ms``/``p95_ms`` (graph time only, no waits for
   people), with every failed expectation named.
2. Slot extraction on CrossWOZ user turns: values our rule + gazetteer extractor finds in a turn vs
   the turn's annotated ``Inform`` acts → ``slot_precision``/``slot_recall``/``slot_f1`` (micro).
   CrossWOZ is Beijing tourism, so the gazetteer (names, dishes, hotel facilities) comes from the
   dataset's own ``database/`` and the value patterns (prices, ratings, durations) are written here;
   the order-slot rules of ``service/slots.py`` have no counterpart in it.

Not a timed test: the figures are reported, never asserted.
"""

from __future__ import annotations

import asyncio
import json
import re
import tempfile
import time
import zipfile
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import typer
from langgraph.types import Command

from knowzero.config import Settings
from knowzero.eval.llmuse import PROVIDER_HELP, LLMUse, cli_provider
from knowzero.eval.metrics import percentile, ratio
from knowzero.graph.builder import build_graph
from knowzero.graph.context import Deps
from knowzero.graph.state import CHECKPOINT_TYPES
from knowzero.input import AgentInput
from knowzero.llm.metered import MeteredProvider
from knowzero.persistence.checkpoint import open_persistence
from knowzero.preferences import get_preferences
from knowzero.routing.classifier import IntentClassifier
from knowzero.service.store import seed_demo
from knowzero.users import User
from knowzero.wiring import build_deps

SCENARIOS_FROM = "knowzero/service/data/scenarios.json (ships with the package)"
"""Where the scenarios come from, as the report says it."""
CHECKOUT_CROSSWOZ = Path(__file__).resolve().parents[3] / ".." / "shared" / "eval-data" / "crosswoz" / "val.json.zip"
"""CrossWOZ next to a source checkout (the project's shared eval data); an installed package has none."""


def default_crosswoz() -> Path | None:
    """The CrossWOZ file used when none is given: the source checkout's copy, if there is one."""
    path = CHECKOUT_CROSSWOZ.resolve()
    return path if path.is_file() else None


def slot_report(crosswoz: Path | None) -> dict[str, Any]:
    """The CrossWOZ slot benchmark over ``crosswoz`` (or the checkout's copy), or a note saying how to run it."""
    path = crosswoz or default_crosswoz()
    if path is None:
        return {"slot_turns": 0, "slot_precision": None, "slot_recall": None, "slot_f1": None,
                "slot_note": "CrossWOZ slot benchmark skipped: give --crosswoz PATH (CrossWOZ's val.json.zip; the "
                             "service scenarios ship with the package, the CrossWOZ data does not)"}
    return slot_benchmark(path)
USERS = {"alice": ("alice", "customer", "张三"), "bob": ("bob", "customer", "李四"), "agent": ("agent", "agent", "王客服"),
         "admin": ("admin", "admin", "管理员"), "anonymous": ("anonymous", "anonymous", "")}


def load_scenarios() -> list[dict[str, Any]]:
    text = resources.files("knowzero.service").joinpath("data/scenarios.json").read_text("utf-8")
    return json.loads(text)["scenarios"]


# --- scenarios ----------------------------------------------------------------------------------
class ScenarioRun:
    """Drives one scenario through a compiled graph; collects per-turn observations."""

    def __init__(self, graph: Any, base: Deps, name: str) -> None:
        self.graph, self.base, self.name = graph, base, name
        self.settings, self.store = base.settings, base.need_store()
        self.thread_n = 0
        self.thread_id = ""
        self.new_thread()

    def new_thread(self) -> None:
        self.thread_n += 1
        self.thread_id = f"eval-{self.name}-{self.thread_n}"

    def deps(self, who: str) -> Deps:
        uid, role, name = USERS[who]
        return self.base.for_user(User(uid, role, name))

    async def turn(self, spec: dict[str, Any], default_user: str) -> dict[str, Any]:
        who = spec.get("as", default_user)
        if spec.get("new_thread"):
            self.new_thread()
        cfg = {"configurable": {"thread_id": self.thread_id}, "recursion_limit": 60}
        if "resume" in spec:
            inp: Any = Command(resume={**spec["resume"], "by": USERS[who][0]})
        else:
            inp = {"input": AgentInput.at_edge({"source": "chat", "message": spec["say"], "thread_id": self.thread_id},
                                               self.settings)}
        events: list[tuple[str, dict[str, Any]]] = []
        t0 = time.perf_counter()
        async for mode, chunk in self.graph.astream(inp, cfg, context=self.deps(who), stream_mode=["custom", "updates"]):
            if mode == "custom" and isinstance(chunk, dict) and "type" in chunk:
                events.append((chunk["type"], chunk.get("data") or {}))
        elapsed = (time.perf_counter() - t0) * 1000
        snap = await self.graph.aget_state(cfg)
        values = snap.values or {}
        interrupts = [i.value for t in (snap.tasks or ()) for i in (getattr(t, "interrupts", ()) or ())]
        return {"elapsed_ms": elapsed, "values": values, "events": events,
                "interrupt": (interrupts[-1] or {}).get("kind") if interrupts else None,
                "reply": values.get("reply") or "", "user": USERS[who][0]}


def check_turn(obs: dict[str, Any], expect: dict[str, Any], store: Any, scenario_user: str,
               prefs: dict[str, Any] | None = None) -> list[str]:
    """Every failed expectation of one turn, as readable strings (empty = pass)."""
    fails: list[str] = []
    reply = obs["reply"]
    svc = obs["values"].get("service") or {}
    pending = svc.get("pending") or {}
    for s in expect.get("reply_contains", []):
        if s not in reply:
            fails.append(f"reply lacks {s!r}: {reply[:160]!r}")
    if expect.get("reply_any") and not any(s in reply for s in expect["reply_any"]):
        fails.append(f"reply has none of {expect['reply_any']}")
    for s in expect.get("reply_not_contains", []):
        if s in reply:
            fails.append(f"reply must not contain {s!r}")
    if "interrupt" in expect and obs["interrupt"] != expect["interrupt"]:
        fails.append(f"interrupt {obs['interrupt']!r} != {expect['interrupt']!r}")
    if "pending" in expect:
        got = pending.get("action") if pending else None
        if got != expect["pending"]:
            fails.append(f"pending {got!r} != {expect['pending']!r}")
    if "expecting" in expect and pending.get("expecting") != expect["expecting"]:
        fails.append(f"expecting {pending.get('expecting')!r} != {expect['expecting']!r}")
    for k, v in (expect.get("slots") or {}).items():
        if (pending.get("slots") or {}).get(k) != v:
            fails.append(f"slot {k}={(pending.get('slots') or {}).get(k)!r} != {v!r}")
    names = {t for t, _ in obs["events"]} | {f"{t}:{d.get('tool')}" for t, d in obs["events"] if d.get("tool")}
    for e in expect.get("events", []):
        if e not in names:
            fails.append(f"missing event {e}")
    for e in expect.get("no_events", []):
        if e in names:
            fails.append(f"unexpected event {e}")
    if "refunds" in expect:
        r = expect["refunds"]
        rows = [x for x in store.refunds_for(r["order_id"]) if x["status"] != "cancelled"]
        if len(rows) != r["count"]:
            fails.append(f"refunds for order {r['order_id']}: {len(rows)} != {r['count']}")
        elif r.get("status") and rows and rows[-1]["status"] != r["status"]:
            fails.append(f"refund status {rows[-1]['status']!r} != {r['status']!r}")
    if "tickets" in expect:
        n = len(store.list_tickets(customer_id=USERS[scenario_user][0]))
        if n != expect["tickets"]:
            fails.append(f"tickets {n} != {expect['tickets']}")
    if "handoffs" in expect:
        n = len(store.list_handoffs())
        if n != expect["handoffs"]:
            fails.append(f"active handoffs {n} != {expect['handoffs']}")
    for k, v in (expect.get("preferences") or {}).items():
        if (prefs or {}).get(k) != v:
            fails.append(f"preference {k}={(prefs or {}).get(k)!r} != {v!r}")
    return fails


async def run_scenario(scenario: dict[str, Any], base_dir: Path, database_url: str = "",
                       classifier: IntentClassifier | None = None, use: LLMUse | None = None,
                       observe: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """One scenario on a fresh data dir (app DB, checkpoints, store); ``database_url`` (an empty
    PostgreSQL database) puts all three on PostgreSQL instead. ``classifier`` may be shared between
    scenarios (it takes ~2 s to build). ``use`` (a metered provider's counter) runs every turn with
    that model and counts its calls and the ``llm_fallback`` events of each turn. ``observe`` sees the
    thread's state after every turn (as read back from the checkpoint)."""
    data_dir = base_dir / scenario["name"]
    data_dir.mkdir(parents=True, exist_ok=True)
    use = use or LLMUse(None)
    settings = Settings(data_dir=data_dir, database_url=database_url, llm_provider="none")
    base = build_deps(settings, provider=use.provider, classifier=classifier or True)
    store = base.need_store()
    seed_demo(store)
    turns: list[dict[str, Any]] = []
    async with open_persistence(settings, CHECKPOINT_TYPES) as (saver, lg_store):
        graph = build_graph().compile(checkpointer=saver, store=lg_store)
        run = ScenarioRun(graph, base, scenario["name"])
        for i, spec in enumerate(scenario["turns"]):
            try:
                with use.turn():
                    obs = await run.turn(spec, scenario["user"])
                    for kind, data in obs["events"]:
                        if kind == "llm_fallback":
                            use.fallback(str(data.get("step", "")), str(data.get("reason", "")))
                if observe is not None:
                    observe(obs["values"])
                prefs = await get_preferences(lg_store, USERS[scenario["user"]][0]) if "preferences" in spec.get("expect", {}) else None
                fails = check_turn(obs, spec.get("expect") or {}, store, scenario["user"], prefs)
                turns.append({"turn": i, "say": spec.get("say") or spec.get("resume"), "elapsed_ms": round(obs["elapsed_ms"], 2),
                              "reply": obs["reply"], "interrupt": obs["interrupt"], "failures": fails})
            except Exception as exc:  # a crash is a failed turn, reported, not a crashed benchmark
                turns.append({"turn": i, "say": spec.get("say") or spec.get("resume"), "elapsed_ms": 0.0, "reply": "",
                              "interrupt": None, "failures": [f"crashed: {type(exc).__name__}: {exc}"]})
                break
    return {"name": scenario["name"], "tags": scenario.get("tags", []),
            "passed": all(not t["failures"] for t in turns) and len(turns) == len(scenario["turns"]), "turns": turns}


async def run_scenarios(scenarios: list[dict[str, Any]] | None = None, base_dir: Path | None = None,
                        provider: MeteredProvider | None = None) -> dict[str, Any]:
    scenarios = scenarios if scenarios is not None else load_scenarios()
    use = LLMUse(provider)
    with tempfile.TemporaryDirectory(prefix="kz-eval-service-") as tmp:
        base = base_dir or Path(tmp)
        clf = IntentClassifier.from_package_data()
        results = [await run_scenario(s, base, classifier=clf, use=use) for s in scenarios]
    times = [t["elapsed_ms"] for r in results for t in r["turns"] if t["elapsed_ms"] > 0]
    return {"scenarios": len(results), "passed": sum(r["passed"] for r in results),
            "pass_rate": ratio(sum(r["passed"] for r in results), len(results)),
            "turns": len(times), "p50_ms": round(percentile(times, 50), 2), "p95_ms": round(percentile(times, 95), 2),
            **{k: v for k, v in use.report().items() if k != "turns"}, "results": results}


# --- CrossWOZ slot extraction ---------------------------------------------------------------------
_RANGE = r"\d+(?:\.\d+)?-\d+(?:\.\d+)?元|\d+(?:\.\d+)?元以[上下]"
_PRICE_CUES = {"人均消费": re.compile(r"人均|消费|吃|餐"), "门票": re.compile(r"门票|票价|票"),
               "价格": re.compile(r"价格|房价|住|酒店|一晚|房间")}
_RATING = re.compile(r"\d(?:\.\d)?分以上|\d(?:\.\d)?分(?!钟)")
_DURATION = re.compile(r"\d+(?:\.\d+)?(?:小时|天)\s*-\s*\d+(?:\.\d+)?(?:小时|天)|\d+(?:\.\d+)?(?:小时|天)")
_HOTEL_TYPE = re.compile(r"经济型|舒适型|高档型|豪华型")
_FROM_TO = re.compile(r"从(.+?)(?:到|去|至)(.+?)(?:[的，,。？?]|$)")


class CrossWozExtractor:
    """Rule + gazetteer slot extractor for the CrossWOZ schema (names, dishes and facilities from
    the dataset's database; prices, ratings, durations, hotel types by pattern)."""

    def __init__(self, db_dir: Path) -> None:
        self.names: set[str] = set()
        self.dishes: set[str] = set()
        self.facilities: set[str] = set()
        for fname in ("attraction_db.json", "restaurant_db.json", "hotel_db.json"):
            path = db_dir / fname
            if not path.is_file():
                continue
            for name, info in json.loads(path.read_text("utf-8")):
                self.names.add(name)
                for dish in info.get("推荐菜") or []:
                    if len(dish) >= 2 and dish not in ("老字号",):
                        self.dishes.add(dish)
                for fac in info.get("酒店设施") or []:
                    self.facilities.add(fac)
        self._names = sorted(self.names, key=len, reverse=True)
        self._dishes = sorted(self.dishes, key=len, reverse=True)

    @staticmethod
    def _longest(text: str, vocab: list[str], taken: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
        found = []
        for v in vocab:
            start = 0
            while (i := text.find(v, start)) >= 0:
                span = (i, i + len(v))
                if not any(a < span[1] and span[0] < b for a, b in taken):
                    taken.append(span)
                    found.append((v, *span))
                start = i + len(v)
        return found

    def extract(self, text: str) -> set[tuple[str, str]]:
        out: set[tuple[str, str]] = set()
        taken: list[tuple[int, int]] = []
        names = self._longest(text, self._names, taken)
        m = _FROM_TO.search(text)
        for name, a, _b in names:
            if m and m.start(1) <= a < m.end(1):
                out.add(("出发地", name))
            elif m and m.start(2) <= a < m.end(2):
                out.add(("目的地", name))
            else:
                out.add(("名称", name))
        for dish, _, _ in self._longest(text, self._dishes, taken):
            out.add(("推荐菜", dish))
        for rm in re.finditer(_RANGE, text):
            before = text[max(0, rm.start() - 12):rm.start()]
            slot = next((s for s, cue in _PRICE_CUES.items() if cue.search(before)), None) or \
                next((s for s, cue in _PRICE_CUES.items() if cue.search(text)), "价格")
            out.add((slot, rm.group(0)))
        if "不免费" in text:
            out.add(("门票", "不免费"))
        elif "免费" in text and re.search(r"门票|票", text):
            out.add(("门票", "免费"))
        for r in _RATING.findall(text):
            out.add(("评分", r))
        for d in _DURATION.findall(text):
            if re.search(r"游玩|玩|逛|时间|时长", text):
                out.add(("游玩时间", re.sub(r"\s*-\s*", " - ", d)))
        for h in _HOTEL_TYPE.findall(text):
            out.add(("酒店类型", h))
        for fac in self.facilities:
            if fac in text:
                out.add((f"酒店设施-{fac}", "是"))
        return out


def load_crosswoz_turns(path: Path) -> list[dict[str, Any]]:
    with zipfile.ZipFile(path) as z:
        data = json.loads(z.read(z.namelist()[0]))
    turns = []
    for dialog in data.values():
        for m in dialog["messages"]:
            if m["role"] != "usr":
                continue
            gold = {(a[2], str(a[3])) for a in m["dialog_act"] if a[0] == "Inform" and a[3] not in ("", "none")}
            turns.append({"text": m["content"], "gold": gold})
    return turns


def slot_benchmark(path: Path, limit: int | None = None) -> dict[str, Any]:
    turns = load_crosswoz_turns(path)[:limit]
    ex = CrossWozExtractor(path.parent / "database")
    tp = fp = fn = 0
    t0 = time.perf_counter()
    for t in turns:
        pred = ex.extract(t["text"])
        tp += len(pred & t["gold"])
        fp += len(pred - t["gold"])
        fn += len(t["gold"] - pred)
    p, r = ratio(tp, tp + fp), ratio(tp, tp + fn)
    return {"slot_turns": len(turns), "slot_precision": p, "slot_recall": r,
            "slot_f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
            "slot_ms_per_turn": round((time.perf_counter() - t0) * 1000 / max(len(turns), 1), 3)}


# --- command --------------------------------------------------------------------------------------
def run(crosswoz: Path | None = None, provider: MeteredProvider | None = None) -> dict[str, Any]:
    report = asyncio.run(run_scenarios(provider=provider))
    report["scenarios_from"] = SCENARIOS_FROM
    report.update(slot_report(crosswoz))
    return report


def service_command(json_out: bool = typer.Option(False, "--json", help="Print one JSON object last."),
                    crosswoz: Path | None = typer.Option(None, help="CrossWOZ's val.json.zip for the slot benchmark "
                                                         "(not shipped with the package; default: a source "
                                                         "checkout's shared/eval-data copy, else skipped)."),
                    provider: str | None = typer.Option(None, help=PROVIDER_HELP + " It runs every LLM step of a turn "
                                                        "(intent tier, sentiment, planner, knowledge, chitchat).")) -> None:
    """Service scenarios (pass rate, per-turn p50/p95) and CrossWOZ slot extraction (P/R/F1).

    The scenarios ship with the package (knowzero/service/data/scenarios.json); CrossWOZ does not."""
    if crosswoz is not None and not crosswoz.is_file():
        typer.echo(f"error: --crosswoz {crosswoz}: no such file (CrossWOZ's val.json.zip)", err=True)
        raise typer.Exit(2)
    typer.echo(f"scenarios: {SCENARIOS_FROM}", err=True)
    report = run(crosswoz, provider=cli_provider(provider))
    for r in report["results"]:
        mark = "PASS" if r["passed"] else "FAIL"
        typer.echo(f"{mark} {r['name']}", err=json_out)
        for t in r["turns"]:
            for f in t["failures"]:
                typer.echo(f"     turn {t['turn']} ({t['say']}): {f}", err=json_out)
    summary = {k: v for k, v in report.items() if k != "results"}
    summary["failed"] = [r["name"] for r in report["results"] if not r["passed"]]
    if json_out:
        import sys

        sys.stdout.write(json.dumps(summary, ensure_ascii=False) + "\n")
    else:
        typer.echo(f"scenarios {summary['passed']}/{summary['scenarios']} (pass_rate {summary['pass_rate']}), "
                   f"turn p50 {summary['p50_ms']} ms, p95 {summary['p95_ms']} ms; "
                   + (summary["slot_note"] if summary.get("slot_note") else
                      f"CrossWOZ slots P {summary.get('slot_precision')} R {summary.get('slot_recall')} F1 {summary.get('slot_f1')}"))
