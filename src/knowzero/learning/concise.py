"""A shorter wording of a selected sentence, offline ("说得简洁一点", "say this more simply").

Without a model nothing is reworded that a check could not confirm: the sentence keeps every clause that
says something, word for word and in order, and loses only what the vocabulary's ``concise`` table names
as saying nothing or saying it at length — a filler lead-in, a clause or a tail that only states a
purpose, a bracketed aside, a wordy phrase with a plain equivalent ("必须" → "须", "in order to" → "to"),
and a phrase a parallel clause repeats before its number ("企业用户按校内机时费的3倍收费" after
"…按校内机时费的2倍收费" → "企业用户按3倍收费") or after it ("2 times their regular rate for hours worked on
a paid holiday" after "1.5 times their regular rate for hours worked …" → "2 times on a paid holiday").
Every step keeps the sentence's numbers and its count of negations; a step that would lose one is not taken,
and the result keeps every condition, obligation and limit word (:func:`keeps_what_matters`) or is not used.
"""

from __future__ import annotations

import re
from collections import Counter

from knowzero.knowledge.text import pos_tags
from knowzero.vocabulary.tables import table

_T = table("concise")
_FILLER_LEAD = re.compile(_T["filler_lead"], re.I)
_PURPOSE_LEAD = re.compile(_T["purpose_lead"])
_PURPOSE_TAIL = re.compile(_T["purpose_tail"], re.I)
_KEEPS = re.compile(_T["keeps"], re.I)
_ASIDE = re.compile(_T["aside"])
_ARTICLE_LABEL = re.compile(_T["article_label"])
_SHORT_VERBS = _T["short_verbs"]
_REWRITES = tuple((re.compile(r["pattern"], re.I), r["plain"]) for r in _T["rewrites"])
_ELLIPSIS_AFTER = re.compile(f"(?:{_T['ellipsis_after']})")
_NEGATION = re.compile(_T["negation"], re.I)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CLAUSE_SEP = re.compile(r"([，,；;]\s*)")
_END = "。.！!；;"


_TWO_CELL_ROW = re.compile(r"^([\u4e00-\u9fff][^:：；;]{1,15})[:：]\s*([^；;:：]{1,40})；([\u4e00-\u9fff][^:：；;]{1,11})[:：]\s*([^；;:：]+)$")
"""A Chinese table row of two cells as the parser writes it: its first header reads as the value's subject, and its
second header ("收费标准") is what the value says it is."""


def _same_values(a: str, b: str) -> bool:
    """Same numbers and no fewer negations: what every step of a shortening keeps."""
    return (Counter(_NUMBER.findall(a)) == Counter(_NUMBER.findall(b))
            and len(_NEGATION.findall(b)) >= len(_NEGATION.findall(a)))


def _plain(text: str) -> str:
    for pattern, plain in _REWRITES:
        text = pattern.sub(plain, text)
    return text


def keeps_what_matters(original: str, short: str) -> bool:
    """Does ``short`` keep every number, negation, condition, obligation and limit of ``original`` (each
    word the ``keeps`` pattern finds, as written or in its plain form: "必须" kept as "须")? Pure; what an
    offline shortening is held to (a model's rewording is checked like any model text instead).

    >>> keeps_what_matters("如果超过3天，必须提前申请。", "若超过3天，须提前申请。")
    True
    >>> keeps_what_matters("如果超过3天，必须提前申请。", "超过3天，提前申请。"), keeps_what_matters("不得超过5天", "得超过5天")
    (False, False)
    """
    # a lead-in or an aside bounds nothing; a wordy phrase is read as its plain form ("提前预冷" is "预冷")
    said = _plain(_ASIDE.sub("", _FILLER_LEAD.sub("", original.strip())))
    return _same_values(original, short) and all(m.group(0) in short for m in _KEEPS.finditer(said))


def _only_purpose(clause: str) -> bool:
    c = clause.strip()
    m = _PURPOSE_LEAD.match(c)
    return m is not None and not _KEEPS.search(c[m.end():])


def _drop_purpose_tail(clause: str) -> str:
    m = _PURPOSE_TAIL.search(clause)
    if m and m.start() > 0 and not _KEEPS.search(m.group(0)):
        return clause[:m.start()].rstrip()
    return clause


def _elide_repeat(clause: str, earlier: list[str]) -> str:
    """``clause`` without the phrase an earlier clause repeats right before a number (kept: its preposition)."""
    for m in _NUMBER.finditer(clause):
        head = clause[:m.start()]
        for size in range(min(len(head), 20), 3, -1):
            phrase = head[-size:]
            if any(re.search(re.escape(phrase) + r"\d", e) for e in earlier):
                # the repeated words after the phrase's last preposition ("用户按|校内机时费的" → "用户按")
                leads = list(_ELLIPSIS_AFTER.finditer(phrase))
                if leads and size - leads[-1].end() >= 3:
                    return head[:-size] + phrase[:leads[-1].end()] + clause[m.start():]
                break
    return clause


def _elide_repeat_after(clause: str, earlier: list[str]) -> str:
    """``clause`` without the words an earlier clause repeats right after a number (kept: the first, its
    unit): "…1.5 times their regular rate for hours worked over 40, and 2 times their regular rate for hours
    worked on a paid holiday" → "…, and 2 times on a paid holiday"."""
    for m in _NUMBER.finditer(clause):
        words = clause[m.end():].split(" ")
        if len(words) < 4 or words[0] != "":
            continue
        words = words[1:]
        for size in range(len(words), 2, -1):
            phrase = " ".join(words[:size])
            if any(re.search(r"\d " + re.escape(phrase) + r"\b", e) for e in earlier):
                return clause[:m.end()] + " " + " ".join([words[0], *words[size:]]).rstrip()
    return clause


_HAS_OR_NOT = frozenset("无 有 没有 未 非 不 持有 具有".split())
"""Before "N的N" these make N的 a clause about the second noun ("无责任事故的驾驶员"): its 的 stays."""


def _drop_possessive_de(clause: str) -> str:
    """"老人的社保卡" → "老人社保卡": a 的 between two nouns (jieba's n* flags, the first of two characters or more)
    goes, as concise written Chinese drops it; not after a verb of having or not having ("无责任事故的驾驶员")."""
    if "的" not in clause or not re.search(r"[\u4e00-\u9fff]", clause):
        return clause
    tagged = pos_tags(clause)
    if sum(len(w) for w, _ in tagged) != len(clause):  # the tagger folded the text differently: leave it
        return clause
    out = []
    for i, (w, _flag) in enumerate(tagged):
        if (w == "的" and 0 < i < len(tagged) - 1 and tagged[i - 1][1].startswith("n") and len(tagged[i - 1][0]) >= 2
                and tagged[i + 1][1].startswith("n") and len(tagged[i + 1][0]) >= 2
                and (i < 2 or tagged[i - 2][0] not in _HAS_OR_NOT)):
            continue
        out.append(w)
    return "".join(out)


def _short_verbs(clause: str) -> str:
    """"每月发放安全奖400元" → "每月发安全奖400元": a two-character verb of the ``short_verbs`` table in its plain
    one-character form, only where the tagger reads it as a verb with an object after it (a noun use such as
    "办理时限", or a verb ending its clause, "暂停发放", stays)."""
    if not any(v in clause for v in _SHORT_VERBS):
        return clause
    tagged = pos_tags(clause)
    if sum(len(w) for w, _ in tagged) != len(clause):
        return clause
    return "".join(_SHORT_VERBS[w] if w in _SHORT_VERBS and flag == "v" and i + 1 < len(tagged)
                   and re.match(r"[\u4e00-\u9fff\w]", tagged[i + 1][0]) else w
                   for i, (w, flag) in enumerate(tagged))


def shorter_wording(text: str) -> str:
    """``text`` said more briefly (pure; see the module doc), or ``text`` itself when nothing can go.

    >>> shorter_wording("需要注意的是，当年未休完的年假必须在次年6月30日之前使用。")
    '当年未休完的年假须在次年6月30日前使用。'
    >>> shorter_wording("Requests are required to be filed prior to the trip.")
    'Requests must be filed before the trip.'
    >>> shorter_wording("超出约定还车时间: 1小时以上至4小时（含4小时）；收费标准: 每小时50元，不足1小时按1小时计。")
    '超出约定还车时间1小时以上至4小时（含4小时）：每小时50元，不足1小时按1小时计。'
    """
    original = text.strip()
    end = original[-1] if original and original[-1] in _END else ""
    body = original[:-1] if end else original
    if row := _TWO_CELL_ROW.match(body):  # a table row as read: "超出约定还车时间: 1小时以上至4小时；收费标准: 每小时50元"
        body = f"{row.group(1)}{row.group(2)}：{row.group(4)}"  # → "超出约定还车时间1小时以上至4小时：每小时50元"
    for pattern in (_FILLER_LEAD, _ARTICLE_LABEL, _ASIDE):
        if _same_values(body, cut := pattern.sub("", body)):
            body = cut
    parts = _CLAUSE_SEP.split(body)
    clauses, seps = parts[0::2], parts[1::2]
    out, kept = "", []  # type: tuple[str, list[str]]
    for i, clause in enumerate(clauses):
        c = clause.strip()
        if not c or _only_purpose(c):
            continue
        c = _drop_purpose_tail(c)
        for pattern, plain in _REWRITES:
            c2 = pattern.sub(plain, c)
            if _same_values(c, c2):
                c = c2
        c = _short_verbs(_drop_possessive_de(c))
        c = _elide_repeat_after(_elide_repeat(c, kept), kept)
        out += (seps[i - 1] if kept and i > 0 else "") + c
        kept.append(clause)
    out = out.strip() + end
    if out and out[0].islower() and original[:1].isupper():
        out = out[0].upper() + out[1:]
    return out if out and len(out) < len(original) and keeps_what_matters(original, out) else original
