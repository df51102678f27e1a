"""End to end with the real bundled models on the demo knowledge base (ingested once per session
into a temporary data directory; the shipped vectors make it fast)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from knowzero.graph.builder import build_knowledge_graph
from knowzero.graph.context import Deps
from knowzero.graph.state import wire_values
from knowzero.input import AgentInput
from knowzero.knowledge.kb import demo_kb_path
from knowzero.service.store import SqlStore
from kz_testlib import DATA, copy_data_dir, make_kb

pytestmark = pytest.mark.slow

PART_A = "demo_kb/technical/零件A-XH-1001工艺说明.md"
PART_B = "demo_kb/technical/零件B-XH-1002工艺说明.md"
CONTACTS = "demo_kb/general/办公室联系方式.md"
PARTY = "demo_kb/general/2025年度年会总结.md"


@pytest.fixture(scope="module")
def demo_kb(demo_data_dir: Path):  # type: ignore[no-untyped-def]
    return make_kb(demo_data_dir)


async def ask(kb: Any, question: str) -> dict[str, Any]:
    return wire_values(await build_knowledge_graph().compile().ainvoke(
        {"question": question, "input": AgentInput(source="chat", message=question)},
        context=Deps(settings=kb.settings, kb=kb, store=SqlStore(kb.engine))))


def cites_resolve(kb: Any, out: dict[str, Any]) -> None:
    for c in out["citations"]:
        assert kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]


async def test_part_a_tolerance_from_part_a_not_part_b(demo_kb: Any) -> None:
    out = await ask(demo_kb, "零件A的公差是多少？")
    assert out["verdict"]["level"] == "confirmed"
    assert "±0.01mm" in out["reply"]
    sources = {c["source"] for c in out["citations"]}
    assert sources == {PART_A}, sources
    assert PART_B not in {p["source"] for p in out["passages"]}
    assert "±0.01mm" in out["citations"][0]["quote"]
    cites_resolve(demo_kb, out)


async def test_part_b_tolerance_from_part_b(demo_kb: Any) -> None:
    out = await ask(demo_kb, "零件B的公差是多少？")
    assert {c["source"] for c in out["citations"]} == {PART_B}
    assert any("±0.05mm" in c["quote"] for c in out["citations"])
    assert "±0.01mm" not in out["reply"]
    cites_resolve(demo_kb, out)


async def test_shanghai_office_contacts_cite_the_contacts_document(demo_kb: Any) -> None:
    out = await ask(demo_kb, "上海办事处的联系方式")
    assert out["verdict"]["level"] in ("confirmed", "uncertain")
    assert out["citations"] and out["citations"][0]["source"] == CONTACTS
    assert PARTY not in {c["source"] for c in out["citations"]}
    assert "021-5083-7726" in out["reply"]  # the contact card itself, not a sentence about the office
    assert "上海" in out["citations"][0]["quote"] or "上海" in demo_kb.file_texts[CONTACTS][
        max(0, out["citations"][0]["start"] - 200):out["citations"][0]["start"]]
    cites_resolve(demo_kb, out)


async def test_quantity_band_price_comes_from_the_price_list(demo_kb: Any) -> None:
    out = await ask(demo_kb, "订购500件XH-1001时的单价是多少？")
    assert out["citations"][0]["source"] == "demo_kb/product/price_list.csv"
    assert "61.2" in out["citations"][0]["quote"]
    cites_resolve(demo_kb, out)


@pytest.mark.parametrize("question", ["公司的股票代码是多少？", "量子计算机的退相干时间是多少？"])
async def test_unanswerable_is_insufficient(demo_kb: Any, question: str) -> None:
    out = await ask(demo_kb, question)
    assert out["verdict"]["level"] == "insufficient", out["reply"]
    assert out["citations"] == []
    assert "没有足够的信息" in out["reply"]


def test_reingesting_is_a_no_op(demo_kb: Any) -> None:
    files_before = {f["path"] for f in demo_kb.list_files()}
    revision = demo_kb.revision
    report = demo_kb.ingest_paths([demo_kb_path()], collection="demo")
    assert report.added == [] and report.updated == [] and report.removed == [] and report.failed == []
    assert sorted(report.unchanged) == sorted(files_before)
    assert report.embedded == 0 and report.chunks == 0
    assert demo_kb.revision == revision
    assert not report.changed


def test_corrupt_file_is_reported_and_skipped_nothing_lost(demo_data_dir: Path, tmp_path: Path) -> None:
    kb = make_kb(copy_data_dir(demo_data_dir, tmp_path / "kz"))
    before = {p.path for p in kb.passages.values()}
    assert before
    folder = tmp_path / "incoming"
    folder.mkdir()
    (folder / "broken.pdf").write_bytes((DATA / "corrupt.pdf").read_bytes())
    (folder / "empty.txt").write_bytes(b"")
    (folder / "停车场管理规定.md").write_text("# 停车场管理规定\n\n员工车辆须停放在B2层，访客车位在B1层。\n", encoding="utf-8")
    report = kb.ingest_paths([folder], collection="incoming")
    failed = {f["path"]: f["error"] for f in report.failed}
    assert set(failed) == {"incoming/broken.pdf", "incoming/empty.txt"}
    assert "broken.pdf" in failed["incoming/broken.pdf"] and "PDF" in failed["incoming/broken.pdf"]
    assert "empty" in failed["incoming/empty.txt"]
    assert report.added == ["incoming/停车场管理规定.md"]
    after = {p.path for p in kb.passages.values()}
    assert before <= after, "nothing already indexed is lost"
    assert "incoming/停车场管理规定.md" in after
    assert not any(p.startswith("incoming/broken") for p in after)


def test_changed_and_deleted_files_are_incremental(tmp_path: Path) -> None:
    src = tmp_path / "docs"
    src.mkdir()
    (src / "a.md").write_text("# A\n\n零件A的公差为±0.01mm。\n", encoding="utf-8")
    (src / "b.md").write_text("# B\n\n年假5天。\n", encoding="utf-8")
    kb = make_kb(tmp_path / "kz")
    assert sorted(kb.ingest_paths([src]).added) == ["docs/a.md", "docs/b.md"]
    (src / "a.md").write_text("# A\n\n零件A的公差为±0.02mm。\n", encoding="utf-8")
    (src / "b.md").unlink()
    r = kb.ingest_paths([src])
    assert r.updated == ["docs/a.md"] and r.removed == ["docs/b.md"] and r.added == []
    texts = " ".join(p.text for p in kb.passages.values())
    assert "±0.02mm" in texts and "±0.01mm" not in texts and "年假" not in texts


def test_cli_ask_json(demo_data_dir: Path, tmp_path: Path) -> None:
    data_dir = copy_data_dir(demo_data_dir, tmp_path / "kz")
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWZERO_")}
    env |= {"KNOWZERO_DATA_DIR": str(data_dir), "KNOWZERO_ENV": "test"}
    proc = subprocess.run([sys.executable, "-m", "knowzero.cli", "ask", "--json", "零件A的公差是多少？"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=240)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stdout
    out = json.loads(lines[0])
    assert {"answer", "verdict", "needs_human_review", "citations", "domain", "elapsed_ms", "agent_log"} <= set(out)
    assert out["verdict"] == "confirmed" and out["needs_human_review"] is False and out["domain"] == "technical"
    assert "±0.01mm" in out["answer"]
    assert out["citations"] and all({"source", "quote", "start", "end"} <= set(c) for c in out["citations"])
    assert {c["source"] for c in out["citations"]} == {PART_A}
    assert isinstance(out["elapsed_ms"], (int, float)) and out["elapsed_ms"] > 0
    assert [e["agent"] for e in out["agent_log"]] == ["router", "retriever", "reader", "fact_checker"]
    assert not (tmp_path / ".knowzero").exists()


def test_cli_errors_are_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KNOWZERO_")} | {"KNOWZERO_DATA_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "knowzero.cli", "ask", "  "], capture_output=True, text=True,
                          env=env, timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: the question is empty"


BENEFITS = "demo_kb/hr/员工福利.md"


@pytest.mark.parametrize(("question", "source", "said", "asked"), [
    ("补充商业医疗保险每人每年报销上限是10万元吗？", BENEFITS, "5万元", "10万元"),
    ("零件B的公差是±0.01mm吗？", PART_B, "±0.05mm", "±0.01mm"),
])
async def test_yes_no_question_with_a_wrong_premise_gets_a_cited_no(demo_kb: Any, question: str, source: str,
                                                                     said: str, asked: str) -> None:
    """Found by a reviewer: these came back ``confirmed`` with the source's other value and no "no". Now a
    confirmed "no" (issue 27: the document answers the question; it does not contradict itself)."""
    out = await ask(demo_kb, question)
    assert out["verdict"]["level"] == "confirmed", out["verdict"]
    assert "premise" in out["verdict"]["warnings"]
    assert out["reply"].startswith("不是。") and said in out["reply"] and asked in out["reply"]
    assert any(c["source"] == source and said in c["quote"] for c in out["citations"])
    cites_resolve(demo_kb, out)


@pytest.mark.parametrize(("question", "said"), [
    ("补充商业医疗保险每人每年报销上限是5万元吗？", "5万元"),
    ("零件B的公差是±0.05mm吗？", "±0.05mm"),
])
async def test_yes_no_question_the_source_affirms_gets_a_cited_yes(demo_kb: Any, question: str, said: str) -> None:
    out = await ask(demo_kb, question)
    assert out["verdict"]["level"] == "confirmed", out["verdict"]
    assert out["reply"].startswith("是的。") and said in out["reply"]
    cites_resolve(demo_kb, out)


async def test_yes_no_question_the_source_negates_gets_a_no(demo_kb: Any) -> None:
    out = await ask(demo_kb, "零件B需要热处理吗？")  # the source: "零件B无需热处理"
    assert out["verdict"]["level"] == "confirmed" and out["reply"].startswith("不需要。")  # a confirmed "no", in the question's own modal
    assert "无需热处理" in out["reply"]


@pytest.mark.parametrize("question", ["员工宠物医疗保险的报销比例是多少？", "员工宠物医疗保险怎么报销？"])
async def test_a_near_miss_about_something_the_kb_never_mentions_is_not_confirmed(demo_kb: Any, question: str) -> None:
    """Issue 14's demo example: the medical-insurance page shares 医疗保险/报销 but says nothing of pets."""
    out = await ask(demo_kb, question)
    assert out["verdict"]["level"] in ("uncertain", "insufficient"), out["verdict"]


async def test_a_yes_about_general_parts_is_not_a_yes_for_part_a(demo_kb: Any) -> None:
    """Self-review: "是的" from "一般零件：使用…通用量具进行全尺寸检验" while part A must go to the CMM."""
    out = await ask(demo_kb, "零件A能不能用通用量具全尺寸检验？")
    assert not out["reply"].startswith("是的"), out["reply"]
