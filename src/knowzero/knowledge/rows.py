"""Markdown table rows read as sentences ("| 主要外径 | Φ20mm |" → "主要外径：Φ20mm"), for readers and documents (pure)."""

from __future__ import annotations

import re

_ROW = re.compile(r"^\s*\|(.+)\|\s*$")
_RULE = re.compile(r"^[\s|:\-]+$")


def table_cells(line: str) -> list[str] | None:
    m = _ROW.match(line)
    if not m or _RULE.match(line):
        return None
    return [c.strip() for c in m.group(1).split("|")]


def row_cells(row: str) -> list[str]:
    """The cells of a Markdown row, or the values of a row sentence ("label: value；label: value").

    >>> row_cells("| 满5年不满10年 | 15天 |"), row_cells("Chargeable weight: 5.01 – 10 kg；Zone B: £8.70")
    (['满5年不满10年', '15天'], ['5.01 – 10 kg', '£8.70'])
    """
    return table_cells(row) or [value for _label, value in row_fields(row)]


def row_fields(row: str) -> list[tuple[str, str]]:
    """(label, value) of each part of a row sentence ("label: value；label: value"); a part without a label has "".

    >>> row_fields("工号: QH03；姓名: 郭大鹏；岗位: 私人教练。")
    [('工号', 'QH03'), ('姓名', '郭大鹏'), ('岗位', '私人教练。')]
    """
    return [(re.split(r"[:：]", c, maxsplit=1)[0].strip() if re.search(r"[:：]", c) else "",
             c.split(":", 1)[-1].split("：", 1)[-1].strip()) for c in re.split(r"[；;]", row) if c.strip()]


_ROW_DONE = re.compile(r"[。！？.!?]$")


def row_sentence(text: str) -> str:
    """Markdown table rows as sentences of their cells; other lines unchanged.

    >>> row_sentence("| 主要外径 | Φ20mm，公差±0.01mm |")
    '主要外径：Φ20mm，公差±0.01mm'
    """
    lines = text.splitlines()
    out: list[str] = []
    header: list[str] = []
    for i, line in enumerate(lines):
        if _RULE.match(line) and "|" in line:
            continue
        cells = table_cells(line)
        if cells is None:
            out.append(line)
            header = []
            continue
        if i + 1 < len(lines) and _RULE.match(lines[i + 1]) and "|" in lines[i + 1]:
            header = cells  # a header row ("| 职级 | 一类城市 | …") names the cells of the rows below
            continue
        if not any(cells):
            continue
        if len(cells) > 2 and len(header) == len(cells):
            # "普通员工：一类城市 500，二类城市 380，三类城市 280" (every value keeps its column's name,
            # and no two numbers touch: "500，380" would read as one number)
            out.append(cells[0] + "：" + "，".join(f"{h} {v}".strip() for h, v in zip(header[1:], cells[1:], strict=True) if v))
            continue
        vals = [c for c in cells[1:] if c]
        out.append(cells[0] + ("：" + "；".join(vals) if vals else ""))
    joined: list[str] = []
    for line in out:
        if joined and _ROW_DONE.search(joined[-1]) is None and line and not line.startswith(("#", "-", "*")) \
                and "：" in line and "：" in joined[-1]:
            joined[-1] += "；" + line  # rows of one table read as one sentence
        else:
            joined.append(line)
    return "\n".join(joined).strip()

