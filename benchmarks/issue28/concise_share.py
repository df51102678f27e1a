"""Share of the organisation sets' prose sentences that the offline "say it more simply" can shorten (issue 28).

Every sentence (15+ characters, no table or list line) of each organisation folder's Markdown files, split as
the knowledge base splits them; a sentence counts when ``shorter_wording`` returns a shorter wording (it keeps every
number, negation, condition and limit or returns the sentence unchanged). Usage:

    python benchmarks/issue28/concise_share.py tests/data/orgdocs tests/data/orgdocs_blind tests/data/orgdocs_blind2 \\
        tests/data/orgdocs_blind3 tests/data/orgdocs_blind4
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from knowzero.knowledge.text import split_sentences
from knowzero.learning.concise import shorter_wording


def main(roots: list[str]) -> None:
    by: dict[str, list[int]] = {}
    for root in roots:
        for f in sorted(Path(root).glob("*/*.md")):
            for s in split_sentences(f.read_text(encoding="utf-8")):
                t = s.text.strip()
                if len(t) < 15 or t.startswith(("|", "#", "-")) or "|" in t:
                    continue
                key = f"{Path(root).name}/{'zh' if re.search(r'[一-鿿]', t) else 'en'}"
                counts = by.setdefault(key, [0, 0])
                counts[0] += shorter_wording(t) != t
                counts[1] += 1
    for key, (hit, n) in sorted(by.items()):
        print(f"{key}: {hit}/{n}")
    hit, n = sum(c[0] for c in by.values()), sum(c[1] for c in by.values())
    print(json.dumps({"sentences": n, "shortened": hit, "shortened_share": round(hit / n, 3) if n else None}))


if __name__ == "__main__":
    main(sys.argv[1:])
