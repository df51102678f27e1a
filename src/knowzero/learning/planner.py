"""Learning paths: "系统地学 X" → ordered steps, prerequisites first, each with a time estimate.

Steps are the knowledge-base documents about X (hybrid retrieval, scores summed per file). The
order comes from structure, not from a model: document B *depends on* document A when B's text
names A's subject (its title stem, e.g. a part process sheet that says "首件检验"), and when a
learning page for B was opened from A's page (parent → child). Steps are topologically sorted
(Kahn), ties broken by how many other steps depend on a step (foundations first) and then by
relevance; a cycle is broken at its most-referenced step. Time per step: reading at
``CHARS_PER_MINUTE`` plus ``PRACTICE_MINUTES``, rounded up to 5 minutes. The user's learned topics
are marked. Too little in the knowledge base → no path, the closest topics instead.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from rapidfuzz import fuzz

from knowzero.knowledge.answer.retriever import Plan, evidence_quality, retrieve
from knowzero.learning.compose import SUFFICIENT_QUALITY, clean_topic, closest_topics
from knowzero.learning.entities import title_stem

CHARS_PER_MINUTE = 300
PRACTICE_MINUTES = 5
MAX_STEPS = 6
_SPECIFIC = re.compile(r"故障|排查|checklist|清单|零件|案例|FAQ|常见问题|总结|troubleshoot", re.I)


def estimate_minutes(chars: int) -> int:
    minutes = chars / CHARS_PER_MINUTE + PRACTICE_MINUTES
    return int(min(90, max(5, 5 * math.ceil(minutes / 5))))


def is_learned(topic: str, learned: list[str]) -> bool:
    t = topic.lower()
    return any(fuzz.ratio(t, x.lower()) >= 85 or (len(x) >= 2 and (x.lower() in t or t in x.lower())) for x in learned)


def order_steps(nodes: list[str], deps: dict[str, set[str]], relevance: dict[str, float],
                specific: set[str] | None = None) -> list[str]:
    """Topological order of ``nodes``; ``deps[b]`` = steps b depends on (see module doc).

    ``specific`` steps (troubleshooting, checklists, single parts) yield to general ones on ties.

    >>> order_steps(["b", "a"], {"b": {"a"}, "a": set()}, {"a": 0.1, "b": 0.9})
    ['a', 'b']
    """
    remaining = {n: set(deps.get(n, set())) & set(nodes) for n in nodes}
    used_by = {n: sum(1 for m in nodes if n in remaining[m]) for n in nodes}
    specific = specific or set()

    def priority(n: str) -> tuple[bool, int, float]:
        return (n not in specific, used_by[n], relevance.get(n, 0.0))

    for a in nodes:  # two steps naming each other: the more general one comes first
        for b in nodes:
            if a < b and a in remaining[b] and b in remaining[a]:
                first = max((a, b), key=priority)
                remaining[first].discard(b if first == a else a)

    out: list[str] = []
    while remaining:
        ready = [n for n, d in remaining.items() if not d]
        if not ready:  # a cycle: start from its most general, most-referenced step
            ready = list(remaining)
        pick = max(ready, key=priority)
        out.append(pick)
        remaining.pop(pick)
        for d in remaining.values():
            d.discard(pick)
    return out


_ROLE = re.compile(r"^(?:我想|我要|想要|希望|如何|怎样|怎么)?(?:成为|当上|当|做|成长为|胜任)?(?:一名|一个|一位|名)?"
                   r"(?:合格|优秀|熟练|专业|称职|高级|初级)?的?")
_SKILL = re.compile(r"^(?:学会|掌握|精通|熟悉|熟练掌握|会)")


def goal_topic(goal: str) -> str:
    """'成为合格的CNC操作工' → 'CNC操作工'; '掌握热处理' → '热处理'; '系统地学习主轴' → '主轴'."""
    t = clean_topic(goal)
    t = _ROLE.sub("", t).strip() or t
    t = _SKILL.sub("", t).strip() or t
    return clean_topic(t)


def make_plan(kb: Any, goal: str, *, learned: list[str] | None = None,
              page_of: Callable[[str], str | None] | None = None,
              parent_links: list[tuple[str, str]] | None = None, max_steps: int = MAX_STEPS) -> dict[str, Any]:
    """The path for ``goal`` (see module doc). ``parent_links``: (parent topic, child topic) of pages.

    A goal phrased as a role or a skill ("成为合格的CNC操作工") is planned for what it names ("CNC操作工").
    """
    topic = goal_topic(goal)
    strategy = "hybrid" if kb.has_vectors() else "keyword"
    searched = tuple(kb.default_collections())
    r = retrieve(kb, topic, Plan(top_k=20, strategy=strategy, collections=searched),  # type: ignore[arg-type]
                 budget_chars=40000)
    quality = evidence_quality(kb, topic, r)
    passages = [s for s in r.passages if not s.passage.id.startswith("sql:")]
    if quality < SUFFICIENT_QUALITY or not passages:
        return {"goal": goal, "topic": topic, "sufficient": False, "steps": [], "total_minutes": 0,
                "closest_topics": closest_topics(kb, topic, passages, collections=searched),
                "reason": f"the knowledge base covers {quality:.0%} of the topic's terms"}
    score: dict[str, float] = {}
    title: dict[str, str] = {}
    for s in passages:
        score[s.passage.path] = score.get(s.passage.path, 0.0) + s.score
        title.setdefault(s.passage.path, s.passage.title or s.passage.path)
    top = max(score.values())
    files = [p for p in sorted(score, key=lambda p: -score[p]) if score[p] >= 0.2 * top][:max_steps]
    stems = {p: title_stem(title[p]) for p in files}
    deps: dict[str, set[str]] = {p: set() for p in files}
    why: dict[str, list[str]] = {p: [] for p in files}
    for b in files:
        text = kb.text_of(b).lower()
        for a in files:
            if a != b and len(stems[a]) >= 2 and stems[a].lower() in text and stems[b].lower() not in stems[a].lower():
                deps[b].add(a)
                why[b].append(f"文中提到「{stems[a]}」")
    by_stem = {stems[p].lower(): p for p in files}
    for parent, child in parent_links or []:
        pa, ch = by_stem.get(parent.lower()), by_stem.get(child.lower())
        if pa and ch and pa != ch:
            deps[ch].add(pa)
            why[ch].append(f"「{stems[pa]}」的页面引出了本主题")
    specific = {p for p in files if _SPECIFIC.search(title[p])}
    order = order_steps(files, deps, score, specific)
    learned = learned or []
    steps = []
    for i, p in enumerate(order, 1):
        name = stems[p]
        minutes = estimate_minutes(len(kb.text_of(p)))
        steps.append({"order": i, "topic": name, "title": title[p], "source": p, "estimated_minutes": minutes,
                      "prerequisites": [stems[a] for a in order[: i - 1] if a in deps[p]],
                      "reason": "；".join(why[p]) or "基础内容，先学",
                      "learned": is_learned(name, learned) or is_learned(title[p], learned),
                      "document_id": page_of(name) if page_of else None, "relevance": round(score[p], 5)})
    return {"goal": goal, "topic": topic, "sufficient": True, "steps": steps,
            "total_minutes": sum(s["estimated_minutes"] for s in steps if not s["learned"]),
            "closest_topics": [], "reason": f"{len(steps)} knowledge-base documents about the topic"}


def path_markdown(plan: dict[str, Any]) -> str:
    if not plan.get("sufficient"):
        lines = [f"知识库中关于「{plan['topic']}」的内容不足，无法规划学习路径。"]
        if plan.get("closest_topics"):
            lines += ["知识库覆盖的相近主题："] + [f"- {t}" for t in plan["closest_topics"]]
        return "\n".join(lines)
    lines = []
    for s in plan["steps"]:
        mark = "✅ 已学" if s["learned"] else f"约 {s['estimated_minutes']} 分钟"
        pre = f"（先修：{'、'.join(s['prerequisites'])}）" if s["prerequisites"] else ""
        lines.append(f"{s['order']}. {s['topic']} — {mark}{pre}（来源：{s['title']}）")
    lines.append(f"\n预计总时长：{plan['total_minutes']} 分钟（未学部分）")
    return "\n".join(lines)
