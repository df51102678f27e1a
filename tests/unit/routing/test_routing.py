"""Tiered intent routing: each tier alone, the chain, the cache, non-chat sources, the eval metrics.

Tests that build a semantic tier load the bundled USE encoder (about a second, offline).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from knowzero.errors import InvalidInput, ProviderError
from knowzero.eval import routing as ev
from knowzero.models.embeddings import router
from knowzero.routing import (
    PRODUCT_INTENTS,
    CompoundRule,
    FuzzyTier,
    IntentClassifier,
    IntentResult,
    LLMTier,
    RuleTier,
    SemanticTier,
    classify_source,
    load_routing_data,
)
from knowzero.routing.head import (
    fit_oos_threshold,
    fit_score_threshold,
    fit_temperature,
    reject_share_budget,
    softmax,
    stratified_folds,
    threshold_at_accuracy,
    threshold_at_in_scope_quantile,
)
from knowzero.routing.text import normalize, tokens
from kz_testlib import shared_classifier

DATA = Path(__file__).resolve().parents[2] / "data" / "routing"
CLINC_SLICE = DATA / "clinc150_slice.json"
PRODUCT_DEV = DATA / "product_dev.jsonl"

SMALL = {
    "weather": ["what's the weather like today", "will it rain tomorrow", "how hot is it outside",
                "is it going to snow this weekend", "what's the forecast for tonight", "do I need an umbrella"],
    "music": ["play some jazz", "put on my workout playlist", "play the latest taylor swift song",
              "I want to listen to classical music", "skip this song", "turn the music up"],
    "timer": ["set a timer for ten minutes", "start a 5 minute countdown", "timer for 30 seconds please",
              "remind me in an hour with a timer", "cancel my timer", "how much time is left on the timer"],
}


# ---------------------------------------------------------------------------- fakes
class ScriptedProvider:
    """A real ChatProvider: answers from a script and records what it was asked."""

    name = "scripted"

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.calls: list[list[dict[str, str]]] = []

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        self.calls.append(messages)
        return self.answers.pop(0)


class DownProvider:
    """A provider whose server is down."""

    name = "down"

    def __init__(self) -> None:
        self.calls = 0

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        self.calls += 1
        raise ProviderError("connection refused")


# ---------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def product() -> IntentClassifier:
    return shared_classifier()


@pytest.fixture(scope="module")
def small_semantic() -> SemanticTier:
    return SemanticTier(SMALL)


# ---------------------------------------------------------------------------- types and text
def test_result_validates_confidence_and_method() -> None:
    with pytest.raises(ValueError):
        IntentResult("chitchat", 1.2, "rule", 0.1)
    with pytest.raises(ValueError):
        IntentResult("chitchat", 0.5, "magic", 0.1)  # type: ignore[arg-type]
    r = IntentResult("chitchat", 1.0, "rule", 0.01, "greeting", (("chitchat", 1.0),))
    assert set(r.to_event()) == {"intent", "confidence", "method", "elapsed_ms", "reasoning"}
    assert json.loads(json.dumps(r.to_dict()))["candidates"] == [["chitchat", 1.0]]


def test_normalize_and_tokens() -> None:
    assert normalize("  Ｈｅｌｌｏ\n World？ ") == "hello world?"
    assert tokens("帮我查订单 and refund") == ["帮", "我", "查", "订", "单", "and", "refund"]


# ---------------------------------------------------------------------------- data file
def test_data_file_defines_exactly_the_product_intents() -> None:
    data = load_routing_data()
    assert tuple(data.intents) == PRODUCT_INTENTS
    assert data.oos_label == "clarify"
    for name, spec in data.intents.items():
        # knowledge is the broad intent (any question about any document: rules, prices, places,
        # names), so it carries more examples; the others stay balanced
        assert 15 <= len(spec.examples) <= (45 if name == "knowledge" else 30), name
        assert any(re.search(r"[a-z]", e, re.I) for e in spec.examples), f"{name} has no English example"
        assert any(re.search(r"[\u4e00-\u9fff]", e) for e in spec.examples), f"{name} has no Chinese example"
        assert spec.description
    for rule in data.rules:
        re.compile(rule.pattern)


def test_data_file_rejects_unknown_intents(tmp_path: Path) -> None:
    raw = json.loads((Path(__file__).resolve().parents[3] / "src/knowzero/routing/data/intents.json").read_text())
    raw["rules"].append({"name": "bad", "intent": "nonsense", "pattern": "x"})
    bad = tmp_path / "intents.json"
    bad.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(ValueError, match="unknown intents"):
        load_routing_data(bad)


# ---------------------------------------------------------------------------- tier 1: rules
@pytest.mark.parametrize(("text", "intent"), [
    ("你好！", "chitchat"), ("谢谢你", "chitchat"), ("再见", "chitchat"), ("讲个笑话吧", "chitchat"),
    ("我想学 LangGraph", "new_topic"), ("什么是向量数据库", "new_topic"),
    ("我想系统地学习机器学习", "plan"),  # more specific than 我想学 → new_topic
    ("LangGraph 和 AutoGen 有什么区别", "comparison"), ("优化这段", "optimize_content"),
    ("打开 Python 的文档", "navigate"), ("继续", "follow_up"), ("转人工", "action"),
    ("帮我看看", "clarify"), ("这个呢", "clarify"), ("", "clarify"),
    ("查订单+退款政策+写邮件", "mixed"), ("帮我查订单，然后生成邮件", "mixed"),
    ("check my order and also tell me the refund policy", "mixed"),
])
def test_rule_tier_hits(product: IntentClassifier, text: str, intent: str) -> None:
    assert product.rules is not None
    r = product.rules.classify(text)
    assert r is not None and (r.intent, r.confidence, r.method) == (intent, 1.0, "rule")
    assert r.elapsed_ms >= 0 and r.reasoning.startswith("rule ")


@pytest.mark.parametrize("text", ["差旅报销上限是多少", "我想了解一下退款", "why is that", "为什么是这样的呢"])
def test_rule_tier_does_not_guess(product: IntentClassifier, text: str) -> None:
    assert product.rules is not None
    assert product.rules.classify(text) is None


def test_rule_tier_standalone_and_validation() -> None:
    tier = RuleTier([("chitchat", r"^(hi|hello)\W*$"), {"intent": "timer", "pattern": "timer", "name": "t"}])
    assert tier.classify("Hello!").intent == "chitchat"  # type: ignore[union-attr]
    assert tier.classify("set a timer").reasoning == "rule 't' matched 'timer'"  # type: ignore[union-attr]
    assert tier.classify("weather") is None
    with pytest.raises(ValueError, match="invalid regex"):
        RuleTier([("x", "(unclosed")])


def test_compound_rule_needs_two_task_pieces() -> None:
    rule = CompoundRule.build("mixed", ["然后", r"\band\b"],
                              {"realtime": ["订单"], "knowledge": ["退款政策", "政策"], "action": ["退款", "邮件"]},
                              repeatable=["action"])
    assert rule.match("查订单然后写邮件") is not None
    assert rule.match("退款政策然后呢") is None  # one task only
    assert rule.match("退款政策和退货政策") is None  # no connector
    assert rule.match("政策然后政策") is None  # the same non-repeatable intent twice
    assert rule.match("退款然后写邮件") is not None  # two actions are two tasks
    assert "knowledge (退款政策)" in (rule.match("订单 and 退款政策") or "")  # longest keyword wins


# ---------------------------------------------------------------------------- tier 2: fuzzy
@pytest.mark.parametrize(("text", "intent"), [("我要退宽", "action"), ("报消流程是啥样", "knowledge"),
                                              ("怎么报消", "knowledge"), ("please cancle my order", "action")])
def test_fuzzy_tier_catches_typos(product: IntentClassifier, text: str, intent: str) -> None:
    assert product.fuzzy is not None
    r = product.fuzzy.classify(text)
    assert r is not None and r.intent == intent and r.method == "fuzzy"
    assert 0.6 <= r.confidence < 1.0 and "≈" in r.reasoning


def test_fuzzy_tier_guards() -> None:
    tier = FuzzyTier({"action": ["我要退款", "申请退款", "refund my order"], "knowledge": ["报销流程", "退款流程"]})
    assert tier.classify("我要退出登录") is None  # 退出 is a real word, not a typo of 退款
    assert tier.classify("怎么报名") is None
    assert tier.classify("退款") is None  # a message shorter than every phrase
    assert tier.classify("more detail please") is None
    ambiguous = tier.classify("申请退款的流程是什么")
    assert ambiguous is not None and ambiguous.confidence <= 0.5 and "ambiguous" in ambiguous.reasoning
    exact = tier.classify("I want to refund my order")
    assert exact is not None and exact.confidence == 1.0


# ---------------------------------------------------------------------------- tier 3: semantic
def test_semantic_tier_hit_with_calibrated_confidence(small_semantic: SemanticTier) -> None:
    r = small_semantic.classify("is it raining outside right now")
    assert r.intent == "weather" and r.method == "semantic"
    assert 0.0 <= r.confidence <= 1.0 and len(r.candidates) == 3
    assert r.candidates[0][0] == "weather" and r.candidates[0][1] >= r.candidates[1][1]
    assert "closest example" in r.reasoning
    proba = small_semantic.predict_proba(["play something by the beatles", "start a countdown"])
    assert proba.shape == (2, 3) and np.allclose(proba.sum(axis=1), 1.0)
    assert ((proba >= 0) & (proba <= 1)).all()
    assert [small_semantic.labels[i] for i in proba.argmax(axis=1)] == ["music", "timer"]
    fit = small_semantic.fit
    assert fit.head == "linear" and fit.temperature > 0 and 0 <= fit.oof_ece <= 1


def test_semantic_similarity_head() -> None:
    tier = SemanticTier(SMALL, head="similarity")
    r = tier.classify("could you play a song")
    assert r.intent == "music" and 0.0 <= r.confidence <= 1.0
    assert tier.fit.head == "similarity" and tier.temperature < 1  # cosines need sharpening


def test_semantic_out_of_scope() -> None:
    data = ev.load_clinc(CLINC_SLICE)
    examples = ev.group_examples(data["train"] + data["oos_train"])
    tier = SemanticTier(examples, oos_label="oos")
    assert tier.threshold is not None and 0.0 <= tier.threshold < 1.0
    r = tier.classify("what is the boiling point of mercury in kelvin")
    assert r.intent == "oos"
    assert tier.classify("set an alarm for 6 am tomorrow").intent == "alarm"


def test_semantic_blend_out_of_scope_score() -> None:
    data = ev.load_clinc(CLINC_SLICE)
    examples = ev.group_examples(data["train"] + data["oos_train"])
    tier = SemanticTier(examples, oos_label="oos", oos_score="blend")
    assert tier.fit.oos_score == "blend" and tier.fit.knn_weight > 0 and tier.threshold is not None
    assert 0.5 < tier.fit.oof_in_scope_accuracy <= 1.0
    near, far = "set an alarm for 6 am tomorrow", "what is the boiling point of mercury in kelvin"
    labels, score = tier.in_scope_scores([near, far])
    assert labels[0] == "alarm" and "oos" not in labels and score[0] > score[1]
    assert tier.classify(near).intent == "alarm"
    assert tier.classify(far).intent == "oos"
    tier.set_threshold(float(score[0]) + 1.0)  # a threshold chosen elsewhere applies at once
    r = tier.classify(near)
    assert r.intent == "oos" and "in-scope score" in r.reasoning
    with pytest.raises(ValueError):
        SemanticTier(SMALL, oos_score="energy")  # type: ignore[arg-type]


def test_semantic_blend_centred_measures_knn_against_the_intents_own_density() -> None:
    data = ev.load_clinc(CLINC_SLICE)
    examples = ev.group_examples(data["train"] + data["oos_train"])
    tier = SemanticTier(examples, oos_label="oos", oos_score="blend-centred")
    assert tier.fit.oos_score == "blend-centred" and tier.fit.knn_weight > 0 and tier.threshold is not None
    # the centre, computed here from the definition: per intent, the mean over its examples of the
    # mean cosine to their 5 nearest *other* in-scope examples
    in_scope = [(label, normalize(t)) for label, utts in examples.items() if label != "oos" for t in utts]
    emb = router().encode([t for _, t in in_scope])
    sims = emb @ emb.T
    np.fill_diagonal(sims, -np.inf)
    loo = np.sort(sims, axis=1)[:, -5:].mean(axis=1)
    owner = np.array([label for label, _ in in_scope])
    expected = {label: float(loo[owner == label].mean()) for label in examples if label != "oos"}
    assert set(tier.knn_centre) == set(expected)
    for label, centre in expected.items():
        assert tier.knn_centre[label] == pytest.approx(centre, abs=1e-4)
    assert max(expected.values()) - min(expected.values()) > 0.02  # intents do differ in density
    near, far = "set an alarm for 6 am tomorrow", "what is the boiling point of mercury in kelvin"
    labels, score = tier.in_scope_scores([near, far])
    assert labels[0] == "alarm" and score[0] > score[1]
    assert tier.classify(near).intent == "alarm"
    assert tier.classify(far).intent == "oos"
    plain = SemanticTier(examples, oos_label="oos", oos_score="blend")
    assert plain.knn_centre == {}


def test_score_thresholds() -> None:
    score = np.array([0.1, 0.2, 0.3, 0.7, 0.8, 0.9])
    is_oos = np.array([True, True, False, False, False, False])
    correct = np.array([False, False, False, True, True, True])  # the 0.3 in-scope query is misclassified
    assert threshold_at_accuracy(score, correct, is_oos, 0.75) == 0.5  # rejects the wrong in-scope one too
    assert threshold_at_accuracy(score, correct, is_oos, 1.0) == float("-inf")  # unreachable: reject nothing
    assert 0.2 < fit_score_threshold(score, correct, is_oos, prior=0.5) <= 0.7
    no_oos = fit_score_threshold(score, correct, np.zeros(6, bool), reject_rate=0.0)
    assert no_oos == 0.7


def test_halves_protocol_is_stratified_and_reports_the_worst() -> None:
    gold = ["a"] * 10 + ["b"] * 10 + ["oos"] * 6
    first = ev.label_halves(gold, 3)
    assert first.sum() == 13 and sum(first[20:]) == 3 and sum(first[:10]) == 5
    assert (ev.label_halves(gold, 3) == first).all() and not (ev.label_halves(gold, 4) == first).all()
    pred_in = ["a"] * 10 + ["b"] * 9 + ["a"] + ["a", "b"] * 3
    score = np.r_[np.linspace(0.6, 1.0, 20), np.linspace(0.0, 0.7, 6)]
    out = ev.halves_protocol(gold, pred_in, score, [0, 1], min_in_scope=0.9, fixed_threshold=0.5)
    assert len(out["runs"]) == 4 and {r["chosen_on"] for r in out["runs"]} == {"first", "second"}
    for key in ("oos_recall", "in_scope_accuracy"):
        assert out["worst"][key] == min(r[key] for r in out["runs"]) <= out["mean"][key]
    assert out["fixed_threshold_on_halves"]["threshold"] == 0.5 and len(out["fixed_threshold_on_halves"]["runs"]) == 4
    assert ev.oos_decisions(["a", "b"], np.array([0.1, 0.9]), 0.5) == ["oos", "b"]


def test_in_scope_quantile_rule_reads_only_in_scope_scores() -> None:
    score = np.array([0.1, 0.2, 0.3, 0.7, 0.8, 0.9])
    is_oos = np.array([True, True, False, False, False, False])
    t = threshold_at_in_scope_quantile(score, is_oos, 0.25)
    assert 0.3 < t < 0.7  # a quarter of the four in-scope scores lie below it
    moved = score.copy()
    moved[:2] = [0.95, 0.99]  # where the out-of-scope queries fall does not move the threshold
    assert threshold_at_in_scope_quantile(moved, is_oos, 0.25) == t
    assert threshold_at_in_scope_quantile(score, is_oos, 0.0) == float("-inf")
    with pytest.raises(ValueError):
        threshold_at_in_scope_quantile(score, is_oos, 1.0)
    assert reject_share_budget(0.9689, 0.95) == pytest.approx(0.0189)
    assert reject_share_budget(float("nan"), 0.95) == 0.0 and reject_share_budget(0.90, 0.95) == 0.0


def test_halves_protocol_with_the_quantile_rule() -> None:
    gold = ["a"] * 10 + ["b"] * 10 + ["oos"] * 6
    pred_in = ["a"] * 10 + ["b"] * 9 + ["a"] + ["a", "b"] * 3
    score = np.r_[np.linspace(0.6, 1.0, 20), np.linspace(0.0, 0.7, 6)]
    out = ev.halves_protocol(gold, pred_in, score, [0, 1], min_in_scope=0.9, rule="in-scope-quantile",
                             reject_share=0.1)
    assert out["threshold_rule"] == "in-scope-quantile" and out["reject_share"] == 0.1
    for run in out["runs"]:
        assert 0.6 < run["threshold"] < 0.75  # the lowest tenth of each chooser half's in-scope scores
        assert run["oos_recall"] >= 0.5
    with pytest.raises(ValueError):
        ev.choose_and_measure(gold, pred_in, score, np.ones(26, bool), np.ones(26, bool), 0.9, rule="best")


def test_semantic_tier_validates() -> None:
    with pytest.raises(ValueError):
        SemanticTier({"only": ["one intent"]})
    with pytest.raises(ValueError):
        SemanticTier(SMALL, head="nope")  # type: ignore[arg-type]


def test_head_pieces() -> None:
    y = np.array([0, 0, 0, 1, 1, 1, 2, 2, 2])
    folds = stratified_folds(y, 3)
    assert all(sorted(y[folds == f].tolist()) == [0, 1, 2] for f in range(3))
    logits = np.array([[4.0, 0.0], [3.0, 0.0], [0.0, 2.0], [2.0, 0.0]])
    t = fit_temperature(logits, np.array([0, 0, 1, 1]))
    assert t > 1  # one confident mistake: calibration softens
    proba = np.array([[0.9, 0.1], [0.55, 0.45], [0.2, 0.8], [0.5, 0.5]])
    assert fit_oos_threshold(proba, np.array([0, 0, 1, 1]), oos_class=1, prior=0.5) > 0.5
    assert np.allclose(softmax(np.array([[1.0, 1.0]])), 0.5)


# ---------------------------------------------------------------------------- tier 4: LLM
def test_llm_tier_parses_and_validates() -> None:
    tier = LLMTier({"chitchat": "greetings", "clarify": "too vague"}, fallback="clarify")
    provider = ScriptedProvider('```json\n{"intent": "chitchat", "confidence": 0.9, "reasoning": "a greeting"}\n```')
    r = tier.classify("yo", provider)
    assert (r.intent, r.confidence, r.method) == ("chitchat", 0.9, "llm")
    assert "chitchat: greetings" in provider.calls[0][0]["content"]
    with pytest.raises(ProviderError):
        tier.classify("yo", ScriptedProvider('{"intent": "weather", "confidence": 0.9}'))
    with pytest.raises(ProviderError):
        tier.classify("yo", ScriptedProvider("not json"))


# ---------------------------------------------------------------------------- the chain
def test_rule_short_circuits(product: IntentClassifier) -> None:
    provider = ScriptedProvider()
    r = product.classify("你好", provider=provider)
    assert (r.intent, r.method, r.confidence) == ("chitchat", "rule", 1.0)
    assert [m for m, _ in r.tiers] == ["rule"] and provider.calls == []


def test_low_confidence_falls_through_to_semantic(small_semantic: SemanticTier) -> None:
    fuzzy = FuzzyTier({"weather": ["rain"], "music": ["rain song"]})  # both match: ambiguous
    clf = IntentClassifier(fuzzy=fuzzy, semantic=small_semantic, threshold=0.6)
    r = clf.classify("play that rain song again")
    assert (r.intent, r.method) == ("music", "semantic")
    assert [m for m, _ in r.tiers] == ["fuzzy", "semantic"]
    assert "fuzzy weather 0.50 below 0.60" in r.reasoning
    assert r.elapsed_ms >= sum(ms for _, ms in r.tiers) * 0.99


def test_semantic_decides_paraphrases(product: IntentClassifier) -> None:
    for text, intent in [("差旅报销上限是多少", "knowledge"), ("my package hasn't arrived yet", "realtime"),
                         ("I'd like my money back", "action")]:
        r = product.classify(text)
        assert (r.intent, r.method) == (intent, "semantic"), text
        assert r.confidence >= product.threshold


def test_llm_tier_used_when_unsure() -> None:
    clf = IntentClassifier.from_examples(SMALL, threshold=0.999)
    provider = ScriptedProvider('{"intent": "music", "confidence": 0.8, "reasoning": "asks for a song"}')
    r = clf.classify("something to listen to while cooking", provider=provider)
    assert (r.intent, r.method, r.confidence) == ("music", "llm", 0.8)
    assert [m for m, _ in r.tiers] == ["semantic", "llm"]
    assert "Faster classifiers guessed" in provider.calls[0][1]["content"]
    no_llm = clf.classify("something to listen to while cooking")
    assert no_llm.method == "semantic" and no_llm.confidence < 0.999  # no provider: best earlier result


def test_the_llm_tier_chooses_among_the_offline_tiers_best_guesses() -> None:
    # found by the issue-16 review: an inventing model sent "订单123退款500元" to a learning plan
    from knowzero.routing.classifier import LLM_CHOICES, unavailable_reason

    five = {**SMALL, "news": ["what's in the news", "read me the headlines", "latest news about sports"],
            "translate": ["translate hello into french", "how do you say thanks in spanish", "what does ciao mean"]}
    clf = IntentClassifier.from_examples(five, threshold=0.999)
    offline = clf.classify("something to listen to while cooking")
    outside = next(name for name in clf.intents if name not in {n for n, _ in offline.candidates[:LLM_CHOICES]})
    provider = ScriptedProvider(f'{{"intent": "{outside}", "confidence": 0.99, "reasoning": "made up"}}')
    r = clf.classify("something to listen to while cooking", provider=provider)
    assert (r.intent, r.method) == (offline.intent, offline.method), "the offline tiers' result is kept"
    assert unavailable_reason(r.reasoning) == f"the model's intent is none of the offline tiers' {LLM_CHOICES} best guesses"


def test_provider_error_falls_back_and_is_not_cached() -> None:
    clf = IntentClassifier.from_examples(SMALL, threshold=0.999)
    provider = DownProvider()
    r = clf.classify("will I need a coat later", provider=provider)
    assert r.method == "semantic" and r.intent == "weather"
    assert "LLM unavailable (connection refused)" in r.reasoning
    clf.classify("will I need a coat later", provider=provider)
    assert provider.calls == 2  # the failure was not cached: the next message tries again
    bad_json = clf.classify("will I need a coat later", provider=ScriptedProvider("sorry, I can't"))
    assert bad_json.method == "semantic" and "LLM unavailable" in bad_json.reasoning


def test_cache_hit_keeps_method_and_marks_cached() -> None:
    clf = IntentClassifier.from_examples(SMALL, cache_size=2)
    first = clf.classify("Play some jazz")
    again = clf.classify("  play   some JAZZ ")  # same normalised message
    assert not first.cached and again.cached
    assert (again.intent, again.method, again.confidence) == (first.intent, "semantic", first.confidence)
    assert clf.cache_info()["hits"] == 1
    clf.classify("set a timer")
    clf.classify("will it rain")  # evicts the least recently used (jazz)
    assert not clf.classify("play some jazz").cached
    clf.clear_cache()
    assert clf.cache_info() == {"hits": 0, "misses": 0, "size": 0, "maxsize": 2}


def test_product_classifier_covers_every_product_intent(product: IntentClassifier) -> None:
    assert set(product.intents) == set(PRODUCT_INTENTS)


def test_product_accuracy_on_dev_set(product: IntentClassifier) -> None:
    report = ev.run_product(PRODUCT_DEV, classifier=product)
    assert report["n"] == 131
    assert report["accuracy"] >= 0.9, report["errors"]
    assert set(report["share_by_tier"]) <= {"rule", "fuzzy", "semantic"}


# ---------------------------------------------------------------------------- non-chat sources
@pytest.mark.parametrize(("source", "page", "intent"), [
    ("comment", None, "optimize_content"), ("entity", True, "navigate"), ("entity", None, "navigate"),
    ("entity", False, "new_topic"), ("follow_up", None, "follow_up"), ("entry", None, "new_topic"),
])
def test_classify_source(source: str, page: bool | None, intent: str) -> None:
    r = classify_source(source, page)
    assert (r.intent, r.method, r.confidence) == (intent, "source", 1.0)
    assert r.reasoning.startswith(f"source '{source}'")


def test_classify_source_rejects_chat_and_unknown() -> None:
    with pytest.raises(InvalidInput):
        classify_source("chat")
    with pytest.raises(InvalidInput):
        classify_source("carrier-pigeon")


# ---------------------------------------------------------------------------- eval
def test_eval_metrics_on_a_hand_made_example() -> None:
    gold = ["a", "a", "b", "oos", "oos", "b"]
    pred = ["a", "oos", "b", "oos", "b", "b"]
    assert ev.accuracy(gold, pred) == 0.6667
    assert ev.in_scope_accuracy(gold, pred) == 0.75  # a→oos counts as wrong
    assert ev.oos_recall(gold, pred) == 0.5
    assert ev.oos_precision(gold, pred) == 0.5
    assert ev.share_by_tier(["rule", "semantic", "semantic", "fuzzy"]) == {"semantic": 0.5, "rule": 0.25,
                                                                          "fuzzy": 0.25}
    assert ev.latency([1.0, 2.0, 3.0, 4.0, 100.0]) == {"p50_ms": 3.0, "p95_ms": 80.8}
    assert ev.in_scope_accuracy([], []) == 0.0 and ev.oos_precision(["a"], ["a"]) == 0.0
    assert ev.spread_sample([("x", str(i)) for i in range(10)], 3) == [("x", "0"), ("x", "4"), ("x", "9")]
    assert ev.group_examples([("hi", "g"), ("yo", "g"), ("bye", "b")]) == {"g": ["hi", "yo"], "b": ["bye"]}


def test_load_jsonl_finds_fields(tmp_path: Path) -> None:
    f = tmp_path / "d.jsonl"
    f.write_text('{"query": "打开微信", "intent": "app"}\n\n{"query": "几点了", "intent": "datetime"}\n',
                 encoding="utf-8")
    assert ev.load_jsonl(f) == [("打开微信", "app"), ("几点了", "datetime")]
    f.write_text('{"q": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError):
        ev.load_jsonl(f)


def test_run_clinc_on_the_slice() -> None:
    r = ev.run_clinc(CLINC_SLICE, peer=False)
    assert r["n"] == 50 and r["n_oos"] == 10
    assert r["in_scope_accuracy"] >= 0.85
    assert 0.0 <= r["oos_recall"] <= 1.0 and 0.0 <= r["oos_precision"] <= 1.0
    assert r["share_by_tier"] == {"semantic": 1.0}
    assert 0 < r["p50_ms"] <= r["p95_ms"]


def test_run_jsonl(tmp_path: Path) -> None:
    train, test = tmp_path / "train.jsonl", tmp_path / "test.jsonl"
    train.write_text("".join(json.dumps({"text": t, "label": k}) + "\n" for k, v in SMALL.items() for t in v))
    test.write_text(json.dumps({"text": "is it sunny", "label": "weather"}) + "\n"
                    + json.dumps({"text": "play a song", "label": "music"}) + "\n")
    r = ev.run_jsonl(train, test, peer=False)
    assert r["n"] == 2 and r["accuracy"] == 1.0 and set(r) >= {"share_by_tier", "p50_ms", "p95_ms"}


def test_routing_command_prints_one_json_object_last() -> None:
    app = typer.Typer()
    app.command()(ev.routing_command)
    result = CliRunner().invoke(app, ["--clinc", str(CLINC_SLICE), "--limit", "10", "--no-peer", "--json"])
    assert result.exit_code == 0, result.output
    last = json.loads(result.stdout.strip().splitlines()[-1])
    assert "clinc" in last and last["clinc"]["n"] == 10 and "llm_calls" in last
    assert CliRunner().invoke(app, []).exit_code == 2


def test_run_clinc_val_protocol_chooses_on_one_split_and_measures_another(tmp_path: Path) -> None:
    data = json.loads(CLINC_SLICE.read_text(encoding="utf-8"))
    data["test"], data["oos_test"] = data["val"][::-1], data["oos_val"][::-1]
    full = tmp_path / "clinc.json"
    full.write_text(json.dumps(data), encoding="utf-8")
    r = ev.run_clinc(full, test_split="test", peer=False, threshold_protocol="val", min_in_scope=0.9)
    protocol = r["threshold_protocol"]
    assert (protocol["chosen_on"], protocol["measured_on"], protocol["n"]) == ("val", "test", r["n"])
    assert protocol["in_scope_accuracy"] >= 0.9  # the same queries in another order
    with pytest.raises(ValueError, match="differ"):
        ev.run_clinc(full, test_split="val", peer=False, threshold_protocol="val")


def test_routing_command_val_halves_protocol() -> None:
    app = typer.Typer()
    app.command()(ev.routing_command)
    result = CliRunner().invoke(app, ["--clinc", str(CLINC_SLICE), "--no-peer", "--json",
                                      "--threshold-protocol", "val-halves", "--seeds", "0,1,2"])
    assert result.exit_code == 0, result.output
    clinc = json.loads(result.stdout.strip().splitlines()[-1])["clinc"]
    assert {"in_scope_accuracy", "oos_recall", "oos_precision", "p50_ms"} <= set(clinc)  # the old keys stay
    protocol = clinc["threshold_protocol"]
    assert protocol["name"] == "val-halves" and protocol["seeds"] == [0, 1, 2] and len(protocol["runs"]) == 6
    assert set(protocol["worst"]) >= {"oos_recall", "in_scope_accuracy"}
    assert clinc["semantic"]["oos_score"] == protocol["oos_score"] == "blend-centred"  # the default
    bad = CliRunner().invoke(app, ["--clinc", str(CLINC_SLICE), "--no-peer", "--threshold-protocol", "nope"])
    assert bad.exit_code == 2
