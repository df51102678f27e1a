"""Issue 27, deliver 5: the current edition of a policy answers; the edition it replaces is named as
superseded, never shown as a disagreement between documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from knowzero.knowledge.index.versions import DocInfo, names_edition, superseded
from kz_testlib import answer_dict, make_kb

OLD = """# 安全管理规定（2024版）

生效日期：2024年1月1日

驾驶员连续驾驶不得超过4小时，每次休息不少于20分钟。
"""
NEW = """# 安全管理规定（2026版）

本规定自2026年1月1日起施行，《安全管理规定（2024版）》同时废止。

驾驶员连续驾驶不得超过3.5小时，每次休息不少于30分钟。
"""


def test_an_edition_is_superseded_by_a_later_one_of_the_same_title() -> None:
    docs = [DocInfo("a/p2024.md", "a", "运输规定（2024版）", ""), DocInfo("a/p2026.md", "a", "运输规定（2026版）", ""),
            DocInfo("a/p2025.md", "a", "运输规定（2025版）", "")]
    assert superseded(docs) == {"a/p2024.md": "a/p2026.md", "a/p2025.md": "a/p2026.md"}


def test_a_document_that_repeals_another_by_name_supersedes_it() -> None:
    docs = [DocInfo("x/old.md", "x", "Travel Rules", "Effective: 2023-01-01"),
            DocInfo("x/new.md", "x", "Travel and Expense Policy",
                    "This policy takes effect on March 1, 2026 and supersedes the Travel Rules, which are withdrawn.")]
    assert superseded(docs) == {"x/old.md": "x/new.md"}


@pytest.mark.parametrize("docs", [
    [DocInfo("a/p.md", "a", "运输规定（2024版）", ""), DocInfo("b/p.md", "b", "运输规定（2026版）", "")],  # two organisations
    [DocInfo("a/p.md", "a", "运输规定（2024版）", ""), DocInfo("a/q.md", "a", "请假制度（2026版）", "")],  # two policies
    [DocInfo("a/p.md", "a", "运输规定", ""), DocInfo("a/q.md", "a", "运输规定", "")],  # no edition to order them by
    [DocInfo("w/a.md", "w", "FIFA World Cup 2014", ""), DocInfo("w/b.md", "w", "FIFA World Cup 2018", "")],  # no edition
    [DocInfo("w/a.md", "w", "中国", ""), DocInfo("w/b.md", "w", "法律", "《中华人民共和国中国法》同时废止")],  # a short title
])
def test_nothing_is_superseded_without_evidence(docs: list[DocInfo]) -> None:
    assert superseded(docs) == {}


def test_an_edition_asked_for_by_name() -> None:
    assert names_edition("2024版规定中连续驾驶最长多久？", "安全管理规定（2024版）")
    assert not names_edition("连续驾驶最长多久？", "安全管理规定（2024版）")


async def test_the_current_edition_answers_alone_and_names_the_old_one(tmp_path: Path) -> None:
    kb = make_kb(tmp_path / "kz", {"safety/安全管理规定（2024版）.md": OLD, "safety/安全管理规定（2026版）.md": NEW})
    out = await answer_dict("驾驶员连续驾驶不得超过多久？", kb)
    assert "3.5小时" in out["reply"] and "4小时" not in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed"
    assert "已被取代" in out["reply"] and "2024版" in out["reply"]
    assert all("2026" in c["source"] for c in out["citations"])
    old = await answer_dict("2024版规定中驾驶员连续驾驶不得超过多久？", kb)
    assert "4小时" in old["reply"]  # the old edition, asked for by name, still answers


def test_a_term_only_another_collection_names_a_topic_with_is_a_near_miss(tmp_path: Path) -> None:
    """The team's documents have no 婚假 rule, another organisation's do: asked within the team's collection,
    whatever neighbouring fact was found is not the answer (insufficient); a word of the team's own documents,
    or a common word that names no topic elsewhere (每天), changes nothing."""
    from knowzero.knowledge.answer import policy
    from knowzero.knowledge.answer.check import asked_elsewhere
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.kb import DEMO_COLLECTION

    kb = make_kb(tmp_path / "kz")
    team = tmp_path / "team"
    (team / "hr").mkdir(parents=True)
    (team / "hr" / "休假.md").write_text("# 休假管理制度\n\n## 年假\n\n员工每年享有年假7天，须提前5天申请。\n", encoding="utf-8")
    other = tmp_path / "other"
    (other / "hr").mkdir(parents=True)
    (other / "hr" / "请假.md").write_text("# 请假制度\n\n## 婚假\n\n员工结婚可享受婚假13天，每天按全薪计。\n", encoding="utf-8")
    kb.ingest_paths([team], collection="team")
    kb.ingest_paths([other], collection=DEMO_COLLECTION)
    assert kb.terms_missing_from(["婚假", "年假", "每天"], ["team"]) == ["婚假"]
    found = policy.Verdict("confirmed", "quoted", [], 0.9, False)
    deps = KnowledgeDeps(kb, kb.settings, None, ("team",))
    assert asked_elsewhere(found, "员工的婚假有几天？", deps).level == "insufficient"
    assert asked_elsewhere(found, "员工的年假有几天？", deps).level == "confirmed"
    everything = KnowledgeDeps(kb, kb.settings, None, ("team", DEMO_COLLECTION))
    assert asked_elsewhere(found, "员工的婚假有几天？", everything).level == "confirmed"  # nothing searched lacks it


def test_a_policy_that_names_the_edition_it_replaces_in_its_last_lines_supersedes_it() -> None:
    """Session 40: "7. Effective date … replaces the Object Loans Policy 2023, which is withdrawn" closes the
    document (past its first lines), and the titles end in a bare year."""
    docs = [DocInfo("m/old.pdf", "m", "Trust — Object Loans Policy 2023", "Version 2023 · Effective 1 March 2023"),
            DocInfo("m/new.pdf", "m", "Trust — Object Loans Policy 2026", "1. Who may borrow …",
                    "7. Effective date This policy applies from 1 January 2026 and replaces the Object Loans Policy "
                    "2023, which is withdrawn.")]
    assert superseded(docs) == {"m/old.pdf": "m/new.pdf"}


def test_a_title_ending_in_a_year_is_an_edition_only_for_a_document_with_an_effective_date() -> None:
    policies = [DocInfo("v/a.docx", "v", "Vets — Pet Health Plan Terms 2024", "Version 2024 · Effective 1 February 2024"),
                DocInfo("v/b.docx", "v", "Vets — Pet Health Plan Terms 2026", "Version 2026 · Effective 1 January 2026")]
    assert superseded(policies) == {"v/a.docx": "v/b.docx"}
    news = [DocInfo("n/a.md", "n", "World Cup 2014", "The final was played in Rio."),
            DocInfo("n/b.md", "n", "World Cup 2018", "The final was played in Moscow.")]
    assert superseded(news) == {}
