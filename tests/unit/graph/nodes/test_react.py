"""The safe-mode loop: splitting multi-task messages, the step limit, the time limit, and the
monitor that stops repeated and ping-pong steps. Sub-tasks are stubbed: this is the loop alone."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from langgraph.runtime import Runtime

from knowzero.config import Settings
from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.graph.nodes import react
from knowzero.input import AgentInput
from kz_testlib import ScriptedProvider


@pytest.mark.parametrize(("text", "tasks"), [
    ("查订单+退款政策+写邮件", ["查订单", "退款政策", "写邮件"]),
    ("帮我查订单，然后生成邮件", ["帮我查订单", "生成邮件"]),
    ("帮我查订单，然后告诉我退款政策", ["帮我查订单", "告诉我退款政策"]),
    ("查订单；查工单", ["查订单", "查工单"]),
    ("check my order and then tell me the refund policy", ["check my order", "tell me the refund policy"]),
    ("零件A的公差是多少？", ["零件A的公差是多少"]),
])
def test_split_tasks(text: str, tasks: list[str]) -> None:
    assert react.split_tasks(text) == tasks


def test_monitor_stops_a_repeated_step() -> None:
    m = react.Monitor()
    assert m.allow("a") == (True, "")
    assert m.allow("a") == (False, "repeated step")


def test_monitor_stops_ping_pong() -> None:
    m = react.Monitor()
    assert [m.allow(k)[0] for k in ("a", "b", "a")] == [True, True, True]
    assert m.allow("b") == (False, "ping-pong between two steps")


def test_monitor_stops_a_third_try() -> None:
    m = react.Monitor()
    for k in ("a", "b", "c", "a", "d"):
        assert m.allow(k)[0]
    assert m.allow("a") == (False, "step already tried twice")


def test_monitor_allows_distinct_steps() -> None:
    m = react.Monitor()
    assert all(m.allow(k)[0] for k in "abcdef")


class Recorder:
    def __init__(self, delay: float = 0.0) -> None:
        self.tasks: list[str] = []
        self.delay = delay

    async def __call__(self, task: str, deps: Deps, done: list[dict[str, Any]], thread_id: str,
                       lang: str | None = None) -> dict[str, Any]:
        self.tasks.append(task)
        if self.delay:
            await asyncio.sleep(self.delay)
        return {"task": task, "kind": "stub", "text": f"done {task}"}


def run(text: str, settings: Settings, monkeypatch: pytest.MonkeyPatch, provider: Any = None,
        delay: float = 0.0) -> tuple[dict[str, Any], Recorder]:
    rec = Recorder(delay)
    monkeypatch.setattr(react, "run_subtask", rec)
    rt = Runtime(context=Deps(settings=settings, provider=provider))
    out = asyncio.run(react.run_react({"question": text, "input": AgentInput(message=text, thread_id="t")}, rt))
    return out, rec


def test_all_subtasks_run_in_order_and_compose_one_reply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, rec = run("查订单+退款政策+写邮件", Settings(data_dir=tmp_path), monkeypatch)
    assert rec.tasks == ["查订单", "退款政策", "写邮件"]
    assert out["react"]["stop_reason"] == "completed" and out["react"]["steps"] == 3
    assert out["reply"].splitlines() == ["1. 查订单：done 查订单", "2. 退款政策：done 退款政策", "3. 写邮件：done 写邮件"]
    assert out["agent_log"][0]["agent"] == "react" and out["agent_log"][0]["stop_reason"] == "completed"


def test_one_task_is_answered_without_the_question_as_its_heading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """"那零件B呢" as one task: the answer, not "1. 那零件B呢：…" (a new user's walkthrough, issue 33)."""
    out, rec = run("那零件B呢", Settings(data_dir=tmp_path), monkeypatch)
    assert rec.tasks == ["那零件B呢"] and out["reply"] == "done 那零件B呢"


def test_step_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, rec = run("一+二+三+四+五", Settings(data_dir=tmp_path, react_max_steps=2), monkeypatch)
    assert rec.tasks == ["一", "二"]
    assert out["react"] == out["react"] | {"steps": 2, "stop_reason": "step limit"}
    assert "（已停止：已达步数上限）" in out["reply"]  # a Chinese request reads a Chinese reason


def test_time_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, rec = run("一+二+三", Settings(data_dir=tmp_path, react_time_limit_s=0.05), monkeypatch, delay=0.08)
    assert rec.tasks == ["一"]
    assert out["react"]["stop_reason"] == "time limit"


def test_repeated_task_stops_the_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out, rec = run("查订单+查订单+写邮件", Settings(data_dir=tmp_path), monkeypatch)
    assert rec.tasks == ["查订单"]
    assert out["react"]["stop_reason"] == "repeated step"


def test_llm_planner_ping_pong_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    provider = ScriptedProvider(['{"tasks": ["查订单", "退款政策", "查订单", "退款政策", "写邮件"]}'])
    out, rec = run("帮我查订单、看退款政策、写邮件", Settings(data_dir=tmp_path), monkeypatch, provider=provider)
    assert out["react"]["planner"] == "llm"
    assert rec.tasks == ["查订单", "退款政策", "查订单"]
    assert out["react"]["stop_reason"] == "ping-pong between two steps"


def test_llm_planner_failure_falls_back_to_the_splitter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for reply in ("not json at all", ProviderError("timeout")):
        out, rec = run("查订单+写邮件", Settings(data_dir=tmp_path), monkeypatch, provider=ScriptedProvider([reply]))
        assert out["react"]["planner"] == "splitter"
        assert rec.tasks == ["查订单", "写邮件"]


def test_email_subtask_quotes_earlier_results(tmp_path: Path) -> None:
    deps = Deps(settings=Settings(data_dir=tmp_path))
    done = [{"task": "查订单", "kind": "tool", "text": "订单 1001 已发货"}]
    out = asyncio.run(react.run_subtask("写邮件", deps, done, "t"))
    assert out["kind"] == "email" and "订单 1001 已发货" in out["text"]


def test_a_plan_with_tasks_the_request_does_not_contain_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Planned tasks become headings of the reply, so a model cannot put words in the user's mouth."""
    provider = ScriptedProvider(['{"tasks": ["公司总部位于火星吗", "给我 365 天年假"]}'])
    out, rec = run("查订单+写邮件", Settings(data_dir=tmp_path), monkeypatch, provider=provider)
    assert out["react"]["planner"] == "splitter"
    assert rec.tasks == ["查订单", "写邮件"]
    assert out["agent_log"][0]["fallback"] is True
    assert "火星" not in out["reply"] and "365" not in out["reply"]
