"""Two versions of one statement with the asked value changed: named for review, even when the question is
worded so differently that the coverage gate would decline it (issue 14, item 3)."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer import check
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.pipeline import answer_sync
from kz_testlib import make_kb

DOCS = {
    "general/议会简介.md": "# 议会简介\n\n## 组成\n\n本届议会共有170个议席，议员由各选区直接选举产生，任期四年。\n\n"
                          "## 会址\n\n议会大楼位于市中心广场东侧。\n",
    "general/议会简介-2019版.md": "# 议会简介（2019年版）\n\n## 组成\n\n本届议会共有70个议席，议员由各选区直接选举产生，"
                                "任期四年。\n\n## 会址\n\n议会大楼位于市中心广场东侧。\n",
    "hr/请假制度.md": "# 请假制度\n\n## 年假\n\n员工工作满一年后每年享有5天带薪年假，年假需提前三天申请。\n",
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("versions") / "kz", DOCS)
    yield kb
    kb.engine.dispose()


def test_a_reworded_question_about_a_disputed_value_names_both_versions(kb, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    question = "这届议会的立法委员席位总数是多少？"  # covers few of the documents' words
    a = answer_sync(question, KnowledgeDeps(kb, kb.settings))
    assert a.verdict.level == "uncertain" and a.verdict.needs_human_review
    assert "170" in a.reply and "70个" in a.reply.replace("170个", "")
    assert {c["source"].rsplit("/", 1)[-1] for c in a.citations} == {"议会简介.md", "议会简介-2019版.md"}
    assert a.draft is not None and a.draft.conflicts and a.draft.conflicts[0]["same_statement"] is True
    # without the same-statement rule the coverage gate declines it: the rule is what names the disagreement
    monkeypatch.setattr(check, "same_statement", lambda conflicts: [])
    assert answer_sync(question, KnowledgeDeps(kb, kb.settings)).verdict.level == "insufficient"


@pytest.mark.parametrize("question", ["食堂几点开门？", "议会大楼在哪里？"])
def test_questions_the_disagreement_is_not_about_are_not_flagged(kb, question: str) -> None:  # type: ignore[no-untyped-def]
    a = answer_sync(question, KnowledgeDeps(kb, kb.settings))
    assert not (a.draft and a.draft.conflicts) and "说法不一" not in a.reply


def test_one_statement_needs_the_rest_of_the_sentence_unchanged() -> None:
    from knowzero.knowledge.answer.checks.conflicts import one_statement

    assert one_statement("宗王劉義慶招集文人才士所編寫的世說新語", "宗王方濟各·沙勿略招集文人才士所編寫的世說新語",
                         [["宗王劉義慶招集文人才士所編寫的世說新語"], ["宗王方濟各·沙勿略招集文人才士所編寫的世說新語"]])
    assert one_statement("甲午戰爭之後，京劇在臺灣得到扶持；甲午戰爭結束", "二戰之後，京劇在臺灣得到扶持；二戰結束",
                         [["甲午戰爭"], ["二戰"]])  # the name changed at each of its mentions
    assert not one_statement("张三身高1.80米，体重70公斤。", "李四身高1.85米，体重70公斤。", [["1.80米"], ["1.85米"]])
    assert not one_statement("议会共有170个议席。", "议会共有170个议席。", [["170个"], ["170个"]])
