#!/usr/bin/env python3
"""Consistency check for the news near-miss report set (stdlib only).

Run:  python3 check.py            (from any directory)
Exit status 0 = all checks passed, 1 = at least one error.

Checks
  * questions.jsonl parses; every line has the expected fields; ids come in
    rNN-pos / rNN-neg pairs with the same question and near-miss types.
  * every folder OUT/<id>/ holds exactly a.md .. e.md, each starting with "# ".
  * pos: at least 3 of the 5 files contain an answer string.
  * neg: no file contains any answer string of its question.
  * must_not values neither contain an answer string nor are contained in one
    (so a correct reply can never trip a must_not value).
  * pos must_not values really occur in a pos distractor file.
  * nearmiss_kinds.json (if present) agrees with questions.jsonl, and the pos
    distractors listed there are byte-identical copies of the neg articles.
Matching is done after normalisation: NFKC (full-width -> half-width),
all whitespace removed, lower-cased.
Warnings (not errors): paragraphs outside 150-450 characters.
"""
import json
import os
import re
import sys
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
FILES = ["a.md", "b.md", "c.md", "d.md", "e.md"]
KINDS = set("ABCDEF")
FIELDS = ["id", "org", "question", "kind", "answers", "decline", "split",
          "must_not", "cross_language", "nearmiss_types"]

errors, warnings = [], []


def err(msg):
    errors.append(msg)


def norm(s):
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", s)).lower()


def read(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def paragraphs(text):
    out = []
    for line in text.split("\n")[1:]:
        line = line.strip()
        if not line or re.match(r"^\d{4}-\d{2}-\d{2}", line):
            continue
        out.append(line)
    return out


def main():
    qpath = os.path.join(HERE, "questions.jsonl")
    rows = []
    with open(qpath, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                err(f"questions.jsonl line {n}: bad JSON ({e})")
    by_id = {}
    for r in rows:
        missing = [f for f in FIELDS if f not in r]
        if missing:
            err(f"{r.get('id')}: missing fields {missing}")
            continue
        if r["id"] in by_id:
            err(f"{r['id']}: duplicate id")
        by_id[r["id"]] = r
        if r["org"] != r["id"]:
            err(f"{r['id']}: org != id")
        if r["split"] != "held":
            err(f"{r['id']}: split is not 'held'")
        if not set(r["nearmiss_types"]) <= KINDS or not r["nearmiss_types"]:
            err(f"{r['id']}: bad nearmiss_types {r['nearmiss_types']}")
        if r["id"].endswith("-pos"):
            if r["kind"] != "fact" or r["decline"] is not False or not r["answers"]:
                err(f"{r['id']}: pos line must have kind=fact, decline=false, answers")
        elif r["id"].endswith("-neg"):
            if r["kind"] != "near_miss" or r["decline"] is not True or r["answers"]:
                err(f"{r['id']}: neg line must have kind=near_miss, decline=true, no answers")
            if not r["must_not"]:
                err(f"{r['id']}: neg line without must_not")
        else:
            err(f"{r['id']}: id must end in -pos or -neg")

    qids = sorted({i.rsplit("-", 1)[0] for i in by_id})
    for q in qids:
        pos, neg = by_id.get(q + "-pos"), by_id.get(q + "-neg")
        if not pos or not neg:
            err(f"{q}: pos/neg pair incomplete")
            continue
        if pos["question"] != neg["question"]:
            err(f"{q}: pos and neg questions differ")
        if pos["nearmiss_types"] != neg["nearmiss_types"]:
            err(f"{q}: pos and neg nearmiss_types differ")
        answers = [norm(a) for a in pos["answers"]]
        texts = {}
        for variant in ("pos", "neg"):
            folder = os.path.join(HERE, variant, f"{q}-{variant}")
            if not os.path.isdir(folder):
                err(f"{q}-{variant}: folder missing")
                continue
            mds = sorted(f for f in os.listdir(folder) if f.endswith(".md"))
            if mds != FILES:
                err(f"{q}-{variant}: expected {FILES}, found {mds}")
            for f in mds:
                t = read(os.path.join(folder, f))
                texts[(variant, f)] = t
                if not t.startswith("# "):
                    err(f"{q}-{variant}/{f}: does not start with a '# ' headline")
                paras = paragraphs(t)
                if not 2 <= len(paras) <= 5:
                    warnings.append(f"{q}-{variant}/{f}: {len(paras)} paragraphs")
                for p in paras:
                    if not 150 <= len(p) <= 450:
                        warnings.append(f"{q}-{variant}/{f}: paragraph of {len(p)} chars")
        hits = [f for (v, f), t in texts.items() if v == "pos" and any(a in norm(t) for a in answers)]
        if len(hits) < 3:
            err(f"{q}-pos: only {len(hits)} files contain an answer ({hits})")
        for (v, f), t in texts.items():
            if v == "neg":
                found = [a for a in answers if a in norm(t)]
                if found:
                    err(f"{q}-neg/{f}: contains answer {found}")
        for r in (pos, neg):
            for m in r["must_not"]:
                nm = norm(m)
                if any(a in nm for a in answers):
                    err(f"{r['id']}: must_not {m!r} contains an answer")
                if any(nm in a for a in answers):
                    err(f"{r['id']}: must_not {m!r} is contained in an answer")
        neg_all = "".join(norm(t) for (v, f), t in texts.items() if v == "neg")
        for m in neg["must_not"]:
            if norm(m) not in neg_all:
                err(f"{q}-neg: must_not {m!r} not found in any neg article")
        pos_dis = "".join(norm(t) for (v, f), t in texts.items() if v == "pos" and f not in hits)
        for m in pos["must_not"]:
            if norm(m) not in pos_dis:
                err(f"{q}-pos: must_not {m!r} not found in a pos distractor")

    kpath = os.path.join(HERE, "nearmiss_kinds.json")
    if os.path.exists(kpath):
        kinds = json.loads(read(kpath))["questions"]
        for q in qids:
            k = kinds.get(q)
            if not k:
                err(f"nearmiss_kinds.json: {q} missing")
                continue
            types = sorted(set(k["neg"].values()))
            if q + "-neg" in by_id and types != by_id[q + "-neg"]["nearmiss_types"]:
                err(f"{q}: nearmiss_kinds.json types {types} != questions.jsonl")
            for f, d in k["pos_distractors"].items():
                a = os.path.join(HERE, "pos", f"{q}-pos", f)
                b = os.path.join(HERE, "neg", d["copy_of"])
                if read(a) != read(b):
                    err(f"{q}-pos/{f}: not identical to {d['copy_of']}")

    print(f"questions: {len(qids)}  lines: {len(rows)}")
    for w in warnings:
        print("WARNING", w)
    for e in errors:
        print("ERROR", e)
    print("OK" if not errors else f"FAILED ({len(errors)} errors)")
    return 0 if not errors else 1


if __name__ == "__main__":
    sys.exit(main())
