# ruff: noqa: F811  (pytest fixtures imported from test_learning_kb are redefined as arguments)
"""Comment-driven improvement: need classification, new versions, diffs and change summaries."""

from __future__ import annotations

import re

import pytest
from test_learning_kb import kb, resolves, svc  # noqa: F401  (fixtures)

from knowzero.errors import NotFound
from knowzero.learning import store
from knowzero.learning.optimize import classify_need, classify_request
from knowzero.learning.service import LearningService


@pytest.mark.parametrize(("comment", "need"), [
    ("这里太抽象了", "examples"), ("能举个例子吗？", "examples"), ("太简单了", "depth"), ("看不懂", "simplify"),
    ("详细点", "expand"), ("为什么要预热10分钟？", "why"), ("拉刀力怎么测量", "how"), ("拉刀力是什么？", "explain"),
    ("这里写错了，应该是12kN", "correct"), ("太长了，精简一下", "shorten"), ("报修电话是多少？", "question"),
    ("景栋的气候怎么样？", "question"),
])
def test_classify_need(comment: str, need: str) -> None:
    assert classify_need(comment)[0] == need


def test_request_kinds_term_and_claim_come_from_the_comment(kb) -> None:
    r = classify_request("请解释一下拉刀力是什么，为什么要检测，拉刀力不够会有什么后果？", "拉刀力", kb=kb)
    assert r.kinds[:2] == ("explain", "why") and r.term == "拉刀力"
    r = classify_request("这里写错了吧，拉刀力应该是12kN", "拉刀力", kb=kb)
    assert r.need == "correct" and r.claim == "12kN" and r.term == "拉刀力"


def test_explain_comment_adds_only_sentences_about_the_term_next_to_the_selection(svc: LearningService, kb) -> None:
    doc = svc.generate("主轴保养")
    sec = next(s for s in doc["sections"] if "拉刀力" in s["markdown"])
    line = next(ln for ln in sec["markdown"].splitlines() if "拉刀力" in ln)
    res = svc.improve_from_comment(doc["id"], selected_text="拉刀力",
                                   comment="请解释一下拉刀力是什么，为什么要检测，拉刀力不够会有什么后果？", section_id=sec["id"])
    assert res["changed"] and res["comment"]["status"] == "applied"
    old = {ln for s in doc["sections"] for ln in s["markdown"].splitlines()}
    new_sec = next(s for s in res["document"]["sections"] if s["id"] == sec["id"])
    lines = new_sec["markdown"].splitlines()
    added = [re.sub(r"\[\d+\]$", "", ln) for ln in lines if ln.startswith("- ") and ln not in old
             and re.sub(r"\[\d+\]$", "", ln) not in {re.sub(r"\[\d+\]$", "", o) for o in old}]
    assert added and all("拉刀力" in a for a in added)  # nothing about belts, vibration or coolant
    assert any("是指" in a for a in added) and any("掉刀" in a or "松动" in a for a in added)
    first_added = next(i for i, ln in enumerate(lines) if ln.startswith("- ") and "是指" in ln)
    anchor = next(i for i, ln in enumerate(lines) if line.split("[")[0] in ln)
    assert 0 < first_added - anchor <= 4  # right after the highlighted line
    for s in res["document"]["sections"]:
        for c in s["citations"]:
            assert resolves(kb, c)


def test_unservable_comment_is_declined_not_adopted(svc: LearningService) -> None:
    doc = svc.generate("主轴保养")
    sec = next(s for s in doc["sections"] if "拉刀力" in s["markdown"])
    res = svc.improve_from_comment(doc["id"], selected_text="拉刀力", comment="拉刀力测力仪用什么品牌？详细说说",
                                   section_id=sec["id"])
    assert not res["changed"] and res["comment"]["status"] == "declined"
    assert res["message"].startswith("未能采纳：知识库中没有") and "已采纳" not in res["message"]
    assert store.get_document(svc.engine, doc["id"])["version"] == 1
    res = svc.improve_from_comment(doc["id"], selected_text="拉刀力", comment="为什么皮带要检查张紧度？这里举个例子",
                                   section_id=sec["id"])
    assert res["comment"]["status"] in ("declined", "answered") or all(
        "皮带" in ln for ln in res["message"].splitlines())


def test_correction_is_adopted_only_when_the_knowledge_base_says_so(svc: LearningService) -> None:
    doc = svc.generate("主轴保养")
    sec = next(s for s in doc["sections"] if "拉刀力" in s["markdown"])
    res = svc.improve_from_comment(doc["id"], selected_text="拉刀力", comment="拉刀力应该是12kN吧，这里写错了",
                                   section_id=sec["id"])
    assert res["need"] == "correct" and res["comment"]["status"] == "declined" and "12kN" in res["message"]


def test_shorten_keeps_the_lines_about_the_term(svc: LearningService) -> None:
    doc = svc.generate("主轴保养")
    sec = next(s for s in doc["sections"] if "拉刀力" in s["markdown"] and s["markdown"].count("\n") >= 2)
    res = svc.improve_from_comment(doc["id"], selected_text="拉刀力", comment="这一节太长了，精简一下", section_id=sec["id"])
    new = next(s for s in res["document"]["sections"] if s["id"] == sec["id"])
    assert res["changed"] and new["markdown"].count("\n") < sec["markdown"].count("\n") and "拉刀力" in new["markdown"]


def test_examples_comment_makes_a_new_version_with_a_diff(svc: LearningService, kb) -> None:
    doc = svc.generate("主轴保养")
    sec = next(s for s in doc["sections"] if s["kind"] == "detail" and "每月" in s["heading"])
    sel = sec["citations"][0]["quote"][:12]
    res = svc.improve_from_comment(doc["id"], selected_text=sel, comment="这里太抽象了", section_id=sec["id"])
    assert res["changed"] and res["need"] == "examples"
    new = next(s for s in res["document"]["sections"] if s["id"] == sec["id"])
    assert "**示例**" in new["markdown"]
    added = new["markdown"].split("**示例**")[1]
    assert any(ch.isdigit() for ch in added)  # concrete values from the knowledge base
    assert res["document"]["version"] == 2
    assert "补充示例" in res["document"]["change_summary"] and "新增" in res["document"]["change_summary"]
    for s in res["document"]["sections"]:
        for c in s["citations"]:
            assert resolves(kb, c)
    assert [c["n"] for s in res["document"]["sections"] for c in s["citations"]] == \
        list(range(1, 1 + sum(len(s["citations"]) for s in res["document"]["sections"])))
    versions = store.list_versions(svc.engine, doc["id"])
    assert [v["version"] for v in versions] == [1, 2] and versions[1]["author"] == "assistant"
    diff = store.diff_versions(svc.engine, doc["id"], 1, 2)
    assert diff["added"] > 0 and "+**示例**" in diff["diff"]
    assert any(c["section_id"] == sec["id"] and c["change"] == "modified" for c in diff["sections"])
    v1 = store.get_version(svc.engine, doc["id"], 1)
    assert "**示例**" not in v1["markdown"]
    comment = store.list_comments(svc.engine, doc["id"])[0]
    assert comment["status"] == "applied" and comment["need"] == "examples"


def test_question_comment_leaves_the_document_alone(svc: LearningService) -> None:
    doc = svc.generate("主轴保养")
    sec = doc["sections"][0]
    res = svc.improve_from_comment(doc["id"], selected_text=sec["citations"][0]["quote"][:8],
                                   comment="报修电话是多少？", section_id=sec["id"])
    assert res["need"] == "question" and not res["changed"]
    assert store.get_document(svc.engine, doc["id"])["version"] == 1


def test_unknown_document_is_not_found(svc: LearningService) -> None:
    with pytest.raises(NotFound):
        svc.get_document("nope")
    with pytest.raises(NotFound):
        store.get_version(svc.engine, "nope", 1)


def test_with_a_model_the_added_sentences_are_checked_and_a_failing_one_becomes_its_quote(kb, tmp_path) -> None:
    import json as _json

    from knowzero.config import Settings
    from knowzero.persistence.db import make_engine
    from kz_testlib import ScriptedProvider

    def reply(messages):  # type: ignore[no-untyped-def]
        ev = re.findall(r"^\[(\d+)\] (.+)$", messages[-1]["content"], re.M)
        first = ev[0][1]
        return _json.dumps({"sentences": [{"text": first, "evidence": 1},
                                          {"text": "拉刀力不足会导致主轴爆炸并烧毁电机。", "evidence": len(ev)}]},
                           ensure_ascii=False)

    s = Settings(data_dir=tmp_path, database_url="")
    svc = LearningService(make_engine(s.db_url), kb=kb, provider=ScriptedProvider([reply]), settings=s)
    doc = LearningService(make_engine(s.db_url), kb=kb, settings=s).generate("主轴保养")
    sec = next(x for x in doc["sections"] if "拉刀力" in x["markdown"])
    res = svc.improve_from_comment(doc["id"], selected_text="拉刀力", comment="拉刀力是什么？为什么重要？", section_id=sec["id"])
    assert res["changed"] and res["method"] == "llm"
    new = next(x for x in res["document"]["sections"] if x["id"] == sec["id"])
    assert "爆炸" not in new["markdown"]  # unsupported: replaced by the quote it cited
    for c in new["citations"]:
        assert resolves(kb, c)
        assert c["quote"] in new["markdown"] or any(c["quote"][:6] in ln for ln in new["markdown"].splitlines())


@pytest.mark.parametrize(("comment", "need"), [
    ("请删掉这一句", "delete"), ("remove this sentence", "delete"), ("把这句换成更简洁的说法", "shorten"),
    ("Please say it more simply", "shorten"), ("换个说法", "shorten"),
])
def test_edit_requests_are_read_as_edits(comment: str, need: str) -> None:
    assert classify_need(comment)[0] == need


def _a_cited_line(doc: dict) -> tuple[dict, str]:
    sec = next(s for s in doc["sections"] if len([ln for ln in s["markdown"].splitlines() if ln.startswith("- ")]) >= 2)
    line = next(ln for ln in sec["markdown"].splitlines() if ln.startswith("- ") and re.search(r"\[\d+\]$", ln))
    return sec, re.sub(r"^- |\[\d+\]$", "", line)


def test_delete_removes_exactly_the_selected_sentence_and_its_citation(svc: LearningService) -> None:
    doc = svc.generate("主轴保养")
    sec, sentence = _a_cited_line(doc)
    res = svc.improve_from_comment(doc["id"], selected_text=sentence, comment="请删掉这一句", section_id=sec["id"])
    assert res["changed"] and res["comment"]["status"] == "applied", res["message"]
    new = next(s for s in res["document"]["sections"] if s["id"] == sec["id"])
    assert sentence not in new["markdown"]
    others = [ln for ln in sec["markdown"].splitlines() if ln.strip() and sentence not in ln]
    assert all(ln in new["markdown"] or re.sub(r"\[\d+\]", "", ln) in re.sub(r"\[\d+\]", "", new["markdown"])
               for ln in others), "nothing else goes"
    assert len(new["citations"]) == len(sec["citations"]) - 1
    gone = svc.improve_from_comment(doc["id"], selected_text="文档里没有的一句话", comment="删掉", section_id=sec["id"])
    assert not gone["changed"] and gone["message"].startswith("未能采纳") and "删掉" not in gone["message"]


def test_a_shorter_wording_keeps_every_value_and_rewrites_only_the_selection(svc: LearningService) -> None:
    from knowzero.learning.concise import shorter_wording

    long = "为保证数控加工中心的加工精度和稳定运行，每天首次开机或停机超过4小时后，必须执行主轴预热程序，预热时间为10分钟。"
    assert shorter_wording(long) == "每天首次开机或停机超过4小时后，须执行主轴预热程序，预热时间为10分钟。"
    assert shorter_wording("需要注意的是，当年未休完的年假可顺延至次年6月30日前使用（逾期作废）。") == \
        "当年未休完的年假可顺延至次年6月30日前使用（逾期作废）。"
    assert shorter_wording("禁止使用个人网盘存储公司数据。") == "禁止使用个人网盘存储公司数据。"
    doc = svc.generate("主轴保养")
    sec, sentence = _a_cited_line(doc)
    res = svc.improve_from_comment(doc["id"], selected_text=sentence, comment="把这句换成更简洁的说法", section_id=sec["id"])
    new = next(s for s in res["document"]["sections"] if s["id"] == sec["id"])
    if res["changed"]:  # the selection shortened in place, every other line as it was
        assert sentence not in new["markdown"] and shorter_wording(sentence) in new["markdown"]
        assert len(new["markdown"].splitlines()) == len(sec["markdown"].splitlines())
    else:  # nothing to leave out without losing a value: said plainly, the document unchanged
        assert res["message"].startswith("未能采纳") and new["markdown"] == sec["markdown"]


def test_an_example_request_is_never_answered_with_the_selected_line_itself(svc: LearningService) -> None:
    """"请举个例子" on a sentence: a cited example from the sources in a new version, or a plain no — never
    "文档中已有：" quoting the very line the reader asked about."""
    doc = svc.generate("主轴保养")
    sec, sentence = _a_cited_line(doc)
    res = svc.improve_from_comment(doc["id"], selected_text=sentence, comment="请举个例子说明", section_id=sec["id"])
    assert sentence not in (res["message"] if not res["changed"] else "")
    if not res["changed"]:
        assert res["message"].startswith("未能采纳") or "例如" in res["message"] or "比如" in res["message"]
