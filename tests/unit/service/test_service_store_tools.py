"""Store (money rules, idempotency, guarded transitions, seeding, identity) and tools (authorization
for every tool, malformed arguments, unknown ids)."""

from typing import NamedTuple

import pytest

from knowzero.config import Settings
from knowzero.errors import Conflict, Unauthorized
from knowzero.persistence.db import make_engine
from knowzero.service.identity import parse_authorization, user_for_token
from knowzero.service.registry import ToolContext, list_tools, run_tool
from knowzero.service.store import OrderSystem, SqlStore, refund_problem, seed_demo


class Env(NamedTuple):
    settings: Settings
    store: SqlStore


@pytest.fixture()
def env(tmp_path):
    s = Settings(data_dir=tmp_path, database_url="")
    store = SqlStore(make_engine(s.db_url))
    seed_demo(store, fixed_keys=True)
    return Env(s, store), store


def ctx(s, user="alice", role="customer", **changes):
    return ToolContext(user, role, "thread-1", s.settings, s.store, s.store, "zh", **changes)


def test_seed_is_idempotent_and_keys_resolve(env):
    s, store = env
    assert seed_demo(store) == []  # second run issues nothing, inserts nothing
    assert len(store.list_orders("alice")) == 4 and len(store.list_orders("bob")) == 2
    assert user_for_token("demo-agent", s.store).role == "agent"
    assert user_for_token(None, s.store).role == "anonymous"
    with pytest.raises(Unauthorized):
        user_for_token("nope", s.store)
    assert parse_authorization("Bearer abc") == "abc" and parse_authorization(None, "k") == "k"
    assert isinstance(store, OrderSystem)


def test_random_keys_on_first_start(tmp_path):
    s = Env(Settings(data_dir=tmp_path, database_url=""), None)
    s = s._replace(store=SqlStore(make_engine(s.settings.db_url)))
    issued = seed_demo(s.store)
    assert {k["user_id"] for k in issued} == {"alice", "bob", "agent", "editor", "admin"}
    assert user_for_token(issued[0]["api_key"], s.store).id == issued[0]["user_id"]
    assert seed_demo(s.store) == []


def test_money_rules_pure():
    order = {"id": "1", "status": "delivered", "paid_cents": 1000}
    assert refund_problem(order, 1000, []) is None
    assert refund_problem(order, 1001, [])[0] == "amount_too_high"
    assert refund_problem(order, 0, [])[0] == "invalid_amount"
    assert refund_problem({**order, "status": "shipped"}, 10, [])[0] == "not_refundable"
    open_ = [{"idempotency_key": "k1", "status": "pending", "amount_cents": 10}]
    assert refund_problem(order, 10, open_)[0] == "refund_open"
    assert refund_problem(order, 10, open_, key="k1") is None  # re-checking the same action
    done = [{"idempotency_key": "k1", "status": "executed", "amount_cents": 900}]
    assert refund_problem(order, 200, done)[0] == "amount_too_high"


def test_refund_exactly_once_and_guarded_transitions(env):
    s, store = env
    kw = dict(order_id="123", customer_id="alice", amount_cents=5000, reason="x", thread_id="t", requested_by="alice")
    r1 = store.create_refund(key="t:1:request_refund", status="pending", **kw)
    r2 = store.create_refund(key="t:1:request_refund", status="pending", **kw)
    assert r1["id"] == r2["id"] and len(store.refunds_for("123")) == 1
    with pytest.raises(Conflict):  # one open refund per order
        store.create_refund(key="t:2:request_refund", status="pending", **kw)
    assert store.decide_refund(r1["id"], status="approved", by="agent")["status"] == "approved"
    assert store.decide_refund(r1["id"], status="executed", by="agent")["status"] == "executed"
    assert store.decide_refund(r1["id"], status="rejected", by="agent")["status"] == "executed"  # too late: no change
    assert store.decide_refund(r1["id"], status="executed", by="agent")["status"] == "executed"  # replay: no change


def test_every_tool_requires_sign_in_except_handoff(env):
    s, _ = env
    anon = ToolContext("anonymous", "anonymous", "t", s.settings, s.store, s.store)
    names = {t.name for t in list_tools()}
    assert {"get_order_status", "list_my_orders", "request_refund", "create_ticket", "get_ticket", "cancel_request",
            "transfer_to_human"} <= names
    for name in names - {"transfer_to_human"}:
        assert run_tool(name, {}, anon)["error"]["code"] == "unauthorized", name
    out = run_tool("transfer_to_human", {"reason": "help", "idempotency_key": "t:1:transfer_to_human"}, anon)
    assert out["ok"]


def test_orders_only_for_their_owner_no_existence_leak(env):
    s, _ = env
    mine = run_tool("get_order_status", {"order_id": "123"}, ctx(s))
    assert mine["ok"] and mine["order"]["id"] == "123"
    other = run_tool("get_order_status", {"order_id": "123"}, ctx(s, "bob"))
    missing = run_tool("get_order_status", {"order_id": "999"}, ctx(s, "bob"))
    assert other["error"]["code"] == missing["error"]["code"] == "not_found"
    assert other["error"]["message"].replace("123", "X") == missing["error"]["message"].replace("999", "X")
    assert run_tool("get_order_status", {"order_id": "123"}, ctx(s, "agent", "agent"))["ok"]  # agents see queues
    assert [o["id"] for o in run_tool("list_my_orders", {}, ctx(s, "bob"))["orders"]] == ["201", "200"]


def test_refund_tool_needs_confirmation_and_ownership(env):
    s, store = env
    args = {"order_id": "123", "amount": 50, "reason": "坏了", "idempotency_key": "t:1:request_refund"}
    assert run_tool("request_refund", args, ctx(s))["error"]["code"] == "needs_confirmation"
    assert run_tool("request_refund", args, ctx(s, "bob", confirmed_by="bob"))["error"]["code"] == "not_found"
    ok = run_tool("request_refund", args, ctx(s, confirmed_by="alice"))
    again = run_tool("request_refund", args, ctx(s, confirmed_by="alice"))
    assert ok["refund"]["status"] == "executed" and again["refund"]["id"] == ok["refund"]["id"]
    assert len(store.refunds_for("123")) == 1
    big = {"order_id": "125", "amount": "full", "reason": "不要了", "idempotency_key": "t:2:request_refund"}
    assert run_tool("request_refund", big, ctx(s, confirmed_by="alice"))["refund"]["status"] == "pending"  # > 500


@pytest.mark.parametrize(("name", "args", "code"), [
    ("get_order_status", {}, "invalid_arguments"),
    ("get_order_status", {"order_id": "12 3; drop"}, "invalid_arguments"),
    ("get_order_status", {"order_id": "123", "extra": 1}, "invalid_arguments"),
    ("request_refund", {"order_id": "123", "amount": "lots", "reason": "x", "idempotency_key": "k" * 10}, "invalid_arguments"),
    ("request_refund", {"order_id": "123", "amount": -5, "reason": "x", "idempotency_key": "k" * 10}, "invalid_input"),
    ("create_ticket", {"subject": "", "idempotency_key": "k" * 10}, "invalid_arguments"),
    ("get_ticket", {"ticket_id": "123"}, "invalid_arguments"),
    ("get_ticket", {"ticket_id": "TK-0000000000"}, "not_found"),
    ("cancel_request", {"request_id": "RF-0000000000"}, "not_found"),
    ("cancel_request", {"request_id": "XX-1"}, "invalid_arguments"),
    ("nope", {}, "unknown_tool"),
])
def test_malformed_arguments_get_clear_errors(env, name, args, code):
    s, _ = env
    out = run_tool(name, args, ctx(s, confirmed_by="alice"))  # confirmed: the arguments themselves are wrong
    assert out["ok"] is False and out["error"]["code"] == code and out["error"]["message"]


def test_tickets_and_cancel_only_own(env):
    s, store = env
    t = run_tool("create_ticket", {"subject": "发票抬头错了", "order_id": "123", "idempotency_key": "t:1:create_ticket"}, ctx(s))
    tid = t["ticket"]["id"]
    assert run_tool("create_ticket", {"subject": "发票抬头错了", "idempotency_key": "t:1:create_ticket"}, ctx(s))["ticket"]["id"] == tid
    assert run_tool("create_ticket", {"subject": "x y", "order_id": "123", "idempotency_key": "t:9:create_ticket"},
                    ctx(s, "bob"))["error"]["code"] == "not_found"
    assert run_tool("get_ticket", {"ticket_id": tid}, ctx(s, "bob"))["error"]["code"] == "not_found"
    assert run_tool("cancel_request", {"request_id": tid}, ctx(s, "bob"))["error"]["code"] == "not_found"
    assert run_tool("get_ticket", {"ticket_id": tid}, ctx(s, "agent", "agent"))["ok"]
    assert run_tool("cancel_request", {"request_id": tid}, ctx(s))["ticket"]["status"] == "cancelled"
    assert run_tool("cancel_request", {"request_id": tid}, ctx(s))["error"]["code"] == "invalid_input"


def test_review_queue(env):
    _, store = env
    a = store.enqueue_review(thread_id="t", user_id="alice", question="q", answer="a", verdict="uncertain", evidence=[])
    b = store.enqueue_review(thread_id="t", user_id="alice", question="q", answer="a", verdict="uncertain", evidence=[])
    assert a["id"] == b["id"] and len(store.list_reviews()) == 1
    assert store.decide_review(a["id"], status="edited", by="agent", edited_answer="better")["status"] == "edited"
    assert store.list_reviews() == []


def test_the_registry_runs_no_sensitive_tool_without_the_callers_confirmation(env):
    s, _ = env
    sensitive = [t for t in list_tools() if t.sensitive]
    assert sensitive, "request_refund at least"
    args = {"order_id": "123", "amount": 10, "reason": "坏了", "idempotency_key": "t:9:request_refund"}
    for spec in sensitive:
        for c in (ctx(s), ctx(s, confirmed_by="bob"), ctx(s, "agent", "agent")):
            out = run_tool(spec.name, args, c)
            assert out["ok"] is False and out["error"]["code"] == "needs_confirmation", (spec.name, out)
    assert s.store.refunds_for("123") == [], "nothing was created"
