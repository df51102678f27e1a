"""Check the gold answers of orgdocs_blind4 against the generated documents (CC0).

    python tests/data/orgdocs_blind4/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, computed answers are recomputed from the CSVs
and the gold value must appear among the gold answer strings, and the asked-for fact of every near miss is
absent from its collection. Exits 1 on a failure.
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
LT, KH = "lanting-property", "kestrelmoor-hotels"


def _pdf_text(p: Path) -> str:
    try:
        from pypdf import PdfReader
        return "\n".join(pg.extract_text() for pg in PdfReader(str(p)).pages)
    except ImportError:
        import pypdfium2 as pdfium
        doc = pdfium.PdfDocument(str(p))
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))


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
        return _pdf_text(p)
    raise ValueError(p)


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (LT, KH)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


FEES, PARK, REPAIR, ALLOW = ("物业服务收费标准（2026年度）.html", "停车场管理办法.md", "报修与维修服务规范.docx",
                             "员工考勤与补贴办法.docx")
R23, R26 = "装修管理规定（2023版）.pdf", "装修管理规定（2026版）.pdf"
RATES, CLUB, C24, C26, HB = ("Room_Rates_2026.html", "Kestrel_Club_Membership.md", "Cancellation_Policy_2024.docx",
                             "Cancellation_Policy_2026.docx", "Staff_Handbook_Pay_and_Leave.pdf")

STAFF_LT = rows(LT, "员工花名册.csv")
UNITS = rows(LT, "房屋台账.csv")
ROSTER = rows(KH, "staff_roster.csv")
ROOMS = rows(KH, "room_inventory.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
PM_FEE = {  # 物业类型 -> (江畔花园, 云溪苑, 枫林里), 元/平方米·月
    "多层住宅": ("1.20", "1.35", "—"), "小高层住宅": ("1.80", "1.95", "—"), "高层住宅": ("2.10", "—", "2.30"),
    "联排别墅": ("—", "3.20", "—"), "商铺": ("—", "4.50", "5.80"),
}
PROJECTS = ("江畔花园", "云溪苑", "枫林里")
FLOOR = [("1–2层", 1, 2, 0, 0), ("3–11层", 3, 11, 25, 8), ("12–20层", 12, 20, 35, 12), ("21层及以上", 21, 999, 45, 15)]
SENIORITY = [("不满1年", 0, 0), ("满1年不满3年", 1, 100), ("满3年不满5年", 3, 200), ("满5年不满10年", 5, 300),
             ("满10年及以上", 10, 450)]
CERT = {"电工证": 150, "电梯作业证（特种设备作业人员证）": 200, "消防设施操作员证": 100}
ROOM_RATE = {"Classic Double": (89, 115, 149), "Superior Double": (109, 139, 179), "Family Room": (129, 159, 209),
             "Junior Suite": (169, 209, 269)}
SLEEPS = {"Classic Double": "2", "Superior Double": "2", "Family Room": "2 adults + 2 children",
          "Junior Suite": "3 (with extra bed)"}
LOYALTY = [("Less than 2 years", 0, "none"), ("2 to 4 years", 2, "1 extra day"), ("5 to 9 years", 5, "3 extra days"),
           ("10 years or more", 10, "5 extra days")]

TABLE_ROWS = (
    [(LT, FEES, f"{k} {' '.join(v)}") for k, v in PM_FEE.items()]
    + [(LT, FEES, f"{name} {e} {w}") for name, _, _, e, w in FLOOR]
    + [(LT, ALLOW, f"{name} | {v}") for name, _, v in SENIORITY]
    + [(LT, ALLOW, f"{k} | {v}") for k, v in CERT.items()]
    + [(KH, RATES, f"{k} {SLEEPS[k]} {' '.join(f'£{x:d}' for x in v)}") for k, v in ROOM_RATE.items()]
    + [(KH, HB, f"{name} {days}") for name, _, days in LOYALTY]
)


def pm_rate(project: str, kind: str) -> float:
    return float(PM_FEE[kind][PROJECTS.index(project)])


def floor_fees(floor: int) -> tuple[int, int]:
    return next((e, w) for _, lo, hi, e, w in FLOOR if lo <= floor <= hi)


def completed_years(start: str, on: dt.date) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


def seniority(years: int) -> int:
    return [v for _, lo, v in SENIORITY if years >= lo][-1]


def cert_allow(certs: str) -> int:
    vals = {"电工证": 150, "电梯作业证": 200, "消防设施操作员证": 100}
    return max([vals[c] for c in certs.split("+") if c in vals], default=0)


def loyalty_days(years: int, contract: str) -> int:
    if contract == "Seasonal":
        return 0
    return [int(d[0]) if d[0].isdigit() else 0 for _, lo, d in LOYALTY if years >= lo][-1]


def season(day: dt.date) -> int:  # 0 Low, 1 Mid, 2 High (2026 rate sheet)
    m, d = day.month, day.day
    if m in (7, 8) or (m == 12 and d >= 20) or (m == 1 and d <= 4):
        return 2
    if m in (4, 5, 6, 9, 10):
        return 1
    return 0


def stay_cost(room_type: str, arrive: dt.date, nights: int, hotel: str = "Harbour") -> float:
    total = 0
    for i in range(nights):
        s = 1 if hotel == "City" else season(arrive + dt.timedelta(days=i))
        total += ROOM_RATE[room_type][s]
    return total


def temp_parking(hours: float) -> int:
    if hours <= 0.5:
        return 0
    fee = 5 + 2 * max(0, -(-(hours - 2) // 1))
    return int(min(fee, 25))


NEW_YEAR = dt.date(2026, 1, 1)


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    n = sum(r["部门"] == "秩序维护部" for r in STAFF_LT)
    c["pq-011"] = (n, 8, "8人")
    n = sum("电工证" in r["持证"] for r in STAFF_LT)
    c["pq-012"] = (n, 5, "5人")
    n = sum(r["使用状态"] == "空置" for r in UNITS)
    c["pq-013"] = (n, 7, "7套")
    n = sum(int(r["租用车位数"]) for r in UNITS)
    c["pq-014"] = (n, 14, "14 in total")
    u = next(r for r in UNITS if r["项目"] == "江畔花园" and r["房号"] == "11-1502")
    v = round(float(u["建筑面积(㎡)"]) * pm_rate(u["项目"], u["物业类型"]) + sum(floor_fees(int(u["所在楼层"]))), 2)
    c["pq-015"] = (v, 316.64, "316.64元")
    v = sum(seniority(completed_years(r["入职日期"], NEW_YEAR)) for r in STAFF_LT if r["部门"] == "客服部")
    c["pq-016"] = (v, 2000, "2000元")
    u = next(r for r in UNITS if r["项目"] == "云溪苑" and r["房号"] == "10-901")
    assert u["使用状态"] == "空置"
    v = round(float(u["建筑面积(㎡)"]) * pm_rate(u["项目"], u["物业类型"]) * 0.7, 2)
    c["pq-017"] = (v, 163.8, "163.8元")
    u = next(r for r in UNITS if r["项目"] == "枫林里" and r["房号"] == "S-02")
    assert u["物业类型"] == "商铺"  # 商铺: no 95% for prepaying the year
    v = round(float(u["建筑面积(㎡)"]) * pm_rate(u["项目"], u["物业类型"]) * 12, 2)
    c["pq-018"] = (v, 5568, "5568元")
    c["pq-019"] = (30 * 1.5, 45, "45元")  # 工作日18:00–22:00 人工费加收50%
    pt = next(r for r in STAFF_LT if r["姓名"] == "彭涛")
    c["pq-022"] = (cert_allow(pt["持证"]), 200, "200元")
    c["pq-041"] = (sum(r["hotel"] == "Harbour" and r["view"] == "Sea" for r in ROOMS), 5, "5 rooms")
    c["pq-042"] = (sum(r["pet_friendly"] == "Yes" and r["status"] == "In service" for r in ROOMS), 9, "9 rooms")
    fa = sum(r["hotel"] == "Abbey" and r["first_aider"] == "Yes" for r in ROSTER)
    c["pq-043"] = (fa * 15, 60, "£60")
    c["pq-044"] = (sum(r["hotel"] == "Lakes" and r["contract"] == "Part-time" for r in ROSTER), 3, "3名")
    c["pq-045"] = (min((r for r in ROSTER if r["hotel"] == "City"), key=lambda r: r["start_date"])["name"],
                   "Tessa Goodwin", "Tessa Goodwin")
    h = next(r for r in ROOMS if r["room_no"] == "H-204")
    c["pq-046"] = (stay_cost(h["room_type"], dt.date(2026, 5, 12), 2, h["hotel"]), 278, "£278")
    c["pq-047"] = (round(stay_cost("Classic Double", dt.date(2026, 5, 4), 7, "Abbey") * 0.9, 2), 724.5, "£724.50")
    c["pq-048"] = (stay_cost("Classic Double", dt.date(2026, 8, 10), 1, "City"), 115, "£115")
    c["pq-052"] = (stay_cost("Classic Double", dt.date(2026, 6, 30), 2, "Harbour"), 264, "£264")
    # chains
    c["cv-pm-02"] = ((floor_fees(18), sum(floor_fees(21))), ((35, 12), 60), "60元")
    c["cv-pm-03"] = ((temp_parking(5), temp_parking(20)), (11, 25), "25元")
    hm = next(r for r in STAFF_LT if r["姓名"] == "韩梅")
    c["cv-pm-04"] = ((hm["入职日期"][:4], seniority(completed_years(hm["入职日期"], NEW_YEAR)), cert_allow(hm["持证"])),
                     ("2020", 300, 100), "100元")
    u = next(r for r in UNITS if r["项目"] == "云溪苑" and r["房号"] == "8-602")
    c["cv-pm-06"] = ((u["建筑面积(㎡)"], round(float(u["建筑面积(㎡)"]) * pm_rate(u["项目"], u["物业类型"]), 2)),
                     ("96.40", 187.98), "187.98元")
    l5 = next(r for r in ROOMS if r["room_no"] == "L-105")
    c["cv-kh-04"] = ((l5["room_type"], l5["pet_friendly"], 20), ("Family Room", "Yes", 20), "£20")
    md = next(r for r in ROSTER if r["name"] == "Megan Doyle")
    c["cv-kh-05"] = ((md["department"], loyalty_days(completed_years(md["start_date"], NEW_YEAR), md["contract"])),
                     ("Housekeeping", 3), "3 days")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "pq-001": [(PARK, "地下车库限高2.1米")],
    "pq-002": [(REPAIR, "维修完成后，客服中心在48小时内电话回访")],
    "pq-003": [(R23, "业主须在开工前3个工作日到项目客服中心办理装修登记"), (R26, "业主须在开工前3个工作日到项目客服中心办理装修登记")],
    "pq-004": [(FEES, "业主须在每季度第一个月的15日前（即1月、4月、7月、10月的15日前）缴清当季费用")],
    "pq-005": [(FEES, "小高层住宅 1.80 1.95 —")],
    "pq-006": [(PARK, "| 地下固定车位（租用） | 300 | 350 |")],
    "pq-007": [(FEES, "12–20层 35 12")],
    "pq-008": [(REPAIR, "疏通下水道（户内） | 80"), (REPAIR, "工作日8:00–18:00上门的，按上表收费")],
    "pq-009": [(REPAIR, "紧急维修 | 水管爆裂、电梯困人、燃气泄漏、整户停电 | 5分钟内 | 15分钟内")],
    "pq-010": [(PARK, "| 超过30分钟，不超过2小时 | 5元 |")],
    "pq-011": [],
    "pq-012": [],
    "pq-013": [],
    "pq-014": [],
    "pq-015": [(FEES, "高层住宅 2.10 — 2.30"), (FEES, "12–20层 35 12")],
    "pq-016": [(ALLOW, "以每年1月1日已满的整年数确定当年的补贴标准")],
    "pq-017": [(FEES, "连续空置满6个月的，业主可书面申报，经客服中心上门核实后，空置期间的物业服务费按70%收取")],
    "pq-018": [(FEES, "一次性预缴全年（12个月）物业服务费的，按应缴金额的95%收取；商铺不享受此项优惠")],
    "pq-019": [(REPAIR, "更换水龙头 | 30"), (REPAIR, "工作日18:00–22:00，以及周六、周日和法定节假日上门的，人工费加收50%")],
    "pq-020": [(REPAIR, "房屋交付之日起2年内为保修期"), (REPAIR, "由开发商负责免费维修")],
    "pq-021": [(PARK, "电动自行车禁止进入电梯、楼道和地下停车场")],
    "pq-022": [(ALLOW, "同时持有多项证书的，只按其中最高的一项发放，不累计")],
    "pq-027": [(R26, "住宅（多层、小高层、高层） 3000 12"), (R23, "住宅（多层、小高层、高层） 2000 10"),
               (R26, "《澜庭物业装修管理规定（2023版）》同时废止")],
    "pq-028": [(R26, "住宅（多层、小高层、高层） 3000 12"), (R23, "住宅（多层、小高层、高层） 2000 10")],
    "pq-029": [(REPAIR, "公共部位和共用设施设备的维修不向业主收费")],
    "pq-030": [(PARK, "按年一次缴纳12个月租金的，只收取11个月的租金")],
    "pq-031": [(RATES, "Check-in is from 15:00"), (C24, "Rooms are available from 15:00"), (C26, "Rooms are available from 15:00")],
    "pq-032": [(CLUB, "Points expire 24 months after the last stay or redemption")],
    "pq-033": [(HB, "receive £15 per month")],
    "pq-034": [(RATES, "Parking at Kestrelmoor Lakes and Kestrelmoor City is free")],
    "pq-035": [(RATES, "Superior Double 2 £109 £139 £179")],
    "pq-036": [(RATES, "Family Room 2 adults + 2 children £129 £159 £209"), (RATES, "High 1 July – 31 August")],
    "pq-037": [(CLUB, "| Silver | £45 |")],
    "pq-038": [(RATES, "13:01 – 16:00 50% of the night's room rate")],
    "pq-039": [(CLUB, "| 12,000 | One free night in a Classic Double, any season |")],
    "pq-040": [(RATES, "Full breakfast, child aged 5 to 12 £7.00 per child per day")],
    "pq-041": [],
    "pq-042": [],
    "pq-043": [(HB, "recorded as first aider in the staff roster, receive £15 per month")],
    "pq-044": [],
    "pq-045": [],
    "pq-046": [(RATES, "Mid 1 April – 30 June")],
    "pq-047": [(RATES, "a booking of 7 nights or more gets 10% off the room rate")],
    "pq-048": [(RATES, "the Mid column applies to every night there, whatever the season")],
    "pq-049": [(C26, "Bookings made before 1 February 2026 keep the terms of the 2024 policy"),
               (C24, "More than 48 hours before 15:00 on the arrival date | No charge")],
    "pq-050": [(RATES, "Full breakfast, adult (13 and over) £14.50 per person per day")],
    "pq-051": [(RATES, "Kestrel Club Gold members may check out as late as 13:00 at no charge"), (RATES, "11:01 – 13:00 £25")],
    "pq-052": [(RATES, "a stay that runs across two seasons is charged night by night")],
    "pq-057": [(C26, "More than 72 hours before 15:00 on the arrival date | No charge"),
               (C24, "More than 48 hours before 15:00 on the arrival date | No charge"),
               (C26, "replaces the Cancellation and Deposit Policy (2024)")],
    "pq-058": [(C26, "A deposit of 25% of the total room cost"), (C24, "A deposit of 20% of the total room cost")],
    "pq-059": [(CLUB, "Bookings made through online travel agents get no member discount")],
    "pq-060": [(RATES, "Discounts cannot be combined with each other"), (CLUB, "the guest gets whichever is larger")],
    "cv-pm-01": [(FEES, "多层住宅 1.20 1.35 —")],
    "cv-pm-02": [(FEES, "21层及以上 45 15")],
    "cv-pm-03": [(PARK, "| 超过2小时的部分 | 每小时2元，不足1小时按1小时计 |"), (PARK, "| 24小时内累计收费上限 | 25元 |")],
    "cv-pm-04": [(ALLOW, "消防设施操作员证 | 100")],
    "cv-pm-05": [(R26, "联排别墅 8000 12"), (R26, "商铺 6000 15"), (R23, "联排别墅 5000 10")],
    "cv-pm-06": [(FEES, "小高层住宅 1.80 1.95 —")],
    "cv-kh-01": [(RATES, "Classic Double 2 £89 £115 £149")],
    "cv-kh-02": [(CLUB, "| Silver | £45 | 10 or more qualifying nights in the previous calendar year | 10% |"),
                 (CLUB, "| Gold | £120 | 25 or more qualifying nights in the previous calendar year | 15% |")],
    "cv-kh-03": [(RATES, "11:01 – 13:00 £25"), (RATES, "After 16:00 A full night's room rate")],
    "cv-kh-04": [(RATES, "Dog £20 per dog per stay Pet-friendly rooms only")],
    "cv-kh-05": [(HB, "Loyalty days are the same for full-time and part-time staff")],
    "cv-kh-06": [(C26, "confirmed 21 days before arrival"), (C24, "confirmed 14 days before arrival"),
                 (C26, "The Advance Saver rate is 12% below the flexible rate"),
                 (C24, "The Advance Saver rate is 10% below the flexible rate")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "pq-023": [(LT, "2027")],
    "pq-024": [(LT, "摩托")],
    "pq-025": [(LT, "空调")],
    "pq-026": [(LT, "基本工资"), (LT, "底薪"), (LT, "月薪"), (LT, "工资标准"), (LT, "岗位工资"), (LT, "工资为")],
    "pq-053": [(KH, "re:(?i)penthouse"), (KH, "re:(?i)presidential")],
    "pq-054": [(KH, "re:(?i)platinum"), (KH, "白金")],
    "pq-055": [(KH, "re:(?i)airport"), (KH, "re:(?i)shuttle")],
    "pq-056": [(KH, r"re:(?i)\bcots?\b"), (KH, "re:(?i)crib"), (KH, "re:(?i)infant")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return LT if k.startswith("cv-pm") else KH
    return LT if int(k[3:]) <= 30 else KH


def main() -> int:
    fails = 0
    qs = [json.loads(x) for x in (HERE / "questions.jsonl").read_text(encoding="utf-8").splitlines()]
    chains = [json.loads(x) for x in (HERE / "chains.jsonl").read_text(encoding="utf-8").splitlines()]
    gold_answers = {r["id"]: r["answers"] for r in qs}
    for ch in chains:
        gold_answers[ch["id"]] = [a for t in ch["turns"] for a in t["answers"]]
    for org, fname, needle in TABLE_ROWS:
        if not has(org, fname, needle):
            fails += 1
            print(f"FAIL rule-table row not in {fname}: {needle!r}")
    comp = computed()
    for k, (val, gold, must_show) in comp.items():
        ok = val == gold and must_show in gold_answers[k]
        fails += not ok
        print(f"{'ok  ' if ok else 'FAIL'} computed {k}: {val!r} (gold {gold!r}, answer {must_show!r})")
    for k, ev in EVIDENCE.items():
        for fname, needle in ev:
            if not has(org_of(k), fname, needle):
                fails += 1
                print(f"FAIL evidence {k}: {needle!r} not in {fname}")
    for k, ab in ABSENT.items():
        for org, needle in ab:
            if needle.startswith("re:"):
                hits = [f for f, t in TEXT[org].items() if re.search(needle[3:], t)]
            else:
                hits = [f for f, t in TEXT[org].items() if needle in t]
            fails += bool(hits)
            if hits:
                print(f"FAIL near miss {k}: {needle!r} found in {hits}")
    ids = [r["id"] for r in qs]
    assert ids == [f"pq-{i:03d}" for i in range(1, 61)], "ids"
    for r in qs:
        k = r["id"]
        assert r["org"] == org_of(k), k
        assert r["decline"] == (r["kind"] == "near_miss") and (r["answers"] == []) == r["decline"], k
        assert r["split"] == ("dev" if int(k[3:]) % 2 else "held"), k
        if r["decline"]:
            assert k in ABSENT, k
            continue
        assert k in comp or EVIDENCE.get(k), f"no evidence for {k}"
        for m in r["must_not"]:
            assert m not in r["answers"], (k, m)
            assert not any(m in a for a in r["answers"]), (k, m)
        allt = norm(" ".join(TEXT[r["org"]].values()))
        verb = [a for a in r["answers"] if norm(a) and norm(a) in allt]
        print(f"ok   {k} {r['kind']:<13} verbatim: {verb[:3] if verb else '(derived: ' + str(comp.get(k, ('see evidence',))[0]) + ')'}")
    assert [c["id"] for c in chains] == [f"cv-pm-{i:02d}" for i in range(1, 7)] + [f"cv-kh-{i:02d}" for i in range(1, 7)]
    for c in chains:
        assert c["org"] == org_of(c["id"]), c["id"]
        assert c["id"] in comp or EVIDENCE.get(c["id"]), f"no evidence for {c['id']}"
        assert c["split"] == ("dev" if int(c["id"][-2:]) % 2 else "held"), c["id"]
        assert 2 <= len(c["turns"]) <= 3
        for t in c["turns"]:
            assert t["answers"], c["id"]
            for m in t.get("must_not", []):
                assert not any(m in a for a in t["answers"]), (c["id"], m)
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
