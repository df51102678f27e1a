"""Check the gold answers of orgdocs_blind9 against the generated documents (CC0).

    python tests/data/orgdocs_blind9/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, computed answers are recomputed from the CSVs
and the gold value must appear among the gold answer strings, and the asked-for fact of every near miss is
absent from its collection. Exits 1 on a failure. (The checks repeat those of ../orgdocs_blind8/check_answers.py.)
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
XY, DM = "xingyuan-carhire", "dunmarrow-museums"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (XY, DM)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


PRICES, RULES, SERVICE = "租车价目表（2026年）.html", "员工考勤与补贴办法.md", "租车服务与违约规定.docx"
V24, V26 = "车辆保障服务条款（2024版）.pdf", "车辆保障服务条款（2026版）.pdf"
CHARGES, HANDBOOK, VENUE, L23, L26 = ("Admission_and_Charges_2026.html", "Staff_and_Volunteer_Handbook.md",
                                      "Venue_Hire_Terms.docx", "Object_Loans_Policy_2023.pdf", "Object_Loans_Policy_2026.pdf")

STAFF_XY = rows(XY, "员工名册.csv")
FLEET = rows(XY, "车辆清单.csv")
STAFF_DM = rows(DM, "staff.csv")
OBJECTS = rows(DM, "objects.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
GROUPS = {  # 车型组 -> (参考车型, 座位数, 1–2天, 3–6天, 7–29天, 月租, 车辆押金)
    "A组 经济型": ("星澜S3（燃油）", 5, 168, 148, 128, "3280", 3000),
    "B组 舒适型": ("星澜S5（燃油）", 5, 228, 198, 178, "4380", 5000),
    "C组 新能源型": ("远途E5、远途E6（纯电）", 5, 248, 218, 188, "4680", 5000),
    "D组 商务型": ("远途M7（混动）", 7, 368, 328, 288, "6980", 8000),
    "E组 豪华型": ("澜庭L9（混动）", 5, 688, 618, 558, "不提供", 20000),
}
DAY_BANDS = [("1–2天", 1, 2), ("3–6天", 3, 6), ("7–29天", 7, 29)]
HOLIDAY_UP = 30  # 春节和国庆期间的租车日，日租价格一律上浮30%
MEMBERS = [("普通会员", "注册即可", "无折扣", 0), ("银卡会员", "租车满5次或累计租期满20天", "95折", 5),
           ("金卡会员", "租车满12次或累计租期满50天", "9折", 10), ("白金会员", "租车满25次或累计租期满100天", "85折", 15)]
E_MAX_OFF = 5  # E组豪华型最多按95折计算
SEAT_PER_DAY, SEAT_CAP = 30, 300  # 儿童安全座椅 30元/天，每笔订单最高收取300元
ONEWAY = [("澄屿市内的其他行远门店", 0, 0, "免费"), ("市外合作网点，距取车门店100公里以内", 1, 100, "200元"),
          ("市外合作网点，距取车门店101–300公里", 101, 300, "600元"), ("市外合作网点，距取车门店301–600公里", 301, 600, "1200元"),
          ("600公里以上", 601, 10**9, "不提供异地还车")]
EV_ONEWAY_MAX_KM = 300  # C组新能源车异地还车只限300公里以内
OVERTIME = [("1小时以内（含1小时）", "免费"), ("1小时以上至4小时（含4小时）", "每小时50元，全部超时时长计费，不足1小时按1小时计"),
            ("超过4小时", "按1天租金计算")]
OVERTIME_HOURLY = {"default": 50, "E组 豪华型": 100}
CANCEL = [("取车时间前48小时以上", 48.0001, math.inf, "免费取消", 0), ("取车时间前24小时至48小时", 24, 48, "收取首日租金的30%", 30),
          ("取车时间前不足24小时", 0, 23.9999, "收取首日租金的50%", 50)]
HOLIDAY_FREE_DAYS, HOLIDAY_CANCEL_PCT = 7, 50
COVER = {  # version -> 方案 -> (A–C组, D组, E组) 元/天
    "2024": {"全面保障": (50, 80, 150), "尊享保障": (90, 130, 260)},
    "2026": {"全面保障": (60, 90, 180), "尊享保障": (100, 150, 300)},
}
EXCESS = {"2024": {"基础保障": "最高5000元", "全面保障": "最高1500元", "尊享保障": "0元"},
          "2026": {"基础保障": "最高6000元", "全面保障": "最高2000元", "尊享保障": "0元"}}
ALLOWANCE = {  # 岗位 -> (夜班补贴 元/班, 送车补贴 元/趟, 餐补 元/天)
    "店长": (120, 40, 25), "租赁顾问": (90, "不发放", 20), "车辆专员": (90, 40, 20), "机修技师": (100, 30, 20),
    "车辆整备员": (70, "不发放", 20), "行政人员": ("不发放", "不发放", 20),
}
SENIORITY = [("不满2年", 0, 0), ("满2年不满5年", 2, 150), ("满5年不满8年", 5, 300), ("满8年及以上", 8, 450)]
LEAVE_STAT = [("不满1年", 0, 0), ("满1年不满10年", 1, 5), ("满10年不满20年", 10, 10), ("满20年及以上", 20, 15)]
LEAVE_BONUS = [("不满3年", 0, 0), ("满3年不满8年", 3, 2), ("满8年及以上", 8, 3)]
LEAVE_DAY = dt.date(2026, 1, 1)  # 截至当年1月1日已满的整年数 (both organisations count on 1 January)

ADMISSION = {  # site -> (adult, concession, child)
    "Corn Exchange Museum": ("£9.50", "£7.50", "£4.00"), "The Ropewalk": ("£12.00", "£9.50", "£5.50"),
    "Tollhouse Gallery": ("£6.00", "£4.50", "Free"), "All-sites day ticket": ("£22.00", "£17.00", "£9.00"),
}
GROUP = [("Under 10", 0, 9, "None", 0), ("10–19", 10, 19, "10%", 10), ("20 or more", 20, 10**9, "20%", 20)]
ALLSITES_MAX_OFF = 10
TOURS = {"Highlights tour (45 minutes)": "£4 per person", "Private curator-led tour": "£180 per group"}
FRIENDS = {"Individual": "£38", "Joint": "£60", "Senior (65 or over)": "£30", "Student": "£20", "Patron": "£250"}
SUPPLEMENT = {  # role -> (Sunday per hour, bank holiday per hour, evening event, alarm call-out) pounds
    "Curatorial and collections staff (curators, conservator, collections officer)": ("2.50", "5.00", "45", "40"),
    "Technician": ("2.50", "5.00", "45", "40"), "Visitor Services Assistant": ("2.00", "4.00", "35", "30"),
    "Other staff": ("1.50", "3.00", "30", "30"),
}
LEAVE_DM = [("Under 3 years", 0, 24), ("3 to 6 years", 3, 26), ("7 to 11 years", 7, 28), ("12 years or more", 12, 31)]
FULL_WEEK = 37
SPACES = {  # space -> (weekday daytime per hour, Saturday daytime per hour, evening flat) pounds
    "Great Hall, Corn Exchange Museum": (150, 220, 1200), "Board Room, Corn Exchange Museum": (45, 65, 350),
    "Engine Hall, The Ropewalk": (130, 190, 1000), "Riverside Terrace, Tollhouse Gallery": (60, 90, 450),
}
CHARITY_OFF = 20  # weekday daytime only
HIRE_DEPOSIT = [("Under £500", 0, 499.99, "25% of the hire charge", 25), ("£500–£1,999", 500, 1999.99, "40% of the hire charge", 40),
                ("£2,000 and over", 2000, math.inf, "50% of the hire charge", 50)]
HIRE_CANCEL = [("More than 90 days", "Booking deposit refunded less a £50 administration fee"),
               ("30 to 90 days", "Booking deposit kept"), ("Less than 30 days", "Full hire charge payable")]
LOAN_BANDS = [("Under £10,000", 0, 9999), ("£10,000–£49,999", 10000, 49999), ("£50,000 and over", 50000, 10**12)]
LOAN_FEE = {"2023": (150, 300, 500), "2026": (180, 350, 600)}
COURIER_REQUIRED = ("Not required", "Not required", "Required")
REPORT = {"2023": 60, "2026": 75}
COURIER = {"2023": 250, "2026": 300}


def _g(pence: int | Decimal) -> str:
    pence = int(pence)
    return f"£{pence // 100:,}.{pence % 100:02d}"


TABLE_ROWS = (
    [(XY, PRICES, f"{k} {m} {s} {a} {b} {c} {mo} {d}") for k, (m, s, a, b, c, mo, d) in GROUPS.items()]
    + [(XY, PRICES, "日租价格按整个租期的天数确定档位，例如租5天的，5天都按3–6天的价格计算"),
       (XY, PRICES, "春节（除夕至正月初六）和国庆（10月1日至7日）期间的租车日，日租价格一律上浮30%；月租不上浮"),
       (XY, PRICES, "白金会员租用A组至D组车辆免收车辆押金；E组豪华型一律收取车辆押金")]
    + [(XY, PRICES, f"{name} {cond} {label}") for name, cond, label, _ in MEMBERS]
    + [(XY, PRICES, "会员折扣只适用于日租租金，不适用于月租、车辆押金、保障服务费和附加服务"),
       (XY, PRICES, "E组豪华型最多按95折计算，金卡会员和白金会员租用E组的也按95折"),
       (XY, PRICES, "会员折扣与优惠券不同时使用，按对会员有利的一项计算"),
       (XY, PRICES, "儿童安全座椅 30元/天 每笔订单最高收取300元"),
       (XY, PRICES, "C组新能源车异地还车只限300公里以内")]
    + [(XY, PRICES, f"{place} {fee}") for place, _, _, fee in ONEWAY]
    + [(XY, SERVICE, f"{a} | {b}") for a, b in OVERTIME]
    + [(XY, SERVICE, "E组豪华型车辆超时1小时以上至4小时的，每小时按100元计算")]
    + [(XY, SERVICE, f"{name} | {label}") for name, _, _, label, _ in CANCEL]
    + [(XY, SERVICE, "春节和国庆期间取车的订单，须在取车时间前7天以上取消才免费；取车前7天以内取消的，一律收取首日租金的50%")]
    + [(XY, RULES, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in ALLOWANCE.items()]
    + [(XY, RULES, f"| {name} | {n} |") for name, _, n in SENIORITY]
    + [(XY, RULES, "兼职人员和实习人员不发工龄津贴"), (XY, RULES, "实习人员和兼职人员不享受年休假和企业福利假")]
    + [(XY, RULES, f"| {name} | {d}天 |") for name, _, d in LEAVE_STAT + LEAVE_BONUS]
    + [(XY, V24 if v == "2024" else V26, f"{k} {a} {b} {c}") for v, tab in COVER.items() for k, (a, b, c) in tab.items()]
    + [(XY, V24 if v == "2024" else V26, f"{k} {n}") for v, tab in EXCESS.items() for k, n in tab.items()]
    + [(XY, f, "保障服务费按租期天数计算，最多收取30天") for f in (V24, V26)]
    + [(XY, f, "购买尊享保障的，免收停运损失费") for f in (V24, V26)]
    + [(DM, CHARGES, f"{k} {a} {b} {c}") for k, (a, b, c) in ADMISSION.items()]
    + [(DM, CHARGES, f"{name} {label}") for name, _, _, label, _ in GROUP]
    + [(DM, CHARGES, "but the all-sites day ticket gets at most 10% off, even for groups of 20 or more"),
       (DM, CHARGES, "The Friends discount is not given on venue hire, on tours or on handling sessions")]
    + [(DM, CHARGES, f"{k} {v}") for k, v in TOURS.items()]
    + [(DM, CHARGES, f"{k} {v}") for k, v in FRIENDS.items()]
    + [(DM, HANDBOOK, f"| {k} | £{a} | £{b} | £{c} | £{d} |") for k, (a, b, c, d) in SUPPLEMENT.items()]
    + [(DM, HANDBOOK, "A Sunday that is also a bank holiday is paid the bank holiday supplement only; the supplements are not added together"),
       (DM, HANDBOOK, "Alarm call-outs are paid for each time you are called out, on top of any other payment"),
       (DM, HANDBOOK, "rounded up to the next half day")]
    + [(DM, HANDBOOK, f"| {name} | {d} days |") for name, _, d in LEAVE_DM]
    + [(DM, VENUE, f"{k} | {cap} | £{a:,} | £{b:,} | £{c:,}") for (k, (a, b, c)), cap in
       zip(SPACES.items(), ["200 / 120", "30 / 20", "150 / 90", "40 / 24"], strict=True)]
    + [(DM, VENUE, "Registered charities get 20% off weekday daytime hire; the charity discount is not given on Saturdays or for evening hire")]
    + [(DM, VENUE, f"{name} | {label}") for name, _, _, label, _ in HIRE_DEPOSIT]
    + [(DM, VENUE, f"{a} | {b}") for a, b in HIRE_CANCEL]
    + [(DM, L23 if v == "2023" else L26, f"{band} £{fee} {cour}") for v, fees in LOAN_FEE.items()
       for (band, _, _), fee, cour in zip(LOAN_BANDS, fees, COURIER_REQUIRED, strict=True)]
    + [(DM, L23 if v == "2023" else L26, f"Condition report, per object £{n}") for v, n in REPORT.items()]
    + [(DM, L23 if v == "2023" else L26, f"Courier, per day (travel and hotel charged at cost) £{n}") for v, n in COURIER.items()]
    + [(DM, f, "Members of the Tamsey Valley Museums Partnership pay no administration fee; condition reports and "
               "couriers are still charged to them") for f in (L23, L26)]
)


def whole_years(start: str, on: dt.date = LEAVE_DAY) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


# ---- 行远租车 ----------------------------------------------------------------------------------------

def day_rate(group: str, days: int, holiday: bool = False) -> Decimal:
    j = next(j for j, (_, lo, hi) in enumerate(DAY_BANDS) if lo <= days <= hi)
    base = Decimal(GROUPS[group][2 + j])
    return base * (100 + HOLIDAY_UP) / 100 if holiday else base


def member_off(level: str, group: str) -> int:
    off = next(o for name, _, _, o in MEMBERS if name == level)
    return min(off, E_MAX_OFF) if group == "E组 豪华型" else off


def seat_charge(days: int) -> int:
    return min(SEAT_PER_DAY * days, SEAT_CAP)


def oneway_fee(km: int, group: str) -> str:
    if group == "C组 新能源型" and km > EV_ONEWAY_MAX_KM:
        return "不提供"
    return next(fee for _, lo, hi, fee in ONEWAY if lo <= km <= hi)


def overtime_fee(hours: Decimal, group: str) -> int | str:
    if hours <= 1:
        return 0
    if hours <= 4:
        return math.ceil(hours) * OVERTIME_HOURLY.get(group, OVERTIME_HOURLY["default"])
    return "1天租金"


def cancel_pct(hours_before: float, holiday: bool = False) -> int:
    if holiday:
        return 0 if hours_before > HOLIDAY_FREE_DAYS * 24 else HOLIDAY_CANCEL_PCT
    return next(p for _, lo, hi, _, p in CANCEL if lo <= hours_before <= hi)


def cover_fee(version: str, plan: str, group: str, days: int) -> int:
    col = {"D组 商务型": 1, "E组 豪华型": 2}.get(group, 0)
    return COVER[version][plan][col] * min(days, 30)


def leave_xy(r: dict) -> int:
    if r["用工形式"] in ("实习", "兼职"):  # 不享受年休假和企业福利假
        return 0
    stat = [d for _, lo, d in LEAVE_STAT if int(r["累计工作年限"]) >= lo][-1]
    bonus = [d for _, lo, d in LEAVE_BONUS if whole_years(r["入职日期"]) >= lo][-1]
    return stat + bonus


def seniority_pay(r: dict) -> int:
    if r["用工形式"] != "全职":  # 兼职人员和实习人员不发工龄津贴
        return 0
    return [n for _, lo, n in SENIORITY if whole_years(r["入职日期"]) >= lo][-1]


def may_deliver(r: dict) -> bool:
    return r["准驾送车"] == "是" and int(r["驾龄"]) >= 3


# ---- Dunmarrow Museums ------------------------------------------------------------------------------

def pence(s: str) -> int:
    return int(Decimal(s.replace("£", "").replace(",", "")) * 100)


def group_ticket(kind: str, people: int, col: int = 0) -> str:
    off = next(o for _, lo, hi, _, o in GROUP if lo <= people <= hi)
    if kind == "All-sites day ticket":
        off = min(off, ALLSITES_MAX_OFF)
    return _g(pence(ADMISSION[kind][col]) * (100 - off) // 100)


def hire_charge(space: str, when: str, hours: int = 0, charity: bool = False) -> int:
    wd, sat, eve = SPACES[space]
    if when == "evening":
        return eve
    total = (wd if when == "weekday" else sat) * hours
    if charity and when == "weekday":  # not on Saturdays or for evening hire
        total = total * (100 - CHARITY_OFF) // 100
    return total


def hire_deposit(total: int) -> Decimal:
    pct = next(p for _, lo, hi, _, p in HIRE_DEPOSIT if lo <= total <= hi)
    return Decimal(total) * pct / 100


def supplement(role: str, hours: int, sunday: bool, bank_holiday: bool) -> Decimal:
    sun, bh, _, _ = SUPPLEMENT[role]
    rate = Decimal(bh) if bank_holiday else Decimal(sun) if sunday else Decimal(0)  # never added together
    return rate * hours


def event_pay(role: str, callouts: int = 0) -> int:
    _, _, eve, call = SUPPLEMENT[role]
    return int(eve) + callouts * int(call)


def leave_dm(r: dict) -> Decimal:
    if r["contract"] == "Casual":
        return Decimal(0)
    full = [d for _, lo, d in LEAVE_DM if whole_years(r["start_date"]) >= lo][-1]
    days = Decimal(full) * Decimal(r["hours_per_week"]) / FULL_WEEK
    return (days * 2).to_integral_value(rounding=ROUND_CEILING) / 2


def loan_charges(value: int, version: str = "2026", partner: bool = False) -> tuple[int, int, bool]:
    """(administration fee, condition report, courier required) for one object."""
    j = next(j for j, (_, lo, hi) in enumerate(LOAN_BANDS) if lo <= value <= hi)
    admin = 0 if partner else LOAN_FEE[version][j]
    return admin, REPORT[version], COURIER_REQUIRED[j] == "Required"


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    c["fq-005"] = (day_rate("B组 舒适型", 5), 198, "198元")
    c["fq-006"] = (GROUPS["E组 豪华型"][6], 20000, "20000 yuan")
    c["fq-007"] = (oneway_fee(250, "A组 经济型"), "600元", "600元")
    c["fq-008"] = (cancel_pct(30), 30, "30%")
    c["fq-009"] = (100 - member_off("金卡会员", "B组 舒适型"), 90, "9折")
    c["fq-010"] = (ALLOWANCE["机修技师"][0], 100, "100 yuan")
    c["fq-011"] = (sum(r["准驾送车"] == "是" for r in STAFF_XY), 12, "12人")
    assert all(int(r["驾龄"]) >= 3 for r in STAFF_XY if r["准驾送车"] == "是")
    spec = [int(r["驾龄"]) for r in STAFF_XY if r["岗位"] == "车辆专员"]
    c["fq-012"] = (sum(spec) / len(spec), 12, "12年")
    ev = [int(r["累计里程(公里)"]) for r in FLEET if r["能源类型"] == "纯电" and r["状态"] == "在租"]
    c["fq-013"] = (sum(ev) / len(ev), 38520, "38520公里")
    c["fq-014"] = (sum(int(r["购入价(元)"]) for r in FLEET if r["车型组"] == "D" and r["状态"] != "已处置"),
                   855200, "855,200 yuan")
    out = [r for r in FLEET if r["状态"] == "在租"]
    old = min(out, key=lambda r: int(r["购入年份"]))
    assert sum(r["购入年份"] == old["购入年份"] for r in out) == 1
    c["fq-015"] = ((old["编号"], old["车型"], old["门店"], old["购入年份"]), ("CL09", "星澜S3", "柳泽店", "2020"), "CL09")
    gw = next(r for r in STAFF_XY if r["姓名"] == "龚伟")
    c["fq-016"] = (leave_xy(gw), 12, "12天")
    c["fq-017"] = (100 - member_off("白金会员", "E组 豪华型"), 95, "95折")
    c["fq-018"] = (seat_charge(12), 300, "300元")
    c["fq-019"] = (cancel_pct(72, holiday=True), 50, "50%")
    c["fq-020"] = (day_rate("B组 舒适型", 4, holiday=True), Decimal("257.4"), "257.4 yuan")
    wy = next(r for r in STAFF_XY if r["姓名"] == "汪洋")
    assert whole_years(wy["入职日期"]) == 3
    c["fq-021"] = ((wy["岗位"], wy["用工形式"], seniority_pay(wy)), ("车辆专员", "兼职", 0), "没有")
    c["fq-026"] = (COVER["2026"]["全面保障"][0], 60, "60元")
    c["fq-027"] = (EXCESS["2026"]["基础保障"], "最高6000元", "6000元")
    cx = next(r for r in STAFF_XY if r["姓名"] == "曹晓东")
    c["fq-029"] = ((cx["岗位"], cx["驾龄"], cx["准驾送车"], may_deliver(cx)), ("车辆专员", "2", "否", False), "不能")
    c["fq-030"] = (oneway_fee(400, "C组 新能源型"), "不提供", "不能")
    c["fq-035"] = (ADMISSION["The Ropewalk"][1], "£9.50", "£9.50")
    c["fq-036"] = (hire_charge("Board Room, Corn Exchange Museum", "evening"), 350, "£350")
    c["fq-037"] = (hire_charge("Great Hall, Corn Exchange Museum", "saturday", 1), 220, "£220")
    c["fq-038"] = (SUPPLEMENT["Visitor Services Assistant"][1], "4.00", "£4.00")
    c["fq-039"] = (hire_deposit(1200), 480, "£480")
    c["fq-040"] = (FRIENDS["Student"], "£20", "£20")
    c["fq-041"] = (sum(r["keyholder"] == "Yes" for r in STAFF_DM), 9, "9 staff")
    pd = [Decimal(r["insured_value_gbp"]) for r in OBJECTS if r["category"] == "Painting" and r["status"] == "On display"]
    c["fq-042"] = (sum(pd) / len(pd), 51000, "£51,000")
    vsa = [Decimal(r["hours_per_week"]) for r in STAFF_DM if r["role"] == "Visitor Services Assistant" and r["contract"] == "Permanent"]
    c["fq-043"] = (sum(vsa) / len(vsa), Decimal("29.3"), "29.3 hours")
    c["fq-044"] = (sum(int(r["insured_value_gbp"]) for r in OBJECTS if r["status"] == "On loan"), 264800, "£264,800")
    shown = [r for r in OBJECTS if r["status"] == "On display"]
    first = min(shown, key=lambda r: int(r["year_acquired"]))
    assert sum(r["year_acquired"] == first["year_acquired"] for r in shown) == 1
    c["fq-045"] = ((first["object_no"], first["title"], first["year_acquired"]),
                   ("DMO006", "Corn Exchange foundation trowel", "1902"), "DMO006")
    hb = next(r for r in STAFF_DM if r["name"] == "Hattie Brannigan")
    c["fq-046"] = (leave_dm(hb), Decimal("17.5"), "17.5 days")
    c["fq-047"] = (group_ticket("All-sites day ticket", 25), "£19.80", "£19.80")
    c["fq-048"] = (hire_charge("Board Room, Corn Exchange Museum", "saturday", 3, charity=True), 195, "£195")
    c["fq-049"] = (supplement("Technician", 8, sunday=True, bank_holiday=True), 40, "£40")
    fh = next(r for r in OBJECTS if r["object_no"] == "DMO030")
    assert fh["status"] == "In store" and fh["title"].startswith("Ship's figurehead")
    adm, rep, cour = loan_charges(int(fh["insured_value_gbp"]), partner=True)
    c["fq-050"] = ((adm, rep, cour, adm + rep), (0, 75, False, 75), "£75")
    c["fq-051"] = (TOURS["Private curator-led tour"], "£180 per group", "£180")  # no Friends discount on tours
    c["fq-056"] = (loan_charges(20000)[0], 350, "£350")
    c["fq-057"] = (COURIER["2026"], 300, "£300")
    ja = next(r for r in STAFF_DM if r["name"] == "Joel Ambrose")
    c["fq-058"] = (ja["object_handling"], "No", "cannot")
    lf = next(r for r in STAFF_DM if r["name"] == "Leon Farrant")
    c["fq-060"] = (lf["keyholder"], "No", "不能")
    # chains
    c["cv-xy-01"] = ((day_rate("A组 经济型", 2), day_rate("A组 经济型", 10), day_rate("D组 商务型", 10)), (168, 128, 288), "288元")
    c["cv-xy-02"] = ((COVER["2026"]["尊享保障"][2], COVER["2026"]["尊享保障"][1], EXCESS["2026"]["全面保障"]),
                     (300, 150, "最高2000元"), "2000元")
    c["cv-xy-03"] = ((overtime_fee(Decimal("2.5"), "B组 舒适型"), overtime_fee(Decimal("2.5"), "E组 豪华型")), (150, 300), "300元")
    night = [r for r in STAFF_XY if r["门店"] == "空港店" and r["夜班"] == "是"]
    prep = [r for r in night if r["岗位"] == "车辆整备员"]
    assert len(prep) == 1
    c["cv-xy-04"] = ((len(night), prep[0]["姓名"], ALLOWANCE["车辆整备员"][0]), (7, "侯桂兰", 70), "70 yuan")
    specs = [r for r in STAFF_XY if r["岗位"] == "车辆专员"]
    top = max(specs, key=lambda r: int(r["累计工作年限"]))
    assert sum(r["累计工作年限"] == top["累计工作年限"] for r in specs) == 1 and top["准驾送车"] == "是"
    c["cv-xy-05"] = ((top["姓名"], leave_xy(top), ALLOWANCE["车辆专员"][1]), ("韩秀兰", 18, 40), "18 days")
    c["cv-xy-06"] = ((cover_fee("2026", "全面保障", "C组 新能源型", 5), cover_fee("2026", "尊享保障", "C组 新能源型", 5)),
                     (300, 500), "500元")
    c["cv-dm-01"] = ((ADMISSION["The Ropewalk"][0], ADMISSION["The Ropewalk"][2], ADMISSION["All-sites day ticket"][2]),
                     ("£12.00", "£5.50", "£9.00"), "£9.00")
    c["cv-dm-02"] = ((loan_charges(60000)[0], REPORT["2026"], COURIER["2026"], loan_charges(60000)[2]), (600, 75, 300, True), "£300")
    c["cv-dm-03"] = ((TOURS["Highlights tour (45 minutes)"], HIRE_CANCEL[0][0]), ("£4 per person", "More than 90 days"), "£50")
    st = min(STAFF_DM, key=lambda r: r["start_date"])
    c["cv-dm-04"] = ((st["name"], leave_dm(st)), ("Eleanor Stroud", 31), "31天")
    rw = [r for r in OBJECTS if r["site"] == "The Ropewalk" and r["status"] == "On display"]
    best = max(rw, key=lambda r: int(r["insured_value_gbp"]))
    c["cv-dm-05"] = ((len(rw), best["object_no"], loan_charges(int(best["insured_value_gbp"]))[0]), (7, "DMO015", 350), "£350")
    vs, tech = "Visitor Services Assistant", "Technician"
    c["cv-dm-06"] = ((event_pay(vs), event_pay(vs, 2), event_pay(tech, 2)), (35, 95, 125), "£125")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(SERVICE, "租用E组豪华型车辆的，驾驶人须年满25周岁且驾龄满3年")],
    "fq-002": [(SERVICE, "还车后30天内未查询到违章记录的，违章押金原路退还"), (PRICES, "每笔订单另收违章押金2000元")],
    "fq-003": [(PRICES, "空港店 澄屿空港T2航站楼到达层 24小时")],
    "fq-004": [(SERVICE, "车内吸烟或有明显烟味 | 深度清洁费500元")],
    "fq-005": [(PRICES, "B组 舒适型 星澜S5（燃油） 5 228 198 178")],
    "fq-006": [(PRICES, "E组 豪华型 澜庭L9（混动） 5 688 618 558 不提供 20000")],
    "fq-007": [(PRICES, "市外合作网点，距取车门店101–300公里 600元")],
    "fq-008": [(SERVICE, "取车时间前24小时至48小时 | 收取首日租金的30%")],
    "fq-009": [(PRICES, "金卡会员 租车满12次或累计租期满50天 9折")],
    "fq-010": [(RULES, "| 机修技师 | 100 | 30 | 20 |")],
    "fq-016": [(RULES, "| 满10年不满20年 | 10天 |"), (RULES, "| 满3年不满8年 | 2天 |")],
    "fq-017": [(PRICES, "E组豪华型最多按95折计算，金卡会员和白金会员租用E组的也按95折")],
    "fq-018": [(PRICES, "儿童安全座椅 30元/天 每笔订单最高收取300元")],
    "fq-019": [(SERVICE, "取车前7天以内取消的，一律收取首日租金的50%")],
    "fq-020": [(PRICES, "日租价格一律上浮30%"), (PRICES, "5天都按3–6天的价格计算")],
    "fq-021": [(RULES, "兼职人员和实习人员不发工龄津贴")],
    "fq-026": [(V26, "全面保障 60 90 180"), (V24, "全面保障 50 80 150"), (V26, "《车辆保障服务条款（2024版）》同时废止")],
    "fq-027": [(V26, "基础保障 最高6000元"), (V24, "基础保障 最高5000元")],
    "fq-028": [(V26, "同一租期内发生第2次及以后事故的，每次事故的用户自付额加倍")],
    "fq-029": [(RULES, "驾龄不满3年的员工一律不得送车，门店人手不足临时顶替的也不例外")],
    "fq-030": [(PRICES, "C组新能源车异地还车只限300公里以内")],
    "fq-031": [(CHARGES, "Groups must book at least 14 days before the visit")],
    "fq-032": [(VENUE, "Hirers must hold public liability insurance of at least £5 million")],
    "fq-033": [(L26, "for no more than 3 months in any 12 months"), (L23, "for no more than 3 months in any 12 months")],
    "fq-034": [(CHARGES, "A Ropewalk ticket bought at the admissions desk can be used for free return visits for 12 months")],
    "fq-035": [(CHARGES, "The Ropewalk £12.00 £9.50 £5.50")],
    "fq-036": [(VENUE, "Board Room, Corn Exchange Museum | 30 / 20 | £45 | £65 | £350")],
    "fq-037": [(VENUE, "Great Hall, Corn Exchange Museum | 200 / 120 | £150 | £220")],
    "fq-038": [(HANDBOOK, "| Visitor Services Assistant | £2.00 | £4.00 | £35 | £30 |")],
    "fq-039": [(VENUE, "£500–£1,999 | 40% of the hire charge")],
    "fq-040": [(CHARGES, "Student £20 One full-time student")],
    "fq-046": [(HANDBOOK, "| 7 to 11 years | 28 days |"), (HANDBOOK, "divided by 37, rounded up to the next half day")],
    "fq-047": [(CHARGES, "All-sites day ticket £22.00"), (CHARGES, "the all-sites day ticket gets at most 10% off")],
    "fq-048": [(VENUE, "the charity discount is not given on Saturdays or for evening hire")],
    "fq-049": [(HANDBOOK, "| Technician | £2.50 | £5.00 | £45 | £40 |"),
               (HANDBOOK, "A Sunday that is also a bank holiday is paid the bank holiday supplement only")],
    "fq-050": [(L26, "Members of the Tamsey Valley Museums Partnership pay no administration fee"),
               (L26, "Condition report, per object £75"), (L26, "£10,000–£49,999 £350 Not required")],
    "fq-051": [(CHARGES, "Private curator-led tour £180 per group"),
               (CHARGES, "The Friends discount is not given on venue hire, on tours or on handling sessions")],
    "fq-056": [(L26, "£10,000–£49,999 £350"), (L23, "£10,000–£49,999 £300"),
               (L26, "replaces the Object Loans Policy 2023, which is withdrawn")],
    "fq-057": [(L26, "Courier, per day (travel and hotel charged at cost) £300"), (L23, "Courier, per day (travel and hotel charged at cost) £250")],
    "fq-058": [(HANDBOOK, "Only staff marked object_handling Yes in staff.csv may move, pack or handle collection objects")],
    "fq-059": [(HANDBOOK, "Nobody opens or closes the Tollhouse Gallery on their own: at least two people must be on site")],
    "fq-060": [(HANDBOOK, "Only staff marked keyholder Yes may hold site keys, set and unset the alarms or be on the alarm call-out list")],
    "cv-xy-01": [(PRICES, "A组 经济型 星澜S3（燃油） 5 168 148 128"), (PRICES, "D组 商务型 远途M7（混动） 7 368 328 288")],
    "cv-xy-02": [(V26, "尊享保障 100 150 300"), (V24, "尊享保障 90 130 260"), (V26, "全面保障 最高2000元")],
    "cv-xy-03": [(PRICES, "空港店 澄屿空港T2航站楼到达层 24小时"),
                 (SERVICE, "1小时以上至4小时（含4小时） | 每小时50元，全部超时时长计费，不足1小时按1小时计")],
    "cv-xy-04": [(RULES, "夜班只安排员工名册中“夜班”登记为“是”的人员"), (RULES, "| 车辆整备员 | 70 | 不发放 | 20 |")],
    "cv-xy-05": [(RULES, "| 满20年及以上 | 15天 |"), (RULES, "| 满8年及以上 | 3天 |"), (RULES, "| 车辆专员 | 90 | 40 | 20 |")],
    "cv-xy-06": [(V26, "全面保障 60 90 180"), (V26, "购买尊享保障的，免收停运损失费")],
    "cv-dm-01": [(CHARGES, "All-sites day ticket £22.00 £17.00 £9.00")],
    "cv-dm-02": [(L26, "£50,000 and over £600 Required"), (L23, "£50,000 and over £500 Required"), (L26, "Condition report, per object £75")],
    "cv-dm-03": [(CHARGES, "Highlights tour (45 minutes) £4 per person"),
                 (VENUE, "More than 90 days | Booking deposit refunded less a £50 administration fee")],
    "cv-dm-04": [(HERE / DM / "staff.csv", "DM01,Eleanor Stroud,Director,Corn Exchange Museum,Permanent,37,2008-04-14"),
                 (HANDBOOK, "| 12 years or more | 31 days |")],
    "cv-dm-05": [(L26, "£10,000–£49,999 £350"), (L23, "£10,000–£49,999 £300")],
    "cv-dm-06": [(HANDBOOK, "Alarm call-outs are paid for each time you are called out, on top of any other payment")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(XY, "宠物"), (XY, "狗"), (XY, "猫"), (XY, "动物")],
    "fq-023": [(XY, "港澳"), (XY, "香港"), (XY, "澳门"), (XY, "出境"), (XY, "跨境"), (XY, "re:(?i)hong ?kong"), (XY, "re:(?i)maca[ou]")],
    "fq-024": [(XY, "司机"), (XY, "代驾"), (XY, "包车"), (XY, "配驾")],
    "fq-025": [(XY, "宿舍"), (XY, "住宿"), (XY, "公寓")],
    "fq-052": [(DM, "re:(?i)wedding"), (DM, "re:(?i)marriage"), (DM, "re:(?i)ceremon"), (DM, "婚礼")],
    "fq-053": [(DM, "re:(?i)family"), (DM, "家庭"), (DM, "亲子")],
    "fq-054": [(DM, "re:(?i)pension"), (DM, "re:(?i)retirement"), (DM, "养老")],
    "fq-055": [(DM, "re:(?i)audio"), (DM, "re:(?i)headset"), (DM, "re:(?i)multimedia guide"), (DM, "语音导览")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return XY if k.startswith("cv-xy") else DM
    return XY if int(k[3:]) <= 30 else DM


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
        # cross_language: an English question over the Chinese company, a Chinese question over the English trust
        zh_q = is_zh(r["question"])
        assert r["cross_language"] == (zh_q if r["org"] == DM else not zh_q), k
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
    assert [c["id"] for c in chains] == [f"cv-xy-{i:02d}" for i in range(1, 7)] + [f"cv-dm-{i:02d}" for i in range(1, 7)]
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
            other = "en" if c["org"] == XY else "zh"
            assert (t.get("lang") == other) == (zh_t if c["org"] == DM else not zh_t), (c["id"], t["message"])
    assert sum(len(c["turns"]) for c in chains) == 34
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (XY, DM):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 8, org
        assert sum(r["split"] == "dev" for r in qs if r["org"] == org) == 15, org
    assert sum(c["split"] == "dev" for c in chains) == 6
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
