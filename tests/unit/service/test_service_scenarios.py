"""Every service scenario (service/data/scenarios.json) end to end through the real compiled graph
with the SQLite checkpointer and store, plus the CrossWOZ extractor on a tiny hand-made turn."""

import json

import pytest
from pydantic import TypeAdapter, ValidationError

from knowzero.eval.service import CrossWozExtractor, load_scenarios, run_scenario
from knowzero.service.state import ServiceState

SCENARIOS = load_scenarios()
SERVICE_STATE = TypeAdapter(ServiceState)
"""Strict, closed (``extra="forbid"``): a key the service code writes without declaring it fails."""


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
async def test_scenario(scenario, tmp_path):
    states: list[dict] = []
    result = await run_scenario(scenario, tmp_path, observe=lambda values: states.append(values.get("service")))
    failures = [f"turn {t['turn']} {t['say']!r}: {f}" for t in result["turns"] for f in t["failures"]]
    assert result["passed"], "\n".join(failures)
    assert len(states) == len(scenario["turns"])
    for i, svc in enumerate(states):  # the service state as the checkpoint gives it back, after every turn
        if svc is not None:
            try:
                SERVICE_STATE.validate_python(svc)
            except ValidationError as exc:
                pytest.fail(f"turn {i}: service state does not match service/state.py: {exc}")


def test_the_service_state_type_rejects_undeclared_keys_and_wrong_types():
    ok = {"pending": {"action": "request_refund", "slots": {"order_id": "123", "amount": "full"}, "stage": "collect",
                      "expecting": "reason", "seq": 1}, "handoff": None, "next": "", "announced": None, "lang": "zh"}
    SERVICE_STATE.validate_python(ok)
    for bad in ({**ok, "order_checked": "123"},  # a pending action's key at the wrong level
                {**ok, "pending": {**ok["pending"], "slots": {"order_id": 123}}},  # an int order id
                {**ok, "pending": {**ok["pending"], "stage": "waiting"}},
                {**ok, "handoff": {"id": "h1", "status": "open", "replies": 0, "customer_note": 1}}):
        with pytest.raises(ValidationError):
            SERVICE_STATE.validate_python(bad)


def test_scenarios_cover_the_issue():
    tags = {t for s in SCENARIOS for t in s["tags"]}
    for need in ("happy path", "missing slots", "slot correction", "context switch", "cancellation", "multi-skill",
                 "handoff", "authorization", "exactly once"):
        assert need in tags, need


def test_crosswoz_extractor_on_a_small_database(tmp_path):
    db = tmp_path / "database"
    db.mkdir()
    (db / "restaurant_db.json").write_text(json.dumps([["鲜鱼口老字号美食街", {"推荐菜": ["驴打滚", "老字号"]}]]), "utf-8")
    (db / "hotel_db.json").write_text(json.dumps([["北京饭店", {"酒店设施": ["叫醒服务"]}]]), "utf-8")
    ex = CrossWozExtractor(db)
    got = ex.extract("帮我找一家人均消费50-100元、评分4.5分以上、有驴打滚的餐馆，再订个有叫醒服务的经济型酒店")
    assert {("人均消费", "50-100元"), ("评分", "4.5分以上"), ("推荐菜", "驴打滚"), ("酒店类型", "经济型"),
            ("酒店设施-叫醒服务", "是")} <= got
    assert ("出发地", "北京饭店") in ex.extract("从北京饭店到鲜鱼口老字号美食街怎么走")
