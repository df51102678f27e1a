"""Handoff brief: what a human agent needs to take over a thread without re-reading it.

:func:`build_brief` turns the thread (messages, ``state["service"]``, this turn's triage) into a JSON
brief — what the customer wants, facts and slots collected, steps already tried, mood — and
:func:`brief_text` renders it for the console. It does not create the handoff record (the
``transfer_to_human`` tool does) and does not interrupt the graph (the ``await_human`` node does).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from knowzero.service.slots import detect_action, extract_slots
from knowzero.service.state import PendingAction, ServiceState, Step, TriageState
from knowzero.vocabulary.service import HANDOFF_WANTS, ORDER_HASHED, ORDER_MARKED, REQUEST_ID

WANTS = {
    "request_refund": ("申请退款", "a refund"), "get_order_status": ("查询订单状态", "the status of an order"),
    "list_my_orders": ("查看订单列表", "a list of their orders"), "create_ticket": ("提交问题工单", "to file a ticket"),
    "get_ticket": ("查询工单进度", "the status of a ticket"), "cancel_request": ("取消申请", "to cancel a request"),
    "transfer_to_human": HANDOFF_WANTS,
}


def _bare_id(turn: str) -> bool:
    """A turn that is only an id ("订单124", "#124", "TK-1001", "124"): what was asked for, never a request of its own."""
    t = turn.strip().rstrip("。.!！ ")
    return t.isdigit() or any(p.fullmatch(t) for p in (ORDER_MARKED, ORDER_HASHED, REQUEST_ID))


def _content(m: Any) -> tuple[str, str]:
    if isinstance(m, dict):
        return str(m.get("role") or m.get("type") or ""), str(m.get("content") or "")
    role = getattr(m, "type", "")
    content = getattr(m, "content", "")
    return role, content if isinstance(content, str) else str(content)


def build_brief(messages: list[Any], service: ServiceState, triage: TriageState, user: dict[str, Any],
                text: str, lang: str = "zh") -> dict[str, Any]:
    """Summary brief for the human agent (JSON-serialisable)."""
    customer_turns = [c for r, c in (_content(m) for m in messages) if r in ("human", "user") and c]
    if text and (not customer_turns or customer_turns[-1] != text):
        customer_turns.append(text)
    pending: PendingAction = service.get("pending") or {}
    action = pending.get("action") if pending.get("action") != "transfer_to_human" else None
    done = finished_actions(service.get("steps") or [])
    if not action:
        # the latest request that is not done: a refund executed two turns ago is not what they want now
        for turn in reversed(customer_turns):
            if _bare_id(turn):
                continue  # "订单124" answering a question is a slot, not a request to look the order up
            a = detect_action(turn)
            if a and a != "transfer_to_human" and a not in done:
                action = a
                break
    zh = lang == "zh"
    wants = WANTS.get(action or "", ("咨询问题", "help with an issue"))[0 if zh else 1]
    done_names = [WANTS[a][0 if zh else 1] for a in done if a in WANTS and a != action]
    facts: dict[str, Any] = {}
    for turn in customer_turns:
        for k, v in extract_slots(turn).items():
            if k in ("order_id", "amount", "ticket_id", "request_id"):
                facts.setdefault(k + "s", [])
                if v not in facts[k + "s"]:
                    facts[k + "s"].append(v)
    steps = [s for s in (service.get("steps") or [])][-10:]
    mood = {"label": triage.get("label"), "sentiment": triage.get("sentiment"),
            "angry_turns": triage.get("angry_streak", 0), "urgency": triage.get("urgency")}
    headline = (f"客户（{user.get('name') or user.get('id')}）想要{wants}" if zh
                else f"Customer ({user.get('name') or user.get('id')}) wants {wants}")
    if facts.get("order_ids"):
        headline += ("，涉及订单 " if zh else ", order ") + ", ".join(map(str, facts["order_ids"]))
    if done_names:
        headline += ("；已办理：" + "、".join(done_names)) if zh else ("; already done: " + ", ".join(done_names))
    return {
        "headline": headline,
        "wants": wants,
        "action": action,
        "done": [a for a in done if a != action],
        "customer": {"id": user.get("id"), "name": user.get("name"), "role": user.get("role")},
        "facts": facts,
        "slots": dict(pending.get("slots") or {}),
        "steps_tried": steps,
        "mood": mood,
        "reason": triage.get("reason", ""),
        "recent_messages": [re.sub(r"\s+", " ", t)[:200] for t in customer_turns[-5:]],
    }


def finished_actions(steps: Sequence[Step]) -> list[str]:
    """Tools whose latest run in the thread succeeded, in the order they last ran: done, so not what
    the customer still wants (a tool whose latest run failed — a rejected refund — is not done).

    >>> finished_actions([{"tool": "request_refund", "ok": True}, {"tool": "get_order_status", "ok": True},
    ...                   {"tool": "request_refund", "ok": False}])
    ['get_order_status']
    """
    last: dict[str, bool] = {}
    for s in steps:
        if s.get("tool"):
            last.pop(str(s["tool"]), None)
            last[str(s["tool"])] = bool(s.get("ok"))
    return [tool for tool, ok in last.items() if ok]


def brief_text(brief: dict[str, Any]) -> str:
    """A few lines for the handoff console."""
    lines = [brief.get("headline", "")]
    if brief.get("slots"):
        lines.append("slots: " + ", ".join(f"{k}={v}" for k, v in brief["slots"].items()))
    if brief.get("steps_tried"):
        lines.append("tried: " + "; ".join(f"{s.get('tool')}→{'ok' if s.get('ok') else s.get('error', 'error')}"
                                            for s in brief["steps_tried"]))
    mood = brief.get("mood") or {}
    lines.append(f"mood: {mood.get('label')} ({mood.get('sentiment')}), urgency {mood.get('urgency')}; {brief.get('reason', '')}")
    return "\n".join(lines)
