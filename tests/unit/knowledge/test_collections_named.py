"""Issue 27, deliver 1 and 6: with no collection chosen, a question that names one organisation (a word in at
least half of its documents and in no other searched collection's) is answered from that organisation only —
another organisation's rule on the same topic never answers it."""

from __future__ import annotations

from typing import Any

import pytest

from knowzero.knowledge.answer import pipeline as kp
from knowzero.knowledge.answer.deps import KnowledgeDeps
from knowzero.understanding.analysis import analyse
from kz_testlib import make_kb

ALPHA = {
    "休假制度.md": "# 瀚陆物流休假制度\n\n瀚陆物流员工每年享有带薪病假3天。\n",
    "食堂.md": "# 瀚陆物流员工食堂\n\n瀚陆物流食堂午餐11:00开始供应。\n",
}
BETA = {
    "休假制度.md": "# 城东街道休假制度\n\n## 病假\n\n城东街道工作人员每年享有带薪病假5天。\n\n## 婚假\n\n婚假10天。\n",
    "考勤.md": "# 城东街道考勤办法\n\n城东街道工作人员上午8:30上班。\n",
}


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Any:
    base = tmp_path_factory.mktemp("named")
    kb = make_kb(base / "kz")
    for collection, docs in (("alpha", ALPHA), ("beta", BETA)):
        for name, text in docs.items():
            report = kb.ingest_bytes(name, text.encode(), collection=collection)
            assert not report.failed
    kb.refresh(force=True)
    return kb


@pytest.mark.parametrize(("question", "named"), [
    ("瀚陆物流员工每年有几天带薪病假？", ("alpha",)),
    ("城东街道工作人员每年有几天病假？", ("beta",)),
    ("每年有几天带薪病假？", ()),  # no organisation named: every collection is searched
    ("病假制度是什么？", ()),  # a word both collections write names neither
])
def test_the_collection_a_question_names(kb: Any, question: str, named: tuple[str, ...]) -> None:
    assert kb.collections_named(analyse(question).terms) == named


async def test_another_organisations_rule_never_answers_a_question_naming_one(kb: Any) -> None:
    a = await kp.answer("瀚陆物流员工的婚假有几天？", KnowledgeDeps(kb, kb.settings))
    assert a.verdict.level == "insufficient", a.reply  # 城东街道's 婚假 is not 瀚陆物流's
    assert all(c["source"].startswith("alpha/") for c in a.citations)
    ok = await kp.answer("瀚陆物流员工每年有几天带薪病假？", KnowledgeDeps(kb, kb.settings))
    assert "3天" in ok.reply and all(c["source"].startswith("alpha/") for c in ok.citations)
