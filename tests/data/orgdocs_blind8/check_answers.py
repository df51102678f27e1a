"""Check the gold answers of orgdocs_blind8 against the generated documents (CC0).

    python tests/data/orgdocs_blind8/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, computed answers are recomputed from the CSVs
and the gold value must appear among the gold answer strings, and the asked-for fact of every near miss is
absent from its collection. Exits 1 on a failure. (The checks repeat those of ../orgdocs_blind7/check_answers.py.)
"""

from __future__ import annotations

import csv
import datetime as dt
import html
import json
import math
import re
import sys
from decimal import ROUND_CEILING, Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
QH, FV = "qinghe-fitness", "fernbrook-vets"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (QH, FV)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


PRICES, RULES, SERVICE = "会员卡与课程价目表（2026年）.html", "员工考勤与津贴办法.md", "会员服务与退卡规定.docx"
C24, C26 = "教练课时提成与考核办法（2024版）.pdf", "教练课时提成与考核办法（2026版）.pdf"
FEES, HANDBOOK, P24, P26, POLICIES = ("Fees_and_Charges_2026.html", "Staff_Handbook.md", "Pet_Health_Plan_Terms_2024.docx",
                                      "Pet_Health_Plan_Terms_2026.docx", "Client_Policies.pdf")

STAFF_QH = rows(QH, "员工名册.csv")
EQUIP_QH = rows(QH, "器材清单.csv")
STAFF_FV = rows(FV, "staff.csv")
PETS = rows(FV, "plan_pets.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
CARDS = {  # 卡种 -> (有效期, 价格 元, 可用门店)
    "月卡": ("30天", 399, "办卡门店"), "季卡": ("90天", 999, "办卡门店"), "年卡": ("365天", 2680, "全部门店"),
    "次卡（20次）": ("180天", 880, "全部门店"), "学生年卡": ("365天", 1680, "办卡门店"),
}
GROUP = [("不足5人", 0, 4, "无折扣", 0), ("5–19人", 5, 19, "9折", 10), ("20人及以上", 20, 10**9, "8折", 20)]
GROUP_CARDS = ("季卡", "年卡")  # 月卡、次卡和学生年卡不参加团体购卡折扣
SEASON_MAX_OFF = 10  # 季卡最多按9折计算
RENEW_OFF = 200  # 到期前30天内续费年卡立减200元；与团体购卡折扣不同时享受，按对会员有利的一项
POOL_EXTRA = {"月卡": 20, "次卡（20次）": 20}  # 月卡和次卡会员每次使用泳池另收20元
PT_BANDS = [("1–9节", 1, 9), ("10–29节", 10, 29), ("30–59节", 30, 59), ("60节及以上", 60, 10**9)]
PT = {  # 教练级别 -> 元/节 per band
    "初级": (280, 260, 240, 220), "中级": (350, 320, 300, 280), "高级": (450, 410, 380, 350), "资深": (600, 550, 500, 460),
}
FREEZE = [("季卡", "1次", "15天", "免费"), ("年卡", "2次", "两次合计不超过60天", "第1次免费，第2次50元")]
FREEZE_MEDICAL_DAYS = 180  # 因怀孕或因伤病住院：最长180天，不受次数和天数限制
REFUND = [("7天以内（含7天）且未入场", 0, 7, "全额退款", 100), ("30天以内（含30天）", 0, 30, "按剩余天数折算金额的80%退还", 80),
          ("31天至180天", 31, 180, "按剩余天数折算金额的60%退还", 60), ("超过180天", 181, 10**9, "不予退款，可以转让", 0)]
ALLOWANCE = {  # 岗位 -> (通宵班津贴 元/班, 泳池值班津贴 元/班, 餐补 元/天)
    "店长": (100, "不发放", 25), "前台接待、会籍顾问": (80, "不发放", 20), "私人教练、团课教练": (80, 50, 20),
    "救生员": ("不发放", 60, 20), "维修技工、保洁员": (70, 30, 20), "行政人员": ("不发放", "不发放", 20),
}
SENIORITY = [("不满1年", 0, 0), ("满1年不满3年", 1, 100), ("满3年不满5年", 3, 200), ("满5年及以上", 5, 300)]
LEAVE_STAT = [("不满1年", 0, 0), ("满1年不满10年", 1, 5), ("满10年不满20年", 10, 10), ("满20年及以上", 20, 15)]
LEAVE_BONUS = [("不满5年", 0, 0), ("满5年不满10年", 5, 1), ("满10年及以上", 10, 2)]
LEAVE_DAY = dt.date(2026, 1, 1)  # 截至当年1月1日已满的整年数 (both organisations count on 1 January)
COMMISSION = {  # version -> 教练级别 -> 元/节
    "2024": {"初级教练": 60, "中级教练": 80, "高级教练": 110, "资深教练": 150},
    "2026": {"初级教练": 70, "中级教练": 95, "高级教练": 130, "资深教练": 180},
}
MONTH_BANDS = [("不足40节", 0, 39), ("40–79节", 40, 79), ("80节及以上", 80, 10**9)]
MONTHLY = {"2024": ("无", "300元", "800元"), "2026": ("无", "500元", "1200元")}
COMPLAINT = {"2024": 100, "2026": 200}
BEST = {"2024": 3000, "2026": 5000}

CONSULT = {  # row -> (weekday, Saturday morning, out of hours) pounds
    "Vet consultation (15 minutes)": (52, 62, 165), "Second pet seen in the same consultation": (26, 31, 80),
}
PENSIONER_PCT, PENSIONER_AGE = 10, 66  # weekdays only
WEIGHT = [  # (band, lo (exclusive), hi (inclusive), spay, castration, dental) pounds
    ("Up to 10 kg", Decimal(0), Decimal(10), 310, 245, 285), ("10.1–25 kg", Decimal(10), Decimal(25), 365, 290, 315),
    ("25.1–40 kg", Decimal(25), Decimal(40), 440, 345, 350), ("Over 40 kg", Decimal(40), Decimal(10**6), 520, 405, 390),
]
JIN_KG = Decimal("0.5")  # 1 斤 = 0.5 kg
VACC = {"Dog primary vaccination course (2 injections)": 76, "Dog annual booster": 54, "Cat annual booster": 50}
BOOSTER_LATE_MONTHS = 3  # more than 3 months late: restart, charged at the primary course price
DEPOSIT = [("Under £300", 0, 299.99, "None", 0), ("£300–£999", 300, 999.99, "30% of the estimate", 30),
           ("£1,000 and over", 1000, math.inf, "50% of the estimate", 50)]
WARD = [("Cat", 48, 120), ("Dog up to 25 kg", 58, 140), ("Dog over 25 kg", 72, 165), ("Rabbit or other small pet", 36, 95)]
AFTERCARE = [("Euthanasia", 95, 120, 140), ("Communal cremation", 45, 75, 110), ("Individual cremation, ashes returned", 140, 195, 260)]
MISSED = [("Vet consultation or nurse clinic", "£25"), ("Operation or dental (admission day)", "£60")]
ONCALL = {  # role -> (weeknight, weekend day, bank holiday, call-out) pounds
    "Vet (including the Clinical Director and locum vets)": (120, 200, 300, 50),
    "Registered Veterinary Nurse (RVN)": (70, 120, 180, 30), "Patient Care Assistant": (40, 70, 105, 20),
}
LEAVE_FV = [("Under 2 years", 0, 25), ("2 to 4 years", 2, 26), ("5 to 9 years", 5, 28), ("10 years or more", 10, 30)]
PLAN_PRICE = {  # version -> pet -> monthly price
    "2024": {"Cat": "£14.50", "Rabbit": "£9.50", "Dog up to 10 kg": "£16.00", "Dog 10.1–25 kg": "£19.50", "Dog over 25 kg": "£23.00"},
    "2026": {"Cat": "£16.00", "Rabbit": "£10.50", "Dog up to 10 kg": "£18.00", "Dog 10.1–25 kg": "£21.50", "Dog over 25 kg": "£26.00"},
}
PLAN_PCT = {"2024": 10, "2026": 12}
MULTI = {"2024": "£1.50", "2026": "£2.00"}
CANCEL_FEE = {"2024": "£25", "2026": "£35"}


def _p(pence: int | Decimal) -> str:
    pence = int(pence)
    return f"£{pence // 100:,}.{pence % 100:02d}"


TABLE_ROWS = (
    [(QH, PRICES, f"{k} {a} {p} {s}") for k, (a, p, s) in CARDS.items()]
    + [(QH, PRICES, f"{name} {label}") for name, _, _, label, _ in GROUP]
    + [(QH, PRICES, "团体购卡折扣适用于新办和续费的季卡、年卡；月卡、次卡和学生年卡不参加团体购卡折扣"),
       (QH, PRICES, "季卡最多按9折计算，一次购卡20人及以上的也按9折"),
       (QH, PRICES, "年卡会员在到期前30天内续费年卡的，续费立减200元；续费立减与团体购卡折扣不同时享受，按对会员有利的一项计算"),
       (QH, PRICES, "月卡和次卡会员每次使用泳池另收20元"),
       (QH, PRICES, "节数按单次购买的节数计算，多次购买的节数不累计")]
    + [(QH, PRICES, f"{band} " + " ".join(str(PT[lv][j]) for lv in PT)) for j, (band, _, _) in enumerate(PT_BANDS)]
    + [(QH, SERVICE, " | ".join(r)) for r in FREEZE]
    + [(QH, SERVICE, "凭医院证明可以冻结，最长180天，不受上表次数和天数的限制，不收手续费")]
    + [(QH, SERVICE, f"{name} | {label}") for name, _, _, label, _ in REFUND]
    + [(QH, SERVICE, "剩余天数折算金额=实付金额×剩余天数÷有效期天数")]
    + [(QH, RULES, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in ALLOWANCE.items()]
    + [(QH, RULES, f"| {name} | {n} |") for name, _, n in SENIORITY]
    + [(QH, RULES, "兼职人员和实习人员不发工龄奖"), (QH, RULES, "实习人员和兼职人员不享受年休假和企业福利假")]
    + [(QH, RULES, f"| {name} | {d}天 |") for name, _, d in LEAVE_STAT + LEAVE_BONUS]
    + [(QH, C24 if v == "2024" else C26, f"{k} {n}") for v, tab in COMMISSION.items() for k, n in tab.items()]
    + [(QH, C24 if v == "2024" else C26, f"{name} {m[j]}") for v, m in MONTHLY.items() for j, (name, _, _) in enumerate(MONTH_BANDS)]
    + [(QH, f, "兼职教练不参加月度课时奖") for f in (C24, C26)]
    + [(QH, f, "赠送的私教课按上表标准的一半发放提成") for f in (C24, C26)]
    + [(QH, C24 if v == "2024" else C26, f"会员有效投诉（每次） {n}元") for v, n in COMPLAINT.items()]
    + [(QH, C24 if v == "2024" else C26, f"年终发放年度优秀教练奖{n}元") for v, n in BEST.items()]
    + [(FV, FEES, f"{k} £{a} £{b} £{c}") for k, (a, b, c) in CONSULT.items()]
    + [(FV, FEES, "Clients aged 66 or over get 10% off vet consultations on weekdays (not on Saturdays and not out of hours)"),
       (FV, FEES, "Discounts are never added together: you get whichever is larger"),
       (FV, FEES, "The price band is set by the dog's weight on the day of the operation"),
       (FV, FEES, "If an annual booster is given more than 3 months after its due date, the vaccination course has to be "
                  "started again and is charged at the primary course price")]
    + [(FV, FEES, f"{name} £{s} £{c} £{d}") for name, _, _, s, c, d in WEIGHT]
    + [(FV, FEES, f"{k} £{n}") for k, n in VACC.items()]
    + [(FV, POLICIES, f"{name} {label}") for name, _, _, label, _ in DEPOSIT]
    + [(FV, POLICIES, f"{name} £{a} £{b}") for name, a, b in WARD]
    + [(FV, POLICIES, f"{name} £{a} £{b} £{c}") for name, a, b, c in AFTERCARE]
    + [(FV, POLICIES, f"{name} {c}") for name, c in MISSED]
    + [(FV, POLICIES, "The first missed appointment in any 12 months is not charged")]
    + [(FV, HANDBOOK, f"| {k} | £{a} | £{b} | £{c} | £{d} |") for k, (a, b, c, d) in ONCALL.items()]
    + [(FV, HANDBOOK, "is paid at the bank holiday rate only; the rates are not added together"),
       (FV, HANDBOOK, "Call-out payments are paid on top of the on-call rate, for each time you are called in")]
    + [(FV, HANDBOOK, f"| {name} | {d} days |") for name, _, d in LEAVE_FV]
    + [(FV, HANDBOOK, "Part-time staff get leave in proportion to their hours_per_week divided by 40, rounded up to the next half day")]
    + [(FV, P24 if v == "2024" else P26, f"{k} | {n}") for v, tab in PLAN_PRICE.items() for k, n in tab.items()]
    + [(FV, P24 if v == "2024" else P26, f"Plan members get {n}% off vet consultations in normal opening hours, neutering, "
                                            "dental treatment and hospital stays") for v, n in PLAN_PCT.items()]
    + [(FV, f, "The discount is not given on out-of-hours consultations") for f in (P24, P26)]
    + [(FV, P24 if v == "2024" else P26, f"Each further pet on the same account gets {n} off its monthly price") for v, n in MULTI.items()]
    + [(FV, P24 if v == "2024" else P26, f"plus an administration fee of {n}") for v, n in CANCEL_FEE.items()]
)


def whole_years(start: str, on: dt.date = LEAVE_DAY) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


def leave_qh(r: dict) -> int:
    if r["用工形式"] in ("实习", "兼职"):  # 不享受年休假和企业福利假
        return 0
    stat = [d for _, lo, d in LEAVE_STAT if int(r["累计工作年限"]) >= lo][-1]
    bonus = [d for _, lo, d in LEAVE_BONUS if whole_years(r["入职日期"]) >= lo][-1]
    return stat + bonus


def seniority_bonus(r: dict) -> int:
    if r["用工形式"] != "全职":  # 兼职人员和实习人员不发工龄奖
        return 0
    return [n for _, lo, n in SENIORITY if whole_years(r["入职日期"]) >= lo][-1]


def pt_price(level: str, sessions: int) -> int:
    j = next(j for j, (_, lo, hi) in enumerate(PT_BANDS) if lo <= sessions <= hi)
    return PT[level][j]


def group_off(card: str, people: int) -> int:
    if card not in GROUP_CARDS:
        return 0
    off = next(o for _, lo, hi, _, o in GROUP if lo <= people <= hi)
    return min(off, SEASON_MAX_OFF) if card == "季卡" else off


def card_price(card: str, people: int = 1, renew: bool = False) -> Decimal:
    base = Decimal(CARDS[card][1])
    grouped = base * (100 - group_off(card, people)) / 100
    if renew and card == "年卡":
        return min(grouped, base - RENEW_OFF)  # never both: the better one
    return grouped


def refund_pct(days: int, used: bool = True) -> int:
    if days <= 7 and not used:
        return 100
    return next(p for _, lo, hi, _, p in REFUND[1:] if lo <= days <= hi)


def weight_band(kg: Decimal) -> tuple:
    return next(b for b in WEIGHT if b[1] < kg <= b[2])


def plan_pct(version: str = "2026") -> int:
    return PLAN_PCT[version]


def neuter_pence(kg: str, sex: str, plan: bool = False, version: str = "2026") -> int:
    b = weight_band(Decimal(kg))
    price = (b[3] if sex == "F" else b[4]) * 100
    return price * (100 - (plan_pct(version) if plan else 0)) // 100


def consult_pence(when: str, plan: bool = False, age: int = 0) -> int:
    col = {"weekday": 0, "saturday": 1, "ooh": 2}[when]
    base = CONSULT["Vet consultation (15 minutes)"][col] * 100
    offs = [0]
    if plan and when != "ooh":  # the plan discount is not given out of hours
        offs.append(plan_pct())
    if age >= PENSIONER_AGE and when == "weekday":
        offs.append(PENSIONER_PCT)
    return base * (100 - max(offs)) // 100  # never added together


def booster_price(species: str, months_late: int) -> int:
    if months_late > BOOSTER_LATE_MONTHS:
        return VACC[f"{species} primary vaccination course (2 injections)"]
    return VACC[f"{species} annual booster"]


def deposit(estimate: int) -> Decimal:
    pct = next(p for _, lo, hi, _, p in DEPOSIT if lo <= estimate <= hi)
    return Decimal(estimate) * pct / 100


def ward(species: str, kg: Decimal) -> int:
    key = "Cat" if species == "Cat" else ("Dog up to 25 kg" if kg <= 25 else "Dog over 25 kg") if species == "Dog" else "Rabbit or other small pet"
    return next(a for n, a, _ in WARD if n == key)


def oncall_pay(role: str, night: str, callouts: int = 0) -> int:
    a, b, c, d = ONCALL[role]
    return {"weeknight": a, "weekend": b, "bank_holiday": c}[night] + callouts * d  # bank holiday rate only


def leave_fv(r: dict) -> Decimal:
    if r["contract"] in ("Locum", "Student"):
        return Decimal(0)
    full = [d for _, lo, d in LEAVE_FV if whole_years(r["start_date"]) >= lo][-1]
    days = Decimal(full) * Decimal(r["hours_per_week"]) / 40
    return (days * 2).to_integral_value(rounding=ROUND_CEILING) / 2


def plan_monthly(r: dict, version: str = "2026") -> str:
    if r["species"] != "Dog":
        return PLAN_PRICE[version][r["species"]]
    kg = Decimal(r["weight_kg"])
    key = "Dog up to 10 kg" if kg <= 10 else "Dog 10.1–25 kg" if kg <= 25 else "Dog over 25 kg"
    return PLAN_PRICE[version][key]


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    c["fq-005"] = (pt_price("高级", 15), 410, "410元")
    c["fq-007"] = (CARDS["季卡"][1], 999, "999 yuan")
    c["fq-009"] = (refund_pct(4 * 30), 60, "60%")
    c["fq-010"] = (ALLOWANCE["救生员"][1], 60, "60 yuan")
    c["fq-011"] = (sum(r["救生员证"] == "有" for r in STAFF_QH), 7, "7人")
    pts = [int(r["累计工作年限"]) for r in STAFF_QH if r["岗位"] == "私人教练"]
    c["fq-012"] = (sum(pts) / len(pts), 11, "11年")
    c["fq-013"] = (sum(int(r["数量"]) for r in EQUIP_QH if r["门店"] == "高新店" and r["名称"] == "商用跑步机" and r["状态"] == "在用"),
                   9, "9 treadmills")
    c["fq-014"] = (sum(int(r["数量"]) * int(r["单价(元)"]) for r in EQUIP_QH if r["名称"] == "动感单车" and r["状态"] == "在用"),
                   369600, "369600元")
    live = [r for r in EQUIP_QH if r["状态"] == "在用"]
    old = min(live, key=lambda r: int(r["购置年份"]))
    assert sum(r["购置年份"] == old["购置年份"] for r in live) == 1
    c["fq-015"] = ((old["编号"], old["名称"], old["购置年份"]), ("QJ08", "泳池水处理系统", "2016"), "泳池水处理系统")
    dk = next(r for r in STAFF_QH if r["姓名"] == "邓凯")
    c["fq-016"] = (leave_qh(dk), 11, "11 days")
    c["fq-017"] = (100 - group_off("季卡", 25), 90, "9折")
    c["fq-018"] = (card_price("年卡", 8, renew=True), 2412, "2412元")
    c["fq-019"] = (POOL_EXTRA["月卡"], 20, "20元")
    c["fq-020"] = (FREEZE_MEDICAL_DAYS, 180, "180 days")
    ym = next(r for r in STAFF_QH if r["姓名"] == "姚敏")
    c["fq-021"] = ((ym["岗位"], ym["用工形式"], seniority_bonus(ym)), ("私人教练", "兼职", 0), "没有")
    c["fq-026"] = (COMMISSION["2026"]["高级教练"], 130, "130 yuan")
    c["fq-027"] = (BEST["2026"], 5000, "5000元")
    tw = next(r for r in STAFF_QH if r["姓名"] == "唐婉清")
    c["fq-029"] = ((tw["岗位"], tw["救生员证"]), ("私人教练", "无"), "不能")
    c["fq-035"] = (_p(consult_pence("saturday")), "£62.00", "£62")
    c["fq-036"] = (weight_band(Decimal(32))[5], 350, "£350")
    c["fq-037"] = (neuter_pence(str(44 * JIN_KG), "F"), 36500, "£365")  # 44斤 = 22 kg
    c["fq-038"] = (oncall_pay("Registered Veterinary Nurse (RVN)", "bank_holiday"), 180, "£180")
    c["fq-039"] = (deposit(650), 195, "£195")
    c["fq-040"] = (ward("Dog", Decimal(30)), 72, "£72")
    c["fq-041"] = (sum(r["cd_signatory"] == "Yes" for r in STAFF_FV), 5, "5 staff")
    labs = [Decimal(r["weight_kg"]) for r in PETS if r["breed"] == "Labrador Retriever" and r["status"] == "Active"]
    c["fq-042"] = (sum(labs) / len(labs), Decimal("30.5"), "30.5 kg")
    rvn = [Decimal(r["hours_per_week"]) for r in STAFF_FV if r["role"] == "RVN"]
    c["fq-043"] = (sum(rvn) / len(rvn), Decimal("32.5"), "32.5 hours")
    c["fq-044"] = (sum(r["species"] == "Cat" and r["status"] == "Active" for r in PETS), 9, "9只")
    act = [r for r in PETS if r["status"] == "Active"]
    first = min(act, key=lambda r: r["joined"])
    assert sum(r["joined"][:4] == first["joined"][:4] for r in act) == 1
    c["fq-045"] = ((first["plan_no"], first["pet_name"], first["joined"]), ("FP025", "Misty", "2014-09-08"), "Misty")
    br = next(r for r in PETS if r["pet_name"] == "Bramble")
    assert br["neutered"] == "No" and br["status"] == "Active"
    c["fq-046"] = (_p(neuter_pence(br["weight_kg"], br["sex"], plan=True)), "£321.20", "£321.20")
    td = next(r for r in PETS if r["pet_name"] == "Teddy")
    assert td["neutered"] == "No" and td["status"] == "Active" and td["sex"] == "M"
    c["fq-047"] = (_p(neuter_pence(td["weight_kg"], td["sex"], plan=True)), "£215.60", "£215.60")
    c["fq-048"] = (_p(consult_pence("weekday", plan=True, age=70)), "£45.76", "£45.76")
    c["fq-049"] = (_p(consult_pence("ooh", plan=True)), "£165.00", "£165")
    c["fq-050"] = (booster_price("Dog", 4), 76, "£76")
    c["fq-056"] = (PLAN_PRICE["2026"]["Cat"], "£16.00", "£16.00")
    c["fq-057"] = (PLAN_PCT["2026"], 12, "12%")
    bh = next(r for r in STAFF_FV if r["name"] == "Ben Harcourt")
    c["fq-058"] = (bh["cd_signatory"], "No", "cannot")
    nr = next(r for r in STAFF_FV if r["name"] == "Nia Rowntree")
    c["fq-060"] = (nr["xray_trained"], "No", "不能")
    # chains
    c["cv-qh-01"] = ((pt_price("中级", 5), pt_price("中级", 40), pt_price("资深", 40)), (350, 300, 500), "500元")
    c["cv-qh-02"] = ((COMMISSION["2026"]["初级教练"], COMMISSION["2026"]["资深教练"], COMPLAINT["2026"]), (70, 180, 200), "200元")
    c["cv-qh-03"] = (CARDS["年卡"][1], 2680, "2680元")
    night = [r for r in STAFF_QH if r["门店"] == "高新店" and r["通宵班"] == "是"]
    tech = [r for r in night if r["岗位"] == "维修技工"]
    assert len(tech) == 1
    c["cv-qh-04"] = ((len(night), tech[0]["姓名"], ALLOWANCE["维修技工、保洁员"][0]), (6, "汤文杰", 70), "70 yuan")
    coaches = [r for r in STAFF_QH if r["岗位"] == "私人教练"]
    top = max(coaches, key=lambda r: int(r["累计工作年限"]))
    assert sum(r["累计工作年限"] == top["累计工作年限"] for r in coaches) == 1 and top["救生员证"] == "有"
    c["cv-qh-05"] = ((top["姓名"], leave_qh(top), ALLOWANCE["私人教练、团课教练"][1]), ("郭大鹏", 17, 50), "17 days")
    c["cv-qh-06"] = ((MONTHLY["2026"][1], MONTHLY["2026"][2]), ("500元", "1200元"), "1200元")
    c["cv-fv-01"] = ((_p(neuter_pence("9", "F")), _p(neuter_pence("26", "F")), _p(neuter_pence("26", "F", plan=True))),
                     ("£310.00", "£440.00", "£387.20"), "£387.20")
    c["cv-fv-02"] = ((PLAN_PRICE["2026"]["Dog over 25 kg"], PLAN_PRICE["2026"]["Rabbit"], CANCEL_FEE["2026"]),
                     ("£26.00", "£10.50", "£35"), "£35")
    c["cv-fv-03"] = ((VACC["Cat annual booster"], AFTERCARE[1][3], AFTERCARE[2][3]), (50, 110, 260), "£260")
    st = min(STAFF_FV, key=lambda r: r["start_date"])
    c["cv-fv-04"] = ((st["name"], leave_fv(st)), ("Helen Marchbank", 30), "30 days")
    lab = [r for r in PETS if r["breed"] == "Labrador Retriever" and r["status"] == "Active"]
    heavy = max(lab, key=lambda r: Decimal(r["weight_kg"]))
    c["cv-fv-05"] = ((len(lab), heavy["pet_name"], plan_monthly(heavy)), (3, "Otis", "£26.00"), "£26.00")
    vet = "Vet (including the Clinical Director and locum vets)"
    c["cv-fv-06"] = ((oncall_pay(vet, "weeknight"), oncall_pay(vet, "weeknight", 2), oncall_pay(vet, "bank_holiday", 2)),
                     (120, 220, 400), "£400")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(PRICES, "年满25周岁的不予办理")],
    "fq-002": [(RULES, "每人每月通宵班不超过8个，连续通宵班不超过4个")],
    "fq-003": [(PRICES, "办卡后30天内未入场的，自第31天起自动激活")],
    "fq-004": [(SERVICE, "会员取消私教课须在上课前12小时提出")],
    "fq-005": [(PRICES, "10–29节 260 320 410 550")],
    "fq-006": [(SERVICE, "年卡 | 2次 | 两次合计不超过60天 | 第1次免费，第2次50元")],
    "fq-007": [(PRICES, "季卡 90天 999 办卡门店")],
    "fq-008": [(PRICES, "储物柜月租 60元/月")],
    "fq-009": [(SERVICE, "31天至180天 | 按剩余天数折算金额的60%退还")],
    "fq-010": [(RULES, "| 救生员 | 不发放 | 60 | 20 |")],
    "fq-016": [(RULES, "| 满10年不满20年 | 10天 |"), (RULES, "| 满5年不满10年 | 1天 |")],
    "fq-017": [(PRICES, "季卡最多按9折计算，一次购卡20人及以上的也按9折")],
    "fq-018": [(PRICES, "续费立减与团体购卡折扣不同时享受，按对会员有利的一项计算"), (PRICES, "5–19人 9折")],
    "fq-019": [(PRICES, "各种会员卡均可使用南湖店恒温泳池，但月卡和次卡会员每次使用泳池另收20元")],
    "fq-020": [(SERVICE, "因怀孕或因伤病住院不能训练的，凭医院证明可以冻结，最长180天，不受上表次数和天数的限制")],
    "fq-021": [(RULES, "兼职人员和实习人员不发工龄奖")],
    "fq-026": [(C26, "高级教练 130"), (C24, "高级教练 110"), (C26, "《教练课时提成与考核办法（2024版）》同时废止")],
    "fq-027": [(C26, "年度优秀教练奖5000元"), (C24, "年度优秀教练奖3000元")],
    "fq-028": [(C26, "赠送的私教课按上表标准的一半发放提成")],
    "fq-029": [(RULES, "员工名册中“救生员证”登记为“无”的人员一律不得在泳池值班，泳池缺人时临时顶班的教练也不例外")],
    "fq-030": [(PRICES, "学生年卡只能在周一至周五使用，周六、周日和法定节假日不能入场")],
    "fq-031": [(FEES, "Book at least 10 days before you travel")],
    "fq-032": [(POLICIES, "Visiting hours are 14:00–16:00 every day")],
    "fq-033": [(POLICIES, "must be examined by a vet at least every 6 months before repeat prescriptions can continue")],
    "fq-034": [(P26, "runs for a minimum of 12 months"), (P24, "runs for a minimum of 12 months")],
    "fq-035": [(FEES, "Vet consultation (15 minutes) £52 £62 £165")],
    "fq-036": [(FEES, "25.1–40 kg £440 £345 £350")],
    "fq-037": [(FEES, "10.1–25 kg £365 £290 £315")],
    "fq-038": [(HANDBOOK, "| Registered Veterinary Nurse (RVN) | £70 | £120 | £180 | £30 |")],
    "fq-039": [(POLICIES, "£300–£999 30% of the estimate")],
    "fq-040": [(POLICIES, "Dog over 25 kg £72 £165")],
    "fq-046": [(P26, "Plan members get 12% off vet consultations in normal opening hours, neutering"), (FEES, "10.1–25 kg £365")],
    "fq-047": [(FEES, "Up to 10 kg £310 £245 £285"), (P26, "Plan members get 12% off")],
    "fq-048": [(FEES, "Discounts are never added together: you get whichever is larger"),
               (FEES, "Clients aged 66 or over get 10% off vet consultations on weekdays")],
    "fq-049": [(P26, "The discount is not given on out-of-hours consultations"), (FEES, "£52 £62 £165")],
    "fq-050": [(FEES, "the vaccination course has to be started again and is charged at the primary course price")],
    "fq-051": [(POLICIES, "The first missed appointment in any 12 months is not charged")],
    "fq-056": [(P26, "Cat | £16.00"), (P24, "Cat | £14.50"), (P26, "replace the Pet Health Plan Terms 2024, which are withdrawn")],
    "fq-057": [(P26, "Plan members get 12% off"), (P24, "Plan members get 10% off")],
    "fq-058": [(HANDBOOK, "Only staff marked cd_signatory Yes in staff.csv may sign the controlled drugs register")],
    "fq-059": [(HANDBOOK, "Student nurses are never on call on their own")],
    "fq-060": [(HANDBOOK, "Only staff marked xray_trained Yes may take radiographs")],
    "cv-qh-01": [(PRICES, "30–59节 240 300 380 500")],
    "cv-qh-02": [(C26, "初级教练 70"), (C24, "初级教练 60"), (C26, "会员有效投诉（每次） 200元")],
    "cv-qh-03": [(SERVICE, "开课前1小时以内不能取消预约。当月预约后未到场累计3次的，暂停团课预约7天")],
    "cv-qh-04": [(RULES, "通宵班只安排员工名册中“通宵班”登记为“是”的人员"), (RULES, "| 维修技工、保洁员 | 70 | 30 | 20 |")],
    "cv-qh-05": [(RULES, "| 满20年及以上 | 15天 |"), (RULES, "| 满10年及以上 | 2天 |"), (RULES, "| 私人教练、团课教练 | 80 | 50 | 20 |")],
    "cv-qh-06": [(C26, "40–79节 500元"), (C24, "40–79节 300元"), (C26, "兼职教练不参加月度课时奖")],
    "cv-fv-01": [(FEES, "25.1–40 kg £440"), (P26, "Plan members get 12% off")],
    "cv-fv-02": [(P26, "Rabbit | £10.50"), (P24, "Rabbit | £9.50"), (P26, "plus an administration fee of £35")],
    "cv-fv-03": [(FEES, "Cat annual booster £50"), (POLICIES, "Individual cremation, ashes returned £140 £195 £260")],
    "cv-fv-04": [(HERE / FV / "staff.csv", "FS01,Helen Marchbank,Clinical Director,Tanner's Row,Permanent,40,2009-09-01"),
                 (HANDBOOK, "| 10 years or more | 30 days |")],
    "cv-fv-05": [(P26, "Dog over 25 kg | £26.00"), (P24, "Dog over 25 kg | £23.00")],
    "cv-fv-06": [(HANDBOOK, "is paid at the bank holiday rate only; the rates are not added together")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(QH, "停车"), (QH, "车位"), (QH, "泊车"), (QH, "车库")],
    "fq-023": [(QH, "家庭"), (QH, "情侣"), (QH, "亲子"), (QH, "夫妻"), (QH, "re:(?i)family"), (QH, "re:(?i)couple")],
    "fq-024": [(QH, "蛋白粉"), (QH, "补剂"), (QH, "营养"), (QH, "乳清")],
    "fq-025": [(QH, "公积金"), (QH, "社保"), (QH, "社会保险"), (QH, "五险")],
    "fq-052": [(FV, "re:(?i)hydro"), (FV, r"re:(?i)\bswim"), (FV, "re:(?i)treadmill"), (FV, "水疗")],
    "fq-053": [(FV, "re:(?i)groom"), (FV, r"re:(?i)\bbath"), (FV, "re:(?i)haircut"), (FV, "美容")],
    "fq-054": [(FV, "寄养"), (FV, r"re:(?i)\bboard"), (FV, "re:(?i)cattery"), (FV, "re:(?i)pet.?sit")],
    "fq-055": [(FV, "re:(?i)farm"), (FV, "re:(?i)goat"), (FV, "re:(?i)livestock"), (FV, r"re:(?i)\bhorse"), (FV, "re:(?i)equine")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return QH if k.startswith("cv-qh") else FV
    return QH if int(k[3:]) <= 30 else FV


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
            if isinstance(fname, Path):  # a CSV row, read as text
                found = needle in fname.read_text(encoding="utf-8")
                fname = fname.name
            else:
                found = has(org_of(k), fname, needle)
            if not found:
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
        # cross_language: an English question over the Chinese company, a Chinese question over the English practice
        zh_q = is_zh(r["question"])
        assert r["cross_language"] == (zh_q if r["org"] == FV else not zh_q), k
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
    assert [c["id"] for c in chains] == [f"cv-qh-{i:02d}" for i in range(1, 7)] + [f"cv-fv-{i:02d}" for i in range(1, 7)]
    for c in chains:
        assert list(c) == ["id", "org", "kind", "split", "turns", "note"], c["id"]
        assert c["org"] == org_of(c["id"]) and c["kind"] == "followup", c["id"]
        assert c["id"] in comp or EVIDENCE.get(c["id"]), f"no evidence for {c['id']}"
        assert c["split"] == ("dev" if int(c["id"][-2:]) % 2 else "held"), c["id"]
        assert 2 <= len(c["turns"]) <= 3
        assert len(c["turns"]) == (2 if c["id"].endswith("-04") else 3), c["id"]
        for t in c["turns"]:
            assert t["answers"], c["id"]
            for m in t.get("must_not", []):
                assert not any(m in a for a in t["answers"]), (c["id"], m)
            # lang marks a turn written in the other organisation's language
            zh_t = is_zh(t["message"])
            other = "en" if c["org"] == QH else "zh"
            assert (t.get("lang") == other) == (zh_t if c["org"] == FV else not zh_t), (c["id"], t["message"])
    assert sum(len(c["turns"]) for c in chains) == 34
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (QH, FV):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 8, org
        assert sum(r["split"] == "dev" for r in qs if r["org"] == org) == 15, org
    assert sum(c["split"] == "dev" for c in chains) == 6
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
