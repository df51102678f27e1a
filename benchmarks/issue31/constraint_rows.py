"""Which answered rows the constraint check would decline, from recorded rows (evidence title + contexts)."""
import json, sys
sys.path.insert(0, "/work/main/src")
from knowzero.knowledge.answer.checks.constraints import constraints_of, missed
for path in sys.argv[1:]:
    rows = [json.loads(l) for l in open(path)]
    ans = [r for r in rows if r.get("answered")]
    stats = {"answered": len(ans), "declined_right": 0, "declined_false": 0, "declined_wrong_answer": 0, "with_constraint": 0}
    ex = []
    for r in ans:
        c = constraints_of(r["question"])
        if not c: continue
        stats["with_constraint"] += 1
        ev = r.get("evidence") or {}
        text = f"{ev.get('title','')} " + " ".join(ev.get("contexts") or [])
        if missed(c, text):
            if r.get("unanswerable"): stats["declined_false"] += 1
            elif r.get("contains"): stats["declined_right"] += 1
            else: stats["declined_wrong_answer"] += 1
            ex.append((r["question"], r.get("unanswerable"), r.get("contains"), [x.written for x in missed(c, text)]))
    print(path.split("/")[-1], stats)
    for e in ex[:8]: print("   ", e)
