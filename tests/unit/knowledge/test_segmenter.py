"""The segmenter (rjieba, jieba-rs) cuts exactly as the Python jieba it replaced, user dictionary
included, so keyword recall is unchanged (issue 11; measured on CMRC/DRCD in benchmarks/README.md)."""

from __future__ import annotations

from importlib import resources

import jieba

from knowzero.knowledge import text as T
from knowzero.knowledge.kb import demo_kb_path


def test_same_cuts_as_python_jieba_on_the_demo_corpus() -> None:
    ref = jieba.Tokenizer()
    ref.load_userdict(str(resources.files("knowzero.knowledge").joinpath("data/user_dict.txt")))
    runs: list[str] = []
    for f in sorted(demo_kb_path().rglob("*.md")):
        runs += T._CJK_RUN.findall(T.fold(f.read_text(encoding="utf-8")))
    assert len(runs) > 500
    seg = T._jieba()
    for r in runs:
        assert seg.cut_for_search(r) == ref.lcut_for_search(r), r
        assert seg.cut(r) == ref.lcut(r), r
    assert "切削液" in T.tokens("更换切削液")  # a user-dictionary term stays whole
