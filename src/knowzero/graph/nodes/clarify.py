"""Clarify agent: one precise question back, offering the likely interpretations as quick replies."""

from __future__ import annotations

from langgraph.runtime import Runtime

from knowzero.graph.context import Deps
from knowzero.graph.state import State
from knowzero.graph.trace import ui_language_of
from knowzero.input import message_language

_LABELS = {
    "knowledge": ("查公司资料（制度、工艺、产品、联系方式）", "look something up in the documents"),
    "realtime": ("查询订单或工单状态", "check an order or ticket"),
    "action": ("办理退款、取消或提交工单", "request a refund, cancel, or open a ticket"),
    "new_topic": ("学习一个新主题", "learn a new topic"),
    "plan": ("制定学习路线", "get a learning path"),
    "comparison": ("比较两个概念", "compare two things"),
    "chitchat": ("随便聊聊", "just chat"),
}


async def ask_clarification(state: State, runtime: Runtime[Deps]) -> State:
    text = state.get("question", "")
    zh = (message_language(text) or ui_language_of(state) or "zh") == "zh"  # the message's, else the UI's
    cands = [c[0] if isinstance(c, (list, tuple)) else c for c in (state.get("intent") or {}).get("candidates", [])]
    options = [i for i in cands if isinstance(i, str) and i in _LABELS][:3] or ["knowledge", "realtime", "new_topic"]
    labels = [_LABELS[i][0 if zh else 1] for i in options]
    if zh:
        reply = "我想确认一下，你是想：" + "；".join(f"{n + 1}) {lab}" for n, lab in enumerate(labels)) + "？可以说得具体些，比如哪个订单或哪个产品。"
    else:
        reply = "To be sure: do you want to " + "; ".join(f"{n + 1}) {lab}" for n, lab in enumerate(labels)) + \
            "? A detail helps, e.g. which order or which product."
    return {"reply": reply, "quick_replies": labels,
            "agent_log": [{"agent": "clarify", "action": "ask", "options": options}]}
