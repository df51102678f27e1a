"""Check the gold answers of orgdocs_blind6 against the generated documents (CC0).

    python tests/data/orgdocs_blind6/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, computed answers are recomputed from the CSVs
and the gold value must appear among the gold answer strings, and the asked-for fact of every near miss is
absent from its collection. Exits 1 on a failure. (The checks repeat those of ../orgdocs_blind5/check_answers.py.)
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import json
import math
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QH, HC = "qinghe-health", "harrowgate-cycles"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (QH, HC)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


FEES, DUTY, BOOK = "医疗服务收费标准（2026年）.html", "员工排班与值班补贴办法.md", "预约与退号规定.docx"
P24, P26 = "家庭医生签约服务管理办法（2024版）.pdf", "家庭医生签约服务管理办法（2026版）.pdf"
RATES, HANDBOOK, S24, S26, SAFETY = ("Hire_Rates_2026.html", "Member_Handbook.md", "Staff_Pay_and_Leave_2024.docx",
                                     "Staff_Pay_and_Leave_2026.docx", "Safety_and_Damage.pdf")

STAFF_QH = rows(QH, "员工名册.csv")
EQUIP = rows(QH, "服务站点设备清单.csv")
FLEET = rows(HC, "fleet.csv")
STAFF_HC = rows(HC, "staff.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
GENERAL = {  # 就诊类别 -> (收费, 医保统筹支付, 个人自付)
    "普通门诊（住院医师、主治医师）": (10, 8, 2), "副主任医师门诊": (20, 8, 12), "中医门诊": (12, 8, 4),
    "夜间门诊（17:30–21:00）及节假日门诊": (15, 8, 7),
}
SIGNED_EXEMPT = {"普通门诊（住院医师、主治医师）", "中医门诊", "夜间门诊（17:30–21:00）及节假日门诊"}  # 签约居民 个人自付免收
HOME = [("3公里以内（含3公里）", 0, 3, 30, 20), ("3–8公里（含8公里）", 3, 8, 50, 20), ("8公里以上", 8, math.inf, 80, 30)]
CHECKUP = [("18–39岁", 18, 39, "青年基础套餐", "160"), ("40–64岁", 40, 64, "中年套餐", "280"),
           ("65岁及以上", 65, 200, "老年人健康体检", "免费（每年1次）")]
TCM = {"针灸": (25, 220), "推拿（30分钟）": (40, 360), "拔罐": (15, 130), "艾灸": (20, 180), "中药熏蒸": (35, 300)}
DUTY_PAY = {"医师": (120, 80, 240), "护士": (90, 60, 180), "药剂、检验、影像人员": (70, 50, 140), "行政后勤人员": (50, 40, 100)}
SPRING_EXTRA = 100
LEAVE_QH = [("不满1年", 0, 0), ("满1年不满10年", 1, 5), ("满10年不满20年", 10, 10), ("满20年及以上", 20, 15)]
BOOKING = [("普通门诊（全科、中医）", "7天", "就诊前1小时", "计爽约1次"), ("副主任医师门诊", "14天", "就诊前1天18:00", "计爽约1次"),
           ("中医理疗", "7天", "就诊前2小时", "计爽约1次"), ("儿童预防接种", "30天", "接种前1天17:00", "不计爽约，须重新预约"),
           ("健康体检", "30天", "体检前1天12:00", "计爽约1次"), ("家庭医生上门服务", "3天", "上门前1天17:00", "不计爽约")]
MISSED = [("1–2次", 1, 2, "短信提醒"), ("3–4次", 3, 4, "暂停网上预约30天"), ("5次及以上", 5, 10**6, "暂停网上预约90天")]
PACKAGES = {  # 服务包 -> (年费, 医保支付, 个人支付, 上门次数/年)
    "2024": {"基础包": (0, 0, 0, 0), "慢病管理包": (120, 80, 40, 0), "老年健康包": (100, 70, 30, 1),
             "失能照护包": (300, 200, 100, 4), "母婴健康包": (200, 0, 200, 2)},
    "2026": {"基础包": (0, 0, 0, 0), "慢病管理包": (150, 110, 40, 0), "老年健康包": (100, 80, 20, 1),
             "失能照护包": (300, 220, 80, 6), "母婴健康包": (180, 0, 180, 2)},
}
TEAM_LIMIT = {"2024": 2000, "2026": 1800}

HIRE = {  # bike -> (up to 2 hours, half day, full day, 7 days, deposit) in pounds; None = not available
    "City bike": (8, 14, 20, 75, 50), "Hybrid": (10, 17, 25, 95, 75), "Mountain bike": (12, 20, 30, 110, 100),
    "E-bike": (18, 30, 45, 180, 200), "Cargo bike": (20, 32, 48, 190, 200), "Tandem": (16, 26, 38, None, 100),
    "Kids' bike": (5, 8, 12, 45, 25),
}
MEMBER_PCT = {k: (10 if k in ("E-bike", "Cargo bike") else 15) for k in HIRE}
GROUP_PCT, GROUP_MIN = 10, 6
LATE = [("Up to 15 minutes", 0, 15, "No charge"), ("16 to 60 minutes", 16, 60, "£10"), ("61 minutes to 3 hours", 61, 180, "£25"),
        ("More than 3 hours", 181, 10**6, "Another full day at the full-day rate for that bike")]
FRAME = [("140–154 cm", 140, 154, "XS"), ("155–167 cm", 155, 167, "Small"), ("168–180 cm", 168, 180, "Medium"),
         ("181–193 cm", 181, 193, "Large"), ("Over 193 cm", 194, 10**6, "XL (Station Yard only)")]
DAMAGE = {"Puncture": "No charge", "Buckled wheel": "£40", "Lost lock or key": "£20", "Damaged or lost e-bike battery": "£450"}
COVER_PAYS = 50
WORKSHOP = {"Puncture repair (per wheel, inner tube included)": "£9", "Full service": "£65"}
PAY = {  # grade -> (roles, hourly rate in pence)
    "2024": {"Grade 1": ("Hire Assistant", 1200), "Grade 2": ("Mechanic; Bookings Coordinator", 1360),
             "Grade 3": ("Senior Mechanic", 1520), "Grade 4": ("Depot Lead", 1640)},
    "2026": {"Grade 1": ("Hire Assistant", 1280), "Grade 2": ("Mechanic; Bookings Coordinator", 1440),
             "Grade 3": ("Senior Mechanic", 1600), "Grade 4": ("Depot Lead", 1720)},
}
SUNDAY_PCT = 25
LEAVE_HC = {
    "2024": [("Less than 2 years", 0, 28), ("2 to 4 years", 2, 29), ("5 years or more", 5, 31)],
    "2026": [("Less than 2 years", 0, 28), ("2 to 4 years", 2, 30), ("5 years or more", 5, 33)],
}
FULL_TIME = 37.5
TOOLS = {"2024": 150, "2026": 220}


def _p(pence: int) -> str:
    return f"£{pence // 100}.{pence % 100:02d}"


TABLE_ROWS = (
    [(QH, FEES, f"{k} {a} {b} {c}") for k, (a, b, c) in GENERAL.items()]
    + [(QH, FEES, f"{name} {fee} {night}") for name, _, _, fee, night in HOME]
    + [(QH, FEES, f"{name} {pkg} {price}") for name, _, _, pkg, price in CHECKUP]
    + [(QH, FEES, f"{k} {a} {b}") for k, (a, b) in TCM.items()]
    + [(QH, FEES, "70岁及以上老人做单次理疗按8折收费"), (QH, FEES, "超出包内次数的，按上表标准的50%收取")]
    + [(QH, DUTY, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in DUTY_PAY.items()]
    + [(QH, DUTY, f"| {name} | {d}天 |") for name, _, d in LEAVE_QH]
    + [(QH, BOOK, " | ".join(r)) for r in BOOKING]
    + [(QH, BOOK, f"{name} | {r}") for name, _, _, r in MISSED]
    + [(QH, P24 if v == "2024" else P26, f"{k} {' '.join(map(str, t))}") for v, tab in PACKAGES.items() for k, t in tab.items()]
    + [(QH, P24 if v == "2024" else P26, f"每个家庭医生团队签约居民不超过{n}人") for v, n in TEAM_LIMIT.items()]
    + [(HC, RATES, f"{k} " + " ".join("Not available" if x is None else f"£{x}" for x in v)) for k, v in HIRE.items()]
    + [(HC, RATES, "members get 15% off the hire of city bikes, hybrids, mountain bikes, tandems and kids' bikes, "
                   "and 10% off the hire of e-bikes and cargo bikes"),
       (HC, RATES, "Group bookings of 6 or more bikes for the same day get 10% off the hire of every bike in the booking")]
    + [(HC, RATES, f"{name} {c}") for name, _, _, c in LATE]
    + [(HC, SAFETY, f"{name} {size}") for name, _, _, size in FRAME]
    + [(HC, SAFETY, f"{k} {v}") for k, v in DAMAGE.items()]
    + [(HC, SAFETY, "It pays the first £50 of the damage charges for each incident")]
    + [(HC, HANDBOOK, f"| {k} | {v} |") for k, v in WORKSHOP.items()]
    + [(HC, S24 if v == "2024" else S26, f"{g} | {roles} | {_p(p)}") for v, tab in PAY.items() for g, (roles, p) in tab.items()]
    + [(HC, f, "Hours worked on a Sunday are paid at the hourly rate plus 25%") for f in (S24, S26)]
    + [(HC, S24 if v == "2024" else S26, f"{name} | {d} days") for v, tab in LEAVE_HC.items() for name, _, d in tab]
    + [(HC, S24 if v == "2024" else S26, f"tool allowance of £{n} a year") for v, n in TOOLS.items()]
)


def completed_years(start: str, on: dt.date) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


LEAVE_YEAR_HC = dt.date(2026, 4, 1)  # Harrowgate: completed years on 1 April (2026–27 leave year, 2026 policy)


def annual_leave_qh(r: dict) -> int:
    if r["用工形式"] == "返聘":  # 第十条: 返聘人员不享受年休假
        return 0
    y = int(r["工作年限"])
    return [d for _, lo, d in LEAVE_QH if y >= lo][-1]


def home_fee(km: float, evening: bool = False, over_package: bool = False) -> float:
    _, _, _, fee, night = next(b for b in HOME if b[1] < km <= b[2] or (b[1] == 0 and km <= b[2]))
    return (fee * 0.5 if over_package else fee) + (night if evening else 0)


def checkup_price(age: int, second_this_year: bool = False) -> int:
    _, _, _, pkg, price = next(b for b in CHECKUP if b[1] <= age <= b[2])
    if age >= 65 and second_this_year:  # 同一年内第二次及以后的体检，按中年套餐价格收费
        return int(CHECKUP[1][4])
    return 0 if price.startswith("免费") else int(price)


def self_pay(kind: str, signed: bool) -> int:
    return 0 if signed and kind in SIGNED_EXEMPT else GENERAL[kind][2]


def duty_pay(role: str, shift: str, spring_festival: bool = False) -> int:
    night, weekend, holiday = DUTY_PAY[role]
    v = {"night": night, "weekend": weekend, "holiday": holiday}[shift]
    return v + (SPRING_EXTRA if spring_festival and shift == "holiday" else 0)


def missed_rule(n: int) -> str:
    return next(r for _, lo, hi, r in MISSED if lo <= n <= hi)


def frame_for_cm(cm: float) -> str:
    c = round(cm)
    return next(s for _, lo, hi, s in FRAME if lo <= c <= hi)


def late_charge(minutes: int) -> str:
    return next(c for _, lo, hi, c in LATE if lo <= minutes <= hi)


def hire_pence(bike: str, col: int, member: bool = False, group_size: int = 1) -> int:
    base = HIRE[bike][col] * 100
    pct = max(MEMBER_PCT[bike] if member else 0, GROUP_PCT if group_size >= GROUP_MIN else 0)  # never added together
    return base * (100 - pct) // 100


def annual_leave_hc(r: dict, version: str = "2026") -> float | None:
    if r["contract"] == "Seasonal":  # seasonal staff: no leave days, 12.07% holiday pay instead
        return None
    y = completed_years(r["start_date"], LEAVE_YEAR_HC)
    days = [d for _, lo, d in LEAVE_HC[version] if y >= lo][-1]
    return math.ceil(days * float(r["hours_per_week"]) / FULL_TIME * 2) / 2  # rounded up to the nearest half day


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    c["fq-005"] = (checkup_price(45), 280, "280元")
    c["fq-006"] = (home_fee(3 * 1.609344), 50, "50 yuan")  # three miles = 4.83 km
    c["fq-010"] = (missed_rule(3), "暂停网上预约30天", "30 days")
    c["fq-011"] = (sum(r["夜间值班"] == "是" for r in STAFF_QH), 18, "18人")
    nurses = [int(r["工作年限"]) for r in STAFF_QH if r["科室"] == "护理部"]
    c["fq-012"] = (sum(nurses) / len(nurses), 13.0, "13年")
    c["fq-013"] = (sum(r["所在站点"] == "东村卫生服务站" and r["状态"] == "在用" for r in EQUIP), 5, "5台")
    top = max(EQUIP, key=lambda r: int(r["购置金额(元)"]))
    assert sum(int(r["购置金额(元)"]) == int(top["购置金额(元)"]) for r in EQUIP) == 1
    c["fq-014"] = ((top["设备名称"], top["购置金额(元)"]), ("数字化X射线摄影系统（DR）", "680000"), "DR")
    c["fq-015"] = (sum(int(r["购置金额(元)"]) for r in EQUIP if r["状态"] == "在用"), 2206460, "2206460元")
    zh = next(r for r in STAFF_QH if r["姓名"] == "周海燕")
    c["fq-016"] = ((zh["科室"], annual_leave_qh(zh)), ("检验科", 10), "10天")
    c["fq-017"] = (self_pay("普通门诊（住院医师、主治医师）", signed=True), 0, "0元")
    c["fq-018"] = (round(TCM["针灸"][0] * 0.8), 20, "20元")  # 70岁及以上 单次8折
    c["fq-019"] = (checkup_price(68, second_this_year=True), 280, "280 yuan")
    c["fq-020"] = (duty_pay("医师", "holiday", spring_festival=True), 340, "340元")
    lg = next(r for r in STAFF_QH if r["姓名"] == "刘国平")
    c["fq-021"] = ((lg["用工形式"], annual_leave_qh(lg)), ("返聘", 0), "不享受")
    c["fq-026"] = (PACKAGES["2026"]["慢病管理包"][0], 150, "150元")
    c["fq-027"] = (TEAM_LIMIT["2026"], 1800, "1800人")
    c["fq-028"] = (self_pay("副主任医师门诊", signed=True), 12, "12元")
    c["fq-036"] = (frame_for_cm(175), "Medium", "Medium")
    c["fq-037"] = (frame_for_cm((6 * 12 + 2) * 2.54), "Large", "Large")  # 6 ft 2 in = 188 cm
    c["fq-039"] = (late_charge(40), "£10", "£10")
    c["fq-041"] = (sum(r["type"] == "E-bike" and r["status"] == "Available" for r in FLEET), 5, "5 e-bikes")
    c["fq-042"] = (sum(r["depot"] == "Millbrook Quay" and r["status"] != "Retired" for r in FLEET), 9, "9 bikes")
    cargo = [int(r["purchase_price_gbp"]) for r in FLEET if r["type"] == "Cargo"]
    c["fq-043"] = (sum(cargo) / len(cargo), 3550.0, "£3,550")
    live = [r for r in FLEET if r["status"] != "Retired"]
    old = min(live, key=lambda r: int(r["purchase_year"]))
    assert sum(r["purchase_year"] == old["purchase_year"] for r in live) == 1
    c["fq-044"] = ((old["bike_id"], old["model"], old["purchase_year"]), ("HC029", "Twinline Tandem", "2017"), "HC029")
    c["fq-045"] = (sum(int(r["purchase_price_gbp"]) for r in FLEET if r["type"] == "E-bike"), 14210, "£14,210")
    ps = next(r for r in STAFF_HC if r["name"] == "Priya Shah")
    c["fq-046"] = ((ps["depot"], annual_leave_hc(ps)), ("Ashby Green", 24.0), "24 days")
    c["fq-047"] = (_p(hire_pence("E-bike", 2, member=True)), "£40.50", "£40.50")
    c["fq-048"] = (_p(6 * hire_pence("City bike", 2, group_size=6)), "£108.00", "£108")
    c["fq-049"] = ("Commuter" in ("Commuter", "Family"), True, "free")  # puncture repairs free for Commuter and Family
    c["fq-050"] = (max(0, int(DAMAGE["Damaged or lost e-bike battery"][1:]) - COVER_PAYS), 400, "£400")
    tb = next(r for r in STAFF_HC if r["name"] == "Tom Barker")
    c["fq-051"] = ((tb["contract"], annual_leave_hc(tb)), ("Seasonal", None), "12.07%")
    c["fq-056"] = (_p(PAY["2026"]["Grade 2"][1]), "£14.40", "£14.40")
    c["fq-057"] = (TOOLS["2026"], 220, "£220")
    # chains
    c["cv-qh-01"] = ((duty_pay("医师", "night"), duty_pay("护士", "night"), duty_pay("护士", "holiday")), (120, 90, 180), "180元")
    p26 = PACKAGES["2026"]["慢病管理包"]
    c["cv-qh-02"] = ((p26[0], p26[2]), (150, 40), "40元")
    c["cv-qh-03"] = (checkup_price(45), 280, "280元")
    c["cv-qh-04"] = ((home_fee(10), home_fee(10, evening=True)), (80, 110), "110元")
    nurse = max((r for r in STAFF_QH if r["岗位"] == "护士"), key=lambda r: int(r["工作年限"]))
    c["cv-qh-05"] = ((nurse["姓名"], nurse["用工形式"], annual_leave_qh(nurse), nurse["夜间值班"]), ("潘翠英", "返聘", 0, "否"), "潘翠英")
    c["cv-qh-06"] = ((PACKAGES["2026"]["失能照护包"][3], home_fee(2, over_package=True)), (6, 15.0), "15元")
    mech = PAY["2026"]["Grade 2"][1]
    senior = PAY["2026"]["Grade 3"][1]
    c["cv-hc-02"] = ((_p(mech), _p(mech * (100 + SUNDAY_PCT) // 100), _p(senior * (100 + SUNDAY_PCT) // 100)),
                     ("£14.40", "£18.00", "£20.00"), "£18")
    c["cv-hc-03"] = ((frame_for_cm((5 * 12 + 5) * 2.54), late_charge(120), late_charge(300)),
                     ("Small", "£25", LATE[3][3]), "Small")
    avail = {}
    for r in FLEET:
        if r["status"] == "Available":
            avail[r["depot"]] = avail.get(r["depot"], 0) + 1
    best = max(avail, key=avail.get)
    assert sorted(avail.values())[-1] != sorted(avail.values())[-2]
    c["cv-hc-04"] = ((best, sum(r["depot"] == best and r["type"] == "E-bike" and r["status"] == "Available" for r in FLEET)),
                     ("Station Yard", 3), "3辆")
    c["cv-hc-05"] = ((_p(hire_pence("Hybrid", 2, member=True)), HIRE["E-bike"][4]), ("£21.25", 200), "£21.25")
    lead = next(r for r in STAFF_HC if r["depot"] == "Millbrook Quay" and r["role"] == "Depot Lead")
    c["cv-hc-06"] = ((lead["name"], annual_leave_hc(lead), lead["first_aider"]), ("Rhiannon Pryce", 33.0, "Yes"), "33 days")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(P26, "签约期限为1年"), (P24, "签约期限为1年")],
    "fq-002": [(BOOK, "每个身份证每天最多预约2个号")],
    "fq-003": [(BOOK, "请在预约时段开始前30分钟到自助机或服务台取号报到")],
    "fq-004": [(BOOK, "预约时段开始后超过15分钟仍未报到的，号源作废，并计爽约1次")],
    "fq-005": [(FEES, "40–64岁 中年套餐 280")],
    "fq-006": [(FEES, "3–8公里（含8公里） 50 20")],
    "fq-007": [(FEES, "推拿（30分钟） 40 360")],
    "fq-008": [(BOOK, "儿童预防接种 | 30天")],
    "fq-009": [(DUTY, "| 护士 | 90 | 60 | 180 |")],
    "fq-010": [(BOOK, "3–4次 | 暂停网上预约30天")],
    "fq-016": [(DUTY, "| 满10年不满20年 | 10天 |")],
    "fq-017": [(FEES, "家庭医生签约居民在中心本部和各卫生服务站就诊的，普通门诊、中医门诊、夜间门诊及节假日门诊的个人自付部分免收")],
    "fq-018": [(FEES, "70岁及以上老人做单次理疗按8折收费"), (FEES, "针灸 25 220")],
    "fq-019": [(FEES, "同一年内第二次及以后的体检，按中年套餐价格收费")],
    "fq-020": [(DUTY, "春节（除夕至正月初三）值班的，在节假日值班标准基础上每次另加100元"), (DUTY, "| 医师 | 120 | 80 | 240 |")],
    "fq-021": [(DUTY, "返聘人员不享受年休假")],
    "fq-026": [(P26, "慢病管理包 150 110 40 0"), (P24, "慢病管理包 120 80 40 0"),
               (P26, "《家庭医生签约服务管理办法（2024版）》同时废止")],
    "fq-027": [(P26, "每个家庭医生团队签约居民不超过1800人"), (P24, "每个家庭医生团队签约居民不超过2000人")],
    "fq-028": [(FEES, "副主任医师门诊的个人自付部分照常收取"), (FEES, "副主任医师门诊 20 8 12")],
    "fq-029": [(P26, "低保户、特困供养人员签约个性化服务包的，个人支付部分由镇财政全额补助，本人不需支付")],
    "fq-030": [(BOOK, "65岁及以上老人和持残疾人证的居民，在暂停网上预约期间仍可到服务台现场取号就诊")],
    "fq-031": [(HANDBOOK, "To become a member you buy one share of £1")],
    "fq-032": [(SAFETY, "E-bikes and cargo bikes may only be ridden by people aged 16 or over")],
    "fq-033": [(SAFETY, "Report any accident within 24 hours")],
    "fq-034": [(SAFETY, "has a range of about 60 km (about 40 miles)")],
    "fq-035": [(RATES, "Hybrid £10 £17 £25 £95 £75")],
    "fq-036": [(SAFETY, "168–180 cm Medium")],
    "fq-037": [(SAFETY, "181–193 cm Large")],
    "fq-038": [(HANDBOOK, "| Full service | £65 | 2 hours |")],
    "fq-039": [(RATES, "16 to 60 minutes £10")],
    "fq-040": [(RATES, "Child trailer £10 per day Up to two children")],
    "fq-046": [(S26, "2 to 4 years | 30 days"), (S26, "rounded up to the nearest half day")],
    "fq-047": [(RATES, "E-bike £18 £30 £45 £180 £200")],
    "fq-048": [(RATES, "City bike £8 £14 £20 £75 £50"), (RATES, "each bike gets whichever is larger")],
    "fq-049": [(HANDBOOK, "Puncture repairs are free for Commuter and Family members")],
    "fq-050": [(SAFETY, "so you pay only the part above £50"), (SAFETY, "Damaged or lost e-bike battery £450")],
    "fq-051": [(S26, "Staff on seasonal contracts do not receive annual leave days; instead, holiday pay of 12.07% is added")],
    "fq-056": [(S26, "Grade 2 | Mechanic; Bookings Coordinator | £14.40"), (S24, "Grade 2 | Mechanic; Bookings Coordinator | £13.60"),
               (S26, "replaces the Staff Pay and Leave Policy (2024)")],
    "fq-057": [(S26, "tool allowance of £220 a year"), (S24, "tool allowance of £150 a year")],
    "fq-058": [(RATES, "E-bikes and cargo bikes can be collected and returned only at Station Yard and Millbrook Quay"),
               (RATES, "Ashby Green Pavilion Kiosk, Ashby Green Park 09:00–17:00 Friday to Sunday No No")],
    "fq-059": [(RATES, "Commuter and Family members pay no deposit, except on e-bikes and cargo bikes, where the £200 deposit always applies")],
    "fq-060": [(RATES, "Tandem £16 £26 £38 Not available £100")],
    "cv-qh-01": [(DUTY, "法定节假日当天的值班（白天或夜间）均按节假日值班标准发放")],
    "cv-qh-02": [(P26, "本人不需支付")],
    "cv-qh-03": [(BOOK, "健康体检 | 30天 | 体检前1天12:00"), (BOOK, "副主任医师门诊 | 14天 | 就诊前1天18:00")],
    "cv-qh-04": [(FEES, "8公里以上 80 30")],
    "cv-qh-05": [(DUTY, "下列人员不安排夜间值班：（一）返聘人员")],
    "cv-qh-06": [(P26, "失能照护包 300 220 80 6"), (P24, "失能照护包 300 200 100 4")],
    "cv-hc-01": [(RATES, "Mountain bike £12 £20 £30 £110 £100")],
    "cv-hc-02": [(S26, "Grade 3 | Senior Mechanic | £16.00")],
    "cv-hc-03": [(RATES, "More than 3 hours Another full day at the full-day rate for that bike")],
    "cv-hc-04": [(RATES, "E-bikes and cargo bikes can be collected and returned only at Station Yard and Millbrook Quay")],
    "cv-hc-05": [(RATES, "Hybrid £10 £17 £25 £95 £75"), (RATES, "where the £200 deposit always applies")],
    "cv-hc-06": [(S26, "5 years or more | 33 days"), (S24, "5 years or more | 31 days")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(QH, "牙"), (QH, "口腔")],
    "fq-023": [(QH, "刮痧"), (QH, "刮")],
    "fq-024": [(QH, "re:(?<!套)餐"), (QH, "伙食"), (QH, "饭")],  # 套餐 (a check-up package) is not a meal
    "fq-025": [(QH, "流感"), (QH, "疫苗费"), (QH, "疫苗价格"), (QH, "接种费")],
    "fq-052": [(HC, "re:(?i)fold"), (HC, "re:(?i)brompton"), (HC, "折叠")],
    "fq-053": [(HC, r"re:(?i)\btours?\b"), (HC, "re:(?i)guid")],
    "fq-054": [(HC, "re:(?i)rack"), (HC, r"re:(?i)\bcars?\b")],
    "fq-055": [(HC, "re:(?i)pension"), (HC, "re:(?i)employer contribution")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return QH if k.startswith("cv-qh") else HC
    return QH if int(k[3:]) <= 30 else HC


CJK = re.compile(r"[\u4e00-\u9fff]")


def is_zh(text: str) -> bool:
    """Chinese when CJK characters are at least a third as many as Latin letters (a name in brackets aside)."""
    return len(CJK.findall(text)) * 3 >= len(re.findall(r"[A-Za-z]", text))


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
    assert ids == [f"fq-{i:03d}" for i in range(1, 61)], "ids"
    keys = ["id", "org", "question", "kind", "answers", "decline", "split", "must_not", "cross_language"]
    for r in qs:
        k = r["id"]
        assert list(r) == keys, k
        assert r["org"] == org_of(k), k
        assert r["decline"] == (r["kind"] == "near_miss") and (r["answers"] == []) == r["decline"], k
        assert r["split"] == ("dev" if int(k[3:]) % 2 else "held"), k
        # cross_language: an English question over the Chinese centre, a Chinese question over the English co-op
        zh_q = is_zh(r["question"])
        assert r["cross_language"] == (zh_q if r["org"] == HC else not zh_q), k
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
    assert [c["id"] for c in chains] == [f"cv-qh-{i:02d}" for i in range(1, 7)] + [f"cv-hc-{i:02d}" for i in range(1, 7)]
    for c in chains:
        assert list(c) == ["id", "org", "kind", "split", "turns", "note"], c["id"]
        assert c["org"] == org_of(c["id"]) and c["kind"] == "followup", c["id"]
        assert c["id"] in comp or EVIDENCE.get(c["id"]), f"no evidence for {c['id']}"
        assert c["split"] == ("dev" if int(c["id"][-2:]) % 2 else "held"), c["id"]
        assert 2 <= len(c["turns"]) <= 3
        for t in c["turns"]:
            assert t["answers"], c["id"]
            for m in t.get("must_not", []):
                assert not any(m in a for a in t["answers"]), (c["id"], m)
            # lang marks a turn written in the other organisation's language
            zh_t = is_zh(t["message"])
            other = "en" if c["org"] == QH else "zh"
            assert (t.get("lang") == other) == (zh_t if c["org"] == HC else not zh_t), (c["id"], t["message"])
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (QH, HC):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 8, org
        assert sum(r["split"] == "dev" for r in qs if r["org"] == org) == 15, org
    assert sum(c["split"] == "dev" for c in chains) == 6
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
