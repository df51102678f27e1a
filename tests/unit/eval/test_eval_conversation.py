"""``knowzero eval conversation`` (issue 33): grading of language and slots (pure), the figures, the chains'
own consistency, and one slow run of the whole command through the HTTP API."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.eval.conversation import KINDS, chain_slots, in_language, load_chains, slot_counts, summarise

ORGDOCS = Path(__file__).resolve().parents[2] / "data" / "orgdocs"


@pytest.mark.parametrize(("reply", "lang", "quotes", "ok"), [
    ("12 days — 满5年不满10年：12天 [1]", "en", ["满5年不满10年：12天"], True),
    ("满5年不满10年：12天 [1]", "en", ["满5年不满10年：12天"], False),  # only the quote: not our words in English
    ("满5年不满10年：12天 [1]", "en", [], False),
    ("每晚最多报销 $150。[1]", "zh", [], True),
    ("Up to $150 per night [1]", "zh", [], False),
])
def test_in_language(reply: str, lang: str, quotes: list[str], ok: bool) -> None:
    assert in_language(reply, lang, quotes) is ok


@pytest.mark.parametrize(("expected", "got", "counts"), [
    ({"order_id": "124", "subject": ["裂纹"]}, {"order_id": "124", "subject": "法兰盘有裂纹"}, (2, 0, 0)),
    ({"order_id": "124", "subject": ["裂纹"]}, {"order_id": "124", "subject": "订单124"}, (1, 1, 1)),
    ({"order_id": "124"}, {"order_id": "123"}, (0, 1, 1)),
    ({"order_id": "123"}, {}, (0, 0, 1)),
    ({}, {"order_id": "123"}, (0, 1, 0)),  # a slot nobody asked for is a false positive
    ({"order_id": "a-77"}, {"order_id": "A-77"}, (1, 0, 0)),
])
def test_slot_counts(expected: dict[str, Any], got: dict[str, Any], counts: tuple[int, int, int]) -> None:
    assert slot_counts(expected, got) == counts


def test_chain_slots_prefer_what_the_chain_created() -> None:
    before = {"tickets": [{"id": "TK-1", "order_id": "123", "subject": "old"}], "refunds": []}
    after = {"tickets": [*before["tickets"], {"id": "TK-2", "order_id": "124", "subject": "裂纹", "body": "有裂纹"}],
             "refunds": []}
    assert chain_slots(before, after, None) == {"order_id": "124", "subject": "裂纹 有裂纹"}
    # nothing created: the slots of the action still being filled
    pending = {"action": "create_ticket", "slots": {"order_id": "124"}}
    assert chain_slots(before, before, pending) == {"order_id": "124"}
    assert chain_slots(before, before, None) == {}


def _turn(grade: str | None = None, **kw: Any) -> dict[str, Any]:
    t: dict[str, Any] = {"message": "m", "reply": "r", "verdict": "confirmed", "understood": "", "elapsed_ms": 10.0,
                         "standalone": False, **kw}
    if grade:
        t |= {"graded": True, "grade": grade, "reasons": [], "outside": []}
    return t


def test_summarise_grades_the_last_turn_of_a_follow_up_chain() -> None:
    chains = [
        {"kind": "followup", "turns": [_turn("right"), _turn("wrong")]},   # the last graded turn counts
        {"kind": "followup", "turns": [_turn(), _turn("right")]},
        {"kind": "standalone", "turns": [_turn("right"), _turn("right", standalone=True, understood="follow_up")]},
        {"kind": "standalone", "turns": [_turn(), _turn("right", standalone=True, understood="translation")]},
        {"kind": "cross_language", "turns": [_turn("right"), _turn("abstained")]},
        {"kind": "service", "turns": [_turn()], "slot_counts": (2, 0, 0)},
        {"kind": "service", "turns": [_turn()], "slot_counts": (1, 1, 1)},
    ]
    s = summarise(chains)
    assert s["followup_right"] == 0.5
    assert s["standalone_kept"] == 0.5   # a translation is not a follow-up rewrite
    assert s["cross_language_right"] == 0.5
    assert s["slot_precision"] == 0.75 and s["slot_recall"] == 0.75 and s["slot_f1"] == 0.75
    assert s["wrong_confirmed"] == 1
    assert s["counts"]["slots_tp_fp_fn"] == [3, 1, 1]


def test_the_development_chains_are_consistent() -> None:
    chains = load_chains(ORGDOCS)
    assert {c["kind"] for c in chains} == set(KINDS)
    assert len({c["id"] for c in chains}) == len(chains)
    orgs = {p.name for p in ORGDOCS.iterdir() if p.is_dir()}
    for c in chains:
        assert c["org"] in orgs or (c["org"] is None and c["kind"] == "service"), c["id"]
        graded = [t for t in c["turns"] if t.get("answers") or t.get("decline")]
        if c["kind"] == "service":
            assert c.get("expect_slots") or graded, c["id"]
        else:
            assert graded and graded[-1] is c["turns"][-1], f"{c['id']}: its last turn is graded"
        if c["kind"] == "followup":
            assert len(c["turns"]) >= 2, c["id"]
        if c["kind"] == "standalone":
            assert c["turns"][-1].get("standalone"), c["id"]
    held = [c for c in chains if c["split"] == "held"]
    assert 0.25 <= len(held) / len(chains) <= 0.5


def test_a_malformed_chain_is_named(tmp_path: Path) -> None:
    (tmp_path / "chains.jsonl").write_text('{"id": "x", "kind": "followup", "split": "dev"}\n', "utf-8")
    with pytest.raises(ValueError, match="chains.jsonl:1"):
        load_chains(tmp_path)
    result = CliRunner().invoke(app, ["eval", "conversation", "--dir", str(tmp_path), "--split", "all"])
    assert result.exit_code == 2 and "chains.jsonl:1" in result.output


@pytest.mark.slow
def test_eval_conversation_runs_through_the_http_api(tmp_path: Path) -> None:
    org = tmp_path / "hanglu-logistics"
    shutil.copytree(ORGDOCS / "hanglu-logistics", org)
    chains = [
        {"id": "t-1", "org": "hanglu-logistics", "kind": "followup", "split": "dev",
         "turns": [{"message": "瀚陆物流员工每年有几天带薪病假？", "answers": ["3天"]},
                   {"message": "那事假呢？", "answers": ["20天"]}]},
        {"id": "t-2", "org": "hanglu-logistics", "kind": "standalone", "split": "dev",
         "turns": [{"message": "瀚陆物流员工每年有几天带薪病假？"},
                   {"message": "瀚陆物流人力资源中心的服务热线是多少？", "answers": ["0571-8816 2300"],
                    "standalone": True}]},
        {"id": "t-3", "org": None, "kind": "service", "split": "dev", "expect_slots": {"order_id": "124"},
         "turns": [{"message": "帮我开个工单"}, {"message": "订单124"}]},
    ]
    (tmp_path / "chains.jsonl").write_text("\n".join(json.dumps(c, ensure_ascii=False) for c in chains), "utf-8")
    rows = tmp_path / "rows.jsonl"
    result = CliRunner().invoke(app, ["eval", "conversation", "--dir", str(tmp_path), "--split", "all", "--json",
                                      "--wait-embeddings", "0", "--rows", str(rows)])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output.strip().splitlines()[-1])
    for key in ("followup_right", "standalone_kept", "cross_language_right", "slot_f1", "p50_ms"):
        assert key in out
    asked = [json.loads(line) for line in rows.read_text("utf-8").splitlines()]
    assert [c["id"] for c in asked] == ["t-1", "t-2", "t-3"]
    assert asked[0]["turns"][1]["understood"] == "follow_up"   # the follow-up was rewritten, and shown
    assert asked[1]["turns"][1]["understood"] != "follow_up"   # the new topic was left alone
    assert asked[2]["slots"].get("order_id") == "124"          # the order id given for the description is kept
    assert out["standalone_kept"] == 1.0 and out["chains"] == 3
