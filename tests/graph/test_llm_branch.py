"""The knowledge graph's LLM reader branch, driven by a scripted fake chat model.

A valid answer quoting a passage is used (method ``llm``); a claim whose quote was invented is
dropped (and the log says so); an answer with nothing usable falls back to the extractive reader,
flagged ``fallback: True`` in the agent log.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from knowzero.errors import ProviderError
from kz_testlib import answer_dict
from kz_testlib import build_small_kb as build_kb  # noqa: E402

QUESTION = "零件A的外圆公差是多少？"
QUOTE = "零件A的外圆公差为±0.01mm"

Reply = str | BaseException | Callable[[list[dict[str, str]]], str]


class ScriptedChat:
    """Implements ``chat``: each call returns the next scripted reply (a string, an exception to
    raise, or a function of the messages). Domain-routing calls get a fixed answer."""

    name = "scripted"

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = list(replies)
        self.prompts: list[list[dict[str, str]]] = []

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        if json_schema and "domain" in (json_schema.get("required") or []):
            return '{"domain": "technical"}'
        if json_schema and "label" in (json_schema.get("required") or []):  # the fact checker's LLM judge
            return '{"label": "supported", "reason": "quoted"}'
        self.prompts.append(messages)
        if not self.replies:
            raise ProviderError("script exhausted")
        r = self.replies.pop(0)
        if isinstance(r, BaseException):
            raise r
        return r(messages) if callable(r) else r


def passage_number(messages: list[dict[str, str]], needle: str) -> int:
    """The [n] of the passage in the prompt that contains ``needle``."""
    blocks = re.split(r"\n\n(?=\[\d+\] )", messages[-1]["content"])
    for b in blocks:
        m = re.search(r"\[(\d+)\] ", b)
        if m and needle in b:
            return int(m.group(1))
    raise AssertionError(f"{needle!r} is in no passage of the prompt")


def answer_with(claims: list[tuple[str, str]], answer: str = "零件A的外圆公差为±0.01mm。") -> Callable[..., str]:
    """A reply citing, for each (quote, passage-finder needle), the passage that holds the needle."""
    def reply(messages: list[dict[str, str]]) -> str:
        return json.dumps({"answer": answer, "claims": [
            {"text": q, "passage": passage_number(messages, needle), "quote": q} for q, needle in claims]},
            ensure_ascii=False)
    return reply


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_kb(tmp_path_factory.mktemp("llm-branch") / "kz")


async def ask(kb, provider) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return await answer_dict(QUESTION, kb, provider=provider)


def reader_entry(out: dict[str, Any]) -> dict[str, Any]:
    entries = [e for e in out["agent_log"] if e.get("agent") == "reader"]
    assert len(entries) == 1, out["agent_log"]
    return entries[0]


def resolves(kb, c: dict[str, Any]) -> bool:  # type: ignore[no-untyped-def]
    return kb.file_texts[c["source"]][c["start"]:c["end"]] == c["quote"]


async def test_valid_json_with_a_real_quote_is_used(kb) -> None:  # type: ignore[no-untyped-def]
    chat = ScriptedChat([answer_with([(QUOTE, QUOTE)])])
    out = await ask(kb, chat)
    log = reader_entry(out)
    assert log["action"] == "generate" and log["provider"] == "scripted" and not log.get("fallback")
    assert log["claims"] == 1 and log["notes"] == []
    assert len(chat.prompts) == 1 and "零件A" in chat.prompts[0][-1]["content"]
    assert [c["quote"] for c in out["citations"]] == [QUOTE]
    c = out["citations"][0]
    assert "零件A" in c["source"] and resolves(kb, c)
    assert "±0.01mm" in out["reply"]


async def test_a_claim_with_an_invented_quote_is_dropped(kb) -> None:  # type: ignore[no-untyped-def]
    invented = "零件A的外圆公差为±0.02mm，需每周复检"  # not in any passage
    chat = ScriptedChat([answer_with([(QUOTE, QUOTE), (invented, QUOTE)])])
    out = await ask(kb, chat)
    log = reader_entry(out)
    assert log["action"] == "generate" and log["claims"] == 1
    assert any("dropped 1 claim" in n for n in log["notes"])
    quotes = [c["quote"] for c in out["citations"]]
    assert quotes == [QUOTE] and invented not in quotes
    assert all(resolves(kb, c) for c in out["citations"])


async def test_a_claim_citing_a_passage_that_does_not_exist_is_dropped(kb) -> None:  # type: ignore[no-untyped-def]
    chat = ScriptedChat([json.dumps({"answer": "±0.01mm", "claims": [{"text": "x", "passage": 99, "quote": QUOTE}]},
                                    ensure_ascii=False)])
    out = await ask(kb, chat)
    log = reader_entry(out)
    assert log["fallback"] is True and log["action"] == "extract"


@pytest.mark.parametrize("reply", [
    "零件A的公差是±0.01mm",                                   # prose, not JSON
    '{"answer": "±0.01mm"}',                                   # JSON without the required claims
    '{"answer": "±0.01mm", "claims": [{"text": "t", "passage": 1, "quote": "完全编造的一句话"}]}',  # only invented quotes
    '{"answer": "", "claims": []}',                            # the model says it does not know
    '["not", "an", "object"]',
    ProviderError("the language model timed out"),
], ids=["prose", "missing-claims", "invented-only", "empty", "array", "provider-error"])
async def test_nothing_usable_falls_back_to_the_extractive_reader(kb, reply: Reply) -> None:  # type: ignore[no-untyped-def]
    out = await ask(kb, ScriptedChat([reply]))
    log = reader_entry(out)
    assert log["action"] == "extract" and log["fallback"] is True and log["fallback_reason"]
    assert log["claims"] >= 1
    # the extractive answer is the real one, cited verbatim from part A's document
    assert out["citations"] and all(resolves(kb, c) for c in out["citations"])
    assert "零件A" in out["citations"][0]["source"] and "±0.01mm" in out["citations"][0]["quote"]


async def test_without_a_provider_there_is_no_llm_call_and_no_fallback_flag(kb) -> None:  # type: ignore[no-untyped-def]
    out = await ask(kb, None)
    log = reader_entry(out)
    assert log["action"] == "extract" and "fallback" not in log


MIXED_DOCS = {"technical/零件A-零件B公差对照.md": "# 零件A（XH-1001）与零件B（XH-1002）公差对照\n\n## 外圆公差\n\n零件A（XH-1001）的外圆公差为±0.01mm，须用三坐标测量。"
                                       "零件B（XH-1002，公差±0.05mm）用于导向，可用通用量具。\n"}


@pytest.fixture(scope="module")
def mixed_kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return build_kb(tmp_path_factory.mktemp("llm-mixed") / "kz", MIXED_DOCS)


async def test_a_claim_about_one_part_citing_a_quote_about_another_is_never_confirmed(mixed_kb) -> None:  # type: ignore[no-untyped-def]
    """The self-review's lie: "零件A的公差为±0.05mm" quoting part B's sentence, with the model's own judge
    saying "supported". Every word and number of the claim is in the document; the quote is about B."""
    lie, quote = "零件A的外圆公差为±0.05mm", "零件B（XH-1002，公差±0.05mm）"

    def reply(messages: list[dict[str, str]]) -> str:
        return json.dumps({"answer": lie, "claims": [{"text": lie, "passage": passage_number(messages, quote),
                                                      "quote": quote}]}, ensure_ascii=False)

    out = await answer_dict(QUESTION, mixed_kb, provider=ScriptedChat([reply]))
    assert out["verdict"] != "confirmed", out
    assert lie not in out["reply"]  # the model's sentence is replaced by the source's own words
