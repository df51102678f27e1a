"""Issue 33, deliver 3: slot filling that listens. An order id given where a description was asked is
kept as the ticket's order, the description is asked again in other words, and the complaint that
follows goes into the ticket (it used to become "订单124", and the complaint got a knowledge answer)."""

from __future__ import annotations

from test_service_api import api, chat  # noqa: F401  (fixture)


async def test_an_order_id_where_a_description_was_asked_is_the_order_not_the_description(api) -> None:  # noqa: F811
    first = await chat(api, "alice", "tk-slots-1", "帮我开个工单")
    asked = first["reply"]
    assert "描述" in asked
    second = await chat(api, "alice", "tk-slots-1", "订单124")
    assert second["path"] == "service", second["path"]
    assert "描述" in second["reply"] and second["reply"] != asked  # asked again, in other words
    third = await chat(api, "alice", "tk-slots-1", "收到的电机轴外壳有裂纹，没法装配")
    assert third["path"] == "service", third["reply"]
    tickets = (await api.get("/v1/me/tickets", headers={"Authorization": "Bearer demo-alice"})).json()["tickets"]
    assert tickets, third["reply"]
    t = tickets[0]
    assert "裂纹" in t["subject"] + t.get("body", "")
    assert t.get("order_id") == "124"
