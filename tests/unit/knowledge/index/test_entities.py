"""Entity extraction and the filter that keeps part A's question away from part B's page."""

from __future__ import annotations

import pytest

from knowzero.knowledge.index import entities as ent


@pytest.mark.parametrize(("text", "expected"), [
    ("零件A的公差是多少？", {"零件a"}),
    ("XH-1001 和 XH-1002 有什么区别", {"xh-1001", "xh-1002"}),
    ("What is the tolerance of Part A?", {"零件a"}),
    ("产品B2 的价格", {"产品b2"}),
    ("零件Ａ（全角）", {"零件a"}),  # NFKC: full-width letters
    ("公司的请假制度", set()),
    ("通过 ISO9001 认证，粗糙度 Ra08", set()),  # standards and units are not parts
])
def test_extract(text: str, expected: set[str]) -> None:
    assert ent.extract(text) == expected


def test_titles_naming_two_entities_make_them_aliases() -> None:
    aliases = ent.alias_groups(["零件A-XH-1001 工艺说明", "零件B（XH-1002）工艺说明", "请假制度"])
    assert aliases["零件a"] == frozenset({"零件a", "xh-1001"})
    assert aliases["xh-1001"] == aliases["零件a"]
    assert aliases["xh-1002"] == frozenset({"零件b", "xh-1002"})
    assert "请假制度" not in aliases
    # an alias group never leaks into another part's group
    assert "xh-1002" not in aliases["零件a"]


def test_alias_groups_merge_transitively() -> None:
    aliases = ent.alias_groups(["零件A XH-1001", "XH-1001 型号P7"])
    assert aliases["零件a"] == aliases["型号p7"] == frozenset({"零件a", "xh-1001", "型号p7"})


def test_expand_adds_aliases() -> None:
    aliases = ent.alias_groups(["零件A-XH-1001 工艺说明"])
    assert ent.expand({"xh-1001"}, aliases) == {"xh-1001", "零件a"}
    assert ent.expand({"零件z"}, aliases) == {"零件z"}


def test_part_a_question_drops_part_b_passage_keeps_a_and_general() -> None:
    aliases = ent.alias_groups(["零件A-XH-1001 工艺说明", "零件B-XH-1002 工艺说明"])
    q = ent.expand(ent.extract("零件A的公差是多少？"), aliases)
    page_a = ent.expand(ent.extract("零件A-XH-1001 工艺说明"), aliases)
    page_b = ent.expand(ent.extract("零件B-XH-1002 工艺说明"), aliases)
    assert ent.keep_passage(q, page_a)
    assert not ent.keep_passage(q, page_b)
    assert ent.keep_passage(q, set())  # a general policy stays
    # asking by part number reaches the page titled by the part's name, via the alias
    q_num = ent.expand(ent.extract("XH-1001 的公差"), aliases)
    assert ent.keep_passage(q_num, page_a) and not ent.keep_passage(q_num, page_b)


def test_question_without_entities_keeps_everything() -> None:
    assert ent.keep_passage(set(), {"零件b"})


def test_question_naming_both_parts_keeps_both() -> None:
    q = ent.extract("零件A和零件B的公差有何不同")
    assert ent.keep_passage(q, {"零件a"}) and ent.keep_passage(q, {"零件b"})
