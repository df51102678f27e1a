# ruff: noqa: F811  (pytest fixtures imported from test_learning_kb are redefined as arguments)
"""Learning paths: prerequisites first, time estimates, learned topics marked, honest refusal."""

from __future__ import annotations

from test_learning_kb import kb, svc  # noqa: F401  (fixtures)

from knowzero.learning.planner import estimate_minutes, make_plan, order_steps
from knowzero.learning.service import LearningService


def test_order_steps_respects_dependencies_and_breaks_cycles() -> None:
    deps = {"c": {"b"}, "b": {"a"}, "a": set()}
    assert order_steps(["c", "b", "a"], deps, {"c": 3.0, "b": 2.0, "a": 1.0}) == ["a", "b", "c"]
    cyc = {"x": {"y"}, "y": {"x"}, "z": set()}
    out = order_steps(["x", "y", "z"], cyc, {"x": 1.0, "y": 2.0, "z": 0.5}, specific={"z"})
    assert out[-1] == "z" and set(out) == {"x", "y", "z"}


def test_estimates_are_rounded_to_five_minutes() -> None:
    assert estimate_minutes(0) == 5
    assert estimate_minutes(3000) == 15
    assert estimate_minutes(10**7) == 90


def test_plan_puts_the_referenced_document_first(kb) -> None:  # noqa: F811
    p = make_plan(kb, "系统地学习主轴", learned=[])
    assert p["sufficient"]
    topics = [s["topic"] for s in p["steps"]]
    assert topics.index("主轴保养") < topics.index("主轴故障排查")
    trouble = next(s for s in p["steps"] if s["topic"] == "主轴故障排查")
    assert "主轴保养" in trouble["prerequisites"] and "主轴保养" in trouble["reason"]
    assert p["total_minutes"] == sum(s["estimated_minutes"] for s in p["steps"])


def test_plan_marks_learned_topics_and_updates_as_the_user_reads(svc: LearningService) -> None:  # noqa: F811
    p = svc.plan("系统地学习主轴", user_id="u1")
    assert p["id"] and not any(s["learned"] for s in p["steps"])
    doc = svc.generate("主轴保养", user_id="u1")
    svc.mark_read(doc["id"], "u1")
    again = svc.get_path(p["id"], "u1")
    step = next(s for s in again["steps"] if s["topic"] == "主轴保养")
    assert step["learned"] is True and step["document_id"] == doc["id"]


def test_plan_without_knowledge_offers_closest_topics(kb) -> None:  # noqa: F811
    p = make_plan(kb, "系统地学习量子计算")
    assert not p["sufficient"] and not p["steps"] and p["closest_topics"]
