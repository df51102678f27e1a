"""Check the gold answers of orgdocs_blind10 against the generated documents (CC0).

    python tests/data/orgdocs_blind10/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, the CSV rows agree with the rules they were
written under, computed answers are recomputed from the CSVs and the gold value must appear among the gold
answer strings, and the asked-for fact of every near miss is absent from its collection. Exits 1 on a
failure. (The checks repeat those of ../orgdocs_blind9/check_answers.py.)
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
QL, BW = "qinglan-ferry", "brackwater-removals"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (QL, BW)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


FARES, RULES, NOTICE = "船票价目表（2026年）.html", "员工值班与津贴办法.md", "旅客乘船须知与退票规定.docx"
V24, V26 = "车辆随船运输规定（2024版）.pdf", "车辆随船运输规定（2026版）.pdf"
PRICES, HANDBOOK, TERMS, G24, G26 = ("Price_Guide_2026.html", "Staff_Handbook.md", "Booking_and_Cancellation_Terms.docx",
                                     "Goods_in_Transit_Cover_2024.pdf", "Goods_in_Transit_Cover_2026.pdf")

STAFF_QL = rows(QL, "员工名册.csv")
SAILINGS = rows(QL, "航次记录.csv")
STAFF_BW = rows(BW, "staff.csv")
JOBS = rows(BW, "jobs.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
ROUTES = {  # 航线 -> (起讫码头, 航程公里, 航行时间, 成人单程, 儿童/长者单程, 成人往返, 随船载车)
    "1号线": ("鹤湾—芦屿", 6, "25分钟", 15, 8, 28, "可"),
    "2号线": ("鹤湾—白沙岛", 14, "50分钟", 32, 16, 60, "可"),
    "3号线": ("芦屿—松门", 9, "35分钟", 20, 10, 38, "可"),
    "4号线（快船）": ("鹤湾—松门", 18, "40分钟", 48, 24, 90, "不可"),
}
LINE = {"1号线": "1号线", "2号线": "2号线", "3号线": "3号线", "4号线": "4号线（快船）"}
EXPRESS_HOLIDAY_UP = 20  # 春节和国庆期间，4号线快船票价一律上浮20%；1号线至3号线票价不变
SENIOR_AGE = 65
CHILD = [("不足1.2米", "免票（每名成人旅客限带1名）"), ("1.2米至1.5米（含1.2米和1.5米）", "儿童票"), ("超过1.5米", "成人票")]
CARDS = {"次卡（20次）": ("240元", "1号线、3号线"), "月卡": ("360元", "1号线、2号线、3号线"),
         "岛民卡": ("免费办理", "1号线、2号线、3号线")}
ISLANDER_PCT = 50  # 岛民卡 单程票5折, never combined with 长者票 / 儿童票: the better one
BAGGAGE = [("20公斤以内（含20公斤）", 0, 20, "免费"), ("20公斤以上至40公斤（含40公斤）", 20, 40, "10元"),
           ("40公斤以上至60公斤（含60公斤）", 40, 60, "25元"), ("60公斤以上", 60, math.inf, "不作为随身行李，须办理货物托运")]
SCHEDULE = {"1号线": ("6:30", "21:00", 30), "2号线": ("7:00", "17:30", 90), "3号线": ("7:00", "19:00", 60),
            "4号线（快船）": ("7:30", "17:30", 120)}
PIERS = {"鹤湾码头": ("岚州市鹤湾区湖滨路1号", "6:00–21:30"), "芦屿码头": ("芦屿镇渡口街8号", "6:10–21:00"),
         "白沙岛码头": ("白沙岛环岛路2号", "6:40–18:00"), "松门码头": ("松门镇港前路15号", "6:30–19:30")}
ALLOWANCE = {  # 岗位 -> (航行津贴 元/航次, 夜间值守补贴 元/次, 餐补 元/天)
    "船长": (25, 150, 25), "大副": (20, 130, 25), "轮机长": (20, 130, 25), "轮机员": (15, 110, 20), "水手": (12, 100, 20),
    "售票员": ("不发放", 90, 20), "安检员": ("不发放", 90, 20), "调度员": ("不发放", 120, 20),
    "行政人员": ("不发放", "不发放", 20),
}
EXPRESS_EXTRA, MAX_TRIPS = 5, 8  # 4号线快船每航次另加5元；每人每天最多计8个航次
SENIORITY = [("不满3年", 0, 0), ("满3年不满6年", 3, 100), ("满6年不满10年", 6, 200), ("满10年及以上", 10, 350)]
LEAVE_QL = [("不满1年", 0, 0), ("满1年不满10年", 1, 5), ("满10年不满20年", 10, 10), ("满20年及以上", 20, 15)]
SAIL_LEAVE = [("不满5年", 0, 2), ("满5年及以上", 5, 4)]
CREW = ("船长", "大副", "轮机长", "轮机员", "水手")
NO_LEAVE = ("实习", "兼职", "劳务派遣")  # 不适用第十二条和第十三条
LEAVE_DAY = dt.date(2026, 1, 1)  # both organisations count whole years on 1 January
REFUND = [("开航前24小时以上", 24.0001, math.inf, "免费", 0), ("开航前2小时至24小时", 2, 24, "票价的10%", 10),
          ("开航前不足2小时", 0, 1.9999, "票价的30%", 30)]
MIN_FEE, HOLIDAY_REFUND_PCT = 2, 30
DELAY_FREE_MIN, DELAY_HALF_MIN = 30, 60
WEATHER = ("大风", "大雾", "暴雨", "水位")  # 因大风、大雾、暴雨或水位异常延误的，只能免费退票
VEHICLE = {  # version -> 车辆类型 -> (1号线, 2号线, 3号线) 元/辆
    "2024": {"电动自行车、摩托车": (10, 20, 12), "小型客车（车长6米以下，含6米）": (60, 120, 80),
             "中型车（车长6米以上至9米，含9米）": (120, 220, 150), "大型车（车长9米以上至12米，含12米）": (200, 360, 250)},
    "2026": {"电动自行车、摩托车": (12, 25, 15), "小型客车（车长6米以下，含6米）": (70, 145, 90),
             "中型车（车长6米以上至9米，含9米）": (140, 260, 170), "大型车（车长9米以上至12米，含12米）": (240, 420, 300)},
}
VEHICLE_LEN = [("小型客车（车长6米以下，含6米）", 0, 6), ("中型车（车长6米以上至9米，含9米）", 6, 9),
               ("大型车（车长9米以上至12米，含12米）", 9, 12)]
DAMAGE_CAP = {"2024": 5000, "2026": 10000}

MOVE = {  # home size -> (typical volume, crew, local, regional, long distance) pounds
    "Studio or 1 bedroom": ("up to 15 m³", 2, 420, 690, 1150), "2 bedrooms": ("16–25 m³", 3, 640, 980, 1580),
    "3 bedrooms": ("26–40 m³", 4, 890, 1350, 2150), "4 bedrooms or more": ("over 40 m³", 5, 1240, 1820, 2900),
}
SIZE_ROW = {"Studio": "Studio or 1 bedroom", "1 bedroom": "Studio or 1 bedroom", "2 bedrooms": "2 bedrooms",
            "3 bedrooms": "3 bedrooms", "4 bedrooms": "4 bedrooms or more"}
DIST = [("Local (up to 25 miles)", 0, 25), ("Regional (26–100 miles)", 26, 100), ("Long distance (101–250 miles)", 101, 250)]
SURCHARGE = {"Weekday": 0, "Saturday": 15, "Sunday": 25, "Bank holiday": 25}  # never added together
BANK_HOLIDAYS = {dt.date(2025, 12, 25), dt.date(2025, 12, 26), dt.date(2026, 1, 1), dt.date(2026, 4, 3),
                 dt.date(2026, 4, 6), dt.date(2026, 5, 4)}  # England, for the dates in jobs.csv
PACKING = {"Full packing (the day before the move)": (180, 260, 360, 480),
           "Fragile items only (kitchen, glass and china)": (90, 120, 150, 190),
           "Unpacking at the new home": (120, 170, 230, 300)}
PIANO = {"Upright piano": 150, "Grand piano": 420}
PIANO_PER_FLOOR, PIANO_MAX_FLOOR = 60, 3
DISCOUNTS = {"Over-60s": 10, "Midweek": 7, "Early booking": 5}  # one only, the largest
DEPOTS = {"Selbury (head office)": ("Unit 4, Tanner's Yard, Selbury", "Monday to Friday 8:00–18:00, Saturday 9:00–13:00"),
          "Ashcombe": ("18 Mill Race Road, Ashcombe", "Monday to Friday 8:30–17:00")}
DEPOSIT = [("Under £600", 0, 599.99, "£100", None), ("£600–£1,499", 600, 1499.99, "20% of the price", 20),
           ("£1,500 and over", 1500, math.inf, "25% of the price", 25)]
CANCEL = [("More than 14 days", 15, math.inf, "Deposit refunded in full", "Free of charge"),
          ("7 to 14 days", 7, 14, "Deposit kept", "£75 rebooking fee"),
          ("Less than 7 days", 1, 6, "50% of the price of the move", "Charged as a cancellation"),
          ("On the moving day", 0, 0, "100% of the price of the move", "Charged as a cancellation")]
WAIT_FREE, WAIT_UNIT, WAIT_RATE = 60, 30, 45
PAY = {  # role -> (overtime per hour, overnight allowance, piano bonus)
    "Crew Leader": ("£21.00", "£45", "£20"), "HGV Driver": ("£20.00", "£45", "£15"), "Van Driver": ("£17.50", "£40", "£15"),
    "Porter": ("£16.00", "£40", "£15"), "Packer": ("£15.00", "Not paid", "Not paid"),
    "Estimator": ("Not paid", "£40", "Not paid"), "Office staff and managers": ("Not paid", "Not paid", "Not paid"),
}
LEAVE_BW = [("Under 2 years", 0, 25), ("2 to 4 years", 2, 26), ("5 to 9 years", 5, 28), ("10 years or more", 10, 30)]
FULL_WEEK = 40
LORRY_75 = ("C1", "C")
COVER = {  # version -> cover -> (limit per move, limit per item, excess per claim)
    "2024": {"Standard cover (included in every move)": ("£25,000", "£500", "£100"),
             "Full value cover": ("The declared value, up to £150,000", "£2,500", "£50")},
    "2026": {"Standard cover (included in every move)": ("£25,000", "£500", "£150"),
             "Full value cover": ("The declared value, up to £150,000", "£5,000", "£50")},
}
PREMIUM_BANDS = [("Up to £20,000", 0, 20000), ("£20,001–£50,000", 20001, 50000), ("£50,001–£100,000", 50001, 100000),
                 ("£100,001–£150,000", 100001, 150000)]
PREMIUM = {"2024": (60, 120, 200, 300), "2026": (75, 145, 240, 360)}


def _vf(v: str) -> str:
    return V24 if v == "2024" else V26


def _gf(v: str) -> str:
    return G24 if v == "2024" else G26


TABLE_ROWS = (
    [(QL, FARES, f"{k} {a} {km} {t} {ad} {ch} {rt} {car}") for k, (a, km, t, ad, ch, rt, car) in ROUTES.items()]
    + [(QL, FARES, "长者票适用于年满65周岁的旅客"),
       (QL, FARES, "春节和国庆期间，4号线快船票价（含往返票）一律上浮20%；1号线至3号线票价不变")]
    + [(QL, FARES, f"{h} {t}") for h, t in CHILD]
    + [(QL, FARES, "一名成人旅客携带2名以上身高不足1.2米的儿童的，只有1名免票，其余的按儿童票购票")]
    + [(QL, FARES, f"{k} {p} {lines}") for k, (p, lines) in CARDS.items()]
    + [(QL, FARES, "芦屿、白沙岛户籍居民购买单程票5折"), (QL, FARES, "月卡和次卡限本人使用，不能乘坐4号线快船"),
       (QL, FARES, "岛民卡折扣不与长者票、儿童票同时使用，按对旅客有利的一项计算")]
    + [(QL, FARES, f"{name} {fee}") for name, _, _, fee in BAGGAGE]
    + [(QL, FARES, f"{k} {a} {b} 每{n}分钟一班") for k, (a, b, n) in SCHEDULE.items()]
    + [(QL, FARES, f"{k} {a} {h}") for k, (a, h) in PIERS.items()]
    + [(QL, RULES, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in ALLOWANCE.items()]
    + [(QL, RULES, "4号线快船每航次另加5元。每人每天最多计8个航次，超出的不再发放"),
       (QL, RULES, "因停航未开出的航次不发放航行津贴")]
    + [(QL, RULES, f"| {name} | {n} |") for name, _, n in SENIORITY]
    + [(QL, RULES, "兼职人员、实习人员和劳务派遣人员不发工龄津贴")]
    + [(QL, RULES, f"| {name} | {d}天 |") for name, _, d in LEAVE_QL + SAIL_LEAVE]
    + [(QL, RULES, "船员（船长、大副、轮机长、轮机员、水手）在年休假之外另享受航行假"), (QL, RULES, "码头和机关员工不享受航行假"),
       (QL, RULES, "实习人员、兼职人员和劳务派遣人员不适用第十二条和第十三条"),
       (QL, RULES, "以截至当年1月1日已满的整年数为准")]
    + [(QL, NOTICE, f"{name} | {label}") for name, _, _, label, _ in REFUND]
    + [(QL, NOTICE, "退票费按票价计算，不足2元的按2元收取"),
       (QL, NOTICE, "春节（除夕至正月初六）和国庆（10月1日至7日）期间的船票，开航前24小时以内退票的，一律收取票价的30%"),
       (QL, NOTICE, "延误30分钟以上至60分钟（含60分钟） | 可以免费退票"),
       (QL, NOTICE, "延误超过60分钟 | 可以免费退票；继续乘船的，退还票价的50%"),
       (QL, NOTICE, "因大风、大雾、暴雨或水位异常延误的，只能免费退票，不退还票价的50%")]
    + [(QL, _vf(v), f"{k} {a} {b} {c}") for v, tab in VEHICLE.items() for k, (a, b, c) in tab.items()]
    + [(QL, _vf(v), f"每辆车最高赔偿{n}元") for v, n in DAMAGE_CAP.items()]
    + [(QL, f, "驾驶员1人随车免票，其他随车人员按所乘航线购买船票") for f in (V24, V26)]
    + [(QL, f, "4号线快船不载运车辆") for f in (V24, V26)]
    + [(BW, PRICES, " ".join(name for name, _, _ in DIST))]
    + [(BW, PRICES, f"{k} {vol} {crew} £{a:,} £{b:,} £{c:,}") for k, (vol, crew, a, b, c) in MOVE.items()]
    + [(BW, PRICES, "Saturday moves cost 15% more, and Sunday and bank holiday moves cost 25% more"),
       (BW, PRICES, "surcharges are never added together"),
       (BW, PRICES, "the whole move takes one distance band")]
    + [(BW, PRICES, f"{k} £{a} £{b} £{c} £{d}") for k, (a, b, c, d) in PACKING.items()]
    + [(BW, PRICES, f"{k} £{n}") for k, n in PIANO.items()]
    + [(BW, PRICES, "A piano on any floor above the ground floor costs a further £60 for each floor, at each address"),
       (BW, PRICES, "We never carry a piano to or from the fourth floor or higher")]
    + [(BW, PRICES, f"{k} {n}%") for k, n in DISCOUNTS.items()]
    + [(BW, PRICES, "Only one discount is given on each move: when more than one applies, you get the largest"),
       (BW, PRICES, "The over-60s discount is not given on Saturdays, Sundays or bank holidays, and the midweek discount "
                    "is not given on a bank holiday"),
       (BW, PRICES, "Moves on a Tuesday, Wednesday or Thursday")]
    + [(BW, PRICES, f"{k} {a} {h}") for k, (a, h) in DEPOTS.items()]
    + [(BW, TERMS, f"{name} | {label}") for name, _, _, label, _ in DEPOSIT]
    + [(BW, TERMS, f"{name} | {a} | {b}") for name, _, _, a, b in CANCEL]
    + [(BW, TERMS, "the cancellation charge is never more than the deposit you have paid, however late you cancel"),
       (BW, TERMS, "The first 60 minutes of waiting at each address are free"),
       (BW, TERMS, "waiting is charged at £45 for each half hour or part of a half hour, for the whole crew")]
    + [(BW, HANDBOOK, f"| {k} | {a} | {b} | {c} |") for k, (a, b, c) in PAY.items()]
    + [(BW, HANDBOOK, f"| {name} | {d} days |") for name, _, d in LEAVE_BW]
    + [(BW, HANDBOOK, "hours_per_week divided by 40, rounded up to the next whole day"),
       (BW, HANDBOOK, "Casual staff are paid holiday pay with each hour worked instead of taking annual leave"),
       (BW, HANDBOOK, "Years of service are the complete years from start_date to 1 January of the leave year"),
       (BW, HANDBOOK, "Only staff whose licence in staff.csv is C1 or C may drive the 7.5-tonne lorries"),
       (BW, HANDBOOK, "Trainees never drive a company vehicle and never lead a crew, whatever licence they hold")]
    + [(BW, _gf(v), f"{k} {a} {b} {c}") for v, tab in COVER.items() for k, (a, b, c) in tab.items()]
    + [(BW, _gf(v), f"{band} £{p}") for v, ps in PREMIUM.items()
       for (band, _, _), p in zip(PREMIUM_BANDS, ps, strict=True)]
    + [(BW, f, "Boxes packed by you are covered for loss only, not for breakage of what is inside, under either cover")
       for f in (G24, G26)]
    + [(BW, f, "no discount is taken off it") for f in (G24, G26)]
)


def whole_years(start: str, on: dt.date = LEAVE_DAY) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


def band(table: list, value: float) -> tuple:
    return next(r for r in table if r[1] <= value <= r[2])


# ---- 青澜轮渡 ----------------------------------------------------------------------------------------

def fare(line: str, kind: str = "adult", holiday: bool = False) -> Decimal:
    row = ROUTES[LINE.get(line, line)]
    base = Decimal({"adult": row[3], "child": row[4], "senior": row[4], "return": row[5]}[kind])
    if holiday and LINE.get(line, line) == "4号线（快船）":
        return base * (100 + EXPRESS_HOLIDAY_UP) / 100
    return base


def party_fare(line: str, adults: int, heights: list[float]) -> Decimal:
    """Adults plus children by height: one free child under 1.2 m per adult, the rest child fare."""
    free = adults
    total = fare(line) * adults
    for h in sorted(heights):
        if h < 1.2 and free:
            free -= 1
        elif h <= 1.5:
            total += fare(line, "child")
        else:
            total += fare(line)
    return total


def islander_single(line: str, age: int) -> Decimal:
    options = [fare(line) * ISLANDER_PCT / 100]  # 岛民卡
    if age >= SENIOR_AGE:
        options.append(fare(line, "senior"))  # never combined: the better one
    return min(options)


def baggage_fee(kg: float) -> str:
    return next(fee for _, lo, hi, fee in BAGGAGE if lo < kg <= hi or (lo == 0 and kg <= hi))


def refund_fee(price: Decimal, hours_before: float, holiday: bool = False) -> Decimal:
    if holiday and hours_before <= 24:
        pct = HOLIDAY_REFUND_PCT
    else:
        pct = band(REFUND, hours_before)[4]
    if pct == 0:
        return Decimal(0)
    return max(price * pct / 100, Decimal(MIN_FEE))


def delay_refund(row: dict, price: Decimal) -> Decimal:
    """What a passenger who still travels gets back on a delayed sailing."""
    if row["状态"] != "延误" or int(row["延误(分钟)"]) <= DELAY_HALF_MIN or row["延误原因"] in WEATHER:
        return Decimal(0)
    return price / 2


def trip_pay(role: str, trips: int, express: bool) -> int:
    rate = ALLOWANCE[role][0] + (EXPRESS_EXTRA if express else 0)
    return rate * min(trips, MAX_TRIPS)


def leave_ql(r: dict) -> int:
    if r["用工形式"] in NO_LEAVE:
        return 0
    stat = [d for _, lo, d in LEAVE_QL if int(r["累计工作年限"]) >= lo][-1]
    sail = [d for _, lo, d in SAIL_LEAVE if whole_years(r["入职日期"]) >= lo][-1] if r["岗位"] in CREW else 0
    return stat + sail


def seniority_pay(r: dict) -> int:
    if r["用工形式"] != "全职":
        return 0
    return [n for _, lo, n in SENIORITY if whole_years(r["入职日期"]) >= lo][-1]


def may_steer(r: dict) -> bool:
    return r["驾驶资格"] == "是" and r["岗位"] in ("船长", "大副")


def vehicle_fee(version: str, metres: float, line: str) -> int:
    kind = next(k for k, lo, hi in VEHICLE_LEN if lo < metres <= hi or (lo == 0 and metres <= hi))
    return VEHICLE[version][kind][int(line[0]) - 1]


def minutes(t: str) -> int:
    h, m = t.split(":")
    return int(h) * 60 + int(m)


# ---- Brackwater Removals ----------------------------------------------------------------------------

def move_price(size: str, miles: int, day: dt.date | str, discounts: tuple = ()) -> Decimal:
    if isinstance(day, str):
        day = dt.date.fromisoformat(day)
    day_type = "Bank holiday" if day in BANK_HOLIDAYS else {5: "Saturday", 6: "Sunday"}.get(day.weekday(), "Weekday")
    j = next(j for j, (_, lo, hi) in enumerate(DIST) if lo <= miles <= hi)
    base = Decimal(MOVE[SIZE_ROW.get(size, size)][2 + j])
    ok = []
    for d in discounts:
        if d == "Over-60s" and day_type != "Weekday":
            continue
        if d == "Midweek" and (day_type != "Weekday" or day.weekday() not in (1, 2, 3)):
            continue
        ok.append(DISCOUNTS[d])
    off = max(ok, default=0)
    return (base * (100 + SURCHARGE[day_type]) / 100 * (100 - off) / 100).quantize(Decimal("0.01"))


def deposit(total: Decimal) -> Decimal:
    _, _, _, label, pct = band(DEPOSIT, total)
    return Decimal(100) if pct is None else Decimal(total) * pct / 100


def cancel_charge(total: Decimal, days: int, chain_broken: bool = False) -> Decimal:
    label = band(CANCEL, days)[3]
    charge = {"Deposit refunded in full": Decimal(0), "Deposit kept": deposit(total),
              "50% of the price of the move": Decimal(total) / 2, "100% of the price of the move": Decimal(total)}[label]
    return min(charge, deposit(total)) if chain_broken else charge


def wait_charge(mins: int) -> int:
    return math.ceil(max(mins - WAIT_FREE, 0) / WAIT_UNIT) * WAIT_RATE


def piano_charge(kind: str, floors: tuple[int, int]) -> int | None:
    if max(floors) > PIANO_MAX_FLOOR:
        return None
    return PIANO[kind] + PIANO_PER_FLOOR * sum(floors)


def leave_bw(r: dict) -> int:
    if r["contract"] == "Casual":
        return 0
    full = [d for _, lo, d in LEAVE_BW if whole_years(r["start_date"]) >= lo][-1]
    return int((Decimal(full) * Decimal(r["hours_per_week"]) / FULL_WEEK).to_integral_value(rounding=ROUND_CEILING))


def may_drive_lorry(r: dict) -> bool:
    return r["licence"] in LORRY_75 and r["contract"] != "Trainee"


def may_drive_van(r: dict) -> bool:
    return r["licence"] in ("B", *LORRY_75) and r["contract"] != "Trainee"


def premium(value: int, version: str = "2026") -> int:
    j = next(j for j, (_, lo, hi) in enumerate(PREMIUM_BANDS) if lo <= value <= hi)
    return PREMIUM[version][j]


def data_checks() -> list[str]:
    """The CSV rows agree with the rules they were written under."""
    bad = []
    for r in STAFF_QL:
        if int(r["累计工作年限"]) < whole_years(r["入职日期"]):
            bad.append(f"{r['工号']} 累计工作年限 below 司龄")
        if r["驾驶资格"] == "是" and not (r["岗位"] in ("船长", "大副") and r["适任证书"] == "有"):
            bad.append(f"{r['工号']} 驾驶资格 without 船长/大副 and 适任证书")
        if r["夜间值守"] == "是" and r["用工形式"] in ("实习", "劳务派遣"):
            bad.append(f"{r['工号']} 夜间值守 for 实习/劳务派遣")
    for r in SAILINGS:
        first, last, step = SCHEDULE[LINE[r["航线"]]]
        t = minutes(r["计划开航"])
        if not (minutes(first) <= t <= minutes(last) and (t - minutes(first)) % step == 0):
            bad.append(f"{r['航次号']} not on the timetable")
        if r["航线"] == "4号线" and r["随船车辆(辆)"] != "0":
            bad.append(f"{r['航次号']} vehicles on the express boat")
        if r["状态"] == "停航" and (r["乘客人数"] != "0" or r["延误(分钟)"] != "" or r["延误原因"] not in WEATHER):
            bad.append(f"{r['航次号']} 停航 row")
        if r["状态"] == "准点" and (r["延误(分钟)"] != "0" or r["延误原因"]):
            bad.append(f"{r['航次号']} 准点 row")
        if r["状态"] == "延误" and (int(r["延误(分钟)"]) <= 0 or not r["延误原因"]):
            bad.append(f"{r['航次号']} 延误 row")
    for r in JOBS:
        d = dt.date.fromisoformat(r["move_date"])
        day_type = "Bank holiday" if d in BANK_HOLIDAYS else {5: "Saturday", 6: "Sunday"}.get(d.weekday(), "Weekday")
        if r["day_type"] != day_type:
            bad.append(f"{r['job_no']} day_type")
        if int(r["crew"]) != MOVE[SIZE_ROW[r["home_size"]]][1]:
            bad.append(f"{r['job_no']} crew")
        disc = () if r["discount"] == "None" else (r["discount"],)
        price = move_price(r["home_size"], int(r["miles"]), d, disc)
        if price != Decimal(r["price_gbp"]) or price != move_price(r["home_size"], int(r["miles"]), d, disc + disc):
            bad.append(f"{r['job_no']} price {r['price_gbp']} != {price}")
        if disc and move_price(r["home_size"], int(r["miles"]), d) == price:
            bad.append(f"{r['job_no']} discount {disc} not applicable on {day_type}")
        if (r["cover"] == "Full value") != bool(r["declared_value_gbp"]):
            bad.append(f"{r['job_no']} cover / declared value")
        if r["status"] == "Completed" and d >= dt.date(2026, 1, 10) or r["status"] == "Booked" and d < dt.date(2026, 1, 10):
            bad.append(f"{r['job_no']} status {r['status']} on {d}")
    return bad


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    c["fq-005"] = (fare("1号线"), 15, "15元")
    c["fq-006"] = (fare("3号线", "return"), 38, "38元")
    c["fq-007"] = (fare("4号线"), 48, "48 yuan")
    c["fq-008"] = (baggage_fee(35), "10元", "10元")
    c["fq-009"] = (CARDS["月卡"][0], "360元", "360 yuan")
    c["fq-010"] = (ALLOWANCE["调度员"][1], 120, "120元")
    steer = [r for r in STAFF_QL if r["驾驶资格"] == "是"]
    assert all(may_steer(r) for r in steer)
    c["fq-011"] = (len(steer), 8, "8人")
    deck = [int(r["累计工作年限"]) for r in STAFF_QL if r["岗位"] == "水手"]
    c["fq-012"] = (sum(deck) / len(deck), 5, "5年")
    c["fq-013"] = (sum(r["状态"] == "停航" for r in SAILINGS), 5, "5 sailings")
    c["fq-014"] = (sum(int(r["随船车辆(辆)"]) for r in SAILINGS if r["航线"] == "1号线"), 108, "108辆")
    l2 = [int(r["乘客人数"]) for r in SAILINGS if r["航线"] == "2号线" and r["状态"] != "停航"]
    c["fq-015"] = (sum(l2) / len(l2), 153, "153人")
    late = [r for r in SAILINGS if r["状态"] == "延误"]
    worst = max(late, key=lambda r: int(r["延误(分钟)"]))
    assert sum(r["延误(分钟)"] == worst["延误(分钟)"] for r in late) == 1
    c["fq-016"] = ((worst["航次号"], worst["航线"], worst["延误原因"], delay_refund(worst, fare(worst["航线"]))),
                   ("HC21", "4号线", "机械故障", 24), "24元")
    c["fq-017"] = (fare("4号线", holiday=True), Decimal("57.6"), "57.6元")
    c["fq-018"] = (fare("1号线") - refund_fee(fare("1号线"), 3), 13, "13元")
    c["fq-019"] = (party_fare("1号线", 1, [1.1, 1.1]), 23, "23元")
    cy = next(r for r in STAFF_QL if r["姓名"] == "曹永")
    assert cy["岗位"] == "安检员" and cy["部门"] == "鹤湾码头"
    c["fq-020"] = (leave_ql(cy), 10, "10天")
    c["fq-021"] = (islander_single("1号线", 66), Decimal("7.5"), "7.5元")
    c["fq-026"] = (vehicle_fee("2026", 4.8, "2号线"), 145, "145元")
    c["fq-027"] = (DAMAGE_CAP["2026"], 10000, "10000元")
    sx = next(r for r in STAFF_QL if r["姓名"] == "沈小龙")
    c["fq-028"] = ((sx["部门"], sx["岗位"], sx["适任证书"], may_steer(sx)), ("青澜2号", "水手", "有", False), "不能")
    c["fq-029"] = ("4号线" in CARDS["月卡"][1], False, "不能")
    c["fq-035"] = (move_price("2 bedrooms", 60, "2026-03-02"), 980, "£980")  # a Monday
    c["fq-036"] = (PACKING["Full packing (the day before the move)"][2], 360, "£360")
    c["fq-037"] = (PIANO["Grand piano"], 420, "£420")
    c["fq-038"] = (PAY["Porter"][1], "£40", "£40")
    c["fq-039"] = (deposit(Decimal(1200)), 240, "£240")
    c["fq-040"] = (band(CANCEL, 10)[4], "£75 rebooking fee", "£75")
    c["fq-041"] = (sum(r["piano_trained"] == "Yes" for r in STAFF_BW), 9, "9 staff")
    pk = [Decimal(r["hours_per_week"]) for r in STAFF_BW if r["role"] == "Packer"]
    c["fq-042"] = (sum(pk) / len(pk), 25, "25 hours")
    c["fq-043"] = (sum(r["status"] == "Booked" and r["cover"] == "Full value" for r in JOBS), 7, "7 moves")
    c["fq-044"] = (sum(int(r["declared_value_gbp"]) for r in JOBS if r["status"] == "Completed" and r["cover"] == "Full value"),
                   448000, "£448,000")
    done = [r for r in JOBS if r["status"] == "Completed"]
    far = max(done, key=lambda r: int(r["miles"]))
    assert sum(r["miles"] == far["miles"] for r in done) == 1
    c["fq-045"] = ((far["job_no"], far["to_town"], far["miles"]), ("BW-J11", "Kirkby Wendle", "212"), "Kirkby Wendle")
    pd = next(r for r in STAFF_BW if r["name"] == "Paula Dunmore")
    c["fq-046"] = (leave_bw(pd), 23, "23 days")
    c["fq-047"] = (move_price("3 bedrooms", 10, "2026-02-14", ("Over-60s",)), Decimal("1023.50"), "£1,023.50")  # a Saturday
    c["fq-048"] = (piano_charge("Upright piano", (2, 0)), 270, "£270")
    c["fq-049"] = (wait_charge(100), 90, "£90")
    c["fq-050"] = (cancel_charge(Decimal(1400), 3, chain_broken=True), 280, "£280")
    c["fq-051"] = (move_price("2 bedrooms", 12, "2026-03-11", ("Over-60s", "Early booking", "Midweek")), 576, "£576")  # a Wednesday
    c["fq-056"] = (COVER["2026"]["Standard cover (included in every move)"][2], "£150", "£150")
    hk = next(r for r in JOBS if r["job_no"] == "BW-J14")
    assert hk["customer"] == "Harker" and hk["cover"] == "Full value" and hk["move_date"] >= "2026-01-01"
    c["fq-057"] = (premium(int(hk["declared_value_gbp"])), 145, "£145")
    mt = next(r for r in STAFF_BW if r["name"] == "Megan Tulley")
    c["fq-058"] = ((mt["role"], mt["licence"], may_drive_lorry(mt)), ("Van Driver", "B", False), "cannot")
    lc = next(r for r in STAFF_BW if r["name"] == "Liam Corcoran")
    c["fq-059"] = ((lc["contract"], lc["licence"], may_drive_van(lc)), ("Trainee", "B", False), "不能")
    # chains
    c["cv-ql-01"] = ((fare("2号线"), fare("2号线", "child"), fare("4号线", holiday=True)), (32, 16, Decimal("57.6")), "57.6元")
    c["cv-ql-02"] = ((vehicle_fee("2026", 7, "1号线"), vehicle_fee("2026", 7, "2号线"),
                      vehicle_fee("2026", 7, "2号线") + 2 * fare("2号线")), (140, 260, 324), "324元")
    c["cv-ql-03"] = ((PIERS["白沙岛码头"][1], refund_fee(fare("1号线"), 5), refund_fee(fare("1号线"), 5, holiday=True)),
                     ("6:40–18:00", 2, Decimal("4.5")), "4.5元")
    l4 = [r for r in SAILINGS if r["航线"] == "4号线" and r["状态"] != "停航"]
    c["cv-ql-04"] = ((len(l4), sum(int(r["乘客人数"]) for r in l4)), (6, 779), "779")
    caps = [r for r in STAFF_QL if r["岗位"] == "船长"]
    top = max(caps, key=lambda r: int(r["累计工作年限"]))
    assert sum(r["累计工作年限"] == top["累计工作年限"] for r in caps) == 1
    c["cv-ql-05"] = ((top["姓名"], leave_ql(top), seniority_pay(top)), ("韩涛", 19, 350), "19 days")
    c["cv-ql-06"] = ((trip_pay("水手", 1, True), trip_pay("水手", 10, True), trip_pay("船长", 10, True)), (17, 136, 240), "240元")
    c["cv-bw-01"] = ((move_price("1 bedroom", 10, "2026-03-03"), move_price("1 bedroom", 10, "2026-03-08"),
                      move_price("3 bedrooms", 10, "2026-03-08")), (420, 525, Decimal("1112.50")), "£1,112.50")
    c["cv-bw-02"] = ((premium(85000), COVER["2026"]["Full value cover"][1], COVER["2026"]["Full value cover"][2]),
                     (240, "£5,000", "£50"), "£5,000")
    c["cv-bw-03"] = ((DEPOTS["Ashcombe"][1], wait_charge(130), wait_charge(55)),
                     ("Monday to Friday 8:30–17:00", 135, 0), "£135")
    first = min(STAFF_BW, key=lambda r: r["start_date"])
    c["cv-bw-04"] = ((first["name"], leave_bw(first)), ("Gareth Ollerton", 30), "30天")
    lorry = [r for r in STAFF_BW if may_drive_lorry(r)]
    ash = [r for r in lorry if r["depot"] == "Ashcombe"]
    old = min(ash, key=lambda r: r["start_date"])
    c["cv-bw-05"] = ((len(lorry), len(ash), old["name"], PAY[old["role"]][0]), (9, 4, "Dale Everitt", "£20.00"), "£20.00")
    c["cv-bw-06"] = ((deposit(Decimal(2400)), cancel_charge(Decimal(2400), 10), cancel_charge(Decimal(2400), 5)),
                     (600, 600, 1200), "£1,200")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(NOTICE, "由鹤湾码头服务台登记保管30天")],
    "fq-002": [(NOTICE, "4号线快船开航前15分钟停止检票")],
    "fq-003": [(NOTICE, "未满12周岁的儿童须由年满18周岁的旅客陪同乘船")],
    "fq-004": [(NOTICE, "公司在收到投诉后24小时内答复")],
    "fq-005": [(FARES, "1号线 鹤湾—芦屿 6 25分钟 15 8 28 可")],
    "fq-006": [(FARES, "3号线 芦屿—松门 9 35分钟 20 10 38 可")],
    "fq-007": [(FARES, "4号线（快船） 鹤湾—松门 18 40分钟 48 24 90 不可")],
    "fq-008": [(FARES, "20公斤以上至40公斤（含40公斤） 10元")],
    "fq-009": [(FARES, "月卡 360元 1号线、2号线、3号线 当月不限次数")],
    "fq-010": [(RULES, "| 调度员 | 不发放 | 120 | 20 |")],
    "fq-011": [(RULES, "船舶只能由员工名册中“驾驶资格”登记为“是”的船长或大副驾驶")],
    "fq-016": [(NOTICE, "延误超过60分钟 | 可以免费退票；继续乘船的，退还票价的50%"),
               (NOTICE, "因大风、大雾、暴雨或水位异常延误的，只能免费退票")],
    "fq-017": [(FARES, "春节和国庆期间，4号线快船票价（含往返票）一律上浮20%")],
    "fq-018": [(NOTICE, "开航前2小时至24小时 | 票价的10%"), (NOTICE, "退票费按票价计算，不足2元的按2元收取")],
    "fq-019": [(FARES, "一名成人旅客携带2名以上身高不足1.2米的儿童的，只有1名免票，其余的按儿童票购票")],
    "fq-020": [(RULES, "| 满10年不满20年 | 10天 |"), (RULES, "码头和机关员工不享受航行假")],
    "fq-021": [(FARES, "岛民卡折扣不与长者票、儿童票同时使用，按对旅客有利的一项计算"), (FARES, "长者票适用于年满65周岁的旅客")],
    "fq-026": [(V26, "小型客车（车长6米以下，含6米） 70 145 90"), (V24, "小型客车（车长6米以下，含6米） 60 120 80"),
               (V26, "《车辆随船运输规定（2024版）》同时废止")],
    "fq-027": [(V26, "每辆车最高赔偿10000元"), (V24, "每辆车最高赔偿5000元")],
    "fq-028": [(RULES, "水手和轮机人员即使持有适任证书也不得驾驶船舶，临时顶班的也不例外")],
    "fq-029": [(FARES, "月卡和次卡限本人使用，不能乘坐4号线快船")],
    "fq-030": [(V26, "航行中驾驶员和乘客不得留在车内，须到客舱就座"), (V24, "航行中驾驶员和乘客不得留在车内，须到客舱就座")],
    "fq-031": [(TERMS, "A quote is valid for 28 days from the date on it")],
    "fq-032": [(TERMS, "We survey homes of 3 bedrooms or more free of charge")],
    "fq-033": [(TERMS, "Report any loss or damage to us in writing within 7 days of the moving day")],
    "fq-034": [(PRICES, "you get up to 30 boxes free with every booked move")],
    "fq-035": [(PRICES, "2 bedrooms 16–25 m³ 3 £640 £980 £1,580")],
    "fq-036": [(PRICES, "Full packing (the day before the move) £180 £260 £360 £480")],
    "fq-037": [(PRICES, "Grand piano £420")],
    "fq-038": [(HANDBOOK, "| Porter | £16.00 | £40 | £15 |")],
    "fq-039": [(TERMS, "£600–£1,499 | 20% of the price")],
    "fq-040": [(TERMS, "7 to 14 days | Deposit kept | £75 rebooking fee")],
    "fq-041": [(HANDBOOK, "A piano is moved only by a crew with at least two members marked piano_trained Yes")],
    "fq-046": [(HANDBOOK, "| 10 years or more | 30 days |"), (HANDBOOK, "divided by 40, rounded up to the next whole day")],
    "fq-047": [(PRICES, "The over-60s discount is not given on Saturdays, Sundays or bank holidays"),
               (PRICES, "Saturday moves cost 15% more")],
    "fq-048": [(PRICES, "Upright piano £150 Ground floor to ground floor"),
               (PRICES, "A piano on any floor above the ground floor costs a further £60 for each floor")],
    "fq-049": [(TERMS, "The first 60 minutes of waiting at each address are free"),
               (TERMS, "£45 for each half hour or part of a half hour")],
    "fq-050": [(TERMS, "the cancellation charge is never more than the deposit you have paid, however late you cancel"),
               (TERMS, "Less than 7 days | 50% of the price of the move")],
    "fq-051": [(PRICES, "Only one discount is given on each move: when more than one applies, you get the largest")],
    "fq-056": [(G26, "Standard cover (included in every move) £25,000 £500 £150"),
               (G24, "Standard cover (included in every move) £25,000 £500 £100"),
               (G26, "replaces Goods in Transit Cover 2024, which is withdrawn")],
    "fq-057": [(G26, "£20,001–£50,000 £145"), (G24, "£20,001–£50,000 £120")],
    "fq-058": [(HANDBOOK, "There are no exceptions, not even to cover for a driver who is off sick")],
    "fq-059": [(HANDBOOK, "Trainees never drive a company vehicle and never lead a crew, whatever licence they hold")],
    "fq-060": [(G26, "Boxes packed by you are covered for loss only, not for breakage of what is inside, under either cover"),
               (G24, "Boxes packed by you are covered for loss only, not for breakage of what is inside, under either cover")],
    "cv-ql-01": [(FARES, "2号线 鹤湾—白沙岛 14 50分钟 32 16 60 可"), (FARES, "1号线至3号线票价不变")],
    "cv-ql-02": [(V26, "中型车（车长6米以上至9米，含9米） 140 260 170"), (V24, "中型车（车长6米以上至9米，含9米） 120 220 150"),
                 (V26, "驾驶员1人随车免票")],
    "cv-ql-03": [(FARES, "白沙岛码头 白沙岛环岛路2号 6:40–18:00"), (NOTICE, "开航前24小时以内退票的，一律收取票价的30%")],
    "cv-ql-04": [(HERE / QL / "航次记录.csv", "HC12,2026-01-07,4号线,澜翔号,09:30,停航")],
    "cv-ql-05": [(RULES, "| 满20年及以上 | 15天 |"), (RULES, "| 满5年及以上 | 4天 |"), (RULES, "| 满10年及以上 | 350 |")],
    "cv-ql-06": [(RULES, "4号线快船每航次另加5元。每人每天最多计8个航次，超出的不再发放")],
    "cv-bw-01": [(PRICES, "Sunday and bank holiday moves cost 25% more")],
    "cv-bw-02": [(G26, "£50,001–£100,000 £240"), (G24, "£50,001–£100,000 £200"),
                 (G26, "Full value cover The declared value, up to £150,000 £5,000 £50")],
    "cv-bw-03": [(PRICES, "Ashcombe 18 Mill Race Road, Ashcombe Monday to Friday 8:30–17:00"),
                 (TERMS, "£45 for each half hour or part of a half hour")],
    "cv-bw-04": [(HERE / BW / "staff.csv", "BR01,Gareth Ollerton,Operations Manager,Selbury,Permanent,40,2006-02-13"),
                 (HANDBOOK, "| 10 years or more | 30 days |")],
    "cv-bw-05": [(HANDBOOK, "Only staff whose licence in staff.csv is C1 or C may drive the 7.5-tonne lorries"),
                 (HANDBOOK, "| HGV Driver | £20.00 | £45 | £15 |")],
    "cv-bw-06": [(TERMS, "£1,500 and over | 25% of the price"), (TERMS, "Less than 7 days | 50% of the price of the move")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(QL, "宠物"), (QL, "狗"), (QL, "猫"), (QL, "动物"), (QL, "犬")],
    "fq-023": [(QL, "re:(?i)wi-?fi"), (QL, "无线"), (QL, "上网"), (QL, "网络")],
    "fq-024": [(QL, "包船"), (QL, "包租"), (QL, "租船"), (QL, "专船"), (QL, "re:(?i)charter")],
    "fq-025": [(QL, "体检"), (QL, "健康检查"), (QL, "re:(?i)medical")],
    "fq-052": [(BW, r"re:(?i)\bpets?\b"), (BW, "re:(?i)animal"), (BW, r"re:(?i)\bcats?\b"), (BW, r"re:(?i)\bdogs?\b"),
               (BW, "宠物")],
    "fq-053": [(BW, "re:(?i)abroad"), (BW, "re:(?i)overseas"), (BW, "re:(?i)international"), (BW, "re:(?i)france"),
               (BW, "re:(?i)europe"), (BW, "海外"), (BW, "国外")],
    "fq-054": [(BW, "re:(?i)storage"), (BW, r"re:(?i)\bstor(e|ed|ing)\b"), (BW, "re:(?i)warehouse"), (BW, "存放"),
               (BW, "仓")],
    "fq-055": [(BW, "re:(?i)clean"), (BW, "re:(?i)tenancy"), (BW, "保洁"), (BW, "清洁")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return QL if k.startswith("cv-ql") else BW
    return QL if int(k[3:]) <= 30 else BW


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
        # cross_language: an English question over the Chinese ferry, a Chinese question over the English movers
        zh_q = is_zh(r["question"])
        assert r["cross_language"] == (zh_q if r["org"] == BW else not zh_q), k
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
    prefix = {QL: "cv-ql", BW: "cv-bw"}
    assert [c["id"] for c in chains] == [f"{prefix[o]}-{i:02d}" for o in (QL, BW) for i in range(1, 7)]
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
            other = "en" if c["org"] == QL else "zh"
            assert (t.get("lang") == other) == (zh_t if c["org"] == BW else not zh_t), (c["id"], t["message"])
    assert sum(len(c["turns"]) for c in chains) == 34
    langs = {c["id"]: [t.get("lang") for t in c["turns"]] for c in chains}
    assert langs["cv-ql-05"] == ["en"] * 3 and langs["cv-bw-05"] == ["zh"] * 3  # one chain wholly in the other language
    mixed = [k for k, v in langs.items() if len(set(v)) > 1]
    assert mixed == ["cv-ql-04", "cv-ql-06", "cv-bw-02", "cv-bw-04"], mixed
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (QL, BW):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 8, org
        assert sum(r["split"] == "dev" for r in qs if r["org"] == org) == 15, org
    assert sum(c["split"] == "dev" for c in chains) == 6
    assert len(STAFF_QL) in range(20, 27) and len(STAFF_BW) in range(20, 27), "staff rosters of 20–26"
    assert len(SAILINGS) in range(30, 35) and len(JOBS) in range(30, 35), "second lists of 30–34"
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
