"""The thread topic that later pronouns resolve to."""

from knowzero.graph.nodes.intent import extract_topic, resolve_pronouns


def test_topic_from_a_learning_request_or_the_first_named_item() -> None:
    assert extract_topic("我想学习 LangGraph") == "LangGraph"
    assert extract_topic("零件A的公差是多少？") == "零件A"
    assert extract_topic("XH-1002的单价") == "XH-1002"
    assert extract_topic("年假有几天？") == ""


def test_pronouns_resolve_against_the_topic() -> None:
    assert resolve_pronouns("它的材料是什么？", "零件A") == "零件A的材料是什么？"
    assert resolve_pronouns("它和 AutoGen 比有什么优势？", "LangGraph") == "LangGraph和 AutoGen 比有什么优势？"
    assert resolve_pronouns("年假有几天？", "零件A") == "年假有几天？"
    assert resolve_pronouns("它的材料是什么？", "") == "它的材料是什么？"
