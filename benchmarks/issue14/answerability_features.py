"""Study (not shipped): features of the cited evidence for an answerability gate (issue 14).

Runs the product's pipeline on a SQuAD-format set with the eval's own sampling and negatives, and
records per question: the verdict, whether the reply contains gold, and candidate gate features —
``focus`` (IDF coverage of the question's key terms that are not in the cited document's title, by
the cited quotes alone), ``focus_all`` (all key terms, by title + quotes), ``subject`` (the top-IDF
term in the quotes or title; not script-folded, so it is wrong on Traditional text), ``slot`` (a
number/time/causal filler for number/time/why questions).

    python benchmarks/issue14/answerability_features.py DATA.json same-paragraph 400 3 DATA_DIR rows.jsonl
    python benchmarks/issue14/answerability_gates.py rows.jsonl    # contains / answered / false answers per gate
"""
import asyncio
import json
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

from knowzero.eval.knowledge import (
    _contains,
    apply_script,
    build_kb,
    choose_held_out,
    load_squad,
    same_article_rule,
    strip_answer_sentences,
)
from knowzero.knowledge.answer.checks import verify
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.pipeline import answer
from knowzero.knowledge.answer.reader import answer_type
from knowzero.knowledge.answer.retriever import key_terms
from knowzero.knowledge.text import tokens

path, negatives, limit, seed, data_dir, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
paragraphs, questions = load_squad(Path(path))
apply_script("auto", paragraphs)
rng = random.Random(seed)
questions = rng.sample(questions, min(limit, len(questions)))
eligible = same_article_rule(paragraphs) if negatives == "same-article" else None
held_out = choose_held_out(questions, 0.2, rng, eligible)
extra = {}
if negatives == "same-paragraph":
    by_id = {p["id"]: p for p in paragraphs}
    answers = {}
    for q in questions:
        if q["gold"] in held_out:
            answers.setdefault(q["gold"], []).extend(q["answers"])
    extra["nearmiss"] = [m for pid in sorted(held_out) if (m := strip_answer_sentences(by_id[pid], answers.get(pid, []))) is not None]
kb = build_kb(paragraphs, held_out, Path(data_dir), extra=extra)
deps = KnowledgeDeps(kb, kb.settings)
unans = ("pool", "nearmiss") if extra else ("pool",)
ans = ("pool", "heldout") if extra else ()

CAUSAL = re.compile(r"因为|由于|因此|所以|为了|导致|原因|使得|因而|是因|源于|出于|以便|目的|为此|由此|结果|致使|because|due to|so that|in order")
NUM = re.compile(r"\d|[一二两三四五六七八九十百千万亿]")
TIME = re.compile(r"\d{2,4}年|\d+月|\d+日|世纪|年代|朝|时期|时代|[一二三四五六七八九十]+年|年间|之后|以前|之前|期间|初|末")

async def main():
    rows = []
    for i, q in enumerate(questions):
        un = q["gold"] in held_out
        a = await answer(q["question"], replace(deps, collections=unans if un else ans))
        quotes = " ".join(c.quote for c in (a.draft.claims if a.draft else []))
        titles = " ".join({c.title for c in (a.draft.claims if a.draft else [])})
        terms = key_terms(kb, q["question"])
        title_toks = set(tokens(titles.lower(), search=True)) if titles else set()
        non_title = [(t, w) for t, w in terms if t not in titles.lower() and t not in title_toks]
        f_focus = verify.coverage(non_title, quotes) if non_title else 1.0
        f_focus_all = verify.coverage(terms, titles + " " + quotes)
        top = max(terms, key=lambda x: x[1])[0] if terms else ""
        f_subject = bool(top) and (top in quotes.lower() or top in titles.lower())
        kind = answer_type(q["question"])
        why = bool(re.search(r"为什么|为何|原因|怎么会|why", q["question"]))
        f_slot = True
        if kind == "number": f_slot = bool(NUM.search(quotes))
        elif kind == "time": f_slot = bool(TIME.search(quotes))
        if why: f_slot = bool(CAUSAL.search(quotes))
        rows.append({"un": un, "level": a.verdict.level, "contains": _contains(a.reply, q["answers"]),
                     "cov": a.verdict.coverage, "focus": round(f_focus, 3), "focus_all": round(f_focus_all, 3),
                     "subject": f_subject, "slot": f_slot, "kind": kind, "why": why, "q": q["question"]})
        if (i + 1) % 50 == 0:
            print(i + 1, file=sys.stderr)
    Path(out).write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows))

asyncio.run(main())
