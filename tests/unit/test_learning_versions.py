# ruff: noqa: F811  (pytest fixtures imported from test_learning_kb are redefined as arguments)
"""Comment-driven improvement: need classification, new versions, diffs and change summaries."""

from __future__ import annotations

import pytest
from test_learning_kb import kb, resolves, svc  # noqa: F401  (fixtures)

from knowzero.errors import NotFound
from knowzero.learning import store
from knowzero.learning.optimize import classify_need
from knowzero.learning.service import LearningService


@pytest.mark.parametrize(("comment", "need"), [
    ("这里太抽象了", "examples"), ("能举个例子吗？", "examples"), ("太简单了", "depth"), ("看不懂", "clearer"),
    ("详细点", "expand"), ("为什么要预热10分钟？", "question"), ("拉刀力怎么测量", "question"),
])
def test_classify_need(comment: str, need: str) -> None:
    assert classify_need(comment)[0] == need


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
                                   comment="为什么要这样做？", section_id=sec["id"])
    assert res["need"] == "question" and not res["changed"]
    assert store.get_document(svc.engine, doc["id"])["version"] == 1


def test_unknown_document_is_not_found(svc: LearningService) -> None:
    with pytest.raises(NotFound):
        svc.get_document("nope")
    with pytest.raises(NotFound):
        store.get_version(svc.engine, "nope", 1)
