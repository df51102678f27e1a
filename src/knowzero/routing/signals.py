"""Explicit service signals in a message: the entities and requests that make a turn a service turn.

The path decision (``graph/nodes/paths.py``) sends a turn to the service path only on explicit
evidence: a service intent from the rule tier, a service intent from a statistical tier *backed
by* one of these signals, or a service stage already pending in the thread. A question that merely
resembles a service request ("车间里可以拍照吗？") carries none of them and stays a knowledge
question. This module only recognises; it fills no slots and runs no triage (that is the service
path's work, in ``service/``).

>>> service_signals("我的订单124到哪了？").order_ids
('124',)
>>> service_signals("零件A的公差是多少？").any
False
>>> service_signals("确认").bare_answer, service_signals("确认订单号").bare_answer
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from knowzero.vocabulary.service import ASKS_FOR_PERSON, ASKS_RULES, COMPLAIN, COMPLAINT, ORDER_MARKED, REQUEST_ID

_ACCOUNT = re.compile(r"我的(?:订单|工单|退款|包裹|快递|账户|投诉)|(?:查|查询|看看)(?:一下)?(?:我的)?(?:订单|物流|快递|工单)|"
                      r"退款|退钱|退货|" + COMPLAIN + r"|报修|开个?工单|提交工单|物流(?:信息|单号|进度|状态(?!为|是))|到哪了|发货了?吗|"
                      r"\bmy\s+(?:orders?|tickets?|refunds?|package)\b|\brefund\b|\btrack(?:ing)?\b|\bcomplain", re.I)

_BARE_ANSWER = re.compile(r"^\s*(?:确认|确定|确认(?:退款|提交|申请)|同意|算了吧?|不用了|不要了|取消(?:吧|了|掉)?|"
                          r"confirm(?:ed)?|cancel(?:\s+it)?|never\s*mind)\s*[。.!！~～]*\s*$", re.I)
"""A whole message that only answers a pending step ("确认", "算了", the quick-reply buttons)."""


@dataclass(frozen=True)
class ServiceSignals:
    order_ids: tuple[str, ...] = ()
    """Order numbers named with a marker ("订单124", "order #124")."""
    request_ids: tuple[str, ...] = ()
    """Ticket or refund ids (TK-…, RF-…)."""
    human: bool = False
    """The user asks for a person."""
    account: bool = False
    """Words about the user's own orders, refunds, tickets or deliveries."""
    complaint: bool = False
    """The user complains about the service ("垃圾服务！你们到底管不管？"): triage decides on a handoff."""
    asks_rules: bool = False
    """The message asks about a policy or procedure ("退款政策是什么") rather than for an action."""
    bare_answer: bool = False
    """The whole message is a confirmation or a cancellation ("确认", "算了"), meaningful only while a
    service step waits for it; with nothing pending it is answered as such, never as a question."""

    def __post_init__(self) -> None:  # a checkpoint hands sequences back as lists: keep the declared tuples
        object.__setattr__(self, "order_ids", tuple(self.order_ids))
        object.__setattr__(self, "request_ids", tuple(self.request_ids))

    @property
    def entity(self) -> bool:
        return bool(self.order_ids or self.request_ids)

    @property
    def any(self) -> bool:
        return self.entity or self.human or self.complaint or (self.account and not self.asks_rules)


def service_signals(text: str) -> ServiceSignals:
    return ServiceSignals(order_ids=tuple(dict.fromkeys(m.group(1) for m in ORDER_MARKED.finditer(text))),
                          request_ids=tuple(dict.fromkeys(m.group(1).upper() for m in REQUEST_ID.finditer(text))),
                          human=bool(ASKS_FOR_PERSON.search(text)), account=bool(_ACCOUNT.search(text)),
                          complaint=bool(COMPLAINT.search(text)),
                          asks_rules=bool(ASKS_RULES.search(text)),
                          bare_answer=bool(_BARE_ANSWER.match(text)))
