"""Check the gold answers of orgdocs_blind11 against the generated documents (CC0).

    python tests/data/orgdocs_blind11/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, the CSV rows agree with the rules they were
written under, computed answers are recomputed from the CSVs and the gold value must appear among the gold
answer strings, and the asked-for fact of every near miss is absent from its collection. Exits 1 on a
failure. (The checks repeat those of ../orgdocs_blind10/check_answers.py.)
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
FS, PW = "fengsui-nongji", "pellam-scaffolding"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (FS, PW)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


PRICES_FS, RULES, TERMS_FS = "作业服务价目表（2025-2026年度）.html", "员工管理与补贴办法.md", "农机作业服务约定与退费规定.docx"
R23, R25 = "农机具出租管理办法（2023版）.pdf", "农机具出租管理办法（2025版）.pdf"
PRICES, HANDBOOK, TERMS, L24, L26 = ("Price_List_2026.html", "Employee_Handbook.md", "Hire_Terms_and_Cancellation.docx",
                                     "Loss_and_Damage_Charges_2024.pdf", "Loss_and_Damage_Charges_2026.pdf")

STAFF_FS = rows(FS, "员工名册.csv")
JOBS_FS = rows(FS, "作业记录.csv")
STAFF_PW = rows(PW, "staff.csv")
JOBS_PW = rows(PW, "jobs.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
TILLAGE = {  # 作业项目 -> (作业要求, 社员价, 非社员价) 元/亩
    "旋耕": ("耕深12至15厘米，一遍", 45, 55), "深翻": ("耕深25厘米以上", 70, 85),
    "小麦机播": ("含播种和镇压，不含种子", 30, 38), "油菜直播": ("不含种子", 28, 35),
    "机插秧": ("含育秧和秧盘，不含种子", 150, 175),
}
SPRAY = {"无人机飞防": (8, 10), "自走式喷杆喷雾": (6, 8)}  # 元/亩·次, never raised
HARVEST = {  # 作物 -> (机型, 社员价, 非社员价) 元/亩
    "水稻": ("履带式联合收割机", 85, 100), "小麦": ("轮式联合收割机", 65, 78),
    "油菜": ("履带式联合收割机（加装割台）", 75, 90), "玉米（摘穗）": ("玉米收获机", 95, 115),
}
JOB_PRICE = {"旋耕": TILLAGE["旋耕"][1:], "深翻": TILLAGE["深翻"][1:], "小麦机播": TILLAGE["小麦机播"][1:],
             "油菜直播": TILLAGE["油菜直播"][1:], "无人机飞防": SPRAY["无人机飞防"],
             "水稻收获": HARVEST["水稻"][1:], "玉米收获": HARVEST["玉米（摘穗）"][1:]}
HILL_UP, LODGED_UP = 15, 25  # 丘陵坡地 耕种和收获 +15%; 倒伏超过三成 收获 +25%; only the higher one
MIN_MU, MIN_TONNE = 3, 2
DRYING = [("20%以下（含20%）", 0, 20, 70, 85), ("20%以上至25%（含25%）", 20, 25, 95, 115),
          ("25%以上至30%（含30%）", 25, 30, 120, 145)]
POINTS = {"合作社办公室（农机大院）": ("石桥镇柳塘村村委会东侧", "7:30–17:30；农忙期6:00–20:00", "6730 2210"),
          "烘干中心": ("石桥镇东坝村工业路6号", "8:00–18:00；秋季农忙期24小时收粮", "6730 2216"),
          "北片服务点": ("石桥镇北圩村文化广场北侧", "8:00–17:00，每周一休息", "6730 2218")}
ALLOWANCE = {  # 岗位 -> (作业补贴 元/亩, 夜班补贴 元/班, 农忙餐补 元/天)
    "机手组长": ("4", "不发放", 30), "收割机手": ("3.5", "不发放", 30), "拖拉机手": ("3", "不发放", 30),
    "飞手": ("0.8", "不发放", 25), "辅助工": ("1", "不发放", 25), "烘干工": ("不发放", 80, 25),
    "维修工": ("不发放", 80, 25), "调度员": ("不发放", 60, 20), "财务人员": ("不发放", "不发放", 20),
}
HILL_EXTRA_ROLES, HILL_EXTRA, MAX_MU_DAY = ("收割机手", "拖拉机手", "机手组长"), Decimal(1), 120
SENIORITY = [("不满2年", 0, 0), ("满2年不满5年", 2, 80), ("满5年不满10年", 5, 150), ("满10年及以上", 10, 260)]
LEAVE_FS = [("不满1年", 0, 0), ("满1年不满5年", 1, 5), ("满5年不满10年", 5, 7), ("满10年不满20年", 10, 10),
            ("满20年及以上", 20, 15)]
WINTER = [("不满3年", 0, 3), ("满3年及以上", 3, 6)]
WINTER_TEAMS = ("机耕组", "收割组", "植保组")
NO_LEAVE_FS = ("季节工", "学徒")
LEAVE_DAY = dt.date(2026, 1, 1)  # both organisations count whole years on 1 January
DEPOSIT_FS = [("500元以下", 0, Decimal("499.99"), "不收定金"), ("500元至2000元（含500元和2000元）", 500, 2000, "100元"),
              ("2000元以上", Decimal("2000.01"), math.inf, "预计作业金额的10%")]
CANCEL_FS = [("约定作业日前2天以上", "全额退还"), ("约定作业日前1天", "退还50%"),
             ("约定作业日当天，机手出发前", "不予退还"), ("机手到达地头以后", "不予退还，另收空跑费150元")]
WASTED_TRIP = 150
LOSS_FREE, LOSS_STEP_PCT, LOSS_MAX_PCT = 3, 5, 30
RENT = {  # version -> 机具 -> (日租金, 押金)
    "2023": {"微耕机": (60, 800), "小型拖拉机（不含农具）": (150, 3000), "配套旋耕机具": (40, 1000),
             "手推式播种机": (30, 500), "背负式喷雾器": (10, 100)},
    "2025": {"微耕机": (80, 1000), "小型拖拉机（不含农具）": (180, 4000), "配套旋耕机具": (50, 1000),
             "手推式播种机": (35, 500), "背负式喷雾器": (10, 200)},
}
LATE = {"2023": Decimal("1.5"), "2025": Decimal(2)}
MAX_DAYS = {"2023": "每次租期最长5天。", "2025": "每次租期最长7天；农忙期每次最长3天。"}

BANDS = {  # band -> (highest working platform, typical building, price per metre, extra week per metre)
    "Band A": ("up to 4 m", "Bungalow or single-storey extension", 32, "2.00"),
    "Band B": ("4.1–7 m", "Two-storey house", 46, "3.00"),
    "Band C": ("7.1–10 m", "Three-storey house or small block of flats", 62, "4.00"),
    "Band D": ("10.1–14 m", "Four-storey building", 84, "5.50"),
}
BAND_TOP = [("A", Decimal(4)), ("B", Decimal(7)), ("C", Decimal(10)), ("D", Decimal(14))]
MIN_CHARGE, FREE_DAYS, WEEK = 480, 28, 7
EXTRAS = {"Loading bay": "£290", "Scaffold alarm": "£35 per week", "Adaptation visit": "£95 per visit"}
DISCOUNTS = {"Trade account": 8, "Repeat customer": 5, "Community": 10}  # one only, the largest; minimum after it
YARDS = {"Quarlby (head office)": ("Unit 9, Foundry Lane Estate, Quarlby", "Monday to Friday 7:00–16:30, Saturday 7:30–11:30"),
         "Corland": ("Plot 3, Wharf Road, Corland", "Monday to Friday 7:30–16:00")}
PAYMENT = [("Under £1,000", 0, Decimal("999.99"), "The whole price on the day of handover", 0),
           ("£1,000–£4,999", 1000, Decimal("4999.99"), "30% when you book, the rest within 14 days of handover", 30),
           ("£5,000 and over", 5000, math.inf, "30% when you book, 50% at handover and 20% after dismantling", 30)]
CANCEL = [("More than 10 working days", 11, math.inf, "Free of charge; anything paid is refunded", "Free of charge"),
          ("5 to 10 working days", 5, 10, "£95 administration fee", "Free of charge"),
          ("2 to 4 working days", 2, 4, "25% of the scaffold price", "£95 rebooking fee"),
          ("Less than 2 working days", 0, 1, "50% of the scaffold price", "Charged as a cancellation")]
PAY = {  # role -> (overtime per hour, height money per day, lodging allowance per night)
    "Supervisor": ("£25.00", "£14", "£55"), "Advanced Scaffolder": ("£23.50", "£14", "£55"),
    "Scaffolder": ("£21.00", "£12", "£50"), "Trainee Scaffolder": ("£17.00", "£8", "£50"),
    "Labourer": ("£15.50", "Not paid", "£45"), "Wagon Driver": ("£17.50", "Not paid", "£45"),
    "Yard Operative": ("£15.00", "Not paid", "Not paid"), "Estimator": ("Not paid", "Not paid", "£45"),
    "Office staff and managers": ("Not paid", "Not paid", "Not paid"),
}
SATURDAY_MIN_HOURS, WET_CUTOFF, WET_HOURS = 4, "11:00", 4
LEAVE_PW = [("Under 3 years", 0, 22), ("3 to 5 years", 3, 24), ("6 to 9 years", 6, 25), ("10 years or more", 10, 27)]
FULL_WEEK = 39
CARD_OF_ROLE = {"Supervisor": "Advanced", "Advanced Scaffolder": "Advanced", "Scaffolder": "Scaffolder",
                "Trainee Scaffolder": "Trainee", "Labourer": "Labourer"}
LEADS = ("Advanced", "Scaffolder")
LOSS = {  # version -> component -> (unit, charge)
    "2024": {"Steel tube": ("per metre", "5.00"), "Coupler or fitting": ("each", "6.50"),
             "Scaffold board (3.9 m)": ("each", "24.00"), "Toe board": ("each", "12.00"), "Ladder": ("per metre", "16.00"),
             "Debris netting": ("per m²", "2.50"), "Alarm sensor": ("each", "120.00")},
    "2026": {"Steel tube": ("per metre", "6.20"), "Coupler or fitting": ("each", "8.00"),
             "Scaffold board (3.9 m)": ("each", "29.00"), "Toe board": ("each", "14.00"), "Ladder": ("per metre", "19.00"),
             "Debris netting": ("per m²", "3.00"), "Alarm sensor": ("each", "150.00")},
}
HANDLING = {"2024": (10, 25), "2026": (15, 40)}  # percent of the component charges, never less than
LD26_FROM = dt.date(2026, 2, 2)
TODAY_PW = dt.date(2026, 3, 2)  # the day jobs.csv was written (Booked after it, Dismantled / On hire by it)


def _rf(v: str) -> str:
    return R23 if v == "2023" else R25


def _lf(v: str) -> str:
    return L24 if v == "2024" else L26


TABLE_ROWS = (
    [(FS, PRICES_FS, f"{k} {a} {m} {n}") for k, (a, m, n) in TILLAGE.items()]
    + [(FS, PRICES_FS, f"{k} {m} {n}") for k, (m, n) in SPRAY.items()]
    + [(FS, PRICES_FS, f"{k} {a} {m} {n}") for k, (a, m, n) in HARVEST.items()]
    + [(FS, PRICES_FS, "丘陵坡地（坡度15度以上）的耕种作业和收获作业，单价上浮15%；倒伏面积超过地块三成的，收获作业单价上浮25%"),
       (FS, PRICES_FS, "两项同时适用的，只按较高的一项上浮，不累加。植保作业和烘干不上浮"),
       (FS, PRICES_FS, "每单作业面积不足3亩的，按3亩计价"),
       (FS, PRICES_FS, "每批不足2吨的，按2吨计费")]
    + [(FS, PRICES_FS, f"{name} {m} {n}") for name, _, _, m, n in DRYING]
    + [(FS, PRICES_FS, f"{k} {a} {h} {t}") for k, (a, h, t) in POINTS.items()]
    + [(FS, RULES, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in ALLOWANCE.items()]
    + [(FS, RULES, "收割机手、拖拉机手和机手组长在丘陵坡地作业的，每亩另加1元。每人每天计发作业补贴的亩数最多120亩")]
    + [(FS, RULES, f"| {name} | {n} |") for name, _, n in SENIORITY]
    + [(FS, RULES, f"| {name} | {d}天 |") for name, _, d in LEAVE_FS + WINTER]
    + [(FS, RULES, "机耕组、收割组和植保组的员工在年休假之外"), (FS, RULES, "烘干中心、维修间和办公室的员工不享受冬季轮休"),
       (FS, RULES, "季节工和学徒不适用第十二条和第十三条"), (FS, RULES, "也以截至当年1月1日已满的整年数为准"),
       (FS, RULES, "季节工和学徒不发工龄补贴")]
    + [(FS, TERMS_FS, f"{name} | {label}") for name, _, _, label in DEPOSIT_FS]
    + [(FS, TERMS_FS, f"{name} | {label}") for name, label in CANCEL_FS]
    + [(FS, TERMS_FS, "水稻、小麦收获损失率超过3% | 每超过1个百分点退还作业费的5%，不足1个百分点的部分不计，最多退还作业费的30%")]
    + [(FS, _rf(v), f"{k} {a} {b}") for v, tab in RENT.items() for k, (a, b) in tab.items()]
    + [(FS, _rf(v), f"逾期天数按日租金的{'1.5' if v == '2023' else '2'}倍收取租金") for v in RENT]
    + [(FS, _rf(v), MAX_DAYS[v]) for v in RENT]
    + [(FS, f, "联合收割机、玉米收获机、插秧机和植保无人机不对外出租") for f in (R23, R25)]
    + [(PW, PRICES, f"{k} {a} {b} £{p} £{w}") for k, (a, b, p, w) in BANDS.items()]
    + [(PW, PRICES, "A scaffold takes the band of its highest working platform all along its length"),
       (PW, PRICES, "The minimum charge for an access scaffold is £480"),
       (PW, PRICES, "The first 4 weeks end 28 days after the erection day"),
       (PW, PRICES, "Every further 7 days, or part of 7 days, until the day we dismantle counts as one extra week")]
    + [(PW, PRICES, f"{k} {p}") for k, p in EXTRAS.items()]
    + [(PW, PRICES, f"{k} {n}%") for k, n in DISCOUNTS.items()]
    + [(PW, PRICES, "Only one discount is given on each job: when more than one applies, you get the largest"),
       (PW, PRICES, "The minimum charge of £480 applies after any discount"),
       (PW, PRICES, "never off extra weeks, extras, alarms or council fees")]
    + [(PW, PRICES, f"{k} {a} {h}") for k, (a, h) in YARDS.items()]
    + [(PW, TERMS, f"{name} | {label}") for name, _, _, label, _ in PAYMENT]
    + [(PW, TERMS, f"{name} | {a} | {b}") for name, _, _, a, b in CANCEL]
    + [(PW, HANDBOOK, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in PAY.items()]
    + [(PW, HANDBOOK, "Every hour worked on a Saturday is paid at the overtime rate, with a minimum of 4 hours"),
       (PW, HANDBOOK, "sent home before 11:00, everyone is paid 4 hours for that day")]
    + [(PW, HANDBOOK, f"| {name} | {d} days |") for name, _, d in LEAVE_PW]
    + [(PW, HANDBOOK, "hours_per_week divided by 39, rounded up to the next half day"),
       (PW, HANDBOOK, "Agency workers take their leave through their agency"),
       (PW, HANDBOOK, "Years of service are the complete years from start_date to 1 January of the leave year"),
       (PW, HANDBOOK, "Loading bays, temporary roofs, bridging and every Band D scaffold are built only by a crew led by an "
                      "Advanced card holder"),
       (PW, HANDBOOK, "Only staff marked inspector Yes in staff.csv may sign a handover certificate")]
    + [(PW, _lf(v), f"{k} {u} £{c}") for v, tab in LOSS.items() for k, (u, c) in tab.items()]
    + [(PW, _lf(v), f"{p}% of the component charges, and never less than £{m}") for v, (p, m) in HANDLING.items()]
    + [(PW, f, "we waive the charge for the stolen components") for f in (L24, L26)]
    + [(PW, L26, "LD-26 applies to every count made on or after 2 February 2026, including counts for hires that began "
                 "before that date")]
)


def whole_years(start: str, on: dt.date = LEAVE_DAY) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


def band(table: list, value: float) -> tuple:
    return next(r for r in table if r[1] <= value <= r[2])


# ---- 丰穗合作社 ---------------------------------------------------------------------------------------

def unit_price(job: str, member: bool, hill: bool = False, lodged: bool = False) -> Decimal:
    base = Decimal(JOB_PRICE[job][0 if member else 1])
    ups = []
    if job != "无人机飞防":
        if hill:
            ups.append(HILL_UP)
        if lodged and job.endswith("收获"):
            ups.append(LODGED_UP)
    return base * (100 + max(ups, default=0)) / 100  # never added together


def drying_price(moisture: Decimal, member: bool) -> int:
    row = next(r for r in DRYING if r[1] < moisture <= r[2] or (r[1] == 0 and moisture <= r[2]))
    return row[3] if member else row[4]


def job_amount(job: str, qty: Decimal, member: bool, hill: bool = False, lodged: bool = False) -> Decimal:
    return unit_price(job, member, hill, lodged) * max(qty, Decimal(MIN_MU))


def deposit_fs(amount: Decimal) -> Decimal:
    label = next(r for r in DEPOSIT_FS if r[1] <= amount <= r[2])[3]
    return {"不收定金": Decimal(0), "100元": Decimal(100)}.get(label, amount * 10 / 100)


def lost_if_cancelled(amount: Decimal, when: str) -> Decimal:
    """What the farmer loses: the part of the deposit not refunded, plus the 空跑费 once the crew is there."""
    d = deposit_fs(amount)
    return {"约定作业日前2天以上": Decimal(0), "约定作业日前1天": d / 2, "约定作业日当天，机手出发前": d,
            "机手到达地头以后": d + WASTED_TRIP}[when]


def loss_refund_pct(loss_rate: Decimal) -> int:
    points = int(max(loss_rate - LOSS_FREE, 0))  # a part of a percentage point does not count
    return min(points * LOSS_STEP_PCT, LOSS_MAX_PCT)


def work_allowance(role: str, mu: int, hill: bool = False) -> Decimal:
    rate = Decimal(ALLOWANCE[role][0]) + (HILL_EXTRA if hill and role in HILL_EXTRA_ROLES else 0)
    return rate * min(mu, MAX_MU_DAY)


def leave_fs(r: dict) -> int:
    if r["用工形式"] in NO_LEAVE_FS:
        return 0
    stat = [d for _, lo, d in LEAVE_FS if int(r["累计工作年限"]) >= lo][-1]
    winter = [d for _, lo, d in WINTER if whole_years(r["入职日期"]) >= lo][-1] if r["班组"] in WINTER_TEAMS else 0
    return stat + winter


def seniority_pay(r: dict) -> int:
    if r["用工形式"] != "全职":
        return 0
    return [n for _, lo, n in SENIORITY if whole_years(r["入职日期"]) >= lo][-1]


def may_drive_combine(r: dict) -> bool:
    return r["收割机驾驶证"] == "有" and r["用工形式"] != "学徒"


def may_fly(r: dict) -> bool:
    return r["无人机执照"] == "有" and r["用工形式"] != "学徒"


def rent(version: str, machine: str, days: int, late_days: int = 0) -> Decimal:
    daily = Decimal(RENT[version][machine][0])
    return daily * days + daily * LATE[version] * late_days


# ---- Pellam & Wragg Scaffolding ------------------------------------------------------------------

def band_of(height: Decimal) -> str:
    return next(b for b, top in BAND_TOP if height <= top)


def scaffold_price(length: int, band_letter: str, discounts: tuple = ()) -> Decimal:
    per_metre = BANDS[f"Band {band_letter}"][2]
    off = max((DISCOUNTS[d] for d in discounts), default=0)  # only the largest
    return max(Decimal(length * per_metre) * (100 - off) / 100, Decimal(MIN_CHARGE)).quantize(Decimal("0.01"))


def extra_weeks(erect: str, dismantle: str) -> int:
    days = (dt.date.fromisoformat(dismantle) - dt.date.fromisoformat(erect)).days
    return math.ceil(max(days - FREE_DAYS, 0) / WEEK)


def extra_hire(length: int, band_letter: str, weeks: int) -> Decimal:
    return Decimal(BANDS[f"Band {band_letter}"][3]) * length * weeks


def pay_at_booking(price: Decimal) -> Decimal:
    return price * band(PAYMENT, price)[4] / 100


def cancel_charge(price: Decimal, working_days: int) -> Decimal:
    label = band(CANCEL, working_days)[3]
    return {"Free of charge; anything paid is refunded": Decimal(0), "£95 administration fee": Decimal(95),
            "25% of the scaffold price": price / 4, "50% of the scaffold price": price / 2}[label]


def move_charge(working_days: int) -> str:
    return band(CANCEL, working_days)[4]


def saturday_pay(role: str, hours: float) -> Decimal:
    return Decimal(PAY[role][0][1:]) * Decimal(str(max(hours, SATURDAY_MIN_HOURS)))


def wet_time_hours(sent_home: str) -> int | str:
    return WET_HOURS if sent_home < WET_CUTOFF else "full day"


def leave_pw(r: dict) -> Decimal:
    if r["contract"] == "Agency":
        return Decimal(0)
    full = [d for _, lo, d in LEAVE_PW if whole_years(r["start_date"]) >= lo][-1]
    halves = (Decimal(full) * Decimal(r["hours_per_week"]) / FULL_WEEK * 2).to_integral_value(rounding=ROUND_CEILING)
    return halves / 2


def may_lead(r: dict, band_letter: str = "A", special: bool = False) -> bool:
    if band_letter == "D" or special:
        return r["card"] == "Advanced"
    return r["card"] in LEADS


def loss_bill(count_day: dt.date, items: dict) -> Decimal:
    v = "2026" if count_day >= LD26_FROM else "2024"
    charges = sum(Decimal(LOSS[v][k][1]) * n for k, n in items.items())
    pct, floor = HANDLING[v]
    return charges + max(charges * pct / 100, Decimal(floor))


def data_checks() -> list[str]:
    """The CSV rows agree with the rules they were written under."""
    bad = []
    by_id = {r["工号"]: r for r in STAFF_FS}
    for r in STAFF_FS:
        if int(r["累计工作年限"]) < whole_years(r["入职日期"]):
            bad.append(f"{r['工号']} 累计工作年限 below 司龄")
        need = {"收割机手": "收割机驾驶证", "拖拉机手": "拖拉机驾驶证", "飞手": "无人机执照"}.get(r["岗位"])
        if need and r[need] != "有":
            bad.append(f"{r['工号']} {r['岗位']} without {need}")
    for r in JOBS_FS:
        member, qty = r["社员"] == "是", Decimal(r["数量"])
        op = by_id[r["作业人员"]]
        if r["作业项目"] == "稻谷烘干":
            price = Decimal(drying_price(Decimal(r["含水率(%)"]), member))
            amount = price * max(qty, Decimal(MIN_TONNE))
            ok_op = op["岗位"] == "烘干工"
            if r["单位"] != "吨" or r["地形"] or r["倒伏超三成"]:
                bad.append(f"{r['单号']} 烘干 row")
        else:
            price = unit_price(r["作业项目"], member, r["地形"] == "丘陵", r["倒伏超三成"] == "是")
            amount = job_amount(r["作业项目"], qty, member, r["地形"] == "丘陵", r["倒伏超三成"] == "是")
            if r["作业项目"].endswith("收获"):
                ok_op = may_drive_combine(op)
            elif r["作业项目"] == "无人机飞防":
                ok_op = may_fly(op)
            else:
                ok_op = op["拖拉机驾驶证"] == "有" and op["用工形式"] != "学徒"
            if r["单位"] != "亩" or r["含水率(%)"]:
                bad.append(f"{r['单号']} 亩 row")
        if price != Decimal(r["单价(元)"]) or amount != Decimal(r["金额(元)"]):
            bad.append(f"{r['单号']} price {r['单价(元)']} / {r['金额(元)']} != {price} / {amount}")
        if not ok_op:
            bad.append(f"{r['单号']} operator {r['作业人员']} not qualified")
        if r["状态"] not in ("完成", "取消") or (r["状态"] == "取消") != r["备注"].endswith("取消"):
            bad.append(f"{r['单号']} status / note")
        d = dt.date.fromisoformat(r["日期"])
        if not dt.date(2025, 9, 20) <= d <= dt.date(2025, 10, 31):
            bad.append(f"{r['单号']} outside the autumn 农忙期")
    staff_pw = {r["staff_id"]: r for r in STAFF_PW}
    for r in STAFF_PW:
        want = CARD_OF_ROLE.get(r["role"])
        if want and r["card"] != want:
            bad.append(f"{r['staff_id']} card {r['card']} for {r['role']}")
        if r["inspector"] == "Yes" and r["card"] not in LEADS:
            bad.append(f"{r['staff_id']} inspector without an Advanced or Scaffolder card")
    allowed = {"Trade": ("Trade account", "Repeat customer"), "Community": ("Community", "Repeat customer"),
               "Domestic": ("Repeat customer",)}
    for r in JOBS_PW:
        b = band_of(Decimal(r["height_m"]))
        if r["band"] != b:
            bad.append(f"{r['job_ref']} band")
        disc = () if r["discount"] == "None" else (r["discount"],)
        if disc and disc[0] not in allowed[r["customer_type"]]:
            bad.append(f"{r['job_ref']} discount {disc} for {r['customer_type']}")
        if scaffold_price(int(r["length_m"]), b, disc) != Decimal(r["scaffold_price_gbp"]):
            bad.append(f"{r['job_ref']} price {r['scaffold_price_gbp']} != {scaffold_price(int(r['length_m']), b, disc)}")
        lead = staff_pw[r["crew_leader"]]
        if not may_lead(lead, b, r["loading_bay"] == "Yes"):
            bad.append(f"{r['job_ref']} crew leader {lead['name']} ({lead['card']})")
        erect = dt.date.fromisoformat(r["erect_date"])
        if erect.weekday() > 4:
            bad.append(f"{r['job_ref']} erected at a weekend")
        st = r["status"]
        if st == "Dismantled":
            if not r["dismantle_date"] or dt.date.fromisoformat(r["dismantle_date"]) > TODAY_PW:
                bad.append(f"{r['job_ref']} dismantle date")
            elif dt.date.fromisoformat(r["dismantle_date"]).weekday() > 4:
                bad.append(f"{r['job_ref']} dismantled at a weekend")
            w = extra_weeks(r["erect_date"], r["dismantle_date"])
            if str(w) != r["extra_weeks"] or extra_hire(int(r["length_m"]), b, w) != Decimal(r["extra_hire_gbp"]):
                bad.append(f"{r['job_ref']} extra weeks {r['extra_weeks']} / {r['extra_hire_gbp']} != {w}")
        elif r["dismantle_date"] or r["extra_weeks"] or r["extra_hire_gbp"]:
            bad.append(f"{r['job_ref']} {st} with dismantling data")
        if st in ("Dismantled", "On hire") and erect > TODAY_PW or st == "Booked" and erect <= TODAY_PW:
            bad.append(f"{r['job_ref']} status {st} on {erect}")
    return bad


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    c["fq-005"] = (TILLAGE["深翻"][2], 85, "85元")
    c["fq-006"] = (HARVEST["玉米（摘穗）"][1], 95, "95元")
    c["fq-007"] = (SPRAY["无人机飞防"][1], 10, "10 yuan")
    c["fq-008"] = (drying_price(Decimal(23), True), 95, "95元")
    c["fq-009"] = (ALLOWANCE["烘干工"][1], 80, "80元")
    c["fq-010"] = ("每周一休息" in POINTS["北片服务点"][1], True, "Monday")
    c["fq-011"] = (sum(r["收割机驾驶证"] == "有" for r in STAFF_FS), 7, "7人")
    pilots = [r for r in STAFF_FS if r["岗位"] == "飞手"]
    c["fq-012"] = (sum(Decimal(r["累计工作年限"]) for r in pilots) / len(pilots), 4, "4年")
    c["fq-013"] = (sum(r["社员"] == "否" and r["状态"] == "完成" for r in JOBS_FS), 12, "12 jobs")
    c["fq-014"] = (sum(Decimal(r["数量"]) for r in JOBS_FS if r["作业项目"] == "水稻收获" and r["状态"] == "完成"), 75, "75亩")
    c["fq-015"] = (sum(Decimal(r["数量"]) for r in JOBS_FS if r["作业项目"] == "稻谷烘干" and r["状态"] == "完成"),
                   Decimal("24.9"), "24.9吨")
    dry = [r for r in JOBS_FS if r["作业项目"] == "稻谷烘干"]
    wet = max(dry, key=lambda r: Decimal(r["含水率(%)"]))
    assert sum(r["含水率(%)"] == wet["含水率(%)"] for r in dry) == 1
    c["fq-016"] = ((wet["单号"], wet["农户"], wet["社员"], drying_price(Decimal(wet["含水率(%)"]), wet["社员"] == "是")),
                   ("ZY12", "万家顺", "否", 145), "145元")
    c["fq-017"] = (unit_price("水稻收获", True, hill=True, lodged=True), Decimal("106.25"), "106.25元")
    c["fq-018"] = (job_amount("旋耕", Decimal(2), False), 165, "165元")
    c["fq-019"] = (loss_refund_pct(Decimal("5.6")), 10, "10%")
    c["fq-020"] = (lost_if_cancelled(Decimal(3000), "机手到达地头以后"), 450, "450元")
    c["fq-021"] = (work_allowance("飞手", 150), 96, "96元")
    c["fq-026"] = (RENT["2025"]["微耕机"][0], 80, "80元")
    c["fq-027"] = (MAX_DAYS["2025"].startswith("每次租期最长7天"), True, "7 days")
    fu = next(r for r in STAFF_FS if r["姓名"] == "傅明亮")
    c["fq-028"] = ((fu["拖拉机驾驶证"], fu["收割机驾驶证"], may_drive_combine(fu)), ("有", "无", False), "不能")
    dz = next(r for r in STAFF_FS if r["姓名"] == "段志强")
    c["fq-029"] = ((dz["岗位"], dz["班组"], may_fly(dz)), ("机手组长", "植保组", False), "不能")
    c["fq-035"] = (BANDS[f"Band {band_of(Decimal(9))}"][2], 62, "£62")
    c["fq-036"] = (EXTRAS["Scaffold alarm"], "£35 per week", "£35")
    c["fq-037"] = (PAY["Scaffolder"][1], "£12", "£12")
    c["fq-038"] = (EXTRAS["Loading bay"], "£290", "£290")
    c["fq-039"] = (pay_at_booking(Decimal(2400)), 720, "£720")
    c["fq-040"] = (cancel_charge(Decimal(2000), 7), 95, "£95")
    c["fq-041"] = (sum(r["inspector"] == "Yes" for r in STAFF_PW), 8, "8 people")
    lab = [Decimal(r["hours_per_week"]) for r in STAFF_PW if r["role"] == "Labourer"]
    c["fq-042"] = (sum(lab) / len(lab), 33, "33 hours")
    c["fq-043"] = (sum(r["status"] == "On hire" for r in JOBS_PW), 10, "10 jobs")
    c["fq-044"] = (sum(Decimal(r["extra_hire_gbp"]) for r in JOBS_PW if r["status"] == "Dismantled"), 644, "£644")
    up = [r for r in JOBS_PW if r["status"] in ("Dismantled", "On hire")]
    top = max(up, key=lambda r: Decimal(r["height_m"]))
    assert sum(r["height_m"] == top["height_m"] for r in up) == 1
    assert max(JOBS_PW, key=lambda r: Decimal(r["height_m"]))["status"] == "Booked"  # the trap: PW-J27, not yet up
    c["fq-045"] = ((top["job_ref"], top["site_town"], top["height_m"]), ("PW-J13", "Stannerton", "13.6"), "Stannerton")
    bc = next(r for r in STAFF_PW if r["name"] == "Bridget Coyle")
    c["fq-046"] = (leave_pw(bc), Decimal("15.5"), "15.5 days")
    c["fq-047"] = (scaffold_price(10, "B", ("Trade account",)), 480, "£480")
    w48 = extra_weeks("2026-01-05", "2026-02-12")
    assert dt.date(2026, 1, 5).weekday() == 0 and dt.date(2026, 2, 12).weekday() == 3
    c["fq-048"] = ((w48, extra_hire(20, "B", w48)), (2, 120), "£120")
    c["fq-049"] = (scaffold_price(12, band_of(Decimal(6)), ("Community", "Repeat customer")), Decimal("496.80"), "£496.80")
    c["fq-050"] = (saturday_pay("Scaffolder", 3), 84, "£84")
    c["fq-051"] = (wet_time_hours("10:15"), 4, "4 hours")
    c["fq-056"] = (LOSS["2026"]["Scaffold board (3.9 m)"][1], "29.00", "£29")
    j9 = next(r for r in JOBS_PW if r["job_ref"] == "PW-J09")
    assert j9["status"] == "Dismantled"
    c["fq-057"] = (loss_bill(dt.date.fromisoformat(j9["dismantle_date"]), {"Coupler or fitting": 10}), 120, "£120")
    tg = next(r for r in STAFF_PW if r["name"] == "Tommy Garside")
    c["fq-058"] = ((tg["role"], tg["card"]), ("Labourer", "Labourer"), "不能")
    os_ = next(r for r in STAFF_PW if r["name"] == "Owen Sallis")
    c["fq-059"] = ((os_["card"], band_of(Decimal(13)), may_lead(os_, band_of(Decimal(13)))), ("Scaffolder", "D", False), "No")
    # chains
    c["cv-fs-01"] = ((unit_price("旋耕", True), unit_price("旋耕", False), unit_price("旋耕", False, hill=True)),
                     (45, 55, Decimal("63.25")), "63.25元")
    c["cv-fs-02"] = ((RENT["2025"]["小型拖拉机（不含农具）"], rent("2025", "小型拖拉机（不含农具）", 3, 2)),
                     ((180, 4000), 1260), "1260元")
    c["cv-fs-03"] = ((POINTS["烘干中心"][2], deposit_fs(Decimal(1500)), deposit_fs(Decimal(1500)) - lost_if_cancelled(
        Decimal(1500), "约定作业日前1天")), ("6730 2216", 100, 50), "50元")
    cancelled = [r for r in JOBS_FS if r["状态"] == "取消"]
    c["cv-fs-04"] = ((len(cancelled), sum(r["备注"] == "降雨取消" for r in cancelled)), (4, 2), "2 of them")
    most = max(STAFF_FS, key=lambda r: int(r["累计工作年限"]))
    assert sum(r["累计工作年限"] == most["累计工作年限"] for r in STAFF_FS) == 1
    c["cv-fs-05"] = ((most["姓名"], leave_fs(most), seniority_pay(most)), ("梁永福", 21, 260), "21 days")
    c["cv-fs-06"] = ((work_allowance("收割机手", 1), work_allowance("收割机手", 1, hill=True), work_allowance("收割机手", 130)),
                     (Decimal("3.5"), Decimal("4.5"), 420), "420元")
    c["cv-ps-01"] = ((BANDS["Band B"][2], BANDS["Band C"][2], scaffold_price(18, "C", ("Trade account",))),
                     (46, 62, Decimal("1026.72")), "£1,026.72")
    c["cv-ps-02"] = ((LOSS["2026"]["Scaffold board (3.9 m)"][1], LOSS["2026"]["Coupler or fitting"][1],
                      loss_bill(dt.date(2026, 3, 2), {"Scaffold board (3.9 m)": 4, "Coupler or fitting": 10})),
                     ("29.00", "8.00", 236), "£236")
    w3 = extra_weeks("2026-01-12", "2026-02-24")
    c["cv-ps-03"] = ((YARDS["Corland"][1], w3, extra_hire(22, "B", w3)), ("Monday to Friday 7:30–16:00", 3, 198), "£198")
    first = min(STAFF_PW, key=lambda r: r["start_date"])
    c["cv-ps-04"] = ((first["name"], leave_pw(first)), ("Graham Pellam", 27), "27天")
    aid = [r for r in STAFF_PW if r["first_aider"] == "Yes"]
    cor = [r for r in aid if r["yard"] == "Corland"]
    old = min(cor, key=lambda r: r["start_date"])
    c["cv-ps-05"] = ((len(aid), len(cor), old["name"], PAY[old["role"]][0]), (12, 5, "Neil Frampton", "£25.00"), "£25.00")
    c["cv-ps-06"] = ((cancel_charge(Decimal(3000), 3), move_charge(3), cancel_charge(Decimal(3000), 12)),
                     (750, "£95 rebooking fee", 0), "£750")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(TERMS_FS, "平时提前2天，农忙期提前5天")],
    "fq-002": [(TERMS_FS, "验收异议须在作业完成后24小时内提出")],
    "fq-003": [(TERMS_FS, "任何人不得在作业机械10米以内停留")],
    "fq-004": [(TERMS_FS, "合作社在收到投诉后3个工作日内答复")],
    "fq-005": [(PRICES_FS, "深翻 耕深25厘米以上 70 85")],
    "fq-006": [(PRICES_FS, "玉米（摘穗） 玉米收获机 95 115")],
    "fq-007": [(PRICES_FS, "无人机飞防 8 10")],
    "fq-008": [(PRICES_FS, "20%以上至25%（含25%） 95 115")],
    "fq-009": [(RULES, "| 烘干工 | 不发放 | 80 | 25 |")],
    "fq-010": [(PRICES_FS, "北片服务点 石桥镇北圩村文化广场北侧 8:00–17:00，每周一休息")],
    "fq-011": [(RULES, "联合收割机和玉米收获机只能由员工名册中“收割机驾驶证”登记为“有”的员工驾驶")],
    "fq-016": [(PRICES_FS, "25%以上至30%（含30%） 120 145")],
    "fq-017": [(PRICES_FS, "两项同时适用的，只按较高的一项上浮，不累加")],
    "fq-018": [(PRICES_FS, "每单作业面积不足3亩的，按3亩计价"), (PRICES_FS, "旋耕 耕深12至15厘米，一遍 45 55")],
    "fq-019": [(TERMS_FS, "每超过1个百分点退还作业费的5%，不足1个百分点的部分不计")],
    "fq-020": [(TERMS_FS, "2000元以上 | 预计作业金额的10%"), (TERMS_FS, "机手到达地头以后 | 不予退还，另收空跑费150元")],
    "fq-021": [(RULES, "| 飞手 | 0.8 | 不发放 | 25 |"), (RULES, "每人每天计发作业补贴的亩数最多120亩，超出部分不再计发")],
    "fq-026": [(R25, "微耕机 80 1000"), (R23, "微耕机 60 800"),
               (R25, "《农机具出租管理办法（2023版）》自本办法施行之日起不再执行")],
    "fq-027": [(R25, "每次租期最长7天；农忙期每次最长3天"), (R23, "每次租期最长5天")],
    "fq-028": [(RULES, "拖拉机驾驶证不能代替收割机驾驶证，农忙期人手不足时也不例外")],
    "fq-029": [(RULES, "其他员工即使会操作也不得起飞，机手组长也不例外")],
    "fq-030": [(R25, "联合收割机、玉米收获机、插秧机和植保无人机不对外出租"),
               (R23, "联合收割机、玉米收获机、插秧机和植保无人机不对外出租")],
    "fq-031": [(TERMS, "A quote stays open for 60 days from the date on it")],
    "fq-032": [(TERMS, "Our crew waits up to 45 minutes at the site")],
    "fq-033": [(TERMS, "Tell us about any damage within 24 hours"), (L26, "within 24 hours of finding it")],
    "fq-034": [(HANDBOOK, "Full time is 39 hours a week")],
    "fq-035": [(PRICES, "Band C 7.1–10 m Three-storey house or small block of flats £62 £4.00")],
    "fq-036": [(PRICES, "Scaffold alarm £35 per week")],
    "fq-037": [(HANDBOOK, "| Scaffolder | £21.00 | £12 | £50 |")],
    "fq-038": [(PRICES, "Loading bay £290")],
    "fq-039": [(TERMS, "£1,000–£4,999 | 30% when you book, the rest within 14 days of handover")],
    "fq-040": [(TERMS, "5 to 10 working days | £95 administration fee | Free of charge")],
    "fq-041": [(HANDBOOK, "Only staff marked inspector Yes in staff.csv may sign a handover certificate")],
    "fq-046": [(HANDBOOK, "| 6 to 9 years | 25 days |"), (HANDBOOK, "divided by 39, rounded up to the next half day")],
    "fq-047": [(PRICES, "The minimum charge of £480 applies after any discount")],
    "fq-048": [(PRICES, "Every further 7 days, or part of 7 days, until the day we dismantle counts as one extra week"),
               (PRICES, "Band B 4.1–7 m Two-storey house £46 £3.00")],
    "fq-049": [(PRICES, "Only one discount is given on each job: when more than one applies, you get the largest")],
    "fq-050": [(HANDBOOK, "with a minimum of 4 hours for anyone called in")],
    "fq-051": [(HANDBOOK, "when the weather stops work and the crew is sent home before 11:00, everyone is paid 4 hours")],
    "fq-056": [(L26, "Scaffold board (3.9 m) each £29.00"), (L24, "Scaffold board (3.9 m) each £24.00"),
               (L26, "it supersedes Schedule LD-24, which is no longer used")],
    "fq-057": [(L26, "Coupler or fitting each £8.00"), (L24, "Coupler or fitting each £6.50"),
               (L26, "15% of the component charges, and never less than £40"),
               (TERMS, "charged under the Loss and Damage Charges schedule that applies on the day of the count at dismantling")],
    "fq-058": [(HANDBOOK, "They never work above the base lift, and there are no exceptions, not even to get a job finished "
                          "ahead of bad weather")],
    "fq-059": [(HANDBOOK, "every Band D scaffold are built only by a crew led by an Advanced card holder")],
    "fq-060": [(L26, "If components are stolen while our alarm was switched on, and you give us a police crime reference "
                     "number within 7 days, we waive the charge for the stolen components"),
               (L24, "we waive the charge for the stolen components")],
    "cv-fs-01": [(PRICES_FS, "旋耕 耕深12至15厘米，一遍 45 55"), (PRICES_FS, "耕种作业和收获作业，单价上浮15%")],
    "cv-fs-02": [(R25, "小型拖拉机（不含农具） 180 4000"), (R23, "小型拖拉机（不含农具） 150 3000"),
                 (R25, "逾期天数按日租金的2倍收取租金")],
    "cv-fs-03": [(PRICES_FS, "烘干中心 石桥镇东坝村工业路6号"), (TERMS_FS, "约定作业日前1天 | 退还50%")],
    "cv-fs-04": [(HERE / FS / "作业记录.csv", "降雨取消")],
    "cv-fs-05": [(RULES, "| 满20年及以上 | 15天 |"), (RULES, "| 满3年及以上 | 6天 |"), (RULES, "| 满10年及以上 | 260 |")],
    "cv-fs-06": [(RULES, "| 收割机手 | 3.5 | 不发放 | 30 |"), (RULES, "每亩另加1元")],
    "cv-ps-01": [(PRICES, "Trade account 8%")],
    "cv-ps-02": [(L26, "Scaffold board (3.9 m) each £29.00"), (L24, "Scaffold board (3.9 m) each £24.00"),
                 (L26, "never less than £40")],
    "cv-ps-03": [(PRICES, "Corland Plot 3, Wharf Road, Corland Monday to Friday 7:30–16:00"),
                 (PRICES, "so a scaffold erected on a Monday and dismantled four weeks later on a Monday pays no extra week")],
    "cv-ps-04": [(HERE / PW / "staff.csv", "PW01,Graham Pellam,Contracts Manager,Quarlby,Permanent,39,2004-03-01"),
                 (HANDBOOK, "| 10 years or more | 27 days |")],
    "cv-ps-05": [(HANDBOOK, "| Supervisor | £25.00 | £14 | £55 |")],
    "cv-ps-06": [(TERMS, "2 to 4 working days | 25% of the scaffold price | £95 rebooking fee"),
                 (TERMS, "More than 10 working days | Free of charge")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(FS, "购置"), (FS, "购机")],
    "fq-023": [(FS, "托管")],
    "fq-024": [(FS, "收购"), (FS, "代卖"), (FS, "粮价"), (FS, "出售"), (FS, "销售"), (FS, r"re:(?i)\bbuy")],
    "fq-025": [(FS, "保险"), (FS, "意外险"), (FS, "社保"), (FS, "公积金"), (FS, "工伤")],
    "fq-052": [(PW, "re:(?i)tower"), (PW, r"re:(?i)\bDIY\b"), (PW, "re:(?i)mobile")],
    "fq-053": [(PW, "re:(?i)sick"), (PW, r"re:(?i)\billness"), (PW, "病假")],
    "fq-054": [(PW, "re:(?i)instal"), (PW, "re:(?i)financ"), (PW, "re:(?i)monthly"), (PW, "分期")],
    "fq-055": [(PW, "re:(?i)shrink"), (PW, "re:(?i)sheet"), (PW, "re:(?i)wrap"), (PW, "re:(?i)encapsul")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return FS if k.startswith("cv-fs") else PW
    return FS if int(k[3:]) <= 30 else PW


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
    for msg in data_checks():
        fails += 1
        print(f"FAIL data: {msg}")
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
        # cross_language: an English question over the Chinese co-operative, a Chinese question over the English firm
        zh_q = is_zh(r["question"])
        assert r["cross_language"] == (zh_q if r["org"] == PW else not zh_q), k
        if r["decline"]:
            assert k in ABSENT and ABSENT[k], k
            assert not r["must_not"], k
            continue
        assert k in comp or EVIDENCE.get(k), f"no evidence for {k}"
        assert len(set(r["answers"])) == len(r["answers"]) >= 3, k  # several surface forms
        for m in r["must_not"]:
            assert m not in r["answers"], (k, m)
            assert not any(m in a for a in r["answers"]), (k, m)
            assert not any(a in m for a in r["answers"]), (k, m)  # a wrong reply would still match an answer
        allt = norm(" ".join(TEXT[r["org"]].values()))
        verb = [a for a in r["answers"] if norm(a) and norm(a) in allt]
        print(f"ok   {k} {r['kind']:<13} verbatim: {verb[:3] if verb else '(derived: ' + str(comp.get(k, ('see evidence',))[0]) + ')'}")
    prefix = {FS: "cv-fs", PW: "cv-ps"}
    assert [c["id"] for c in chains] == [f"{prefix[o]}-{i:02d}" for o in (FS, PW) for i in range(1, 7)]
    for c in chains:
        assert list(c) == ["id", "org", "kind", "split", "turns", "note"], c["id"]
        assert c["org"] == org_of(c["id"]) and c["kind"] == "followup", c["id"]
        assert c["id"] in comp or EVIDENCE.get(c["id"]), f"no evidence for {c['id']}"
        assert c["split"] == ("dev" if int(c["id"][-2:]) % 2 else "held"), c["id"]
        assert len(c["turns"]) == (2 if c["id"].endswith("-04") else 3), c["id"]
        for t in c["turns"]:
            assert t["answers"], c["id"]
            assert set(t) <= {"message", "answers", "must_not", "lang"}, c["id"]
            for m in t.get("must_not", []):
                assert not any(m in a for a in t["answers"]), (c["id"], m)
                assert not any(a in m for a in t["answers"]), (c["id"], m)
            # lang marks a turn written in the other organisation's language
            zh_t = is_zh(t["message"])
            other = "en" if c["org"] == FS else "zh"
            assert (t.get("lang") == other) == (zh_t if c["org"] == PW else not zh_t), (c["id"], t["message"])
    assert sum(len(c["turns"]) for c in chains) == 34
    langs = {c["id"]: [t.get("lang") for t in c["turns"]] for c in chains}
    assert langs["cv-fs-05"] == ["en"] * 3 and langs["cv-ps-05"] == ["zh"] * 3  # one chain wholly in the other language
    mixed = [k for k, v in langs.items() if len(set(v)) > 1]
    assert mixed == ["cv-fs-04", "cv-fs-06", "cv-ps-02", "cv-ps-04"], mixed
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (FS, PW):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 8, org
        assert sum(r["split"] == "dev" for r in qs if r["org"] == org) == 15, org
        assert sum(r["cross_language"] and r["split"] == "dev" for r in qs if r["org"] == org) == 4, org
    assert sum(c["split"] == "dev" for c in chains) == 6
    assert len(STAFF_FS) in range(20, 27) and len(STAFF_PW) in range(20, 27), "staff rosters of 20–26"
    assert len(JOBS_FS) in range(30, 35) and len(JOBS_PW) in range(30, 35), "second lists of 30–34"
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
