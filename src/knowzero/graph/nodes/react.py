"""Safe-mode loop for mixed or low-confidence turns: split, run each sub-task on its fast path,
compose one reply. Bounded by a step limit and a time limit; a monitor stops repeated and
ping-pong steps (A, B, A, B).

Offline, sub-tasks come from connectors (然后/并且/还有/另外/+/；/and then/also); each is
classified and run through the knowledge graph, a safe service tool, a drafted email or a
template. With an LLM configured, the model picks the next action as JSON (same actions, same
limits); when it fails the offline splitter takes over.
"""

from __future__ import annotations

import asyncio
import re
import time
from typing import Literal, cast

from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.graph.nodes.chitchat import template_reply
from knowzero.graph.nodes.paths import SERVICE_INTENTS
from knowzero.graph.state import AgentLogEntry, State, SubtaskResult, as_citations
from knowzero.graph.trace import collections_of, emit, thread_id_of, ui_language_of
from knowzero.input import Language, message_language
from knowzero.knowledge.answer import pipeline as kp
from knowzero.knowledge.answer import policy
from knowzero.llm.base import chat_json, within_deadline
from knowzero.routing.signals import service_signals
from knowzero.service.registry import ToolContext, run_tool
from knowzero.streaming import llm_fallback
from knowzero.vocabulary.service import ORDER_IN_TASK

_SPLIT = re.compile(r"\s*(?:\+|＋|；|;|，?然后|[，,。](?:并且|还有|另外|同时)|，?再(?=[帮给写查生做])|，?顺便|\band then\b|\bthen\b|\balso\b|\band\b(?= (?:tell|check|write|send|show|give|draft)))\s*", re.I)
"""Where a request joins two tasks; 并且, 还有, 另外 and 同时 only after a comma, as a clause opens ("还要另外交钱吗" and
"还有几天年假" ask one thing)."""
_EMAIL = re.compile(r"写.{0,6}(邮件|信)|生成.{0,4}(邮件|信)|email|e-mail|draft a (mail|message)", re.I)


STOP_ZH = {"step limit": "已达步数上限", "time limit": "已达时间上限", "repeated step": "重复的步骤",
           "ping-pong between two steps": "两个步骤来回重复", "step already tried twice": "这个步骤已试过两次"}
"""The loop's stop reasons as a Chinese reply says them (the agent log keeps the English codes)."""



def split_tasks(text: str) -> list[str]:
    """'查订单+退款政策+写邮件' → ['查订单', '退款政策', '写邮件'].

    >>> split_tasks("查一下订单123，另外告诉我退款政策"), split_tasks("我办的是月卡，去南湖店游泳还要另外交钱吗？")
    (['查一下订单123', '告诉我退款政策'], ['我办的是月卡，去南湖店游泳还要另外交钱吗'])
    """
    parts = [p.strip(" ，,。.!！?？") for p in _SPLIT.split(text) if p and p.strip(" ，,。.!！?？")]
    return parts or [text]


def _bigrams(text: str) -> set[str]:
    s = "".join(ch for ch in text.lower() if ch.isalnum())
    return {s[i:i + 2] for i in range(len(s) - 1)} or ({s} if s else set())


def grounded(task: str, request: str, min_share: float = 0.8) -> bool:
    """A planned sub-task is shown to the user as a heading, so it must be made of the request's own
    words: at least ``min_share`` of its character bigrams occur in the request.

    >>> grounded("查一下我的订单", "查一下我的订单，然后告诉我零件A的公差")
    True
    >>> grounded("公司总部位于火星吗", "查一下我的订单，然后告诉我零件A的公差")
    False
    """
    grams = _bigrams(task)
    if not grams:
        return False
    return len(grams & _bigrams(request)) / len(grams) >= min_share


class Monitor:
    """Stops the loop on a repeated step or an A, B, A, B ping-pong."""

    def __init__(self) -> None:
        self.history: list[str] = []

    def allow(self, key: str) -> tuple[bool, str]:
        if key in self.history[-1:]:
            return False, "repeated step"
        if len(self.history) >= 3 and self.history[-2] == key and self.history[-1] == self.history[-3]:
            return False, "ping-pong between two steps"
        if self.history.count(key) >= 2:
            return False, "step already tried twice"
        self.history.append(key)
        return True, ""


def acts_on_service(intent: str, method: str, task: str) -> bool:
    """A sub-task runs a service tool as the path decision would send it to the service path: a service intent
    from the rule tier, or from a statistical tier with a service signal (an order id, words about the user's
    own orders). "How much to send a 3 kg parcel to …?" resembles a delivery request and is a question.

    >>> acts_on_service("realtime", "semantic", "How much to send a 3 kg parcel to the Outer Hebrides, postcode HS1")
    False
    >>> acts_on_service("realtime", "semantic", "查一下我的订单"), acts_on_service("action", "rule", "退款")
    (True, True)
    """
    return intent in SERVICE_INTENTS and (method == "rule" or service_signals(task).any)


async def run_subtask(task: str, deps: Deps, done: list[SubtaskResult], thread_id: str,
                      lang: Language | None = None) -> SubtaskResult:
    """One sub-task on its fast path; returns {task, kind, text, citations?}. ``lang``: the language
    for a sub-task without one of its own (the whole message's, else the UI's)."""
    lang = message_language(task) or lang
    zh = lang == "zh"
    if _EMAIL.search(task):
        body = "\n".join(f"- {d['text']}" for d in done if d.get("text")) or ("（暂无可引用的信息）" if zh else "(nothing yet)")
        text = (f"邮件草稿：\n您好，\n\n关于您咨询的事项，情况如下：\n{body}\n\n如有疑问请随时联系我们。\n\n此致\n敬礼"
                if zh else f"Draft email:\nHello,\n\nHere is what we found:\n{body}\n\nBest regards")
        return {"task": task, "kind": "email", "text": text}
    intent = await asyncio.to_thread(deps.need_classifier().classify, task)
    if acts_on_service(intent.intent, intent.method, task):
        ctx = ToolContext(deps.user.id, deps.user.role, thread_id, deps.settings, deps.need_store(), deps.need_orders(),
                          "zh" if zh else "en")
        m = ORDER_IN_TASK.search(task)
        oid = next((g for g in m.groups() if g), None) if m else None
        name, args = ("get_order_status", {"order_id": oid}) if oid else ("list_my_orders", {})
        emit("tool_call_start", tool=name, args=args)
        result = run_tool(name, args, ctx)
        emit("tool_call_end", tool=name, result=result)
        if not result.get("ok"):
            msg = result.get("error", {}).get("message", "")
            return {"task": task, "kind": "tool", "text": msg, "tool": name}
        return {"task": task, "kind": "tool", "tool": name, "text": result.get("summary") or str(result)[:300]}
    if intent.intent == "chitchat":
        return {"task": task, "kind": "chitchat", "text": template_reply(task, lang)}
    ans = await kp.answer(task, deps.knowledge(emit, lang))
    return {"task": task, "kind": "knowledge", "text": ans.reply, "verdict": ans.verdict.level,
            "warnings": list(ans.verdict.warnings), "citations": as_citations(ans.citations)}


async def run_react(state: State, runtime: Runtime[Deps]) -> State:
    deps = runtime.context.scoped(collections_of(state))
    s = deps.settings
    text = state.get("question", "")
    thread_id = thread_id_of(state)
    lang = message_language(text) or ui_language_of(state)
    t0 = time.perf_counter()
    tasks = split_tasks(text)
    planner: Literal["splitter", "llm"] = "splitter"
    fallback_reason: str | None = None
    if deps.provider is not None:
        try:
            data = await within_deadline(chat_json, deps.provider, [{"role": "user", "content":
                "Split this request into independent sub-tasks, in order. Reply JSON {\"tasks\": [str, ...]}. "
                f"Request: {text}"}], {"type": "object", "required": ["tasks"],
                                       "properties": {"tasks": {"type": "array", "items": {"type": "string"}}}},
                                         deadline_s=s.llm_timeout_s)
            planned = [str(t) for t in data.get("tasks") or []][: s.react_max_steps * 2]
            if planned and not all(grounded(t, text) for t in planned):
                raise ProviderError("the model's plan named tasks the request does not contain")
            if planned:
                tasks, planner = planned, "llm"
        except ProviderError as exc:
            fallback_reason = exc.message
            llm_fallback(emit, "planner", exc.message, "splitting by connectors")
    monitor = Monitor()
    results: list[SubtaskResult] = []
    stop = "completed"
    for i, task in enumerate(tasks):
        if i >= s.react_max_steps:
            stop = "step limit"
            break
        if time.perf_counter() - t0 > s.react_time_limit_s:
            stop = "time limit"
            break
        ok, why = monitor.allow(task.lower())
        if not ok:
            stop = why
            break
        emit("reasoning", text=f"step {i + 1}: {task}")
        results.append(await run_subtask(task, deps, results, thread_id, lang))
    zh = lang == "zh"
    lines = [f"{n + 1}. {r['task']}：{r['text']}" if zh else f"{n + 1}. {r['task']}: {r['text']}"
             for n, r in enumerate(results)]
    if len(results) == 1 and stop == "completed":  # one task: its answer, not the question repeated as a heading
        lines = [results[0]["text"]]
    if stop != "completed":
        lines.append(f"（已停止：{STOP_ZH.get(stop, '步骤受限')}）" if zh else f"(stopped: {stop})")
    citations = [c for r in results for c in r.get("citations", [])]
    verdict = policy.weakest([r["verdict"] for r in results if r.get("kind") == "knowledge"],
                             (w for r in results for w in r.get("warnings", [])))
    out: State = {"reply": "\n".join(lines), "citations": citations}
    if verdict:
        out["verdict"] = verdict
    shown = [cast(SubtaskResult, {k: v for k, v in r.items() if k != "citations"}) for r in results]
    out["react"] = {"steps": len(results), "stop_reason": stop, "planner": planner, "tasks": shown}
    log: AgentLogEntry = {"agent": "react", "action": "loop", "steps": len(results), "stop_reason": stop,
                          "planner": planner}
    if fallback_reason is not None:
        log.update({"fallback": True, "fallback_reason": fallback_reason})
    out["agent_log"] = [log]
    return out
