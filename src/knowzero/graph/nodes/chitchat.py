"""Chitchat agent: a short friendly reply in the user's language that steers back to work.

Templates by default (data/replies.json); a configured LLM writes the reply instead, falling
back to the template when it fails.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.graph.trace import emit
from knowzero.llm.base import within_deadline
from knowzero.streaming import llm_fallback

_KINDS = [("greeting", re.compile(r"你好|您好|嗨|哈喽|早上好|晚上好|\bhi\b|\bhello\b|\bhey\b|good (morning|evening)", re.I)),
          ("thanks", re.compile(r"谢谢|多谢|感谢|thank", re.I)),
          ("bye", re.compile(r"再见|拜拜|回头见|\bbye\b|goodbye|see you", re.I)),
          ("identity", re.compile(r"你是谁|你叫什么|你是什么|who are you|what are you", re.I))]


@lru_cache(maxsize=1)
def _replies() -> dict[str, dict[str, list[str]]]:
    return json.loads(resources.files("knowzero.graph").joinpath("data/replies.json").read_text("utf-8"))


def is_chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def template_reply(text: str) -> str:
    kind = next((k for k, pat in _KINDS if pat.search(text)), "other")
    return _replies()[kind]["zh" if is_chinese(text) else "en"][0]


_FACTLIKE = re.compile(r"\d|[一二三四五六七八九十百千万]+(?:天|元|年|月|日|号|个|人|%)|¥|￥|@|https?://|www\.", re.I)
MAX_CHITCHAT_CHARS = 120


def unchecked_facts(reply: str) -> bool:
    """Chitchat is not checked against the documents, so it may not state facts: numbers, amounts,
    dates, contacts, links, or anything longer than a couple of sentences are refused."""
    return len(reply) > MAX_CHITCHAT_CHARS or bool(_FACTLIKE.search(reply))


async def reply_chitchat(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    text = state.get("question", "")
    deps = runtime.context
    log: dict[str, Any] = {"agent": "chitchat", "action": "template"}
    reply = template_reply(text)
    if deps.provider is not None:
        try:
            generated = (await within_deadline(deps.provider.chat, [
                {"role": "system", "content": "You are KnowZero, a knowledge and customer-service assistant. Reply in "
                 "one short sentence in the user's language, state no facts, then steer back to learning or service."},
                {"role": "user", "content": text}], max_tokens=60, deadline_s=deps.settings.llm_timeout_s)).strip()
            if unchecked_facts(generated):
                log = {"agent": "chitchat", "action": "template", "fallback": True,
                       "fallback_reason": "the model's reply stated facts that chitchat cannot check"}
                llm_fallback(emit, "chitchat", log["fallback_reason"], "a template reply")
            else:
                reply, log = generated, {"agent": "chitchat", "action": "generate"}
        except ProviderError as exc:
            log = {"agent": "chitchat", "action": "template", "fallback": True, "fallback_reason": exc.message}
            llm_fallback(emit, "chitchat", exc.message, "a template reply")
    return {"reply": reply.strip(), "agent_log": [log]}
