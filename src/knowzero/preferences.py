"""Long-term user preferences and stable facts, kept in the LangGraph store across threads.

Namespace ``("prefs", user_id)``, one item ``"profile"``:
``{"length": "short"|"long", "language": "zh"|"en", "facts": {"name", "role", "level"}}``.

* :func:`detect_preferences` — explicit statements only ("以后回答简短一点", "reply in English",
  "我叫…", "我是一名工艺工程师", "I'm a beginner"); nothing is inferred from behaviour.
* :func:`remember` / :func:`get_preferences` / :func:`forget` — read and write the store (async
  ``aget``/``aput``/``adelete`` so any BaseStore works inside the graph and in the API).
* :func:`apply_preferences` — shapes a reply: ``length=short`` keeps the first sentences. It cannot
  translate offline: ``language`` is read by the paths that write replies (service templates pick
  zh/en by it) and is passed to an LLM when one is configured.
Anonymous users have no stored preferences.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from knowzero.input import message_language

NAMESPACE = "prefs"
KEY = "profile"

_SHORT = re.compile(r"(简短|简洁|简单|短)一?(点|些)|别(说|写|回答)(得)?太(长|多)|少说(点|些)|"
                    r"\b(be|keep\s+it|answer|reply|answers?)\s+(more\s+)?(brief|concise|short)\b|\bshorter\s+(answers|replies)\b|\bbe\s+brief\b", re.I)
_LONG = re.compile(r"详细一?(点|些)|多讲(点|一些)|讲细(一)?点|\b(more\s+detail(ed)?|longer\s+(answers|replies)|in\s+(more\s+)?detail)\b", re.I)
_EN = re.compile(r"(用|说|讲)英(文|语)|英文回(答|复)|\b(reply|answer|respond|speak|talk|write)\s+(to\s+me\s+)?in\s+english\b|\bin\s+english\s*,?\s*please\b|\benglish\s+please\b", re.I)
_ZH = re.compile(r"(用|说|讲)中文|中文回(答|复)|\b(reply|answer|respond|speak|talk|write)\s+(to\s+me\s+)?in\s+chinese\b|\bin\s+chinese\s*,?\s*please\b", re.I)
_NAME = re.compile(r"我叫\s*([\u4e00-\u9fffA-Za-z]{1,12})|\bmy\s+name\s+is\s+([A-Za-z][A-Za-z\-]{0,30})|\bcall\s+me\s+([A-Za-z][A-Za-z\-]{0,30})", re.I)
_ROLE = re.compile(r"我是(?:一名|一个|一位|个|名)?\s*([\u4e00-\u9fffA-Za-z]{0,8}?(?:工程师|经理|主管|学生|采购|老师|技术员|操作工|设计师|程序员|质检员|研究员|销售))|"
                   r"\bi\s*(?:am|'m)\s+(?:a|an)\s+([a-z ]{0,20}?(?:engineer|manager|student|buyer|teacher|technician|operator|designer|developer|inspector|researcher))\b", re.I)
_LEVEL = {"beginner": re.compile(r"我是(新手|初学者|小白)|刚入门|\bi\s*(?:am|'m)\s+(a\s+)?(beginner|newbie|new\s+to)", re.I),
          "advanced": re.compile(r"我是(专家|资深|老手)|\bi\s*(?:am|'m)\s+(an?\s+)?(expert|senior|advanced)", re.I)}


def detect_preferences(text: str) -> dict[str, Any]:
    """Explicit preferences and facts stated in ``text`` (empty dict when none)."""
    out: dict[str, Any] = {}
    if _SHORT.search(text):
        out["length"] = "short"
    elif _LONG.search(text):
        out["length"] = "long"
    if _EN.search(text):
        out["language"] = "en"
    elif _ZH.search(text):
        out["language"] = "zh"
    facts: dict[str, str] = {}
    m = _NAME.search(text)
    if m:
        facts["name"] = next(g for g in m.groups() if g).strip()
    m = _ROLE.search(text)
    if m:
        facts["role"] = next(g for g in m.groups() if g).strip()
    for level, pat in _LEVEL.items():
        if pat.search(text):
            facts["level"] = level
    if facts:
        out["facts"] = facts
    return out


def _ns(user_id: str) -> tuple[str, str]:
    return (NAMESPACE, user_id)


async def get_preferences(store: Any, user_id: str) -> dict[str, Any]:
    """The user's stored profile (``{}`` for anonymous users or when no store is configured)."""
    if store is None or not user_id or user_id == "anonymous":
        return {}
    item = await store.aget(_ns(user_id), KEY)
    return dict(item.value) if item is not None else {}


async def remember(store: Any, user_id: str, found: dict[str, Any]) -> dict[str, Any]:
    """Merge ``found`` into the stored profile; returns the new profile."""
    if store is None or not user_id or user_id == "anonymous" or not found:
        return await get_preferences(store, user_id)
    prefs = await get_preferences(store, user_id)
    facts = {**prefs.get("facts", {}), **found.get("facts", {})}
    prefs.update({k: v for k, v in found.items() if k != "facts"})
    if facts:
        prefs["facts"] = facts
    await store.aput(_ns(user_id), KEY, prefs)
    return prefs


async def forget(store: Any, user_id: str, key: str | None = None) -> dict[str, Any]:
    """Delete one preference (``length``, ``language``, ``facts`` or ``facts.<name>``) or all of them."""
    if store is None or not user_id or user_id == "anonymous":
        return {}
    if key is None:
        await store.adelete(_ns(user_id), KEY)
        return {}
    prefs = await get_preferences(store, user_id)
    if key.startswith("facts."):
        prefs.get("facts", {}).pop(key[6:], None)
    else:
        prefs.pop(key, None)
    await store.aput(_ns(user_id), KEY, prefs)
    return prefs


def reply_language(prefs: dict[str, Any], text: str, fallback: Literal["zh", "en"] = "zh") -> Literal["zh", "en"]:
    """zh/en: the stored preference, else the language of the message (``input.message_language``:
    a part or order number alone is none), else ``fallback``."""
    if prefs.get("language") in ("zh", "en"):
        return prefs["language"]
    return message_language(text) or fallback


_SENT = re.compile(r"(?<=[。！？!?])|(?<=\.)\s+|\n+")


def apply_preferences(reply: str, prefs: dict[str, Any], max_sentences: int = 2, max_chars: int = 180) -> str:
    """Shape a reply by the stored preferences (only ``length=short`` changes text offline)."""
    if not reply or prefs.get("length") != "short":
        return reply
    parts = [p.strip() for p in _SENT.split(reply) if p and p.strip()]
    if len(parts) <= max_sentences and len(reply) <= max_chars:
        return reply
    short = " ".join(parts[:max_sentences]) if not any("\u4e00" <= c <= "\u9fff" for c in reply) else "".join(parts[:max_sentences])
    if len(short) > max_chars:
        short = short[:max_chars].rstrip() + "…"
    return short


def acknowledgement(found: dict[str, Any], lang: str) -> str:
    """One line telling the user what was remembered."""
    bits_zh, bits_en = [], []
    if found.get("length") == "short":
        bits_zh.append("以后回答会简短一些")
        bits_en.append("I'll keep answers short")
    elif found.get("length") == "long":
        bits_zh.append("以后回答会更详细")
        bits_en.append("I'll answer in more detail")
    if found.get("language") == "en":
        bits_zh.append("以后用英文回复")
        bits_en.append("I'll reply in English")
    elif found.get("language") == "zh":
        bits_zh.append("以后用中文回复")
        bits_en.append("I'll reply in Chinese")
    for k, v in (found.get("facts") or {}).items():
        bits_zh.append(f"记住了您的{ {'name': '称呼', 'role': '职业', 'level': '水平'}.get(k, k)}：{v}")
        bits_en.append(f"noted your {k}: {v}")
    if not bits_zh:
        return ""
    return ("（好的，" + "；".join(bits_zh) + "。可在“我的偏好”中查看或删除。）") if lang == "zh" else \
        ("(Got it: " + "; ".join(bits_en) + ". You can view or delete this under your preferences.)")
