"""Chitchat agent: a short friendly reply in the user's language that steers back to work.

Templates by default (data/replies.json); a configured LLM writes the reply instead, falling
back to the template when it fails.
"""

from __future__ import annotations

import asyncio
import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps

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


async def reply_chitchat(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    text = state.get("question", "")
    provider = runtime.context.provider
    log: dict[str, Any] = {"agent": "chitchat", "action": "template"}
    reply = template_reply(text)
    if provider is not None:
        try:
            reply = await asyncio.to_thread(provider.chat, [
                {"role": "system", "content": "You are KnowZero, a knowledge and customer-service assistant. Reply in "
                 "one or two short sentences in the user's language, then steer back to learning or service."},
                {"role": "user", "content": text}], max_tokens=80)
            log = {"agent": "chitchat", "action": "generate"}
        except ProviderError as exc:
            log = {"agent": "chitchat", "action": "template", "fallback": True, "fallback_reason": exc.message}
    return {"reply": reply.strip(), "agent_log": [log]}
