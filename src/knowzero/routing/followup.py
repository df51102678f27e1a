"""Follow-ups: a turn that leans on the previous question is rewritten into one that stands alone.

Three shapes depend on the conversation (the previous question is the only context they need):

    ellipsis        "那零件B呢？", "病假呢", "what about contractors?", "and for interns?"
                    → the previous question with its subject replaced ("零件B的公差是多少？")
    pronoun         "它的公差呢？", "那它的材料是什么？", "what is its price?"
                    → the pronoun replaced by the previous question's subject
    no subject      "需要谁批准？", "最多几天？", "how long does it take?"
                    → the previous question's subject put in front ("请假需要谁批准？")

Anything else stands alone and is returned unchanged (a new topic is never rewritten). Pure functions:
the graph's first node calls :func:`standalone` with the thread's previous question and shows the
rewrite in the trace.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from knowzero.vocabulary.questions import CALENDAR_PERIODS, NEW_TOPIC

Kinds = Callable[[str], tuple[str, tuple[str, ...]]]
"""What the team's tables know of a phrase: ("column" | "value", the other names of its kind) or ("", ())
(:meth:`knowzero.knowledge.kb.KnowledgeBase.same_kind`, bound to the thread's collections)."""

_CJK = re.compile(r"[\u3400-\u9fff]")
_LEAD = r"(?:那么?|那请问|请问|还有|另外|and\s+|so\s+|also\s+)?"
_ELLIPSIS_ZH = re.compile(rf"^{_LEAD}(?P<x>[^\s，,。？?呢]{{1,20}}?)(?:的情况|的话|这边)?呢[？?]?$")
_ELLIPSIS_EN = re.compile(r"^(?:and\s+|so\s+)?(?:what|how)\s+about\s+(?:the\s+)?(?P<x>.{1,40}?)\s*\??$"
                          r"|^and\s+(?:for|with|in)\s+(?:the\s+)?(?P<y>.{1,40}?)\s*\??$"
                          r"|^and\s+(?!(?:how|what|who|when|where|which|why|is|are|do|does|can|may)\b)"
                          r"(?:the\s+)?(?P<z>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,3})\s*\?$", re.I)
_PRONOUN_ZH = re.compile(rf"^{_LEAD}(?P<p>它们|它|他们|她们|他|她|这个|那个|该项|该|其|此)(?=的|是|有|在|要|能|可|需|怎|如|多|和|与|跟|比|对|给|向|由|被|每|什么|几|哪|何时|为什么|会|已|还|现在|今年|去年|明年|本月|下个?月)")
_PRONOUN_EN = re.compile(r"\b(?P<p>its|it|they|their|this|that|he|she|him|his|her)\b", re.I)
_PERSONAL_EN = frozenset({"he", "she", "him", "his", "her"})
"""A person's pronoun: it means the person of the previous answer or question, in a question of any length."""
_OBJECT_AFTER = re.compile(r"\s+(?:in|on|at|to|for|up|out|off|back|a|an|the|this|that)\b|\s*[?.!,]|\s*$", re.I)
_NO_SUBJECT_ZH = re.compile(rf"^{_LEAD}(?:需要|需|要|可以|可否|能否|能不能|能|是否|有没有|有无|最多|最少|最长|最短|一共|总共|"
                            r"多久|多长|多少|几|怎么|怎样|如何|由谁|谁|什么时候|何时|哪里|在哪|向谁|找谁|交给谁|应该)")
_NO_SUBJECT_EN = re.compile(r"^(?:and\s+)?(?:how\s+(?:long|much|many|often)|who|when|where|is\s+(?:it|that|there)|"
                            r"can\s+(?:i|we|they|it)|do(?:es)?\s+(?:i|we|they|it)|what\s+if)\b", re.I)
_PREDICATE_ZH = r"放在|位于|设在|存放在|是|有|需要|需|要|可以|能|在|怎么|如何|多少|几|最多|最少|一共|超过|满|每|应|由|向|于|为"
_SUBJECT_END_ZH = re.compile(rf"(?:的|{_PREDICATE_ZH})")
_TOPIC_END_ZH = re.compile(rf"(?:{_PREDICATE_ZH})")
_EN_QUESTION_HEAD = re.compile(r"^(?:how\s+(?:many|much|long|often)|what|which|who|when|where|is|are|do|does|can|may)\s+",
                               re.I)
_CODE = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-]{0,9}$")
_PEOPLE_EN = re.compile(r"^(?:(?i:staff|people|personnel|children|[a-z]*(?:ers?|ees?|ists?|ians?|ors?|ants?|ents?|"
                        r"techs?|interns?|hires?|members?|nurses?|vets?))|[A-Z]{2,}s?)$")
"""One word naming people ("contractors", "staff", "DVMs"): a phrase ending in it is who a question is about."""


def _people(phrase: str) -> bool:
    words = phrase.split()
    return bool(words) and bool(_PEOPLE_EN.match(words[-1]))
_VALUE_ZH = re.compile(r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)\s*(天|年|个月|小时|元|万元|公里|人|次|%)")

MAX_FOLLOW_UP_CHARS = 24
"""A follow-up is short; a longer message carries its own subject and stands alone."""


def standalone(text: str, previous: str, subject: str = "", kinds: Kinds | None = None) -> str:
    """``text`` rewritten with the previous question's context when it depends on it, else ``text``.

    ``previous`` is the thread's previous (already standalone) question; ``subject`` what it was about
    when known (a named entity), else it is read from ``previous``. ``kinds`` says which names the tables hold
    as one kind: a follow-up naming one of them swaps the previous question's name of that kind.

    >>> standalone("那零件B呢？", "零件A的公差是多少？")
    '零件B的公差是多少？'
    >>> standalone("那B呢", "零件A的公差是多少？")
    '零件B的公差是多少？'
    >>> standalone("需要谁批准？", "年假有几天？")
    '年假需要谁批准？'
    >>> standalone("那它的公差呢？", "精密电机轴XH-1003的材料是什么？", "XH-1003")
    'XH-1003的公差呢？'
    >>> standalone("那实习生呢？", "员工的年假有几天？", "员工的年假")
    '实习生的年假有几天？'
    >>> standalone("病假呢？", "员工年假有几天？")
    '员工病假有几天？'
    >>> standalone("婚假有几天？", "年假有几天？")
    '婚假有几天？'
    >>> standalone("What about contractors?", "How many days of annual leave do employees get?")
    'How many days of annual leave do contractors get?'
    >>> standalone("What about someone with 3 years of service?", "How many days of leave does a service centre employee with 16 years of service get?")
    'How many days of leave does a service centre employee with 3 years of service get?'
    >>> standalone("它对企业用户每小时收费多少？", "实验室的场发射扫描电子显微镜放在哪个房间？")
    '实验室的场发射扫描电子显微镜对企业用户每小时收费多少？'
    >>> standalone("那去北美呢？", "研究生去亚洲参加国际会议，最多资助多少钱？")
    '研究生去北美参加国际会议，最多资助多少钱？'
    >>> standalone("里面说博士生每月基本津贴是多少？", "帮我生成一份关于研究生助研津贴的学习文档")
    '研究生助研津贴博士生每月基本津贴是多少？'
    >>> standalone("那请12天呢？", "员工请假5天需要谁审批？"), standalone("What about a $30,000 one?", "Who approves a $3,000 purchase?")
    ('员工请假12天需要谁审批？', 'Who approves a $30,000 purchase?')
    >>> standalone("那如果我是申请了缓考的呢？", "补考过了的话，成绩怎么记？")
    '如果我是申请了缓考，成绩怎么记？'
    >>> standalone("And if her sister studies there too?", "What is the yearly tuition for a 2026 entrant?")
    'What is the yearly tuition for a 2026 entrant if her sister studies there too?'
    >>> standalone("那配偶的父母去世呢？", "父母去世的话，公司给几天丧假？")
    '配偶的父母去世的话，公司给几天丧假？'
    >>> standalone("And the local transport allowance there?", "What is the daily meal allowance for a trip to Shenzhen?")
    'What is the daily local transport allowance for a trip to Shenzhen?'
    >>> standalone("What if we stay until 5pm?", "If we check out at 12 noon, what's the late check-out charge?")
    "What's the late check-out charge if we stay until 5pm?"
    >>> standalone("And on a bank holiday?", "What's the overtime rate if I work on a Saturday?")
    "What's the overtime rate if I work on a bank holiday?"
    >>> standalone("他今年12月能拿多少长期服务奖？", "Connor Byrne 在哪个仓库工作？")
    'Connor Byrne今年12月能拿多少长期服务奖？'
    >>> standalone("What would it come to with Saturday delivery?", "How much does it cost to send a 12 kg parcel?")
    'How much does it cost to send a 12 kg parcel with Saturday delivery?'
    >>> standalone("那要是爽约5次呢？", "同一年里爽约3次会怎么样？")
    '同一年里爽约5次会怎么样？'
    >>> standalone("How many days of annual leave does he get this year?", "Who has the most experience?", "Guo Dapeng")
    'How many days of annual leave does Guo Dapeng get this year?'
    >>> standalone("And what's her allowance for a night shift?", "Who is the longest-serving driver?", "Li Na")
    "And what's Li Na's allowance for a night shift?"
    >>> standalone("Does a nurse get paid leave if she is pregnant?", "Who has the most experience?", "Li Na")
    'Does a nurse get paid leave if she is pregnant?'
    >>> standalone("And if she were 26 kg?", "How much is it to spay a 9 kg dog?")
    'How much is it to spay a 26 kg dog?'
    >>> standalone("其中最重的是哪只？", "健康计划里现在有效的拉布拉多有几只？")
    '健康计划里现在有效的拉布拉多中最重的是哪只？'
    >>> standalone("And bereavement leave?", "How many paid sick days do employees get per year?")
    'How many bereavement leave do employees get per year?'
    >>> standalone("What about credentialed vet techs?", "What is the annual allowance for a DVM at Maple Grove?")
    'What is the annual allowance for credentialed vet techs at Maple Grove?'
    >>> standalone("And the maximum performance allowance?", "What is the monthly base stipend for master's students?")
    "What is the maximum performance allowance for master's students?"
    >>> standalone("What about a three-bedroom instead?", "What does a local one-bedroom move cost on a Sunday?")
    'What does a local three-bedroom move cost on a Sunday?'
    >>> standalone("小孩呢？", "2号线大人单程票多少钱？")
    '2号线小孩单程票多少钱？'
    """
    t = text.strip()
    prev = NEW_TOPIC.sub("", previous.strip(), count=1)  # "换个问题：…" of the previous turn is no part of its question
    if NEW_TOPIC.match(t):
        return text  # "Different question: …" stands on its own
    if not t or not prev or len(t) > MAX_FOLLOW_UP_CHARS * (3 if not _CJK.search(t) else 1):
        return text
    if _CJK.search(prev) or _CJK.search(t):
        return _zh(t, prev, subject, kinds) or text
    return _en(t, prev, subject, kinds) or text


def _kind_swapped(x: str, prev: str, kinds: Kinds | None) -> str | None:
    """``x`` in place of the previous question's name of its kind, as the tables know them: "云溪苑" for 江畔花园
    when both head a column of one table, "W4" for W2 when both are values of one column; None when no table
    knows ``x``, ``prev`` already names it, or names none of its kind.

    >>> table = {"云溪苑": ("column", ("物业类型", "江畔花园", "枫林里")), "w4": ("value", ("w2", "w3"))}
    >>> kinds = lambda x: table.get(x.lower(), ("", ()))
    >>> _kind_swapped("云溪苑", "江畔花园多层住宅的物业费多少钱一平？", kinds)
    '云溪苑多层住宅的物业费多少钱一平？'
    >>> _kind_swapped("W4", "What's the night shift allowance for a W2?", kinds)
    "What's the night shift allowance for a W4?"
    >>> _kind_swapped("W4", "What's the night shift allowance?", kinds) is None
    True
    >>> _kind_swapped("护士", "医生值一个夜班，补贴多少钱？", lambda x: ("value", ("医师", "护士", "行政后勤人员")))
    '护士值一个夜班，补贴多少钱？'
    """
    if kinds is None or x.lower() in prev.lower():
        return None
    kind, others = kinds(x)
    if not kind:
        return None
    lowered = prev.lower()
    for name in sorted((o for o in others if len(o) >= 2), key=len, reverse=True):
        # an English name is a whole word ("w2", not the w2 of "w2x"); a Chinese one anywhere
        bound = r"(?<![a-z0-9])" if name.isascii() else ""
        if m := re.search(bound + re.escape(name) + (r"(?![a-z0-9])" if bound else ""), lowered):
            return prev[:m.start()] + x + prev[m.end():]
    # the previous question named its row loosely, one character of a two- or three-character name changed
    # ("医生值一个夜班…" of the row 医师): the one such word is what ``x`` replaces
    loose = {m.group(0): m for o in others if _CJK_NAME.fullmatch(o) and o != x
             for pattern in (rf"{re.escape(o[0])}[\u4e00-\u9fff]{{{len(o) - 1}}}", rf"[\u4e00-\u9fff]{{{len(o) - 1}}}{re.escape(o[-1])}")
             for m in re.finditer(pattern, prev) if m.group(0) != x}
    if len(loose) == 1:
        m = next(iter(loose.values()))
        return prev[:m.start()] + x + prev[m.end():]
    return None


_CJK_NAME = re.compile(r"[\u4e00-\u9fff]{2,3}")
_SWITCH_ZH = re.compile(r"^(?:换成|改成|换为|改为|变成|改用|换用)(?=.{2})")


def _thing_of(topic: str, kinds: Kinds | None) -> str:
    """What a pronoun stands for in a topic "X的Y": X when Y names a column of a table (it asked an attribute:
    "云溪苑8栋602的建筑面积" → 云溪苑8栋602), else the whole topic ("实验室的场发射扫描电子显微镜").

    >>> _thing_of("云溪苑8栋602的建筑面积", lambda x: ("column", ("房号",)) if x == "建筑面积" else ("", ()))
    '云溪苑8栋602'
    """
    if kinds is None or "的" not in topic:
        return topic
    head, _, attribute = topic.rpartition("的")
    return head if len(head) >= 2 and kinds(attribute)[0] == "column" else topic


_AGE_GROUPS = r"大人|成人|成年人|小孩|儿童|孩子|小朋友|老人|长者|老年人|学生|婴儿|幼儿|青少年"
_PERSON_ZH = re.compile(rf"^(?:{_AGE_GROUPS})$")
_PERSON_IN = re.compile(_AGE_GROUPS)
"""The words for people a fare or a price table divides them by (an adult, a child, an older person, a student)."""


def _person_swapped(x: str, prev: str) -> str | None:
    """``x``, a word for people ("小孩", "老人", "儿童"), in place of the previous question's one such word ("大人").

    >>> _person_swapped("小孩", "2号线大人单程票多少钱？"), _person_swapped("小孩", "2号线单程票多少钱？")
    ('2号线小孩单程票多少钱？', None)
    """
    if not _PERSON_ZH.match(x) or x in prev:
        return None
    found = {m.group(0) for m in _PERSON_IN.finditer(prev)}
    if len(found) != 1:
        return None
    return prev.replace(found.pop(), x, 1)


def _zh(t: str, prev: str, subject: str, kinds: Kinds | None = None) -> str | None:
    if (inside := _IN_IT_ZH.match(t)) and inside.end() > 0 and (document := _DOCUMENT_ASK_ZH.search(prev)):
        return document.group("x") + t[inside.end():]  # "里面说博士生…" about the learning document just written
    if t.startswith("其中") and (counted := _COUNTED_SET.match(prev)):
        return f"{counted.group('set')}中{t[2:]}"  # "其中最重的是哪只？" after "…有效的拉布拉多有几只？": among those counted
    # a name the thread is about replaces as a whole; a phrase ("员工的年假") is read afresh: "那实习生呢？" changes 员工
    subj = subject if subject and subject in prev and "的" not in subject else subject_of(prev)
    if m := _PRONOUN_ZH.match(t):
        # 它 is the thing the previous question was about, its modifiers kept ("实验室的场发射扫描电子显微镜")
        thing = _thing_of(subject if subject and subject in prev else (topic_of(prev) or subj), kinds)
        if not thing:
            return None
        return thing + t[m.end():]
    if m := _ELLIPSIS_ZH.match(t):
        x = _SWITCH_ZH.sub("", m.group("x"))  # "那换成冷藏车呢？": 冷藏车 in place of its kind
        if cond := _CONDITION_ZH.match(x):
            # "那要是爽约5次呢？": the value changes; "那如果我是申请了缓考的呢？": the condition, the question stays
            return _value_swapped(x, prev) or _condition_swapped(cond.group("c"), prev)
        if day := _day_swapped(x, prev):  # "那周六呢？" after "…中心工作日几点开门？"
            return day
        if shaped := _shape_swapped(x, prev):  # "那2025级的呢？" after "2026级艺术类专业一年学费是多少？"
            return shaped
        if valued := _value_swapped(x, prev):  # "那请12天呢？": the value changes
            return valued
        if named := _kind_swapped(re.sub(r"的$", "", x), prev, kinds):  # "那云溪苑的呢？": a column of 江畔花园's table
            return named
        if people := _person_swapped(re.sub(r"的$", "", x), prev):  # "小孩呢？" after "…大人单程票多少钱？"
            return people
        # "那事假呢？" after "…每年有几天带薪病假？": the word of the same kind (the same last character) changes —
        # a particle is no last character ("那云溪苑的呢？" does not replace the 宅的 of "…多层住宅的物业费")
        x = re.sub(r"的$", "", x) if len(x) >= 3 else x
        if (owned := re.fullmatch(r"(.{1,10}的)(.{2,})", x)) and owned.group(2) in prev and x not in prev:
            # "那配偶的父母去世呢？" after "父母去世的话，…": the previous phrase, now someone's
            return prev.replace(owned.group(2), x, 1)
        # (as long a modifier as the follow-up's: "那普通货呢？" after "冷链货物…" → 普通货物, not 冷普通货物)
        if len(x) >= 2 and not _CODE.search(x) and \
                (same := re.search(rf"[\u3400-\u9fff]{{{min(len(x) - 1, 3)}}}{re.escape(x[-1])}", prev)):
            if same.group(0) != x and x not in prev:
                return prev[:same.start()] + x + prev[same.end():]
        # "那去北美呢？" after "…去亚洲参加…": the phrase of the same length led by the same character changes
        if len(x) >= 2 and _CJK.match(x) and x not in prev and \
                (same := re.search(rf"{re.escape(x[0])}[\u3400-\u9fff]{{{len(x) - 1}}}", prev)):
            return prev[:same.start()] + x + prev[same.end():]
        if not subj or x == subj:
            return None
        return prev.replace(subj, _same_kind(subj, x), 1)
    topic = subject if subject and subject in prev else topic_of(prev)
    if _NO_SUBJECT_ZH.match(t) and topic and topic not in t:
        lead = re.match(_LEAD, t)
        return topic + t[lead.end() if lead else 0:]
    return None


_EN_LENGTH = re.compile(r"\b\d+(?:\.\d+)?\s+(?:hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?|nights?)"
                        r"(?:,?\s+(?:and\s+)?\d+\s+(?:minutes?|mins?|hours?))?\b", re.I)


def _length_swapped(t: str, prev: str) -> str | None:
    """"What if they'd only waited 55 minutes?" after "… waited 2 hours 10 minutes …": the length of time changes.

    >>> _length_swapped("What if they'd only waited 55 minutes?", "The crew waited 2 hours 10 minutes. What's the charge?")
    "The crew waited 55 minutes. What's the charge?"
    """
    if not (cond := _CONDITION_EN.match(t)) or not (new := _EN_LENGTH.search(cond.group("c"))):
        return None
    old = list(_EN_LENGTH.finditer(prev))
    if len(old) != 1:
        return None
    return prev[:old[0].start()] + new.group(0) + prev[old[0].end():]


def _en(t: str, prev: str, subject: str, kinds: Kinds | None = None) -> str | None:
    if swapped := _amount_swapped(t, prev):  # "What if it goes over 30,000?" after "… a claim of USD 4,000?"
        return swapped
    if swapped := _length_swapped(t, prev):  # "What if they'd only waited 55 minutes?"
        return swapped
    if (cond := _CONDITION_EN.match(t)) and (shaped := _shape_swapped(cond.group("c"), prev)) and \
            _SHAPED_NUMBER.search(cond.group("c")):
        return shaped  # "And if she were 26 kg?" after "How much is it to spay a 9 kg dog?": the weight changes
    if cond and (not t.lower().startswith("what") or re.search(r"\bif\b", prev, re.I)):
        # "And if her older sister is already studying there?"; "What if we stay until 5pm?" after "If we check
        # out at 12 noon, what's the late check-out charge?" (the previous question's condition is replaced)
        main = re.split(r"\s+if\s+", _LEADING_IF_EN.sub("", prev).rstrip("?").rstrip(), maxsplit=1, flags=re.I)[0]
        return f"{main[:1].upper()}{main[1:]} if {cond.group('c')}?"
    if m := _ELLIPSIS_EN.match(t):
        x = (m.group("x") or m.group("y") or m.group("z") or "").strip()
        x = re.sub(r"\s+(?:there|then|too|as well|instead)$", "", x, flags=re.I)  # "and the transport allowance there?"
        x = re.sub(r"^(?:someone|somebody|anyone|people|those|staff|employees?)\s+(?:with|who\s+(?:has|have))\s+",
                   "", x, flags=re.I)  # "someone with 12 years" → the value that changes
        if (money := re.search(r"[$€£¥]\s?\d[\d,]{0,15}(?:\.\d{1,6})?", x)) and \
                (same := re.search(r"[$€£¥]\s?\d[\d,]{0,15}(?:\.\d{1,6})?", prev)):
            return prev[:same.start()] + money.group(0) + prev[same.end():]  # "what about a $30,000 one?"
        if (v := re.match(r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)\s+([A-Za-z]+?)s?\b", x)) and \
                (same := re.search(rf"\b(?<![\d.])\d{{1,12}}(?:\.\d{{1,6}})?\s+{re.escape(v.group(2))}s?\b", prev, re.I)):
            # "someone with 3 years of service" after "… with 16 years of service …": the value changes
            return prev[:same.start()] + v.group(0) + prev[same.end():]
        if named := _kind_swapped(re.sub(r"^(?:an?|the)\s+", "", x, flags=re.I), prev, kinds):
            return named  # "And for a W4?" after "… for a W2?": another value of the grade column
        if (joined := re.fullmatch(r"(?:an?\s+|the\s+)?([\w]+)-([a-z]{3,})", x, re.I)) and \
                (same := re.search(rf"\b[\w]+-{re.escape(joined.group(2))}\b", prev, re.I)):
            # "What about a three-bedroom instead?" after "… a local one-bedroom move …": the count changes
            return prev[:same.start()] + joined.group(1) + "-" + joined.group(2) + prev[same.end():]
        head = x.split()[-1]
        # "and sick leave?" after "… of annual leave …": the phrase with the same head word is what changes
        if len(x.split()) > 1 and (same := re.search(rf"\b(?:[\w-]+\s+)?{re.escape(head)}\b", prev, re.I)):
            if same.group(0).lower() != x.lower():
                return prev[:same.start()] + x + prev[same.end():]
        if _people(x):  # "what about vet techs?" after "… for a DVM at …": the people asked about change
            for who in re.finditer(r"\b(?:for|do|does|are|can)\s+((?:an?\s+|the\s+)?([A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){0,2}?))"
                                   r"(?=\s+(?:at|in|on|of|get|have|earn|receive|need|work)\b|\s*\?|$)", prev):
                if _people(who.group(2)):
                    return prev[:who.start(1)] + x + prev[who.end(1):]
        if shaped := _shape_swapped(x, prev):  # "And for zone C?" after "… a 12 kg parcel to Zone B?"
            return shaped
        if swapped := _name_swapped(x, prev):  # "And in Zurich?" after "… travelling to Dubai?"
            return swapped
        if day := _day_swapped(re.sub(r"^(?:on|at|during|for)\s+", "", x, flags=re.I), prev):  # "And on Saturdays?"
            return day
        if re.match(r"(?:for|to|in|at|on|with|during|after|before)\s", x, re.I):  # "what about for a pet?"
            return f"{prev.rstrip('?').rstrip()} {x}?"
        if not _people(x) and \
                (asked := re.match(r"^how\s+(?:many|much)\s+(.+?)\s+(?:do|does|is|are|can|will|did)\b", prev, re.I)):
            # "and bereavement leave?" after "How many paid sick days do …": the counted thing changes
            return prev[:asked.start(1)] + x + prev[asked.end(1):]
        subj = subject if subject and subject in prev else _en_subject(prev)
        if subj and subj.lower() != x.lower():
            return prev.replace(subj, x, 1)
        return f"{prev.rstrip('?').rstrip()} for {x}?"
    subj = subject or _en_topic(prev)
    if not subj:
        return None
    if re.match(r"(?:it|this|that)\b", subj, re.I) and _PRONOUN_EN.search(t) and \
            (added := re.search(r"\s((?:with|including|plus|on|by|via)\s+[^?]{2,60}?)\s*\?$", t, re.I)):
        # "What would it come to with Saturday delivery?" after "How much does it cost to send …?": the previous
        # question's own "it" (no thing named), asked again with what the message adds
        return f"{prev.rstrip('?').rstrip()} {added.group(1)}?"
    if (p := _PRONOUN_EN.search(t)) and (len(t.split()) <= 8 or p.group("p").lower() in _PERSONAL_EN) and \
            not (p.group("p").lower() in _PERSONAL_EN and any(_PEOPLE_EN.match(w) for w in re.findall(r"[A-Za-z]+", t[:p.start()])
                                                            if w.lower() not in ("what", "how", "who", "does"))):
        # ("does a nurse get leave if she …": her own person, named before her)
        return _PRONOUN_EN.sub(lambda m: subj + ("'s" if _possessive(m, t) else ""), t, count=1)
    if _NO_SUBJECT_EN.match(t) and len(t.split()) <= 6:
        return f"{t.rstrip('?').rstrip()} ({subj})?"
    return None


def _possessive(m: re.Match[str], t: str) -> bool:
    """"its", "their", "his", and "her" before the thing it owns ("her allowance", not "book her in")."""
    p = m.group("p").lower()
    return p in ("its", "their", "his") or (p == "her" and not _OBJECT_AFTER.match(t, m.end()))


_CONTINUING = re.compile(r"^\s*(?:(?:and|so|also|then|what about|how about)\b|(?:那么?|还有|另外)(?![个一]?个?问题))", re.I)


def continues_answer(text: str) -> bool:
    """A message that opens by going on from the previous answer ("And individual, with the ashes back?", "那一次买40节呢？",
    "What about contractors?"), not a new request.

    >>> continues_answer("And individual, with the ashes back?"), continues_answer("那一次买40节呢？")
    (True, True)
    >>> continues_answer("帮我生成一份关于年假的学习文档"), continues_answer("另外一个问题：年假几天？")
    (False, False)
    """
    return bool(_CONTINUING.match(text)) and not NEW_TOPIC.match(text)


def subject_of(question: str) -> str:
    """The Chinese question's subject: what comes before its first predicate ("年假有几天？" → 年假).

    >>> subject_of("零件A的公差是多少？"), subject_of("员工请假超过3天需要什么手续？"), subject_of("谁批准？")
    ('零件A', '员工请假', '')
    """
    q = re.sub(rf"^{_LEAD}", "", question.strip())
    m = _SUBJECT_END_ZH.search(q)
    head = q[:m.start()] if m else ""
    return head if 1 <= len(head) <= 16 else ""


_DOCUMENT_ASK_ZH = re.compile(r"关于(?P<x>.{2,30}?)的(?:学习|培训)?(?:文档|资料|材料|笔记|讲义)")
_DOCUMENT_ASK_EN = re.compile(r"\b(?:learning|study|training)\s+(?:document|guide|notes?)\s+(?:about|on|for)\s+"
                              r"(?P<x>.{2,80}?)\s*[.?!]?$", re.I)
_COUNTED_SET = re.compile(r"^(?P<set>[^，,。？?]{2,40}?)(?:一共|总共|共)?有?(?:几|多少)\s*[个只名位人台辆条件套家种项头匹]?[？?]?$")
"""A count question's counted set ("健康计划里现在有效的拉布拉多" of "…有几只？"): what a later "其中" is among."""
_IN_IT_ZH = re.compile(r"^(?:这里面|这里|里面|文中|文档里|文档中|这份文档里|这份文档中|这篇里|其中)(?:说|提到|讲)?的?")


def topic_of(question: str) -> str:
    """What a Chinese question is about, its modifiers kept: what comes before its first predicate
    ("员工的年假有几天？" → 员工的年假), for a follow-up that names no subject ("需要谁批准？").

    >>> topic_of("员工的年假有几天？"), topic_of("员工请假超过3天需要什么手续？"), topic_of("谁批准？")
    ('员工的年假', '员工请假', '')
    >>> topic_of("年卡现在多少钱？"), topic_of("换个问题：团课约了去不了，最晚什么时候能取消？")
    ('年卡', '团课约了去不了')
    """
    if m := _DOCUMENT_ASK_ZH.search(question):  # "帮我生成一份关于X的学习文档": the document is about X
        return m.group("x")
    q = re.sub(rf"^{_LEAD}", "", NEW_TOPIC.sub("", question.strip(), count=1))  # "换个问题：" opens no topic
    clauses = re.split(r"[，,；;]", _ASKERS_NOW_ZH.sub("", q), maxsplit=1)
    q = clauses[0]  # the first clause ("团课约了去不了，…"): the topic, when no predicate ends it sooner
    # the first predicate after two characters: "智能材料…" is not about "智"
    m = next((m for m in _TOPIC_END_ZH.finditer(q) if m.start() >= 2), None)
    head = q[:m.start()].rstrip("的，,、 ") if m else q if len(clauses) > 1 else ""
    return head if 2 <= len(head) <= 20 else ""


_ASKERS_NOW_ZH = re.compile(r"现在|目前|当前|如今|眼下")
"""The asker's "now" ("年卡现在多少钱？"): no part of the topic (its 在 is no predicate)."""


def with_context(text: str, previous: str, subject: str = "") -> str:
    """A short message the rules did not rewrite, read with the previous question's topic in front
    ("员工自己要付多少钱？" after "…食堂的午餐几点供应？" → "…食堂的午餐员工自己要付多少钱？"): the other reading
    tried when the message alone finds no answer; "" when there is none. ``subject``: the thread's topic,
    kept from the last question that stood alone (a turn answered as typed may have named none).

    >>> with_context("每次至少要休息多久？", "驾驶员连续驾驶最多多久就要停车休息？")
    '驾驶员连续驾驶每次至少要休息多久？'
    >>> with_context("Is it paid on the first Friday?", "How much is the lunch stipend for an 8-hour shift?")
    'Is it paid on the first Friday (lunch stipend)?'
    >>> with_context("驾驶员连续驾驶每次至少要休息多久？", "驾驶员连续驾驶最多多久就要停车休息？")
    ''
    >>> with_context("这里面病假怎么算？", "帮我生成一份关于瀚陆物流休假制度的学习文档", "文档")
    '瀚陆物流休假制度病假怎么算？'
    """
    t, prev = text.strip(), previous.strip()
    if not t or not prev or t == prev or len(t) > MAX_FOLLOW_UP_CHARS * (3 if not _CJK.search(t) else 1):
        return ""
    if _CJK.search(t):
        document = _DOCUMENT_ASK_ZH.search(prev)  # the document being read names the topic, not a word of the ask
        topic = document.group("x") if document else subject or topic_of(prev)
        if not topic or topic in t:
            return ""
        lead = re.match(_LEAD, t)
        t = t[lead.end() if lead else 0:]
        return topic + _IN_IT_ZH.sub("", t)  # "这里面病假怎么算？" about the document read: its topic's 病假
    topic = subject or _en_topic(prev)
    if not topic or topic.lower() in t.lower() or not _PRONOUN_EN.search(t):
        return ""  # an English message with a subject of its own ("what's the clinic's phone?") stands alone
    return f"{t.rstrip('?').rstrip()} ({topic})?"


_PREV_AMOUNT = re.compile(r"(?:\b(?:usd|us\$)\s?|[$€£¥]\s?)(\d[\d,]*(?:\.\d+)?)", re.I)
_BARE_NUMBER = re.compile(r"(?<![\w.,$€£¥])\d[\d,]*(?:\.\d+)?(?![\w.])")
_OVER = re.compile(r"\b(?:over|more than|above|exceeds?|exceeding)\s*$", re.I)


def _amount_swapped(t: str, prev: str) -> str | None:
    """A short follow-up naming a bare amount where the previous question named one with its currency: the amount
    changes ("What if it goes over 30,000?" after "Who approves a claim of USD 4,000?" → "… of over USD 30,000?").

    >>> _amount_swapped("What if it goes over 30,000?", "Who has to approve an expense claim of USD 4,000?")
    'Who has to approve an expense claim of over USD 30,000?'
    >>> _amount_swapped("And for 3 days?", "Who approves a claim of USD 4,000?") is None
    True
    """
    numbers = _BARE_NUMBER.findall(t)
    amounts = list(_PREV_AMOUNT.finditer(prev))
    if len(numbers) != 1 or len(amounts) != 1 or len(t.split()) > 8 or len(numbers[0].replace(",", "")) < 3:
        return None
    a = amounts[0]
    over = "over " if _OVER.search(t[:t.find(numbers[0])]) else ""
    return prev[:a.start()] + over + prev[a.start():a.start(1)] + numbers[0] + prev[a.end():]


_NAME = r"[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*){0,2}"
_PLACED_NAME = re.compile(rf"\b(in|to|at|for|from)\s+({_NAME})")


def _name_swapped(x: str, prev: str) -> str | None:
    """A place or name asked about instead of the previous question's one ("in Zurich" after "… travelling to
    Dubai?"): the name after a preposition in ``prev`` that ``x`` replaces — the one after the same preposition,
    else the last.

    >>> _name_swapped("in Zurich", "What's the hotel cap for a G5 travelling to Dubai?")
    "What's the hotel cap for a G5 travelling to Zurich?"
    >>> _name_swapped("for contractors", "How many days of leave do employees get?") is None
    True
    """
    m = re.fullmatch(rf"(?:(in|to|at|for|from)\s+)?({_NAME})", x.strip())
    if not m:
        return None
    found = [f for f in _PLACED_NAME.finditer(prev) if f.group(2) != m.group(2)]
    if not found:
        return None
    same = [f for f in found if m.group(1) and f.group(1).lower() == m.group(1).lower()]
    f = (same or found)[-1]
    return prev[:f.start(2)] + m.group(2) + prev[f.end(2):]


def _shape_swapped(x: str, prev: str) -> str | None:
    """A value of the same shape as one of the previous question's, with another number or letter: that value
    replaced ("2025级" for 2026级, "zone C" for Zone B, "8 kg" for 12 kg); None when ``x`` names no such value.

    >>> _shape_swapped("2025级的", "2026级艺术类专业一年学费是多少？")
    '2025级艺术类专业一年学费是多少？'
    >>> _shape_swapped("for zone C", "How much does it cost to send a 12 kg parcel to Zone B?")
    'How much does it cost to send a 12 kg parcel to zone C?'
    >>> _shape_swapped("10天换成D组", "A组经济型车租10天，每天多少钱？")
    'D组车租10天，每天多少钱？'
    >>> _shape_swapped("周六", "年假有几天？") is None
    True
    """
    for m in _SHAPED_NUMBER.finditer(x):
        unit = m.group(2)
        if (same := re.search(rf"(?<![\d.])\d{{1,12}}(?:\.\d{{1,6}})?\s*{re.escape(unit)}(?![a-z])", prev, re.I)) \
                and same.group(0).replace(" ", "") != m.group(0).replace(" ", ""):
            return prev[:same.start()] + m.group(0) + prev[same.end():]
    for m in _SHAPED_LABEL.finditer(x):
        if (same := re.search(rf"\b{re.escape(m.group(1))}\s+[a-z0-9]{{1,2}}\b", prev, re.I)) \
                and same.group(0).lower() != m.group(0).lower():
            return prev[:same.start()] + m.group(0) + prev[same.end():]
    for m in _LETTERED_KIND.finditer(x):
        # "换成D组" after "A组经济型车…": the group replaced, with the word for the old group's kind ("经济型")
        if (same := re.search(rf"(?<![A-Za-z])[A-Za-z]{{1,2}}\d{{0,2}}{re.escape(m.group(2))}(?:[\u4e00-\u9fff]{{1,4}}?[型类款级](?=[\u4e00-\u9fff]))?",
                              prev)) and same.group(0) != m.group(0):
            return prev[:same.start()] + m.group(0) + prev[same.end():]
    return None


_SHAPED_NUMBER = re.compile(r"(?i)(?<![\d.])(\d{1,12}(?:\.\d{1,6})?)\s*([\u4e00-\u9fff]|kg|km|cm|mm|g|t|ml|l)(?![a-z])")
"""A number with its unit or kind ("2025级", "8 kg")."""
_SHAPED_LABEL = re.compile(r"(?i)\b([a-z]{3,})\s+([a-z]|\d{1,2}|[a-z]\d)\b")
_LETTERED_KIND = re.compile(r"(?<![A-Za-z])([A-Za-z]{1,2}\d{0,2})([组区类座栋号级档])")
"""A letter and the kind it names ("D组", "B区", "C座")."""
"""A kind and its letter or number ("zone C", "grade W3", "gate 4")."""


def _day_swapped(x: str, prev: str) -> str | None:
    """A day of the calendar asked instead of the previous question's ("周六" for 工作日, "Saturdays" for weekdays):
    that day replaced, whoever or wherever the question was about kept; None when either names no day.

    >>> _day_swapped("周六", "南湖市民服务中心工作日几点开门、几点关门？")
    '南湖市民服务中心周六几点开门、几点关门？'
    >>> _day_swapped("Saturdays", "What are the centre's opening hours on weekdays?")
    "What are the centre's opening hours on Saturdays?"
    >>> _day_swapped("a bank holiday", "What's the overtime rate if I work on a Saturday?")
    "What's the overtime rate if I work on a bank holiday?"
    >>> _day_swapped("周六", "年假有几天？") is None
    True
    >>> _day_swapped("winter", "when is the fuel berth open in the summer?"), _day_swapped("8月", "3月份入住多少钱一晚？")
    ('when is the fuel berth open in the winter?', '8月入住多少钱一晚？')
    """
    x = re.sub(r"^(?:an?|the)\s+", "", x.strip(), flags=re.I)
    for period in CALENDAR_PERIODS:  # a day for a day, a season for a season, a month for a month
        if period.fullmatch(x) and (same := re.search(rf"(?<![a-z]){period.pattern}(?![a-z])", prev, period.flags & re.I)):
            return prev[:same.start()] + x + prev[same.end():]
    return None


def _value_swapped(x: str, prev: str) -> str | None:
    """A number with its unit in ``x`` replacing the previous question's number of that unit ("12天" for 5天)."""
    if (v := _VALUE_ZH.search(x)) and \
            (same := re.search(rf"(?<![\d.])\d{{1,12}}(?:\.\d{{1,6}})?\s*{re.escape(v.group(2))}", prev)):
        return prev[:same.start()] + v.group(0) + prev[same.end():]
    return None


_CONDITION_ZH = re.compile(r"^(?:如果|要是|假如|假设|若是?)(?P<c>.{1,18}?)的?$")
_CONDITION_EN = re.compile(r"^(?:(?:and|but|so)\s+(?:what\s+)?|what\s+)if\s+(?P<c>.{3,80}?)\s*\?$", re.I)
_LEADING_IF_EN = re.compile(r"^if\s+[^,?]{2,80},\s*", re.I)
"""A question's own condition in front ("If we check out at 12 noon, …")."""
_PREV_CONDITION_ZH = re.compile(r"^(?:如果|要是|假如|假设|若是?)?[^，,。？?]{1,20}?(?:的话|时)[，,]\s*")


def _condition_swapped(condition: str, prev: str) -> str:
    """The previous question asked under another condition: its condition clause ("补考过了的话，") replaced,
    or the new one put in front when it had none.

    >>> _condition_swapped("我是申请了缓考", "补考过了的话，成绩怎么记？")
    '如果我是申请了缓考，成绩怎么记？'
    >>> _condition_swapped("是实习生", "年假有几天？")
    '如果是实习生，年假有几天？'
    """
    main = prev[m.end():] if (m := _PREV_CONDITION_ZH.match(prev)) else prev
    return f"如果{condition}，{main}"


def _same_kind(subject: str, x: str) -> str:
    """"B" after "零件A" means 零件B: a bare code replaces the code that ends the subject."""
    if _CODE.fullmatch(x) and (m := _CODE.search(subject)) and m.start() > 0:
        return subject[:m.start()] + x
    return x


def _en_subject(question: str) -> str:
    """The English question's subject noun: the word after do/does/are/is… ("… do employees get?" → employees);
    for "what is the X for …", the phrase X ("What is the monthly base stipend for …" → monthly base stipend)."""
    if m := re.match(r"^what\s+(?:is|are|was|were)\s+(?:the\s+)?(.+?)\s+(?:for|of|in|at|on|when|that|per)\b",
                     question.strip(), re.I):
        return m.group(1)
    m = re.search(r"\b(?:do|does|are|is|can|may|should|will)\s+(?:the\s+|an?\s+)?([A-Za-z][\w-]*)", question, re.I)
    return m.group(1) if m else ""


def _en_topic(question: str) -> str:
    """What an English question is about, for a pronoun: the noun phrase after its question head."""
    if m := _DOCUMENT_ASK_EN.search(question.strip()):  # "Write me a learning document about X": X
        return m.group("x")
    q = _EN_QUESTION_HEAD.sub("", question.strip().rstrip("?"))
    q = re.sub(r"^(?:(?:is|are|does|do|the|a|an)\s+)+", "", q, flags=re.I)
    q = re.split(r"\s+(?:for|of|in|at|on|per|with|when|if)\s+", q, maxsplit=1, flags=re.I)[0]
    words = q.split()
    return " ".join(words[:4]) if words else ""
