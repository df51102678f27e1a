"""The measurement harness of issue 14: loaders, negatives, synthetic sets and metrics on tiny slices.

No knowledge base or model here: the builders and metrics are pure functions (the runs that ask the
product are benchmarks, see benchmarks/README.md).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.eval import synthetic as syn
from knowzero.eval.factcheck import run_paraphrases
from knowzero.eval.knowledge import (
    abstention_score,
    choose_held_out,
    combine_seeds,
    conflict_row,
    data_script,
    load_squad,
    reliability,
    same_article_rule,
    summarize,
    threshold_curve,
)
from knowzero.knowledge import text as kztext

DATA = Path(__file__).resolve().parents[2] / "data" / "squad"
CMRC = DATA / "cmrc2018_slice.json"
DRCD = DATA / "drcd_slice.json"


def test_loader_reads_both_files_with_articles_and_offsets() -> None:
    paras, qs = load_squad(CMRC)
    assert len(paras) == 6 and len(qs) == 25
    assert all(p["article"] and p["context"] for p in paras)
    paras, qs = load_squad(DRCD)
    assert len(paras) == 8 and len(qs) == 24
    by_id = {p["id"]: p for p in paras}
    for q in qs:  # answer_start points at the answer in the (Traditional) paragraph
        ctx = by_id[q["gold"]]["context"]
        assert ctx[q["starts"][0]:q["starts"][0] + len(q["answers"][0])] == q["answers"][0]


def test_script_is_detected_from_the_data() -> None:
    assert data_script(load_squad(CMRC)[0]) == "simplified"
    assert data_script(load_squad(DRCD)[0]) == "traditional"


def test_traditional_text_is_always_segmented_like_simplified() -> None:
    assert kztext.tokens("陸特和漢斯雷頓開創了梵語的學術研究") == kztext.tokens("陆特和汉斯雷顿开创了梵语的学术研究")
    assert kztext.char_ngrams("學術") == {"学术"}
    assert kztext.fold("学术研究 XH-1001") == "学术研究 XH-1001"  # Simplified text comes back as it was


def test_the_script_switch_is_gone_and_results_report_the_datas_script() -> None:
    res = CliRunner().invoke(app, ["eval", "conflicts", "--squad", str(DRCD), "--script", "simplified"])
    assert res.exit_code == 2 and "--script" in res.output
    r = run_paraphrases(DRCD, limit=5)
    assert r["script"] == "traditional" and "folding" not in r


def test_random_removal_is_seeded() -> None:
    _, qs = load_squad(DRCD)
    a = choose_held_out(qs, 0.3, random.Random(5))
    assert a == choose_held_out(qs, 0.3, random.Random(5))
    assert sum(q["gold"] in a for q in qs) == pytest.approx(0.3 * len(qs), abs=3)


def test_same_article_keeps_a_neighbour_for_every_removed_paragraph() -> None:
    paras, qs = load_squad(DRCD)
    for seed in range(8):
        held = choose_held_out(qs, 0.3, random.Random(seed), same_article_rule(paras))
        assert held
        for pid in held:
            art = next(p["article"] for p in paras if p["id"] == pid)
            assert any(p["article"] == art and p["id"] not in held for p in paras)
    # CMRC trial has one paragraph per article: nothing qualifies
    paras, qs = load_squad(CMRC)
    assert choose_held_out(qs, 0.3, random.Random(1), same_article_rule(paras)) == set()


def test_same_paragraph_copy_has_no_answer_left() -> None:
    paras, qs = load_squad(CMRC)
    p = paras[0]
    answers = [a for q in qs if q["gold"] == p["id"] for a in q["answers"]]
    near = syn.strip_answer_sentences(p, answers[:1])
    assert near is not None and near["id"] == f"{p['id']}~nearmiss"
    assert answers[0] not in near["context"] and len(near["context"]) < len(p["context"])
    assert syn.strip_answer_sentences({"id": "x", "title": "", "context": "只有一句，答案在此。"}, ["答案"]) is None


def test_value_kinds_and_swaps() -> None:
    assert syn.value_kind("哪一年？", "1786年") == "date"
    assert syn.value_kind("有多长？", "702米") == "number"
    assert syn.value_kind("是由谁提出来的？", "保罗·塞里诺") == "person"
    assert syn.value_kind("是誰的理念?", "朱熹") == "person"  # Traditional question words
    assert syn.value_kind("为什么？", "因为下雨") is None
    rng = random.Random(3)
    for v in ("1786年", "702米", "约22平方公里", "3个", "1,200人"):
        w = syn.shift_number(v, rng)
        assert w != v and v not in w and w not in v


def test_english_answers_have_kinds_and_a_date_moves_its_year() -> None:
    assert syn.value_kind("When was he born?", "March 28, 1941") == "date"
    assert syn.value_kind("In what year did it open?", "1957") == "date"
    assert syn.value_kind("What population did it have at the 2010 census?", "2,586") == "number"
    assert syn.value_kind("Who directed the film?", "Todd Phillips") == "person"
    assert syn.value_kind("In which city is it located?", "New York City") == "place"
    assert syn.value_kind("What kind of film is it?", "Comedy film") is None  # not a typed value
    rng = random.Random(3)
    for _ in range(20):
        moved = syn.shift_number("March 28, 1941", rng)
        assert moved.startswith("March 28, ") and 1932 <= int(moved[-4:]) <= 1950 and moved != "March 28, 1941"
    assert syn.shift_number("2,586", rng).count(",") <= 1


def test_an_answer_named_in_its_question_makes_no_conflict_pair() -> None:
    # "Who is older, A or B?": swapping A everywhere makes no disagreement about the asked fact
    paras = [{"id": "p1", "title": "t", "context": "Glenn Hughes (born 1951) is a bassist. Ross Lynch (born 1995) is a singer."},
             {"id": "p2", "title": "u", "context": "The novel was written by Jane Doe."}]
    qs = [{"question": "Who is older, Glenn Hughes or Ross Lynch?", "answers": ["Glenn Hughes"], "gold": "p1"},
          {"question": "Who wrote the novel?", "answers": ["Jane Doe"], "gold": "p2"}]
    assert [p.value for p in syn.build_conflicts(paras, qs, seed=3)] == ["Jane Doe"]


def test_conflict_pairs_are_deterministic_and_swap_the_answer() -> None:
    paras, qs = load_squad(DRCD)
    pairs = syn.build_conflicts(paras, qs, seed=3)
    assert pairs and pairs == syn.build_conflicts(paras, qs, seed=3)
    by_id = {p["id"]: p for p in paras}
    for pair in pairs:
        assert pair.value in by_id[pair.gold]["context"]
        assert pair.swapped in pair.copy_context and pair.value not in pair.copy_context
        assert pair.kind in ("date", "number", "person", "place")
    assert len({p.gold for p in pairs}) == len(pairs)  # one copy per paragraph


def _out(reply: str, level: str, sources: list[str], conflicts: int = 0) -> dict:
    return {"reply": reply, "level": level, "reason": "", "coverage": 0.8, "conflicts": conflicts,
            "citations": [{"source": s, "quote": "", "start": 0, "end": 1} for s in sources]}


def test_conflict_metric_needs_both_values_both_sources_and_no_confirmation() -> None:
    pair = syn.ConflictPair("共有多少个议席？", "P1", "P1~conflict", "t", "共有70个议席。", "170个", "70个", "number")
    named = conflict_row(pair, _out("共有170个议席。[1]共有70个议席。[2]", "uncertain", ["P1", "P1~conflict"], 1))
    assert named["named"]
    assert not conflict_row(pair, _out("共有170个议席。[1]共有70个议席。[2]", "confirmed", ["P1", "P1~conflict"]))["named"]
    assert not conflict_row(pair, _out("共有170个议席。[1]", "uncertain", ["P1"]))["named"]
    # the note naming both documents counts as citing them
    note = _out("共有170个议席。[1]共有70个议席。\n注意：不同文档说法不一（P1 / P1~conflict）。", "uncertain", ["P1"], 1)
    assert conflict_row(pair, note)["named"]


def test_paraphrases_reword_and_hallucinations_swap() -> None:
    for path, trad in ((CMRC, False), (DRCD, True)):
        paras, qs = load_squad(path)
        items = syn.build_paraphrases(paras, qs, seed=3, traditional=trad)
        assert items and items == syn.build_paraphrases(paras, qs, seed=3, traditional=trad)
        assert {it.rule for it in items} >= {"statement"}
        for it in items:
            assert it.true_answer != it.hallucinated
    assert syn.as_statement("鸟兽脚类的概念是由谁提出来的？", "保罗·塞里诺") == "鸟兽脚类的概念是由保罗·塞里诺提出来的。"
    assert syn.as_statement("国际贸易大约是在几世纪时?", "9世纪") == "国际贸易大约是在9世纪时。"
    assert syn.as_statement("「格物致知」是誰的理念?", "朱熹", traditional=True) == "「格物致知」是朱熹的理念。"
    assert syn.with_synonyms("他目前位於台北", traditional=True) == "他如今地處台北"
    assert syn.rewrite_numbers("共有3个，1786年，12%") == "共有三个，1786年，百分之12"
    assert syn.reorder_clauses("甲，乙在此，丙。", "乙") == "乙在此，甲，丙。"


def test_polarity_items_negate_the_predicate() -> None:
    items = syn.build_polarity(load_squad(CMRC)[0], seed=3)
    assert items
    for it in items:
        assert it.question.endswith("吗？") and it.answer in ("是的。", "可以。")
        assert it.affirming != it.denying and ("不是" in it.denying or "不可以" in it.denying or "不能" in it.denying)


def test_paraphrase_run_reports_the_contract_keys() -> None:
    r = run_paraphrases(CMRC, limit=10)
    for k in ("paraphrase_accepted", "hallucination_rejected", "yesno_affirmed_accepted", "yesno_denied_rejected",
              "by_rule", "n", "n_yesno"):
        assert k in r
    assert 0 <= r["paraphrase_accepted"] <= 1


def _row(unanswerable: bool, answered: bool, contains: bool, score: float, ms: float = 10.0) -> dict:
    return {"unanswerable": unanswerable, "answered": answered, "contains": contains, "cited_gold": contains,
            "level": "confirmed" if answered else "insufficient", "coverage": max(score, 0.0), "score": score, "ms": ms}


def test_summary_keeps_todays_keys_and_curve_moves_with_the_threshold() -> None:
    rows = [_row(False, True, True, 0.9), _row(False, True, False, 0.6), _row(False, False, False, 0.3),
            _row(True, True, False, 0.7), _row(True, False, False, -1.0)]
    s = summarize(rows)
    for k in ("n", "answer_contains_gold", "citation_accuracy", "citation_accuracy_all", "answered_rate",
              "false_answer_rate", "p50_ms", "p95_ms"):
        assert k in s
    assert s["answered_rate"] == pytest.approx(2 / 3, abs=1e-3) and s["false_answer_rate"] == 0.5
    curve = {p["threshold"]: p for p in threshold_curve(rows, [0.0, 0.5, 0.8, 1.0])}
    assert curve[0.0]["answered_rate"] == 1.0 and curve[0.0]["false_answer_rate"] == 0.5  # -1: never answers
    assert curve[0.8]["answered_rate"] == pytest.approx(1 / 3, abs=1e-3) and curve[0.8]["false_answer_rate"] == 0.0
    rel = reliability(rows, bins=5)
    assert sum(b["n"] for b in rel) == 3
    assert abstention_score({"level": "insufficient", "reason": "the sources cover only 20% of the question",
                             "coverage": 0.2}) == 0.2
    assert abstention_score({"level": "insufficient", "reason": "no claim is supported by a source",
                             "coverage": 0.9}) == -1.0


def test_worst_seed_is_the_one_with_most_false_answers() -> None:
    runs = {1: {"false_answer_rate": 0.08, "answer_contains_gold": 0.88, "p50_ms": 50.0, "_rows": []},
            5: {"false_answer_rate": 0.12, "answer_contains_gold": 0.90, "p50_ms": 40.0, "_rows": []},
            11: {"false_answer_rate": 0.10, "answer_contains_gold": 0.85, "p50_ms": 45.0, "_rows": []}}
    r = combine_seeds(runs)
    assert r["worst_seed"] == 5 and r["worst"]["false_answer_rate"] == 0.12
    assert r["worst_of_each"] == {"false_answer_rate": 0.12, "p50_ms": 50.0, "answer_contains_gold": 0.85}
    assert set(r["per_seed"]) == {"1", "5", "11"}


def test_cli_rejects_bad_modes() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["eval", "knowledge", "--squad", str(CMRC), "--negatives", "nearby"])
    assert res.exit_code == 2 and "--negatives" in res.output
    res = runner.invoke(app, ["eval", "knowledge", "--squad", str(CMRC), "--seeds", "1,x"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["eval", "factcheck"])
    assert res.exit_code == 2


def test_report_page_from_the_checker_benchmarks(tmp_path) -> None:
    import shutil

    from knowzero.eval.report import run_report

    data = tmp_path / "data"
    (data / "cmrc2018").mkdir(parents=True)
    (data / "halueval").mkdir()
    shutil.copy(CMRC, data / "cmrc2018" / "cmrc2018_trial.json")
    shutil.copy(DATA.parent / "halueval" / "qa_sample.jsonl", data / "halueval" / "qa_one-turn_data_dev.jsonl")
    page = run_report(tmp_path / "out", data=data, limit=10, seeds=[1], tasks=("paraphrase", "factcheck"),
                      say=lambda _m: None)
    text = page.read_text(encoding="utf-8")
    assert "paraphrase_accepted" in text and "HaluEval" in text and "| one-turn |" in text
    assert (tmp_path / "out" / "results.json").is_file()
