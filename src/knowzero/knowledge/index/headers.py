"""What a table's header says: the unit it states ("住宿上限（元/晚）", "hours_per_week", "price_gbp"), its base name
without the unit, and, for an English yes/no column ("on_call", "cd_signatory"), the words of a question that name it.
Pure functions over header text (and the question's), shared by the cell look-up and the computed answers."""

from __future__ import annotations

import re

from knowzero.knowledge.index.sqlindex import TableInfo, normal_key
from knowzero.knowledge.ingest.csvtable import TableColumn

_UNIT_IN_LABEL = re.compile(r"[（(]([^）)]{1,6})[）)]\s*$|_([^_]{1,6})$")
_MEASURE = re.compile(r"^(?:元|\$|usd|小时|分钟|工作日|天|周|年|个月|%|公里|km|倍|(?:working |business |calendar )?days?|"
                      r"hours?|minutes?|min\b|weeks?)", re.I)
"""A header's note that is a unit (not "Stipend (DVM)")."""
_UNIT_IN_LABEL_EN = re.compile(r"\(([a-z][a-z ]{1,30}?(?:\s+per\s+[a-z]+)?)\)\s*$", re.I)
"""An English header's unit in brackets ("Annual leave (working days per year)")."""
_PER = re.compile(r"\s+per\s+[a-z]+$|/.*$", re.I)
"""What a unit is counted per ("… per year", "元/晚"): not part of the value's unit."""
_BARE_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def label_unit(label: str) -> str:
    """The unit a header gives in brackets or after an underscore ("住宿上限（元/晚）" → 元/晚, "Amount (USD)" → USD)."""
    unit = _UNIT_IN_LABEL.search(label) or _UNIT_IN_LABEL_EN.search(label)
    return ((unit.group(1) or unit.group(2)) if unit else "").strip()


def with_unit(value: str, label: str) -> str:
    """A bare number with its header's unit: "550元/晚" under "住宿上限（元/晚）", "$90" under "Per diem (USD per day)",
    "18 working days" under "Annual leave (working days per year)"; any other value as it is."""
    u = label_unit(label)
    u = _PER.sub("", u).strip() if u.isascii() else u  # "(working days per year)" → working days
    if not (u and _BARE_NUMBER.fullmatch(value) and _MEASURE.search(u)):
        return value
    if u.lower() in ("usd", "$"):
        return f"${value}"
    return f"{value} {u}" if u[0].isalpha() and u.isascii() else f"{value}{'个' if u == '工作日' else ''}{u}"


def is_number(value: str) -> bool:
    """A cell that is a bare number ("190", "-2.5"), as a rule may scale it."""
    return bool(_BARE_NUMBER.fullmatch(value.strip()))


def label_base(label: str) -> str:
    """A header without its unit or note ("校内机时费_元每小时" → 校内机时费, "面积(㎡)" → 面积), normalised."""
    return re.split(r"[_(（]", normal_key(label))[0]


def label_and_unit(label: str) -> tuple[str, str]:
    """A header and the unit it states in brackets: "面积(㎡)" → ("面积", "㎡"), so a total reads "面积合计 555㎡".

    >>> label_and_unit("面积(㎡)"), label_and_unit("单价_元")
    (('面积', '㎡'), ('单价_元', ''))
    """
    m = re.fullmatch(r"(.+?)\s*[（(]([^（）()]{1,6})[）)]", label)
    return (m.group(1), m.group(2)) if m and not re.search(r"\d", m.group(2)) else (label, "")


_CURRENCY_CODES = {"usd": "$", "gbp": "£", "eur": "€", "cny": "¥", "rmb": "¥"}
_UNIT_WORDS = frozenset("kg g km m cm mm ml l min mins minutes hours hrs days weeks months years nights sessions".split())


def english_valued(label: str, shown: str) -> str:
    """An English header's value with the unit the header states ("hours_per_week" 32.5 → "32.5 hours per week",
    "price_gbp" 62 → "£62", "weight_kg" 12 → "12 kg"); the value alone when it states none.

    >>> [english_valued(h, "32.5") for h in ("hours_per_week", "purchase_price_gbp", "boat_loa_m", "fte", "Price (USD)")]
    ['32.5 hours per week', '£32.5', '32.5 m', '32.5', '$32.5']
    """
    words = re.findall(r"[a-z]+", normal_key(label))
    if not words or not label.isascii():
        return shown
    if words[-1] in _CURRENCY_CODES:
        return f"{_CURRENCY_CODES[words[-1]]}{shown}"
    if "per" in words and (at := words.index("per")) >= 1 and words[at - 1] in _UNIT_WORDS and at + 1 < len(words):
        return f"{shown} {words[at - 1]} per {' '.join(words[at + 1:])}"
    return f"{shown} {words[-1]}" if words[-1] in _UNIT_WORDS and len(words) > 1 else shown


NAME_LABEL = re.compile(r"^(?:姓名|名称|name|[a-z ]*[_ ]name|[\u4e00-\u9fff]{1,4}名称)$", re.I)
"""A column that names its row's person or thing ("姓名", "name", "full_name", "课程名称")."""

NOT_WORDS = frozenset({"not", "no", "non", "without", "never", "t", "cannot", "nobody", "none"})
"""English words that negate the flag named after them ("not on call", "aren't", "without a licence")."""


def english_flag(label: str, q: str) -> tuple[list[str], bool] | None:
    """The words of ``q`` that name the English yes/no column ``label``, and whether they are negated; None when
    ``q`` does not name it. Every word of the header must be matched, near each other and in any order: as written,
    by a shared beginning of four letters or more, or the whole shorter word ("sign" of signatory, "aid" of
    first_aider, "licensed" of licence), or as the initials of written words ("cd" of "controlled drugs"); a word of
    three letters or fewer right before or after its neighbour, as in the header; a hyphen after one letter is
    dropped ("x-ray" is xray).

    >>> english_flag("cd_signatory", "how many staff can sign the controlled drugs register?")
    (['sign', 'controlled', 'drugs'], False)
    >>> english_flag("on_call", "how many vets are not on call?"), english_flag("xray_trained", "who is x-ray trained")
    ((['on', 'call'], True), (['x', 'ray', 'trained'], False))
    >>> english_flag("on_call", "how much is a call-out on sunday?") is None
    True
    """
    words = re.findall(r"[a-z]+|\d+", normal_key(label))
    if not words or not label.isascii():
        return None
    written = re.findall(r"\b[a-z]-[a-z]+|[a-z]+|\d+", q)  # "x-ray" one word, compared as xray
    said = [x.replace("-", "") for x in written]
    at: list[int] = []
    for n, w in enumerate(words):
        hits = [i for i, x in enumerate(said) if x == w or (min(len(x), len(w)) >= 3 and x[:4] == w[:4] and
                                                            (x.startswith(w) or w.startswith(x) or len(_prefix(x, w)) >= 5))]
        if not hits and 2 <= len(w) <= 3 and w.isalpha():  # an initialism: "cd" of "controlled drugs"
            hits = [i for i in range(len(said) - len(w) + 1) if "".join(x[0] for x in said[i:i + len(w)]) == w
                    and all(len(x) >= 3 for x in said[i:i + len(w)])]
            at.extend(range(hits[0], hits[0] + len(w)) if hits else [])
        elif hits:
            at.append(min(hits, key=lambda i: min((abs(i - j) for j in at), default=0)))
        if not hits:
            return None
        if n and len(at) == n + 1 and min(len(w), len(words[n - 1])) <= 3 and at[n] != at[n - 1] + 1:
            return None  # a short word of the header stands in its place ("on call", not "call … on")
    if max(at) - min(at) > len(at) + 2:
        return None  # words far apart name other things ("on the plan … call")
    first = min(at)
    return [p for i in sorted(set(at)) for p in written[i].split("-")], \
        any(x in NOT_WORDS for x in said[max(0, first - 3):first])


def _prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]


START_LABEL = re.compile(r"start|hire|join|since|入职|参加工作|到岗|聘用", re.I)


def start_column(t: TableInfo) -> TableColumn | None:
    """The one column of start dates or years ("start_date", "入职日期", "holder_since") a tenure question ranks by."""
    found = [c for c in t.columns if c.type in ("TEXT", "INTEGER") and START_LABEL.search(c.label)]
    return found[0] if len(found) == 1 else None


DATE_LABEL = re.compile(r"年份|日期|年度|时间|date|year|since|joined|acquired", re.I)


def date_column(t: TableInfo, q: str) -> TableColumn | None:
    """The column of dates or years a superlative in time ranks by: the only one, or the one whose header shares a
    word with the question; None when the question does not tell several apart."""
    found = [c for c in t.columns if c.type in ("TEXT", "INTEGER") and DATE_LABEL.search(c.label)]
    if len(found) > 1:
        found = [c for c in found if any(w in q for w in re.findall(r"[a-z]{4,}", c.label.lower()) if w not in ("year", "date"))
                 or any(ch in q for ch in re.sub(r"年份|日期|年度|时间", "", c.label) if "\u4e00" <= ch <= "\u9fff")]
    return found[0] if len(found) == 1 else None


def named_at(subject: str, q: str) -> int:
    """Where the question names a yes/no column's subject: the whole of it, or its last two characters or more —
    the head of a Chinese compound ("可以送车上门的员工" names 准驾送车 by 送车) — else -1.

    >>> named_at("准驾送车", "可以送车上门的员工有几个"), named_at("准驾送车", "员工有几个"), named_at("带教", "负责带教的")
    (2, -1, 2)
    """
    for n in range(len(subject), 1, -1):
        if (at := q.find(subject[-n:])) >= 0:
            return at
    return -1
