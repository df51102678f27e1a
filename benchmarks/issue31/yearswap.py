"""(benchmarks/issue31) Near misses made from answerable questions that name a year: the year changed to one the cited document
does not discuss; the product should decline. Same questions unchanged: should still be answered."""
import json, re, shutil, sys, asyncio
from pathlib import Path
rows_path, data_dir = sys.argv[1], Path(sys.argv[2])
work = Path("/tmp/yearswap_kb") / data_dir.name / sys.argv[3]
if work.exists(): shutil.rmtree(work)
shutil.copytree(data_dir, work)
from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.knowledge.answer.pipeline import answer_sync
settings = Settings(data_dir=work, database_url="")
kb = KnowledgeBase(make_engine(settings.db_url), settings); kb.refresh(force=True)
deps = KnowledgeDeps(kb, settings)
YEAR = re.compile(r"((?:1[5-9]|20)\d{2})(\s*年)")
rows = [json.loads(l) for l in open(rows_path)]
qs = [r for r in rows if not r.get("unanswerable") and YEAR.search(r["question"])]
swapped_declined = kept_answered = n = 0
for r in qs:
    q = r["question"]
    y = int(YEAR.search(q).group(1))
    doc_years = set(re.findall(r"(?:1[5-9]|20)\d{2}", (r.get("evidence") or {}).get("doc", "") + " ".join((r.get("evidence") or {}).get("contexts") or [])))
    new = next(str(y + d) for d in (7, -7, 13, -13, 23, 31) if str(y + d) not in doc_years)
    q2 = YEAR.sub(lambda m: new + m.group(2), q, count=1)
    a1 = answer_sync(q, deps); a2 = answer_sync(q2, deps)
    n += 1
    kept_answered += a1.verdict.level != "insufficient"
    swapped_declined += a2.verdict.level == "insufficient"
print(json.dumps({"questions": n, "original_answered": kept_answered, "year_swapped_declined": swapped_declined}))
