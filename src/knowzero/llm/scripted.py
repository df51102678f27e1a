"""A scripted, deterministic chat model for measuring the LLM path without a real model (CI, demos).

It answers every prompt KnowZero sends — recognised by the JSON schema's required keys — from the
text of the prompt itself, in one of four behaviours:

- ``faithful``: the reader answers with the (at most two) exact sentences or table lines of the
  passages that best match the question (text = quote); learning sections repeat their evidence; the judge says ``supported``
  only when the answer's sentences appear in the evidence; the router agrees with the first hint.
- ``paraphrase``: the same choices, reworded (clauses swapped, a lead-in added) with the exact
  quote beside each sentence: what the checker must accept or replace.
- ``invent``: the faithful answer plus one fabricated sentence citing a real quote
  (:data:`INVENTED_NUMBER`, :data:`INVENTED_NAME`) and, when its best sentence holds two different
  numbers, that sentence with the two swapped (:func:`swap_numbers`: every word from the quote, one lie),
  a judge that calls everything supported, and a chit-chat reply that states facts: what the checks must
  remove or flag.
- ``refuse``: the reader returns no claim, every other task a plain-text refusal (not JSON): each
  step must fall back to the offline path and say so.

Serve it over HTTP (OpenAI-compatible, streaming too) with ``knowzero dev scripted-llm --mode
faithful --port 8090`` and point the product at it with ``KNOWZERO_LLM_PROVIDER=openai
KNOWZERO_LLM_BASE_URL=http://127.0.0.1:8090/v1 KNOWZERO_LLM_MODEL=scripted-faithful``. Not a
model: it shows what the product does with a model's kinds of answer, never how good a model is.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from knowzero.errors import ProviderError
from knowzero.llm.server import create_app

MODES = ("faithful", "paraphrase", "invent", "refuse")
INVENTED_NUMBER = "7391"
INVENTED_NAME = "欧阳振华"
INVENTED_SENTENCE = f"此外，这项规定由{INVENTED_NAME}于2031年提出，共有{INVENTED_NUMBER}人参与。"
"""The fabricated sentence the ``invent`` mode adds (a number and a name no document contains)."""
REFUSAL = "抱歉，我无法回答这个问题。"

_BLOCK = re.compile(r"^\[(\d+)\](?: \([^\n]*\))?\n(.*?)(?=\n\n\[\d+\]|\n\nQuestion:|\Z)", re.S | re.M)
_EVIDENCE = re.compile(r"^\[(\d+)\] (.+)$", re.M)
_SENT = re.compile(r"[^。！？!?\n]+[。！？!?]?")
_ASKS_NUMBER = re.compile(r"多少|几|多久|多长|什么时候|何时|哪一?年|上限|比例|how many|how much|when", re.I)
_QUESTION_WORDS = re.compile(r"什么|多少|哪些|哪个|哪里|哪儿|怎么|如何|是否|是不是|为什么|吗|呢|谁|几|？|\?")


def _bigrams(text: str) -> set[str]:
    t = re.sub(r"\s+", "", text)
    return {t[i:i + 2] for i in range(len(t) - 1)}


def _overlap(a: str, b: str) -> float:
    ga = _bigrams(a)
    return len(ga & _bigrams(b)) / len(ga) if ga else 0.0


def _sentences(text: str) -> list[str]:
    """Sentences and lines, plus runs of 2-3 short lines (a flattened table: "午餐 / 11:30-13:00 / 免费")."""
    out = [s.strip() for s in _SENT.findall(text) if len(s.strip()) >= 4]
    lines = [ln.strip() for ln in text.split("\n")]
    for i in range(len(lines)):
        for k in (2, 3):
            run = lines[i:i + k]
            if len(run) == k and all(0 < len(ln) <= 24 for ln in run):
                out.append("\n".join(run))
    return out


def _user(messages: list[dict[str, str]]) -> str:
    return "\n".join(m["content"] for m in messages if m.get("role") == "user")


def _system(messages: list[dict[str, str]]) -> str:
    return "\n".join(m["content"] for m in messages if m.get("role") == "system")


def _rank(question: str, candidates: list[tuple[int, str]]) -> list[tuple[float, int, str]]:
    """Candidates scored by how well they answer: the question's content character pairs they hold,
    each weighted by how rare it is among the candidates (what the question is specifically about),
    plus a number when one is asked for; best first."""
    content = _bigrams(_QUESTION_WORDS.sub(" ", question))
    grams = [_bigrams(s) for _, s in candidates]
    n = len(candidates)
    weight = {g: math.log(1 + n / (1 + sum(g in c for c in grams))) for g in content}
    total = sum(weight.values()) or 1.0
    asks_number = bool(_ASKS_NUMBER.search(question))
    out = []
    for (rank, s), g in zip(candidates, grams, strict=True):
        score = sum(w for b, w in weight.items() if b in g) / total
        score += 0.2 * (asks_number and bool(re.search(r"\d", s))) - 0.01 * rank
        out.append((score, rank, s))
    return sorted(out, key=lambda x: -x[0])


_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def swap_numbers(sentence: str) -> str | None:
    """``sentence`` with its first two different numbers swapped ("控制在5%至8%之间" → "控制在8%至5%之间"), or None.

    >>> swap_numbers("切削液浓度应控制在5%至8%之间。"), swap_numbers("年假5天。")
    ('切削液浓度应控制在8%至5%之间。', None)
    """
    found = list(_NUMBER.finditer(sentence))
    first = found[0] if found else None
    second = next((m for m in found[1:] if first is not None and m.group(0) != first.group(0)), None)
    if first is None or second is None:
        return None
    a, b = first, second
    return sentence[:a.start()] + b.group(0) + sentence[a.end():b.start()] + a.group(0) + sentence[b.end():]


def paraphrase(sentence: str) -> str:
    """A deterministic rewording: the first two clauses swapped, or a lead-in when there is one clause."""
    body = sentence.rstrip("。！？!?. ")
    parts = body.split("，", 2)
    if len(parts) >= 2 and all(len(p) >= 3 for p in parts[:2]):
        return "，".join([parts[1], parts[0], *parts[2:]]) + "。"
    return f"根据资料，{body}。"


class ScriptedProvider:
    """A ChatProvider that answers from a script (see module doc). Deterministic: same prompt, same reply."""

    name = "scripted"

    def __init__(self, mode: str = "faithful") -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.mode = mode
        self.model = f"scripted-{mode}"

    def chat(self, messages: list[dict[str, str]], *, max_tokens: int = 512,
             json_schema: dict[str, Any] | None = None) -> str:
        required = set((json_schema or {}).get("required") or [])
        if "claims" in required:
            return json.dumps(self._read(messages), ensure_ascii=False)
        if self.mode == "refuse":
            return REFUSAL
        if "label" in required:
            return json.dumps(self._judge(messages), ensure_ascii=False)
        if "sentences" in required:
            return json.dumps(self._write(messages), ensure_ascii=False)
        if "intent" in required:
            return json.dumps(self._intent(messages, json_schema or {}), ensure_ascii=False)
        if "domain" in required:
            return json.dumps({"domain": "hr" if self.mode == "invent" else "general"})
        if "sentiment" in required:
            return json.dumps({"sentiment": 0.9 if self.mode == "invent" else 0.0})
        if "tasks" in required:
            return json.dumps({"tasks": []})
        if json_schema is not None:
            raise ProviderError("the scripted model has no answer for this schema")
        return self._chitchat(messages)

    # --- tasks ---
    def _read(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        if self.mode == "refuse":
            return {"answer": "", "claims": []}
        user = _user(messages)
        question = user.rsplit("Question:", 1)[-1].strip()
        candidates = [(int(m.group(1)), s) for m in _BLOCK.finditer(user.split("Passages:", 1)[-1].lstrip("\n"))
                      for s in _sentences(m.group(2))]
        scored = _rank(question, candidates)
        best = [x for x in scored[:2] if x[0] > 0.1] or scored[:1]
        if not best:
            return {"answer": "", "claims": []}
        claims: list[dict[str, Any]] = [{"text": paraphrase(q) if self.mode == "paraphrase" else q, "passage": n,
                                         "quote": q} for _, n, q in best]
        if self.mode == "invent":
            claims.append({"text": INVENTED_SENTENCE, "passage": best[0][1], "quote": best[0][2]})
            if (swapped := swap_numbers(best[0][2])) is not None:
                claims.append({"text": swapped, "passage": best[0][1], "quote": best[0][2]})
        return {"answer": " ".join(str(c["text"]) for c in claims), "claims": claims}

    def _judge(self, messages: list[dict[str, str]]) -> dict[str, str]:
        if self.mode == "invent":
            return {"label": "supported", "reason": "the answer is fully supported"}
        user = _user(messages)
        answer = re.sub(r"\[\d+\]", "", user.split("Answer:", 1)[-1].split("\nEvidence:", 1)[0])
        evidence = user.split("\nEvidence:", 1)[-1]
        score = _overlap(answer, evidence)
        label = "supported" if score >= 0.9 else "partial" if score >= 0.5 else "unsupported"
        return {"label": label, "reason": f"{round(score * 100)}% of the answer's character pairs are in the evidence"}

    def _write(self, messages: list[dict[str, str]]) -> dict[str, Any]:
        evidence = [(int(m.group(1)), m.group(2).strip()) for m in _EVIDENCE.finditer(_user(messages))]
        out = [{"text": paraphrase(t) if self.mode == "paraphrase" else t, "evidence": n} for n, t in evidence[:3]]
        if self.mode == "invent" and evidence:
            out.append({"text": INVENTED_SENTENCE, "evidence": evidence[0][0]})
        return {"sentences": out}

    def _intent(self, messages: list[dict[str, str]], schema: dict[str, Any]) -> dict[str, Any]:
        names = list(((schema.get("properties") or {}).get("intent") or {}).get("enum") or [])
        hint = re.search(r"guessed \(not reliable\): ([\w-]+)", _user(messages))
        guess = hint.group(1) if hint else (names[0] if names else "")
        if self.mode == "invent" and names:  # confidently wrong: the last listed intent that is not the guess
            guess = next((n for n in reversed(names) if n != guess), guess)
        return {"intent": guess, "confidence": 0.99 if self.mode == "invent" else 0.8, "reasoning": "scripted"}

    def _chitchat(self, messages: list[dict[str, str]]) -> str:
        if self.mode == "invent":
            return f"您好！我们公司成立于1998年，共有{INVENTED_NUMBER}名员工。"
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in _user(messages))
        return ("您好！有学习或服务上的问题都可以问我。" if zh else
                "Hello! Ask me about your documents, a learning topic or an order.")


def main(argv: list[str] | None = None) -> None:
    """``python -m knowzero.llm.scripted --mode faithful --port 8090`` (127.0.0.1)."""
    import argparse

    import uvicorn

    ap = argparse.ArgumentParser(prog="python -m knowzero.llm.scripted", description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", choices=MODES, default="faithful")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8090)
    args = ap.parse_args(argv)
    provider = ScriptedProvider(args.mode)
    uvicorn.run(create_app(provider, model_name=provider.model), host=args.host, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
