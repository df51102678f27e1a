"""Text utilities shared by indexing, reading and checking: tokens, sentences, normalisation.

Chinese is segmented with jieba's algorithm and dictionary (``rjieba``; domain terms from a user
dictionary); Latin words, numbers and part numbers ("XH-1001", "0.01mm", "±0.05") are kept whole
by a regex pre-pass. The segmenter is initialised once per process. Nothing here touches storage.

Script: jieba's dictionary is Simplified, so Traditional text is always folded to Simplified (OpenCC
``t2s``) before it is segmented or compared (:func:`fold`, used by :func:`tokens`,
:func:`char_ngrams` and the checker's coverage; a no-op on Simplified text). Only matching sees the
folded form: stored text, quotes and offsets stay in the document's own script.

Process-wide resources (the one exception to "no module state", docs/architecture.md): jieba with
its bundled dictionary and our domain terms (:func:`_jieba`), and the OpenCC converter
(:func:`_t2s`), each loaded once by an ``lru_cache`` loader. A team's own dictionary
(``KNOWZERO_USER_DICT``) is handed in by whoever builds the knowledge base
(:func:`load_user_dict`); jieba keeps one dictionary per process, so its words then segment
everywhere in the process.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

from knowzero.vocabulary.questions import NEW_TOPIC

_jieba_lock = threading.Lock()
_LATIN = re.compile(r"[±+\-]?[A-Za-z0-9][A-Za-z0-9_\-\.±%/]*[A-Za-z0-9%]|[A-Za-z0-9]")
_CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_SUBWORD_SEP = re.compile(r"[-_/]")  # "gpt-4o" is also indexed as "gpt" and "4o"
_TOKEN_SPLIT = re.compile(r"([±+]?[A-Za-z0-9][A-Za-z0-9_\-\.±%/]*[A-Za-z0-9%]|[A-Za-z0-9]|[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+)")

PUNCT_RUN = re.compile(r"[\s\W_]+")
"""A run of spaces, punctuation and underscores (what comparisons of wording ignore)."""

STOPWORDS = frozenset(
    """的 了 是 在 和 与 及 或 也 都 就 而 被 把 对 从 向 为 以 于 之 其 这 那 这个 那个 这些 那些 哪 哪个 哪些 哪里 哪儿
    什么 怎么 怎样 如何 多少 几 吗 呢 吧 啊 呀 么 请问 请 一下 一个 一种 是否 有没有 有 没有 可以 能 会 要 需要 应该 我 你 他 她 它
    我们 你们 他们 公司 时候 什么样 为什么 谁 多 多久 几个 哪一 哪年 哪一年 何时 几年 第几 是不是 告诉 知道 关于 中 上 下 个 等
    几天 几号 几点 几月 几岁 几次 几位 几种 几项 几条 几家 几名 几人 几倍 多长 多长时间 多大 多高 多重 多远 多宽 多深 多少钱 哪天
    哪些 哪位 哪种 哪家 怎么样 啥 咋 多少次 是多少 有多少 为多少 甚么 为甚么 要求 规定 情况 方面 具体 如果 假如 要是 倘若 若是 的话
    现在 目前 当前 如今
    a an the of to in on for and or is are was were be been being what which who whom whose when where why how
    does do did can could should would will with by from at as that this these those it its i you me my your our
    please tell about there their they than then into many much""".split()
)
QUESTION_FILLER = frozenset(
    """have has had having may might must shall also very some any such out both same other others each own once
    here again between during while but if until am him his her hers them we us she he
    get gets getting got gotten actually really just still already ever now currently nowadays
    anything something someone somebody anyone anybody across
    已经 到底 究竟 钱 月份 百分之 百分""".split()
)
"""Words that carry only grammar in a question — English ones (the spoken "get", "got", "actually", "anything"; "now"
and "currently" as 现在 and 目前), "已经", the asker's "到底" and "究竟" ("actually"), the form of the value asked ("多少钱": an
amount; "8月份": the month is its number; "百分之多少": a share, written "60%"): no key term (:func:`retriever.key_terms`); nor is a relation joined to an
event or a question word (:data:`ASKED_RELATION`). Not stopwords elsewhere: an answer's "also" or "has" is still a
word the fact checker must find supported."""


# Question words as the segmenter cuts them: an interrogative glued to a classifier or a noun ("何年", "哪一位",
# "几世纪", "哪一条"; Taiwanese "甚麼" folds to 甚么, a variant of 什么). Folded, lower-cased tokens.
_ASK_CLASSIFIER = "年月日天号时处地人种者位个名条部国座本家所项次类款张首篇门间场支队段句层届倍岁只件块省州区方边颗盘股层期代度辆台"
_ASK_WORD = re.compile(rf"^(?:(?:哪[一些几]?|什么|甚么|多少)[\u4e00-\u9fff]?|[几何](?:[{_ASK_CLASSIFIER}]|世纪)|为何|如何|为什么|为甚么|"
                       r"怎么|怎样|怎么样|几时|何故|何以|何谓|有何)$")
_ASK_HEAD = re.compile(r"^(?:哪一|哪些|哪几|哪(?![一些几])|什么|甚么)(?=[\u4e00-\u9fff]{2,}$)")


_HOW_MUCH = re.compile(r"\bhow\s+(?:long|many|much|old|far|big|tall|high|large|often|wide|deep|heavy|fast|quick(?:ly)?|soon|late|early|frequently)\b|"
                       r"\bin common\b|\bthe name of\b|\b(?:type|kind|sort) of\b|\bwhat time\b(?!\s+zone)|"
                       r"\bup\s?front\b|\bin advance\b(?!\s+of)|\bat all\b|\bright away\b|\bat once\b", re.IGNORECASE)


ASKED_RELATION = re.compile(r"(?<![\d年月日号])(以后|之后|以内|之内)")
""""After" or "within" joined to an event or a question word ("名单出来以后", "开考多久以后"): a connective of the
question, no word a source must write (the documents say "开考15分钟后"). After a value ("2020年以后") it stays: a
condition; "以前" and "以来" always stay."""


def without_asking_phrases(question: str) -> str:
    """``question`` without the English words that only ask: "how long / how many / how old …" reduced to
    "how" (the adjective asks, like 多长, 多少), "in common", "the name of", "what type of", "what time" (几点) dropped,
    and the adverbial idioms no document writes as such ("paying up front", "in advance", "at all").

    >>> without_asking_phrases("How long is the Danube?"), without_asking_phrases("What profession do A and B have in common?")
    ('how is the Danube?', 'What profession do A and B have ?')
    """
    return _HOW_MUCH.sub(lambda m: "how" if m.group(0).lower().startswith("how") else "", question)


def has_cjk(text: str) -> bool:
    """``text`` holds a Chinese character (Chinese leaves a sentence's subject out; English states it).

    >>> has_cjk("How long is the Danube?"), has_cjk("多瑙河有多长？")
    (False, True)
    """
    return _CJK_RUN.search(text) is not None


def question_word(token: str) -> bool:
    """``token`` (folded, as :func:`tokens` gives it) only asks: an interrogative with at most a classifier
    ("何年", "哪一位", "几世纪", "甚么"), not a content word that starts like one ("几乎", "几何", "何韵诗").

    >>> [t for t in ("何年", "哪一位", "甚么", "几世纪", "为何", "几乎", "几何", "何韵诗", "哪些地方") if question_word(t)]
    ['何年', '哪一位', '甚么', '几世纪', '为何']
    """
    return bool(_ASK_WORD.match(token))


def without_question_word(token: str) -> str:
    """``token`` without a leading interrogative when a word of two characters or more follows
    ("什么游戏" → 游戏, "哪些地方" → 地方); otherwise ``token``.

    >>> [without_question_word(t) for t in ("什么游戏", "哪些地方", "哪一条", "何韵诗")]
    ['游戏', '地方', '哪一条', '何韵诗']
    """
    return _ASK_HEAD.sub("", token)


@lru_cache(maxsize=1)
def _t2s():  # noqa: ANN202 - OpenCC converter
    import opencc

    return opencc.OpenCC("t2s")


def fold(text: str) -> str:
    """``text`` in Simplified characters, for segmentation and matching only (see module doc);
    Simplified text comes back unchanged.

    >>> fold("陸特和漢斯雷頓開創了哪一地區")
    '陆特和汉斯雷顿开创了哪一地区'
    """
    if not _CJK_RUN.search(text):
        return text
    return _fold_cjk(text)


@lru_cache(maxsize=8192)
def _fold_cjk(text: str) -> str:
    """OpenCC's conversion, remembered: a turn folds the same passages and sentences again and again
    (retrieval, reading, checking), and so do the turns after it (~8 ms of CPU per knowledge turn)."""
    return _t2s().convert(text)


@lru_cache(maxsize=1)
def _s2t():  # noqa: ANN202 - OpenCC converter
    import opencc

    return opencc.OpenCC("s2tw")  # character forms as Taiwan writes them (為, 核實), no vocabulary swaps


def traditional(text: str) -> bool:
    """``text`` is written in Traditional characters: at least one of its CJK characters, and 5% of them,
    change under OpenCC ``t2s`` (a question written with only shared characters reads as Simplified).

    >>> traditional("周恩來在何處結識了鄧小平?"), traditional("周恩来在何处结识了邓小平？"), traditional("hello")
    (True, False, False)
    """
    chars = "".join(_CJK_RUN.findall(text))
    if not chars:
        return False
    changed = sum(a != b for a, b in zip(chars, fold(chars), strict=False))
    return changed >= 1 and changed >= 0.05 * len(chars)


def in_script(template: str, hant: bool) -> str:
    """One of our own Simplified strings as the reader writes (``hant``: Traditional, OpenCC ``s2tw``).
    Only our words: quotes, values and document names are never converted.

    >>> in_script("知识库中没有足够的信息", True), in_script("知识库中没有足够的信息", False)
    ('知識庫中沒有足夠的信息', '知识库中没有足够的信息')
    """
    return _s2t().convert(template) if hant else template


QUERY_CHARS = 300
"""How much of a question the knowledge steps read (routing, retrieval, key terms, sentence scoring).

A message may be 4,000 characters (``max_message_chars``); segmenting, embedding and matching all of
it for every retrieval attempt cost seconds of CPU per request, while what a
question asks fits in far fewer characters. The whole message is still stored and shown."""


def query_text(question: str) -> str:
    """The part of ``question`` the knowledge steps work on (at most :data:`QUERY_CHARS` characters), without an
    opening that changes the subject (:data:`NEW_TOPIC`).

    A long message usually ends with what it asks (context first, the question last), so the tail is
    kept, starting at a sentence boundary where one is near.

    >>> len(query_text("年" * 5000)) == QUERY_CHARS
    True
    >>> query_text("背景。" * 200 + "零件A的公差是多少？")[-10:]
    '零件A的公差是多少？'
    >>> query_text("换个问题：冷链货物坏了，要多久内提出理赔？"), query_text("Different question: when is the fuel berth open?")
    ('冷链货物坏了，要多久内提出理赔？', 'when is the fuel berth open?')
    """
    question = NEW_TOPIC.sub("", question, count=1)
    if len(question) <= QUERY_CHARS:
        return question
    tail = question[-QUERY_CHARS:]
    cut = min((i for i in (tail.find(m) for m in "。！？!?\n") if i >= 0), default=-1)
    return tail[cut + 1:] if 0 <= cut < QUERY_CHARS // 2 and tail[cut + 1:].strip() else tail


def normalize(text: str) -> str:
    """NFKC (full-width → half-width) and collapse whitespace."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


_USERDICT_LINE = re.compile(r"^(.+?)( [0-9]+)?( [a-z]+)?$")  # jieba's own user-dictionary line format


def _load_userdict(seg, path: str) -> None:  # noqa: ANN001 - rjieba.Jieba
    """Add a jieba-format user dictionary (``word [freq] [tag]`` per line) to ``seg``."""
    for line in Path(path).read_text(encoding="utf-8").lstrip("\ufeff").splitlines():
        m = _USERDICT_LINE.match(line.strip())
        if m is None:
            continue
        word, freq, tag = m.groups()
        seg.add_word(word.strip(), int(freq) if freq else None, tag.strip() if tag else None)


@lru_cache(maxsize=1)
def _jieba():  # noqa: ANN202 - rjieba.Jieba
    """The segmenter: jieba's algorithm and dictionary in Rust (``rjieba``, jieba-rs).

    Same segmentation as the Python ``jieba`` 0.42.1 (identical tokens on every CJK run of the
    CMRC 2018 trial and DRCD dev contexts and questions, 64,186 runs, and on the demo knowledge
    base with the user dictionary), at about a sixth of the CPU: ingest's keyword indexing was
    ~70% segmentation."""
    import rjieba

    with _jieba_lock:
        seg = rjieba.Jieba()
        user_dict = resources.files("knowzero.knowledge").joinpath("data/user_dict.txt")
        if user_dict.is_file():
            _load_userdict(seg, str(user_dict))
    return seg


def load_user_dict(path: str | Path) -> None:
    """Add a dictionary file's terms (jieba's format: ``term [freq] [tag]`` per line) to the segmenter.

    Called with ``settings.user_dict`` where the knowledge base is built. A file is read once per
    process and version (a second knowledge base on the same file adds nothing twice); a missing
    file is ignored, as before. Empty ``path``: nothing to add.
    """
    if not path:
        return
    p = Path(path)
    if p.is_file():
        st = p.stat()
        _user_dict(str(p.resolve()), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=8)
def _user_dict(path: str, mtime_ns: int, size: int) -> None:
    """Load one version of a user dictionary into jieba (keyed by path and file version)."""
    jb = _jieba()
    with _jieba_lock:
        _load_userdict(jb, path)
    _tokens.cache_clear()  # the segmentation of a text may change with the new terms


def stands_alone(value: str, others: Sequence[str], q: str) -> bool:
    """Whether ``q`` writes ``value`` somewhere outside every longer value of ``others`` that holds it.

    >>> stands_alone("主任医师", ["副主任医师"], "副主任医师或主任医师有几位"), stands_alone("研发", ["研发部"], "研发部有几人")
    (True, False)
    """
    covered: set[int] = set()
    for w in others:
        if value in w and w != value:
            for m in re.finditer(re.escape(w), q):
                covered.update(range(m.start(), m.end()))
    return any(not set(range(m.start(), m.end())) <= covered for m in re.finditer(re.escape(value), q))


def shortened_in(short: str, text: str) -> bool:
    """``text`` writes a word that ``short`` (two Chinese characters) abbreviates the way Chinese shortens a word: the
    same first and last character, one or two characters between (夜班 of 夜间值班, 年假 of 年休假).

    >>> shortened_in("夜班", "夜间值班（元/次）"), shortened_in("年假", "带薪年休假"), shortened_in("年假", "暑假")
    (True, True, False)
    """
    return len(short) == 2 and bool(_CJK_RUN.fullmatch(short)) and \
        re.search(f"{short[0]}[\u4e00-\u9fff]{{1,2}}{short[1]}", text) is not None


def pos_tags(text: str) -> list[tuple[str, str]]:
    """``(word, part-of-speech flag)`` pairs of ``text`` folded to Simplified, by jieba's tagger
    (names ``nr``, places ``ns``, nouns ``n*``)."""
    import jieba.posseg as pseg  # the tagger lives only in Python jieba (the segmenter is rjieba)

    return [(w.word, w.flag) for w in pseg.lcut(fold(text))]


def in_dictionary(word: str) -> bool:
    """jieba's bundled dictionary has ``word`` (folded to Simplified); a run the segmenter's hidden Markov model
    joined on its own ("最高能码多高" → 能码) has no entry.

    >>> in_dictionary("会员"), in_dictionary("能码")
    (True, False)
    """
    import jieba  # the dictionary is Python jieba's (loaded once per process for the tagger as well)

    jieba.dt.check_initialized()
    return bool(jieba.dt.FREQ.get(fold(word)))


NOT_NAMING = frozenset({"v", "vd", "d", "p", "c", "u", "uj", "ul", "ud", "uz", "uv", "ug", "y", "r", "m", "q", "f"})
"""jieba's part-of-speech flags of words that name nothing (verbs, adverbs, prepositions, particles …)."""


def names_nothing(word: str) -> bool:
    """Every part of ``word`` is a verb, an adverb or a function word by jieba's tagger ("属于", "负责")."""
    return all(flag in NOT_NAMING for _w, flag in pos_tags(word))


def nouns(text: str) -> set[str]:
    """The nouns of ``text`` (lower-cased, folded to Simplified like :func:`tokens`), by jieba's
    part-of-speech tags (``n*`` and ``eng``).

    >>> sorted(nouns("出国出差的签证费怎么报销？"))
    ['签证费']
    """
    return {w.lower() for w, flag in pos_tags(unicodedata.normalize("NFKC", text))
            if flag.startswith("n") or flag == "eng"}


def tokens(text: str, *, search: bool = True, keep_stopwords: bool = False) -> list[str]:
    """Lower-cased index tokens. ``search`` adds jieba's finer sub-words for recall.

    Remembered per text (a turn segments the same passages while retrieving, reading and checking;
    ~3 ms of CPU per knowledge turn); forgotten when a user dictionary changes the segmenter."""
    return list(_tokens(text, search, keep_stopwords))


@lru_cache(maxsize=8192)
def _tokens(text: str, search: bool, keep_stopwords: bool) -> tuple[str, ...]:
    jb = _jieba()
    out: list[str] = []
    end = -1
    for m in _TOKEN_SPLIT.finditer(fold(unicodedata.normalize("NFKC", text))):
        piece, after_code, end = m.group(0), m.start() == end, m.end()
        if piece[0] >= "\u3400":  # a CJK run (the other pieces start with a Latin letter, a digit or a sign)
            if after_code and len(piece) > 1 and piece[0] in _KIND_AFTER_CODE:
                out.append(piece[0])  # "B组租5天": the 组 of B组, not jieba's 组租
                piece = piece[1:]
            words = jb.cut_for_search(piece) if search else jb.cut(piece)
            out.extend(words)
        else:
            low = piece.lower()
            out.append(low)
            if len(low) > 3 and _SUBWORD_SEP.search(low):
                out.extend(p for p in _SUBWORD_SEP.split(low) if p and p != low)
    if keep_stopwords:
        return tuple(out)
    return tuple(t for t in out if t not in STOPWORDS)


_KIND_AFTER_CODE = frozenset("组区类座栋档")
"""A character that ends a code it follows ("B组", "C区"): never the start of a word with what comes after it (jieba reads "B组租5天" as 组租)."""


def char_ngrams(text: str, n: int = 2) -> set[str]:
    """CJK character n-grams and lower-cased Latin words: a segmentation-free overlap measure."""
    text = fold(unicodedata.normalize("NFKC", text)).lower()
    grams: set[str] = set()
    for run in _CJK_RUN.findall(text):
        if len(run) < n:
            grams.add(run)
        grams.update(run[i : i + n] for i in range(len(run) - n + 1))
    grams.update(w for w in _LATIN.findall(text) if len(w) > 1 or w.isdigit())
    return grams


@dataclass(frozen=True)
class Sentence:
    text: str
    start: int
    end: int


_SENT_END = re.compile(r"([。！？!?]+[”’」』）)]*|(?<![0-9])(?<!\b[a-zA-Z]\.[a-zA-Z])(?<!\be\.g)(?<!\bi\.e)"
                       r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bProf)(?<!\bLtd)(?<!\bInc)(?<!\bCorp)(?<!\bCo)"
                       r"\.(?=\s|$)[”’)]*|\n+)")
"""A sentence ends at 。！？!? or a full stop before a space — not a decimal point, nor "a.m.", "p.m.",
"e.g." or "i.e." (two letters with a stop between), nor the title before a name (Dr., Mr., Ms., Mrs., Prof.),
nor a company's "Ltd."/"Inc."/"Co."."""


_SOFT_WRAP = re.compile(r"[ \t]*[a-z]")
"""The line after a line break goes on with a lower-case word: the break only wraps the sentence."""
_OPEN_END = re.compile(r"(?:[A-Za-z,]|\b(?:Ltd|Inc|Corp|Co)\.)$")
"""A line that ends inside an English sentence: a word, a comma, a company's abbreviation."""
_WRAP_AFTER_COMMA = re.compile(r"[ \t]*[A-Za-z(]")
"""After a comma the wrapped line may start with a name ("…Abbey (Lindenford),\n Kestrelmoor Lakes…")."""


def split_sentences(text: str, offset: int = 0) -> list[Sentence]:
    """Split Chinese/English text into sentences with character offsets into ``text`` (+offset).

    Decimal points ("0.01mm") and abbreviations inside words are not boundaries, nor is a mark
    inside a title in 《》 ("《卡拉OK.LIVE！‧台北‧我》"), nor the stop of "a.m." or "e.g.".

    >>> [s.text for s in split_sentences("Weekend day (8 a.m. to 6 p.m.) is paid. Next one, e.g. this.")]
    ['Weekend day (8 a.m. to 6 p.m.) is paid.', 'Next one, e.g. this.']
    >>> [s.text for s in split_sentences("The curator is Dr. Anwen Pellow. She joined in 2019.")]
    ['The curator is Dr. Anwen Pellow.', 'She joined in 2019.']
    >>> [s.text for s in split_sentences("- Agents get no member\\n  discount and no points.\\n- Next\\nLine")]
    ['- Agents get no member\\n  discount and no points.', '- Next', 'Line']
    >>> [s.text for s in split_sentences("Kestrel Hotels Ltd.\\nruns two hotels: Harbour,\\nAbbey. Next.")]
    ['Kestrel Hotels Ltd.\\nruns two hotels: Harbour,\\nAbbey.', 'Next.']
    >>> [s.text for s in split_sentences("Cover is limited to\\n£100 per parcel at all depots\\n(Leeds, Hull).\\n## 2. Zones\\n(see map)")]
    ['Cover is limited to\\n£100 per parcel at all depots\\n(Leeds, Hull).', '## 2. Zones', '(see map)']
    """
    out: list[Sentence] = []
    start = 0
    for m in _SENT_END.finditer(text):
        end = m.end()
        if "\n" not in m.group(0) and _inside_title(text, start, m.start()):
            continue
        if m.group(0) == "\n" and _soft_wrap(text[start:m.start()], text, m.end()):
            continue  # a line wrapped inside an English sentence ("…get no member\n  discount and earn no points.")
        _append(out, text, start, end, offset)
        start = end
    _append(out, text, start, len(text), offset)
    return out


_JOINING_END = re.compile(r"(?<![A-Za-z])(?:and|or|of|to|the|a|an|for|with|by|in|on|at|from|than|per|is|are|be)$")
"""A line ending on a word that needs the next one ("…limited to\n£100 per parcel", "…Abbey and\nKestrelmoor Lakes")."""
_AFTER_JOINING = re.compile(r"[ \t]*[A-Za-z0-9(£$€]")
_BRACKET_OR_AMOUNT = re.compile(r"[ \t]*(?:\(|[£$€]\d)")
"""After a word, a wrapped line may open with a bracket or an amount ("…at all four depots\n(Wakefield, …)")."""


def _soft_wrap(before: str, text: str, after: int) -> bool:
    """The line break at ``after`` only wraps an English sentence: after a comma (_WRAP_AFTER_COMMA), after a word
    that needs the next (_JOINING_END), before a lower-case word (_OPEN_END, _SOFT_WRAP), or between a word and a
    bracket or an amount — but not after a heading."""
    tail = before.rstrip(" \t")
    if tail.endswith(","):
        return bool(_WRAP_AFTER_COMMA.match(text, after))
    if _JOINING_END.search(tail):
        return bool(_AFTER_JOINING.match(text, after))
    if _OPEN_END.search(before) and _SOFT_WRAP.match(text, after):
        return True
    return bool(re.search(r"[a-z]{2}$", tail) and not tail.lstrip().startswith("#") and _BRACKET_OR_AMOUNT.match(text, after))


def _inside_title(text: str, start: int, pos: int) -> bool:
    """``pos`` lies in an open 《 that closes soon after (a book or song title, not a stray mark)."""
    opened = text.rfind("《", start, pos)
    if opened < 0 or text.rfind("》", opened, pos) >= 0:
        return False
    close = text.find("》", pos, pos + 40)
    return close >= 0 and "\n" not in text[pos:close]


def _append(out: list[Sentence], text: str, start: int, end: int, offset: int) -> None:
    seg = text[start:end]
    stripped = seg.strip()
    if not stripped or not re.search(r"\w", stripped):
        return
    lead = len(seg) - len(seg.lstrip())
    s = start + lead
    e = s + len(stripped)
    out.append(Sentence(text[s:e], s + offset, e + offset))


def iter_numbers(text: str) -> Iterator[str]:
    """Numbers with their unit/sign as written, normalised ("±0.01mm", "30天", "1,200")."""
    for m in re.finditer(r"[±+\-]?\d[\d,]*(?:\.\d+)?\s*(?:%|mm|cm|m|kg|g|元|天|小时|分钟|年|月|日|个|人|次|号|℃|°C)?",
                         unicodedata.normalize("NFKC", text)):
        yield m.group(0).replace(",", "").replace(" ", "")


_ASKS = re.compile(r"[?？]\s*$|吗|呢|多少|几|什么|哪|谁|怎么|如何|是否|能不能|可不可以|有没有|"
                   r"^\s*(?:what|how|when|where|which|who|whom|whose|why|can|could|do|does|did|is|are|was|were|will|would|"
                   r"should|may|shall|have|has)\b", re.I)


_PLACED = r"(?:去|到|赴|飞|往|来自|前往|飞往)"
"""Words that put the asker somewhere ("下周要去新加坡出差"): the place after them is a condition of the question,
never the asker's story alone."""


def story_word(term: str, told: str, asked: str) -> bool:
    """``term`` is only the asker's story (:func:`told_and_asked`): in a told part, not in an asking one, and not
    the place the story goes to ("去新加坡出差", "flying to Seoul" — a place the answer must be about).

    >>> story_word("师傅", "家里下水道堵死了，叫物业师傅来通一下，", "人工费多少钱？")
    True
    >>> story_word("新加坡", "我下周要去新加坡出差，", "p6职级的住宿标准每晚是多少？")
    False
    """
    t = term.lower()
    return t in told and t not in asked and not re.search(_PLACED + re.escape(t), told) \
        and not re.search(rf"\b(?:to|in|at)\s+{re.escape(t)}\b", told)


_ASKERS_STORY = re.compile(r"我|咱|俺|家里|家人|孩子|儿子|女儿|朋友|同事|老人|老婆|老公|爸|妈|哥|姐|弟|妹")
"""Words that make a clause the asker's own story: the asker or the asker's people."""


def told_and_asked(question: str) -> tuple[str, str] | None:
    """The sentences of a message of several that ask nothing ("… we'll be driving up from london") and those
    that ask, each folded and lower-cased; None when the message is one sentence or none of them asks (then
    every word counts).

    >>> told_and_asked("What time can we check in? We'll be driving up from London.")
    ("we'll be driving up from london.", 'what time can we check in?')
    >>> told_and_asked("零件A的公差是多少？"), told_and_asked("我要退款。谢谢。")
    (None, None)
    >>> told_and_asked("家里下水道堵死了，叫物业师傅来通一下，人工费多少钱？")
    ('家里下水道堵死了， 叫物业师傅来通一下，', '人工费多少钱？')
    >>> told_and_asked("员工食堂的午餐，几点开始供应？"), told_and_asked("某地寺庙发生踩踏事故，死亡人数是多少？")
    (None, None)
    """
    sentences = [x.text for x in split_sentences(question.strip())]
    clauses = False
    if len(sentences) < 2 and re.search(r"[\u4e00-\u9fff]", question):
        # a Chinese message tells its story in clauses before the asking one ("家里下水道堵死了，…，人工费多少钱？")
        sentences = [c for c in re.split(r"(?<=[，,；;])", question.strip()) if c.strip()]
        clauses = True
    if len(sentences) < 2:
        return None
    # clauses tell a story when one of them is the asker's (我, 家里, 朋友 …), and a clause tells when it does something
    # (a verb, a 了): "江畔花园小高层的物业费，一平米多少钱？" and "某地寺庙发生踩踏事故，死亡人数是多少？" put their topic first
    told = [x for x in sentences if not _ASKS.search(x)
            and (not clauses or any(f.startswith("v") or w == "了" for w, f in pos_tags(x)))]
    if clauses and not any(_ASKERS_STORY.search(x) for x in told):
        return None
    if not told or len(told) == len(sentences):
        return None
    return fold(" ".join(told)).lower(), fold(" ".join(x for x in sentences if x not in told)).lower()
