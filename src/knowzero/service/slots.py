"""Slot filling for service actions, Chinese and English, rules only (fast, deterministic).

What it does: detect which service action a clause asks for (:func:`detect_action`), pull slot
values out of text (:func:`extract_slots`: order id, amount, reason, ticket subject, request id),
recognise corrections ("不对，是 124" / "no, it's 124"), cancellations ("算了" / "never mind") and
yes/no answers, merge them into a pending action (:func:`merge_slots`) and pick the ONE next
question to ask (:func:`next_missing`, :func:`question_for`).

What it does not do: keep state (the pending action lives in ``state["service"]``, a
:class:`~knowzero.service.state.ServiceState`, so it is checkpointed with the thread), look anything
up, or decide whether an action is allowed.

Example::

    >>> extract_slots("帮我给订单123退款50元，因为坏了")
    {'amount': 50.0, 'order_id': '123', 'reason': '坏了'}
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal, cast

from knowzero.service.state import PendingAction, Slots
from knowzero.vocabulary.service import ASKS_FOR_PERSON, ASKS_RULES, ORDER_HASHED, ORDER_MARKED, REQUEST_ID

ACTIONS = ("transfer_to_human", "cancel_request", "request_refund", "get_ticket", "create_ticket",
           "list_my_orders", "get_order_status")
REQUIRED: dict[str, tuple[str, ...]] = {
    "get_order_status": ("order_id",),
    "list_my_orders": (),
    "request_refund": ("order_id", "amount", "reason"),
    "create_ticket": ("subject",),
    "get_ticket": ("ticket_id",),
    "cancel_request": ("request_id",),
    "transfer_to_human": (),
}
SENSITIVE = ("request_refund",)

_CANCEL_REQ = re.compile(r"(取消|撤销|撤回)(我的|这个|那个)?\s*(工单|退款申请|申请)|cancel\s+(my\s+|the\s+|this\s+)?(ticket|refund\s+request|request)", re.I)
_REFUND = re.compile(r"退款|退钱|退\s*\d|把钱退|钱退给我|退货退款|退个款|\brefund|money\s+back", re.I)
_GET_TICKET = re.compile(r"(查|查询|查看|看看|看一下)[^，。,.]{0,4}工单|工单[^，。,.]{0,6}(状态|进度|怎么样|处理得|处理了)|"
                         r"ticket\s+(status|progress)|(check|status\s+of)\s+(my\s+|the\s+)?ticket", re.I)
_TICKET = re.compile(r"工单|投诉|报修|开个单|提交(一个)?问题|反馈(一个)?问题|登记(一下)?问题|complain|complaint|"
                     r"\bticket\b|report\s+(a|an)\s+(problem|issue)|file\s+(a|an)\s+\w+", re.I)
_LIST = re.compile(r"我的订单(?!\s*[#A-Za-z0-9])|我(都)?(买|下)了(哪些|什么)|(所有|全部|最近的?)订单|订单列表|有哪些订单|"
                   r"\bmy\s+orders\b|\blist\s+(my\s+|all\s+)?orders\b|order\s+history|orders\s+do\s+i\s+have", re.I)
_STATUS = re.compile(r"订单|物流|快递|发货|到哪|到了没|到了吗|送到|配送|签收|单号|\border\b|\btrack|shipping|deliver|shipped|"
                     r"where\s+is\s+my", re.I)
_STATUS_WORDS = re.compile(r"状态|到哪|物流|快递|发货|到了|送到|配送|进度|怎么样|签收|status|where|track|shipp|deliver", re.I)

_MONEY_NUM = r"(\d+(?:\.\d{1,2})?)"
_AMOUNT = [re.compile(r"(?:¥|￥|\$|RMB|CNY)\s*" + _MONEY_NUM, re.I),
           re.compile(_MONEY_NUM + r"\s*(?:元|块钱|块|rmb|yuan|cny|dollars?|bucks)", re.I),
           re.compile(r"(?:退|金额|amount|refund)\s*(?:是|为|of|:|：)?\s*" + _MONEY_NUM + r"(?!\d|\s*(?:号|单))", re.I)]
_FULL = re.compile(r"全额|全部退|全款|全退|都退|full\s+(refund|amount)|\ball\s+of\s+it\b|everything|the\s+whole\s+amount", re.I)
_BARE_NUM = re.compile(r"(?<![\d.])(\d{2,12})(?![\d.])")
_REASON_MARK = re.compile(r"(?:因为|由于|原因是|原因：|原因:|理由是|理由：|because(?:\s+of)?|since|reason\s*(?:is|:)|due\s+to)\s*(.+)$", re.I)
_REASONS = re.compile(r"质量问题|有质量问题|坏了|破损|损坏|有划痕|尺寸不对|尺寸超差|规格不对|发错(了|货)?|少发|漏发|买错了|拍错了|"
                      r"不想要了|不需要了|用不上|重复下单|延误|太慢|没收到|"
                      r"damaged|broken|defective|wrong\s+(size|item|product)|not\s+as\s+described|no\s+longer\s+need|"
                      r"changed\s+my\s+mind|ordered\s+by\s+mistake|never\s+arrived|too\s+late|scratched", re.I)
_SUBJECT_MARK = re.compile(r"(?:工单|投诉|报修|反馈|问题是|ticket|complaint|complain)\s*(?:一下|个)?\s*[吧啊呢]?\s*(?:about|for|:|：|，|,|说|是)?\s*(?:说|是)?\s*(.+)$", re.I)
_CORRECTION = re.compile(r"^\s*(不对|不是|错了|搞错了|说错了|应该是|更正|改成|改为|换成|no[,，\s]|nope|actually|sorry[,，\s]|i\s+meant|correction|make\s+it|change\s+it\s+to)", re.I)
_CANCEL = re.compile(r"^\s*(算了(吧)?|不用了|不要了|不退了|先不(退|用|弄)了|取消(吧|了|掉)?|不办了|放弃|cancel(\s+it|\s+that)?|never\s*mind|forget\s+(it|about\s+it)|stop|abort|no\s+thanks)\s*[。.!！~～了吧啦]*\s*$", re.I)
_ASKING = re.compile(r"[?？]\s*$|什么|怎么|怎样|如何|多少|哪些|哪里|哪个|为什么|是否|能否|吗\s*$|^(?:what|how|why|which|when|where|who|is|are|can|does|do)\b", re.I)
_CANCEL_LOOSE = re.compile(r"算了|不用了|不退了|never\s*mind|forget\s+it", re.I)
_YES = re.compile(r"^\s*(确认|确定|是的?|好的?|对的?|可以|没问题|行|嗯|同意|yes|y|yep|ok|okay|confirm(ed)?|sure|go\s+ahead)\s*[。.!！啊的吧]*\s*$", re.I)
_NO = re.compile(r"^\s*(不|否|不要|不行|不对|不同意|no|n|nope|don'?t)\s*[。.!！]*\s*$", re.I)
_SPLIT = re.compile(r"\s*(?:；|;|，?然后|，?并且|，?还有|，?另外|，?同时|，?顺便|。\s*(?=\S)|\band\s+then\b|\balso\b)\s*", re.I)


def split_clauses(text: str) -> list[str]:
    """'查订单123，顺便帮我开个工单' → ['查订单123', '帮我开个工单'] (only at explicit connectors)."""
    parts = [p.strip(" ，,。.!！?？") for p in _SPLIT.split(text)]
    return [p for p in parts if p] or [text.strip()]


def detect_action(text: str) -> str | None:
    """The service action a clause asks for, by precedence; ``None`` when it names none.

    A question about the rules ("退款政策是什么", "how long do refunds take") is a knowledge
    question, not a request to act, unless it names an order or ticket.
    """
    if ASKS_RULES.search(text) and not (ORDER_MARKED.search(text) or ORDER_HASHED.search(text)
                                        or REQUEST_ID.search(text)):
        return None
    if ASKS_FOR_PERSON.search(text):
        return "transfer_to_human"
    if _CANCEL_REQ.search(text) or (REQUEST_ID.search(text) and re.search(r"取消|撤销|cancel", text, re.I)):
        return "cancel_request"
    if _REFUND.search(text):
        return "request_refund"
    if _GET_TICKET.search(text) or (REQUEST_ID.search(text) and "TK-" in text.upper()):
        return "get_ticket"
    if _TICKET.search(text):
        return "create_ticket"
    if _LIST.search(text) and not (ORDER_MARKED.search(text) or ORDER_HASHED.search(text)):
        return "list_my_orders"
    if _STATUS.search(text):
        return "get_order_status"
    return None


def is_weak(action: str | None, clause: str, expecting: str | None) -> bool:
    """A lookup cue that is really a slot answer: "order 123" while the order is being asked for, or
    "快递员态度很差" while a ticket subject is. Status words ("到哪了", "status") make it a real lookup."""
    if action != "get_order_status":
        return False
    if not _STATUS_WORDS.search(clause):
        return True
    return expecting in ("subject", "reason") and "order_id" not in extract_slots(clause)


def is_cancel(text: str) -> bool:
    """'算了' / '不用了' / 'never mind' — drop the pending action (not: '取消工单 TK-…')."""
    if REQUEST_ID.search(text):
        return False
    return bool(_CANCEL.match(text)) or (len(text) <= 16 and bool(_CANCEL_LOOSE.search(text)))


_CANCEL_THEN = re.compile(r"^\s*(?:算了(?:吧)?|不用了|不要了|不办了|先不(?:退|用|弄)了|取消(?:吧|了|掉)?|never\s*mind|"
                          r"forget\s+(?:it|about\s+it)|cancel(?:\s+it|\s+that)?)\s*[，,。.!！;；]\s*(?P<rest>\S.*)$", re.I)


def after_cancel(text: str) -> str:
    """What follows a cancel word that opens the message ("算了，帮我查一下订单123的物流" → "帮我查一下订单123的物流"),
    else "": a new request typed in the same breath as dropping the old one.

    >>> after_cancel("算了，帮我查一下订单123的物流"), after_cancel("算了"), after_cancel("never mind, where is order 123?")
    ('帮我查一下订单123的物流', '', 'where is order 123?')
    """
    m = _CANCEL_THEN.match(text)
    return m.group("rest").strip() if m else ""


def is_question(text: str) -> bool:
    """A question ("差旅报销标准是什么？") is a new request, never the answer to "why" or "what happened"."""
    return bool(_ASKING.search(text.strip()))


def is_correction(text: str) -> bool:
    return bool(_CORRECTION.match(text))


def yes_no(text: str) -> bool | None:
    if _YES.match(text):
        return True
    if _NO.match(text):
        return False
    return None


def _amount(text: str) -> tuple[float | Literal["full"] | None, list[tuple[int, int]]]:
    if _FULL.search(text):
        return "full", []
    for pat in _AMOUNT:
        m = pat.search(text)
        if m:
            return float(m.group(1)), [m.span()]
    return None, []


def _clean(s: str) -> str:
    return s.strip(" ，,。.!！?？:：、").strip()


def extract_slots(text: str, expecting: str | None = None) -> Slots:
    """Slot values named in ``text``. ``expecting`` (the slot just asked for) lets a bare answer
    ("124", "50", "坏了") fill that slot."""
    out: Slots = {}
    t = text.strip()
    req = REQUEST_ID.search(t)
    if req:
        rid = req.group(1).upper()
        out["request_id"] = rid
        if rid.startswith("TK-"):
            out["ticket_id"] = rid
    amount, spans = _amount(t)
    if amount is not None:
        out["amount"] = amount
    m = ORDER_MARKED.search(t) or ORDER_HASHED.search(t)
    if m and not (req and m.group(1).upper() in req.group(1).upper()):
        out["order_id"] = m.group(1).upper() if re.search(r"[A-Za-z]", m.group(1)) else m.group(1)
    if "order_id" not in out:
        masked = t
        for a, b in spans:
            masked = masked[:a] + " " * (b - a) + masked[b:]
        if req:
            masked = masked.replace(req.group(0), " " * len(req.group(0)))
        nums = _BARE_NUM.findall(masked)
        if nums and (expecting in (None, "order_id") or is_correction(t)):
            if expecting == "amount" and amount is None:
                pass
            else:
                out["order_id"] = nums[-1]
    if expecting == "amount" and "amount" not in out:
        nm = re.fullmatch(r"\s*(?:退)?\s*" + _MONEY_NUM + r"\s*", t) or (re.search(r"(?<![\d.])" + _MONEY_NUM + r"(?![\d.])", t)
                                                                      if is_correction(t) else None)
        if nm:
            out["amount"] = float(nm.group(1))
            if out.get("order_id") == nm.group(1):
                out.pop("order_id")
    rm = _REASON_MARK.search(t)
    if rm and _clean(rm.group(1)):
        out["reason"] = _clean(rm.group(1))[:200]
    elif expecting == "reason" and not is_cancel(t) and yes_no(t) is None and not _BARE_NUM.fullmatch(t) \
            and len(_clean(t)) >= 2 and not is_question(t):
        out["reason"] = _clean(t)[:200]
    else:
        rr = _REASONS.search(t)
        if rr:
            out["reason"] = rr.group(0)
    sm = _SUBJECT_MARK.search(t)
    if sm and _clean(sm.group(1)) and not re.fullmatch(r"(吧|吗|呢|可以吗|好吗|please)?", _clean(sm.group(1)), re.I):
        out["subject"] = _clean(sm.group(1))[:200]
    elif expecting == "subject" and not is_cancel(t) and yes_no(t) is None and len(_clean(t)) >= 2 and not is_question(t) \
            and not only_reference(t):
        out["subject"] = _clean(t)[:200]
    return out


_REFERENCE_WORDS = re.compile(r"订单号?|单号|编号|号码|号|order|number|no\.?|the|is|it's|its|是|为|[#＃:：]", re.I)


def only_reference(text: str) -> bool:
    """The message only names an order or request ("订单124", "#124", "order 124"): an id, not a description.

    >>> only_reference("订单124"), only_reference("order #124"), only_reference("订单124的货到了但是坏了")
    (True, True, False)
    """
    rest = REQUEST_ID.sub(" ", text)
    rest = re.sub(r"[A-Za-z]*\d[A-Za-z0-9-]*", " ", rest)
    rest = _REFERENCE_WORDS.sub(" ", rest)
    return len(_clean(re.sub(r"\s+", "", rest))) < 2


def correction_target(text: str, last_filled: str | None, expecting: str | None) -> str | None:
    """Which slot '不对，是 124' corrects: named explicitly, else the slot filled last."""
    if re.search(r"金额|元|块|amount|¥|￥|\$", text, re.I):
        return "amount"
    if re.search(r"订单|单号|order", text, re.I):
        return "order_id"
    if re.search(r"原因|理由|reason", text, re.I):
        return "reason"
    return last_filled or expecting


def only_slots(found: Slots, names: Iterable[str]) -> Slots:
    """The slots of ``found`` named in ``names`` (those an action takes)."""
    keep = set(names)
    return cast(Slots, {k: v for k, v in found.items() if k in keep})


def set_slot(slots: Slots, name: str, value: Any) -> None:
    """Set the slot ``name`` (a name computed at run time, one of :class:`Slots`' keys)."""
    cast(dict[str, Any], slots)[name] = value


def merge_slots(pending: PendingAction, text: str) -> tuple[PendingAction, list[str]]:
    """Merge what ``text`` says into a pending action's slots; returns (pending, changed slot names).

    A correction replaces the slot it targets; otherwise only missing slots are filled, plus the slot
    that was just asked for. ``pending`` itself is not changed.
    """
    p: PendingAction = {**pending, "slots": Slots(**(pending.get("slots") or {}))}
    expecting = p.get("expecting")
    found = extract_slots(text, expecting)
    changed: list[str] = []
    if is_correction(text):
        target = correction_target(text, p.get("last_filled"), expecting)
        plain = cast(dict[str, Any], extract_slots(text, None))
        value: Any = None
        if target in plain:
            value = plain[target]
        elif target == "amount" and "order_id" in plain and str(plain["order_id"]).isdigit():
            value = float(plain["order_id"])
        elif target == "order_id" and isinstance(plain.get("amount"), float):
            value = str(int(plain["amount"]))
        elif target in found:
            value = cast(dict[str, Any], found)[target]
        if target and value is not None:
            set_slot(p["slots"], target, value)
            changed.append(target)
    else:
        if expecting == "amount" and "amount" not in found and "reason" in REQUIRED.get(p["action"], ()) \
                and not p["slots"].get("reason") and detect_action(text) is None:
            # "质量有问题" in answer to "how much?": the reason, given early — keep it, ask the amount once more
            early = extract_slots(text, "reason").get("reason")
            if early and not _BARE_NUM.search(text):
                found = {**found, "reason": early}
        for k, v in found.items():
            if k not in REQUIRED.get(p["action"], ()) and k not in ("order_id",):
                continue
            if k not in p["slots"] or k == expecting:
                set_slot(p["slots"], k, v)
                changed.append(k)
    if changed:
        p["last_filled"] = changed[-1]
    return p, changed


def next_missing(action: str, slots: Slots) -> str | None:
    for name in REQUIRED.get(action, ()):
        if cast(dict[str, Any], slots).get(name) in (None, ""):
            return name
    return None


QUESTIONS = {
    "order_id": ("请问是哪个订单？请告诉我订单号（例如 123）。", "Which order is it? Please tell me the order number (e.g. 123)."),
    "amount": ("要退款多少金额？（可以说“全额”）", "How much should be refunded? (you can say \"full\")"),
    "reason": ("请简单说明退款原因。", "Please tell me briefly why you want the refund."),
    "subject": ("请用一句话描述要反馈的问题。", "Please describe the problem in one sentence."),
    "ticket_id": ("请告诉我工单号（形如 TK-XXXXXXXXXX）。", "Please tell me the ticket number (like TK-XXXXXXXXXX)."),
    "request_id": ("要取消哪个申请？请告诉我工单号或退款单号（TK-… 或 RF-…）。",
                   "Which request should be cancelled? Please give the ticket or refund number (TK-… or RF-…)."),
}


AGAIN = {
    "order_id": ("还需要订单号，例如 123。", "I still need the order number, e.g. 123."),
    "amount": ("还需要退款金额：请回复数字（例如 50）或“全额”。", "I still need the amount: reply with a number (e.g. 50) or \"full\"."),
    "reason": ("还需要一句退款原因，例如“商品损坏”。", "I still need a short reason, e.g. \"damaged\"."),
    "subject": ("还需要一句话描述问题。", "I still need one sentence describing the problem."),
}


def question_again(slot: str, lang: str) -> str:
    """The same slot asked a second time: shorter, with an example, so the prompt never repeats verbatim."""
    zh, en = AGAIN.get(slot, QUESTIONS.get(slot, ("请补充信息。", "Please add the missing details.")))
    return zh if lang == "zh" else en


def question_for(slot: str, lang: str) -> str:
    zh, en = QUESTIONS.get(slot, ("请补充信息。", "Please add the missing details."))
    return zh if lang == "zh" else en
