"""Check the gold answers of orgdocs_blind7 against the generated documents (CC0).

    python tests/data/orgdocs_blind7/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, computed answers are recomputed from the CSVs
and the gold value must appear among the gold answer strings, and the asked-for fact of every near miss is
absent from its collection. Exits 1 on a failure. (The checks repeat those of ../orgdocs_blind6/check_answers.py.)
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
LY, WM = "luyuan-logistics", "wrenhaven-marina"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (LY, WM)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


FEES, RULES, SERVICE = "仓储与配送收费标准（2026年）.html", "员工排班与津贴办法.md", "客户服务与货损理赔规定.docx"
D24, D26 = "驾驶员出车补贴与安全奖惩办法（2024版）.pdf", "驾驶员出车补贴与安全奖惩办法（2026版）.pdf"
TARIFF, HANDBOOK, T25, T26, SAFETY = ("Visitor_Tariff_2026.html", "Berth_Holder_Handbook.md", "Annual_Berthing_Terms_2025.docx",
                                      "Annual_Berthing_Terms_2026.docx", "Marina_Rules_and_Safety.pdf")

STAFF_LY = rows(LY, "员工名册.csv")
FLEET_LY = rows(LY, "车辆与叉车清单.csv")
BERTHS = rows(WM, "berths.csv")
STAFF_WM = rows(WM, "staff.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
STORAGE = {  # 货物类别 -> (存放仓库, 仓储费 元/托盘/天, 入库装卸费, 出库装卸费)
    "常温普货": ("东港常温仓、北站中转仓", "1.8", 12, 12), "恒温货物（15–25℃）": ("东港常温仓", "3.2", 15, 15),
    "冷藏货物（0–4℃）": ("西岭冷链仓", "6.5", 20, 20), "冷冻货物（-18℃及以下）": ("西岭冷链仓", "8", 25, 25),
}
COLD = {"冷藏货物（0–4℃）", "冷冻货物（-18℃及以下）"}
COLD_MAX_OFF = 10  # 冷藏货物和冷冻货物最多按9折计算
OVERSIZE = Decimal("1.5")  # 超高或超重的托盘按1.5个托盘计费
VOLUME = [("不足200托盘", 0, 199, "无折扣", 0), ("200–499托盘", 200, 499, "9折", 10), ("500托盘及以上", 500, 10**9, "85折", 15)]
FIRST_MONTH_OFF = 50  # 新签订年度合同的客户，合同第一个月的仓储费减半收取；与折扣不同时享受，按对客户有利的一项
DELIVERY_BANDS = [("20公里以内（含20公里）", 0, 20), ("20–50公里（含50公里）", 20, 50), ("50–100公里（含100公里）", 50, 100),
                  ("100公里以上", 100, math.inf)]
DELIVERY = {  # vehicle -> per band (元/车次; the last band 元/公里)
    "4.2米厢式货车": ("260", "380", "560", "5.6"), "7.6米厢式货车": ("420", "600", "880", "8.8"),
    "4.2米冷藏车": ("380", "560", "820", "8.2"), "7.6米冷藏车": ("600", "860", "1260", "12.6"),
}
NIGHT_PCT, HOLIDAY_PCT = 20, 30  # 同时发生的只按节假日加收30%，不叠加
DELAY = [("2小时以内", 0, 2, "不减免", 0), ("超过2小时不满12小时", 2, 12, "减免该车次配送费的30%", 30),
         ("12小时至24小时", 12, 24, "减免该车次配送费的50%", 50), ("超过24小时", 24, math.inf, "免收该车次配送费", 100)]
BOOKING = [("冷藏货物、冷冻货物", "送货前1天12:00", "到仓后1小时内卸完"), ("常温普货、恒温货物", "送货前1天16:00", "到仓后2小时内卸完")]
ALLOWANCE = {  # 岗位 -> (夜班津贴 元/班, 冷库作业津贴 元/天, 高温津贴 元/月)
    "仓管员": (50, 40, 300), "叉车司机": (60, 45, 300), "理货员": (45, 40, 300), "驾驶员、调度员": (40, 30, 300),
    "客服专员、行政人员": (30, "不发放", 150),
}
LEAVE_STAT = [("不满1年", 0, 0), ("满1年不满10年", 1, 5), ("满10年不满20年", 10, 10), ("满20年及以上", 20, 15)]
LEAVE_BONUS = [("不满5年", 0, 0), ("满5年不满10年", 5, 1), ("满10年及以上", 10, 2)]
LEAVE_DAY_LY = dt.date(2026, 1, 1)  # 截至当年1月1日已满的整年数
TRIP = {  # version -> [(单程运输距离, lo, hi, 出车补贴 元/天, 住宿补贴 元/晚)]
    "2024": [("100公里以内（含100公里）", 0, 100, 40, "不发放"), ("100–300公里（含300公里）", 100, 300, 80, 150),
             ("300公里以上", 300, math.inf, 120, 180)],
    "2026": [("100公里以内（含100公里）", 0, 100, 50, "不发放"), ("100–300公里（含300公里）", 100, 300, 100, 180),
             ("300公里以上", 300, math.inf, 150, 220)],
}
REEFER_EXTRA = 20
MONTHLY = {"2024": 300, "2026": 400}
FATIGUE = {"2024": 200, "2026": 300}
ANNUAL = {"2024": 2000, "2026": 2500}

VISITOR = [  # (LOA band, lo, hi, short stay, per night, 7 nights) in pence; over 15 m per metre
    ("Up to 8.00 m", Decimal("0"), Decimal("8.00"), 1200, 2800, 16800),
    ("8.01–10.00 m", Decimal("8.01"), Decimal("10.00"), 1500, 3600, 21600),
    ("10.01–12.00 m", Decimal("10.01"), Decimal("12.00"), 1800, 4400, 26400),
    ("12.01–15.00 m", Decimal("12.01"), Decimal("15.00"), 2400, 5800, 34800),
]
VISITOR_OVER_15 = ("Over 15.00 m", 3000, 440, 2640)
MULTIHULL_PCT = 50
CLUB_PCT, CLUB_EXCLUDED_MONTHS = 20, (7, 8)
WINTER_PCT, WINTER_MONTHS = 30, (11, 12, 1, 2, 3)
SHORE_POWER_OVER_12 = 500  # pence a night for boats over 12.00 m; never discounted
YARD = [("Up to 8.00 m", Decimal("0"), Decimal("8.00"), 190, 38, 60), ("8.01–10.00 m", Decimal("8.01"), Decimal("10.00"), 260, 48, 75),
        ("10.01–12.00 m", Decimal("10.01"), Decimal("12.00"), 340, 62, 90), ("12.01–15.00 m", Decimal("12.01"), Decimal("15.00"), 450, 80, 120)]
HOLDER_YARD_PCT = 15
TERMS = {  # version -> berth -> price per metre (pounds)
    "2025": {"Pontoon A": 395, "Pontoon B": 430, "Pontoon C": 470, "Pontoon D": 560},
    "2026": {"Pontoon A": 420, "Pontoon B": 460, "Pontoon C": 505, "Pontoon D": 610},
}
MOORING = {"2025": "£1,150", "2026": "£1,250"}
LIVEABOARD = {"2025": 950, "2026": 1200}
EARLY = {"2025": "5%", "2026": "4%"}
COVER = {"2025": "£3 million", "2026": "£5 million"}
MIN_CHARGED_M = Decimal(7)
FUEL = [("April to September", "08:00–19:00 every day"), ("October to March", "09:00–16:00, closed on Tuesdays")]
SPEEDING = ("£50", "£150")


def _p(pence: int) -> str:
    return f"£{pence // 100:,}.{pence % 100:02d}"


TABLE_ROWS = (
    [(LY, FEES, f"{k} {wh} {fee} {i} {o}") for k, (wh, fee, i, o) in STORAGE.items()]
    + [(LY, FEES, f"{name} {label}") for name, _, _, label, _ in VOLUME]
    + [(LY, FEES, "冷藏货物和冷冻货物最多按9折计算"), (LY, FEES, "超高或超重的托盘按1.5个托盘计费"),
       (LY, FEES, "新签订年度合同的客户，合同第一个月的仓储费减半收取；减半与上表折扣不同时享受，按对客户有利的一项计算"),
       (LY, FEES, "夜间配送与节假日配送同时发生的，只按节假日加收30%，不叠加"),
       (LY, FEES, "夜间配送（22:00至次日6:00之间从仓库发车）加收配送费的20%")]
    + [(LY, FEES, f"{band} " + " ".join(DELIVERY[v][j] + ("元/公里" if j == 3 else "") for v in DELIVERY))
       for j, (band, _, _) in enumerate(DELIVERY_BANDS)]
    + [(LY, SERVICE, f"{name} | {r}") for name, _, _, r, _ in DELAY]
    + [(LY, SERVICE, f"{k} | {a} | {b}") for k, a, b in BOOKING]
    + [(LY, RULES, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in ALLOWANCE.items()]
    + [(LY, RULES, f"| {name} | {d}天 |") for name, _, d in LEAVE_STAT + LEAVE_BONUS]
    + [(LY, D24 if v == "2024" else D26, f"{name} {a} {b}") for v, tab in TRIP.items() for name, _, _, a, b in tab]
    + [(LY, f, "驾驶冷藏车出车的，出车补贴每天另加20元") for f in (D24, D26)]
    + [(LY, D24 if v == "2024" else D26, f"当月无违章、无事故 奖励{n}元") for v, n in MONTHLY.items()]
    + [(LY, D24 if v == "2024" else D26, f"疲劳驾驶（每次） 扣款{n}元") for v, n in FATIGUE.items()]
    + [(LY, D24 if v == "2024" else D26, f"年终发放年度安全奖{n}元") for v, n in ANNUAL.items()]
    + [(WM, TARIFF, f"{name} £{s // 100} £{n // 100} £{w // 100}") for name, _, _, s, n, w in VISITOR]
    + [(WM, TARIFF, f"{VISITOR_OVER_15[0]} £{VISITOR_OVER_15[1] // 100} {_p(VISITOR_OVER_15[2])} per metre {_p(VISITOR_OVER_15[3])} per metre"),
       (WM, TARIFF, "Multihulls pay 50% more than the rates above"),
       (WM, TARIFF, "get 20% off the nightly and 7-night rates, except in July and August"),
       (WM, TARIFF, "From 1 November to 31 March all nightly and 7-night rates are 30% lower"),
       (WM, TARIFF, "Discounts are never added together: you get whichever is larger"),
       (WM, TARIFF, "Discounts apply to berthing fees only, not to shore power"),
       (WM, TARIFF, "Boats over 12.00 m pay £5 a night for shore power"),
       (WM, TARIFF, "pays nothing for its first night; any further nights are charged as usual")]
    + [(WM, HANDBOOK, f"| {name} | £{a} | £{b} | £{c} |") for name, _, _, a, b, c in YARD]
    + [(WM, HANDBOOK, "Annual berth holders get 15% off all boatyard prices")]
    + [(WM, T25 if v == "2025" else T26, f"{k} | £{n} per metre") for v, tab in TERMS.items() for k, n in tab.items()]
    + [(WM, T25 if v == "2025" else T26, f"Liveaboard | £{n:,} a year") for v, n in LIVEABOARD.items()]
    + [(WM, T25 if v == "2025" else T26, f"Gull Reach swinging mooring (boats up to 12 m) | {n} per mooring") for v, n in MOORING.items()]
    + [(WM, T25 if v == "2025" else T26, f"get {n} off the berth price; the discount is not given on surcharges") for v, n in EARLY.items()]
    + [(WM, T25 if v == "2025" else T26, f"cover of at least {n}") for v, n in COVER.items()]
    + [(WM, f, "rounded up to the next half metre. Boats shorter than 7 m are charged as 7 m") for f in (T25, T26)]
    + [(WM, f, "Multihull | 50% of the berth price") for f in (T25, T26)]
    + [(WM, SAFETY, f"{a} {b}") for a, b in FUEL]
)


def whole_years(start: str, on: dt.date) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


def annual_leave_ly(r: dict) -> int | str:
    if r["用工形式"] == "实习":  # 实习人员不享受年休假
        return 0
    if r["用工形式"] == "劳务派遣":  # 由派遣单位安排，本公司不另给司龄奖励假
        return "派遣单位"
    stat = [d for _, lo, d in LEAVE_STAT if int(r["累计工作年限"]) >= lo][-1]
    bonus = [d for _, lo, d in LEAVE_BONUS if whole_years(r["入职日期"], LEAVE_DAY_LY) >= lo][-1]
    return stat + bonus


def storage_fee(cat: str, oversize: bool = False) -> Decimal:
    fee = Decimal(STORAGE[cat][1])
    return fee * OVERSIZE if oversize else fee


def storage_off(cat: str, pallets: int, first_month: bool = False) -> int:
    off = next(o for _, lo, hi, _, o in VOLUME if lo <= pallets <= hi)
    if cat in COLD:
        off = min(off, COLD_MAX_OFF)
    return max(off, FIRST_MONTH_OFF) if first_month else off  # never both: the better one


def delivery_fee(km: float, vehicle: str, night: bool = False, holiday: bool = False) -> Decimal:
    j = next(j for j, (_, lo, hi) in enumerate(DELIVERY_BANDS) if lo < km <= hi or (lo == 0 and km <= hi))
    base = Decimal(DELIVERY[vehicle][j]) * (Decimal(str(km)) if j == 3 else 1)
    pct = HOLIDAY_PCT if holiday else NIGHT_PCT if night else 0  # not stacked
    return base * (100 + pct) / 100


def delay_off(hours: float) -> int:
    return next(o for _, lo, hi, _, o in DELAY if (lo < hours <= hi) or (lo == 0 and hours <= hi))


def trip_pay(km: float, version: str = "2026", reefer: bool = False) -> tuple:
    _, _, _, daily, lodging = next(b for b in TRIP[version] if b[1] < km <= b[2] or (b[1] == 0 and km <= b[2]))
    return daily + (REEFER_EXTRA if reefer else 0), lodging


def band(loa: Decimal, table: list) -> tuple:
    return next(b for b in table if b[1] <= loa <= b[2])


def visitor_pence(loa: str, month: int, nights: int = 1, week: bool = False, multihull: bool = False, club: bool = False,
                  shore: bool = False, gale: bool = False) -> int:
    b = band(Decimal(loa), VISITOR)
    base = b[5] if week else b[4] * (nights - (1 if gale else 0))  # gale warning: first night free
    if multihull:
        base = base * (100 + MULTIHULL_PCT) // 100
    off = max(CLUB_PCT if club and month not in CLUB_EXCLUDED_MONTHS else 0, WINTER_PCT if month in WINTER_MONTHS else 0)
    total = base * (100 - off) // 100
    if shore and Decimal(loa) > 12:
        total += SHORE_POWER_OVER_12 * (7 if week else nights)
    return total


def yard_lift(loa: str, holder: bool = False) -> int:
    price = band(Decimal(loa), YARD)[3]
    return price * (100 - HOLDER_YARD_PCT) / 100 if holder else price


def annual_berth_pence(r: dict, version: str = "2026") -> int:
    loa = max(MIN_CHARGED_M, (Decimal(r["boat_loa_m"]) * 2).to_integral_value(rounding=ROUND_CEILING) / 2)
    price = int(loa * TERMS[version][f"Pontoon {r['pontoon']}"] * 100)
    if r["boat_type"] == "Multihull":
        price = price * (100 + MULTIHULL_PCT) // 100
    if r["liveaboard"] == "Yes":
        price += LIVEABOARD[version] * 100
    return price


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    c["fq-005"] = (storage_fee("冷冻货物（-18℃及以下）"), Decimal(8), "8元")
    c["fq-006"] = (delivery_fee(35, "7.6米厢式货车"), 600, "600 yuan")
    c["fq-010"] = (delay_off(15), 50, "50%")
    c["fq-011"] = (sum(r["叉车证"] == "有" for r in STAFF_LY), 8, "8人")
    drivers = [int(r["累计工作年限"]) for r in STAFF_LY if r["岗位"] == "驾驶员"]
    c["fq-012"] = (sum(drivers) / len(drivers), 17.5, "17.5 years")
    c["fq-013"] = (sum(r["类别"] == "叉车" and r["所属仓库"] == "西岭冷链仓" and r["状态"] == "在用" for r in FLEET_LY), 3, "3台")
    c["fq-014"] = (sum(int(r["购置金额(元)"]) for r in FLEET_LY if "冷藏车" in r["车型"] and r["状态"] == "在用"), 1327000, "1327000元")
    live = [r for r in FLEET_LY if r["状态"] == "在用"]
    old = min(live, key=lambda r: int(r["购置年份"]))
    assert sum(r["购置年份"] == old["购置年份"] for r in live) == 1
    c["fq-015"] = ((old["编号"], old["车型"], old["购置年份"]), ("CL07", "4.2米厢式货车", "2018"), "CL07")
    yz = next(r for r in STAFF_LY if r["姓名"] == "杨志远")
    c["fq-016"] = (annual_leave_ly(yz), 12, "12天")
    c["fq-017"] = (100 - storage_off("冷冻货物（-18℃及以下）", 600), 90, "9折")
    c["fq-018"] = (delivery_fee(30, "7.6米厢式货车", night=True, holiday=True), 780, "780元")
    c["fq-019"] = (storage_fee("常温普货", oversize=True), Decimal("2.7"), "2.7 yuan")
    c["fq-020"] = (storage_off("常温普货", 300, first_month=True), 50, "减半")
    sh = next(r for r in STAFF_LY if r["姓名"] == "孙红霞")
    c["fq-021"] = ((sh["岗位"], annual_leave_ly(sh)), ("叉车司机", "派遣单位"), "派遣单位")
    c["fq-026"] = (trip_pay(200)[1], 180, "180元")
    c["fq-027"] = (MONTHLY["2026"], 400, "400 yuan")
    c["fq-028"] = (trip_pay(50, reefer=True)[0] - trip_pay(50)[0], 20, "20元")
    zx = next(r for r in STAFF_LY if r["姓名"] == "周晓燕")
    c["fq-029"] = ((zx["岗位"], zx["叉车证"]), ("理货员", "无"), "不能")
    c["fq-035"] = (_p(visitor_pence("9.5", 6)), "£36.00", "£36")
    c["fq-036"] = (_p(visitor_pence(str(round(Decimal(38 * 12) * Decimal("0.0254"), 2)), 7)), "£44.00", "£44")  # 38 ft = 11.58 m
    c["fq-037"] = (yard_lift("11"), 340, "£340")
    c["fq-041"] = (sum(r["status"] == "Visitor" for r in BERTHS), 7, "7 berths")
    c["fq-042"] = (sum(r["liveaboard"] == "Yes" for r in BERTHS), 4, "4 boats")
    c["fq-043"] = (sum(r["hoist_operator"] == "Yes" for r in STAFF_WM), 4, "4人")
    multi = [Decimal(r["boat_loa_m"]) for r in BERTHS if r["boat_type"] == "Multihull"]
    c["fq-044"] = (sum(multi) / len(multi), Decimal("11.2"), "11.2 m")
    held = [r for r in BERTHS if r["holder_since"]]
    first = min(held, key=lambda r: int(r["holder_since"]))
    assert sum(r["holder_since"] == first["holder_since"] for r in held) == 1
    c["fq-045"] = ((first["berth_id"], first["boat_name"], first["holder_since"]), ("C05", "Morwenna", "2012"), "Morwenna")
    cu = next(r for r in BERTHS if r["boat_name"] == "Curlew")
    c["fq-046"] = (_p(annual_berth_pence(cu)), "£5,302.50", "£5,302.50")
    c["fq-047"] = (_p(visitor_pence("9", 8, nights=3, club=True)), "£108.00", "£108")
    c["fq-048"] = (_p(visitor_pence("10.5", 6, multihull=True)), "£66.00", "£66")
    c["fq-049"] = (_p(visitor_pence("14", 1, week=True, shore=True)), "£278.60", "£278.60")
    c["fq-051"] = (_p(visitor_pence("8", 5, nights=3, gale=True)), "£56.00", "£56")
    c["fq-056"] = (COVER["2026"], "£5 million", "£5 million")
    c["fq-057"] = (LIVEABOARD["2026"], 1200, "£1,200")
    kd = next(r for r in STAFF_WM if r["name"] == "Kieran Doyle")
    c["fq-059"] = (kd["hoist_operator"], "No", "不可以")
    # chains
    c["cv-ly-01"] = ((delivery_fee(15, "4.2米厢式货车"), delivery_fee(15, "4.2米冷藏车"), delivery_fee(60, "4.2米冷藏车")),
                     (260, 380, 820), "820元")
    c["cv-ly-02"] = ((trip_pay(250), trip_pay(250, reefer=True)[0]), ((100, 180), 120), "120元")
    c["cv-ly-03"] = (storage_fee("冷藏货物（0–4℃）"), Decimal("6.5"), "6.5元")
    night_xl = [r for r in STAFF_LY if r["所属仓库"] == "西岭冷链仓" and r["夜班"] == "是"]
    fk = [r for r in night_xl if r["岗位"] == "叉车司机"]
    assert len(fk) == 1
    c["cv-ly-04"] = ((len(night_xl), fk[0]["姓名"], ALLOWANCE["叉车司机"][0]), (5, "钱俊", 60), "60 yuan")
    drv = max((r for r in STAFF_LY if r["岗位"] == "驾驶员"), key=lambda r: int(r["累计工作年限"]))
    assert sum(r["累计工作年限"] == drv["累计工作年限"] for r in STAFF_LY if r["岗位"] == "驾驶员") == 1
    c["cv-ly-05"] = ((drv["姓名"], annual_leave_ly(drv), ALLOWANCE["驾驶员、调度员"][0]), ("尤金龙", 17, 40), "17 days")
    c["cv-ly-06"] = ((MONTHLY["2026"], FATIGUE["2026"], ANNUAL["2026"]), (400, 300, 2500), "2500元")
    c["cv-wm-01"] = ((_p(visitor_pence("11", 6)), _p(visitor_pence("11", 6, week=True)), _p(visitor_pence("11", 2, week=True))),
                     ("£44.00", "£264.00", "£184.80"), "£184.80")
    c["cv-wm-02"] = ((TERMS["2026"]["Pontoon D"], LIVEABOARD["2026"], EARLY["2026"]), (610, 1200, "4%"), "4%")
    c["cv-wm-03"] = ((yard_lift("9.4"), FUEL[0][1], FUEL[1][1]), (260, FUEL[0][1], FUEL[1][1]), "09:00–16:00")
    st = min(STAFF_WM, key=lambda r: r["start_date"])
    c["cv-wm-04"] = ((st["name"], st["start_date"][:4]), ("Fiona Gallagher", "2011"), "2011")
    la = [r for r in BERTHS if r["liveaboard"] == "Yes"]
    lo = max(la, key=lambda r: Decimal(r["boat_loa_m"]))
    c["cv-wm-05"] = ((len(la), lo["boat_name"], _p(annual_berth_pence(lo))), (4, "Gannet", "£11,265.00"), "£11,265")
    c["cv-wm-06"] = (SPEEDING, ("£50", "£150"), "£150")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(SERVICE, "月结客户应在次月15日前付清上月费用")],
    "fq-002": [(SERVICE, "冷链货物须在签收后24小时内提出")],
    "fq-003": [(FEES, "货物码放高度不超过1.5米")],
    "fq-004": [(RULES, "每人每月夜班不超过10个，连续夜班不超过5个")],
    "fq-005": [(FEES, "冷冻货物（-18℃及以下） 西岭冷链仓 8 25 25")],
    "fq-006": [(FEES, "20–50公里（含50公里） 380 600 560 860")],
    "fq-007": [(FEES, "贴标、换标 0.3元/件")],
    "fq-008": [(SERVICE, "冷藏货物、冷冻货物 | 送货前1天12:00")],
    "fq-009": [(RULES, "| 叉车司机 | 60 | 45 | 300 |")],
    "fq-010": [(SERVICE, "12小时至24小时 | 减免该车次配送费的50%")],
    "fq-016": [(RULES, "| 满10年不满20年 | 10天 |"), (RULES, "| 满10年及以上 | 2天 |")],
    "fq-017": [(FEES, "冷藏货物和冷冻货物最多按9折计算，月均在库500托盘及以上的也按9折")],
    "fq-018": [(FEES, "夜间配送与节假日配送同时发生的，只按节假日加收30%，不叠加")],
    "fq-019": [(FEES, "超高或超重的托盘按1.5个托盘计费"), (FEES, "常温普货 东港常温仓、北站中转仓 1.8 12 12")],
    "fq-020": [(FEES, "合同第一个月的仓储费减半收取")],
    "fq-021": [(RULES, "劳务派遣人员的年休假由派遣单位安排，本公司不另给司龄奖励假")],
    "fq-026": [(D26, "100–300公里（含300公里） 100 180"), (D24, "100–300公里（含300公里） 80 150"),
               (D26, "《驾驶员出车补贴与安全奖惩办法（2024版）》同时废止")],
    "fq-027": [(D26, "当月无违章、无事故 奖励400元"), (D24, "当月无违章、无事故 奖励300元")],
    "fq-028": [(D26, "驾驶冷藏车出车的，出车补贴每天另加20元")],
    "fq-029": [(RULES, "员工名册中“叉车证”登记为“无”的人员一律不得驾驶叉车，仓库繁忙时临时顶岗的理货员也不例外")],
    "fq-030": [(SERVICE, "办理了保价的货物按申报价值全额赔偿，不受每托盘赔偿上限的限制")],
    "fq-031": [(SAFETY, "The speed limit in the marina and in the entrance channel is 4 knots")],
    "fq-032": [(SAFETY, "must be asked for at least 24 hours in advance")],
    "fq-033": [(SAFETY, "Children under 12 must wear a lifejacket on the pontoons")],
    "fq-034": [(T26, "Give at least 60 days' notice in writing"), (T25, "Give at least 60 days' notice in writing")],
    "fq-035": [(TARIFF, "8.01–10.00 m £15 £36 £216")],
    "fq-036": [(TARIFF, "10.01–12.00 m £18 £44 £264")],
    "fq-037": [(HANDBOOK, "| 10.01–12.00 m | £340 | £62 | £90 |")],
    "fq-038": [(TARIFF, "Diesel £1.42 per litre")],
    "fq-039": [(SAFETY, "October to March 09:00–16:00, closed on Tuesdays")],
    "fq-040": [(TARIFF, "D 12 20 m 3.0 m 32 A and 63 A")],
    "fq-046": [(T26, "Pontoon C | £505 per metre"), (T26, "rounded up to the next half metre")],
    "fq-047": [(TARIFF, "except in July and August")],
    "fq-048": [(TARIFF, "Multihulls pay 50% more than the rates above")],
    "fq-049": [(TARIFF, "12.01–15.00 m £24 £58 £348"), (TARIFF, "Boats over 12.00 m pay £5 a night for shore power")],
    "fq-050": [(HANDBOOK, "may stay on the hardstanding free of charge for up to 6 weeks between 1 November and 31 March")],
    "fq-051": [(TARIFF, "pays nothing for its first night; any further nights are charged as usual"), (TARIFF, "Up to 8.00 m £12 £28 £168")],
    "fq-056": [(T26, "cover of at least £5 million"), (T25, "cover of at least £3 million"),
               (T26, "replace the Annual Berthing Terms 2025, which are withdrawn")],
    "fq-057": [(T26, "Liveaboard | £1,200 a year"), (T25, "Liveaboard | £950 a year")],
    "fq-058": [(HANDBOOK, "Living aboard is allowed only on pontoons B and D")],
    "fq-059": [(SAFETY, "Only staff holding a hoist operator certificate may drive the travel hoist")],
    "fq-060": [(TARIFF, "Holding-tank pump-out £15 Free for annual berth holders"), (HANDBOOK, "| Holding-tank pump-out | Free |")],
    "cv-ly-01": [(FEES, "50–100公里（含100公里） 560 880 820 1260")],
    "cv-ly-02": [(D26, "100–300公里（含300公里） 100 180")],
    "cv-ly-03": [(SERVICE, "理赔申请须在签收后3天内提出；冷链货物须在签收后24小时内提出")],
    "cv-ly-04": [(RULES, "夜班只安排员工名册中“夜班”登记为“是”的人员")],
    "cv-ly-05": [(RULES, "| 满20年及以上 | 15天 |"), (RULES, "| 驾驶员、调度员 | 40 | 30 | 300 |")],
    "cv-ly-06": [(D26, "疲劳驾驶（每次） 扣款300元"), (D24, "疲劳驾驶（每次） 扣款200元"), (D26, "年度安全奖2500元")],
    "cv-wm-01": [(TARIFF, "10.01–12.00 m £18 £44 £264"), (TARIFF, "From 1 November to 31 March all nightly and 7-night rates are 30% lower")],
    "cv-wm-02": [(T26, "Pontoon D | £610 per metre"), (T25, "Pontoon D | £560 per metre"), (T26, "get 4% off the berth price"),
                 (T25, "get 5% off the berth price")],
    "cv-wm-03": [(HANDBOOK, "| 8.01–10.00 m | £260 | £48 | £75 |"), (SAFETY, "April to September 08:00–19:00 every day")],
    "cv-wm-04": [(HERE / WM / "staff.csv", "WS01,Fiona Gallagher,Marina Manager,Office,Permanent,40,2011-04-04")],
    "cv-wm-05": [(T26, "Liveaboard | £1,200 a year")],
    "cv-wm-06": [(SAFETY, "Speeding or making a wash (second and later times in a berthing year) £150"),
                 (SAFETY, "A berth holder charged three times in one berthing year may have the berth agreement ended with 30 days' notice")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(LY, "re:(?i)GPS"), (LY, "定位"), (LY, "轨迹"), (LY, "实时")],
    "fq-023": [(LY, "保税"), (LY, "海关"), (LY, "报关"), (LY, "清关")],
    "fq-024": [(LY, "油"), (LY, "燃料"), (LY, "re:(?i)fuel")],
    "fq-025": [(LY, "生日"), (LY, "蛋糕")],
    "fq-052": [(WM, "re:(?i)chart"), (WM, "re:(?i)chandl"), (WM, "re:(?i)pilot book"), (WM, "re:(?i)almanac")],
    "fq-053": [(WM, "re:(?i)indoor"), (WM, "re:(?i)dry stack"), (WM, r"re:(?i)\bsheds?\b"), (WM, "室内")],
    "fq-054": [(WM, "re:(?i)rigg"), (WM, "re:(?i)survey")],
    "fq-055": [(WM, r"re:(?i)\bjet"), (WM, "re:(?i)personal watercraft"), (WM, r"re:(?i)\bPWC\b")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return LY if k.startswith("cv-ly") else WM
    return LY if int(k[3:]) <= 30 else WM


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
        # cross_language: an English question over the Chinese company, a Chinese question over the English marina
        zh_q = is_zh(r["question"])
        assert r["cross_language"] == (zh_q if r["org"] == WM else not zh_q), k
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
    assert [c["id"] for c in chains] == [f"cv-ly-{i:02d}" for i in range(1, 7)] + [f"cv-wm-{i:02d}" for i in range(1, 7)]
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
            other = "en" if c["org"] == LY else "zh"
            assert (t.get("lang") == other) == (zh_t if c["org"] == WM else not zh_t), (c["id"], t["message"])
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (LY, WM):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 8, org
        assert sum(r["split"] == "dev" for r in qs if r["org"] == org) == 15, org
    assert sum(c["split"] == "dev" for c in chains) == 6
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
