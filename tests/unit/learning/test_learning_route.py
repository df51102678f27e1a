# ruff: noqa: F811  (pytest fixtures imported from test_learning_kb are redefined as arguments)
"""The learning node reaches each route decision, emits it with its reason, and streams documents."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.graph import END, START, StateGraph
from test_learning_kb import kb  # noqa: F401  (fixture)

from knowzero.config import Settings
from knowzero.graph.context import Deps
from knowzero.graph.nodes.learning import run_learning
from knowzero.graph.state import OutputState, State
from knowzero.graph.trace import traced
from knowzero.input import AgentInput
from knowzero.learning import store
from knowzero.learning.service import LearningService
from knowzero.persistence.db import make_engine


@pytest.fixture()
def run(kb, tmp_path: Path):  # type: ignore[no-untyped-def]  # noqa: F811
    settings = Settings(data_dir=tmp_path, database_url="")
    g = StateGraph(State, context_schema=Deps, input_schema=State, output_schema=OutputState)
    g.add_node("learning", traced("learning", run_learning))
    g.add_edge(START, "learning")
    g.add_edge("learning", END)
    app = g.compile()
    svc = LearningService(make_engine(settings.db_url), kb=kb, settings=settings)
    deps = Deps(settings=settings, kb=kb, provider=None, learning=svc)

    async def _run(inp: dict[str, Any], intent: str = "new_topic") -> tuple[dict[str, Any], list[dict[str, Any]]]:
        state = {"input": AgentInput.model_validate(inp), "intent": {"intent": intent},
                 "question": inp.get("message", "")}
        events: list[dict[str, Any]] = []
        out: dict[str, Any] = {}
        async for mode, chunk in app.astream(state, context=deps, stream_mode=["custom", "values"]):
            if mode == "custom":
                events.append(chunk)
            else:
                out = chunk
        return out, events

    _run.svc = svc  # type: ignore[attr-defined]
    return _run


def decision(out: dict[str, Any]) -> str:
    return next(e["action"] for e in out["agent_log"] if e.get("agent") == "learning")


def reasons(events: list[dict[str, Any]]) -> list[str]:
    return [e["data"]["text"] for e in events if e["type"] == "reasoning"]


async def test_new_document_streams_sections_then_navigate_then_merge(run) -> None:  # type: ignore[no-untyped-def]
    out, events = await run({"source": "chat", "message": "我想学习主轴保养"})
    assert decision(out) == "new_document"
    assert any(r.startswith("learning route: new_document — ") for r in reasons(events))
    docs = [e["data"] for e in events if e["type"] == "document"]
    streamed = [d for d in docs if d.get("status") == "generating" and "section" in d]
    assert len(streamed) >= 3 and docs[-1]["status"] == "ready"
    assert [d["index"] for d in streamed] == list(range(len(streamed)))
    doc = out["document"]
    assert doc["id"] and doc["title"] == "主轴保养" and doc["version"] == 1
    assert {"id", "heading", "markdown", "citations"} <= set(doc["sections"][0])
    assert 3 <= len(doc["follow_ups"]) <= 5 and doc["category_path"] and "entities" in doc
    assert "主轴保养" in out["reply"]

    out2, events2 = await run({"source": "chat", "message": "我想学习主轴保养"})
    assert decision(out2) == "navigate" and out2["document"]["id"] == doc["id"]
    assert "已存在「主轴保养」的文档，正在跳转" in out2["reply"]

    out3, events3 = await run({"source": "entry", "topic": "主轴保养规程"})
    assert decision(out3) == "merge_and_update"
    assert out3["document"]["id"] == doc["id"]
    assert any("merging" in r for r in reasons(events3))


async def test_follow_up_updates_current_or_creates_child(run) -> None:  # type: ignore[no-untyped-def]
    out, _ = await run({"source": "chat", "message": "我想学习主轴保养"})
    doc = out["document"]
    out2, ev2 = await run({"source": "follow_up", "message": "主轴保养每月要检查什么？",
                           "current_document_id": doc["id"]}, intent="follow_up")
    assert decision(out2) == "update_current"
    assert out2["document"]["id"] == doc["id"]
    assert out2["document"]["version"] == 2 or "没有更新" in out2["reply"]
    out3, _ = await run({"source": "follow_up", "message": "什么是主轴过热？", "current_document_id": doc["id"]},
                        intent="follow_up")
    assert decision(out3) == "new_document"
    assert out3["document"]["parent_id"] == doc["id"]


async def test_entity_click_creates_then_navigates(run) -> None:  # type: ignore[no-untyped-def]
    out, _ = await run({"source": "chat", "message": "我想学习主轴保养"})
    parent = out["document"]
    assert not run.svc.entity_page("主轴轴承")
    out2, ev2 = await run({"source": "entity", "entity": "主轴轴承", "source_document_id": parent["id"]},
                          intent="new_topic")
    assert decision(out2) == "new_document"
    child = out2["document"]
    assert child["parent_id"] == parent["id"] and child["category_path"].startswith(parent["category_path"] + "/")
    assert run.svc.entity_page("主轴轴承") == child["id"]
    out3, _ = await run({"source": "entity", "entity": "主轴轴承", "source_document_id": parent["id"]},
                        intent="navigate")
    assert decision(out3) == "navigate" and out3["document"]["id"] == child["id"]
    assert "已存在「主轴轴承」的文档，正在跳转" in out3["reply"]
    assert store.get_document(run.svc.engine, parent["id"])["children"][0]["id"] == child["id"]


async def test_comment_optimizes_the_section(run) -> None:  # type: ignore[no-untyped-def]
    out, _ = await run({"source": "chat", "message": "我想学习主轴保养"})
    doc = out["document"]
    sec = next(s for s in doc["sections"] if s["kind"] == "detail")
    sel = sec["citations"][0]["quote"][:10]
    out2, ev2 = await run({"source": "comment", "comment": {"selected_text": sel, "comment": "详细点",
                                                           "document_id": doc["id"], "section_id": sec["id"]}},
                          intent="optimize_content")
    assert decision(out2) == "optimize_section"
    assert out2["document"]["version"] == 2 and out2["document"]["change_summary"]
    assert any("comment need: expand" in r for r in reasons(ev2))
    out3, ev3 = await run({"source": "comment", "comment": {"selected_text": sel, "comment": "主轴温度超过多少度要停机？",
                                                           "document_id": doc["id"], "section_id": sec["id"]}},
                          intent="optimize_content")
    assert decision(out3) == "optimize_section"
    c = store.list_comments(run.svc.engine, doc["id"])[-1]
    # a question is answered by the knowledge path; the confirmed answer's cited sentence goes into the section
    assert c["need"] == "question" and c["status"] == "applied" and out3["reply"].startswith(c["reply"])
    d3 = out3["document"]
    assert d3["version"] == 3 and d3["change_summary"] and d3["change_summary"] in out3["reply"]
    added = next(s for s in d3["sections"] if s["id"] == sec["id"])
    assert len(added["citations"]) > len(next(s for s in out2["document"]["sections"] if s["id"] == sec["id"])["citations"])


async def test_plan_orders_prerequisites_first(run) -> None:  # type: ignore[no-untyped-def]
    out, ev = await run({"source": "chat", "message": "系统地学习主轴", "learned_topics": ["主轴保养"]}, intent="plan")
    assert decision(out) == "plan"
    steps = out["document"]["steps"]
    topics = [s["topic"] for s in steps]
    assert topics.index("主轴保养") < topics.index("主轴故障排查")
    assert next(s for s in steps if s["topic"] == "主轴保养")["learned"] is True
    assert all(s["estimated_minutes"] >= 5 for s in steps)


async def test_no_knowledge_turn_says_so(run) -> None:  # type: ignore[no-untyped-def]
    out, _ = await run({"source": "chat", "message": "我想学习React Hooks"})
    assert decision(out) == "new_document"
    assert out["document"]["status"] == "insufficient" and "内容不足" in out["reply"]
    assert out["document"]["closest_topics"]


def test_an_empty_entity_name_has_no_page(run) -> None:  # type: ignore[no-untyped-def]
    assert run.svc.entity_page("") is None


async def test_a_request_for_a_document_is_not_a_learning_path(run) -> None:  # type: ignore[no-untyped-def]
    """The classifier may read "Write a learning document about X" as a plan; it asks for one document."""
    out, _ = await run({"source": "chat", "message": "Write a learning document about 主轴保养"}, intent="plan")
    assert decision(out) == "new_document" and out["document"]["topic"] == "主轴保养"
    out, _ = await run({"source": "chat", "message": "系统地学习主轴"}, intent="plan")
    assert decision(out) == "plan"
