"""Replay candidate answerability gates over rows written by answerability_features.py."""
import json
import sys


def load(f): return [json.loads(l) for l in open(f)]
def evaluate(rows, gate):
    ans=[r for r in rows if not r['un']]; un=[r for r in rows if r['un']]
    answered=lambda r: r['level']!='insufficient' and gate(r)
    a_rate=sum(answered(r) for r in ans)/len(ans)
    contains=sum(answered(r) and r['contains'] for r in ans)/len(ans)
    fa=sum(answered(r) for r in un)/len(un)
    return round(contains,3), round(a_rate,3), round(fa,3)
files=sys.argv[1:]
gates={
 'none': lambda r: True,
 'slot': lambda r: r['slot'],
}
for t in (0.0,0.2,0.3,0.4,0.5,0.6):
    gates[f'focus>={t}']=(lambda t: lambda r: r['focus']>=t)(t)
    gates[f'focus>={t}&slot']=(lambda t: lambda r: r['focus']>=t and r['slot'])(t)
    gates[f'focus>={t}&slot&subj']=(lambda t: lambda r: r['focus']>=t and r['slot'] and r['subject'])(t)
for f in files:
    rows=load(f); print('==',f,len(rows))
    for name,g in gates.items():
        print(f'{name:28s}', evaluate(rows,g))
