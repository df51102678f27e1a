"""The typed state (graph/state.py) is what real turns write: every path of the whole graph, on the demo
knowledge base, checkpointed and read back, validated against the typed dicts with pydantic, closed
(``extra="forbid"``): a key a node starts writing without declaring it, or a value of another type, fails.

Also: old checkpoints stay loadable because a typed dict is the plain dict it always was."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore
from pydantic import TypeAdapter, ValidationError

from knowzero.config import Settings
from knowzero.graph.builder import build_graph
from knowzero.graph.state import (
    CHECKPOINT_TYPES,
    AgentLogEntry,
    Citation,
    Document,
    IntentState,
    ReactState,
    State,
)
from knowzero.input import AgentInput
from knowzero.persistence.checkpoint import serializer
from knowzero.service.store import seed_demo
from knowzero.users import User
from kz_testlib import copy_data_dir, make_deps

SHAPES: dict[str, TypeAdapter[Any]] = {
    "intent": TypeAdapter(IntentState),
    "citations": TypeAdapter(list[Citation]),
    "document": TypeAdapter(Document),
    "react": TypeAdapter(ReactState),
    "agent_log": TypeAdapter(list[AgentLogEntry]),
}

TURNS: list[tuple[str, dict[str, Any], str]] = [
    ("knowledge", {"message": "零件A的公差是多少？"}, "knowledge"),
    ("chitchat", {"message": "你好"}, "chitchat"),
    ("learning", {"message": "我想学习CNC加工中心日常维护"}, "learning"),
    ("plan", {"message": "我想系统地学习CNC加工"}, "learning"),
    ("react", {"message": "查一下我的订单，然后告诉我零件A的公差，再写封邮件"}, "react"),
    ("service", {"message": "我要给订单1001退款，质量问题"}, "service"),
    ("entity", {"source": "entity", "entity": "主轴"}, "learning"),
]


def validate(values: dict[str, Any]) -> list[str]:
    problems = []
    for key, adapter in SHAPES.items():
        if key in values:
            try:
                adapter.validate_python(values[key])
            except ValidationError as exc:
                problems.append(f"{key}: {exc}")
    return problems


@pytest.fixture()
async def graph_and_deps(demo_data_dir: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    data_dir = copy_data_dir(demo_data_dir, tmp_path / "kz")
    deps = make_deps(Settings(data_dir=data_dir, llm_provider="none"), provider=None)
    seed_demo(deps.need_store())
    graph = build_graph().compile(checkpointer=InMemorySaver(), store=InMemoryStore())
    return graph, deps.for_user(User("alice", "customer", "张三"))


@pytest.mark.parametrize(("name", "message", "path"), TURNS, ids=[t[0] for t in TURNS])
async def test_every_path_writes_the_declared_shapes(graph_and_deps: Any, name: str, message: dict[str, Any],
                                                     path: str) -> None:
    graph, deps = graph_and_deps
    config = {"configurable": {"thread_id": f"shapes-{name}-{uuid.uuid4().hex[:8]}"}}
    await graph.ainvoke({"input": AgentInput(source="chat", **message) if "source" not in message
                         else AgentInput(**message)}, config, context=deps)
    values = (await graph.aget_state(config)).values
    assert values["path"] == path, (values["path"], values.get("agent_log"))
    assert values["agent_log"] and values["intent"]
    assert not validate(values), "\n".join(validate(values))
    if name == "knowledge":
        assert values["citations"]
    if name in ("learning", "plan", "entity"):
        assert values["document"].get("sections")
    if name == "react":
        assert values["react"]["tasks"]


async def test_a_learning_session_writes_the_declared_shapes(graph_and_deps: Any) -> None:
    """A document, a follow-up that deepens it (a new version: anchors), comments that improve a section or ask."""
    graph, deps = graph_and_deps
    config = {"configurable": {"thread_id": f"shapes-learning-{uuid.uuid4().hex[:8]}"}}

    async def turn(inp: AgentInput) -> dict[str, Any]:
        await graph.ainvoke({"input": inp}, config, context=deps)
        values = (await graph.aget_state(config)).values
        assert not validate(values), "\n".join(validate(values))
        return values

    doc = (await turn(AgentInput(message="我想学习CNC加工中心日常维护")))["document"]
    section = next(s for s in doc["sections"] if s["markdown"].strip())
    line = next(ln for ln in section["markdown"].splitlines() if ln.strip()).lstrip("- ")[:20]
    routes = [(await turn(AgentInput(source="follow_up", message="主轴预热有哪些具体要求？",
                                     current_document_id=doc["id"])))["document"].get("route")]
    for comment in ("这一段太简略了，请补充具体步骤", "这里说的预热要多久？"):
        values = await turn(AgentInput(source="comment", current_document_id=doc["id"], comment={
            "selected_text": line, "comment": comment, "document_id": doc["id"], "section_id": section["id"]}))
        routes.append(values["document"].get("route"))
        assert values["agent_log"][-1].get("need"), values["agent_log"][-1]
    assert routes == ["update_current", "optimize_section", "optimize_section"], routes


def test_the_shapes_reject_undeclared_keys_and_wrong_types() -> None:
    entry: AgentLogEntry = {"agent": "router", "action": "path", "path": "knowledge", "reason": "knowledge (0.93)"}
    assert not validate({"agent_log": [entry], "intent": {"intent": "knowledge", "confidence": 0.9}})
    for bad in ({"agent_log": [{**entry, "pathh": "knowledge"}]},  # a misspelt key
                {"agent_log": [{"action": "path"}]},  # no agent
                {"intent": {"intent": "knowledge", "confidence": "high"}},
                {"citations": [{"n": 1, "source": "a.md", "snippet": "…"}]},
                {"react": {"steps": 1, "planner": "magic"}},
                {"document": {"id": "doc_1", "sections": [{"id": "s1", "heading": "h", "body": "…"}]}}):
        assert validate(bad), bad


def test_a_typed_state_is_a_plain_dict_at_run_time() -> None:
    """What keeps checkpoints written before the fields were typed loadable: nothing new to revive, the
    checkpoint serializer (with the project's allowlist) round-trips the same plain dicts."""
    state: State = {"intent": {"intent": "knowledge", "confidence": 0.9, "method": "rule"},
                    "agent_log": [{"agent": "intent", "action": "classify", "elapsed_ms": 1.5, "id": "a1"}],
                    "document": {"id": "doc_1", "sections": [{"id": "s1", "heading": "h", "citations": []}]},
                    "react": {"steps": 1, "tasks": [{"task": "t", "kind": "email", "text": "…"}]},
                    "citations": [{"n": 1, "source": "a.md", "quote": "q", "start": 0, "end": 1}]}
    for value in (state["intent"], state["document"], state["react"], *state["agent_log"], *state["citations"]):
        assert type(value) is dict
    ser = serializer(CHECKPOINT_TYPES)
    back = ser.loads_typed(ser.dumps_typed(dict(state)))
    assert back == state and type(back["intent"]) is dict and type(back["agent_log"][0]) is dict


async def test_a_turn_carries_one_analysis_of_its_question(graph_and_deps: Any) -> None:
    """The message is analysed once when the turn enters and the analysis is checkpointed with the turn: its
    text is the state's question (a follow-up's standalone form, what was typed kept beside it), and the path
    and knowledge steps read it (the service signals, the asked kind, the named items)."""
    from knowzero.understanding.analysis import Analysis

    graph, deps = graph_and_deps
    config = {"configurable": {"thread_id": f"analysis-{uuid.uuid4().hex[:8]}"}}
    await graph.ainvoke({"input": AgentInput(message="零件A的公差是多少？")}, config, context=deps)
    values = (await graph.aget_state(config)).values
    a = values["analysis"]
    assert isinstance(a, Analysis) and a.text == values["question"] and a.asked_kind == "number"
    assert a.entities == ("零件a",) and not a.service.any and not a.rewritten
    await graph.ainvoke({"input": AgentInput(message="那零件B呢？")}, config, context=deps)
    b = (await graph.aget_state(config)).values["analysis"]
    assert b.typed == "那零件B呢？" and b.rewritten and "零件b" in b.entities
    await graph.ainvoke({"input": AgentInput(message="我的订单1001到哪了")}, config, context=deps)
    values = (await graph.aget_state(config)).values
    assert values["analysis"].service.order_ids == ("1001",) and values["path"] == "service"
