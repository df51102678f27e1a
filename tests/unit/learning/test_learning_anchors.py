# ruff: noqa: F811  (pytest fixtures imported from test_learning_kb are redefined as arguments)
"""Comment anchors are content fingerprints: they follow their text through edits or are orphaned."""

from __future__ import annotations

from test_learning_kb import kb, svc  # noqa: F401  (fixtures)

from knowzero.learning import store
from knowzero.learning.anchors import make_anchor, reanchor, span_text
from knowzero.learning.service import LearningService

S1 = "- 检查导轨润滑油油位，油位应在油窗上下刻度线之间。[1]\n- 检查气源压力，压力表读数应在0.5MPa至0.7MPa之间。[2]"
S2 = "- 清洗切削液过滤网和排屑器。[3]\n- 检查主轴皮带的张紧度和磨损情况。[4]"


def test_exact_reanchor_after_text_inserted_before() -> None:
    a = make_anchor({"a": S1, "b": S2}, "压力表读数应在0.5MPa", "a")
    assert a.status == "anchored"
    new = {"a": "- 新增的一条说明，放在最前面。[9]\n" + S1, "b": S2}
    r = reanchor(a, new)
    assert r.status == "anchored" and span_text(r, new) == "压力表读数应在0.5MPa"
    assert r.start == a.start + len("- 新增的一条说明，放在最前面。[9]\n")


def test_repeated_text_is_told_apart_by_context() -> None:
    text = "- 班前：检查气源压力。[1]\n- 班后：检查气源压力。[2]"
    a = make_anchor({"a": text}, "检查气源压力", "a", position=text.rfind("检查气源压力"))
    edited = "- 开机前：检查气源压力。[7]\n" + text
    r = reanchor(a, {"a": edited})
    assert r.status == "anchored"
    line = edited[: r.start].rsplit("\n", 1)[-1]
    assert line.startswith("- 班后")


def test_small_edit_inside_the_selection_reanchors_fuzzily() -> None:
    a = make_anchor({"a": S1}, "油位应在油窗上下刻度线之间", "a")
    edited = S1.replace("油窗上下刻度线", "油窗上下刻度")
    r = reanchor(a, {"a": edited})
    assert r.status == "fuzzy"
    assert "油位应在油窗上下刻度" in span_text(r, {"a": edited})


def test_deleted_text_is_orphaned_not_moved_to_a_similar_sentence() -> None:
    text = "- 检查主轴皮带的张紧度和磨损情况。[1]\n- 检查刀库皮带的张紧度。[2]"
    a = make_anchor({"a": text}, "检查主轴皮带的张紧度和磨损情况", "a")
    edited = "- 检查刀库皮带的张紧度。[2]\n- 检查主轴电机的温升和磨损情况。[3]"
    r = reanchor(a, {"a": edited})
    assert r.status == "orphaned" and r.start is None


def test_text_moved_to_another_section_follows() -> None:
    a = make_anchor({"a": S1, "b": S2}, "检查主轴皮带的张紧度", "b")
    new = {"a": S1 + "\n- 检查主轴皮带的张紧度和磨损情况。[4]", "b": "- 清洗切削液过滤网和排屑器。[3]"}
    r = reanchor(a, new)
    assert r.status == "moved" and r.section_id == "a" and span_text(r, new) == "检查主轴皮带的张紧度"


def test_comments_survive_several_versions_and_orphan_when_deleted(svc: LearningService) -> None:
    doc = svc.generate("主轴保养")
    secs = {s["id"]: s for s in doc["sections"]}
    detail = next(s for s in doc["sections"] if s["kind"] == "detail")
    pit = next(s for s in doc["sections"] if s["kind"] == "pitfall")
    q1 = detail["citations"][0]["quote"][:10]
    q2 = pit["citations"][0]["quote"][:8]
    c1 = store.add_comment(svc.engine, doc["id"], selected_text=q1, comment="记一下", section_id=detail["id"])
    c2 = store.add_comment(svc.engine, doc["id"], selected_text=q2, comment="重要", section_id=pit["id"])
    assert c1["anchor"]["status"] == c2["anchor"]["status"] == "anchored"

    def edit(d, sid, fn):  # type: ignore[no-untyped-def]
        sections = [{**s, "markdown": fn(s["markdown"])} if s["id"] == sid else s for s in d["sections"]]
        return store.save_version(svc.engine, d["id"], sections, change_summary="用户编辑", author="user")

    def anchor_of(cid):  # type: ignore[no-untyped-def]
        return store.get_comment(svc.engine, cid)["anchor"]

    # 1. a comment-driven rewrite of the detail section (new version 2)
    res = svc.improve_from_comment(doc["id"], selected_text=q1, comment="这里太抽象了", section_id=detail["id"])
    d = res["document"]
    assert d["version"] == 2
    for cid, q in ((c1["id"], q1), (c2["id"], q2)):
        a = anchor_of(cid)
        text = next(s["markdown"] for s in d["sections"] if s["id"] == a["section_id"])
        assert a["status"] == "anchored" and text[a["start"]:a["end"]] == q
    # 2. text inserted above the pitfall comment (version 3)
    d = edit(d, pit["id"], lambda md: "- 补充：先阅读安全须知。\n" + md)
    a = anchor_of(c2["id"])
    text = next(s["markdown"] for s in d["sections"] if s["id"] == pit["id"])
    assert a["status"] == "anchored" and text[a["start"]:a["end"]] == q2
    # 3. the pitfall sentence is deleted (version 4): orphaned, and stays orphaned (version 5)
    d = edit(d, pit["id"], lambda md: "\n".join(x for x in md.split("\n") if q2 not in x))
    assert anchor_of(c2["id"])["status"] == "orphaned"
    d = edit(d, pit["id"], lambda md: md + "\n- 另一条注意事项。")
    assert anchor_of(c2["id"])["status"] == "orphaned"
    a1 = anchor_of(c1["id"])
    text = next(s["markdown"] for s in d["sections"] if s["id"] == a1["section_id"])
    assert text[a1["start"]:a1["end"]] == q1
    assert [v["version"] for v in store.list_versions(svc.engine, doc["id"])] == [1, 2, 3, 4, 5]
    assert secs  # sections kept their ids through every version
    assert {s["id"] for s in d["sections"]} == set(secs)
