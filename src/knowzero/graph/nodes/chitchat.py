"""Chitchat agent: a short friendly reply in the user's language that steers back to work.

Templates by default (data/replies.json); a configured LLM writes the reply instead, falling
back to the template when it fails.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.graph.state import AgentLogEntry, State
from knowzero.graph.trace import emit, ui_language_of
from knowzero.input import message_language
from knowzero.llm.base import StreamingProvider, stream_within_deadline, within_deadline
from knowzero.streaming import llm_fallback

_KINDS = [("greeting", re.compile(r"你好|您好|嗨|哈喽|早上好|晚上好|\bhi\b|\bhello\b|\bhey\b|good (morning|evening)", re.I)),
          ("thanks", re.compile(r"谢谢|多谢|感谢|thank", re.I)),
          ("bye", re.compile(r"再见|拜拜|回头见|\bbye\b|goodbye|see you", re.I)),
          ("identity", re.compile(r"你是谁|你叫什么|你是什么|who are you|what are you", re.I))]


@lru_cache(maxsize=1)
def _replies() -> dict[str, dict[str, list[str]]]:
    return json.loads(resources.files("knowzero.graph").joinpath("data/replies.json").read_text("utf-8"))


def template_reply(text: str, ui: str | None = None) -> str:
    """The template for ``text``'s kind, in its language; a message without one ("123") in the UI's
    (``ui``), else English as before."""
    kind = next((k for k, pat in _KINDS if pat.search(text)), "other")
    return _replies()[kind]["zh" if (message_language(text) or ui) == "zh" else "en"][0]


_FACTLIKE = re.compile(r"\d|[一二三四五六七八九十百千万]+(?:天|元|年|月|日|号|个|人|%)|¥|￥|@|https?://|www\.", re.I)
MAX_CHITCHAT_CHARS = 120


def unchecked_facts(reply: str) -> bool:
    """Chitchat is not checked against the documents, so it may not state facts: numbers, amounts,
    dates, contacts, links, or anything longer than a couple of sentences are refused."""
    return len(reply) > MAX_CHITCHAT_CHARS or bool(_FACTLIKE.search(reply))


_SENTENCE_END = re.compile(r"[。！？!?\n]|[.](?=\s|$)")
PROMPT = ("You are KnowZero, a knowledge and customer-service assistant. Reply in one short sentence in the user's "
          "language, state no facts, then steer back to learning or service.")


async def _streamed(provider: StreamingProvider, text: str, deadline_s: float) -> str:
    """The model's reply streamed to the client sentence by sentence, each sentence checked before it
    is sent (``llm_token`` events). Raises ProviderError, or ValueError for a sentence that states facts."""
    buf, sent = "", ""
    async for piece in stream_within_deadline(provider, [{"role": "system", "content": PROMPT},
                                                         {"role": "user", "content": text}],
                                              max_tokens=60, deadline_s=deadline_s):
        buf += piece
        while (m := _SENTENCE_END.search(buf)) is not None:
            sentence, buf = buf[: m.end()], buf[m.end():]
            if unchecked_facts(sent + sentence):
                raise ValueError("the model's reply stated facts that chitchat cannot check")
            sent += sentence
            emit("llm_token", text=sentence)
    if buf.strip():
        if unchecked_facts(sent + buf):
            raise ValueError("the model's reply stated facts that chitchat cannot check")
        sent += buf
        emit("llm_token", text=buf)
    return sent.strip()


async def reply_chitchat(state: State, runtime: Runtime[Deps]) -> State:
    text = state.get("question", "")
    deps = runtime.context
    log: AgentLogEntry = {"agent": "chitchat", "action": "template"}
    reply = template_reply(text, ui_language_of(state))
    provider = deps.provider
    if provider is not None:
        try:
            if isinstance(provider, StreamingProvider):
                generated = await _streamed(provider, text, deps.settings.llm_timeout_s)
                log = {"agent": "chitchat", "action": "generate", "streamed": True}
            else:
                generated = (await within_deadline(provider.chat, [
                    {"role": "system", "content": PROMPT}, {"role": "user", "content": text}],
                    max_tokens=60, deadline_s=deps.settings.llm_timeout_s)).strip()
                if unchecked_facts(generated):
                    raise ValueError("the model's reply stated facts that chitchat cannot check")
                log = {"agent": "chitchat", "action": "generate"}
            if generated:
                reply = generated
        except (ProviderError, ValueError) as exc:
            reason = exc.message if isinstance(exc, ProviderError) else str(exc)
            log = {"agent": "chitchat", "action": "template", "fallback": True, "fallback_reason": reason}
            llm_fallback(emit, "chitchat", reason, "a template reply")
    return {"reply": reply.strip(), "agent_log": [log]}
