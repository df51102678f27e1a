"""Per-request work is bounded (issue 10, finding 10): a 4,000-character message is read by the
knowledge steps only up to ``QUERY_CHARS`` (routing, retrieval, key terms, sentence scoring), and
the dense encoder embeds at most one model window of a query. A random-CJK message of 4,000
characters cost ~6 s of CPU on this machine before (e5 slid four windows over it, jieba segmented
it on every retrieval attempt), ~0.7 s after."""

from __future__ import annotations

import random

from knowzero.knowledge.answer import domains, reader, retriever
from knowzero.knowledge.text import QUERY_CHARS, query_text
from knowzero.models import embeddings
from kz_testlib import answer_dict


def _random_cjk(n: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    return "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(n))


async def test_a_long_message_is_segmented_and_embedded_only_up_to_the_bound(small_kb, monkeypatch):
    seen_tokens: list[int] = []
    seen_queries: list[int] = []
    for module in (retriever, reader, domains):
        real = module.tokens

        def spy(text, *a, _real=real, **k):  # type: ignore[no-untyped-def]
            seen_tokens.append(len(text))
            return _real(text, *a, **k)

        monkeypatch.setattr(module, "tokens", spy)
    real_query = small_kb.encoder._model.query

    def spy_query(text):  # type: ignore[no-untyped-def]
        seen_queries.append(len(text))
        return real_query(text)

    monkeypatch.setattr(small_kb.encoder._model, "query", spy_query)
    small_kb._query_vectors.clear()
    message = _random_cjk(4000)
    out = await answer_dict(message, small_kb)
    assert out["verdict"]["level"]
    assert seen_tokens and max(seen_tokens) <= 600, max(seen_tokens)  # the question bound, or one passage
    assert seen_queries and max(seen_queries) <= embeddings.QUERY_CHARS, seen_queries


def test_query_text_keeps_short_questions_whole():
    assert query_text("年假有几天？") == "年假有几天？"
    assert len(query_text(_random_cjk(4000))) == QUERY_CHARS


def test_the_retrieval_query_is_bounded(small_kb):
    r = retriever.retrieve(small_kb, "年假" + _random_cjk(3000), retriever.Plan())
    assert len(r.query) == QUERY_CHARS
