#!/usr/bin/env python3
"""Compare two eval output directories written by COMMANDS.sh (e.g. /tmp/baseline and /tmp/after).

    python3 compare.py BASE_DIR OTHER_DIR [--tol 0] [--show 5] [--timing] [--only NAME ...]

For every <name>.json present in either directory: every figure, flattened to a dotted path, must be equal
(numbers within --tol, default exact).  For every <name>.rows.jsonl: the rows are paired (by position when both
files list the same questions in the same order, else by question identity) and every field of every row
must be equal — reply, verdict/level, answered/contains/cited, coverage, features, citations …  Timing and
resource fields (ms, *_ms, *_s, p50/p95, elapsed, latency, wall, rss …) are NOT differences: they are listed
separately with --timing.  The worktree path and the output directory of each run (from RUN_INFO.txt) are
replaced by placeholders before comparing strings.  Exit code 0 when nothing differs, 1 otherwise.
"""
from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

TIMING = re.compile(r"(^|_)(ms|s|sec|secs|seconds|mb|rss)(_|$)|p50|p90|p95|p99|elapsed|latency|wall|duration|"
                    r"per_second|throughput|qps|cpu_time|memory", re.I)
# fields of a row that say who the row is (used to pair rows when positions differ)
IDENTITY = ("mode", "id", "org", "rule", "kind", "ordinary", "question", "value", "swapped", "true", "fake")
# fields worth naming first in the report
HEADLINE = ("reply", "verdict", "level", "answered", "contains", "cited_gold", "top", "grade", "accepted",
            "rejected", "named", "flagged", "both_values", "both_sources", "answers", "citations", "cited")


def run_info(d: Path) -> dict[str, str]:
    info = {}
    p = d / "RUN_INFO.txt"
    if p.exists():
        for line in p.read_text().splitlines():
            if "=" in line:
                k, v = line.split("=", 1)
                info[k.strip()] = v.strip()
    return info


class Normaliser:
    def __init__(self, d: Path) -> None:
        info = run_info(d)
        subs = []
        for key, ph in (("out", "<OUT>"), ("worktree", "<WT>")):
            if info.get(key):
                subs.append((info[key].rstrip("/"), ph))
        subs.append((str(d.resolve()).rstrip("/"), "<OUT>"))
        self.subs = sorted(set(subs), key=lambda s: -len(s[0]))

    def __call__(self, v: Any) -> Any:
        if isinstance(v, str):
            for a, b in self.subs:
                if a and a in v:
                    v = v.replace(a, b)
            return v
        if isinstance(v, list):
            return [self(x) for x in v]
        if isinstance(v, dict):
            return {k: self(x) for k, x in v.items()}
        return v


def is_timing(path: str) -> bool:
    return any(TIMING.search(part) for part in path.split(".") if not part.isdigit())


def flatten(v: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(v, dict):
        if not v:
            out[prefix] = {}
        for k, x in v.items():
            out.update(flatten(x, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(v, list) and v and any(isinstance(x, (dict, list)) for x in v):
        for i, x in enumerate(v):
            out.update(flatten(x, f"{prefix}.{i}"))
        out[f"{prefix}.#len"] = len(v)
    else:
        out[prefix] = v
    return out


def equal(a: Any, b: Any, tol: float) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b or a == b and type(a) is type(b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
            return True
        return a == b or abs(a - b) <= tol
    return a == b


def short(v: Any, n: int = 160) -> str:
    s = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else repr(v)
    return s if len(s) <= n else s[: n - 1] + "…"


def pair_excerpt(a: Any, b: Any, n: int = 160) -> tuple[str, str]:
    """Both values shortened; two long strings are shown from a little before their first difference."""
    if isinstance(a, str) and isinstance(b, str) and max(len(a), len(b)) > n - 2:
        p = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        start = max(0, p - 40)
        cut = lambda s: ("…" if start else "") + repr(s[start:start + n])[1:-1] + ("…" if len(s) > start + n else "")
        return f"[from char {start}] {cut(a)}", f"[from char {start}] {cut(b)}"
    return short(a, n), short(b, n)


def load_json(p: Path, norm: Normaliser) -> tuple[Any, str | None]:
    if not p.exists():
        return None, "missing"
    text = p.read_text(encoding="utf-8").strip()
    if not text:
        return None, "empty (the command printed nothing on stdout: see logs/)"
    try:
        return norm(json.loads(text)), None
    except json.JSONDecodeError as e:
        return None, f"last stdout line is not JSON ({e}): {text[:120]!r}"


def compare_figures(name: str, a: Any, b: Any, tol: float, timing: list[str], out: list[str]) -> int:
    fa, fb = flatten(a), flatten(b)
    n = 0
    for k in sorted(set(fa) | set(fb)):
        va, vb = fa.get(k, "<absent>"), fb.get(k, "<absent>")
        if is_timing(k):
            if va != vb:
                timing.append(f"  {name}: {k}: {short(va, 40)} -> {short(vb, 40)}")
            continue
        if not equal(va, vb, tol):
            n += 1
            sa, sb = pair_excerpt(va, vb)
            out.append(f"  {name}: {k}: {sa} -> {sb}")
    return n


def row_key(r: dict[str, Any]) -> tuple:
    return tuple((f, json.dumps(r.get(f), ensure_ascii=False, sort_keys=True)) for f in IDENTITY if f in r)


def pair_rows(ra: list[dict], rb: list[dict]) -> tuple[list[tuple[int, dict, dict]], list, list, str]:
    ka, kb = [row_key(r) for r in ra], [row_key(r) for r in rb]
    if ka == kb:
        return [(i, x, y) for i, (x, y) in enumerate(zip(ra, rb))], [], [], "by position"
    # by identity, the k-th occurrence of a key with the k-th
    where: dict[tuple, list[int]] = defaultdict(list)
    for j, k in enumerate(kb):
        where[k].append(j)
    used: set[int] = set()
    pairs, only_a = [], []
    for i, k in enumerate(ka):
        if where[k]:
            j = where[k].pop(0)
            used.add(j)
            pairs.append((i, ra[i], rb[j]))
        else:
            only_a.append((i, ra[i]))
    only_b = [(j, rb[j]) for j in range(len(rb)) if j not in used]
    how = "by question identity (order or set of questions differs)"
    if not only_a and not only_b:
        how = "by question identity (same questions, different order)"
    return pairs, only_a, only_b, how


def read_rows(p: Path, norm: Normaliser) -> list[dict]:
    rows = []
    for line in p.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows.append(norm(json.loads(line)))
    return rows


def label(r: dict) -> str:
    bits = [f"{f}={r[f]}" for f in ("mode", "id", "rule", "kind") if f in r and r[f] not in (None, "")]
    if r.get("ordinary"):
        bits.append("ordinary")
    q = r.get("question")
    return (" ".join(bits) + " " if bits else "") + (short(q, 70) if q is not None else "")


def compare_rows(name: str, pa: Path, pb: Path, tol: float, show: int, timing: list[str], out: list[str]) -> int:
    na, nb = Normaliser(pa.parent), Normaliser(pb.parent)
    ra, rb = read_rows(pa, na), read_rows(pb, nb)
    pairs, only_a, only_b, how = pair_rows(ra, rb)
    field_counts: Counter = Counter()
    examples: list[str] = []
    differing = 0
    tdiff = 0
    for i, x, y in pairs:
        fx, fy = flatten(x), flatten(y)
        bad = []
        for k in sorted(set(fx) | set(fy)):
            vx, vy = fx.get(k, "<absent>"), fy.get(k, "<absent>")
            if is_timing(k):
                tdiff += vx != vy
                continue
            if not equal(vx, vy, tol):
                bad.append((k, vx, vy))
        if bad:
            differing += 1
            top = sorted({k.split(".")[0] for k, _, _ in bad})
            field_counts.update(top)
            if len(examples) < show:
                head = sorted(bad, key=lambda t: (t[0].split(".")[0] not in HEADLINE, t[0]))
                lines = [f"    row {i}: {label(x)}"]
                for k, vx, vy in head[:6]:
                    sx, sy = pair_excerpt(vx, vy)
                    lines.append(f"      {k}: {sx}\n      {' ' * len(k)}  -> {sy}")
                if len(head) > 6:
                    lines.append(f"      … and {len(head) - 6} more fields")
                examples.append("\n".join(lines))
    if tdiff:
        timing.append(f"  {name}.rows: {tdiff} timing values differ (not counted)")
    n = differing + len(only_a) + len(only_b)
    status = "IDENTICAL" if n == 0 else "DIFFERENT"
    out.append(f"  {name}.rows: {status}: {len(ra)} vs {len(rb)} rows, paired {how}: {len(pairs)} paired, "
               f"{differing} differ, {len(only_a)} only in first, {len(only_b)} only in second")
    if field_counts:
        out.append("    rows differing per field: " + ", ".join(f"{k} {v}" for k, v in field_counts.most_common()))
        out.extend(examples)
    for tag, lst in (("only in first", only_a), ("only in second", only_b)):
        for i, r in lst[:show]:
            out.append(f"    {tag}: row {i}: {label(r)}")
    return n


def exit_codes(d: Path) -> dict[str, str]:
    p = d / "times.tsv"
    rc = {}
    if p.exists():
        for line in p.read_text().splitlines()[1:]:
            parts = line.split("\t")
            if len(parts) >= 3:
                rc[parts[0]] = (parts[1], parts[2])
    return rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=Path)
    ap.add_argument("second", type=Path)
    ap.add_argument("--tol", type=float, default=0.0, help="absolute tolerance for numbers (default: exact)")
    ap.add_argument("--show", type=int, default=5, help="example rows shown per file")
    ap.add_argument("--timing", action="store_true", help="also list timing/resource fields that changed")
    ap.add_argument("--only", nargs="*", help="command names to compare")
    args = ap.parse_args()
    A, B = args.first, args.second
    na, nb = Normaliser(A), Normaliser(B)
    names = sorted({p.name[: -len(".json")] for d in (A, B) for p in d.glob("*.json")}
                   | {p.name[: -len(".rows.jsonl")] for d in (A, B) for p in d.glob("*.rows.jsonl")})
    if args.only:
        names = [n for n in names if n in args.only]
    ia, ib = run_info(A), run_info(B)
    print(f"first : {A}  commit {ia.get('commit', '?')[:10]}  worktree {ia.get('worktree', '?')}")
    print(f"second: {B}  commit {ib.get('commit', '?')[:10]}  worktree {ib.get('worktree', '?')}")
    rca, rcb = exit_codes(A), exit_codes(B)
    total = 0
    timing: list[str] = []
    summary = []
    for name in names:
        out: list[str] = []
        n = 0
        if name in rca or name in rcb:
            (ra, wa), (rb, wb) = rca.get(name, ("?", "?")), rcb.get(name, ("?", "?"))
            if ra != rb:
                n += 1
                out.append(f"  {name}: exit code {ra} -> {rb}")
            timing.append(f"  {name}: wall {wa} s -> {wb} s")
        ja, ea = load_json(A / f"{name}.json", na)
        jb, eb = load_json(B / f"{name}.json", nb)
        if ea or eb:
            if (ea or "") != (eb or ""):
                n += 1
                out.append(f"  {name}.json: first: {ea or 'ok'}; second: {eb or 'ok'}")
            elif ea:
                out.append(f"  {name}.json: {ea} in both (not compared)")
        else:
            n += compare_figures(name, ja, jb, args.tol, timing, out)
        pa, pb = A / f"{name}.rows.jsonl", B / f"{name}.rows.jsonl"
        if pa.exists() and pb.exists():
            n += compare_rows(name, pa, pb, args.tol, args.show, timing, out)
        elif pa.exists() or pb.exists():
            n += 1
            out.append(f"  {name}.rows.jsonl: only in {'first' if pa.exists() else 'second'}")
        total += n
        summary.append((name, n))
        print(f"\n== {name}: {'same' if n == 0 else f'{n} difference(s)'}")
        for line in out:
            print(line)
    print("\n== summary")
    for name, n in summary:
        print(f"  {'OK  ' if n == 0 else 'DIFF'} {name}" + (f" ({n})" if n else ""))
    if args.timing:
        print("\n== timing / resource fields (not differences)")
        for line in timing:
            print(line)
    print(f"\n{'NO DIFFERENCES' if total == 0 else f'{total} DIFFERENCE(S)'} (timing fields ignored"
          f"{'' if args.tol == 0 else f', numbers within {args.tol}'})")
    return 0 if total == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
