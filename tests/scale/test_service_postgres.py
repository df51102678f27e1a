"""The service store and every scenario on PostgreSQL (app tables, checkpoints and store), each on
its own throw-away database so concurrent test runs never share rows."""

import pytest

pytestmark = pytest.mark.postgres

def test_store_rules_and_idempotency_on_postgres(pg_url, tmp_path):
    from knowzero.config import Settings
    from knowzero.errors import Conflict
    from knowzero.persistence.db import make_engine
    from knowzero.service.store import SqlStore, seed_demo

    store = SqlStore(make_engine(Settings(data_dir=tmp_path, database_url=pg_url).db_url))
    seed_demo(store)
    kw = dict(order_id="123", customer_id="alice", amount_cents=5000, reason="x", thread_id="t", requested_by="alice")
    a = store.create_refund(key="t:1:request_refund", status="executed", **kw)
    b = store.create_refund(key="t:1:request_refund", status="executed", **kw)
    assert a["id"] == b["id"] and len(store.refunds_for("123")) == 1
    with pytest.raises(Conflict):
        store.create_refund(key="t:2:request_refund", status="executed", **{**kw, "amount_cents": 28800})
    assert store.get_order("123")["items"][0]["sku"] == "XH-1001"


@pytest.mark.parametrize("name", [s["name"] for s in __import__("knowzero.eval.service", fromlist=["x"]).load_scenarios()])
async def test_scenarios_on_postgres(pg_url, tmp_path, name):
    from knowzero.eval.service import load_scenarios, run_scenario

    scenario = next(s for s in load_scenarios() if s["name"] == name)
    result = await run_scenario(scenario, tmp_path, database_url=pg_url)
    assert result["passed"], [f for t in result["turns"] for f in t["failures"]]
