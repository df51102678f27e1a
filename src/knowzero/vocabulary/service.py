"""Service words, compiled once from ``vocabulary/data/*.toml``: the one copy routing, slot filling,
triage, the service flow, the graph and the API use.

Ids (``ids.toml``): :data:`ORDER_MARKED` an order number behind a marker ("订单124", "order #124";
group 1 the number), :data:`ORDER_HASHED` one behind a hash ("#124"), :data:`ORDER_IN_TASK` the
safe-mode loop's lookup (marked, hashed or a bare 3-12 digit number, the leftmost; the first
non-empty group), :data:`REQUEST_ID` a ticket or refund number (TK-… / RF-…; group 1), and
:data:`REQUEST_ID_FULL` the same as a whole-string pattern for a tool's argument schema
(:data:`TICKET_ID_FULL`: ticket numbers only).

Requests and complaints: :data:`ASKS_FOR_PERSON` ("转人工", "talk to a person"; ``handoff.toml``;
:data:`TYPICAL_HANDOFF_REQUEST` the request as customers usually type it),
:data:`COMPLAINT` (``complaints.toml``), :data:`COMPLAIN` (投诉 as a complaint, a regex fragment for
larger patterns), :data:`ASKS_RULES` (a question about a policy or procedure; ``rules_questions.toml``).

Hand-off texts (``handoff.toml``, :class:`~knowzero.vocabulary.tables.Message`, zh and en):
:data:`HANDOFF_ACTION_NAME`, :data:`HANDOFF_WANTS`, :data:`SERVICE_HELP`, :data:`HANDOFF_TRANSFERRED`,
:data:`HANDOFF_PASSED_ON`, :data:`AGENT_REPLY`, :data:`HANDOFF_RETURNED`.

>>> ORDER_MARKED.search("我的订单124到哪了？").group(1)
'124'
>>> bool(ASKS_FOR_PERSON.search("talk to a person please"))
True
>>> AGENT_REPLY.say(True, name="王客服", text="您好")
'【人工客服 王客服】您好'
"""

from __future__ import annotations

import re

from knowzero.vocabulary.tables import Message, alternation, table

_IDS = table("ids")
_ORDER = _IDS["order"]
_HANDOFF = table("handoff")
_COMPLAINTS = table("complaints")["complaint"]
_RULES = table("rules_questions")["asks_rules"]

ORDER_MARKED: re.Pattern[str] = re.compile(_ORDER["marker"] + "(" + _ORDER["id"] + ")", re.I)
ORDER_HASHED: re.Pattern[str] = re.compile(_ORDER["hashed"], re.I)
ORDER_IN_TASK: re.Pattern[str] = re.compile(alternation([ORDER_MARKED.pattern, ORDER_HASHED.pattern, _ORDER["bare"]]),
                                            re.I)
REQUEST_ID: re.Pattern[str] = re.compile(r"\b(" + _IDS["request"]["shape"] + r")\b", re.I)
REQUEST_ID_FULL: str = "^(?i:" + _IDS["request"]["shape"] + ")$"
TICKET_ID_FULL: str = "^(?i:" + _IDS["request"]["ticket"] + ")$"

ASKS_FOR_PERSON: re.Pattern[str] = re.compile(alternation(_HANDOFF["request"]["zh"], _HANDOFF["request"]["en"]), re.I)
TYPICAL_HANDOFF_REQUEST: str = _HANDOFF["request"]["typical"]
COMPLAIN: str = _COMPLAINTS["complain"]
COMPLAINT: re.Pattern[str] = re.compile(alternation([COMPLAIN], _COMPLAINTS["zh"], _COMPLAINTS["en"]), re.I)
ASKS_RULES: re.Pattern[str] = re.compile(alternation(_RULES["zh"], _RULES["en"]), re.I)

_M = _HANDOFF["messages"]
HANDOFF_ACTION_NAME = Message.of(_M["action_name"])
HANDOFF_WANTS = Message.of(_M["wants"])
SERVICE_HELP = Message.of(_M["help"])
HANDOFF_TRANSFERRED = Message.of(_M["transferred"])
HANDOFF_PASSED_ON = Message.of(_M["passed_on"])
AGENT_REPLY = Message.of(_M["agent_reply"])
HANDOFF_RETURNED = Message.of(_M["returned"])
