"""The vocabulary (issue 26, "one vocabulary"): every table loads, every pattern matches its own
examples and none of its counter-examples, every message has both languages with the same
placeholders, and no module outside ``vocabulary/`` keeps its own order-id or hand-off pattern."""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path

import pytest

from knowzero.routing.signals import service_signals
from knowzero.service import slots, triage
from knowzero.vocabulary import service as vocab
from knowzero.vocabulary.tables import Message, table

SRC = Path(__file__).resolve().parents[3] / "src" / "knowzero"
TABLES = sorted(p.name.removesuffix(".toml") for p in resources.files("knowzero.vocabulary").joinpath("data").iterdir()
                if p.name.endswith(".toml"))


def test_the_data_files_are_the_tables() -> None:
    assert TABLES == ["complaints", "concise", "handoff", "ids", "questions", "rules_questions"]


@pytest.mark.parametrize("name", TABLES)
def test_each_table_loads_once_and_read_only(name: str) -> None:
    t = table(name)
    assert isinstance(t, Mapping) and t
    assert table(name) is t, "one read per process"
    with pytest.raises(TypeError):
        t["x"] = 1  # type: ignore[index]


ORDER = table("ids")["order"]
REQUEST = table("ids")["request"]
HANDOFF = table("handoff")["request"]
COMPLAINT = table("complaints")["complaint"]
RULES = table("rules_questions")["asks_rules"]


@pytest.mark.parametrize(("text", "order_id"), sorted(ORDER["examples"].items()))
def test_a_marked_order_number(text: str, order_id: str) -> None:
    m = vocab.ORDER_MARKED.search(text)
    assert m and m.group(1) == order_id
    assert service_signals(text).order_ids == (order_id,)
    got = slots.extract_slots(text).get("order_id")
    assert got is not None and got.upper() == order_id.upper()


@pytest.mark.parametrize("text", ORDER["not_examples"])
def test_no_order_number(text: str) -> None:
    assert not vocab.ORDER_MARKED.search(text) and not vocab.ORDER_IN_TASK.search(text)


@pytest.mark.parametrize(("text", "order_id"), sorted((ORDER["hashed_examples"] | ORDER["bare_examples"]).items()))
def test_a_hashed_or_bare_order_number(text: str, order_id: str) -> None:
    assert not vocab.ORDER_MARKED.search(text)
    m = vocab.ORDER_IN_TASK.search(text)
    assert m and next(g for g in m.groups() if g) == order_id
    if text in ORDER["hashed_examples"]:
        m = vocab.ORDER_HASHED.search(text)
        assert m and m.group(1) == order_id


def test_the_safe_mode_lookup_takes_the_leftmost_id() -> None:
    m = vocab.ORDER_IN_TASK.search("查 201 和订单 202")
    assert m and next(g for g in m.groups() if g) == "201"


@pytest.mark.parametrize("text", REQUEST["examples"])
def test_a_request_id(text: str) -> None:
    m = vocab.REQUEST_ID.search(text)
    assert m and re.fullmatch(vocab.REQUEST_ID_FULL, m.group(1))
    assert service_signals(text).request_ids == (m.group(1).upper(),)


@pytest.mark.parametrize("text", REQUEST["not_examples"])
def test_no_request_id(text: str) -> None:
    assert not vocab.REQUEST_ID.search(text) and not re.fullmatch(vocab.REQUEST_ID_FULL, text)


def test_ticket_ids_are_request_ids() -> None:
    assert re.fullmatch(vocab.TICKET_ID_FULL, "tk-0123456789")
    assert not re.fullmatch(vocab.TICKET_ID_FULL, "RF-0123456789")
    assert re.fullmatch(vocab.REQUEST_ID_FULL, "RF-0123456789")


@pytest.mark.parametrize("text", HANDOFF["examples"])
def test_asking_for_a_person(text: str) -> None:
    """Routing, slot filling and triage read the one pattern."""
    assert vocab.ASKS_FOR_PERSON.search(text)
    assert service_signals(text).human
    assert slots.detect_action(text) == "transfer_to_human"
    assert triage.assess(text).human_requested
    assert HANDOFF["typical"] in HANDOFF["examples"]


@pytest.mark.parametrize("text", HANDOFF["not_examples"])
def test_not_asking_for_a_person(text: str) -> None:
    assert not vocab.ASKS_FOR_PERSON.search(text) and not service_signals(text).human


@pytest.mark.parametrize("text", COMPLAINT["examples"])
def test_a_complaint(text: str) -> None:
    assert vocab.COMPLAINT.search(text) and service_signals(text).complaint


@pytest.mark.parametrize("text", COMPLAINT["not_examples"])
def test_not_a_complaint(text: str) -> None:
    assert not vocab.COMPLAINT.search(text) and not service_signals(text).complaint


@pytest.mark.parametrize("text", RULES["examples"])
def test_a_question_about_the_rules(text: str) -> None:
    assert vocab.ASKS_RULES.search(text) and service_signals(text).asks_rules
    assert slots.detect_action(text) is None


@pytest.mark.parametrize("text", RULES["not_examples"])
def test_not_a_question_about_the_rules(text: str) -> None:
    assert not vocab.ASKS_RULES.search(text)


def _fields(text: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(text) if f}


@pytest.mark.parametrize("key", sorted(table("handoff")["messages"]))
def test_each_message_in_both_languages(key: str) -> None:
    m = Message.of(table("handoff")["messages"][key])
    assert m.zh.strip() and m.en.strip()
    assert _fields(m.zh) == _fields(m.en), "both languages fill the same placeholders"


def test_messages_as_the_customer_sees_them() -> None:
    assert vocab.AGENT_REPLY.say(True, name="王客服", text="您好") == "【人工客服 王客服】您好"
    assert vocab.AGENT_REPLY.say(False, name="Ann", text="{hi}") == "[Agent Ann] {hi}"
    assert vocab.HANDOFF_TRANSFERRED.say(True, id="HO-1", urgency="P1").startswith("已为您转接人工客服（转接单 HO-1，P1）")
    zh, en = vocab.SERVICE_HELP  # a (zh, en) pair wherever one was
    assert "转人工" in zh and "human agent" in en


# --- one owner --------------------------------------------------------------------------------------

_REGEX_CALLS = {"compile", "search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split"}


def _literal_patterns(path: Path) -> Iterator[tuple[int, str]]:
    """The first argument of every ``re.<call>(…)`` in a file that is a string known from the source
    (constants, ``+`` of constants, module-level names bound to those)."""
    tree = ast.parse(path.read_text("utf-8"))
    names: dict[str, str] = {}

    def value(node: ast.AST) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = value(node.left), value(node.right)
            return a + b if a is not None and b is not None else None
        if isinstance(node, ast.Name):
            return names.get(node.id)
        return None

    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            v = value(node.value)
            if v is not None:
                names[node.targets[0].id] = v
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _REGEX_CALLS \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re" and node.args:
            v = value(node.args[0])
            if v is not None:
                yield node.lineno, v


def _patterns_outside_vocabulary() -> Iterator[tuple[str, re.Pattern[str]]]:
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("vocabulary/") or "vendor" in path.parts:
            continue
        for line, text in _literal_patterns(path):
            try:
                yield f"{rel}:{line}", re.compile(text, re.I)
            except re.error:
                continue


def _captures(p: re.Pattern[str], text: str, wanted: str) -> bool:
    return any(wanted in (g or "") for m in p.finditer(text) for g in (m.group(0), *m.groups()))


def test_the_one_owner_finder_sees_an_order_id_pattern() -> None:
    """The probe below flags the three copies this package replaced (signals, slots, react)."""
    old = [r"(?:订单|单号|订单号|\border)\s*(?:号|编号|number|no\.?|id)?\s*(?:是|为|:|：|#)?\s*#?\s*([A-Za-z]{0,3}\d{2,12})",
           r"(?:订单|单号|订单号|order)\s*(?:号|编号|number|no\.?|id)?\s*(?:是|为|:|：|#)?\s*#?\s*([A-Za-z]{0,4}-?\d{2,12})",
           r"(?:订单|order)\s*#?\s*([A-Za-z0-9\-]{2,20})|#([0-9]{2,12})|\b([0-9]{3,12})\b"]
    assert all(_order_id_pattern(re.compile(p, re.I)) for p in old)
    assert not _order_id_pattern(re.compile(r"(?<![\d.])(\d{2,12})(?![\d.])"))  # a bare number is not one
    assert not _order_id_pattern(re.compile(r"\b([A-Z]{2}-?\d{3,5})\b", re.I))  # a product code is not one


_ORDER_PROBES = (("订单号：AB1234", "型号：AB1234"), ("order AB1234", "model AB1234"), ("订单 AB1234", "型号 AB1234"))


def _order_id_pattern(p: re.Pattern[str]) -> bool:
    """Finds an id because an order marker stands before it (and not without the marker)."""
    return any(_captures(p, marked, "AB1234") and not _captures(p, plain, "AB1234") for marked, plain in _ORDER_PROBES)


def test_no_module_outside_the_vocabulary_has_its_own_order_id_pattern() -> None:
    own = [where for where, p in _patterns_outside_vocabulary() if _order_id_pattern(p)]
    assert not own, f"use knowzero.vocabulary.service (ORDER_MARKED, ORDER_HASHED, ORDER_IN_TASK): {own}"


def test_no_module_outside_the_vocabulary_has_its_own_handoff_pattern() -> None:
    neutral = ("零件A的公差是多少？", "what is the tolerance of part A", "我的订单124到哪了？", "好的谢谢", "thanks for your help")
    own = [where for where, p in _patterns_outside_vocabulary()
           if sum(bool(p.search(t)) for t in HANDOFF["examples"]) >= 2 and not any(p.search(t) for t in neutral)]
    assert not own, f"use knowzero.vocabulary.service.ASKS_FOR_PERSON: {own}"
