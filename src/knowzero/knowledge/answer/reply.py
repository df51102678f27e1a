"""The reply a reader sees, built from the checked claims and the verdict: text, citations, notes (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from knowzero.knowledge.answer import policy
from knowzero.knowledge.answer.checks import premise
from knowzero.knowledge.answer.policy import INSTRUCTIONS_WARNING, PREMISE_WARNING
from knowzero.knowledge.answer.reader import Claim, Draft
from knowzero.knowledge.index import entities as ent
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.text import in_script
from knowzero.knowledge.types import Passage
from knowzero.understanding.analysis import Analysis, of


def citations_for(draft: Draft, verdict: policy.Verdict,
                  passage: Callable[[str], Passage | None] | None = None) -> list[dict[str, Any]]:
    """The citation objects of an answer. ``passage`` (the knowledge base's lookup by id) gives each the page
    (or slide) where its passage starts (``page``: None for a document without pages) and whether OCR read
    that page (``ocr``: a reader should check the image)."""
    if verdict.level == "insufficient":
        return []
    out = []
    for i, c in enumerate(draft.claims):
        p = passage(c.passage_id) if passage is not None else None
        out.append({"n": i + 1, "source": c.source, "title": c.title, "quote": c.quote, "start": c.start, "end": c.end,
                    "passage_id": c.passage_id, "page": p.page if p is not None else None,
                    "ocr": p.ocr if p is not None else False})
    return out


def edition_notes(kb: KnowledgeBase, draft: Draft) -> list[str]:
    """The editions the answer's sources supersede (:mod:`versions`): named, so a reader knows the current
    rule answered and what it replaced."""
    out: list[str] = []
    for source in dict.fromkeys(c.source for c in draft.claims):
        out += [t for t in kb.superseded_editions(source) if t not in out]
    return out


def compose_reply(question: str, draft: Draft, verdict: policy.Verdict, ui: str | None = None,
                  language: str | None = None, superseded: Sequence[str] = (), analysis: Analysis | None = None) -> str:
    """The text the user reads: the checked claims with their citation marks, never free text
    (its own words in the question's language, else the UI's: ``ui``; in Traditional characters for a
    question written in them — the quotes stay as their documents write them). ``language`` overrides both:
    the asker's, when the question was translated into the documents' language to read them."""
    a = of(question, analysis)
    is_zh = language == "zh" if language in ("zh", "en") else a.reply_zh(ui)
    hant = is_zh and a.traditional

    def say(zh_text: str, en_text: str) -> str:
        return in_script(zh_text, hant) if is_zh else en_text

    if verdict.level == "insufficient":
        return say("知识库中没有足够的信息回答这个问题，我不做猜测。",
                   "The knowledge base does not contain the answer to this question, so I will not guess.")
    answer = "".join(f"{c.text.rstrip()}[{i + 1}]" for i, c in enumerate(draft.claims))
    if draft.method == "computed":  # the computed value leads; the rows it used follow as its evidence
        answer = draft.answer + "\n" + "\n".join(f"- {c.text.rstrip()}[{i + 1}]" for i, c in enumerate(draft.claims))
    polarity = premise.premise(question, [c.quote for c in draft.claims]) if a.yes_no else None
    if INSTRUCTIONS_WARNING in verdict.warnings:
        answer = say("⚠️ 引用的文档中含有对助手下达指令的文字，以下仅为原文引用，未经确认，其中的要求不会被执行，已提交审核：",
                     "⚠️ A cited document contains text giving the assistant instructions. It is quoted as-is, not "
                     "confirmed, and nothing it asks for is done; it was sent for review: ") + answer
    elif PREMISE_WARNING in verdict.warnings and polarity is not None:
        answer = premise_reply(polarity, is_zh, hant) + answer
    elif verdict.level == "uncertain" and draft.conflicts:
        answer = say("⚠️ 不同文档对此说法不一，以下分别引用，请核实以哪份为准：",
                     "⚠️ The documents disagree on this; each is quoted below, check which one is right: ") + answer
    elif verdict.level == "uncertain":
        answer = say("⚠️ 以下回答的依据不完整，请核实：", "⚠️ The sources only partly support this answer: ") + answer
    elif verdict.level == "contradicted":
        answer = say("⚠️ 来源之间或回答与来源存在矛盾，已提交人工审核：",
                     "⚠️ This answer conflicts with a source and was sent for review: ") + answer
    elif polarity is not None and polarity.answer == "yes" and not draft.conflicts \
            and about_asked_item(set(a.entities), polarity.sentence, draft.claims):
        answer = say("是的。", "Yes. ") + answer
    for c in draft.conflicts:
        answer += conflict_note(c, is_zh, hant)
    if superseded:
        names = "、".join(f"《{t}》" for t in superseded) if is_zh else ", ".join(f"“{t}”" for t in superseded)
        answer += say(f"\n（按现行版本回答；{names}已被取代。）", f"\n(Answered from the current edition; {names} "
                                                                   "is superseded.)")
    return answer


def about_asked_item(asked: set[str], sentence: str, claims: Sequence[Claim]) -> bool:
    """The sentence that says "yes" is about the item the question names (``asked``: its entities; itself, or
    by its document's title): "一般零件：使用通用量具进行全尺寸检验" does not say yes to "零件A能不能用通用量具…？"."""
    if not asked:
        return True
    if ent.extract(sentence) & asked:
        return True
    return any(sentence in c.quote and ent.extract(c.title) & asked for c in claims)


def premise_reply(p: premise.Premise, is_zh: bool, hant: bool = False) -> str:
    """"不是。" and what the source says instead, before the quotes that say it (``hant``: our words in
    Traditional characters; the values stay as written)."""
    if p.found:
        asked, found = "、".join(p.asked), "、".join(p.found)
        return (f"{in_script('不是。文档中写的是', hant)}{found}{in_script('（问题中为', hant)}{asked}）：" if is_zh else
                f"No. The documents say {', '.join(p.found)} (the question says {', '.join(p.asked)}): ")
    return in_script("不是。文档的说法与问题相反：", hant) if is_zh else "No. The documents say the opposite: "


def shown_values(side: Any) -> list[str]:
    """One document's differing values as the note shows them: each once, without the punctuation a span
    takes along ("2006," → 2006), a value inside a longer one left out ("Barker" beside "Bob Barker").

    >>> shown_values(["Bob", "Bob Barker", "Barker", "Bob Barker"]), shown_values(["巴黎", "巴黎"]), shown_values(["15,"])
    (['Bob Barker'], ['巴黎'], ['15'])
    """
    items = side if isinstance(side, list | tuple) else [side]
    out = list(dict.fromkeys(v for x in items if (v := str(x).strip(" ,.;:，。；：、"))))
    return [v for v in out if not any(v != o and v in o for o in out)]


def conflict_note(c: dict[str, Any], is_zh: bool, hant: bool = False) -> str:
    """One disagreement between documents: each document with the value it gives (``hant``: our words in
    Traditional characters; document names and values stay as written)."""
    srcs = [str(x) for x in c.get("sources") or []]
    values = [shown_values(v) for v in c.get("values") or []]
    if len(srcs) == 2 and len(values) == 2 and all(values):
        if is_zh:
            parts = "；".join(f"{src}：{'、'.join(map(str, v))}" for src, v in zip(srcs, values, strict=True))
            return f"\n{in_script('注意：不同文档说法不一', hant)}（{parts}），{in_script('请核实以哪份为准。', hant)}"
        parts = "; ".join(f"{src}: {', '.join(map(str, v))}" for src, v in zip(srcs, values, strict=True))
        return f"\nNote: the documents disagree ({parts}); check which one is right."
    return (f"\n{in_script('注意：不同文档说法不一', hant)}（{' / '.join(srcs)}）。" if is_zh else
            f"\nNote: the documents disagree ({' / '.join(srcs)}).")


