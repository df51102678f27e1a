"""The reply a reader sees, built from the checked claims and the verdict: text, citations, notes (pure)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from knowzero.knowledge.answer import cells, policy
from knowzero.knowledge.answer.checks import premise
from knowzero.knowledge.answer.policy import INSTRUCTIONS_WARNING, PREMISE_WARNING
from knowzero.knowledge.answer.reader import Claim, Draft
from knowzero.knowledge.index import entities as ent
from knowzero.knowledge.index.bands import band
from knowzero.knowledge.index.headers import NAME_LABEL
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.knowledge.rows import row_fields
from knowzero.knowledge.text import in_script
from knowzero.knowledge.types import Passage
from knowzero.understanding.analysis import Analysis, of


def citations_for(draft: Draft, verdict: policy.Verdict,
                  passage: Callable[[str], Passage | None] | None = None,
                  page_of: Callable[[str, int], int | None] | None = None) -> list[dict[str, Any]]:
    """The citation objects of an answer. ``passage`` (the knowledge base's lookup by id) gives each the page
    (or slide) where its passage starts (``page``: None for a document without pages) and whether OCR read
    that page (``ocr``: a reader should check the image); ``page_of`` (path, offset → page) the page where
    the quote itself starts, when a passage runs over a page break."""
    if verdict.level == "insufficient":
        return []
    out = []
    for i, c in enumerate(draft.claims):
        p = passage(c.passage_id) if passage is not None else None
        page = p.page if p is not None else None
        if page is not None and page_of is not None:
            page = page_of(c.source, c.start) or page
        out.append({"n": i + 1, "source": c.source, "title": c.title, "quote": c.quote, "start": c.start, "end": c.end,
                    "passage_id": c.passage_id, "page": page, "ocr": p.ocr if p is not None else False})
    return out


_WHO_WHICH = re.compile(r"\b(?:who|whom|which)\b|谁|哪一?[位个只条件台辆家名款匹艘]")


def answered_name(a: Analysis, draft: Draft, verdict: policy.Verdict) -> str:
    """Who or what a who/which answer names: the name field of the row it quotes first ("姓名: 郭大鹏" for "Among the
    trainers, who has the most experience?"); "" for any other answer. The thread's next "he", "她" or "it" means it.

    >>> from knowzero.understanding.analysis import analyse
    >>> row = Claim("工号: QH03；姓名: 郭大鹏；门店: 南湖店", "s.csv", "工号: QH03；姓名: 郭大鹏；门店: 南湖店", 0, 0, "sql:t:3")
    >>> yes = policy.Verdict("confirmed", "", [], 1.0, False)
    >>> answered_name(analyse("Among the trainers, who has the most experience?"), Draft("", [row]), yes)
    '郭大鹏'
    >>> answered_name(analyse("年假有几天？"), Draft("", [row]), yes)
    ''
    """
    if verdict.level == "insufficient" or not draft.claims or not _WHO_WHICH.search(a.folded):
        return ""
    return next((value.rstrip("。.") for label, value in row_fields(draft.claims[0].quote) if NAME_LABEL.match(label)), "")


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
    other = other_language_lead(question, draft.notes[0], language) \
        if draft.method == "lookup" and language in ("zh", "en") and draft.notes else ""
    if other:  # asked in the other language: the cell's value in the asker's words leads ("12 days — ")
        answer = other + answer
    elif draft.method == "lookup":  # the asked cell leads, its row follows as the evidence
        answer = cells.in_language(draft.answer, is_zh) + "\n" + answer
    elif language in ("zh", "en") and draft.claims and draft.method != "computed":
        answer = other_language_lead(question, draft.claims[0].text, language) + answer
    if draft.method == "computed":  # the computed value leads; the rows it used follow as its evidence
        answer = draft.answer + "\n" + "\n".join(f"- {c.text.rstrip()}[{i + 1}]" for i, c in enumerate(draft.claims))
    polarity = premise.premise(question, [c.quote for c in draft.claims]) if a.yes_no else None
    if INSTRUCTIONS_WARNING in verdict.warnings:
        answer = say("⚠️ 引用的文档中含有对助手下达指令的文字，以下仅为原文引用，未经确认，其中的要求不会被执行，已提交审核：",
                     "⚠️ A cited document contains text giving the assistant instructions. It is quoted as-is, not "
                     "confirmed, and nothing it asks for is done; it was sent for review: ") + answer
    elif PREMISE_WARNING in verdict.warnings and polarity is not None:
        answer = premise_reply(polarity, is_zh, hant, question) + answer
    elif verdict.level == "uncertain" and draft.conflicts:
        answer = say("⚠️ 不同文档对此说法不一，以下分别引用，请核实以哪份为准：",
                     "⚠️ The documents disagree on this; each is quoted below, check which one is right: ") + answer
    elif verdict.level == "uncertain":
        answer = say("⚠️ 以下回答的依据不完整，请核实：", "⚠️ The sources only partly support this answer: ") + answer
    elif verdict.level == "contradicted":
        answer = say("⚠️ 来源之间或回答与来源存在矛盾，已提交人工审核：",
                     "⚠️ This answer conflicts with a source and was sent for review: ") + answer
    elif polarity is not None and polarity.answer == "yes" and not draft.conflicts and not a.untranslated \
            and about_asked_item(set(a.entities), polarity.sentence, draft.claims):
        answer = say("是的。", "Yes. ") + answer
    for c in draft.conflicts:
        answer += conflict_note(c, is_zh, hant)
    if superseded:
        names = "、".join(f"《{t}》" for t in superseded) if is_zh else ", ".join(f"“{t}”" for t in superseded)
        answer += say(f"\n（按现行版本回答；{names}已被取代。）", f"\n(Answered from the current edition; {names} "
                                                                   "is superseded.)")
    return answer


_VALUE = re.compile(r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)\s*(分钟|天|小时|个月|周|年|美元|元|%|分|次|人|倍)")
_EN_UNIT = {"天": "days", "小时": "hours", "个月": "months", "周": "weeks", "年": "years", "元": "yuan", "%": "%",
            "分钟": "minutes", "分": "points", "次": "times", "人": "people", "倍": "times",
            "美元": "US dollars"}
_EN_VALUE = re.compile(r"\$(\d{1,12}(?:,\d{3}){0,4}(?:\.\d{1,6})?)|((?<![\d.])\d{1,12}(?:\.\d{1,6})?)\s*(?:(?:[a-z-]+\s+){0,3}?(days?|hours?|weeks?|"
                       r"months?|years?)\b|(%))?", re.I)
_ZH_UNIT = {"day": "天", "hour": "小时", "week": "周", "month": "个月", "year": "年", "%": "%"}
_ASKED_EN = re.compile(r"how many (day|hour|week|month|year)s?|how (much)")
_LATIN_VALUE = re.compile(r"[±$¥€]?(?<![\d.])\d{1,12}(?:\.\d{1,6})?(?:\s*-\s*(?<![\d.])\d{1,12}(?:\.\d{1,6})?)?\s*[A-Za-z%°]{1,4}(?![A-Za-z])|"
                          r"\d{1,2}:\d{2}(?:\s*[-–~至]\s*\d{1,2}:\d{2})?|[±$¥€](?<![\d.])\d{1,12}(?:\.\d{1,6})?")
"""A value that reads the same in either language: a time ("14:00"), a signed amount, a number with a Latin
unit ("0.02mm") — never a bare number, which may be a list's "2." or a clause's count."""
_HEADER_UNIT = re.compile(r"[（(](分钟|天|小时|个月|周|年|美元|元|%|分|次|人|倍)(?:/[^）)]{1,4})?[）)]\s*[:：]\s*"
                          r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)(?![\d.])")
"""A table cell whose unit is in its header: "住宿上限（元/晚）: 550" is 550 yuan."""
MAX_KEY_CHARS = 16
"""A row key before its cells ("满10年不满20年：") is short; a longer clause is a sentence."""
_ASKED_UNIT = re.compile(r"(?:多少|几)(分钟|天|小时|个月|周|年|元|分|次|人|倍)")


def other_language_lead(question: str, claim: str, language: str) -> str:
    """Our words before a quote in the other language: the value it gives, in the asker's language
    ("14 days — 工作年限: 满15年及以上；年休假天数: 14天。"); a generic lead when no value stands out;
    "" when the quote is in the asker's language already. ``question`` is the question read (the
    documents' language).

    >>> other_language_lead("年休假工作人员工作16年多少天？", "工作年限: 满15年及以上；年休假天数: 14天。", "en")
    '14 days — '
    >>> other_language_lead("费用多少？", "费用: 20元。", "en"), other_language_lead("年假多少天？", "年假12天。", "zh")
    ('20 yuan — ', '')
    >>> other_language_lead("每周人预约大型仪器多少小时？", "每次预约最短1小时、最长4小时，每人每周累计预约同一台仪器不超过8小时。", "en")
    '8 hours — '
    >>> other_language_lead("年假多少天？", "满10年不满20年：12天", "en")
    '12 days — '
    >>> other_language_lead("住宿一类城市什么？", "城市类别: 一类城市；住宿上限（元/晚）: 550；伙食补助（元/天）: 120。", "en")
    '550 yuan — '
    >>> other_language_lead("驾驶员连续驾驶多久？", "驾驶员连续驾驶不得超过3.5小时，每次停车休息不少于30分钟；单日累计驾驶时间不得超过9小时。", "en")
    '3.5 hours — '
    >>> other_language_lead("押金标准单车多少？", "普通自行车押金199元；电助力车押金499元。", "en")
    'From the documents, as written: '
    >>> other_language_lead("how many days consecutive doctor?", "Staff receive 10 paid sick days per year. "
    ...                     "A doctor's note is required for more than 3 consecutive sick days.", "zh")
    '按文档：3天 — '
    >>> other_language_lead("零件C的外圆公差是多少？", "零件C的热处理硬度为HRC 58-62，外圆公差为±0.02mm。", "en")
    '±0.02mm — '
    >>> other_language_lead("组会什么时候？", "全体研究生组会每周二14:00在材料楼举行。", "en")
    '14:00 (per the documents) — '
    >>> other_language_lead("安全考试多少分为合格？", "1. 考试满分100分，85分及以上为合格。", "en")
    '85 points — '
    >>> q = "how many days Maple Grove employee paid sick leave?"
    >>> other_language_lead(q, "Every employee receives 6 paid sick days per year.", "zh")
    '按文档：6天 — '
    >>> other_language_lead("how much lunch?", "Staff get a lunch stipend of $9 per shift.", "zh")
    '按文档：9美元 — '
    """
    han = len(re.findall(r"[\u4e00-\u9fff]", claim))
    latin = len(re.findall(r"[A-Za-z]{2,}", claim))
    if language == "en" and han <= latin or language == "zh" and han >= latin:
        return ""
    if language == "zh":
        unit = (m.group(1) or m.group(2)) if (m := _ASKED_EN.search(question.lower())) else None
        words = {w for w in re.findall(r"[a-z]{3,}", question.lower()) if w not in _EN_ASKING}

        def en_value(c: str) -> str | None:
            for v in _EN_VALUE.finditer(c):
                number, en_unit = v.group(1) or v.group(2), (v.group(3) or v.group(4) or "").lower().rstrip("s")
                zh_unit = "美元" if v.group(1) else _ZH_UNIT.get(en_unit, "")
                if en_unit == unit or (unit == "much" and v.group(1)) or (unit is None and zh_unit):
                    return f"{number}{zh_unit}"
            return None

        clauses = [(len(words & set(re.findall(r"[a-z]{3,}", c.lower()))), c)
                   for c in re.split(r"(?<=[.;!?])\s+|\n+|,\s+", claim)]
        value = _clear_value(clauses, en_value)
        return f"按文档：{value} — " if value else "按文档原文："
    key = re.match(r"^(?:[^:：；;]{1,12}[:：]\s*)?([^；;:：]+)[；;:：]", claim)
    # a row's key range is not its value ("满10年不满20年：12天"); a sentence's limit is ("不得超过3.5小时，…；")
    rest = claim[key.end():] if key and len(key.group(1)) <= MAX_KEY_CHARS and band(key.group(1)) else claim
    unit = m.group(1) if (m := _ASKED_UNIT.search(question)) else None
    # the predicate picks the clause: the question's subject ("零件C的") is in every line of its document
    asked = question.split("的", 1)[1] if 0 < question.find("的") <= 12 else question
    grams = {asked[i:i + 2] for i in range(len(asked) - 1)}

    def zh_value(c: str) -> str | None:
        if (h := _HEADER_UNIT.search(c)) and (unit is None or h.group(1) == unit):  # "住宿上限（元/晚）: 550"
            return f"{h.group(2)}% " if h.group(1) == "%" else f"{h.group(2)} {_EN_UNIT[h.group(1)]} "
        for v in _VALUE.finditer(c):
            if f"{v.group(1)}{v.group(2)}" not in question and (unit is None or v.group(2) == unit):
                return f"{v.group(1)}% " if v.group(2) == "%" else f"{v.group(1)} {_EN_UNIT[v.group(2)]} "
        if unit is None:  # a value written with a Latin unit or sign ("±0.02mm") reads as it is
            return next((f"{v.group(0)} " for v in _LATIN_VALUE.finditer(c) if v.group(0) not in question), None)
        return None

    clauses = [(sum(c[i:i + 2] in grams for i in range(len(c) - 1)), c) for c in re.split(r"[，；。,;、\n]", rest)]
    value = _clear_value(clauses, zh_value)
    if value and not re.search(r"[A-Za-z]{2,}", value):  # "14:00": a value alone says nothing in English
        return f"{value.rstrip()} (per the documents) — "
    return f"{value.rstrip()} — " if value else "From the documents, as written: "


_EN_ASKING = frozenset("how many much what which who when where does the and for with are".split())


def _clear_value(clauses: Sequence[tuple[int, str]], value_of: Callable[[str], str | None]) -> str | None:
    """The value of the clause that shares most of the question's words; None when two clauses tie on that
    with different values (a lead that may name the wrong one is worse than none)."""
    scored = [(score, v) for score, c in clauses if (v := value_of(c))]
    if not scored:
        return None
    best = max(score for score, _ in scored)
    tied = {v for score, v in scored if score == best}
    return tied.pop() if len(tied) == 1 else None


def about_asked_item(asked: set[str], sentence: str, claims: Sequence[Claim]) -> bool:
    """The sentence that says "yes" is about the item the question names (``asked``: its entities; itself, or
    by its document's title): "一般零件：使用通用量具进行全尺寸检验" does not say yes to "零件A能不能用通用量具…？"."""
    if not asked:
        return True
    if ent.extract(sentence) & asked:
        return True
    return any(sentence in c.quote and ent.extract(c.title) & asked for c in claims)


_ZH_MODAL_NO = (("可以", "不可以"), ("能", "不能"), ("会", "不会"), ("需要", "不需要"), ("有", "没有"))
"""The Chinese "no" a yes/no question's modal takes ("…能去送车上门吗？" → 不能): the first the question says."""


def premise_reply(p: premise.Premise, is_zh: bool, hant: bool = False, question: str = "") -> str:
    """"不是。" (or the question's own modal said no: "不能。") and what the source says instead, before the quotes
    that say it (``hant``: our words in Traditional characters; the values stay as written)."""
    stmt = premise.yes_no_statement(question) if question else ""
    no = next((n for modal, n in _ZH_MODAL_NO if modal in stmt), "不是")
    if p.found:
        asked, found = "、".join(p.asked), "、".join(p.found)
        return (f"{in_script('不是。文档中写的是', hant)}{found}{in_script('（问题中为', hant)}{asked}）：" if is_zh else
                f"No. The documents say {', '.join(p.found)} (the question says {', '.join(p.asked)}): ")
    return in_script(f"{no}。文档的说法与问题相反：", hant) if is_zh else "No. The documents say the opposite: "


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


