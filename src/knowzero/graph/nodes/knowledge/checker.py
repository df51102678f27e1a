"""Fact checker agent: a verdict per claim and for the answer; abstains instead of guessing."""

from __future__ import annotations

import asyncio
from typing import Any

from langgraph.runtime import Runtime

from knowzero.errors import ProviderError
from knowzero.graph.context import Deps
from knowzero.graph.trace import emit
from knowzero.knowledge import entities as ent
from knowzero.knowledge import verify
from knowzero.knowledge.judge import STRICTER, judge_answer
from knowzero.knowledge.retriever import key_terms


def _zh(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def compose_reply(question: str, draft: dict[str, Any], verdict: verify.Verdict) -> str:
    zh = _zh(question)
    if verdict.level == "insufficient":
        return ("知识库中没有足够的信息回答这个问题，我不做猜测。" if zh else
                "The knowledge base does not contain the answer to this question, so I will not guess.")
    answer = draft["answer"]
    if draft.get("method") == "extractive":
        answer = "".join(f"{c['text'].rstrip()}[{i + 1}]" for i, c in enumerate(draft["claims"]))
    if verdict.level == "uncertain":
        prefix = "⚠️ 以下回答的依据不完整，请核实：" if zh else "⚠️ The sources only partly support this answer: "
        answer = prefix + answer
    elif verdict.level == "contradicted":
        prefix = "⚠️ 来源之间或回答与来源存在矛盾，已提交人工审核：" if zh else "⚠️ This answer conflicts with a source and was sent for review: "
        answer = prefix + answer
    for c in draft.get("conflicts") or []:
        srcs = " / ".join(str(s) for s in c["sources"])
        answer += (f"\n注意：不同文档说法不一（{srcs}）。" if zh else f"\nNote: the documents disagree ({srcs}).")
    return answer


def claim_similarity(kb: Any, claim: str, quote: str) -> float:
    """Cosine of the bundled retrieval model between a generated claim and the quote it cites."""
    enc = kb.encoder
    q = enc.query(claim)
    return float(enc.passages([quote])[0] @ q)


def check_draft(kb: Any, question: str, draft: dict[str, Any], passages: list[dict[str, Any]]) -> verify.Verdict:
    """The verdict for a draft (pure over the knowledge base's texts)."""
    claims = draft.get("claims", [])
    by_id = {p["id"]: p for p in passages}
    verdicts = []
    quotes_ok = True
    evidence_texts = []
    for c in claims:
        src = kb.file_texts.get(c["source"], "")
        if not verify.quote_matches(src, c["quote"], c["start"], c["end"]):
            quotes_ok = False
        p = by_id.get(c["passage_id"], {})
        context = src[max(0, c["start"] - 200): c["end"] + 200] if src else c["quote"]
        evidence_texts.append(f"{p.get('title', '')} {p.get('section', '')} {context}")
        verbatim = draft.get("method") == "extractive" or c["text"].strip() == c["quote"].strip()
        sim = None if verbatim else claim_similarity(kb, c["text"], c["quote"])
        verdicts.append(verify.check_claim(c["text"], c["quote"] if verbatim else context, question=question,
                                           verbatim=verbatim, similarity=sim))
    terms = key_terms(kb, question)
    # Abstention: the evidence must cover the question's key terms. Coverage is measured on the cited
    # passage and on the best retrieved passage, each with its title, section path and document text;
    # the better of the two counts (a precise quote from a lower-ranked passage is not penalised).
    cited = by_id.get(claims[0]["passage_id"], {}) if claims else {}
    best = passages[0] if passages else {}
    cov = 0.0
    for p in (cited, best):
        if not p:
            continue
        if str(p.get("id", "")).startswith("sql:") and p is cited:
            cov = 1.0  # a structured query fired on a value or column the question names: exact evidence
            break
        doc_text = kb.file_texts.get(p.get("source", ""), "")[:4000]
        cov = max(cov, verify.coverage(terms, f"{p.get('title', '')} {p.get('section', '')} {p.get('text', '')} {doc_text}"))
    cov_sent = 1.0 if str(cited.get("id", "")).startswith("sql:") else verify.coverage(terms, " ".join(evidence_texts))
    q_ents = ent.expand(ent.extract(question), kb.aliases)
    entity_ok = True
    if q_ents and claims:
        cited_ents = set()
        for c in claims:
            cited_ents |= set(kb.doc_entities.get(c["source"], frozenset())) | ent.extract(c["quote"])
        entity_ok = not cited_ents or bool(q_ents & cited_ents)
    sim = None
    if verify.RESCUE_COVERAGE <= cov < verify.MIN_COVERAGE and cited.get("id"):
        sim = kb.dense.similarity(kb.query_vector(question), cited["id"])
    return verify.judge(verdicts, coverage_value=cov, sentence_coverage=cov_sent, entity_ok=entity_ok,
                        conflicts=len(draft.get("conflicts") or []), quotes_ok=quotes_ok, similarity=sim)


async def check_answer(state: dict[str, Any], runtime: Runtime[Deps]) -> dict[str, Any]:
    kb = runtime.context.knowledge_base()
    question = state.get("question", "")
    draft = state.get("draft", {"answer": "", "claims": []})
    v = check_draft(kb, question, draft, state.get("passages", []))
    judge_log: dict[str, Any] = {}
    provider = runtime.context.provider
    if provider is not None and v.level in ("confirmed", "uncertain") and draft.get("claims"):
        try:
            label, why = await asyncio.to_thread(judge_answer, provider, question, draft.get("answer", ""),
                                                 [c["quote"] for c in draft["claims"]])
            judge_log = {"judge": label, "judge_reason": why}
            stricter = STRICTER.get(label)
            if stricter and (stricter == "contradicted" or v.level == "confirmed"):
                v = verify.Verdict(stricter, f"LLM judge: {why or label}", v.claims, v.coverage, True)
        except ProviderError as exc:
            judge_log = {"judge": "unavailable", "judge_reason": exc.message}
    citations = [] if v.level == "insufficient" else [
        {"n": i + 1, "source": c["source"], "title": c.get("title", ""), "quote": c["quote"], "start": c["start"],
         "end": c["end"], "passage_id": c["passage_id"]} for i, c in enumerate(draft.get("claims", []))]
    verdict = v.to_dict()
    emit("verdict", level=v.level, reason=v.reason, needs_human_review=v.needs_human_review,
         claims=[{"text": c["text"], "source": c["source"], "level": cv.level, "reasons": cv.reasons}
                 for c, cv in zip(draft.get("claims", []), v.claims, strict=False)])
    return {"verdict": verdict, "citations": citations, "reply": compose_reply(question, draft, v),
            "agent_log": [{"agent": "fact_checker", "action": "verify", "level": v.level, "reason": v.reason,
                           "coverage": round(v.coverage, 3), "needs_human_review": v.needs_human_review,
                           **judge_log}]}
