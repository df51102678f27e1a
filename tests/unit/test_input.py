"""AgentInput validation: every source with its required fields; errors name the field."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from knowzero.config import Settings
from knowzero.input import AgentInput, accept_language, message_language

SETTINGS = Settings(max_message_chars=50)


def test_minimal_chat_is_valid_and_defaults() -> None:
    inp = AgentInput.model_validate({"source": "chat", "message": "你好"})
    assert inp.thread_id is None and inp.stream is True and inp.text() == "你好"
    assert AgentInput.model_validate({"message": "hi"}).source == "chat"


@pytest.mark.parametrize(("body", "text"), [
    ({"source": "comment", "comment": {"selected_text": "主轴预热", "comment": "举个例子"}}, "举个例子"),
    ({"source": "entity", "entity": "LangGraph"}, "LangGraph"),
    ({"source": "follow_up", "message": "它和 AutoGen 比呢？", "intent_hint": "comparison"}, "它和 AutoGen 比呢？"),
    ({"source": "entry", "topic": "CNC 维护"}, "CNC 维护"),
    ({"source": "entry", "message": " 数控编程 "}, "数控编程"),
])
def test_every_source(body: dict, text: str) -> None:
    assert AgentInput.model_validate(body).text() == text


def field_of(body: dict) -> str:
    with pytest.raises(ValidationError) as info:
        AgentInput.at_edge(body, SETTINGS)
    errors = info.value.errors()
    locs = [".".join(str(p) for p in e["loc"]) for e in errors]
    msgs = [str(e["msg"]) for e in errors]
    return " ".join(locs + msgs)


@pytest.mark.parametrize(("body", "field"), [
    ({"source": "fax", "message": "hi"}, "source"),
    ({"source": "chat", "message": ""}, "message"),
    ({"source": "chat", "message": "   "}, "message"),
    ({"source": "chat", "message": "长" * 51}, "message: longer than 50"),
    ({"source": "comment", "message": "x"}, "comment"),
    ({"source": "comment", "comment": {"selected_text": "", "comment": "x"}}, "comment.selected_text"),
    ({"source": "comment", "comment": {"comment": "x"}}, "comment.selected_text"),
    ({"source": "entity"}, "entity"),
    ({"source": "follow_up", "message": ""}, "message"),
    ({"source": "entry"}, "topic"),
    ({"message": "hi", "thread_id": "../../etc"}, "thread_id"),
    ({"message": "hi", "unexpected": 1}, "unexpected"),
    ({"message": "hi", "user_level": "guru"}, "user_level"),
])
def test_invalid_inputs_name_the_field(body: dict, field: str) -> None:
    assert field in field_of(body)


def test_message_limit_is_configurable() -> None:
    AgentInput.model_validate({"message": "长" * 50})


def test_resume_needs_no_message() -> None:
    inp = AgentInput.model_validate({"thread_id": "t1", "resume": {"approved": True}})
    assert inp.resume == {"approved": True}


def test_the_uis_language_comes_from_accept_language_unless_the_body_gives_it() -> None:
    assert [accept_language(h) for h in ("zh-CN,zh;q=0.9", "en", "zh-TW", "fr-FR,fr;q=0.9,en;q=0.8,zh;q=0.7",
                                         "en;q=0,zh;q=0.1", "de", "*", "", None)] == \
        ["zh", "en", "zh", "en", "zh", None, None, None, None]
    s = Settings()
    assert AgentInput.at_edge({"message": "XH-1001?"}, s, accept_language_header="zh-CN,zh;q=0.9").ui_language == "zh"
    assert AgentInput.at_edge({"message": "x", "ui_language": "en"}, s, accept_language_header="zh").ui_language == "en"
    assert AgentInput.at_edge({"message": "x"}, s, accept_language_header="de").ui_language is None
    # a language of the message's own wins; a part, order or ticket number has none
    assert [message_language(t) for t in ("XH-1001?", "123", "#125", "0.01mm?", "TK-0123456789", "订单125", "ok", "A4")] == \
        [None, None, None, None, None, "zh", "en", None]
    inp = AgentInput.at_edge({"message": "XH-1001?"}, s, accept_language_header="en")
    assert inp.reply_language() == "en" and inp.reply_language("零件A") == "zh"
    assert AgentInput.at_edge({"message": "XH-1001?"}, s).reply_language() == "zh"  # no UI: the default
