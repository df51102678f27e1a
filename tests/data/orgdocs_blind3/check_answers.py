"""Check the gold answers of orgdocs_blind3 against the generated documents (CC0).

    python tests/data/orgdocs_blind3/check_answers.py

Needs python-docx and pypdf. Extracts the text of every file (HTML with tags stripped, DOCX paragraphs
and table cells, PDF via pypdf), then for every question and chain turn checks its evidence: the passage
it rests on appears in the named file, computed answers are recomputed from the CSVs and compared with the
gold value, and the asked-for fact of every near miss is absent from its collection. Exits 1 on a failure.
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QH, NW = "qinghe-vocational-college", "northwind-logistics"


def extract(p: Path) -> str:
    if p.suffix in (".md", ".csv"):
        return p.read_text(encoding="utf-8")
    if p.suffix == ".html":
        t = re.sub(r"<[^>]+>", " ", p.read_text(encoding="utf-8"))
        return html.unescape(t)
    if p.suffix == ".docx":
        from docx import Document
        d = Document(str(p))
        parts = [x.text for x in d.paragraphs]
        for tb in d.tables:
            for row in tb.rows:
                parts.append(" | ".join(c.text for c in row.cells))
        return "\n".join(parts)
    if p.suffix == ".pdf":
        from pypdf import PdfReader
        return "\n".join(pg.extract_text() for pg in PdfReader(str(p)).pages)
    raise ValueError(p)


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (QH, NW)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


STAFF_QH = rows(QH, "教职工名册.csv")
COURSES = rows(QH, "课程目录.csv")
FLEET = rows(NW, "fleet.csv")
WS = rows(NW, "warehouse_staff.csv")

FEES, DORM, EXAM, PAY = ("学生收费标准（2026-2027学年）.html", "学生宿舍管理规定.md", "考试与补考管理办法.docx",
                         "教师课时津贴与教龄津贴标准.docx")
S24, S26 = "学生奖学金评定办法（2024版）.pdf", "学生奖学金评定办法（2026版）.pdf"
RATES, OT, SAFE, D24, D26 = ("Rate_Card_2026.html", "Overtime_and_Shift_Allowances.md", "Warehouse_Safety_Rules.pdf",
                             "Driver_Policy_2024.docx", "Driver_Policy_2026.docx")


def teach_allow(years: int) -> int:
    return 500 if years >= 20 else 350 if years >= 10 else 200 if years >= 5 else 100 if years >= 1 else 0


def completed_years(start: str, on: dt.date) -> int:
    s = dt.date.fromisoformat(start)
    y = on.year - s.year - ((on.month, on.day) < (s.month, s.day))
    return y


def long_service(years: int) -> int:
    return 750 if years >= 15 else 500 if years >= 10 else 300 if years >= 5 else 150 if years >= 3 else 0


def band_rate(kg: float, zone: str) -> float:
    table = {2: (4.20, 5.10, 6.40, 9.80), 5: (5.30, 6.60, 8.20, 12.50), 10: (6.90, 8.70, 10.90, 16.40),
             20: (9.40, 11.80, 14.60, 22.00), 30: (12.80, 15.90, 19.70, 29.50)}
    for top, r in table.items():
        if kg <= top:
            return r["ABCD".index(zone)]
    raise ValueError(kg)


# computed values: id -> (value, gold)
def computed() -> dict:
    c = {}
    c["cq-011"] = (sum(r["班主任"] == "是" for r in STAFF_QH), 10)
    yh = [int(r["教龄"]) for r in STAFF_QH if r["系部"] == "医药护理系" and r["岗位类型"] == "专任教师"]
    c["cq-012"] = (round(sum(yh) / len(yh), 1), 13.4)
    c["cq-013"] = (sum(r["开课学期"] == "3" for r in COURSES), 10)
    c["cq-014"] = (sum(int(r["学分"]) for r in COURSES if r["课程类型"] == "实训课"), 28)
    plc = next(r for r in COURSES if r["课程名称"] == "PLC编程与应用实训")
    c["cq-015"] = (int(plc["学分"]) * {"理论课": 90, "理实一体课": 110, "实训课": 130}[plc["课程类型"]], 390)
    c["cq-016"] = (sum(teach_allow(int(r["教龄"])) for r in STAFF_QH
                       if r["系部"] == "财经商贸系" and r["岗位类型"] == "专任教师"), 1500)
    c["cq-017"] = (5400, 5400)  # 2024 entrant -> column 2025级及以前, 理工类
    c["cq-018"] = (round(5800 * 0.9), 5220)
    c["cq-019"] = (38, 38)  # 期末 38 < 40 -> 总评 = 卷面; formula would give 0.4*95+0.6*38 = 60.8
    qy = next(r for r in STAFF_QH if r["姓名"] == "秦月")
    c["cq-022"] = (600 + (100 if int(qy["带班人数"]) > 45 else 0), 700)
    c["cq-041"] = (sum(r["fuel"] == "Electric" for r in FLEET), 6)
    c["cq-042"] = (sum(r["depot"] == "Glasgow" and r["status"] != "Active" for r in FLEET), 4)
    vol = 60 * 40 * 40 / 5000
    c["cq-043"] = (band_rate(max(8, vol), "B"), 11.80)
    c["cq-044"] = (sum(r["depot"] == "Bristol" and r["forklift_licence"] == "Yes" for r in WS), 4)
    c["cq-045"] = (min(WS, key=lambda r: r["start_date"])["name"], "Daisy Lowe")
    c["cq-046"] = (round(40 * 2.65, 2), 106.00)
    c["cq-047"] = (round(band_rate(3, "D") + 6.00, 2), 18.50)
    c["cq-048"] = (round(band_rate(15, "A") * 0.9, 2), 8.46)
    nr = next(r for r in WS if r["name"] == "Nadia Rahman")
    c["cq-049"] = ({("Night", "W3"): 2.65}.get((nr["shift"], nr["grade"])), 2.65)
    cb = next(r for r in WS if r["name"] == "Connor Byrne")
    c["cq-050"] = (long_service(completed_years(cb["start_date"], dt.date(2026, 12, 1))), 500)
    # chains
    c["cv-qh-02"] = (1500 // 2, 750)
    c["cv-qh-05"] = (round(5800 * 0.9), 5220)
    cc = next(r for r in COURSES if r["课程名称"] == "职业生涯规划")
    w = {"考查": (0.5, 0.5), "考试": (0.4, 0.6)}[cc["考核方式"]]
    c["cv-qh-06"] = (round(w[0] * 70 + w[1] * 76), 73)
    zy = next(r for r in STAFF_QH if r["姓名"] == "周雅琴")
    c["cv-qh-04"] = ((zy["职称"], teach_allow(int(zy["教龄"]))), ("副教授", 350))
    c["cv-nw-01"] = ((band_rate(12, "B"), band_rate(12, "C"), round(band_rate(12, "C") + 7.50, 2)),
                     (11.80, 14.60, 22.10))
    h3 = next(r for r in FLEET if r["vehicle_id"] == "NW-H03")
    c["cv-nw-04"] = ((h3["type"], h3["payload_kg"]), ("Rigid 18 t", "9500"))
    c["cv-nw-05"] = ((cb["depot"], long_service(completed_years(cb["start_date"], dt.date(2026, 12, 1)))),
                     ("Northampton", 500))
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "cq-001": [(DORM, "空调遥控器押金50元")],
    "cq-002": [(EXAM, "开考15分钟后不得进入考场")],
    "cq-003": [(S24, "公示5个工作日"), (S26, "公示5个工作日")],
    "cq-004": [(FEES, "须在每学年9月15日前缴清")],
    "cq-005": [(FEES, "护理、药学、康复治疗技术 6200")],
    "cq-006": [(FEES, "6人间 3号楼、4号楼、5号楼 上床下桌、独立卫浴、空调 1200")],
    "cq-007": [(PAY, "副教授 | 100 | 105 | 110")],
    "cq-008": [(DORM, "| 周五、周六及法定节假日前一天 | 6:00 | 23:30 |")],
    "cq-009": [(EXAM, "80–89 | 良好 | 3.0")],
    "cq-010": [(DORM, "| 3–4次 | 系部通报批评，并通知家长 |")],
    "cq-015": [(EXAM, "实训课 | 130")],
    "cq-016": [(PAY, "满20年及以上 | 500")],
    "cq-017": [(FEES, "计算机应用技术、建筑工程技术 5800 5400"), (FEES, "2025年及以前入学的在校生按“2025级及以前”一栏收费")],
    "cq-018": [(FEES, "除最先入学的一名子女外，其余子女的学费优惠10%")],
    "cq-019": [(EXAM, "期末卷面成绩低于40分的，不按第二条折算，总评成绩直接记为期末卷面成绩")],
    "cq-020": [(EXAM, "补考成绩及格的，该课程总评成绩一律按60分记载")],
    "cq-021": [(DORM, "参加学院组织的技能竞赛集训的学生免收留宿费")],
    "cq-022": [(PAY, "班主任津贴每月600元；所带班级学生人数超过45人的，每月加发100元")],
    "cq-027": [(S26, "一等奖学金：每人4000元"), (S26, "《青禾职业技术学院学生奖学金评定办法（2024版）》同时废止"),
               (S24, "一等奖学金：每人3000元")],
    "cq-028": [(S26, "获得省级职业技能竞赛一等奖的，每人奖励2800元"), (S24, "获得省级职业技能竞赛一等奖的，每人奖励2000元")],
    "cq-029": [(DORM, "禁止在宿舍内使用电饭锅、电炒锅、电热水壶")],
    "cq-030": [(PAY, "外聘教师和行政人员不享受教龄津贴")],
    "cq-031": [(RATES, "Compensation for loss or damage is limited to £100 per parcel")],
    "cq-032": [(SAFE, "6 km/h inside the warehouse")],
    "cq-033": [(SAFE, "Refresher training is required every 3 years")],
    "cq-034": [(SAFE, "Headphones and earbuds are not allowed in operational areas")],
    "cq-035": [(RATES, "2.01 – 5 kg £5.30 £6.60")],
    "cq-036": [(RATES, "Half pallet (up to 500 kg) £49.00 £59.00 £74.00")],
    "cq-037": [(OT, "| Evening | 14:00–22:00 | £1.10 | £1.35 |")],
    "cq-038": [(OT, "| Sunday | 2 × basic hourly rate |")],
    "cq-039": [(D26, "Rigid 7.5 t | C1"), (D24, "Rigid 7.5 t | C1")],
    "cq-040": [(RATES, "except the postcode areas listed under Zone D 1–2 working days")],
    "cq-043": [(RATES, "divided by 5,000")],
    "cq-047": [(RATES, "postcode areas IV, PH, KW, HS and ZE"), (RATES, "Island surcharge: £6.00 per parcel for the HS and ZE")],
    "cq-048": [(RATES, "Registered charities: 10% off parcel and pallet rates")],
    "cq-049": [(OT, "| Night | 22:00–06:00 | £2.20 | £2.65 |")],
    "cq-050": [(OT, "| 10 to 14 years | £500 |")],
    "cq-051": [(SAFE, "under 18, and employees who have told their manager that they are pregnant, may not lift more than 16 kg alone")],
    "cq-052": [(D26, "Night out with a hotel booked and paid by the company | £15 per night"),
               (D24, "Night out with a hotel booked and paid by the company | £11 per night")],
    "cq-057": [(D26, "£38 per night"), (D24, "£32 per night"), (D26, "It replaces the Driver Hours and Vehicle Use Policy (2024)")],
    "cq-058": [(D26, "immediately, and in any case within 1 hour"), (D24, "within 2 hours")],
    "cq-059": [(RATES, "Pre-10:30 next-day delivery: £5.00 per parcel, Zones A and B only"), (RATES, "IV, PH, KW")],
    "cq-060": [(OT, "They do not receive overtime pay or shift allowances; extra hours are given back as time off in lieu")],
    "cv-qh-01": [(FEES, "视觉传达设计、数字媒体艺术设计、音乐表演 8000 7500")],
    "cv-qh-02": [(FEES, "4人间 1号楼、2号楼 上床下桌、独立卫浴、空调 1500"), (FEES, "最低生活保障家庭学生）可申请住宿费减半")],
    "cv-qh-03": [(EXAM, "补考安排在下一学期开学第2周进行"), (EXAM, "总评成绩一律按60分记载"),
                 (EXAM, "缓考成绩按实际卷面成绩与平时成绩折算后记载，不受60分的限制")],
    "cv-qh-04": [(PAY, "副教授 | 100 | 105 | 110"), (PAY, "满10年不满20年 | 350")],
    "cv-qh-06": [(EXAM, "考查 | 50% | 50%")],
    "cv-nw-02": [(OT, "| Night | 22:00–06:00 | £2.20 | £2.65 |")],
    "cv-nw-03": [(OT, "| Saturday | 1.75 × basic hourly rate |"), (OT, "| Bank holiday | 2.5 × basic hourly rate |")],
    "cv-nw-04": [(D26, "Rigid 18 t | C | 2 years")],
    "cv-nw-01": [(RATES, "Saturday delivery: £7.50 per consignment, Zones A to C only")],
    "cv-nw-06": [(D26, "Tractor unit (articulated) | C+E | 2 years | 23"), (D24, "Tractor unit (articulated) | C+E | 3 years | 25")],
}

# near misses: strings whose presence anywhere in the collection would answer the question
ABSENT = {
    "cq-023": [(QH, "2027级"), (QH, "2027年秋季入学"), (QH, "2027年入学")],
    "cq-024": [(QH, "国家奖学金"), (QH, "国奖")],
    "cq-025": [(QH, "监考")],
    "cq-026": [(QH, "2人间"), (QH, "双人间"), (QH, "两人间"), (QH, "二人间")],
    "cq-053": [(NW, "Sunday delivery"), (NW, "Sunday"), (NW, "sunday")],
    "cq-054": [(NW, "per hour basic"), (NW, "basic rate of £"), (NW, "basic hourly rate of"), (NW, "basic pay is")],
    "cq-055": [(NW, "2025 rate"), (NW, "Rate Card 2025"), (NW, "RC-2025")],
    "cq-056": [(NW, "Jersey"), (NW, "Channel Islands"), (NW, "JE")],
}


def main() -> int:
    fails = 0
    qs = [json.loads(x) for x in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    chains = [json.loads(x) for x in (HERE / "chains.jsonl").read_text(encoding="utf-8").splitlines()]
    comp = computed()
    for k, (val, gold) in comp.items():
        ok = val == gold
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL'} computed {k}: {val!r} (gold {gold!r})")
    for k, ev in EVIDENCE.items():
        org = QH if k.startswith(("cq-0", "cv-qh")) and (k.startswith("cv-qh") or int(k[3:]) <= 30) else NW
        for fname, needle in ev:
            ok = has(org, fname, needle)
            fails += not ok
            if not ok:
                print(f"FAIL evidence {k}: {needle!r} not in {fname}")
    for k, ab in ABSENT.items():
        for org, needle in ab:
            hits = [f for f, t in TEXT[org].items() if needle in t]
            if needle == "Sunday":  # only the overtime table may mention Sunday (pay, not delivery)
                hits = [f for f in hits if f != OT]
            if needle == "JE":
                hits = [f for f in hits if re.search(r"\bJE\d", TEXT[org][f])]
            fails += bool(hits)
            if hits:
                print(f"FAIL near miss {k}: {needle!r} found in {hits}")
    # every question and turn is covered; decline iff near_miss; a gold string appears verbatim where possible
    for r in qs:
        k = r["id"]
        assert r["decline"] == (r["kind"] == "near_miss") and (r["answers"] == []) == r["decline"], k
        assert r["split"] == ("dev" if int(k[3:]) % 2 else "held"), k
        if r["decline"]:
            assert k in ABSENT, k
            continue
        assert k in EVIDENCE or k in comp, f"no evidence for {k}"
        allt = norm(" ".join(TEXT[r["org"]].values()))
        verb = [a for a in r["answers"] if norm(a) and norm(a) in allt]
        for m in r["must_not"]:
            assert m not in r["answers"], (k, m)
        print(f"ok   {k} {r['kind']:<13} verbatim: {verb[:3] if verb else '(derived: ' + str(comp.get(k, ('see evidence',))[0]) + ')'}")
    for c in chains:
        assert c["id"] in EVIDENCE or c["id"] in comp, f"no evidence for {c['id']}"
        assert c["split"] == ("dev" if int(c["id"][-2:]) % 2 else "held"), c["id"]
        assert 2 <= len(c["turns"]) <= 3
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
