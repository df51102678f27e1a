"""The clause of the condition asked: a rule that lists conditions with their own values ("丧假：父母、配偶、子女去世
的，给予丧假3天；配偶的父母去世的，给予丧假2天。") answers a question by the clause whose condition it states most
exactly (pure)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from knowzero.knowledge.answer.reader import Claim


_LABEL = re.compile(r"^\s*(?:[-*•]\s*)?(?:[^，,。；;：:]{1,12}[：:])?")
"""A rule's label before its clauses ("- 丧假：")."""
_CONDITIONED = re.compile(r"(?P<cond>[^，,。；;：:]{2,30}?)(?:的|时|者)[，,](?P<then>[^；;。]+)")
"""A clause that states its condition first: "配偶的父母去世的，给予丧假2天"."""


def _condition_forms(condition: str) -> list[str]:
    """What a condition says, each listed item with the words they share ("父母、配偶、子女去世" → 父母去世,
    配偶去世, 子女去世) or the condition as written.

    >>> _condition_forms("父母、配偶、子女去世"), _condition_forms("配偶的父母去世")
    (['父母去世', '配偶去世', '子女去世'], ['配偶的父母去世'])
    """
    items = [i for i in re.split(r"[、/]", condition) if i]  # not 及/和: "满3年及以上" is one range
    if len(items) < 2:
        return [condition]
    head = max(len(i) for i in items[:-1])  # the last item carries what all share after a head as long as theirs
    tail = items[-1][head:]
    return [*(i + tail for i in items[:-1]), items[-1]] if tail else items


def _parallel(quote: str, offset: int, q: str) -> list[tuple[int, int, str]]:
    """(held, at, body) of each part of a list of parallel cases, each with its own value and the same words around
    it ("平时提前2天，农忙期提前5天": the case is what is left of a part without the shared 提前 and its number); held
    is the longest head of the case the question writes (农忙 of 农忙期). [] when the parts are not such a list.

    >>> [(h, b) for h, _, b in _parallel("作业须提前预约：平时提前2天，农忙期提前5天。", 8, "农忙的时候得提前几天约？")]
    [(0, '平时提前2天'), (2, '农忙期提前5天')]
    """
    parts = [(offset + m.start() + len(m.group(0)) - len(m.group(0).lstrip()), m.group(0).strip().rstrip("。."))
             for m in re.finditer(r"[^，,；;：:]+", quote[offset:])]
    while parts and not re.search(r"\d", parts[0][1]):
        parts = parts[1:]  # what comes before the cases ("农户请合作社作业的，作业须提前预约：")
    if len(parts) < 2 or not all(re.search(r"\d", b) for _, b in parts):
        return []
    head = re.split(r"\d", parts[0][1], maxsplit=1)[0]
    shared = [head[i:i + 2] for i in range(len(head) - 1)
              if re.fullmatch(r"[\u4e00-\u9fff]{2}", head[i:i + 2]) and all(head[i:i + 2] in b for _, b in parts[1:])]
    if not shared:
        return []
    out = []
    for at, body in parts:
        case = re.split(r"\d", body, maxsplit=1)[0]
        for w in shared:
            case = case.replace(w, "")
        held = max((n for n in range(len(case), 1, -1) if case[:n] in q), default=0)
        out.append((held, at, body))
    return out


def narrow_to_condition(question: str, claims: list[Claim]) -> list[Claim]:
    """The main claim narrowed to the one clause whose condition the question states most exactly, when the quote
    lists several conditions with their own values ("丧假：父母、配偶、子女去世的，给予丧假3天；配偶的父母去世的，
    给予丧假2天。" asked about 配偶的父母 → the 2天 clause; asked about 父母 → the 3天 one); unchanged when fewer
    than two clauses state a condition, or none or two hold equally. The quote stays verbatim (a span of the
    claim's); the rule's label is kept in front ("丧假：…"). Pure.

    >>> text = "- 丧假：父母、配偶、子女去世的，给予丧假3天；配偶的父母去世的，给予丧假2天。"
    >>> from knowzero.knowledge.answer.reader import Claim
    >>> c = [Claim(text, "a.md", text, 10, 10 + len(text), "p")]
    >>> [x.text for x in narrow_to_condition("配偶的父母去世的话，公司给几天丧假？", c)]
    ['丧假：配偶的父母去世的，给予丧假2天']
    >>> [x.quote for x in narrow_to_condition("父母去世的话，公司给几天丧假？", c)]
    ['父母、配偶、子女去世的，给予丧假3天']
    >>> narrow_to_condition("丧假有几天？", c) == c
    True
    >>> t = "科研助理连续工作满1年不满3年的，年假5天；满3年及以上的，年假8天。"
    >>> narrow_to_condition("科研助理工作满1年不满3年，年假有几天？", [Claim(t, "a", t, 0, len(t), "p")])[0].text == t
    True
    """
    if not claims:
        return claims
    main = claims[0]
    q = question.replace(" ", "")
    label = _LABEL.match(main.quote)
    offset = label.end() if label else 0
    clauses = []
    for m in re.finditer(r"[^；;]+", main.quote[offset:]):
        part = m.group(0)
        if (c := _CONDITIONED.match(part.strip())) and re.search(r"\d", c.group("then")):
            if re.search(r"\d", c.group("cond")):
                return claims  # a range of numbers ("满1年不满3年的") is read as a band, not as words
            lead = len(part) - len(part.lstrip())
            body = part.strip().rstrip("。.")
            held = max((len(f) for f in _condition_forms(c.group("cond"))
                        if len(f) >= 2 and f in q and not re.search(f"[不未非没无]{re.escape(f)}", q)), default=0)
            clauses.append((held, offset + m.start() + lead, body))
    if len(clauses) < 2:
        clauses = _parallel(main.quote, offset, q)
    if len(clauses) < 2:
        return claims
    best = max(h for h, _, _ in clauses)
    top = [(at, body) for h, at, body in clauses if h == best]
    if not best or len(top) != 1:
        return claims
    at, body = top[0]
    name = label.group(0).strip().lstrip("-*• ").strip() if label else ""
    start = main.start + at
    narrowed = replace(main, text=name + body, quote=body, start=start, end=start + len(body))
    return [narrowed, *claims[1:]]
