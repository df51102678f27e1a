#!/usr/bin/env python3
"""Consistency check for the news_nearmiss_dev evaluation set (stdlib only).

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


def norm(s):
    """Full/half width folding (NFKC), drop all whitespace, casefold Latin letters."""
    s = unicodedata.normalize("NFKC", s)
    return re.sub(r"\s+", "", s).casefold()


def hits(text, values):
    t = norm(text)
    return [v for v in values if norm(v) and norm(v) in t]


def body_len(text):
    return len(re.sub(r"[\s#]", "", text))


def main(root):
    errors, notes = [], []
    qpath = os.path.join(root, "questions.jsonl")
    rows = [json.loads(line) for line in open(qpath, encoding="utf-8") if line.strip()]
    by_id = {r["id"]: r for r in rows}
    if len(by_id) != len(rows):
        errors.append("duplicate ids in questions.jsonl")
    qids = sorted({r["id"].rsplit("-", 1)[0] for r in rows})

    manifest = {}
    mpath = os.path.join(root, "articles.jsonl")
    if os.path.exists(mpath):
        for line in open(mpath, encoding="utf-8"):
            if line.strip():
                m = json.loads(line)
                manifest[(m["folder"], m["file"])] = m

    type_q = Counter()
    n_files = 0
    for q in qids:
        pos, neg = by_id.get(q + "-pos"), by_id.get(q + "-neg")
        if not pos or not neg:
            errors.append(f"{q}: missing pos or neg line")
            continue
        # line-level consistency
        for r, decline, kind in ((pos, False, "fact"), (neg, True, "near_miss")):
            for k in ("id", "org", "question", "kind", "answers", "decline", "split",
                      "must_not", "cross_language", "nearmiss_types"):
                if k not in r:
                    errors.append(f"{r.get('id')}: field {k} missing")
            if r.get("decline") is not decline or r.get("kind") != kind:
                errors.append(f"{r['id']}: decline/kind wrong")
            if r.get("split") != "dev":
                errors.append(f"{r['id']}: split is not dev")
            if r.get("org") != r.get("id"):
                errors.append(f"{r['id']}: org differs from id")
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
        for t in pos["nearmiss_types"]:
            type_q[t] += 1
        # must_not never contains an answer
        for r in (pos, neg):
            for m in r["must_not"]:
                if hits(m, answers):
                    errors.append(f"{r['id']}: must_not value {m!r} contains an answer")
        # folders
        for variant in ("pos", "neg"):
            folder = os.path.join(root, variant, f"{q}-{variant}")
            if not os.path.isdir(folder):
                errors.append(f"{q}-{variant}: folder missing")
                continue
            files = sorted(f for f in os.listdir(folder) if f.endswith(".md"))
            others = sorted(f for f in os.listdir(folder) if not f.endswith(".md"))
            if len(files) != 5:
                errors.append(f"{q}-{variant}: {len(files)} .md files (want 5)")
            if others:
                errors.append(f"{q}-{variant}: unexpected files {others}")
            with_answer = []
            for fn in files:
                n_files += 1
                text = open(os.path.join(folder, fn), encoding="utf-8").read()
                if not text.startswith("# "):
                    errors.append(f"{q}-{variant}/{fn}: no '# ' headline on first line")
                n = body_len(text)
                if not 150 <= n <= 450:
                    errors.append(f"{q}-{variant}/{fn}: {n} characters (want 150-450)")
                h = hits(text, answers)
                if h:
                    with_answer.append(fn)
                if variant == "neg" and h:
                    errors.append(f"{q}-neg/{fn}: contains answer {h}")
                m = manifest.get((f"{q}-{variant}", fn))
                if m is not None and m["role"] == "near_miss" and h:
                    errors.append(f"{q}-{variant}/{fn}: near-miss article contains answer {h}")
                if m is not None and m["role"] == "answer" and not h:
                    errors.append(f"{q}-{variant}/{fn}: answer article lacks the answer")
            if variant == "pos":
                if len(with_answer) < 3:
                    errors.append(f"{q}-pos: only {len(with_answer)} files contain an answer (want >= 3)")
                if with_answer == files[:len(with_answer)] and len(with_answer) < len(files):
                    notes.append(f"{q}-pos: answering files are the first ones")
    for t in range(1, 7):
        if type_q[t] < 4:
            errors.append(f"near-miss type {t} used by only {type_q[t]} questions (want >= 4)")

    print(f"questions: {len(qids)}  jsonl lines: {len(rows)}  article files: {n_files}")
    print("questions using each near-miss type:", ", ".join(f"{t}:{type_q[t]}" for t in range(1, 7)))
    if manifest:
        per_article = Counter(m["nearmiss_type"] for m in manifest.values()
                              if m["role"] == "near_miss" and m["folder"].endswith("-neg"))
        print("neg-folder articles per type:", ", ".join(f"{t}:{per_article[t]}" for t in range(1, 7)))
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
