"""Check the gold answers of orgdocs_blind5 against the generated documents (CC0).

    python tests/data/orgdocs_blind5/check_answers.py

Needs python-docx and pypdf (falls back to pypdfium2 when pypdf is missing). Extracts the text of every
file (HTML with tags stripped, DOCX paragraphs and table cells, PDF text), then for every question and
chain turn checks its evidence: the passage it rests on appears in the named file, every row of the rule
tables that the recomputation uses appears in its document, computed answers are recomputed from the CSVs
and the gold value must appear among the gold answer strings, and the asked-for fact of every near miss is
absent from its collection. Exits 1 on a failure. (The checks repeat those of ../orgdocs_blind4/check_answers.py.)
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
YF, BW = "yunfan-pharmacy", "brightwell-school"


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


TEXT = {org: {p.name: extract(p) for p in sorted((HERE / org).iterdir())} for org in (YF, BW)}


def norm(s: str) -> str:
    return re.sub(r"\s+", "", s)


def has(org: str, fname: str, needle: str) -> bool:
    return norm(needle) in norm(TEXT[org][fname])


def rows(org: str, fname: str) -> list[dict]:
    return list(csv.DictReader((HERE / org / fname).open(encoding="utf-8")))


FEES, LEAVE, RET = "会员权益与服务收费标准（2026年）.html", "员工考勤与请假制度.md", "药品退换货规定.docx"
N24, N26 = "门店夜班与补贴标准（2024版）.pdf", "门店夜班与补贴标准（2026版）.pdf"
BFEES, UNI, L24, L26, TRIPS = ("Fees_2026-27.html", "Uniform_and_Clubs_Policy.md", "Staff_Leave_and_Cover_Policy_2024.docx",
                               "Staff_Leave_and_Cover_Policy_2026.docx", "Trips_and_Safeguarding.pdf")

STAFF_YF = rows(YF, "门店员工名册.csv")
STORES = rows(YF, "门店列表.csv")
STAFF_BW = rows(BW, "staff_list.csv")
CLASSES = rows(BW, "class_list.csv")

# ---- rule tables used by the recomputation; every row is checked against its document below ----------
MEMBER = {"普通会员": ("免费注册", "无折扣", "1分"), "银卡会员": ("满1000元", "9.5折", "1.2分"),
          "金卡会员": ("满3000元", "9折", "1.5分"), "钻石会员": ("满8000元", "8.8折", "2分")}
DECOCT = [("200克及以下", 0, 200, 4, 7), ("201–400克", 201, 400, 6, 9), ("400克以上", 401, 10**6, 8, 12)]
DELIVERY = [("3公里以内（含3公里）", 0, 3, 5, "订单满59元免配送费", 59), ("3–6公里（含6公里）", 3, 6, 8, "订单满99元免配送费", 99),
            ("6–10公里（含10公里）", 6, 10, 12, "不免配送费", None)]
COLD_CHAIN_FEE = 10
ANNUAL = [("不满1年", 0, 0), ("满1年不满3年", 1, 5), ("满3年不满5年", 3, 7), ("满5年不满10年", 5, 10), ("满10年及以上", 10, 15)]
LATE = [("15分钟以内（含15分钟）", "每次扣款20元"), ("超过15分钟，不超过60分钟", "每次扣款50元"), ("超过60分钟", "按旷工半天处理")]
APPROVE = [("1天及以下", "店长"), ("超过1天，不超过3天", "区域经理"), ("超过3天", "人力资源部经理")]
NIGHT = {  # 岗位 -> (夜班补贴, 夜班餐补)
    "2024": {"执业药师": (80, 15), "店长（值夜班时）": (80, 15), "营业员、中药调剂员": (50, 15), "收银员": (40, 15)},
    "2026": {"执业药师": (100, 20), "店长（值夜班时）": (100, 20), "营业员、中药调剂员": (60, 20), "收银员": (50, 20)},
}
TUITION = {  # year group label -> (Autumn, Spring, Summer, Full year)
    "Nursery (age 3–4)": (3150, 3150, 2700, 9000), "Reception": (3900, 3900, 3300, 11100),
    "Years 1–2": (4450, 4450, 3800, 12700), "Years 3–6": (4980, 4980, 4240, 14200),
    "Years 7–9": (5760, 5760, 4880, 16400), "Years 10–11": (6300, 6300, 5400, 18000),
    "Years 12–13": (6650, 6650, 5700, 19000),
}
BUS = {"Zone A": ("Kessington town, up to 5 km from school", 320, 190),
       "Zone B": ("Morrow Hill and Eastholme, 5–12 km", 450, 270),
       "Zone C": ("Fallowmere and Pike's Cross, 12–20 km", 590, 350)}
RATIO = [("Nursery and Reception", 0, 0, "1:4", "Not offered", "Not offered"), ("Years 1 to 3", 1, 3, "1:6", "1:6", "1:4"),
         ("Years 4 to 6", 4, 6, "1:8", "1:8", "1:6"), ("Years 7 to 9", 7, 9, "1:10", "1:8", "1:6"),
         ("Years 10 to 13", 10, 13, "1:12", "1:10", "1:8")]
SUPPORT_LEAVE = {
    "2024": [("Less than 2 years", 0, 25), ("2 to 4 years", 2, 27), ("5 to 9 years", 5, 28), ("10 years or more", 10, 30)],
    "2026": [("Less than 2 years", 0, 25), ("2 to 4 years", 2, 27), ("5 to 9 years", 5, 29), ("10 years or more", 10, 31)],
}
COVER = [("Full-time (1.0 FTE)", "6"), ("Part-time, 0.6 FTE or more", "3"), ("Part-time, under 0.6 FTE", "0")]


def _money(v: int) -> str:
    return f"£{v:,}"


TABLE_ROWS = (
    [(YF, FEES, f"{k} {' '.join(v)}") for k, v in MEMBER.items()]
    + [(YF, FEES, f"{name} {n} {u}") for name, _, _, n, u in DECOCT]
    + [(YF, FEES, f"{name} {fee} {free}") for name, _, _, fee, free, _ in DELIVERY]
    + [(YF, FEES, "每单另收冷链包装费10元，且该订单不参与满额免配送费")]
    + [(YF, LEAVE, f"| {name} | {d}天 |") for name, _, d in ANNUAL]
    + [(YF, LEAVE, f"| {a} | {b} |") for a, b in LATE]
    + [(YF, LEAVE, f"| {a} | {b} |") for a, b in APPROVE]
    + [(YF, N24 if v == "2024" else N26, f"{k} {a} {b}") for v, tab in NIGHT.items() for k, (a, b) in tab.items()]
    + [(BW, BFEES, f"{k} {' '.join(_money(x) for x in v)}") for k, v in TUITION.items()]
    + [(BW, BFEES, f"{k} {area} {_money(r)} {_money(o)}") for k, (area, r, o) in BUS.items()]
    + [(BW, TRIPS, f"{name} {d} {r} {w}") for name, _, _, d, r, w in RATIO]
    + [(BW, L24 if v == "2024" else L26, f"{name} | {d} days") for v, tab in SUPPORT_LEAVE.items() for name, _, d in tab]
    + [(BW, f, f"{a} | {b}") for f in (L24, L26) for a, b in COVER]
)


def completed_years(start: str, on: dt.date) -> int:
    s = dt.date.fromisoformat(start)
    return on.year - s.year - ((on.month, on.day) < (s.month, s.day))


NEW_YEAR = dt.date(2026, 1, 1)  # 司龄: whole years on 1 January
LEAVE_YEAR_BW = dt.date(2026, 9, 1)  # Brightwell support staff: completed years on 1 September (2026–27)


def annual_leave_yf(r: dict) -> int:
    if r["用工性质"] == "兼职":  # 第二条: 兼职员工不享受带薪年休假
        return 0
    y = completed_years(r["入职日期"], NEW_YEAR)
    return [d for _, lo, d in ANNUAL if y >= lo][-1]


def decoct_fee(grams: int, urgent: bool = False) -> int:
    return next((u if urgent else n) for _, lo, hi, n, u in DECOCT if lo <= grams <= hi)


def delivery_fee(km: float, order: float, cold_chain: bool) -> int:
    _, _, _, fee, _, free_from = next(b for b in DELIVERY if b[1] < km <= b[2] or (b[1] == 0 and km <= b[2]))
    if free_from is not None and order >= free_from and not cold_chain:
        fee = 0
    return fee + (COLD_CHAIN_FEE if cold_chain else 0)


def year_no(label: str) -> int:
    if label in ("Nursery", "Reception"):
        return 0
    return int(label.split()[1])


def ratio_staff(year_group: str, pupils: int, visit: str) -> int:
    y = year_no(year_group)
    _, _, _, d, r, _ = next(x for x in RATIO if x[1] <= y <= x[2])
    n = int((d if visit == "day" else r).split(":")[1])
    return max(2, math.ceil(pupils / n))  # every visit has at least two adults


def support_leave(start: str, version: str = "2026") -> int:
    y = completed_years(start, LEAVE_YEAR_BW)
    return [d for _, lo, d in SUPPORT_LEAVE[version] if y >= lo][-1]


def computed() -> dict:
    """id -> (recomputed value, gold value, string that must appear among the gold answers)."""
    c = {}
    h24 = {s["门店"] for s in STORES if s["是否24小时"] == "是"}
    c["fq-011"] = (sum(r["是否执业药师"] == "是" for r in STAFF_YF), 18, "18人")
    c["fq-012"] = (len(h24), 4, "4家")
    c["fq-013"] = (sum(r["是否执业药师"] == "是" and r["门店"] in h24 for r in STAFF_YF), 10, "10 pharmacists")
    s = min(STORES, key=lambda r: int(r["面积(㎡)"]))
    c["fq-014"] = ((s["门店"], s["面积(㎡)"]), ("高新园区店", "72"), "高新园区店")
    c["fq-015"] = (sum(int(r["面积(㎡)"]) for r in STORES if r["区"] == "城南区"), 555, "555平方米")
    zh = next(r for r in STAFF_YF if r["姓名"] == "张慧")
    c["fq-016"] = ((zh["门店"], annual_leave_yf(zh)), ("城南旗舰店", 7), "7天")
    c["fq-019"] = (round(decoct_fee(300) * 10 * 0.8, 2), 48, "48元")  # 金卡 普通代煎8折
    c["fq-020"] = (delivery_fee(2, 120, cold_chain=True), 15, "15元")
    ly = next(r for r in STAFF_YF if r["姓名"] == "刘洋")
    c["fq-021"] = ((ly["用工性质"], annual_leave_yf(ly)), ("兼职", 0), "不享受")
    c["fq-026"] = (NIGHT["2026"]["执业药师"][0], 100, "100元")
    c["fq-027"] = (NIGHT["2026"]["执业药师"][1], 20, "20元")
    c["fq-041"] = (sum(r["first_aider"] == "Yes" for r in STAFF_BW), 14, "14 staff")
    c["fq-042"] = (sum(int(r["pupils"]) for r in CLASSES if 7 <= year_no(r["year_group"]) <= 9
                       and r["year_group"].startswith("Year ")), 122, "122")
    big = max(CLASSES, key=lambda r: int(r["pupils"]))
    assert sum(int(r["pupils"]) == int(big["pupils"]) for r in CLASSES) == 1
    c["fq-043"] = ((big["class"], big["pupils"]), ("9A", "26"), "9A")
    c["fq-044"] = (sum(r["minibus_driver"] == "Yes" for r in STAFF_BW), 8, "8人")
    b8 = next(r for r in CLASSES if r["class"] == "8B")
    c["fq-045"] = (ratio_staff(b8["year_group"], int(b8["pupils"]), "day"), 3, "3 staff")
    c["fq-046"] = (min(STAFF_BW, key=lambda r: r["start_date"])["name"], "Karen Holt", "Karen Holt")
    a12 = next(r for r in CLASSES if r["class"] == "12A")
    c["fq-047"] = (ratio_staff(a12["year_group"], int(a12["pupils"]), "day"), 2, "2 staff")
    c["fq-048"] = (2 * BUS["Zone B"][1], 900, "£900")  # third child free, no reduction for the second
    c["fq-049"] = (round(TUITION["Years 3–6"][0] * 0.95), 4731, "£4,731")
    # chains
    c["cv-yf-02"] = ((NIGHT["2026"]["执业药师"][0], NIGHT["2026"]["收银员"][0], 2 * NIGHT["2026"]["收银员"][0]),
                     (100, 50, 100), "100元")
    c["cv-yf-04"] = ((decoct_fee(250), decoct_fee(250, urgent=True)), (6, 9), "9元")
    big = max(STORES, key=lambda r: int(r["面积(㎡)"]))
    c["cv-yf-05"] = ((big["门店"], big["是否24小时"],
                      sum(r["门店"] == big["门店"] and r["是否执业药师"] == "是" for r in STAFF_YF)),
                     ("城南旗舰店", "是", 3), "城南旗舰店")
    hj = next(r for r in STAFF_YF if r["门店"] == "西山店" and r["岗位"] == "店长")
    c["cv-yf-06"] = ((hj["姓名"], hj["入职日期"][:4], annual_leave_yf(hj)), ("何静", "2021", 7), "7天")
    b5 = next(r for r in CLASSES if r["class"] == "5B")
    c["cv-bw-03"] = ((b5["pupils"], ratio_staff(b5["year_group"], int(b5["pupils"]), "residential")), ("21", 3), "3位")
    ec = next(r for r in STAFF_BW if r["name"] == "Emma Castle")
    assert ec["category"] == "Support" and ec["fte"] == "1.0"
    c["cv-bw-04"] = ((support_leave(ec["start_date"]), int(COVER[0][1])), (27, 6), "27 days")
    t10 = next(r for r in CLASSES if r["class"] == "10B")
    im = next(r for r in STAFF_BW if r["name"] == t10["form_tutor"])
    c["cv-bw-06"] = ((t10["form_tutor"], im["minibus_driver"], t10["pupils"]), ("Ian McLeod", "Yes", "17"), "Ian McLeod")
    return c


# evidence: id -> list of (file, passage that must appear in it)
EVIDENCE = {
    "fq-001": [(LEAVE, "事假为无薪假，每次不超过3天，每年累计不超过10天")],
    "fq-002": [(FEES, "每100积分可抵扣现金1元")],
    "fq-003": [(RET, "单笔退款金额在500元以内（含500元）的，由店长审批；超过500元的，须报区域经理审批")],
    "fq-004": [(N24, "夜班时间为22:00至次日8:00"), (N26, "夜班时间为22:00至次日8:00")],
    "fq-005": [(FEES, "金卡会员 满3000元 9折"), (FEES, "会员折扣只适用于非处方药、保健食品和医疗器械")],
    "fq-006": [(LEAVE, "| 满3年不满5年 | 7天 |")],
    "fq-007": [(FEES, "201–400克 6 9")],
    "fq-008": [(FEES, "3–6公里（含6公里） 8 订单满99元免配送费")],
    "fq-009": [(LEAVE, "| 超过15分钟，不超过60分钟 | 每次扣款50元 |")],
    "fq-010": [(RET, "医疗器械（血压计、血糖仪、制氧机等） | 7天内可换货，不退款")],
    "fq-016": [(LEAVE, "以每年1月1日已满的整年数确定当年的年休假天数")],
    "fq-017": [(LEAVE, "每月第一次15分钟以内的迟到不扣款")],
    "fq-018": [(RET, "冷链药品一经离开门店，无论是否拆封，均不予退换"),
               (RET, "冷链药品（胰岛素、生物制品等） | 不退换 | 只限离柜前当场验货时提出")],
    "fq-019": [(FEES, "金卡会员和钻石会员的普通代煎费按8折收取，急煎费不打折")],
    "fq-020": [(FEES, "3公里以内（含3公里） 5 订单满59元免配送费")],
    "fq-021": [(LEAVE, "不享受带薪年休假")],
    "fq-026": [(N26, "执业药师 100 20"), (N24, "执业药师 80 15"), (N26, "《门店夜班与补贴标准（2024版）》同时废止")],
    "fq-027": [(N26, "收银员 50 20"), (N24, "收银员 40 15")],
    "fq-028": [(FEES, "处方药、中药饮片、特价商品以及医保个人账户或统筹基金支付的部分不打折")],
    "fq-029": [(RET, "处方药 | 不退换 | 30天内可退换 | 须经门店执业药师确认")],
    "fq-030": [(FEES, "代煎服务只在城南旗舰店、城北店和东湖医院店的煎药室提供")],
    "fq-031": [(BFEES, "The late bus leaves at 17:15 after clubs")],
    "fq-032": [(BFEES, "parents must give one full term's notice in writing to the Principal")],
    "fq-033": [(BFEES, "Termly invoices are due 14 days before the first day of term")],
    "fq-034": [(UNI, "A club runs only if at least 6 pupils sign up")],
    "fq-035": [(BFEES, "Years 7–9 £5,760 £5,760 £4,880 £16,400")],
    "fq-036": [(BFEES, "Zone B Morrow Hill and Eastholme, 5–12 km £450 £270")],
    "fq-037": [(TRIPS, "Years 7 to 9 1:10 1:8 1:6")],
    "fq-038": [(UNI, "| Robotics | Monday | Years 5 to 8 | £85 | Lab S3 |")],
    "fq-039": [(UNI, "House tie (Years 7 to 9)")],
    "fq-040": [(BFEES, "EAL support (English as an additional language) £650 per term Years 1–11")],
    "fq-045": [(TRIPS, "Years 7 to 9 1:10")],
    "fq-047": [(TRIPS, "Every visit has at least two adults, whatever the size of the group")],
    "fq-048": [(BFEES, "A family's third and any further child on the bus travel free; there is no reduction for the second child")],
    "fq-049": [(BFEES, "the second child of a family at the school receives 5% off tuition"),
               (BFEES, "Years 3–6 £4,980")],
    "fq-050": [(UNI, "From 1 May to the end of the Summer term, blazers and ties are optional for Years 7 to 11")],
    "fq-051": [(TRIPS, "Parent volunteers with an enhanced DBS check may count towards the ratio on day visits only, "
                       "never on residential visits or visits abroad")],
    "fq-056": [(L26, "Death of a close family member (compassionate leave) | 5 days, paid"),
               (L24, "Death of a close family member (compassionate leave) | 3 days, paid"),
               (L26, "replaces the Staff Leave and Cover Policy (2024)")],
    "fq-057": [(L26, "paid at £25 per lesson"), (L24, "paid at £22 per lesson")],
    "fq-058": [(UNI, "Smart watches and fitness trackers are not allowed in school")],
    "fq-059": [(BFEES, "Fallowmere and Pike's Cross"), (BFEES, "runs to Zones A and B only")],
    "fq-060": [(UNI, "Pupils in Year 7 and above may walk home or take the late bus after clubs if their parents have "
                     "given written permission")],
    "cv-yf-01": [(LEAVE, "| 超过1天，不超过3天 | 区域经理 |"), (LEAVE, "| 超过3天 | 人力资源部经理 |")],
    "cv-yf-02": [(N26, "在法定节假日当天值夜班的，夜班补贴按上表标准的2倍发放")],
    "cv-yf-03": [(FEES, "金卡会员 满3000元 9折"), (RET, "当场发现质量问题的可以退换")],
    "cv-yf-04": [(FEES, "201–400克 6 9")],
    "cv-yf-06": [(LEAVE, "| 满3年不满5年 | 7天 |")],
    "cv-bw-01": [(BFEES, "Years 3–6 £4,980"), (BFEES, "Years 7–9 £5,760")],
    "cv-bw-02": [(BFEES, "Zone B Morrow Hill and Eastholme, 5–12 km £450 £270"),
                 (BFEES, "runs to Zones A and B only; it costs £4 per journey"),
                 (UNI, "Pupils in Year 7 and above may walk home or take the late bus after clubs")],
    "cv-bw-03": [(TRIPS, "Years 4 to 6 1:8 1:8 1:6")],
    "cv-bw-04": [(L26, "2 to 4 years | 27 days"), (L26, "Full-time (1.0 FTE) | 6"), (L26, "paid at £25 per lesson")],
    "cv-bw-05": [(UNI, "| Robotics | Monday | Years 5 to 8 | £85 | Lab S3 |")],
    "cv-bw-06": [(TRIPS, "Only staff listed as minibus drivers in the staff list may drive the school minibus")],
}

# near misses: strings (or regexes, prefixed "re:") whose presence anywhere in the collection would answer it
ABSENT = {
    "fq-022": [(YF, "生日"), (YF, "寿")],
    "fq-023": [(YF, "膏方"), (YF, "膏")],
    "fq-024": [(YF, "年终奖"), (YF, "奖金"), (YF, "绩效"), (YF, "年终")],
    "fq-025": [(YF, "交通"), (YF, "打车"), (YF, "车费"), (YF, "报销")],
    "fq-052": [(BW, r"re:(?i)\bboard(ing|er|ers)\b"), (BW, "re:(?i)accommodation")],
    "fq-053": [(BW, "re:(?i)zone d"), (BW, "re:(?i)hollins")],
    "fq-054": [(BW, "re:(?i)ballet"), (BW, "re:(?i)danc")],
    "fq-055": [(BW, "re:(?i)paternity"), (BW, "re:(?i)maternity"), (BW, "re:(?i)parental"), (BW, "re:(?i)adoption")],
}


def org_of(k: str) -> str:
    if k.startswith("cv-"):
        return YF if k.startswith("cv-yf") else BW
    return YF if int(k[3:]) <= 30 else BW


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
    assert [c["id"] for c in chains] == [f"cv-yf-{i:02d}" for i in range(1, 7)] + [f"cv-bw-{i:02d}" for i in range(1, 7)]
    for c in chains:
        assert c["org"] == org_of(c["id"]), c["id"]
        assert c["id"] in comp or EVIDENCE.get(c["id"]), f"no evidence for {c['id']}"
        assert c["split"] == ("dev" if int(c["id"][-2:]) % 2 else "held"), c["id"]
        assert 2 <= len(c["turns"]) <= 3
        for t in c["turns"]:
            assert t["answers"], c["id"]
            for m in t.get("must_not", []):
                assert not any(m in a for a in t["answers"]), (c["id"], m)
    # counts the README states
    kinds = {}
    for r in qs:
        kinds.setdefault((r["org"], r["kind"]), 0)
        kinds[(r["org"], r["kind"])] += 1
    want = {"fact": 4, "table_lookup": 6, "computed": 6, "condition": 5, "near_miss": 4, "newer_version": 2, "yes_no": 3}
    for org in (YF, BW):
        for kind, n in want.items():
            assert kinds.get((org, kind)) == n, (org, kind, kinds.get((org, kind)))
        assert sum(r["cross_language"] for r in qs if r["org"] == org) == 3, org
    print("failures:", fails)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
