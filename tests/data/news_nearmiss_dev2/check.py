#!/usr/bin/env python3
"""Consistency check for the news_nearmiss_dev2 evaluation set (standard library only).

Usage: python3 check.py [folder]   (defaults to the folder holding this file)
Exit status 0 when every check passes, 1 otherwise.
"""
import json
import os
import re
import sys
import unicodedata
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = ["id", "org", "question", "kind", "answers", "decline", "split",
          "must_not", "cross_language", "nearmiss_types"]


def norm(s):
    """NFKC (full/half width folding), drop all whitespace, casefold."""
    s = unicodedata.normalize("NFKC", s)
    return re.sub(r"\s+", "", s).casefold()


def hits(text, values):
    t = norm(text)
    return [v for v in values if norm(v) and norm(v) in t]


def body_len(text):
    return len(re.sub(r"[\s#]", "", text))


def load_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main(root):
    errors, notes = [], []
    rows = load_jsonl(os.path.join(root, "questions.jsonl"))
    by_id = {r["id"]: r for r in rows}
    if len(by_id) != len(rows):
        errors.append("duplicate ids in questions.jsonl")
    for r in rows:
        if list(r.keys()) != FIELDS:
            errors.append(f"{r.get('id')}: fields are {list(r.keys())}, want {FIELDS}")
    # side files
    for side in ("pos", "neg"):
        p = os.path.join(root, side, "questions.jsonl")
        if not os.path.exists(p):
            errors.append(f"{side}/questions.jsonl missing")
            continue
        want = [r for r in rows if r["id"].endswith("-" + side)]
        if load_jsonl(p) != want:
            errors.append(f"{side}/questions.jsonl differs from the top-level {side} lines")

    manifest = {}
    for m in load_jsonl(os.path.join(root, "articles.jsonl")):
        if set(m) != {"path", "role", "type"}:
            errors.append(f"articles.jsonl: bad fields {sorted(m)}")
        if m["role"] not in ("answer", "near_miss"):
            errors.append(f"{m['path']}: bad role {m['role']}")
        if (m["role"] == "answer") != (m["type"] is None):
            errors.append(f"{m['path']}: role/type mismatch")
        if m["role"] == "near_miss" and m["type"] not in range(1, 7):
            errors.append(f"{m['path']}: bad type {m['type']}")
        manifest[m["path"]] = m

    qids = sorted({r["id"].rsplit("-", 1)[0] for r in rows})
    type_q, type_neg, type_pos = Counter(), Counter(), Counter()
    Counter()
    seen = set()
    n_files = 0
    for q in qids:
        pos, neg = by_id.get(q + "-pos"), by_id.get(q + "-neg")
        if not pos or not neg:
            errors.append(f"{q}: missing pos or neg line")
            continue
        for r, decline, kind in ((pos, False, "fact"), (neg, True, "near_miss")):
            if r.get("decline") is not decline or r.get("kind") != kind:
                errors.append(f"{r['id']}: decline/kind wrong")
            if r.get("split") != "dev" or r.get("org") != r.get("id") or r.get("cross_language") is not False:
                errors.append(f"{r['id']}: split/org/cross_language wrong")
        if pos["question"] != neg["question"]:
            errors.append(f"{q}: pos and neg questions differ")
        if pos["nearmiss_types"] != neg["nearmiss_types"]:
            errors.append(f"{q}: nearmiss_types differ")
        if neg["answers"]:
            errors.append(f"{q}-neg: answers should be empty")
        answers = pos["answers"]
        if not answers:
            errors.append(f"{q}-pos: no answers")
            continue
        for r in (pos, neg):
            for m in r["must_not"]:
                if hits(m, answers):
                    errors.append(f"{r['id']}: must_not value {m!r} contains an answer")
        texts = {}
        for side in ("pos", "neg"):
            folder = os.path.join(root, side, f"{q}-{side}")
            if not os.path.isdir(folder):
                errors.append(f"{q}-{side}: folder missing")
                continue
            names = sorted(os.listdir(folder))
            files = [f for f in names if f.endswith(".md")]
            if files != [f"0{i}.md" for i in range(1, 6)]:
                errors.append(f"{q}-{side}: files {names} (want 01.md … 05.md only)")
            with_answer = []
            for fn in files:
                n_files += 1
                rel = f"{side}/{q}-{side}/{fn}"
                seen.add(rel)
                text = open(os.path.join(folder, fn), encoding="utf-8").read()
                texts[rel] = text
                n = body_len(text)
                if not 150 <= n <= 700:
                    errors.append(f"{rel}: {n} characters (want 150-700)")
                h = hits(text, answers)
                if h:
                    with_answer.append(fn)
                m = manifest.get(rel)
                if m is None:
                    errors.append(f"{rel}: not in articles.jsonl")
                    continue
                if side == "neg" and (h or m["role"] != "near_miss"):
                    errors.append(f"{rel}: neg file contains answer {h} or is not a near miss")
                if m["role"] == "near_miss" and h:
                    errors.append(f"{rel}: near-miss article contains answer {h}")
                if m["role"] == "answer" and not h:
                    errors.append(f"{rel}: answer article lacks the answer")
            if side == "pos":
                kinds_here = Counter(manifest.get(f"pos/{q}-pos/{f}", {}).get("role") for f in files)
                if kinds_here["answer"] != 3 or kinds_here["near_miss"] != 2:
                    errors.append(f"{q}-pos: want 3 answer + 2 near-miss files, got {dict(kinds_here)}")
                if len(with_answer) < 3:
                    errors.append(f"{q}-pos: only {len(with_answer)} files contain an answer (want >= 3)")
                if with_answer == files[:3]:
                    notes.append(f"{q}-pos: answering files are the first three")
        # pos distractors are exact copies of neg files, with the same type
        neg_texts = {t: p for p, t in texts.items() if p.startswith("neg/")}
        for p, t in texts.items():
            if p.startswith("pos/") and manifest.get(p, {}).get("role") == "near_miss":
                src = neg_texts.get(t)
                if src is None:
                    errors.append(f"{p}: distractor is not an exact copy of a neg article")
                else:
                    if manifest[src]["type"] != manifest[p]["type"]:
                        errors.append(f"{p}: type differs from its neg source {src}")
                    type_pos[manifest[p]["type"]] += 1
        neg_types = sorted({manifest[p]["type"] for p in texts if p.startswith("neg/") and p in manifest})
        for p in texts:
            if p.startswith("neg/") and p in manifest:
                type_neg[manifest[p]["type"]] += 1
        if neg_types != sorted(pos["nearmiss_types"]):
            errors.append(f"{q}: nearmiss_types {pos['nearmiss_types']} != neg article types {neg_types}")
        if len(neg_types) < 3:
            errors.append(f"{q}-neg: uses only {len(neg_types)} near-miss types (want >= 3)")
        for t in neg_types:
            type_q[t] += 1
    for p in manifest:
        if p not in seen:
            errors.append(f"articles.jsonl lists a missing file {p}")
    for t in range(1, 7):
        if type_q[t] < 4:
            errors.append(f"near-miss type {t} used by only {type_q[t]} questions (want >= 4)")

    print(f"questions: {len(qids)}  jsonl lines: {len(rows)}  article files: {n_files}")
    print("questions using each near-miss type:", ", ".join(f"{t}:{type_q[t]}" for t in range(1, 7)))
    print("neg-folder articles per type:       ", ", ".join(f"{t}:{type_neg[t]}" for t in range(1, 7)))
    print("pos distractors per type:           ", ", ".join(f"{t}:{type_pos[t]}" for t in range(1, 7)))
    for n in notes:
        print("note:", n)
    if errors:
        print(f"FAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  -", e)
        return 1
    print("OK: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else HERE))
