"""Improve a section from a reader's comment: serve what the comment asks for, or say that we can't.

:func:`classify_request` reads the comment into a :class:`Request`: the kinds it asks for, in the
order it asks them (``explain`` a term, ``why`` — purpose, reason or consequence —, ``how``,
``examples``, ``simplify``, ``expand``, ``depth``, ``correct`` an error, ``shorten``), the term it is
about (the longest phrase of the comment that the knowledge base contains, else the selection's),
and for a correction the value the reader proposes. A plain factual question (多少/几/谁/哪…) is
``question``: it is answered in the comment's thread by the knowledge pipeline, not here.

:func:`rewrite_section` then adds only knowledge-base sentences that *serve* the request: each
must mention the term and have the form the kind asks for (a defining sentence for ``explain``;
a purpose/reason/consequence for ``why``; a procedure for ``how``; ``例如``/concrete values for
``examples``; the proposed value for ``correct``). They go right after the line the comment is
anchored to, each cited verbatim. ``shorten`` keeps the lines about the term and drops the rest.
When nothing serves the request the result says so (:attr:`Rewrite.declined`), and the caller
marks the comment "未能采纳：知识库中没有…" — it is never adopted with unrelated text. With a chat
model the added block is worded by the model from the same sentences and every sentence is
checked like an answer (:func:`knowzero.knowledge.answer.check.check_written`); one that fails is
replaced by the verified quote it cites. :func:`change_summary` describes the edit (difflib).

Does not store anything and does not answer questions (see ``service.py`` and the pipeline).
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from knowzero.errors import ProviderError
from knowzero.input import message_language
from knowzero.knowledge.answer import check
from knowzero.knowledge.answer.retriever import Plan, retrieve, stem
from knowzero.knowledge.text import STOPWORDS, fold, nouns, tokens
from knowzero.learning.cache import KBCache, cached
from knowzero.learning.compose import (
    Cand,
    file_sentences,
    near_duplicate,
    passage_sentences,
    render_bullets,
    table_rows,
)
from knowzero.learning.concise import shorter_wording
from knowzero.llm.base import ChatProvider, chat_json

NEED_LABELS = {"explain": "解释术语", "why": "说明原因与后果", "how": "说明做法", "examples": "补充示例",
               "simplify": "讲得更易懂", "expand": "展开细节", "depth": "增加深度", "correct": "核对纠错",
               "shorten": "精简", "delete": "删除所选文字", "question": "回答提问", "scope": "说明适用范围"}
BLOCK_TITLES_EN = {"explain": "What it means", "why": "Why", "how": "How to", "examples": "Examples",
                   "simplify": "In plain words", "expand": "More detail", "depth": "In more depth",
                   "correct": "What the sources say", "scope": "Where it applies"}
NEED_LABELS_EN = {"explain": "explained a term", "why": "added the reason", "how": "added how to", "examples": "added an example",
                  "simplify": "made it plainer", "expand": "added detail", "depth": "added depth", "correct": "checked a value",
                  "shorten": "shortened it", "delete": "deleted the selection", "question": "answered the question",
                  "scope": "added where it applies"}
BLOCK_TITLES = {"scope": "适用范围", "explain": "释义", "why": "原因与后果", "how": "怎么做", "examples": "示例", "simplify": "帮助理解",
                "expand": "补充细节", "depth": "深入一点", "correct": "来源中的说法"}
_MISSING = {"explain": "解释「{t}」是什么", "why": "说明「{t}」的目的、原因或后果", "how": "说明「{t}」怎么做",
            "examples": "「{t}」的示例", "simplify": "能更通俗地解释「{t}」", "expand": "关于「{t}」的更多",
            "depth": "关于「{t}」的更深入", "scope": "「{t}」是否适用的说明", "correct": "支持「{c}」", "shorten": "可以精简", "delete": "可以删除"}

# (kind, pattern) — the kind's position in the comment orders the kinds it asks for
_KINDS: list[tuple[str, re.Pattern[str]]] = [
    ("correct", re.compile(r"错了|有误|不对|写错|错误|笔误|应该是|应为|不应该是|有问题吧|wrong|typo", re.I)),
    ("delete", re.compile(r"删掉|删除|删去|删了|去掉|去除|拿掉|不要这[一]?[句段行]|这[一]?[句段行].{0,6}不需要|remove (?:this|it|the)|delete|"
                          r"take (?:this|it|that)(?: \w+)? out|drop (?:this|it|that)|get rid of (?:this|it|that)", re.I)),
    ("shorten", re.compile(r"太长|精简|简短|简洁|删减|啰嗦|囉嗦|压缩|缩短|太多了|概括一下|换[个一种]*说法|换成.{0,6}说法|改写|"
                           r"shorter|too long|simplify|more simply|rephrase|reword|plainer|plain words|plain english|"
                           r"simpler words|in other words|简单些|简单一点|简单点的说法|[改说写讲]得通俗|拗口|简明|精炼|精練|凝练|简练|concise|fewer words|wordy|mouthful|"
                           r"condense|tighten|more briefly|briefer|\bshorten|短一?点|短一些|短些|写短|改短|弄短|\btrim|cut (?:it |this )?down|"
                           r"pare (?:it )?down|less wordy", re.I)),
    ("simplify", re.compile(r"看不懂|没看懂|不懂|不明白|不理解|太难|难懂|晦涩|通俗|简单点|简单一些|说人话|太复杂|讲清楚|清楚一点|"
                            r"易懂|看不懂|confus|unclear|simpler", re.I)),
    ("examples", re.compile(r"举个?例|舉個?例|例子|示例|案例|太抽象|抽象|具体点|具体一些|不够具体|example|concrete", re.I)),
    ("depth", re.compile(r"太简单|太浅|浅了|更深|深度|原理|进阶|更专业|too (?:simple|basic)|deeper", re.I)),
    ("scope", re.compile(r"适用于?.{0,12}[吗么]|也.{0,2}(?:按|适用|算|包括|要|需|须|得)|算不算|包不包括|包括.{0,10}吗|是否适用|"
                         r"(?:所有|全部|每个|每位|任何).{0,8}都.{0,8}[吗么]|"
                         r"^那.{1,12}呢|does (?:this|it|that) (?:apply|cover)|appl(?:y|ies) to|covered by|"
                         r"cover[s]? .{0,20}\?|^(?:what|how) about\b|\bexceptions?\b|例外|特殊情况", re.I)),
    ("why", re.compile(r"为什么|為什麼|为何|為何|为啥|原因|目的|作用|意义|後果|后果|影响|會怎樣|会怎样|有什么用|怎么来的|怎麼來的|由来|"
                       r"由來|不够会|不足会|\bwhy\b", re.I)),
    ("explain", re.compile(r"是什么|是什麼|什么是|什麼是|什么意思|什麼意思|含义|含義|定义|定義|指什么|指什麼|解释|解釋|是指|是啥|"
                           r"what (?:is|are) (?:an? |the )?[\w-]+(?: [\w-]+)?\s*[?？]?\s*$|what does .{1,40} mean|explain|meaning",
                           re.I)),
    ("how", re.compile(r"怎么(?!样|来的|來的)|怎麼(?!樣|來的)|如何|怎样|怎樣|步骤|步驟|方法|流程|how (?:to|do|is)", re.I)),
    ("expand", re.compile(r"详细|詳細|展开|展開|多讲|多说|补充|補充|更多|深入|elaborate|more detail|expand", re.I)),
]
_QUESTION = re.compile(r"[?？]\s*$|多少|多久|几|幾|谁|誰|哪|是否|能否|是不是|有没有|(?:吗|嗎|呢)\s*$|"
                       r"^(?:what|how|when|where|who|which|is|are|can|does|do)\b", re.I)
# what the comment says about *how* it asks, stripped before looking for its term
_REQUEST_WORDS = re.compile(
    # an English comment's words for how it asks ("Please explain this with an example"): never its term
    r"(?i:\b(?:please|could|would|can|you|explain|this|that|these|those|it|with|an?|the|examples?|say|more|simply|"
    r"simpler|simplify|plainly|what|does|do|is|are|mean|means|meaning|why|how|give|me|some|remove|delete|sentence|"
    r"line|make|shorter|clarify|clearer|here|in|other|words|for|of|to|be|there|i|we|one|bit|little|any|exceptions?)\b)|"
    r"请|請|帮我|能不能|能否|可以|可否|能|一下|解释|解釋|说明|說明|介绍|介紹|讲讲|讲|講|说说|说|說|是什么意思|什么意思|什麼意思|"
    r"是什么|是什麼|什么是|什麼是|什么|什麼|为什么|為什麼|为何|為何|为啥|怎么|怎麼|如何|怎样|怎樣|举个?例子?|舉個?例子?|例子|示例|"
    r"太抽象了?|抽象|具体点|详细点|詳細點|详细|詳細|展开|展開|补充|補充|简单点|通俗|看不懂|不懂|太长了?|精简|啰嗦|这里|這裡|这个|這個|"
    r"这一节|这|那|它|吗|嗎|呢|吧|啊|呀|了|的|要|会有|有|会|會|是|都|又|还|也|一些|一点|点|後果|后果|原因|目的|作用|意思|"
    r"写错了|错了|有误|不对|应该是|应为|大概|具体|规定|怎么样|怎麼樣|"
    # how a scope question asks ("这条适用于实习生吗"): what it asks about is the rest
    r"是否适用|适用于|適用於|适用|適用|也要按|也按|按这个表|这个表|这条|這條|有没有例外|例外|特殊情况|"
    # question words ask *about* the term; they are never what a serving sentence must contain
    r"多久|多长时间|多長時間|多少|多大|几[天个次年月]|幾[天個次年月]|什么时候|什麼時候|何时|何時|哪些|哪个|哪個|哪里|哪裡|哪儿")
_WHOLE_SECTION = re.compile(r"这一?[节段部分]|本[节段]|整[节段]|this (?:section|part)", re.I)
_PUNCT = r"，,。.！!？?；;：:、（）()「」“”\"'《》"
_SPLIT = re.compile(f"[{_PUNCT}\\s]+")
_SPLIT_LATIN = re.compile(f"[{_PUNCT}]+")  # an English comment's runs of words stay whole
_CLAIM = re.compile(r"(?:应该是|应为|应是|而是|是)\s*([^，,。？?！!；;吧呢吗]{1,20})")
_VALUE = re.compile(r"[±]?\d+(?:\.\d+)?\s*(?:%|％|[a-zA-Z]+|天|个月|年|小时|分钟|元|℃|度|次|件|台|日)?"
                    r"(?:\s*(?:至|到|-|~)\s*\d+(?:\.\d+)?\s*(?:%|％|[a-zA-Z]+|天|个月|年|小时|分钟|元|℃)?)?")

# the form of a sentence that serves each kind (the sentence must also mention the term)
_DEFINES = r"(?:是|指|即|为|為|称为|稱為|又称|简称|就是|用于|用來|用来|包括|分为|：|:|\bis (?:a|an|the|one|when|where|what|how)\b|\bare (?:a|an|the|those|when|where)\b|refers to|means)"
_WHY = re.compile(r"为了|為了|目的|以便|以免|以防|防止|避免|否则|否則|导致|導致|造成|引起|因为|因為|由于|由於|原因|保证|保證|"
                  r"确保|確保|影响|影響|因此|所以|从而|從而|源自|得名|来自|來自|会使|会造成|可能|容易|才能|就会|"
                  r"(?:不足|不够|过低|过高|超过|低于|高于)[^，,。；]{0,8}时[，,]|"
                  r"\bbecause\b|\bso that\b|\bin order to\b|\bcaus(?:es|ed|ing)\b|\bprevent|\bensure|\botherwise\b|\bresults? in\b|"
                  r"\bpurpose\b", re.I)
_HOW = re.compile(r"使用|用|按照|按|通过|通過|步骤|先|再|然后|然後|方法|须|須|应|應|提交|申请|申請|联系|聯繫|测量|測量|检查|檢查|"
                  r"填写|凭|計算|计算|采用|採用|进行|進行|执行|執行|调整|補充|补充|清洗|更换|测|measure|check|use|apply", re.I)
_SCOPE = re.compile(r"适用|不适用|除外|包括|不包括|仅限|只限|仅供|只供|限于|仅对|只对|不属于|属于|不在.{0,8}范围|参照执行|另行|"
                    r"\bappl(?:y|ies)\b|\bexcept(?:ions?)?\b|\bunless\b|\bonly\b|\bnot (?:eligible|covered)\b|\bexcluded?\b", re.I)
_NEGATED = re.compile(r"不必|无需|无须|不需|不用|不得|不予|不再|\bnot\b|\bno\b|n't", re.I)
_EXAMPLE = re.compile(r"例如|比如|譬如|举例|舉例|如下|示例|案例|e\.g\.|for example|for instance|such as|\d", re.I)
_DEPTH = re.compile(_WHY.pattern + r"|原理|\d", re.I)


@dataclass(frozen=True)
class Request:
    """What a comment asks for."""

    kinds: tuple[str, ...]  # the kinds asked for, in the comment's order; ("question",) for a factual question
    term: str  # what it is about ("" when nothing in the comment or the selection names a term)
    reason: str  # why this classification (shown in the event trace)
    claim: str = ""  # for ``correct``: the value the reader proposes
    also: tuple[str, ...] = ()  # other specific terms of the comment a serving sentence must name too
    alts: tuple[str, ...] = ()  # a term taken from the selection: any of these will do instead
    unknown: tuple[str, ...] = ()  # what the comment asks about that the knowledge base never mentions
    whole_section: bool = False  # the comment is about the section ("这一节太长了"), not the selected words
    subject: str = ""  # what a reply names: the selected passage when the comment names no term of its own
    lang: str = "zh"  # the comment's language: our replies follow it

    @property
    def need(self) -> str:
        return self.kinds[0]


def _norm(text: str) -> str:
    """Compared text: NFKC, lower case, Traditional folded to Simplified (as ``tokens`` folds), so a
    Simplified comment finds its term in a Traditional source and the reverse."""
    return fold(unicodedata.normalize("NFKC", text)).lower()


def asks(comment: str) -> bool:
    """The comment asks a question ("是按哪个面积？", "does booking by phone count?"), whatever else it requests.

    >>> asks("Explain the grades - which grade are the managers on?"), asks("请举个例子说明")
    (True, False)
    """
    return bool(_QUESTION.search(comment.strip()) or re.search(r"[?？]", comment))


CLARIFY_NEEDS = frozenset({"explain", "why", "how", "examples", "scope", "expand"})
"""Needs that add a source's fact to the document (not edits, not corrections)."""


def classify_need(comment: str) -> tuple[str, str]:
    """(primary kind, reason) of a comment, without a knowledge base (see :func:`classify_request`)."""
    r = _kinds(comment)
    return r[0][0], r[1]


def _kinds(comment: str) -> tuple[tuple[str, ...], str]:
    text = comment.strip()
    found: list[tuple[int, str, str]] = []
    for kind, pat in _KINDS:
        m = pat.search(text)
        if m:
            found.append((m.start(), kind, m.group(0)))
    if found:
        found.sort()
        kinds = tuple(dict.fromkeys(k for _, k, _ in found))
        if "correct" in kinds:  # "应该是…" is a correction whatever else the comment says
            kinds = ("correct",) + tuple(k for k in kinds if k != "correct")
        return kinds, "the comment says " + "、".join(f"「{w}」" for _, _, w in found)
    if _QUESTION.search(text):
        return ("question",), "the comment asks a factual question"
    return ("expand",), "no specific need recognised; expanding the passage"


def classify_request(comment: str, selected: str = "", *, kb: Any = None, context: str = "",
                     cache: KBCache | None = None, topic: str = "") -> Request:
    """The comment's kinds, term and claim (see module doc). ``context``: the section's text;
    ``topic``: the document's topic (every line is about it, so it is the term only when the comment
    names nothing else)."""
    kinds, reason = _kinds(comment)
    if kinds[0] == "simplify" and _a_passage(selected) and not find_terms(comment, "", kb=kb, cache=cache):
        # "把这句话说得简单点" on a selected sentence: the sentence said more plainly, not a term explained
        kinds, reason = ("shorten",) + kinds[1:], reason + "; a selected sentence said more plainly"
    whole = bool(_WHOLE_SECTION.search(comment))
    claim = ""
    if "correct" in kinds:
        m = _CLAIM.search(comment)
        v = _VALUE.search(m.group(1)) if m else _VALUE.search(comment)
        claim = (v.group(0) if v else (m.group(1) if m else "")).strip()
    terms = find_terms(comment, selected, kb=kb, context=context, claim=claim, cache=cache, topic=topic)
    body = comment.replace(claim, " ") if claim else comment
    # a thing the comment asks about that the knowledge base never names ("签证费"): nothing can serve it
    named = nouns(body)
    unknown = tuple(w for w in unknown_words(body, kb=kb, context=context, cache=cache) if w in named)
    if not terms:  # "这里太抽象了": about what is selected
        words = selection_terms(selected, kb)
        sel = selected.strip()
        # a selection's words, but not the document's topic: every line is about it ("试用期…年假" on 年假)
        alts = tuple(w for w in words[1:5] if _norm(w) not in _norm(topic))
        return Request(kinds, words[0] if words else sel[:8], reason, claim, unknown, alts,
                       unknown, whole, subject=sel if len(sel) <= 12 else sel[:12] + "…", lang=message_language(comment) or "zh")
    term = terms[0]
    pos = _norm(comment).find(_norm(term))
    also: tuple[str, ...] = ()
    if kinds[0] == "expand":  # "液压油用什么牌号？详细说说": 牌号 is what is asked about 液压油, and must be there
        after = _norm(comment)[pos + len(term):] if pos >= 0 else ""
        also = tuple(t for t in terms[1:] if _specific(kb, t, cache) and _norm(t) not in _norm(term) and _norm(t) in after)
        unknown += tuple(w for w in unknown_words(after, kb=kb, context=context, cache=cache) if w not in unknown)
    also += tuple(w for w in unknown if w not in also)  # named, but nowhere in the knowledge base
    return Request(kinds, term, reason, claim, also, (), unknown, whole, lang=message_language(comment) or "zh")


def unknown_words(text: str, *, kb: Any = None, context: str = "", cache: KBCache | None = None) -> list[str]:
    """Content words of ``text`` (request words stripped) that the knowledge base never uses (compared in
    Simplified script on both sides, as ``tokens`` folds: "學術研究" is known to a Traditional source)."""
    corpus = _corpus(kb, cache) + _norm(context)
    out = []
    for chunk in _SPLIT.split(_REQUEST_WORDS.sub(" ", text)):
        for w in tokens(chunk, search=False):
            w = _norm(w).strip()
            if len(w) >= 2 and w not in STOPWORDS and not re.fullmatch(r"[\d.]+", w) and w not in corpus:
                out.append(w)
    return out


def _specific(kb: Any, term: str, cache: KBCache | None = None) -> bool:
    """A term few knowledge-base files use (a generic word like 检测 is not required of a serving sentence)."""
    if kb is None:
        return False
    files = _files(kb, cache)
    t = _norm(term)
    df = sum(t in x for x in files)
    return df <= max(2, 0.2 * len(files))


def find_terms(comment: str, selected: str, *, kb: Any = None, context: str = "", claim: str = "",
               cache: KBCache | None = None, topic: str = "") -> list[str]:
    """The comment's phrases the knowledge base (or the section) contains, the main one first (see module doc)."""
    texts = _corpus(kb, cache) + _norm(context)
    body = comment.replace(claim, " ") if claim else comment
    # English runs between punctuation stay whole, so a phrase of several words is found ("part-time employees")
    split = _SPLIT_LATIN if message_language(body) == "en" else _SPLIT
    chunks = [c.strip() for c in split.split(_REQUEST_WORDS.sub(" ", body)) if c.strip()]
    found: list[tuple[float, int, str]] = []
    sel, ctx, subject = _norm(selected), _norm(context), _norm(topic)
    for chunk in chunks:
        low = _norm(chunk)
        cuts = _word_bounds(low)
        i = 0
        while i < len(low):  # greedy: the longest known phrase at each position, whole words only
            hit = ""
            for j in range(len(low), i + 1, -1):
                sub = low[i:j]
                if cuts is not None and (i not in cuts or j not in cuts):
                    continue  # "校准状态标" is not a phrase of "校准状态标签"
                if sub not in STOPWORDS and not re.fullmatch(r"[\d.]+", sub) and sub in texts:
                    hit = sub
                    break
            if hit:  # near the selection counts, except for the document's own topic (every line is about it)
                near = 0.0 if hit == subject else (2.5 if hit in sel else 1.0 if hit in ctx else 0.0)
                found.append((len(hit) + near, len(found), hit))
                i += len(hit)
            else:
                i += 1
    ordered = [t for _, _, t in sorted(found, key=lambda x: (-x[0], x[1]))]
    return [_surface(comment, t).strip() for t in dict.fromkeys(ordered)]


def _word_bounds(low: str) -> set[int] | None:
    """Positions in ``low`` where a word starts or ends (jieba's words); None when they cannot be placed."""
    cuts, pos = {0, len(low)}, 0
    for w in tokens(low, search=False, keep_stopwords=True):
        at = low.find(w, pos)
        if at < 0:
            return None
        cuts |= {at, at + len(w)}
        pos = at + len(w)
    return cuts


def selection_terms(selected: str, kb: Any) -> list[str]:
    """The selection itself when short, else its rarest words first."""
    s = selected.strip()
    if s and len(s) <= 6:
        return [s]
    toks = list(dict.fromkeys(t for t in tokens(s, search=False) if t not in STOPWORDS and len(t) >= 2
                              and not re.fullmatch(r"[\d.]+", t)))
    if kb is not None:
        idf = kb.term_idf
        toks.sort(key=lambda t: (-idf(t), -len(t)))
    return toks or [s[:8]]


def _surface(text: str, key: str) -> str:
    """``key`` (compared form, see :func:`_norm`) as the comment writes it."""
    raw = unicodedata.normalize("NFKC", text)
    low = _norm(text)
    i = low.find(key)
    if i >= 0 and len(low) == len(raw):  # folding keeps every character's place
        return raw[i:i + len(key)]
    return key


def _files(kb: Any, cache: KBCache | None = None) -> list[str]:
    if kb is None:
        return []
    return cached(cache, kb, "normalised_files", lambda: [_norm(t) for t in kb.all_texts()])


def _corpus(kb: Any, cache: KBCache | None = None) -> str:
    if kb is None:
        return ""
    return cached(cache, kb, "corpus", lambda: "\n".join(_files(kb, cache)))


def mentions_all(sentence: str, req: Request) -> bool:
    return ((mentions(sentence, req.term) or any(mentions(sentence, a) for a in req.alts))
            and all(mentions(sentence, t) for t in req.also))


def serves_request(sentence: str, kind: str, req: Request) -> bool:
    """:func:`serves` for the request's term (or, for a selection's words, any of them) and its other terms."""
    if not all(mentions(sentence, t) for t in req.also):
        return False
    return any(serves(sentence, kind, t, req.claim) for t in (req.term, *req.alts))


def mentions(sentence: str, term: str) -> bool:
    """The sentence names the term (a long term: all of its words)."""
    s, t = _norm(sentence), _norm(term)
    if not t:
        return False
    if re.fullmatch(r"[a-z0-9][a-z0-9 .\-]*", t):  # a Latin word is a whole word: "part" is not in "separation"
        if re.fullmatch(r"[a-z]{4,}", t):  # in any of its forms: "earns" is in "Points are earned on…"
            return re.search(rf"(?<![a-z0-9]){re.escape(stem(t))}(?:s|es|ed|d|ing)?(?![a-z0-9])", s) is not None
        return re.search(rf"(?<![a-z0-9]){re.escape(t)}(?![a-z0-9])", s) is not None
    if t in s:
        return True
    if len(t) < 4:
        return False
    words = [_norm(w) for w in tokens(t, search=False) if w.strip() and w not in STOPWORDS]
    if len(words) < 2 or not all(w in s for w in words):
        return False
    spots = [s.find(w) for w in words]  # close together ("主轴未充分预热"), not scattered over the sentence
    return max(p + len(w) for p, w in zip(spots, words, strict=True)) - min(spots) <= len(t) + 6


def gives_kind(text: str, kind: str) -> bool:
    """Does ``text`` give what a request of ``kind`` asks for, whatever it is about? A reason for "why", an example
    for "examples"; anything for the other kinds (their answer is a fact)."""
    pattern = {"why": _WHY, "examples": _EXAMPLE}.get(kind)
    return pattern is None or bool(pattern.search(_norm(text)))


def serves(sentence: str, kind: str, term: str, claim: str = "") -> bool:
    """Does ``sentence`` serve a request of ``kind`` about ``term``? (the rule the eval also states)"""
    if not mentions(sentence, term):
        return False
    s = _norm(sentence)
    t = _norm(term)
    if kind in ("explain", "simplify"):
        i = s.find(t)
        defines = (i >= 0 and re.match(r"\s*[」』》\"]?\s*" + _DEFINES, s[i + len(t):]) is not None) or \
            re.search(r"[（(]" + re.escape(t) + r"[)）]", s) is not None or \
            re.search(r"(?:称为|稱為|称作|稱作|叫做|简称|簡稱|定义为|定義為|即)\s*[「“\"]?" + re.escape(t), s) is not None or \
            (s.startswith(t) and re.search(r"^[^。；;]{0,60}?(?:是一|是指|指的是|是|為一|为一)", s[len(t):]) is not None)
        if kind == "simplify":
            return defines or (bool(_WHY.search(s)) and len(s) <= 80)
        return defines
    if kind == "why":
        return bool(_WHY.search(s))
    if kind == "scope":  # "燃油费…不适用本表", "液氮…不必逐次审批"; the asked group's own rule ("Part-time … 50%")
        return bool(_SCOPE.search(s) or _NEGATED.search(s) or (s.startswith(t) and re.search(r"\d", s)))
    if kind == "how":
        return bool(_HOW.search(s))
    if kind == "examples":
        return bool(_EXAMPLE.search(s))
    if kind == "depth":
        return bool(_DEPTH.search(s))
    if kind == "correct":
        return bool(claim) and _norm(claim).replace(" ", "") in s.replace(" ", "")
    return kind == "expand"


@dataclass
class Rewrite:
    markdown: str
    citations: list[dict[str, Any]]
    added: list[Cand]
    method: str  # offline | llm | offline_fallback
    note: str = ""
    served: list[str] = field(default_factory=list)  # kinds that got at least one sentence
    missing: list[str] = field(default_factory=list)  # kinds the knowledge base had nothing for
    declined: str = ""  # why nothing was changed ("" when the section changed)
    already: str = ""  # a sentence already in the document that serves the request


def _used(doc: dict[str, Any]) -> tuple[set[tuple[str, int]], list[str]]:
    keys, texts = set(), []
    for s in doc.get("sections", []):
        for c in s.get("citations", []):
            keys.add((c["source"], int(c["start"])))
            texts.append(c["quote"])
    return keys, texts


def document_collections(kb: Any, doc: dict[str, Any]) -> tuple[str, ...]:
    """The collection a document is written from (the one its citations come from most; ties all kept): what
    a comment on it is served from, so another organisation's rule never goes into it."""
    cited = [c.get("passage_id") for s in doc.get("sections", []) for c in s.get("citations", [])]
    counts = {name: sum(pid in ids for pid in cited) for name, ids in kb.collections.items()}  # collection → passage ids
    top = max(counts.values(), default=0)
    return tuple(sorted(name for name, n in counts.items() if n and n == top))


def candidates(kb: Any, doc: dict[str, Any], section: dict[str, Any], req: Request, *, limit: int = 60,
               cache: KBCache | None = None) -> list[Cand]:
    """Knowledge-base sentences about the term, not yet in the document, nearest the section's sources first."""
    used, used_texts = _used(doc)
    cited = section.get("citations", [])
    pool: dict[tuple[str, int], Cand] = {}

    def add(c: Cand, score: float) -> None:
        key = (c.source, c.start)
        if key in used or not mentions_all(c.said, req):
            return
        if key not in pool or pool[key].score < score:
            pool[key] = Cand(c.text, c.source, c.title, c.section, c.start, c.end, c.passage_id, c.domain,
                             round(score, 4), c.kind, c.display)

    for src in dict.fromkeys(c["source"] for c in cited):
        anchor = min((int(c["start"]) for c in cited if c["source"] == src), default=0)
        for s in file_sentences(kb, src, cache):
            add(s, 1.0 + 0.5 / (1 + abs(s.start - anchor) / 400))
    strategy = "hybrid" if kb.has_vectors() else "keyword"
    query = f"{req.term} {doc.get('topic', '')}".strip()
    r = retrieve(kb, query, Plan(top_k=10, strategy=strategy,  # type: ignore[arg-type]
                                 collections=document_collections(kb, doc) or tuple(kb.default_collections())),
                 budget_chars=8000)
    old = kb.superseded()  # the current edition's sentences, never the replaced one's
    for rank, sp in enumerate(r.passages):
        if sp.passage.id.startswith("sql:") or sp.passage.path in old:
            continue
        for s in passage_sentences(kb, sp.passage):
            add(s, 0.6 / (1 + rank))
    if "correct" in req.kinds:  # a value is often only in a table ("| 外径千分尺 | 6个月 | 内部校准 |")
        files = [*dict.fromkeys(c["source"] for c in cited), *dict.fromkeys(sp.passage.path for sp in r.passages)]
        for rank, path in enumerate(dict.fromkeys(files)):
            for s in table_rows(kb, path, cache):
                add(s, 0.5 / (1 + rank))
    out: list[Cand] = []
    for c in sorted(pool.values(), key=lambda c: -c.score):
        if any(near_duplicate(c.said, t) for t in used_texts + [o.said for o in out]):
            continue
        out.append(c)
    return out[:limit]


def pick(req: Request, pool: list[Cand], n: int = 3) -> tuple[list[Cand], list[str], list[str]]:
    """Up to ``n`` sentences, at least one for each kind that has one: (picks, served kinds, missing kinds)."""
    kinds = [k for k in req.kinds if k not in ("shorten", "question")]
    picks: list[Cand] = []
    served, missing = [], []
    for k in kinds:
        match = [c for c in pool if serves_request(c.said, k, req)]
        if not match:
            missing.append(k)
            continue
        served.append(k)
        for c in match:
            if c not in picks:
                picks.append(c)
                break
    for k in served:  # fill up with more of the same kinds, best first
        for c in pool:
            if len(picks) >= n:
                break
            if c not in picks and serves_request(c.said, k, req):
                picks.append(c)
    return picks[:n], served, missing


_GIVES_EXAMPLE = re.compile(r"例如|比如|譬如|举例|舉例|示例|案例|e\.g\.|for example|for instance|such as", re.I)


def _already(doc: dict[str, Any], req: Request, selected: str = "") -> str:
    """A line of the document that already serves the request ("首件检验记录表保存多久？展开讲讲" when the
    document says how long it is kept); for a plain "expand" only when the comment asks something specific.
    Never the selected line itself (the reader asks because it does not serve them), and for an example
    only a line that gives one in so many words ("例如…"), not any line with a number."""
    sel = _norm(selected.strip()) if _a_passage(selected) else ""  # a selected term is in many lines that serve
    # "为什么…？…我该怎么解释？" asks for the reason: a line that only restates the rule does not give it
    asked = ["why"] if "why" in req.kinds else [k for k in req.kinds if k not in ("expand", "shorten")]
    for s in doc.get("sections", []):
        lines = {int(m.group(1)): ln for ln in s.get("markdown", "").splitlines() for m in _MARK.finditer(ln)}
        for c in s.get("citations", []):
            # the quote, or its line as the document reads it (a table row under its header: "…：校准周期 6个月")
            said = _MARK.sub("", lines.get(int(c["n"]), "")).strip().removeprefix("- ")
            if sel and any(t and (sel in _norm(t) or _norm(t) in sel) for t in (c["quote"], said)):
                continue  # the selected line itself, as quoted or as the document reads it
            for text in dict.fromkeys((c["quote"], said)):
                if not text or (req.need == "examples" and not _GIVES_EXAMPLE.search(text)):
                    continue
                if any(serves_request(text, k, req) for k in asked) \
                        or ("expand" in req.kinds and req.also and not req.unknown and mentions_all(text, req)):
                    return str(text)
    return ""


_MISSING_EN = {"scope": "whether “{t}” applies", "explain": "what “{t}” means", "why": "the purpose, reason or consequence of “{t}”",
               "how": "how to do “{t}”", "examples": "an example of “{t}”", "simplify": "a plainer explanation of “{t}”",
               "expand": "more about “{t}”", "depth": "more depth on “{t}”", "correct": "support for “{c}”",
               "shorten": "a shorter wording", "delete": "what to delete"}


def already_message(req: Request, line: str) -> str:
    """The reply when the document already says what the comment asks for: that line, quoted."""
    return f"Already in the document: “{line}”" if req.lang == "en" else f"文档中已有：「{line}」"


def missing_text(req: Request, missing: list[str] | None = None) -> str:
    """What the sources lack for the request, in the comment's language, naming what was asked about (the
    selected passage when the comment names no term of its own): "知识库中没有「…」的示例的内容"."""
    kinds = missing or list(req.kinds)
    what = req.subject or req.term
    if req.lang == "en":
        if req.unknown:
            return f"the sources say nothing about “{', '.join(req.unknown)}”"
        asked = ", nor ".join(_MISSING_EN.get(k, "anything on “{t}”").format(t=what or "the selection", c=req.claim)
                              for k in kinds)
        return f"the sources do not give {asked}"
    if req.unknown:
        return f"知识库中没有关于「{'、'.join(req.unknown)}」的内容"
    asked = "，也没有".join(_MISSING.get(k, "相关内容").format(t=what or "所选内容", c=req.claim) for k in kinds)
    return f"知识库中没有{asked}的内容"


def decline_message(req: Request, missing: list[str] | None = None) -> str:
    """Why nothing was added (:func:`missing_text`), said as a decline that leaves the document as it is."""
    if req.lang == "en":
        return f"Not changed: {missing_text(req, missing)}; the document stays as it is."
    return f"未能采纳：{missing_text(req, missing)}，文档保持不变。"


def rewrite_section(kb: Any, doc: dict[str, Any], section: dict[str, Any], *, request: Request, selected: str,
                    provider: ChatProvider | None = None, cache: KBCache | None = None) -> Rewrite:
    """The section with sentences that serve ``request`` after the anchored line, or why not (see module doc)."""
    md0, cits0 = section["markdown"], list(section.get("citations", []))
    if request.need == "delete":
        return _delete(section, selected)
    if request.need == "shorten":
        if _a_passage(selected) and selected.strip() in md0 and not request.whole_section:
            return _shorten_selection(section, request, selected.strip())
        return _shorten(section, request, selected)
    if request.need == "scope" and (already := _already(doc, request, selected)):
        return Rewrite(md0, cits0, [], "offline", declined=already_message(request, already), missing=[],
                       already=already)
    pool = candidates(kb, doc, section, request, cache=cache)
    picks, served, missing = pick(request, pool)
    if not picks:
        already = _already(doc, request, selected)
        reason = already_message(request, already) if already else decline_message(request)
        return Rewrite(md0, cits0, [], "offline", declined=reason, missing=missing or list(request.kinds),
                       already=already)
    start_n = max((int(c["n"]) for c in cits0), default=0) + 1
    method, note = "offline", ""
    items: list[tuple[str, Cand]] = [(c.said, c) for c in picks]
    if provider is not None:
        try:
            items, note = _llm_block(provider, request, selected, picks, topic=str(doc.get("topic", "")))
            method = "llm"
        except ProviderError as exc:
            method, note = "offline_fallback", exc.message
    block_md, block_cits = render_bullets(items, first_n=start_n)
    titles = BLOCK_TITLES_EN if request.lang == "en" else BLOCK_TITLES
    title = titles.get(served[0] if served else request.need, "More" if request.lang == "en" else "补充")
    md = insert_after_anchor(md0, selected, f"**{title}**\n\n{block_md}")
    return Rewrite(md, cits0 + block_cits, picks, method, note, served=served, missing=missing)


def _a_passage(selected: str) -> bool:
    """A selected sentence or clause (what "换个说法" rewrites), not a term ("拉刀力": a section is shortened)."""
    text = selected.strip()
    return len(text) >= 12 or bool(re.search(r"[，,。；;！!？?]", text))


def _shorten_selection(section: dict[str, Any], req: Request, selected: str) -> Rewrite:
    """The selected text, and only it, said more briefly (:func:`shorter_wording`: only what the concise
    table allows is left out or said plainer, every number, negation, condition and limit kept); or a plain no
    in the comment's language."""
    short = shorter_wording(selected)
    md0, cits0 = section["markdown"], list(section.get("citations", []))
    if short == selected:
        no = ("Not applied: this text cannot be said more briefly without losing a number, a condition or a "
              "negation, so the document is unchanged." if req.lang == "en" else
              "未能采纳：这段文字已经无法在保留其数字、条件和否定的前提下再精简，文档保持不变。")
        return Rewrite(md0, cits0, [], "offline", declined=no, missing=["shorten"])
    return Rewrite(md0.replace(selected, short, 1), cits0, [], "offline", served=["shorten"])


_MARK = re.compile(r"\[(\d+)\]")


def _delete(section: dict[str, Any], selected: str) -> Rewrite:
    """The selected text removed from the section (its citation mark with it; a line left empty goes); the
    knowledge base is not searched — the comment's words name no topic."""
    md0, cits0 = section["markdown"], list(section.get("citations", []))
    sel = selected.strip()
    at = md0.find(sel) if sel else -1
    if at < 0:
        return Rewrite(md0, cits0, [], "offline", declined="未能采纳：选中的文字不在这一节中，文档保持不变。",
                       missing=["delete"])
    end = at + len(sel)
    while (m := _MARK.match(md0, end)) is not None:  # "…。[3]": the mark belongs to what was removed
        end = m.end()
    md = md0[:at] + md0[end:]
    lines = [ln for ln in md.split("\n") if not (ln.strip() and not re.sub(r"^[\s>*\-+\d.]*", "", ln).strip(" ，,。；;"))]
    md = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
    if not md:  # the section's only sentence: the section goes with it
        return Rewrite("", [], [], "offline", served=["delete"])
    marks = {int(n) for n in _MARK.findall(md)}
    return Rewrite(md, [c for c in cits0 if int(c["n"]) in marks], [], "offline", served=["delete"])


def _shorten(section: dict[str, Any], req: Request, selected: str) -> Rewrite:
    lines = [ln for ln in section["markdown"].split("\n") if ln.strip()]
    if len(lines) <= 1:
        return Rewrite(section["markdown"], list(section.get("citations", [])), [], "offline",
                       declined="未能采纳：这一节只有一行，已经无法再精简。")
    keep_n = max(1, len(lines) // 2)
    ranked = sorted(range(len(lines)), key=lambda i: (not ((selected and selected in lines[i])
                                                           or mentions(lines[i], req.term)), i))
    keep = sorted(ranked[:keep_n])
    kept = [lines[i] for i in keep]
    marks = {int(m) for ln in kept for m in re.findall(r"\[(\d+)\]", ln)}
    cits = [c for c in section.get("citations", []) if int(c["n"]) in marks]
    return Rewrite("\n".join(kept), cits, [], "offline", served=["shorten"])


WRITE_SCHEMA = {
    "type": "object",
    "required": ["sentences"],
    "properties": {"sentences": {"type": "array", "maxItems": 3, "items": {
        "type": "object", "required": ["text", "evidence"],
        "properties": {"text": {"type": "string", "maxLength": 120}, "evidence": {"type": "integer"}}}}},
}  # bounded to fit max_tokens: a server that enforces the schema then always returns valid JSON


def _llm_block(provider: ChatProvider, req: Request, selected: str, picks: list[Cand], *,
               topic: str) -> tuple[list[tuple[str, Cand]], str]:
    """The model words the added sentences for the comment; each is checked, a failing one becomes its quote."""
    blocks = "\n".join(f"[{i + 1}] {c.said}" for i, c in enumerate(picks))
    labels = "、".join(NEED_LABELS.get(k, k) for k in req.kinds)
    system = ("你在回应读者对学习文档的评论。只用给出的编号证据，针对评论的要求写 1-3 句中文，每句只陈述一条证据中的事实，"
              "不得添加证据中没有的事实。返回 JSON：{\"sentences\": [{\"text\": 一句中文, \"evidence\": 证据编号}]}。")
    user = f"主题：{topic}\n读者选中：{selected}\n评论要求：{labels}（关于「{req.term}」）\n证据：\n{blocks}"
    data = chat_json(provider, [{"role": "system", "content": system}, {"role": "user", "content": user}],
                     WRITE_SCHEMA, max_tokens=600)
    out: list[tuple[str, Cand]] = []
    replaced = 0
    used: set[int] = set()
    for s in data.get("sentences") or []:
        if not isinstance(s, dict):
            continue
        text = str(s.get("text") or "").strip()
        try:
            idx = int(s.get("evidence", 0)) - 1
        except (TypeError, ValueError):
            continue
        if not 0 <= idx < len(picks) or idx in used:
            continue
        used.add(idx)
        ev = picks[idx]
        if text and check.check_written(req.term or topic, text, ev.said).level == "confirmed" and mentions(text, req.term):
            out.append((text, ev))
        else:  # not supported (or off the term): the verified quote it cites instead
            replaced += 1
            out.append((ev.said, ev))
    if not out:
        raise ProviderError("the model wrote no usable sentence for the comment")
    return out, (f"replaced {replaced} model sentence(s) by their source quote" if replaced else "")


def insert_after_anchor(markdown: str, selected: str, block: str) -> str:
    """Insert ``block`` after the line holding ``selected`` (or at the end)."""
    lines = markdown.split("\n")
    idx = next((i for i, line in enumerate(lines) if selected and selected in line), None)
    if idx is None:
        return markdown.rstrip() + "\n\n" + block
    return "\n".join(lines[: idx + 1] + ["", block, ""] + lines[idx + 1:]).strip()


def change_summary(old: str, new: str, *, heading: str, need: str, comment: str, sources: list[str],
                   lang: str = "zh") -> str:
    """'根据评论「…」为「heading」补充示例：新增 3 行，删除 0 行（来源：…）' from a line diff (in English for an
    English comment)."""
    ops = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines()).get_opcodes()
    added = sum(j2 - j1 for tag, _, _, j1, j2 in ops if tag in ("insert", "replace"))
    removed = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag in ("delete", "replace"))
    if lang == "en":
        src = "; ".join(dict.fromkeys(sources))
        return (f"For the comment “{comment[:60]}”, {NEED_LABELS_EN.get(need, 'rewrote')} in “{heading}”: "
                f"{added} line(s) added, {removed} removed" + (f" (sources: {src})" if src else ""))
    src = "、".join(dict.fromkeys(sources)) if sources else ""
    out = f"根据评论「{comment[:40]}」为「{heading}」{NEED_LABELS.get(need, '改写')}：新增 {added} 行，删除 {removed} 行"
    return out + (f"（来源：{src}）" if src else "")
