"""Question → domain and retrieval plan: keyword rules first, embeddings next, an LLM if configured.

Also decides when a question is too vague to route ("那个东西怎么弄？") so the graph asks back.
Domain keywords, examples and the vague-word list are data (``data/domains.json``).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from knowzero.config import DOMAINS
from knowzero.knowledge.text import STOPWORDS, query_text, tokens
from knowzero.llm.base import ChatProvider, chat_json
from knowzero.models.embeddings import router


@dataclass(frozen=True)
class DomainDecision:
    domain: str
    confidence: float
    method: str  # rule | semantic | llm | default
    strategy: str
    top_k: int
    collections: tuple[str, ...]
    vague: bool
    elapsed_ms: float
    reasoning: str


@lru_cache(maxsize=1)
def load_domains() -> dict[str, Any]:
    return json.loads(resources.files("knowzero.knowledge").joinpath("data/domains.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _example_matrix() -> tuple[list[str], np.ndarray]:
    data = load_domains()
    labels, texts = [], []
    for d in DOMAINS:
        for ex in data[d]["examples"]:
            labels.append(d)
            texts.append(ex)
    return labels, router().encode(texts)


def is_vague(question: str) -> bool:
    """Too little content to route: only vague words, pronouns and stopwords."""
    data = load_domains()
    q = question.lower()
    for w in sorted(data["vague_words"], key=len, reverse=True):
        q = re.sub(rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w), " ", q)
    content = [t for t in tokens(q, search=False) if t not in STOPWORDS and len(t.strip()) > 0
               and not re.fullmatch(r"[\W_]+", t)]
    return len(content) == 0


def decide(question: str, *, provider: ChatProvider | None = None, sql_available: bool = False) -> DomainDecision:
    """The domain of a question: keyword rules, then the closest example, then the model (if given;
    its failures raise ProviderError), else the general domain."""
    t0 = time.perf_counter()
    question = query_text(question)
    data = load_domains()
    vague = is_vague(question)
    q = question.lower()
    hits = {d: sum(1 for k in data[d]["keywords"] if k.lower() in q) for d in DOMAINS}
    best = max(hits, key=lambda d: hits[d])
    method, conf, reasoning = "default", 0.3, "no domain keyword matched"
    if hits[best] > 0 and list(hits.values()).count(hits[best]) == 1:
        method, conf = "rule", min(1.0, 0.7 + 0.1 * hits[best])
        reasoning = f"{hits[best]} {best} keyword(s)"
    else:
        labels, mat = _example_matrix()
        sims = mat @ router().encode_one(question)
        j = int(np.argmax(sims))
        if sims[j] >= 0.45:
            best, method, conf = labels[j], "semantic", float(sims[j])
            reasoning = f"closest example {sims[j]:.2f}"
        elif provider is not None:  # a ProviderError reaches the caller, which keeps the offline decision
            out = chat_json(provider, [{"role": "user", "content":
                f"Which domain does this question belong to: {', '.join(DOMAINS)}? "
                f"Reply JSON {{\"domain\": ...}}. Question: {question}"}],
                {"type": "object", "required": ["domain"], "properties": {"domain": {"type": "string", "enum": list(DOMAINS)}}})
            if out.get("domain") in DOMAINS:
                best, method, conf, reasoning = out["domain"], "llm", 0.7, "LLM classification"
        if method == "default":
            best = "general"
    cfg = data[best]
    strategy = cfg["strategy"]
    if best == "product" and sql_available:
        strategy = "hybrid"
    return DomainDecision(best, round(conf, 3), method, strategy, int(cfg["top_k"]), tuple(cfg["collections"]),
                          vague, round((time.perf_counter() - t0) * 1000, 3), reasoning)
