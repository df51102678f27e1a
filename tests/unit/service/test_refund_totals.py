"""Finding 5: split refunds skip approval. The agent-approval threshold applies to totals, not to one
request: to what an order has been refunded in all (pending, approved and executed refunds, any age)
and to what one customer refunds within 24 hours (every order). Both thresholds are
``refund_agent_approval_above`` (¥500); the window is ``store.REFUND_WINDOW``. A refund that would
take a total over its threshold waits for an agent; the total refunded on an order never exceeds
what was paid. The decision is taken in the store's transaction (customer and order locked), so two
refunds at once cannot both slip under it — on SQLite and on PostgreSQL.

Demo data: alice's order 123 (delivered, ¥288), 125 (processing, ¥960); threshold ¥500.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import update

from knowzero.config import Settings
from knowzero.persistence.db import make_engine
from knowzero.service import store as store_mod
from knowzero.service.registry import ToolContext, run_tool
from knowzero.service.store import SqlStore, seed_demo
from knowzero.service.tables import svc_refunds
from kz_testlib import api_client, postgres_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def env(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[tuple[Settings, SqlStore]]:
    """The demo store on SQLite, or on a throw-away PostgreSQL database."""
    if request.param == "sqlite":
        settings = Settings(data_dir=tmp_path, database_url="")
        store = SqlStore(make_engine(settings.db_url))
        seed_demo(store, fixed_keys=True)
        yield settings, store
        store.engine.dispose()
        return
    admin = postgres_url()
    if admin is None:
        pytest.skip("PostgreSQL is not running at 127.0.0.1:5432")
    import psycopg

    name = f"kz_test_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    settings = Settings(data_dir=tmp_path, database_url=admin.rsplit("/", 1)[0] + "/" + name)
    store = SqlStore(make_engine(settings.db_url))
    try:
        seed_demo(store, fixed_keys=True)
        yield settings, store
    finally:
        store.engine.dispose()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_n = iter(range(10**6))


def refund(env: tuple[Settings, SqlStore], order_id: str, amount: float | str, who: str = "alice") -> dict[str, Any]:
    """The refund tool as the graph runs it after the customer confirmed (a fresh action each call)."""
    settings, store = env
    ctx = ToolContext(who, "customer", "t-totals", settings, store, store, "en", confirmed_by=who)
    return run_tool("request_refund", {"order_id": order_id, "amount": amount, "reason": "split",
                                       "idempotency_key": f"t-totals:{next(_n)}:request_refund"}, ctx)


def status(out: dict[str, Any]) -> str:
    assert out["ok"], out
    return str(out["refund"]["status"])


def refunded(store: SqlStore, order_id: str, statuses: tuple[str, ...] = ("pending", "approved", "executed")) -> int:
    return sum(r["amount_cents"] for r in store.refunds_for(order_id) if r["status"] in statuses)


def test_the_rule_comes_from_the_one_threshold_setting() -> None:
    from datetime import timedelta

    from knowzero.service.store import ApprovalRule

    rule = ApprovalRule.from_settings(Settings())
    assert (rule.order_above_cents, rule.customer_above_cents, rule.window) == (50000, 50000, timedelta(hours=24))
    rule = ApprovalRule.from_settings(Settings(refund_agent_approval_above=200))
    assert (rule.order_above_cents, rule.customer_above_cents) == (20000, 20000)
    assert rule.needs_agent(order_total_cents=20000, customer_window_cents=20000) is None  # "above": ¥200 itself is fine
    assert rule.needs_agent(order_total_cents=20001, customer_window_cents=0) == "order_total"
    assert rule.needs_agent(order_total_cents=100, customer_window_cents=20001) == "customer_window"


def test_two_halves_on_one_order_need_an_agent(env: tuple[Settings, SqlStore]) -> None:
    """The finding: ¥480 + ¥480 on order 125 (paid ¥960)."""
    assert status(refund(env, "125", 480)) == "executed"
    assert status(refund(env, "125", 480)) == "pending"  # executed before the fix


def test_three_small_refunds_on_one_order(env: tuple[Settings, SqlStore]) -> None:
    _, store = env
    assert status(refund(env, "125", 200)) == "executed"
    assert status(refund(env, "125", 200)) == "executed"  # ¥400 in all: under the threshold
    third = refund(env, "125", 200)
    assert status(third) == "pending"  # ¥600 in all
    done = store.decide_refund(third["refund"]["id"], status="executed", by="agent")
    assert done["status"] == "executed" and refunded(store, "125", ("executed",)) == 60000
    assert status(refund(env, "125", 100)) == "pending"  # the approved ¥200 still counts: ¥700 in all


def test_the_order_total_counts_refunds_of_any_age(env: tuple[Settings, SqlStore]) -> None:
    _, store = env
    first = refund(env, "125", 480)
    assert status(first) == "executed"
    with store.engine.begin() as conn:  # a month ago: outside the customer window, still on the order
        conn.execute(update(svc_refunds).where(svc_refunds.c.id == first["refund"]["id"])
                     .values(created_at=datetime.now(UTC).replace(tzinfo=None) - timedelta(days=30)))
    assert status(refund(env, "125", 100)) == "pending"


def test_refunds_on_two_orders_inside_the_window_need_an_agent(env: tuple[Settings, SqlStore]) -> None:
    assert status(refund(env, "125", 400)) == "executed"
    assert status(refund(env, "123", 150)) == "pending"  # ¥550 by alice today; executed before the fix


def test_refunds_outside_the_window_do_not_count_for_the_customer(env: tuple[Settings, SqlStore]) -> None:
    _, store = env
    first = refund(env, "125", 400)
    assert status(first) == "executed"
    with store.engine.begin() as conn:
        conn.execute(update(svc_refunds).where(svc_refunds.c.id == first["refund"]["id"])
                     .values(created_at=datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=25)))
    assert status(refund(env, "123", 150)) == "executed"


def test_a_pending_refund_counts_and_a_cancelled_one_does_not(env: tuple[Settings, SqlStore]) -> None:
    settings, store = env
    big = refund(env, "125", 600)
    assert status(big) == "pending"
    assert status(refund(env, "123", 20)) == "pending"  # ¥620 asked today, ¥600 of it awaiting an agent
    ctx = ToolContext("alice", "customer", "t-totals", settings, store, store, "en")
    for r in store.list_refunds(customer_id="alice", status="pending"):
        assert run_tool("cancel_request", {"request_id": r["id"]}, ctx)["ok"]
    assert status(refund(env, "123", 20)) == "executed"  # cancelled refunds count for nothing


def test_other_customers_are_not_counted(env: tuple[Settings, SqlStore]) -> None:
    assert status(refund(env, "125", 480)) == "executed"
    assert status(refund(env, "201", 480, who="bob")) == "executed"


def test_the_order_total_never_exceeds_what_was_paid(env: tuple[Settings, SqlStore]) -> None:
    _, store = env
    assert status(refund(env, "123", 200)) == "executed"
    over = refund(env, "123", 100)  # ¥88 left
    assert not over["ok"] and over["error"]["code"] in ("invalid_input", "conflict"), over
    assert status(refund(env, "123", 88)) == "executed"
    assert refunded(store, "123") == 28800 and store.get_order("123")["status"] == "refunded"
    assert not refund(env, "123", 1)["ok"]


# concurrency: the check and the insert are one step ------------------------------------------
@pytest.fixture()
def slow_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widen the gap between reading the refunds and writing the new one inside ``create_refund``:
    without a lock, two concurrent calls both read the totals before either writes."""
    check = store_mod.refund_problem

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.4)
        return check(*args, **kwargs)

    monkeypatch.setattr(store_mod, "refund_problem", slow)


def at_once(env: tuple[Settings, SqlStore], calls: list[tuple[str, float]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{} for _ in calls]
    start = threading.Barrier(len(calls))

    def run(i: int, order_id: str, amount: float) -> None:
        start.wait()
        out[i] = refund(env, order_id, amount)

    threads = [threading.Thread(target=run, args=(i, o, a)) for i, (o, a) in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return out


def test_two_halves_at_once_one_waits_for_an_agent(env: tuple[Settings, SqlStore], slow_check: None) -> None:
    out = at_once(env, [("125", 480), ("125", 480)])
    assert sorted(status(o) for o in out) == ["executed", "pending"]


def test_two_orders_at_once_one_waits_for_an_agent(env: tuple[Settings, SqlStore], slow_check: None) -> None:
    out = at_once(env, [("125", 280), ("123", 280)])  # different order rows: the customer is what is locked
    assert sorted(status(o) for o in out) == ["executed", "pending"]


def test_refunds_at_once_never_exceed_what_was_paid(env: tuple[Settings, SqlStore], slow_check: None) -> None:
    _, store = env
    out = at_once(env, [("125", 500), ("125", 500)])  # ¥1000 asked of ¥960 paid
    assert sorted(o["ok"] for o in out) == [False, True], out
    assert refunded(store, "125") <= 96000


def test_open_refunds_at_once_only_one_is_taken(env: tuple[Settings, SqlStore], slow_check: None) -> None:
    _, store = env
    out = at_once(env, [("125", 600), ("125", 600), ("125", 600)])
    assert sorted(o["ok"] for o in out) == [False, False, True], out
    assert refunded(store, "125") == 60000


# through the chat: the customer is told before confirming, and the thread waits for the agent ------
async def test_split_refund_through_the_chat_waits_for_an_agent(tmp_path: Any) -> None:
    alice = {"Authorization": "Bearer demo-alice"}

    async def chat(client: Any, thread: str, **body: Any) -> dict[str, Any]:
        r = await client.post("/v1/chat", json={"thread_id": thread, "stream": False, **body}, headers=alice)
        assert r.status_code == 200, r.text
        return r.json()

    async with api_client(tmp_path / "kz", demo_keys="1") as client:
        store = client.app.state.deps.need_store()
        from knowzero.service.identity import announce_keys

        announce_keys(store, fixed_keys=True, echo=lambda _line: None)
        first = await chat(client, "split-1", message="订单125退款480元，因为坏了")
        assert first["interrupted"] and "审批" not in first["reply"]
        done = await chat(client, "split-1", resume={"approved": True})
        assert not done["interrupted"] and "已执行" in done["reply"]

        second = await chat(client, "split-2", message="订单125退款480元，因为坏了")
        assert second["interrupted"] and "审批" in second["reply"], second["reply"]  # told before confirming
        waiting = await chat(client, "split-2", resume={"approved": True})
        assert waiting["interrupted"] and "审批" in waiting["reply"]
        assert [r["status"] for r in store.refunds_for("125")] == ["executed", "pending"]
        approvals = (await client.get("/v1/service/approvals", headers={"Authorization": "Bearer demo-agent"})).json()
        assert [a["order_id"] for a in approvals["refunds"]] == ["125"]
