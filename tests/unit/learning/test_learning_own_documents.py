"""Learning on a team's own documents (issue 28): the topic a request names, the tables a topic's sources hold,
the current edition only, and comments that do what they ask — through the one comment path (``comment_on``).

The knowledge base is the bundled demo plus two organisations of the own-documents set (tests/data/orgdocs),
each its own collection, as a team uploads them."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from knowzero.config import Settings
from knowzero.eval.learning_own import judge, lines_of, table_covered
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.learning.compose import clean_topic
from knowzero.learning.service import LearningService, comment_on
from knowzero.persistence.db import make_engine

ORGDOCS = Path(__file__).resolve().parents[2] / "data" / "orgdocs"


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeBase:
    s = Settings(data_dir=tmp_path_factory.mktemp("own-kb"), database_url="")
    k = KnowledgeBase(make_engine(s.db_url), s)
    k.ensure_demo()
    for org in ("hanglu-logistics", "maplegrove-vet"):
        k.ingest_paths(sorted((ORGDOCS / org).iterdir()), collection=org)
    return k


@pytest.fixture()
def svc(kb: KnowledgeBase, tmp_path: Path) -> LearningService:
    s = Settings(data_dir=tmp_path, database_url="")
    return LearningService(make_engine(s.db_url), kb=kb, settings=s)


def _comment(svc: LearningService, doc: dict[str, Any], selected: str, comment: str) -> dict[str, Any]:
    sid = next(s["id"] for s in doc["sections"] if selected in s["markdown"])
    return asyncio.run(comment_on(svc, doc["id"], selected_text=selected, comment=comment,
                                  kdeps=KnowledgeDeps(svc.kb, svc.kb.settings), section_id=sid))


def test_a_request_for_a_document_names_its_topic() -> None:
    assert clean_topic("帮我生成一份关于清源实验室研究生助研津贴的学习文档") == "清源实验室研究生助研津贴"
    assert clean_topic("帮我写一份差旅报销的培训材料") == "差旅报销"
    assert clean_topic("Write a learning guide about paid time off.") == "paid time off"
    assert clean_topic("我想系统地学习班后保养") == "班后保养"  # unchanged


def test_the_topic_table_is_carried_as_rows_read_under_their_headers(svc: LearningService) -> None:
    leave = svc.generate("帮我生成一份关于瀚陆物流年假的学习文档")
    assert leave["title"] == "瀚陆物流年假"
    assert table_covered(leave, [["满5年不满10年", "9天"], ["满20年及以上", "16天"]])  # a Markdown table
    assert not any(line.startswith("|") for line in lines_of(leave)), "a row reads as a sentence, not as pipes"
    travel = svc.generate("瀚陆物流差旅住宿标准")  # an HTML table
    assert table_covered(travel, [["一类城市", "550"], ["三类城市", "300"]])
    for s in travel["sections"]:  # every row is cited verbatim from its file
        for c in s["citations"]:
            assert svc.kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]


def test_only_the_current_edition_is_taught(svc: LearningService, kb: KnowledgeBase) -> None:
    doc = svc.generate("瀚陆物流运输安全")
    sources = {c["source"] for s in doc["sections"] for c in s["citations"]}
    assert sources and not any(src in kb.superseded() for src in sources)
    text = "\n".join(lines_of(doc))
    assert "3.5小时" in text and "10分" in text  # the 2026 values (2024: 4小时, 疲劳驾驶 8分)


def test_an_english_topic_gets_english_headings_and_rows(svc: LearningService) -> None:
    doc = svc.generate("Maple Grove continuing education")
    assert not any(re.search(r"[\u4e00-\u9fff]", s["heading"]) for s in doc["sections"])
    assert table_covered(doc, [["DVM", "$1,500"]])
    assert any("Role: DVM; CE allowance" in line for line in lines_of(doc))
    assert not any("sick" in line.lower() for line in lines_of(doc)), "another policy is not 'related' by its company"


def test_a_confirmed_answer_to_a_question_is_written_into_the_section(svc: LearningService) -> None:
    doc = svc.generate("Write a learning guide about Maple Grove paid time off")
    assert "week of Thanksgiving" not in "\n".join(lines_of(doc))
    res = _comment(svc, doc, "Every employee receives 6 paid sick days per year", "Is PTO approved during the week of Thanksgiving?")
    assert res["need"] == "question" and res["verdict"]["level"] == "confirmed"
    assert res["changed"] and res["comment"]["status"] == "applied"
    new = [line for line in lines_of(res["document"]) if line not in lines_of(doc)]
    assert any("week of Thanksgiving" in line for line in new) and res["document"]["version"] == 2
    for s in res["document"]["sections"]:  # numbered 1..N in reading order, each mark resolving to its quote
        marks = [int(n) for n in re.findall(r"\[(\d+)\]", s["markdown"])]
        assert marks == sorted(marks) and marks == [c["n"] for c in s["citations"]]


def test_an_answer_the_document_already_holds_points_there(svc: LearningService) -> None:
    doc = svc.generate("瀚陆物流差旅住宿标准")
    res = _comment(svc, doc, "出差结束后30天内", "夜间驾驶有补贴吗？")
    assert not res["changed"] and res["comment"]["status"] == "answered" and "40元" in res["message"]
    assert res["document"]["version"] == 1


def test_a_question_the_sources_do_not_answer_changes_nothing(svc: LearningService) -> None:
    doc = svc.generate("瀚陆物流差旅住宿标准")
    res = _comment(svc, doc, "出差结束后30天内", "出差可以坐头等舱吗？")
    assert not res["changed"] and res["verdict"]["level"] != "confirmed" and res["document"]["version"] == 1


def test_a_question_is_answered_from_the_documents_own_organisation(svc: LearningService) -> None:
    """The demo company (and any other collection) has its own travel rules; a comment on 瀚陆's document is
    answered from 瀚陆's."""
    doc = svc.generate("瀚陆物流差旅住宿标准")
    assert svc.collections_of(doc) == ("hanglu-logistics",)
    res = _comment(svc, doc, "出差结束后30天内", "报销单要在多少天内提交？")
    ids = svc.kb.collections["hanglu-logistics"]
    assert res["answer"].citations and all(c["passage_id"] in ids for c in res["answer"].citations)


def test_deleting_a_sections_only_sentence_removes_the_section(svc: LearningService) -> None:
    doc = svc.generate("Write a learning guide about Maple Grove paid time off")
    lone = next(s for s in doc["sections"] if len(s["citations"]) == 1)
    sentence = lone["citations"][0]["quote"]
    res = _comment(svc, doc, sentence, "Please remove this sentence")
    assert res["changed"] and res["comment"]["status"] == "applied"
    assert lone["id"] not in {s["id"] for s in res["document"]["sections"]}
    assert sorted(lines_of(res["document"])) == sorted(x for x in lines_of(doc) if x != sentence)
    assert res["message"].startswith("For the comment"), "an English comment gets an English summary"


def test_an_english_request_word_is_never_searched_as_the_topic(svc: LearningService) -> None:
    doc = svc.generate("Maple Grove on-call pay")
    sentence = "Receptionists and kennel assistants are not on the on-call rota."
    res = _comment(svc, doc, sentence, "Why is that? Please explain")
    assert not res["changed"] and res["comment"]["status"] == "declined"
    assert res["message"].startswith("Not changed: the sources do not give") and "“explain”" not in res["message"]


def test_a_scope_comment_gets_the_rule_that_says_where_it_applies(svc: LearningService) -> None:
    doc = svc.generate("帮我写一份瀚陆物流费用审批权限的学习资料")
    res = _comment(svc, doc, "2000元以上至1万元", "燃油费也按这个表审批吗？")
    assert res["need"] == "scope"
    shown = res["message"] + "\n".join(lines_of(res["document"]))
    assert "燃油费" in shown and "不适用本表" in shown


def test_the_eval_judges_each_kind() -> None:
    before = {"sections": [{"markdown": "- 年假以1天为最小单位。[1]\n- 试用期员工不享受年假。[2]"}]}
    after = {"sections": [{"markdown": "- 年假以1天为最小单位。[1]"}]}
    delete = {"op": "delete", "selected": "试用期员工不享受年假。", "servable": True, "expect": []}
    assert judge(delete, before, {"document": after, "changed": True})["served"]
    assert not judge(delete, before, {"document": before, "changed": False})["served"]
    wrong = {"sections": [{"markdown": "- 试用期员工不享受年假。[1]"}]}  # deleted the other line
    assert judge(delete, before, {"document": wrong, "changed": True})["false_adopt"]
    simplify = {"op": "simplify", "selected": "年假以1天为最小单位。", "servable": True, "expect": []}
    shorter = {"sections": [{"markdown": "- 年假最少休1天。[1]\n- 试用期员工不享受年假。[2]"}]}
    assert judge(simplify, before, {"document": shorter, "changed": True})["served"]
    lost = {"sections": [{"markdown": "- 年假可分段。[1]\n- 试用期员工不享受年假。[2]"}]}  # the number is gone
    assert not judge(simplify, before, {"document": lost, "changed": True})["served"]
    question = {"op": "answer", "selected": "年假", "servable": True, "expect": ["分段"]}
    added = {"sections": [{"markdown": before["sections"][0]["markdown"] + "\n- 年假可分段使用。[3]"}]}
    assert judge(question, before, {"document": added, "changed": True})["served"]
    none = {"op": "why", "selected": "年假", "servable": False, "expect": []}
    assert judge(none, before, {"document": before, "changed": False, "message": "未能采纳：知识库中没有…"})["served"]
    assert not judge(none, before, {"document": before, "changed": False, "message": "文档中已有：「…」"})["served"]


def test_a_document_is_written_from_the_chosen_collections_only(svc: LearningService, kb: KnowledgeBase) -> None:
    """A thread that chose a knowledge base learns from it: "sick leave" exists in both organisations and the demo."""
    for org, topic in (("hanglu-logistics", "病假"), ("maplegrove-vet", "sick leave")):
        doc = svc.generate(topic, collections=(org,), user_id=org)
        cited = [c["passage_id"] for s in doc["sections"] for c in s["citations"]]
        assert doc["status"] == "ready" and cited and all(pid in kb.collections[org] for pid in cited)
    other = svc.generate("sick leave", collections=("hanglu-logistics",), user_id="x")  # Maple Grove's is not chosen
    assert all(c["passage_id"] in kb.collections["hanglu-logistics"] for s in other["sections"] for c in s["citations"])


def test_a_threads_other_collections_never_answer_into_a_document(svc: LearningService, kb: KnowledgeBase) -> None:
    """The chat comment path passes the thread's collections; a document written from 瀚陆's files is still
    answered from 瀚陆's (the demo company's annual-leave rule never lands in its travel section)."""
    doc = svc.generate("瀚陆物流差旅住宿标准")
    sid = next(s["id"] for s in doc["sections"] if "出差结束后30天内" in s["markdown"])
    res = asyncio.run(comment_on(svc, doc["id"], selected_text="出差结束后30天内", comment="新员工年假有几天？",
                                 kdeps=KnowledgeDeps(kb, kb.settings, collections=("demo",)), section_id=sid))
    ids = kb.collections["hanglu-logistics"]
    assert all(c["passage_id"] in ids for c in res["answer"].citations)
    assert all(c["passage_id"] in ids for s in res["document"]["sections"] for c in s["citations"])


def test_a_name_given_for_later_use_is_an_aside_a_shorter_wording_drops() -> None:
    from knowzero.learning.concise import shorter_wording

    assert shorter_wording("本制度适用于青岚海洋科技有限公司（以下简称“公司”）的全体正式员工。") == "本制度适用于青岚海洋科技有限公司全体正式员工。"  # and 的 between two nouns
    # a condition in brackets stays (only the 的 between two nouns goes)
    assert shorter_wording("员工的年假天数按累计工作年限（含在其他单位的工作时间）确定。") == \
        "员工年假天数按累计工作年限（含在其他单位的工作时间）确定。"


def test_a_table_row_written_in_as_an_answer_reads_under_its_header(svc: LearningService) -> None:
    doc = svc.generate("瀚陆物流差旅住宿标准")
    res = _comment(svc, doc, "出差结束后30天内", "司龄6年的员工有几天年假？")
    assert res["changed"], res["message"]  # the leave table's row answers; the travel document lacks it
    added = [line for line in lines_of(res["document"]) if line not in lines_of(doc)]
    assert added and not any(line.startswith("|") for line in added)
    for s in res["document"]["sections"]:
        for c in s["citations"]:
            assert svc.kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"] and c.get("wording", "source") == "source"


def test_a_topic_naming_its_organisation_is_planned_in_that_collection(svc: LearningService, kb: KnowledgeBase) -> None:
    from knowzero.learning.compose import owner_of

    assert owner_of(kb, "Maple Grove purchase approval") == (("maplegrove-vet",), "purchase approval")
    assert owner_of(kb, "purchase approval") == ((), "purchase approval")
    # the matrix never writes "Maple Grove": before, the handbook outranked it by name and the topic was "insufficient"
    doc = svc.generate("Write a learning guide about Maple Grove purchase approval")
    assert doc["status"] == "ready"
    assert table_covered(doc, [["Up to $500", "Department lead"], ["More than $5,000 up to $25,000", "Medical Director"],
                               ["More than $25,000", "Medical Director and the Owner"]]), "the whole table, kept"
    assert {c["title"] for s in doc["sections"] for c in s["citations"]} <= {"Purchase Approval Matrix"}


def test_what_about_a_group_is_answered_by_the_groups_own_line(svc: LearningService) -> None:
    doc = svc.generate("Write a learning guide about Maple Grove continuing education")
    res = _comment(svc, doc, "Full-time employees are eligible after 3 months of continuous service.",
                   "What about part-time employees?")
    assert res["need"] == "scope" and not res["changed"]
    assert res["message"].startswith("Already in the document") and "at least 24 hours per week" in res["message"]


def test_a_selected_sentence_said_more_briefly_in_place(svc: LearningService) -> None:
    doc = svc.generate("Write a learning guide about Maple Grove on-call and overtime")
    sentence = next(line for line in lines_of(doc) if line.startswith("Hourly employees are paid 1.5 times"))
    res = _comment(svc, doc, sentence, "Make this shorter")
    assert res["need"] == "shorten" and res["changed"]
    new = lines_of(res["document"])
    assert sentence not in new and any(line.endswith("and 2 times on a paid holiday.") for line in new)
    nothing = _comment(svc, doc, "The stipend is paid for being available, whether or not the employee is called in.",
                       "Too wordy, tighten this")
    assert not nothing["changed"], nothing["message"]
    assert nothing["message"].startswith("Not applied")  # the reply in the comment's language
