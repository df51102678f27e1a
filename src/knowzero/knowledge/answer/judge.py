"""An LLM judge for answers, used only when a chat model is configured.

It reads the question, the answer and the quoted evidence and says ``supported``, ``partial``,
``unsupported`` or ``contradicted``. The judge can only make a verdict stricter, never looser:
the deterministic checks in :mod:`knowzero.knowledge.answer.checks.verify` stay the floor. Failures raise
ProviderError and the caller keeps the deterministic verdict.
"""

from __future__ import annotations

from knowzero.llm.base import ChatProvider, chat_json

JUDGE_SCHEMA = {
    "type": "object",
    "required": ["label", "reason"],
    "properties": {"label": {"type": "string", "enum": ["supported", "partial", "unsupported", "contradicted"]},
                   "reason": {"type": "string", "maxLength": 80}},  # bounded: fits max_tokens, always valid JSON
}

STRICTER = {"unsupported": "uncertain", "partial": "uncertain", "contradicted": "contradicted"}


def judge_answer(provider: ChatProvider, question: str, answer: str, quotes: list[str]) -> tuple[str, str]:
    """(label, reason) from the model. Raises ProviderError."""
    evidence = "\n".join(f"- {q}" for q in quotes)
    data = chat_json(provider, [
        {"role": "system", "content": "You check whether an answer is fully supported by the quoted evidence. Reply "
         "JSON {\"label\": \"supported\"|\"partial\"|\"unsupported\"|\"contradicted\", \"reason\": one sentence}."},
        {"role": "user", "content": f"Question: {question}\nAnswer: {answer}\nEvidence:\n{evidence}"}],
        JUDGE_SCHEMA, max_tokens=120)
    label = str(data.get("label", "")).lower()
    if label not in ("supported", "partial", "unsupported", "contradicted"):
        label = "unsupported"
    return label, str(data.get("reason", ""))[:300]
