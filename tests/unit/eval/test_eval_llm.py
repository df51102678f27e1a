"""The LLM path of the evals, driven over real HTTP: the product's OpenAI-compatible client talks to
the scripted model (``knowzero.llm.scripted``, served by ``knowzero.llm.server`` under uvicorn on
127.0.0.1) in its four behaviours. Figures are pinned as ranges against the offline run on the same
questions (demo knowledge base and the CMRC slice in tests/data/squad), never as exact values.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.errors import ProviderError
from knowzero.eval.factcheck import run_factcheck
from knowzero.eval.knowledge import run_demo, run_knowledge
from knowzero.eval.llmuse import LLMUse, choose_provider
from knowzero.knowledge.answer.judge import judge_answer
from knowzero.knowledge.answer.pipeline import NOT_AN_ANSWER
from knowzero.knowledge.answer.reader import llm_read
from knowzero.knowledge.types import Passage, Scored
from knowzero.llm.metered import metered
from knowzero.llm.openai_compat import OpenAICompatProvider
from knowzero.llm.scripted import INVENTED_NAME, INVENTED_NUMBER, MODES, REFUSAL
from llm_scripted import client, scripted_server

DATA = Path(__file__).resolve().parents[2] / "data"
CMRC = DATA / "squad" / "cmrc2018_slice.json"
HALUEVAL = DATA / "halueval" / "qa_sample.jsonl"
REPORT_KEYS = {"provider", "model", "llm_calls", "llm_errors", "llm_fallbacks", "llm_fallback_reasons", "llm_p50_s",
               "llm_p95_s", "llm_turns", "llm_fallback_turns"}


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[str, str]]:
    """One scripted model per mode, each a real HTTP server on 127.0.0.1."""
    from contextlib import ExitStack

    with ExitStack() as stack:
        yield {mode: stack.enter_context(scripted_server(mode)) for mode in MODES}


def provider(servers: dict[str, str], mode: str) -> Any:
    return metered(client(servers[mode], mode))


def invented(reply: str) -> bool:
    return INVENTED_NUMBER in reply or INVENTED_NAME in reply


PASSAGES = [Scored(Passage("p1", "leave.md", "请假制度", "病假", "员工每年可享受带薪病假5天。病假超过3天需提供医院证明。",
                           0, 29, "hr", "default"), 1.0)]


# ----- the scripted model over HTTP ---------------------------------------------------------------
def test_scripted_reader_modes_over_http(servers: dict[str, str]) -> None:
    q = "员工每年有几天带薪病假？"
    faithful = llm_read(client(servers["faithful"], "faithful"), q, PASSAGES)
    assert faithful.method == "llm" and all(c.text == c.quote for c in faithful.claims)
    assert "员工每年可享受带薪病假5天。" in [c.quote for c in faithful.claims]
    para = llm_read(client(servers["paraphrase"], "paraphrase"), q, PASSAGES)
    assert any(c.text != c.quote for c in para.claims) and all(c.quote in PASSAGES[0].passage.text for c in para.claims)
    lie = llm_read(client(servers["invent"], "invent"), q, PASSAGES)
    assert any(invented(c.text) for c in lie.claims)
    with pytest.raises(ProviderError):  # no claim: the caller falls back to the extractive reader
        llm_read(client(servers["refuse"], "refuse"), q, PASSAGES)


def test_scripted_judge_chitchat_and_stream(servers: dict[str, str]) -> None:
    ok = client(servers["faithful"], "faithful")
    assert judge_answer(ok, "病假几天？", "员工每年可享受带薪病假5天。", ["员工每年可享受带薪病假5天。"])[0] == "supported"
    assert judge_answer(ok, "病假几天？", "员工每年可享受带薪病假30天并发奖金。", ["员工每年可享受带薪病假5天。"])[0] != "supported"
    assert judge_answer(client(servers["invent"], "invent"), "q", "胡说八道的答案", ["证据"])[0] == "supported"
    with pytest.raises(ProviderError):  # a refusal is not JSON
        judge_answer(client(servers["refuse"], "refuse"), "q", "a", ["e"])
    assert "".join(ok.stream([{"role": "user", "content": "你好"}])).startswith("您好")
    assert client(servers["refuse"], "refuse").chat([{"role": "user", "content": "你好"}]) == REFUSAL


def test_metered_provider_counts_calls_errors_and_turns(servers: dict[str, str]) -> None:
    p = provider(servers, "faithful")
    use = LLMUse(p)
    with use.turn() as t:
        p.chat([{"role": "user", "content": "你好"}])
    with use.turn():
        pass
    down = metered(OpenAICompatProvider("http://127.0.0.1:9/v1", "x", timeout=2, cooldown_s=0), p.log)
    with use.turn(), pytest.raises(ProviderError):
        down.chat([{"role": "user", "content": "hi"}])
    use.fallback("reader", "the language model could not be reached")
    r = use.report()
    assert t.calls == 1 and r["llm_calls"] == 2 and r["turns"] == 3 and r["llm_turns"] == 2
    assert r["llm_errors"] == {"the language model could not be reached": 1}
    assert r["llm_fallbacks"] == 1 and r["llm_fallback_reasons"] == {"reader: the language model could not be reached": 1}
    assert r["provider"] == "openai" and r["model"] == "scripted-faithful" and r["llm_p50_s"] is not None


def test_choose_provider_names_and_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    assert choose_provider("none") is None
    with pytest.raises(ValueError, match="--provider must be one of"):
        choose_provider("gpt")
    for k in ("KNOWZERO_LLM_BASE_URL", "KNOWZERO_LLM_MODEL", "KNOWZERO_LLM_PROVIDER"):
        monkeypatch.delenv(k, raising=False)
    with pytest.raises(ValueError, match="KNOWZERO_LLM_BASE_URL"):
        choose_provider("openai")
    assert choose_provider(None) is None  # the configured default: offline
    monkeypatch.setenv("KNOWZERO_LLM_BASE_URL", "http://127.0.0.1:9/v1")
    monkeypatch.setenv("KNOWZERO_LLM_MODEL", "m")
    chosen = choose_provider("openai")
    assert chosen is not None and chosen.name == "openai" and chosen.model == "m"


def test_cli_rejects_a_bad_provider() -> None:
    res = CliRunner().invoke(app, ["eval", "knowledge", "--demo", "--provider", "gpt", "--json"])
    assert res.exit_code == 2 and "--provider must be one of" in res.output
    res = CliRunner().invoke(app, ["eval", "knowledge", "--demo", "--provider", "none", "--compare-offline"])
    assert res.exit_code == 2 and "--compare-offline needs a model" in res.output


# ----- the knowledge benchmark on the CMRC slice --------------------------------------------------
@pytest.fixture(scope="module")
def squad_runs(servers: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    data_dir = tmp_path_factory.mktemp("llm-squad")
    runs = {"offline": run_knowledge(CMRC, unanswerable_share=0.3, data_dir=data_dir, baseline=False)}
    for mode in MODES:
        runs[mode] = run_knowledge(CMRC, unanswerable_share=0.3, data_dir=data_dir, baseline=False,
                                   provider=provider(servers, mode))
    return runs


@pytest.mark.slow
def test_squad_faithful_model_is_no_worse_than_offline(squad_runs: dict[str, dict[str, Any]]) -> None:
    off, r = squad_runs["offline"], squad_runs["faithful"]
    assert REPORT_KEYS <= set(r) and r["provider"] == "openai" and r["model"] == "scripted-faithful"
    assert r["answer_contains_gold"] >= off["answer_contains_gold"]
    assert r["false_answer_rate"] <= off["false_answer_rate"]
    assert r["unverified_sentences_shown"] == 0
    assert r["model_reader_share"] >= 0.5 and r["llm_turns"] == r["n"]
    # the only fallbacks: drafts whose quote answers worse than the offline reader's (that one is shown)
    assert all(k.startswith(f"reader: {NOT_AN_ANSWER}") for k in r["llm_fallback_reasons"])
    assert off["llm_calls"] == 0 and off["provider"] == "none"


@pytest.mark.slow
def test_squad_invented_sentences_never_shown_confirmed(squad_runs: dict[str, dict[str, Any]]) -> None:
    r = squad_runs["invent"]
    assert r["llm_calls"] > 0 and r["unverified_sentences_shown"] == 0
    for row in r["_rows"]:
        if invented(row["reply"]):
            assert row["level"] != "confirmed" and row["reply"].startswith("⚠️")
    assert r["level_share"]["confirmed"] <= squad_runs["offline"]["level_share"]["confirmed"]
    assert r["false_answer_rate"] <= squad_runs["offline"]["false_answer_rate"]


@pytest.mark.slow
def test_squad_paraphrases_are_checked_before_they_are_shown(squad_runs: dict[str, dict[str, Any]]) -> None:
    r, off = squad_runs["paraphrase"], squad_runs["offline"]
    assert r["generated_sentences_shown"] > 0 and r["unverified_sentences_shown"] == 0
    assert r["false_answer_rate"] <= off["false_answer_rate"]
    assert 0.5 <= r["answer_contains_gold"] <= 1.0


@pytest.mark.slow
def test_squad_refusing_model_falls_back_to_the_offline_answers(squad_runs: dict[str, dict[str, Any]]) -> None:
    r, off = squad_runs["refuse"], squad_runs["offline"]
    assert r["llm_fallbacks"] > 0 and r["llm_fallback_turns"] == r["n"]
    assert any(k.startswith("reader: ") for k in r["llm_fallback_reasons"])
    assert r["answer_contains_gold"] == off["answer_contains_gold"] and r["false_answer_rate"] == off["false_answer_rate"]
    assert r["model_reader_share"] == 0.0


# ----- the checker's benchmark with the judge ------------------------------------------------------
def test_factcheck_judge_only_makes_verdicts_stricter(servers: dict[str, str]) -> None:
    off = run_factcheck(HALUEVAL, 20)
    liar = run_factcheck(HALUEVAL, 20, provider=provider(servers, "invent"))
    assert liar["hallucinated_rejected"] == off["hallucinated_rejected"]  # "supported" never loosens a verdict
    assert liar["offline"]["accuracy"] == off["accuracy"] and liar["llm_calls"] > 0
    judge = run_factcheck(HALUEVAL, 20, provider=provider(servers, "faithful"))
    assert judge["hallucinated_rejected"] >= off["hallucinated_rejected"]
    assert judge["difference"]["hallucinated_rejected"] >= 0 and judge["difference"]["right_accepted"] <= 0
    refused = run_factcheck(HALUEVAL, 20, provider=provider(servers, "refuse"))
    assert refused["llm_fallbacks"] == refused["llm_calls"] > 0 and refused["accuracy"] == off["accuracy"]


# ----- the demo knowledge base, and the CLI --------------------------------------------------------
@pytest.mark.slow
def test_demo_with_faithful_and_inventing_models(servers: dict[str, str], tmp_path: Path) -> None:
    off = run_demo(data_dir=tmp_path)
    good = run_demo(data_dir=tmp_path, provider=provider(servers, "faithful"))
    # the scripted reader picks its sentences by character overlap: on the demo's tables and FAQs it
    # quotes a wrong line for a few questions; those drafts fail the checks and the offline answer is shown
    assert good["answer_contains_gold"] >= off["answer_contains_gold"]
    assert good["false_answer_rate"] <= off["false_answer_rate"]
    # a draft no better than the offline one, whose document the offline reader ranks otherwise, gives way to it
    # (issue 25.7): the scripted model keeps about half the answers (0.48 on the demo), never at a cost in gold
    assert good["unverified_sentences_shown"] == 0 and good["model_reader_share"] >= 0.45
    assert good["llm_fallbacks"] > 0 and all(k.startswith(f"reader: {NOT_AN_ANSWER}") for k in good["llm_fallback_reasons"])
    bad = run_demo(data_dir=tmp_path, provider=provider(servers, "invent"))
    assert bad["unverified_sentences_shown"] == 0 and bad["false_answer_rate"] <= off["false_answer_rate"]
    assert not any(invented(r["reply"]) and r["level"] == "confirmed" for r in bad["_rows"])
    # nor a sentence of the documents with two of its numbers swapped (every word from the quote, one lie)
    from knowzero.knowledge.kb import demo_kb_path
    from knowzero.llm.scripted import _sentences, swap_numbers

    swapped = {x.rstrip("。！？!?") for f in demo_kb_path().rglob("*.md") for sent in _sentences(f.read_text("utf-8"))
               if (x := swap_numbers(sent)) is not None and len(x) > 8}
    assert swapped and not any(x in r["reply"] for r in bad["_rows"] for x in swapped)
    assert bad["level_share"]["confirmed"] <= off["level_share"]["confirmed"]
    # the invented sentence fails its own check, so the whole draft gives way to the offline reader's
    assert bad["llm_fallback_reasons"].get(f"reader: {NOT_AN_ANSWER}: its check says contradicted", 0) > 0


@pytest.mark.parametrize(("question", "gold"), [
    ("零件D（XH-2002 标准连接法兰）的公差是多少？", "0.1"),  # the model quotes the table's header row: no number
    ("员工餐厅午餐几点开始供应？", "11:30"),  # the model quotes the canteen's weekend rule; now the table cell answers
])
def test_a_faithful_model_quoting_a_wrong_line_is_not_confirmed_and_the_offline_answer_is_used(
        servers: dict[str, str], demo_data_dir: Path, question: str, gold: str) -> None:
    from knowzero.config import Settings
    from knowzero.knowledge.answer.check import check_draft
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.answer.pipeline import answer_sync, masked, weaker_answer
    from knowzero.knowledge.answer.reader import extractive_read, quote_share
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=demo_data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    model = client(servers["faithful"], "faithful")
    a = answer_sync(question, KnowledgeDeps(kb, s, provider=model))
    reader = next(e for e in a.agent_log if e["agent"] == "reader")
    if reader["action"] == "lookup":  # the canteen table's 午餐 row × its time column answers before any model
        assert gold in a.reply.split("\n")[0] and a.verdict.level == "confirmed"
        return
    assert reader["action"] == "extract" and reader["fallback"] is True
    assert reader["fallback_reason"].startswith(NOT_AN_ANSWER)
    assert a.draft is not None and a.draft.method == "extractive" and gold in a.reply
    # the model's own draft of the same passages: a real quote without the answer, which the checks reject
    draft = llm_read(model, question, masked(a.passages))
    assert draft.claims and not any(gold in c.quote for c in draft.claims)
    mine = check_draft(kb, question, draft, a.passages)
    offline = check_draft(kb, question, extractive_read(question, list(a.passages), kb.keyword.term_idf), a.passages)
    assert offline.level == "confirmed"
    assert weaker_answer(question, mine, offline, quote_share(question, list(a.passages), kb.keyword.term_idf,
                                                             draft.claims[0])) == reader["fallback_reason"]


@pytest.mark.slow
def test_cli_compare_offline_prints_both_and_the_difference(servers: dict[str, str], tmp_path: Path) -> None:
    env = {**os.environ, "KNOWZERO_LLM_BASE_URL": servers["faithful"], "KNOWZERO_LLM_MODEL": "scripted-faithful"}
    res = CliRunner().invoke(app, ["eval", "knowledge", "--squad", str(CMRC), "--provider", "openai",
                                   "--compare-offline", "--unanswerable-share", "0.3", "--data-dir", str(tmp_path),
                                   "--json"], env=env)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert REPORT_KEYS <= set(out) and out["provider"] == "openai" and out["llm_calls"] > 0
    assert out["offline"]["llm_calls"] == 0 and "unverified_sentences_shown" in out
    for k in ("answer_contains_gold", "false_answer_rate", "unverified_sentences_shown"):
        assert out["difference"][k] == pytest.approx(out[k] - out["offline"][k], abs=1e-4)


# ----- routing, learning, service with the model ---------------------------------------------------
def test_routing_llm_tier_is_counted(servers: dict[str, str]) -> None:
    from knowzero.eval.routing import run_product

    product = DATA / "routing" / "product_dev.jsonl"
    off = run_product(product, 60)
    refused = run_product(product, 60, provider=provider(servers, "refuse"))
    assert REPORT_KEYS <= set(refused) and off["llm_calls"] == 0
    # every message the offline tiers leave below the threshold goes to the model; a refusal keeps their result
    assert refused["llm_fallbacks"] == refused["llm_calls"] and refused["accuracy"] == off["accuracy"]
    assert refused["llm_calls"] == refused["llm_turns"] > 0
    assert all(k.startswith("intent: ") for k in refused["llm_fallback_reasons"])


def test_learning_comments_never_adopt_an_invented_sentence(servers: dict[str, str], demo_data_dir: Path) -> None:
    from knowzero.config import Settings
    from knowzero.eval.learning import load_comment_set, run_comments
    from knowzero.knowledge.kb import KnowledgeBase
    from knowzero.persistence.db import make_engine

    s = Settings(data_dir=demo_data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    items = [i for i in load_comment_set() if i["corpus"] == "demo" and i["servable"]][:4]
    out = run_comments({"demo": kb}, items, provider=provider(servers, "invent"))
    assert out["llm"]["llm_calls"] > 0 and out["all"]["comment_false_adopt_share"] == 0.0
    assert not any(invented(r["message"]) for r in out["_rows"])


def test_service_turns_count_the_model_and_its_fallbacks(servers: dict[str, str], tmp_path: Path) -> None:
    import asyncio

    from knowzero.eval.service import load_scenarios, run_scenarios

    chosen = [s for s in load_scenarios() if s["name"] in ("multi_skill_turn", "handoff_by_request")]
    r = asyncio.run(run_scenarios(chosen, tmp_path, provider=provider(servers, "refuse")))
    assert REPORT_KEYS <= set(r) and r["llm_calls"] > 0
    assert r["llm_fallbacks"] >= 1 and r["llm_turns"] >= 1
    assert r["passed"] == len(chosen)  # every step fell back to the offline path: the scenarios still pass


def test_a_model_that_under_reads_anger_cannot_stop_the_handoff(servers: dict[str, str], tmp_path: Path) -> None:
    import asyncio

    from knowzero.eval.service import load_scenarios, run_scenarios

    chosen = [s for s in load_scenarios() if s["name"] == "handoff_by_anger"]
    assert chosen
    r = asyncio.run(run_scenarios(chosen, tmp_path, provider=provider(servers, "faithful")))  # it says 0.0 to all
    assert r["llm_calls"] > 0 and r["passed"] == 1, r


def test_report_runs_the_benchmarks_with_the_chosen_model(servers: dict[str, str], tmp_path: Path) -> None:
    import shutil

    data = tmp_path / "data"
    (data / "halueval").mkdir(parents=True)
    shutil.copy(HALUEVAL, data / "halueval" / "qa_one-turn_data_dev.jsonl")
    env = {**os.environ, "KNOWZERO_LLM_BASE_URL": servers["refuse"], "KNOWZERO_LLM_MODEL": "scripted-refuse"}
    res = CliRunner().invoke(app, ["eval", "report", "--out", str(tmp_path / "out"), "--data", str(data),
                                   "--tasks", "factcheck", "--limit", "10", "--provider", "openai"], env=env)
    assert res.exit_code == 0, res.output
    results = json.loads((tmp_path / "out" / "results.json").read_text("utf-8"))
    assert results["provider"] == "openai" and results["model"] == "scripted-refuse"
    fc = results["factcheck"]["one-turn"]
    assert fc["provider"] == "openai" and fc["llm_calls"] > 0 and fc["llm_fallbacks"] == fc["llm_calls"]
    assert "scripted-refuse" in (tmp_path / "out" / "report.md").read_text("utf-8")
    offline = CliRunner().invoke(app, ["eval", "report", "--out", str(tmp_path / "off"), "--data", str(data),
                                       "--tasks", "factcheck", "--limit", "10", "--provider", "none"], env=env)
    assert offline.exit_code == 0, offline.output
    off = json.loads((tmp_path / "off" / "results.json").read_text("utf-8"))
    assert off["provider"] == "none" and off["factcheck"]["one-turn"]["llm_calls"] == 0
    assert off["factcheck"]["one-turn"]["accuracy"] == fc["accuracy"]  # a refusing judge changes nothing
    bad = CliRunner().invoke(app, ["eval", "report", "--out", str(tmp_path / "x"), "--data", str(data),
                                   "--provider", "gpt"])
    assert bad.exit_code == 2 and "--provider" in bad.output


@pytest.mark.slow
def test_a_model_reader_keeps_the_offline_check_for_conflicting_sources(servers: dict[str, str], tmp_path: Path) -> None:
    from knowzero.eval.knowledge import run_conflicts

    off = run_conflicts(CMRC, limit=20, data_dir=tmp_path)
    r = run_conflicts(CMRC, limit=20, data_dir=tmp_path, provider=provider(servers, "faithful"))
    assert off["conflicts_named"] > 0  # the slice has a pair the offline reader names
    assert r["conflicts_named"] >= off["conflicts_named"] and r["conflict_confirmed_rate"] <= off["conflict_confirmed_rate"]
    assert r["false_conflict_rate"] <= off["false_conflict_rate"] and r["llm_calls"] > 0
