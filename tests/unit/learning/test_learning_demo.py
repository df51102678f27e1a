"""Learning documents on the bundled demo knowledge base, as a new user meets them (issue 15).

Coverage of the source a topic names, a defining sentence first on entity pages, honest comment
handling, grammatical follow-ups, and paths for goals phrased as roles.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.learning.service import LearningService
from knowzero.persistence.db import make_engine


@pytest.fixture(scope="module")
def demo_kb(demo_data_dir: Path) -> KnowledgeBase:
    s = Settings(data_dir=demo_data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    return kb


@pytest.fixture()
def dsvc(demo_kb: KnowledgeBase, tmp_path: Path) -> LearningService:
    s = Settings(data_dir=tmp_path, database_url="")
    return LearningService(make_engine(s.db_url), kb=demo_kb, settings=s)


def test_topic_document_covers_the_main_sections_of_its_source_in_order(dsvc: LearningService) -> None:
    doc = dsvc.generate("CNC维护")
    heads = [s["heading"] for s in doc["sections"]]
    assert any("每日维护" in h for h in heads), heads
    daily = next(s for s in doc["sections"] if "每日维护" in s["heading"])
    assert "预热" in daily["markdown"] and "开机前检查" in " ".join(c["section"] for c in daily["citations"])
    order = [h for h in ("每日维护", "每周维护", "每月维护") if any(h in x for x in heads)]
    assert order == ["每日维护", "每周维护", "每月维护"]
    assert [i for i, h in enumerate(heads) if "每日维护" in h][0] < [i for i, h in enumerate(heads) if "每月维护" in h][0]
    assert doc["sections"][0]["heading"] == "概述与定义" and "为保证" in doc["sections"][0]["markdown"]


def test_entity_page_leads_with_what_the_thing_is(dsvc: LearningService) -> None:
    doc = dsvc.generate("主轴", entity_name="主轴")
    first = doc["sections"][0]
    assert first["heading"] == "概述与定义"
    lead = first["citations"][0]["quote"]
    assert "spindle is" in lead.lower() and "可能原因" not in lead


def test_issue_comment_on_pull_force_is_declined_when_nothing_serves_it(dsvc: LearningService) -> None:
    doc = dsvc.generate("CNC加工中心日常维护")
    sec = next(s for s in doc["sections"] if "拉刀力" in s["markdown"])
    res = dsvc.improve_from_comment(doc["id"], selected_text="拉刀力", section_id=sec["id"],
                                    comment="请解释一下拉刀力是什么，为什么要检测，拉刀力不够会有什么后果？")
    assert res["kinds"][:2] == ["explain", "why"] and res["term"] == "拉刀力"
    assert not res["changed"] and res["comment"]["status"] == "declined"
    assert res["message"].startswith("未能采纳：知识库中没有") and "拉刀力" in res["message"]
    assert dsvc.get_document(doc["id"])["version"] == 1


def test_follow_ups_are_grammatical_and_open_a_topic_not_a_question(dsvc: LearningService) -> None:
    doc = dsvc.generate("班后保养有哪些具体规定？")
    assert doc["title"] == "班后保养"
    for q in doc["follow_ups"]:
        assert q.count("？") == 1 and q.endswith("？"), q
        assert "有哪些具体规定有哪些" not in q and not ("如何系统地学习" in q and "有哪些" in q), q
    cnc = dsvc.generate("CNC维护")
    assert all("如何系统地学习" not in q or q == "如何系统地学习CNC维护？" for q in cnc["follow_ups"])


@pytest.mark.parametrize("goal", ["成为合格的CNC操作工", "掌握热处理", "学会数控编程"])
def test_planner_builds_a_path_for_roles_and_skills(dsvc: LearningService, goal: str) -> None:
    p = dsvc.plan(goal)
    assert p["sufficient"] and p["steps"], p["reason"]
    assert "成为" not in p["topic"] and "掌握" not in p["topic"] and not p["topic"].startswith("会")


def _comment(dsvc: LearningService, topic: str, selected: str, comment: str) -> dict:
    doc = dsvc.generate(topic)
    sec = next((s for s in doc["sections"] if selected in s["markdown"]), doc["sections"][-1])
    return {"doc": doc, **dsvc.improve_from_comment(doc["id"], selected_text=selected, section_id=sec["id"],
                                                    comment=comment)}


def test_a_comment_about_something_the_kb_never_names_is_declined_and_says_what(dsvc: LearningService) -> None:
    res = _comment(dsvc, "差旅报销", "报销", "出国出差的签证费怎么报销？")
    assert res["comment"]["status"] == "declined" and not res["changed"]
    assert res["message"] == "未能采纳：知识库中没有关于「签证费」的内容，文档保持不变。"


def test_a_verb_the_kb_does_not_use_is_not_a_reason_to_decline() -> None:
    from knowzero.knowledge.text import nouns

    assert "签证费" in nouns("出国出差的签证费怎么报销？")
    assert "领取" not in nouns("伙食补助怎么领取？"), "a how-question's verb may be served in other words"


def test_terms_are_whole_words_and_question_words_are_not_terms(demo_kb: KnowledgeBase) -> None:
    from knowzero.learning.optimize import classify_request

    r = classify_request("校准状态标签怎么看？举例说明", "标签", kb=demo_kb)
    assert r.term == "标签" and "校准状态标" not in (r.term, *r.also), "not a cut-off 校准状态标(识)"
    r = classify_request("首件检验记录表保存多久？展开讲讲", "记录", kb=demo_kb)
    assert r.term == "首件检验记录表" and "多久" not in r.also


def test_the_documents_own_topic_is_the_term_only_when_nothing_else_is_named(demo_kb: KnowledgeBase) -> None:
    from knowzero.learning.optimize import classify_request

    line = "首件检验是指每批次第一件产品加工完成后进行的检验"
    assert classify_request("首件检验为什么要三坐标测量机？", line, kb=demo_kb).term == "首件检验"
    assert classify_request("首件检验为什么要三坐标测量机？", line, kb=demo_kb, topic="首件检验").term == "三坐标测量机"
    assert classify_request("首件检验的目的是什么？", line, kb=demo_kb, topic="首件检验").term == "首件检验"


def test_a_correction_is_served_by_a_table_row_cited_verbatim(dsvc: LearningService, demo_kb: KnowledgeBase) -> None:
    res = _comment(dsvc, "量具校准", "校准", "千分尺的校准周期应该是6个月")
    # the document carries the calibration table, so the row is already there and the reply points to it
    assert res["comment"]["status"] == "answered", res["message"]
    assert res["message"].startswith("文档中已有：") and "千分尺" in res["message"] and "6个月" in res["message"]
    new = [c for s in res["document"]["sections"] for c in s["citations"] if c["quote"].startswith("|")]
    assert new and any("千分尺" in c["quote"] and "6个月" in c["quote"] for c in new)
    for c in new:
        assert demo_kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"] and c["wording"] == "source"
    text = "\n".join(s["markdown"] for s in res["document"]["sections"])
    assert "外径千分尺（0-25mm、25-50mm）：校准周期 6个月" in text and "| 6个月 |" not in text, "a row reads as a sentence"
