"""Test sets built by code from SQuAD-format data (CMRC 2018, DRCD): deterministic for a seed.

- :func:`build_conflicts`: a gold paragraph and a copy whose answer is swapped for another value of
  the same type (number ↔ number, date ↔ date, person ↔ person, place ↔ place), as two documents;
- :func:`strip_answer_sentences`: a paragraph without the sentences that hold the answer (a near miss);
- :func:`build_paraphrases`: true answers reworded by rule (the question turned into a statement,
  synonyms, clause order, number format) and the same rewrites with the answer swapped (hallucinated);
- :func:`build_polarity`: "是的。" to a "…是…吗？" question, against the source and against the source
  with the predicate negated.

Rules only, no model: the rewrites are meant to keep the meaning, but a rule can misfire (a
synonym that does not fit its context); the sets measure the checker, they are not gold-standard
paraphrases. Traditional-script data keeps its script: rules match on its Simplified form (OpenCC,
same length) and splice into the original text.
Not here: running the product (see ``eval.knowledge`` and ``eval.factcheck``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from knowzero.knowledge.answer.reader import answer_type
from knowzero.knowledge.text import fold, has_cjk, in_script, split_sentences
from knowzero.knowledge.text import traditional as is_traditional


def detect_script(text: str) -> str:
    """``traditional`` when at least 5% of the CJK characters change under OpenCC t2s, else ``simplified``.

    >>> detect_script("在歐洲，梵語的學術研究"), detect_script("在欧洲，梵语的学术研究")
    ('traditional', 'simplified')
    """
    return "traditional" if is_traditional(text) else "simplified"


# ----- answer types and swaps -----
_DATE = re.compile(r"^(?:公元前?)?\d{1,4}年(?:\d{1,2}月)?(?:\d{1,2}日)?$|^\d{1,2}月\d{1,2}日$")
_NUMBER = re.compile(r"^[约近逾超过余]{0,2}\d[\d,.]*\s*[^\d\s]{0,4}$")
_NAME = re.compile(r"^[\u4e00-\u9fff]{2,4}$|^[\u4e00-\u9fff]{1,6}[·‧・][\u4e00-\u9fff]{1,8}$")
# English answers (HotpotQA-style data): a year or a full date, a count, a capitalised name.
_MONTH = r"(?:January|February|March|April|May|June|July|August|September|October|November|December)"
_EN_DATE = re.compile(rf"^(?:{_MONTH} (?:\d{{1,2}}, )?|\d{{1,2}} {_MONTH} )?\d{{4}}$")
_EN_NUMBER = re.compile(r"^(?:about |over |nearly |more than )?\d[\d,.]*(?: (?:million|billion|thousand|hundred))?(?: [a-z]+){0,2}$")
_EN_NAME = re.compile(r"^[A-Z][\w'.\-]*(?: (?:[A-Z][\w'.\-]*|of|de|da|van|von|the|and|la|le)){0,4}$")
_EN_PLACE_Q = re.compile(r"\bwhere\b|\b(?:what|which|in what|in which) (?:city|country|state|town|county|region|island|province|nation)\b",
                         re.IGNORECASE)


def value_kind(question: str, value: str) -> str | None:
    """``date`` | ``number`` | ``person`` | ``place`` for a swappable answer, else None."""
    v = value.strip()
    english = not has_cjk(question)
    date, number = (_EN_DATE, _EN_NUMBER) if english else (_DATE, _NUMBER)
    if date.match(v):
        return "date"
    if number.match(v) and len(re.findall(r"\d[\d,.]*", v)) == 1:
        return "number"
    if english:  # a capitalised name: a place for where/which-city questions, a person for who questions
        if not _EN_NAME.match(v):
            return None
        if _EN_PLACE_Q.search(question):
            return "place"
        return "person" if re.search(r"\bwho(?:m|se)?\b", question, re.IGNORECASE) else None
    kind = answer_type(fold(question))
    if kind in ("person", "place") and _NAME.match(v):
        return kind
    return None


def _distinct(a: str, b: str) -> bool:
    return a != b and a not in b and b not in a


def shift_number(value: str, rng: random.Random) -> str:
    """The value with its first number changed (a year moves 1-9 years; others by 10-90% or ±1-9).

    >>> shift_number("1786年", random.Random(1)) != "1786年"
    True
    """
    numbers = list(re.finditer(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", value))
    if not numbers:
        return value
    en_date = _EN_DATE.match(value) is not None
    m = numbers[-1] if en_date else numbers[0]  # an English date moves its year, not its day
    raw = m.group(0)
    num = float(raw.replace(",", ""))
    for _ in range(20):
        if re.fullmatch(r"\d{4}", raw) and ("年" in value[m.end():m.end() + 1] or en_date):
            new = num + rng.choice([-1, 1]) * rng.randint(1, 9)
        elif num >= 20:
            new = round(num * (1 + rng.choice([-1, 1]) * rng.randint(1, 9) / 10))
        else:
            new = max(1, num + rng.choice([-1, 1]) * rng.randint(1, 9))
        text = (f"{new:.{len(raw.split('.')[1])}f}" if "." in raw else str(int(new)))
        if "," in raw and len(text) > 3:
            text = f"{int(new):,}"
        out = value[:m.start()] + text + value[m.end():]
        if _distinct(out, value) and _distinct(text, raw):
            return out
    return value


def swap_value(kind: str, value: str, same_kind: Sequence[str], rng: random.Random) -> str | None:
    """Another value of the same kind: numbers and dates shifted, names and places from ``same_kind``."""
    if kind in ("date", "number"):
        out = shift_number(value, rng)
        return out if out != value else None
    options = sorted({v for v in same_kind if _distinct(v, value)})
    return rng.choice(options) if options else None


@dataclass(frozen=True)
class ConflictPair:
    question: str
    """The question, asked over a knowledge base holding both documents."""
    gold: str
    """The original paragraph's id (source)."""
    copy_id: str
    """The conflicting copy's id (source)."""
    title: str
    copy_context: str
    """The paragraph with every occurrence of ``value`` replaced by ``swapped``."""
    value: str
    swapped: str
    kind: str


def _typed_answers(questions: Sequence[dict[str, Any]]) -> list[tuple[dict[str, Any], str, str]]:
    out = []
    for q in questions:
        ans = q["answers"][0].strip()
        kind = value_kind(q["question"], ans)
        if kind:
            out.append((q, ans, kind))
    return out


def _sampling(paragraphs: Sequence[dict[str, str]], questions: Sequence[dict[str, Any]], seed: int) -> tuple[
        random.Random, dict[str, dict[str, str]], list[tuple[dict[str, Any], str, str]], dict[str, list[str]]]:
    """What both builders start from: a seeded rng, paragraphs by id, the typed answers in a seeded
    order, and the answers of each type (the substitutes' pool)."""
    rng = random.Random(seed)
    by_id = {p["id"]: p for p in paragraphs}
    typed = _typed_answers(questions)
    pool: dict[str, list[str]] = {}
    for _, ans, kind in typed:
        pool.setdefault(kind, []).append(ans)
    rng.shuffle(typed)
    return rng, by_id, typed, pool


def build_conflicts(paragraphs: Sequence[dict[str, str]], questions: Sequence[dict[str, Any]], *, seed: int = 3,
                    limit: int | None = None) -> list[ConflictPair]:
    """Conflicting pairs, at most one per paragraph (see module doc), a seeded sample of ``limit``."""
    rng, by_id, typed, pool = _sampling(paragraphs, questions, seed)
    pairs: list[ConflictPair] = []
    used: set[str] = set()
    for q, ans, kind in typed:
        if limit is not None and len(pairs) >= limit:
            break
        para = by_id.get(q["gold"])
        if para is None or q["gold"] in used or ans not in para["context"] or ans.lower() in q["question"].lower():
            continue
        new = swap_value(kind, ans, pool[kind], rng)
        if new is None or new in para["context"]:
            continue
        used.add(q["gold"])
        pairs.append(ConflictPair(q["question"], q["gold"], f"{q['gold']}~conflict", para["title"],
                                  para["context"].replace(ans, new), ans, new, kind))
    return pairs


def strip_answer_sentences(paragraph: dict[str, str], answers: Sequence[str], *, min_chars: int = 30) -> dict[str, str] | None:
    """A copy of the paragraph (id ``<id>~nearmiss``) without every sentence holding an answer; None
    when too little is left."""
    answers = [a.strip() for a in answers if a.strip()]
    keep = [s.text for s in split_sentences(paragraph["context"]) if not any(a in s.text for a in answers)]
    text = "".join(keep)
    if len(text) < min_chars or any(a in text for a in answers):
        return None
    return {"id": f"{paragraph['id']}~nearmiss", "article": paragraph.get("article", ""), "title": paragraph["title"],
            "context": text}


# ----- paraphrases -----
SYNONYMS: dict[str, str] = {
    "位于": "地处", "因为": "由于", "由于": "因为", "但是": "可是", "然而": "不过", "获得": "取得", "取得": "获得",
    "非常": "十分", "十分": "非常", "所以": "因此", "因此": "所以", "之后": "以后", "以后": "之后", "之前": "以前",
    "包括": "包含", "创建": "创立", "成立": "创立", "曾经": "曾", "目前": "如今", "现在": "如今", "开始": "起始",
    "称为": "叫做", "主要": "大多", "并且": "而且", "以及": "和", "进行": "开展", "担任": "出任", "出生": "生",
    "去世": "逝世", "逝世": "去世", "发表": "发布", "发布": "发表", "拥有": "具有", "具有": "拥有", "使用": "采用",
    "采用": "使用", "属于": "归属于", "最大": "最为大", "每年": "每一年", "第一": "首", "作品": "著作",
}
_QWORD = re.compile(r"什么时候|什么地方|什么人|什么|哪里|哪儿|哪一?(?:个|年|天|位|种|座|家|部|本|国|地区|地方|城市|国家|支|队|所|"
                    r"条|项)?|谁|多少|几(?:个|年|天|位|种|次|项|名|人|岁|月|号)?|何时|何地|何人|多大|多长|多高|多久")
_CN_DIGITS = "零一二三四五六七八九"


def _cn_number(n: int) -> str | None:
    """1-99 in Chinese numerals ("十二", "三十五")."""
    if not 0 < n < 100:
        return None
    tens, ones = divmod(n, 10)
    return (("" if tens == 1 else _CN_DIGITS[tens]) + "十" if tens else "") + (_CN_DIGITS[ones] if ones else "")


def rewrite_numbers(text: str) -> str:
    """Number format: small integers (not years) to Chinese numerals, large ones with thousands separators,
    "N%" to "百分之N"."""
    def one(m: re.Match[str]) -> str:
        raw, after = m.group(0), text[m.end():m.end() + 1]
        if "." in raw or after == "年" or len(raw) == 4 and raw.startswith(("1", "2")):
            return raw
        if after in "%％" and after:
            return raw
        n = int(raw)
        cn = _cn_number(n)
        if cn:
            return cn
        return f"{n:,}" if n >= 10000 else raw
    out = re.sub(r"(?<![\d.,，])\d+(?:\.\d+)?(?![\d.,，])", one, text)
    return re.sub(r"(\d+(?:\.\d+)?)[%％]", r"百分之\1", out)


def _folded(text: str, traditional: bool) -> str:
    """Simplified form with the same length (so positions carry over), or the text itself."""
    if not traditional:
        return text
    s = fold(text)
    return s if len(s) == len(text) else text


def as_statement(question: str, answer: str, *, traditional: bool = False) -> str:
    """The question turned into a statement with the answer in place of its question word.

    A unit the answer already carries is not repeated ("几世纪" + "9世纪" → "9世纪", not "9世纪世纪").
    """
    q = question.strip().rstrip("？?。")
    m = _QWORD.search(_folded(q, traditional))
    if not m:
        return f"{q}：{answer}。"
    rest = q[m.end():]
    for k in (3, 2, 1):
        if len(rest) >= k and answer.endswith(rest[:k]):
            rest = rest[k:]
            break
    return q[:m.start()] + answer + rest + "。"


def with_synonyms(sentence: str, *, traditional: bool = False) -> str:
    """Each listed word replaced by its synonym once, left to right (no chained replacement); Traditional
    text keeps its script (matched on its Simplified form, replaced in Taiwan-standard characters)."""
    pat = re.compile("|".join(sorted(map(re.escape, SYNONYMS), key=len, reverse=True)))
    folded = _folded(sentence, traditional)
    out, pos = [], 0
    for m in pat.finditer(folded):
        out.append(sentence[pos:m.start()])
        rep = SYNONYMS[m.group(0)]
        out.append(in_script(rep, traditional))
        pos = m.end()
    out.append(sentence[pos:])
    return "".join(out)


def reorder_clauses(sentence: str, answer: str) -> str:
    """The clause holding the answer moved to the front of its sentence ("A，B，C。" → "B，A，C。")."""
    body = sentence.rstrip("。！？!?")
    parts = [p for p in re.split(r"[，,；;]", body) if p]
    idx = next((i for i, p in enumerate(parts) if answer in p), None)
    if len(parts) < 2 or idx is None or idx == 0:
        return sentence
    parts = [parts[idx]] + parts[:idx] + parts[idx + 1:]
    return "，".join(parts) + "。"


@dataclass(frozen=True)
class ParaphraseItem:
    question: str
    knowledge: str
    """The gold paragraph (the source the checker judges against)."""
    rule: str
    """statement | synonym | reorder | number_format"""
    true_answer: str
    hallucinated: str
    """The same rewrite with the answer swapped for another value of its type."""


def _rules(question: str, sentence: str, ans: str, traditional: bool) -> dict[str, str]:
    out = {"statement": as_statement(question, ans, traditional=traditional)}
    syn = with_synonyms(sentence, traditional=traditional)
    if syn != sentence:
        out["synonym"] = syn
    reo = reorder_clauses(sentence, ans)
    if reo != sentence:
        out["reorder"] = reo
    num = rewrite_numbers(out["statement"])
    if num != out["statement"]:
        out["number_format"] = num
    return out


def build_paraphrases(paragraphs: Sequence[dict[str, str]], questions: Sequence[dict[str, Any]], *, seed: int = 3,
                      limit: int | None = None, traditional: bool = False) -> list[ParaphraseItem]:
    """Up to ``limit`` questions (seeded), each with every rule that changes its answer sentence."""
    rng, by_id, typed, pool = _sampling(paragraphs, questions, seed)
    items: list[ParaphraseItem] = []
    n_q = 0
    for q, ans, kind in typed:
        if limit is not None and n_q >= limit:
            break
        para = by_id.get(q["gold"])
        if para is None:
            continue
        sent = next((s.text for s in split_sentences(para["context"]) if ans in s.text), None)
        new = swap_value(kind, ans, pool[kind], rng)
        if sent is None or new is None or new in para["context"]:
            continue
        n_q += 1
        true = _rules(q["question"], sent, ans, traditional)
        fake = _rules(q["question"], sent.replace(ans, new), new, traditional)
        for rule, text in true.items():
            if rule in fake and new in fake[rule]:
                items.append(ParaphraseItem(q["question"], para["context"], rule, text, fake[rule]))
    return items


# ----- yes/no polarity -----
@dataclass(frozen=True)
class PolarityItem:
    question: str
    """A statement of the source turned into a yes/no question ("…是…吗？")."""
    answer: str
    """"是的。" (or "可以。" for a 可以/能 predicate)."""
    affirming: str
    """The source paragraph as it is (it affirms the question)."""
    denying: str
    """The same paragraph with that statement's predicate negated."""


_COPULA = re.compile(r"^(?P<subj>[^，,。；;：:]{2,20}?)(?P<verb>是|可以|能够|能夠|能)(?P<rest>[^，,。；;]{2,30})[。！]?$")
_HAS_NEG = re.compile(r"不|没|未|无|非|否")


def build_polarity(paragraphs: Sequence[dict[str, str]], *, seed: int = 3, limit: int | None = None,
                   traditional: bool = False) -> list[PolarityItem]:
    """One item per paragraph with a short "X是Y。" / "X可以Y。" sentence (seeded order)."""
    rng = random.Random(seed)
    order = list(paragraphs)
    rng.shuffle(order)
    items: list[PolarityItem] = []
    for p in order:
        if limit is not None and len(items) >= limit:
            break
        for s in split_sentences(p["context"]):
            m = _COPULA.match(s.text.strip())
            if not m or _HAS_NEG.search(s.text):
                continue
            verb = m.group("verb")
            question = f"{m.group('subj')}{verb}{m.group('rest')}{'嗎' if traditional else '吗'}？"
            answer = "是的。" if verb == "是" else "可以。"
            neg = {"是": "不是", "可以": "不可以", "能够": "不能够", "能夠": "不能夠", "能": "不能"}[verb]
            denied = s.text.replace(m.group("subj") + verb, m.group("subj") + neg, 1)
            items.append(PolarityItem(question, answer, p["context"],
                                      p["context"][:s.start] + denied + p["context"][s.end:]))
            break
    return items
