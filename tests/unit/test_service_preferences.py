"""Long-term preferences: explicit detection, the LangGraph store round trip, shaping replies."""

from langgraph.store.memory import InMemoryStore

from knowzero.preferences import (
    acknowledgement,
    apply_preferences,
    detect_preferences,
    forget,
    get_preferences,
    remember,
    reply_language,
)


def test_detect_explicit_preferences_only():
    assert detect_preferences("以后回答简短一点") == {"length": "short"}
    assert detect_preferences("reply in English please") == {"language": "en"}
    assert detect_preferences("我叫小王，我是一名工艺工程师")["facts"] == {"name": "小王", "role": "工艺工程师"}
    assert detect_preferences("I'm a beginner")["facts"] == {"level": "beginner"}
    assert detect_preferences("订单123到哪了") == {}


async def test_store_round_trip_and_delete():
    store = InMemoryStore()
    await remember(store, "alice", {"length": "short", "facts": {"name": "小王"}})
    await remember(store, "alice", {"language": "en"})
    prefs = await get_preferences(store, "alice")
    assert prefs == {"length": "short", "language": "en", "facts": {"name": "小王"}}
    assert await get_preferences(store, "bob") == {}
    assert "length" not in await forget(store, "alice", "length")
    assert (await forget(store, "alice", "facts.name"))["facts"] == {}
    assert await forget(store, "alice") == {} and await get_preferences(store, "alice") == {}
    await remember(store, "anonymous", {"length": "short"})
    assert await get_preferences(store, "anonymous") == {}


def test_apply_and_language():
    long = "第一句。第二句。第三句。第四句。"
    assert apply_preferences(long, {"length": "short"}) == "第一句。第二句。"
    assert apply_preferences(long, {}) == long
    assert reply_language({"language": "en"}, "订单") == "en" and reply_language({}, "123", "zh") == "zh"
    assert "English" in acknowledgement({"language": "en"}, "en")
