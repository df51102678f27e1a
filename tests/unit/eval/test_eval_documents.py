"""``knowzero eval documents`` (issue 27): the grading (pure), the development set's own consistency,
and one slow run of the whole command on one organisation through the HTTP API."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from knowzero.cli import app
from knowzero.eval.documents import KINDS, grade, load_questions, mentions, normalise, org_files, summarise

ORGDOCS = Path(__file__).resolve().parents[2] / "data" / "orgdocs"
CITED = [{"source": "acme/a.md"}]


# ----- matching ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("reply", "answer", "found"), [
    ("住宿上限为５５０元/晚", "550", True),  # full-width digits
    ("每晚 550 元", "550元", True),  # spaces, 元
    ("¥550", "550元", True),
    ("The allowance is $1,500 a year.", "$1,500", True),
    ("The allowance is 1500 USD.", "$1,500", True),
    ("hourly_rate_usd: 27.4。", "27.40", True),  # a CSV cell is shown without its trailing zero
    ("核定载重_吨: 40.0；", "40", True),
    ("年假为120天", "12", False),  # a number is a whole number
    ("费用为3.12万元", "12", False),
    ("共 12 天", "12天", True),
    ("三类城市\n300\n80\n40", "80", True),  # a table row's cells one per line stay apart
    ("三类城市\n300\n80\n40", "30080", False),
    ("Staff park in LOT  B behind", "Lot B", True),
    ("热线0571-8816 2300", "0571-8816 2300", True),
    ("", "3天", False),
])
def test_mentions(reply: str, answer: str, found: bool) -> None:
    assert mentions(reply, answer) is found


def test_normalise_is_idempotent() -> None:
    for text in ("每晚５５０ 元", "$1,500.00 per year", "300\n80", "A　B（2024版）"):
        assert normalise(normalise(text)) == normalise(text)


# ----- grading ----------------------------------------------------------------------------------------
def q(**over: Any) -> dict[str, Any]:
    return {"id": "x-1", "org": "acme", "kind": "fact", "answers": ["3天"], "must_not": ["5天带薪病假"],
            "decline": False, "split": "dev", **over}


def test_answerable_right_wrong_abstained() -> None:
    assert grade(q(), "员工每年享有带薪病假3天。[1]", "confirmed", CITED)["grade"] == "right"
    assert grade(q(), "员工每年享有带薪病假3天。[1]", "uncertain", CITED)["grade"] == "right"
    g = grade(q(), "每位员工每年享有5天带薪病假。[1]", "confirmed", CITED)
    assert g["grade"] == "wrong" and g["reasons"] == ["no accepted answer", "states 5天带薪病假"]
    g = grade(q(), "带薪病假3天；另一份文件：每位员工每年享有5天带薪病假。", "uncertain", CITED)
    assert g["grade"] == "wrong" and g["found"] == "3天" and g["must_not_seen"] == ["5天带薪病假"]
    g = grade(q(), "知识库中没有足够的信息回答这个问题，我不做猜测。", "insufficient", [])
    assert g["grade"] == "abstained" and g["declined"]
    # the right value with an insufficient verdict is still an abstention, not a right answer
    assert grade(q(), "带薪病假3天", "insufficient", CITED)["grade"] == "abstained"
    # a reply from another path (no verdict) is graded on its words
    assert grade(q(), "请问是哪个订单？", None, [])["grade"] == "wrong"


def test_decline_questions() -> None:
    nm = q(kind="near_miss", answers=[], must_not=["13天"], decline=True)
    assert grade(nm, "知识库中没有足够的信息回答这个问题。", "insufficient", [])["grade"] == "right"
    assert grade(nm, "我无法确定。", "uncertain", [])["grade"] == "right"  # nothing cited: declined
    g = grade(nm, "婚假13天（含法定婚假3天）。[1]", "confirmed", CITED)
    assert g["grade"] == "wrong" and g["reasons"] == ["answered (verdict confirmed) where the fact is absent",
                                                      "states 13天"]
    # never "abstained": declining is the right answer here
    assert {grade(nm, r, lv, c)["grade"] for r, lv, c in [("x", "insufficient", []), ("y", "confirmed", CITED)]} \
        == {"right", "wrong"}


def test_value_first_newer_alone_and_conflict_note() -> None:
    nv = q(kind="newer_version", answers=["400元"], must_not=["300元"])
    g = grade(nv, "每月发放安全奖400元。[1]", "confirmed", CITED)
    assert g["grade"] == "right" and g["newer_alone"] is True and g["first_80"] is True
    g = grade(nv, "⚠️ 不同文档对此说法不一，以下分别引用：安全奖400元。[1]安全奖300元。[2]\n注意：不同文档说法不一", "uncertain",
              CITED)
    assert g["grade"] == "wrong" and g["newer_alone"] is False and g["conflict_note"] is True
    late = "一" * 90 + "带薪病假3天"
    assert grade(q(), late, "confirmed", CITED)["first_80"] is False
    assert grade(q(), "带薪病假3天", "confirmed", CITED)["newer_alone"] is None
    assert grade(q(), "⚠️ 来源之间或回答与来源存在矛盾，已提交人工审核：带薪病假3天", "contradicted", CITED)["conflict_note"]
    assert grade(q(), "Note: the documents disagree (a: 3; b: 5)", "uncertain", CITED)["conflict_note"]


def test_citation_markers_and_listed_rows_are_not_answers() -> None:
    count = q(kind="computed", answers=["3"], must_not=[])
    rows = [{"source": "acme/r.csv", "quote": f"姓名: {n}；工龄: {y}。"} for n, y in (("甲", 12), ("乙", 3))]
    listed = "共 2 人（按《名单》统计）\n- 姓名: 甲；工龄: 12。[1]\n- 姓名: 乙；工龄: 3。[2][3]"
    g = grade(count, listed, "confirmed", rows)
    assert g["grade"] == "wrong", "neither the marker [3] nor a cell of the second listed row is the count"
    assert grade(count, listed.replace("共 2 人", "共 3 人"), "confirmed", rows)["grade"] == "right"
    # a maximum answered by its row: the first cited quote counts
    top = q(kind="computed", answers=["12"], must_not=[])
    assert grade(top, "姓名: 甲；工龄: 12。[1]姓名: 乙；工龄: 3。[2]", "confirmed", rows)["grade"] == "right"
    # other kinds: the whole reply, markers removed
    assert grade(q(answers=["2"], must_not=[]), "见第二条[2]", "confirmed", CITED)["grade"] == "wrong"


def _row(kind: str, result: str, **over: Any) -> dict[str, Any]:
    base = {"id": "r", "org": "acme", "kind": kind, "grade": result, "decline": kind == "near_miss",
            "verdict": "confirmed", "outside": [], "first_80": result == "right" and kind != "near_miss",
            "conflict_note": False, "newer_alone": (result == "right") if kind == "newer_version" else None,
            "cross_language": False, "conflict": False, "elapsed_ms": 100.0}
    return base | over


def test_summarise_counts_and_shares() -> None:
    rows = [_row("fact", "right"), _row("fact", "wrong"), _row("fact", "abstained", verdict="insufficient"),
            _row("near_miss", "right", verdict="insufficient"), _row("newer_version", "wrong", conflict_note=True),
            _row("computed", "wrong", outside=["other/x.csv"], cross_language=True, elapsed_ms=900.0),
            _row("table_lookup", "right", conflict_note=True, first_80=False)]
    s = summarise(rows)
    assert s["n"] == 7 and (s["right"], s["wrong"], s["abstained"]) == (0.4286, 0.4286, 0.1429)
    assert s["wrong_confirmed"] == 3 and s["outside_collections"] == 1
    assert s["by_kind"] == {"fact": 0.3333, "table_lookup": 1.0, "computed": 0.0, "near_miss": 1.0,
                            "newer_version": 0.0}
    assert s["value_first_80"] == 0.5  # of the 2 right answerable replies
    assert s["false_conflicts"] == 1  # the newer_version note is not a false conflict
    assert s["newer_version_alone"] == 0.0 and s["cross_language_right"] == 0.0
    assert s["counts"]["by_kind"]["fact"] == "1/3" and s["p95_ms"] > s["p50_ms"] == 100.0


# ----- the development set ----------------------------------------------------------------------------
def test_the_development_set_is_consistent() -> None:
    questions = load_questions(ORGDOCS, "all")
    files = org_files(ORGDOCS)
    assert len(files) == 4 and all(5 <= len(f) <= 9 for f in files.values())
    assert {p.suffix for fs in files.values() for p in fs} >= {".md", ".html", ".docx", ".csv"}
    assert 150 <= len(questions) <= 180 and len({x["id"] for x in questions}) == len(questions)
    assert {x["org"] for x in questions} == set(files)
    assert {x["kind"] for x in questions} == set(KINDS)
    for x in questions:
        assert x["decline"] == (x["kind"] == "near_miss"), x["id"]
        assert x["decline"] or x["answers"], x["id"]
        if x["kind"] == "computed":
            assert all(re.fullmatch(r"\d+(\.\d+)?", a) for a in x["answers"]), x["id"]
        assert not set(x["answers"]) & set(x.get("must_not") or []), x["id"]
    assert sum(bool(x.get("cross_language")) for x in questions) >= 10
    dev = load_questions(ORGDOCS, "dev")
    assert 0.55 <= len(dev) / len(questions) <= 0.65
    groups: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for x in questions:  # stratified by org × kind; the cross-language questions as one group of their own
        groups[("cross", "") if x.get("cross_language") else (x["org"], x["kind"])][x["split"]] += 1
    for key, c in groups.items():  # every group of 2 or more questions is in both parts
        assert sum(c.values()) < 2 or (c["dev"] and c["held"]), key


def test_computed_answers_match_the_csv_files() -> None:
    """Spot checks that the counts and sums were computed from the files as committed."""
    def rows(org: str, name: str) -> list[dict[str, str]]:
        with (ORGDOCS / org / name).open(encoding="utf-8") as fh:
            return list(csv.DictReader(fh))

    by_id = {x["id"]: x for x in load_questions(ORGDOCS, "all")}
    veh = rows("hanglu-logistics", "车辆台账.csv")
    ask = next(x for x in by_id.values() if x["question"] == "瀚陆物流车辆台账里冷藏车一共有几辆？")
    assert ask["answers"] == [str(sum(r["车型"] == "冷藏车" for r in veh))]
    vol = rows("chengdong-service", "志愿者名册.csv")
    ask = next(x for x in by_id.values() if "梅园社区志愿者的累计服务时长合计" in x["question"])
    assert ask["answers"] == [str(sum(int(r["累计服务时长_小时"]) for r in vol if r["所属社区"] == "梅园社区"))]
    staff = rows("maplegrove-vet", "Staff_Roster.csv")
    ask = next(x for x in by_id.values() if x["question"] == "How many DVMs are on the Maple Grove staff roster?")
    assert ask["answers"] == [str(sum(r["role"] == "DVM" for r in staff))]


def test_the_docx_files_are_the_build_scripts_output() -> None:
    spec = importlib.util.spec_from_file_location("orgdocs_build_docx", ORGDOCS / "build_docx.py")
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    for rel, blocks in build.DOCUMENTS.items():
        assert (ORGDOCS / rel).read_bytes() == build.render(blocks), f"{rel}: run python {ORGDOCS / 'build_docx.py'}"


def test_load_questions_refuses_a_bad_split_and_names_a_bad_line(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--split"):
        load_questions(ORGDOCS, "train")
    (tmp_path / "questions.jsonl").write_text('{"id": "a", "org": "o", "question": "?", "kind": "fact", '
                                              '"answers": ["1"], "split": "dev"}\n{"id": "b"}\n', "utf-8")
    with pytest.raises(ValueError, match=r"questions.jsonl:2"):
        load_questions(tmp_path, "all")


# ----- the command, end to end ----------------------------------------------------------------------------
@pytest.mark.slow
def test_eval_documents_on_one_organisation(tmp_path: Path) -> None:
    rows_file = tmp_path / "rows.jsonl"
    res = CliRunner().invoke(app, ["eval", "documents", "--dir", str(ORGDOCS), "--split", "dev", "--org",
                                   "maplegrove-vet", "--collections", "both", "--json", "--rows", str(rows_file)],
                             prog_name="knowzero")
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout.strip().splitlines()[-1])
    figures = {"right", "wrong", "abstained", "wrong_confirmed", "by_kind", "outside_collections", "value_first_80",
               "false_conflicts", "newer_version_alone", "cross_language_right", "p50_ms", "p95_ms", "n"}
    n = len(load_questions(ORGDOCS, "dev", ["maplegrove-vet"]))
    for part in (out, out["named"], out["none"]):
        assert figures <= set(part) and part["n"] == n
        assert abs(part["right"] + part["wrong"] + part["abstained"] - 1) < 0.01
        assert set(part["by_kind"]) <= set(KINDS)
    assert out["setup"]["upload_failed"] == [] and out["setup"]["collections"]["demo"] > 0
    assert out["named"]["outside_collections"] == 0, "a named collection scopes the answer"
    lines = [json.loads(line) for line in rows_file.read_text("utf-8").splitlines()]
    assert len(lines) == 2 * n and {r["mode"] for r in lines} == {"named", "none"}
    assert {"question", "kind", "reply", "verdict", "citations", "grade", "reasons"} <= set(lines[0])


def test_the_report_set_is_consistent_and_its_counts_match_the_csv_files() -> None:
    """questions_report.jsonl: 40 questions a helper wrote from the documents alone (never the code), for reporting
    only (``--questions``); its computed answers checked against the files as committed."""
    report = load_questions(ORGDOCS, "all", path=ORGDOCS / "questions_report.jsonl")
    assert len(report) == 40 and {x["split"] for x in report} == {"held"}
    assert not {x["id"] for x in report} & {x["id"] for x in load_questions(ORGDOCS, "all")}
    assert sum(bool(x.get("cross_language")) for x in report) == 16
    for x in report:
        assert x["decline"] == (x["kind"] == "near_miss"), x["id"]
        assert not set(x["answers"]) & set(x.get("must_not") or []), x["id"]
    with (ORGDOCS / "hanglu-logistics" / "车辆台账.csv").open(encoding="utf-8") as fh:
        ningbo = sum(r["所属分拨中心"] == "宁波" and r["状态"] == "在用" for r in csv.DictReader(fh))
    assert next(x for x in report if x["id"] == "rp-034")["answers"][0] == f"{ningbo}辆"


BLIND = ORGDOCS.parent / "orgdocs_blind"


def test_the_second_blind_set_is_consistent_and_its_sums_match_the_csv_files() -> None:
    """orgdocs_blind: two more organisations and 60 questions a helper wrote without reading the code; odd ids are
    the development half, even ids the report half; its computed answers checked against the files as committed."""
    qs = load_questions(BLIND, "all")
    assert len(qs) == 60 and {x["org"] for x in qs} == {"xingyao-software", "ciji-hospital"}
    assert all(x["split"] == ("dev" if int(x["id"][3:]) % 2 else "held") for x in qs)
    assert {p.suffix for fs in org_files(BLIND).values() for p in fs} >= {".md", ".html", ".docx", ".csv", ".pdf"}
    for x in qs:
        assert x["decline"] == (x["kind"] == "near_miss"), x["id"]
        assert not set(x["answers"]) & set(x.get("must_not") or []), x["id"]
    with (BLIND / "ciji-hospital" / "门诊收费项目.csv").open(encoding="utf-8") as fh:
        price = {r["项目名称"]: int(r["单价（元）"]) for r in csv.DictReader(fh)}
    assert next(x for x in qs if x["id"] == "bx-045")["answers"][0] == str(
        price["血常规"] + price["尿常规"] + price["肝功能（8项）"])


BLIND2 = ORGDOCS.parent / "orgdocs_blind2"


def test_the_third_blind_set_is_consistent_and_its_sums_match_the_csv_files() -> None:
    """orgdocs_blind2: a city service centre (Chinese) and a trading company (English), 60 questions and 12 chains a
    helper wrote without reading the code; odd ids the development half, even ids the report half."""
    qs = load_questions(BLIND2, "all")
    assert len(qs) == 60 and {x["org"] for x in qs} == {"nanhu-service-center", "harbourline-trading"}
    assert all(x["split"] == ("dev" if int(x["id"][3:]) % 2 else "held") for x in qs)
    assert {p.suffix for fs in org_files(BLIND2).values() for p in fs} >= {".md", ".html", ".docx", ".csv", ".pdf"}
    for x in qs:
        assert x["decline"] == (x["kind"] == "near_miss"), x["id"]
        assert not set(x["answers"]) & set(x.get("must_not") or []), x["id"]
    with (BLIND2 / "harbourline-trading" / "price_list_2026.csv").open(encoding="utf-8") as fh:
        stock = sum(int(r["stock_qty"]) for r in csv.DictReader(fh) if r["category"] == "Lighting")
    assert str(stock) in next(x for x in qs if x["id"] == "bz-045")["answers"]


BLIND3 = ORGDOCS.parent / "orgdocs_blind3"


def test_the_fourth_blind_set_is_consistent_and_its_count_matches_the_csv_file() -> None:
    """orgdocs_blind3: a vocational college (Chinese) and a logistics company (English), 60 questions and 12
    chains a helper wrote without reading the code; odd ids the development half, even ids the report half."""
    qs = load_questions(BLIND3, "all")
    assert len(qs) == 60 and {x["org"] for x in qs} == {"qinghe-vocational-college", "northwind-logistics"}
    assert all(x["split"] == ("dev" if int(x["id"][3:]) % 2 else "held") for x in qs)
    assert {p.suffix for fs in org_files(BLIND3).values() for p in fs} >= {".md", ".html", ".docx", ".csv", ".pdf"}
    assert sum(x["cross_language"] for x in qs) == 12
    for x in qs:
        assert x["decline"] == (x["kind"] == "near_miss"), x["id"]
        assert not set(x["answers"]) & set(x.get("must_not") or []), x["id"]
    with (BLIND3 / "northwind-logistics" / "fleet.csv").open(encoding="utf-8") as fh:
        electric = sum(r["fuel"] == "Electric" for r in csv.DictReader(fh))
    assert f"{electric} vehicles" in next(x for x in qs if x["id"] == "cq-041")["answers"]


BLIND4 = ORGDOCS.parent / "orgdocs_blind4"


def test_the_fifth_blind_set_is_consistent_and_its_count_matches_the_csv_file() -> None:
    """orgdocs_blind4: a property-management company (Chinese) and a hotel group (English), 60 questions and 12
    chains a helper wrote without reading the code; odd ids the development half, even ids the report half."""
    qs = load_questions(BLIND4, "all")
    assert len(qs) == 60 and {x["org"] for x in qs} == {"lanting-property", "kestrelmoor-hotels"}
    assert all(x["split"] == ("dev" if int(x["id"][3:]) % 2 else "held") for x in qs)
    assert {p.suffix for fs in org_files(BLIND4).values() for p in fs} >= {".md", ".html", ".docx", ".csv", ".pdf"}
    assert sum(x["cross_language"] for x in qs) == 12
    for x in qs:
        assert x["decline"] == (x["kind"] == "near_miss"), x["id"]
    with (BLIND4 / "lanting-property" / "员工花名册.csv").open(encoding="utf-8") as fh:
        guards = sum(r["部门"] == "秩序维护部" for r in csv.DictReader(fh))
    assert f"{guards}人" in next(x for x in qs if x["id"] == "pq-011")["answers"]
