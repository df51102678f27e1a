"""Chunking: sections follow headings, offsets are exact, overlap repeats whole sentences, ids are
content hashes (stable across runs, different when the text changes)."""

from __future__ import annotations

import pytest

from knowzero.knowledge.ingest.chunker import chunk_text, content_id, sections

DOC = """前言：本规程适用于全部加工中心。

# 加工中心维护

## 每日保养

开机后执行主轴预热程序，预热时间为10分钟。检查冷却液液位。清理主轴锥孔内的铁屑。

## 每月保养

检测主轴拉刀力，应为10±1kN。检查径向跳动，应不大于0.003mm。The spindle belt must be checked monthly. Adjust the tensioner if needed.

### 注意事项

严禁用压缩空气直接吹主轴锥孔！
"""


def long_section(n: int = 40) -> str:
    return "# 长文\n\n" + "".join(f"第{i}句说明主轴保养的第{i}个要点。" for i in range(n)) + "\n"


def test_sections_follow_the_heading_tree() -> None:
    names = [name for name, _, _ in sections(DOC)]
    assert names == ["", "加工中心维护", "加工中心维护 / 每日保养", "加工中心维护 / 每月保养",
                     "加工中心维护 / 每月保养 / 注意事项"]


def test_text_without_headings_is_one_section() -> None:
    assert sections("只有一句话。") == [("", 0, 6)]


def test_a_paragraph_written_on_a_heading_line_stays_searchable() -> None:
    body = "年度卓越团队奖由上海办事处团队获得。" * 8
    doc = f"# 年会纪要\n\n## 三、表彰颁奖。### 3.1 年度卓越团队奖。{body}\n"
    chunks = chunk_text(doc, source="m.md", title="年会纪要")
    assert chunks and "上海办事处" in "".join(c.text for c in chunks)
    assert all(c.section == "年会纪要" for c in chunks)


def test_chunks_never_cross_a_heading_and_carry_their_section() -> None:
    chunks = chunk_text(DOC, source="m.md", title="维护")
    with_body = {name for name, a, b in sections(DOC) if DOC[a:b].strip()}
    assert {c.section for c in chunks} == with_body
    assert "加工中心维护" not in with_body  # a heading directly followed by a sub-heading has no chunk
    for c in chunks:
        assert "#" not in c.text  # heading lines are not part of a body
        assert c.source == "m.md" and c.title == "维护"
    pre = [c for c in chunks if c.section == ""]
    assert pre and pre[0].text.startswith("前言")


@pytest.mark.parametrize("doc", [DOC, long_section(), "# T\n\nA sentence. Another one! 0.01mm is not a break.\n" * 3])
def test_offsets_are_exact(doc: str) -> None:
    chunks = chunk_text(doc, source="x.md", title="X", max_chars=120, overlap=30)
    assert chunks
    for c in chunks:
        assert doc[c.start:c.end] == c.text
        for s in c.sentences:
            assert doc[s.start:s.end] == s.text
            assert c.start <= s.start < s.end <= c.end
    assert [c.ordinal for c in chunks] == list(range(len(chunks)))


def test_decimal_points_do_not_split_sentences() -> None:
    c = chunk_text("# T\n\n公差为±0.01mm，粗糙度Ra0.8。下一句。", source="x", title="x")[0]
    assert [s.text for s in c.sentences] == ["公差为±0.01mm，粗糙度Ra0.8。", "下一句。"]


def test_marks_inside_a_title_do_not_split_sentences() -> None:
    c = chunk_text("# T\n\n《卡拉OK.LIVE！‧台北‧我》是第六张专辑。更缔造了纪录！", source="x", title="x")[0]
    assert [s.text for s in c.sentences] == ["《卡拉OK.LIVE！‧台北‧我》是第六张专辑。", "更缔造了纪录！"]
    c = chunk_text("# T\n\n他说《好！然后。", source="x", title="x")[0]  # never closed: an ordinary mark
    assert [s.text for s in c.sentences] == ["他说《好！", "然后。"]


def test_long_sections_are_packed_with_sentence_overlap() -> None:
    doc = long_section()
    chunks = chunk_text(doc, source="x.md", title="X", max_chars=100, overlap=40)
    assert len(chunks) > 3
    for c in chunks:
        assert len(c.text) <= 100
    for a, b in zip(chunks, chunks[1:], strict=False):
        assert b.start < a.end, "consecutive chunks overlap"
        shared = doc[b.start:a.end]
        assert 0 < len(shared) <= 40
        assert shared == a.text[-len(shared):] == b.text[: len(shared)]
        assert b.sentences[0].text in [s.text for s in a.sentences], "overlap is whole sentences"
    # every sentence of the section is in some chunk
    covered = set()
    for c in chunks:
        covered.update(s.start for s in c.sentences)
    assert len(covered) == 40


def test_zero_overlap_means_disjoint_chunks() -> None:
    chunks = chunk_text(long_section(), source="x.md", title="X", max_chars=100, overlap=0)
    for a, b in zip(chunks, chunks[1:], strict=False):
        assert b.start >= a.end


def test_an_overlong_sentence_is_hard_wrapped_with_exact_offsets() -> None:
    doc = "# T\n\n" + "很" * 260 + "。"
    chunks = chunk_text(doc, source="x", title="x", max_chars=100, overlap=10)
    assert all(len(c.text) <= 100 for c in chunks)
    assert "".join(doc[c.start:c.end] for c in chunks if True).count("很") >= 260
    for c in chunks:
        assert doc[c.start:c.end] == c.text


def test_ids_are_stable_content_hashes() -> None:
    a = chunk_text(DOC, source="m.md", title="维护")
    b = chunk_text(DOC, source="m.md", title="维护")
    assert [c.id for c in a] == [c.id for c in b]
    assert len({c.id for c in a}) == len(a)
    assert all(len(c.id) == 32 and int(c.id, 16) >= 0 for c in a)
    # the id depends on the source and the text, not on object identity or position
    other_source = chunk_text(DOC, source="n.md", title="维护")
    assert not {c.id for c in a} & {c.id for c in other_source}
    edited = chunk_text(DOC.replace("10分钟", "15分钟"), source="m.md", title="维护")
    changed = {c.id for c in a} ^ {c.id for c in edited}
    assert len(changed) == 2, "only the chunk whose text changed gets a new id"
    assert content_id("a", "b") != content_id("ab", "")


@pytest.mark.parametrize("kw", [{"max_chars": 10}, {"overlap": -1}, {"max_chars": 100, "overlap": 100}])
def test_invalid_sizes_are_rejected(kw: dict[str, int]) -> None:
    with pytest.raises(ValueError):
        chunk_text(DOC, source="x", title="x", **kw)


def test_empty_text_has_no_chunks() -> None:
    assert chunk_text("", source="x", title="x") == []
    assert chunk_text("# 只有标题\n", source="x", title="x") == []
