"""The learning benchmark's comment set and judge (runs without ../shared/eval-data)."""

from __future__ import annotations

from pathlib import Path

from knowzero.config import Settings
from knowzero.eval.learning import judge_serves, load_comment_set, run_comments
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine


def test_comment_set_is_large_split_and_labelled() -> None:
    items = load_comment_set()
    assert len(items) >= 60
    assert {i["split"] for i in items} == {"tune", "heldout"}
    assert {i["corpus"] for i in items} == {"demo", "cmrc", "drcd"}
    kinds = {i["type"] for i in items}
    assert {"explain", "why", "how", "example", "simplify", "expand", "correct", "shorten"} <= kinds
    assert sum(not i["servable"] for i in items) >= 15
    assert all(i["term"] and i["comment"] for i in items)


def test_judge_wants_the_term_in_the_form_of_the_request() -> None:
    item = {"term": "拉刀力", "type": "why", "expect": ""}
    assert judge_serves("拉刀力不足时容易导致掉刀。", item)
    assert not judge_serves("检查主轴皮带的张紧度，皮带松弛会导致打滑。", item)  # another term
    assert not judge_serves("检测主轴拉刀力，BT40主轴的拉刀力应为10±1kN。", item)  # a value, not a reason
    assert judge_serves("拉刀力是指拉杆拉紧刀柄的力。", {**item, "type": "explain"})
    assert judge_serves("应为12kN的拉刀力", {**item, "type": "correct", "expect": "12kN"})


def test_comments_on_the_demo_knowledge_base_are_judged(demo_data_dir: Path) -> None:
    s = Settings(data_dir=demo_data_dir)
    kb = KnowledgeBase(make_engine(s.db_url), s)
    kb.refresh()
    items = [i for i in load_comment_set() if i["corpus"] == "demo"][:6]
    out = run_comments({"demo": kb}, items)
    assert out["all"]["n"] == 6 and out["worst_split"] in ("tune", "heldout")
    assert set(out["all"]) >= {"comment_served_share", "comment_false_adopt_share"}
    first = out["_rows"][0]  # the 拉刀力 comment: nothing in the demo KB serves it
    assert first["status"] == "declined" and first["served"] and not first["false_adopt"]
