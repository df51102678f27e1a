"""Issue 25, finding 7: a model's exact quote that does not answer the question ("年假有几天？" →
"年假以半天为最小单位。") was `confirmed`, "100% of the question covered", with no `llm_fallback`. The
model's draft must answer as well as the offline draft by the same checks, or give way to it (flagged)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_llm_branch import ScriptedChat, passage_number

from kz_testlib import answer_dict, make_kb

# (question, a real line of the right document that does not answer it, what the answer must say)
NON_ANSWERS = [
    ("年假有几天？", "年假以半天为最小单位。", "5天"),
    ("婚假有几天？", "符合法定结婚年龄的员工依法登记结婚的", "13天"),
    ("每年有几天带薪病假？", "病假1天的，可在返岗后3个工作日内补交证明。", "5天"),
]


@pytest.fixture(scope="module")
def demo_kb(demo_data_dir: Path):  # type: ignore[no-untyped-def]
    return make_kb(demo_data_dir)


def quoting(quote: str):  # type: ignore[no-untyped-def]
    def reply(messages: list[dict[str, str]]) -> str:
        return json.dumps({"answer": quote, "claims": [{"text": quote, "passage": passage_number(messages, quote),
                                                        "quote": quote}]}, ensure_ascii=False)
    return reply


@pytest.mark.parametrize(("question", "quote", "answer"), NON_ANSWERS)
async def test_a_real_quote_that_does_not_answer_gives_way_to_the_offline_answer(demo_kb, question: str, quote: str,
                                                                               answer: str) -> None:
    out: dict[str, Any] = await answer_dict(question, demo_kb, provider=ScriptedChat([quoting(quote)]))
    reader = next(e for e in out["agent_log"] if e.get("agent") == "reader")
    assert reader.get("fallback") is True, reader  # the model's draft was not used, and the log says why
    assert reader["fallback_reason"].startswith("the model's quote does not answer the question")
    assert answer in out["reply"], out["reply"]
    main = out["citations"][0]["quote"] if out["citations"] else ""
    assert main != quote


async def test_the_models_quote_of_the_answer_is_still_used(demo_kb) -> None:
    quote = "员工累计工作已满1年不满10年的，年假5天；已满10年不满20年的，年假10天；已满20年的，年假15天。"
    out = await answer_dict("年假有几天？", demo_kb, provider=ScriptedChat([quoting(quote)]))
    reader = next(e for e in out["agent_log"] if e.get("agent") == "reader")
    assert reader["action"] == "generate" and not reader.get("fallback"), reader
    assert out["verdict"]["level"] == "confirmed"
