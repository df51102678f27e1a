"""Service triage: urgency (P0 critical, P1 high, P2 normal) and sentiment for every service turn.

Default: a weighted lexicon for Chinese and English (negators, intensifiers, "!!!", SHOUTING).
With an LLM configured, :func:`llm_sentiment` asks it for the sentiment (the caller bounds it with a deadline and falls back to the
lexicon when it fails); the lexicon stays a floor: the more negative of the two counts. :func:`assess` also decides whether the thread goes to a human: P0, an
explicit request ("转人工", "talk to a person"), or two consecutive angry turns.

Does not create handoffs or talk to the user (see ``handoff.py`` and the tools node).
"""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import cast

from knowzero.errors import ProviderError
from knowzero.llm.base import ChatProvider, chat_json
from knowzero.service.state import TriageState
from knowzero.vocabulary.service import ASKS_FOR_PERSON

NEGATIVE: dict[str, float] = {
    # zh
    "生气": 0.8, "气死": 1.0, "愤怒": 1.0, "火大": 0.9, "恼火": 0.8, "太差": 0.8, "差劲": 0.8, "垃圾": 1.0, "骗子": 1.0,
    "骗人": 0.9, "坑人": 0.9, "坑": 0.5, "破服务": 1.0, "什么破": 0.9, "烂": 0.6, "失望": 0.6, "无语": 0.6, "恶心": 0.9,
    "差评": 0.8, "再也不": 0.8, "搞什么": 0.8, "怎么回事": 0.4, "到底": 0.4, "怎么还没": 0.3, "还没到": 0.2,
    "受不了": 0.8, "忍无可忍": 1.0, "投诉你们": 0.9, "退钱": 0.4, "离谱": 0.8, "过分": 0.7, "糟糕": 0.6, "浪费": 0.5,
    "不靠谱": 0.7, "太慢": 0.4, "慢死": 0.8, "滚": 1.0, "废物": 1.0, "欺骗": 0.9, "态度差": 0.8, "没人管": 0.7,
    "着急": 0.4, "急死": 0.8, "崩溃": 0.8,
    # en
    "angry": 0.8, "furious": 1.0, "terrible": 0.8, "awful": 0.8, "worst": 0.9, "scam": 1.0, "ridiculous": 0.8,
    "useless": 0.9, "unacceptable": 0.9, "disappointed": 0.6, "hate": 0.8, "wtf": 1.0, "pathetic": 0.9,
    "horrible": 0.8, "fed up": 0.8, "sick of": 0.8, "rip-off": 0.9, "ripoff": 0.9, "fraud": 0.8, "incompetent": 0.9,
    "annoyed": 0.6, "frustrated": 0.6, "upset": 0.6, "garbage": 0.9, "joke": 0.4, "still not": 0.4,
}
POSITIVE: dict[str, float] = {
    "谢谢": 0.5, "感谢": 0.5, "满意": 0.6, "不错": 0.4, "很好": 0.5, "太好了": 0.6, "好评": 0.6, "辛苦": 0.3,
    "thanks": 0.5, "thank you": 0.5, "great": 0.5, "perfect": 0.6, "awesome": 0.6, "appreciate": 0.5, "helpful": 0.5,
}
INTENSIFIERS = ("太", "非常", "真是", "真的", "特别", "极其", "超级", "so ", "very ", "really ", "extremely ", "totally ")
NEGATORS = ("不", "没", "别", "not ", "no ", "never ", "n't ")

P0 = re.compile(r"受伤|伤人|起火|着火|爆炸|冒烟|触电|安全事故|人身安全|停线|生产线停|停产|报警|律师|起诉|法院|诉讼|媒体曝光|"
                r"盗刷|被盗|诈骗|泄露|隐私|紧急|十万火急|"
                r"injur|fire\b|smoke|explod|electric\s+shock|lawsuit|lawyer|sue\b|police|fraud|stolen|data\s+leak|"
                r"production\s+(line\s+)?(stopped|down)|emergency|urgent", re.I)
P1 = re.compile(r"退款|退钱|扣款|多扣|重复扣|损坏|破损|坏了|质量问题|没收到|丢件|丢了|延误|超时|错发|少发|投诉|"
                r"refund|charged|double\s+charge|damaged|broken|defective|never\s+arrived|lost|late|delay|wrong\s+item|complain", re.I)
ANGRY_THRESHOLD = -0.6


@dataclass
class Triage:
    urgency: str
    """P0 (critical: safety, legal, fraud, a customer's line stopped), P1 (money, damage, loss), P2."""
    sentiment: float
    """-1 (furious) … +1 (delighted), lexicon-based."""
    label: str
    """angry | negative | neutral | positive."""
    angry_streak: int
    """Consecutive angry service turns, including this one."""
    human_requested: bool
    handoff: bool
    reason: str

    def to_dict(self) -> TriageState:
        return cast(TriageState, asdict(self))


def sentiment_score(text: str) -> float:
    """Lexicon score in (-1, 1): tanh of the summed weights of negative terms (× intensifier, flipped by
    a negator) against positive ones, so one mild complaint is "negative" and a pile-up is "angry"."""
    low = text.lower()
    score = 0.0
    for lex, sign in ((NEGATIVE, -1.0), (POSITIVE, 1.0)):
        for term, w in lex.items():
            start = 0
            while (i := low.find(term, start)) >= 0:
                before = low[max(0, i - 4):i]
                mult = 1.5 if any(x in before for x in INTENSIFIERS) else 1.0
                neg = any(before.endswith(n) or before.endswith(n.strip()) for n in NEGATORS) and sign > 0
                score += (-sign if neg else sign) * w * mult
                start = i + len(term)
    bangs = len(re.findall(r"[!！]", text))
    if bangs >= 2 and score < 0:
        score -= 0.2 * min(bangs, 5)
    letters = re.findall(r"[A-Za-z]", text)
    if len(letters) >= 8 and sum(c.isupper() for c in letters) / len(letters) > 0.7:
        score -= 0.4
    if re.search(r"[?？]{2,}", text) and score < 0:
        score -= 0.2
    return math.tanh(score / 1.5)


def label_for(score: float) -> str:
    if score <= ANGRY_THRESHOLD:
        return "angry"
    if score < -0.15:
        return "negative"
    if score > 0.3:
        return "positive"
    return "neutral"


def urgency_for(text: str, score: float) -> str:
    if P0.search(text):
        return "P0"
    if P1.search(text) or score <= ANGRY_THRESHOLD:
        return "P1"
    return "P2"


def assess(text: str, previous: TriageState | None = None, sentiment: float | None = None) -> Triage:
    """Triage one service turn given the thread's previous triage (for the angry streak).

    ``sentiment`` is a model's reading of the turn; the lexicon's is a floor under it (the more
    negative of the two counts), as the LLM judge can only make a verdict stricter: a model that
    under-reads anger ("0.0" for "气死我了！垃圾服务！！") cannot stop an angry customer's hand-off.
    """
    lexicon = sentiment_score(text)
    score = lexicon if sentiment is None else min(lexicon, sentiment)
    label = label_for(score)
    streak = ((previous or {}).get("angry_streak", 0) + 1) if label == "angry" else 0
    urgency = urgency_for(text, score)
    human = bool(ASKS_FOR_PERSON.search(text))
    reason = ""
    if urgency == "P0":
        reason = "critical issue (P0)"
    elif human:
        reason = "customer asked for a human"
    elif streak >= 2:
        reason = "customer angry two turns in a row"
    return Triage(urgency, round(score, 3), label, streak, human, bool(reason), reason)


def llm_sentiment(provider: ChatProvider, text: str) -> float:
    """The customer's sentiment (-1..1) from a configured chat model (blocking; the caller bounds it
    with a deadline and falls back to the lexicon). Raises ProviderError."""
    data = chat_json(provider, [{"role": "user", "content":
                     "Rate the customer's sentiment from -1 (furious) to 1 (delighted). "
                     f"Reply JSON {{\"sentiment\": number}}. Message: {text}"}],
                     {"type": "object", "required": ["sentiment"], "properties": {"sentiment": {"type": "number"}}})
    try:
        return max(-1.0, min(1.0, float(data["sentiment"])))
    except (KeyError, TypeError, ValueError) as exc:
        raise ProviderError("the model's sentiment was not a number") from exc
