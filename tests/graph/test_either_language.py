"""Issue 33, deliver 2, on several organisations' documents: a question is translated into the words the
searched collection itself uses (one organisation writes 工作人员, another 员工), a Chinese question over
English documents is read in English, our words lead with the value in the asker's language while the quote
stays as written, a tenure table's range row is read for the years asked, and a service request is served as
typed, never translated."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from knowzero.service.identity import announce_keys
from kz_testlib import api_client, copy_data_dir, make_kb, write_docs

ACME = """# 城东中心工作人员考勤与休假管理办法

## 病假

工作人员每年享有带薪病假5天；超过5天的，按有关规定核减绩效工资。

## 年休假

工作人员累计工作满1年的，按以下标准享受年休假：

| 工作年限 | 年休假天数 |
|---|---|
| 满1年不满5年 | 7天 |
| 满5年不满15年 | 10天 |
| 满15年及以上 | 14天 |
"""
BETA = """# 北辰物流员工休假制度

## 病假

员工每年享有带薪病假3天，工资全额发放。
"""
MAPLE = """# Employee Handbook: Time Off

## Paid time off (PTO)

Full-time employees earn PTO according to their continuous length of service:

| Length of service | PTO days per year |
|---|---|
| Less than 2 years | 10 days |
| 2 years to less than 5 years | 15 days |
| 5 years to less than 10 years | 20 days |
| 10 years or more | 25 days |

## Sick leave

Every employee receives 6 paid sick days per year, separate from PTO.
"""
EDITOR = {"Authorization": "Bearer demo-editor"}
CUSTOMER = {"Authorization": "Bearer demo-alice"}


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("orgs")
    d = root / "kz"
    kb = make_kb(d)
    for name, docs in {"acme": {"acme/考勤与休假管理办法.md": ACME}, "beta": {"beta/休假制度.md": BETA},
                       "maple": {"maple/handbook.md": MAPLE}}.items():
        report = kb.ingest_paths([write_docs(root / "docs" / name, docs)], collection=name)
        assert not report.failed, report.failed
    kb.embed_pending()
    kb.engine.dispose()
    return d


@pytest.fixture()
async def api(data_dir: Path, tmp_path: Path) -> Any:
    async with api_client(copy_data_dir(data_dir, tmp_path / "kz"), demo_keys="1") as client:
        announce_keys(client.app.state.deps.need_store(), fixed_keys=True, echo=lambda _line: None)
        yield client


async def _ask(api: Any, message: str, collections: list[str] | None = None,
               headers: dict[str, str] = EDITOR) -> dict[str, Any]:
    body: dict[str, Any] = {"message": message, "stream": False}
    if collections is not None:
        body["collections"] = collections
    r = await api.post("/v1/chat", json=body, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()


def _understood(body: dict[str, Any]) -> list[str]:
    return [e["data"]["understood"] for e in body["events"] if e["type"] == "reasoning" and e["data"].get("understood")]


async def test_an_english_question_uses_the_searched_collections_own_words(api: Any) -> None:
    acme = await _ask(api, "How many days of paid sick leave do staff get each year?", ["acme"])
    assert acme["verdict"]["level"] == "confirmed", acme["reply"]
    assert acme["reply"].startswith("5 days — 工作人员每年享有带薪病假5天"), acme["reply"]
    assert "translation" in _understood(acme)
    beta = await _ask(api, "How many days of paid sick leave do staff get each year?", ["beta"])
    assert "3天" in beta["reply"] and "5天" not in beta["reply"], beta["reply"]


async def test_a_tenure_question_reads_the_row_whose_range_holds_the_years(api: Any) -> None:
    body = await _ask(api, "How many days of annual leave does an employee with 16 years of service get?", ["acme"])
    assert body["verdict"]["level"] in ("confirmed", "uncertain"), body["reply"]
    assert "14 days — " in body["reply"] and "14天" in body["reply"] and "7天" not in body["reply"], body["reply"]
    chinese = await _ask(api, "在公司工作满3年的全职员工每年有多少天带薪休假（PTO）？", ["maple"])  # English ranges
    assert "按文档：15天 — " in chinese["reply"] and "10 days" not in chinese["reply"], chinese["reply"]


async def test_a_chinese_question_over_english_documents_is_read_in_english(api: Any) -> None:
    body = await _ask(api, "员工每年有几天带薪病假？", ["maple"])
    assert body["verdict"]["level"] in ("confirmed", "uncertain"), body["reply"]
    assert "按文档：6天 — " in body["reply"] and "6 paid sick days" in body["reply"], body["reply"]
    assert "translation" in _understood(body)


async def test_a_service_request_in_english_is_served_as_typed(api: Any) -> None:
    body = await _ask(api, "I'd like a refund of 20 yuan because I ordered the wrong size", headers=CUSTOMER)
    assert body["path"] == "service", body
    assert "translation" not in _understood(body)


async def test_a_number_too_long_for_any_table_is_not_a_server_error(api: Any) -> None:
    """An attacker's "员工工作999…9年" (400 digits) once overflowed the band reader: HTTP 500."""
    r = await api.post("/v1/ask", json={"question": "员工工作" + "9" * 400 + "年有几天年假？"}, headers=EDITOR)
    assert r.status_code == 200, r.text
    body = await _ask(api, "员工工作" + "9" * 400 + "年有几天年假？", ["acme"])
    assert body["verdict"]["level"] in ("insufficient", "uncertain", "confirmed")


def test_what_one_message_may_cost_in_lookups(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each dictionary word of a message is looked up in the searched documents: a long message of distinct
    words once made thousands of LIKE scans (27 s on 27,000 chunks). Bounded per message; a message longer
    than a question is not translated at all."""
    from knowzero.config import Settings
    from knowzero.knowledge.answer import pipeline
    from knowzero.knowledge.answer.deps import KnowledgeDeps
    from knowzero.knowledge.answer.lexicon import Lexicon

    kb = make_kb(copy_data_dir(data_dir, tmp_path / "kz"))
    calls: list[str] = []
    real_terms, real_variant = kb.terms_in, kb.spaced_variant
    monkeypatch.setattr(kb, "terms_in", lambda terms, cols: calls.append("t") or real_terms(terms, cols))
    monkeypatch.setattr(kb, "spaced_variant", lambda w, cols: calls.append("v") or real_variant(w, cols))
    deps = KnowledgeDeps(kb, Settings(data_dir=tmp_path / "kz"), None, ("acme",))
    words = ("annual leave sick employee staff salary office manager holiday travel hotel meal allowance invoice "
             "expense contract training safety vehicle driver warehouse customer payment refund ticket order ")
    question = ("How many " + words * 20)[:pipeline.MAX_TRANSLATED_CHARS - 1] + "?"
    pipeline.readings(question, deps, Lexicon())
    assert calls.count("t") <= pipeline.MAX_LOOKUPS and calls.count("v") <= pipeline.MAX_VARIANTS
    calls.clear()
    assert pipeline.readings("How many " + words * 40 + "?", deps, Lexicon()).other == ""
    assert calls == []
