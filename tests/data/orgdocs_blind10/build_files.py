"""Build the tenth blind report set of organisational documents (tests/data/orgdocs_blind10/, CC0).

    python tests/data/orgdocs_blind10/build_files.py

Writes every file of the two fictional organisations (qinglan-ferry, brackwater-removals) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind9/build_files.py (only AUTHOR differs).

Requires python-docx and fpdf2 (e.g. in a separate virtualenv: pip install python-docx fpdf2).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import os
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIXED = dt.datetime(2026, 1, 10, 9, 0, 0, tzinfo=dt.UTC)
FONT = os.environ.get("ORGDOCS_CJK_FONT", "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
AUTHOR = "orgdocs_blind10"


# ----------------------------------------------------------------------------------------------
# writers
# ----------------------------------------------------------------------------------------------

def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.lstrip("\n"), encoding="utf-8", newline="\n")


def write_csv(path: Path, header: list[str], rows: list[list]) -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    write_text(path, buf.getvalue())


def _normalise_zip(data: bytes) -> bytes:
    """Rewrite a zip with fixed timestamps so that the DOCX is byte-for-byte reproducible."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            zi = zipfile.ZipInfo(info.filename, date_time=(2026, 1, 10, 9, 0, 0))
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o644 << 16
            dst.writestr(zi, src.read(info.filename))
    return out.getvalue()


def write_docx(path: Path, title: str, blocks: list) -> None:
    """blocks: ("h", text) heading, ("p", text) paragraph, ("t", [header], [[row], ...]) table."""
    from docx import Document
    from docx.shared import Pt

    doc = Document()
    cp = doc.core_properties
    cp.author = AUTHOR
    cp.last_modified_by = AUTHOR
    cp.title = title
    cp.revision = 1
    naive = FIXED.replace(tzinfo=None)
    cp.created = naive
    cp.modified = naive
    cp.last_printed = naive
    doc.add_heading(title, level=0)
    for b in blocks:
        if b[0] == "h":
            doc.add_heading(b[1], level=1)
        elif b[0] == "p":
            doc.add_paragraph(b[1])
        elif b[0] == "t":
            header, rows = b[1], b[2]
            table = doc.add_table(rows=1 + len(rows), cols=len(header))
            table.style = "Table Grid"
            for j, h in enumerate(header):
                cell = table.rows[0].cells[j]
                cell.text = h
                for run in cell.paragraphs[0].runs:
                    run.bold = True
            for i, row in enumerate(rows, start=1):
                for j, v in enumerate(row):
                    table.rows[i].cells[j].text = str(v)
            doc.add_paragraph("")
        else:
            raise ValueError(b[0])
    doc.styles["Normal"].font.size = Pt(11)
    buf = io.BytesIO()
    doc.save(buf)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(_normalise_zip(buf.getvalue()))


def write_pdf(path: Path, title: str, blocks: list) -> None:
    """blocks: ("h", text) heading, ("p", text) paragraph, ("t", [header], [[row], ...]) table."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED)
    pdf.set_title(title)
    pdf.set_author(AUTHOR)
    pdf.set_creator(f"{AUTHOR} build_files.py")
    pdf.set_producer("fpdf2")
    pdf.add_font("wqy", "", FONT, collection_font_number=0)
    pdf.set_margins(20, 20, 20)
    pdf.add_page()
    pdf.set_font("wqy", size=16)
    pdf.multi_cell(0, 10, title, align="C", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    for b in blocks:
        kind = b[0]
        if kind == "h":
            pdf.set_font("wqy", size=13)
            pdf.ln(2)
            pdf.multi_cell(0, 8, b[1], new_x="LMARGIN", new_y="NEXT")
        elif kind == "p":
            pdf.set_font("wqy", size=11)
            pdf.multi_cell(0, 7, b[1], new_x="LMARGIN", new_y="NEXT")
        elif kind == "t":
            pdf.set_font("wqy", size=10)
            pdf.ln(1)
            with pdf.table(first_row_as_headings=False, line_height=7, text_align="LEFT") as table:
                for row in [b[1], *b[2]]:
                    r = table.row()
                    for v in row:
                        r.cell(str(v))
            pdf.ln(2)
        else:
            raise ValueError(kind)
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))







# ----------------------------------------------------------------------------------------------
# 岚州青澜湖轮渡有限公司 (qinglan-ferry), 岚州市
# ----------------------------------------------------------------------------------------------

QL = HERE / "qinglan-ferry"

QL_FARES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>青澜轮渡 船票价目表（2026年）</title>
</head>
<body>
<h1>青澜轮渡 船票价目表（2026年）</h1>
<p>发布：客运营销部　发布日期：2025年12月18日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本价目表适用于岚州青澜湖轮渡有限公司经营的1号线至4号线。金额单位为人民币元。</p>

<h2>一、航线与票价</h2>
<table border="1">
<thead>
<tr><th>航线</th><th>起讫码头</th><th>航程（公里）</th><th>航行时间</th><th>成人单程（元）</th><th>儿童、长者单程（元）</th><th>成人往返（元）</th><th>随船载车</th></tr>
</thead>
<tbody>
<tr><td>1号线</td><td>鹤湾—芦屿</td><td>6</td><td>25分钟</td><td>15</td><td>8</td><td>28</td><td>可</td></tr>
<tr><td>2号线</td><td>鹤湾—白沙岛</td><td>14</td><td>50分钟</td><td>32</td><td>16</td><td>60</td><td>可</td></tr>
<tr><td>3号线</td><td>芦屿—松门</td><td>9</td><td>35分钟</td><td>20</td><td>10</td><td>38</td><td>可</td></tr>
<tr><td>4号线（快船）</td><td>鹤湾—松门</td><td>18</td><td>40分钟</td><td>48</td><td>24</td><td>90</td><td>不可</td></tr>
</tbody>
</table>
<p>往返票限购票当日往返有效，只设成人往返票。长者票适用于年满65周岁的旅客。年满70周岁的岚州市户籍老人凭身份证免费乘坐1号线至3号线；春节（除夕至正月初六）和国庆（10月1日至7日）期间除外，须购买长者票。</p>
<p>春节和国庆期间，4号线快船票价（含往返票）一律上浮20%；1号线至3号线票价不变。</p>

<h2>二、儿童购票</h2>
<table border="1">
<thead>
<tr><th>儿童身高</th><th>购票</th></tr>
</thead>
<tbody>
<tr><td>不足1.2米</td><td>免票（每名成人旅客限带1名）</td></tr>
<tr><td>1.2米至1.5米（含1.2米和1.5米）</td><td>儿童票</td></tr>
<tr><td>超过1.5米</td><td>成人票</td></tr>
</tbody>
</table>
<p>一名成人旅客携带2名以上身高不足1.2米的儿童的，只有1名免票，其余的按儿童票购票。</p>

<h2>三、乘船卡</h2>
<table border="1">
<thead>
<tr><th>卡种</th><th>价格</th><th>适用航线</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>次卡（20次）</td><td>240元</td><td>1号线、3号线</td><td>自售出之日起6个月内有效</td></tr>
<tr><td>月卡</td><td>360元</td><td>1号线、2号线、3号线</td><td>当月不限次数</td></tr>
<tr><td>岛民卡</td><td>免费办理</td><td>1号线、2号线、3号线</td><td>芦屿、白沙岛户籍居民购买单程票5折</td></tr>
</tbody>
</table>
<p>月卡和次卡限本人使用，不能乘坐4号线快船。岛民卡折扣不与长者票、儿童票同时使用，按对旅客有利的一项计算。乘船卡不适用于车辆随船运输费。</p>

<h2>四、随身行李</h2>
<table border="1">
<thead>
<tr><th>每人随身行李重量</th><th>收费</th></tr>
</thead>
<tbody>
<tr><td>20公斤以内（含20公斤）</td><td>免费</td></tr>
<tr><td>20公斤以上至40公斤（含40公斤）</td><td>10元</td></tr>
<tr><td>40公斤以上至60公斤（含60公斤）</td><td>25元</td></tr>
<tr><td>60公斤以上</td><td>不作为随身行李，须办理货物托运</td></tr>
</tbody>
</table>
<p>4号线快船每名旅客只限携带1件随身行李，重量不超过20公斤。非电动自行车每辆收费10元，4号线快船不载；电动自行车和摩托车按《车辆随船运输规定》收费。</p>

<h2>五、班次</h2>
<table border="1">
<thead>
<tr><th>航线</th><th>首班</th><th>末班</th><th>班次间隔</th></tr>
</thead>
<tbody>
<tr><td>1号线</td><td>6:30</td><td>21:00</td><td>每30分钟一班</td></tr>
<tr><td>2号线</td><td>7:00</td><td>17:30</td><td>每90分钟一班</td></tr>
<tr><td>3号线</td><td>7:00</td><td>19:00</td><td>每60分钟一班</td></tr>
<tr><td>4号线（快船）</td><td>7:30</td><td>17:30</td><td>每120分钟一班</td></tr>
</tbody>
</table>
<p>首班、末班时间为两端码头同时开出的时间。遇大风、大雾或水位异常，公司可以临时停航，停航信息在各码头和客服热线公布。</p>

<h2>六、码头与售票时间</h2>
<table border="1">
<thead>
<tr><th>码头</th><th>地址</th><th>售票时间</th><th>电话</th></tr>
</thead>
<tbody>
<tr><td>鹤湾码头</td><td>岚州市鹤湾区湖滨路1号</td><td>6:00–21:30</td><td>5820 3301</td></tr>
<tr><td>芦屿码头</td><td>芦屿镇渡口街8号</td><td>6:10–21:00</td><td>5820 3302</td></tr>
<tr><td>白沙岛码头</td><td>白沙岛环岛路2号</td><td>6:40–18:00</td><td>5820 3303</td></tr>
<tr><td>松门码头</td><td>松门镇港前路15号</td><td>6:30–19:30</td><td>5820 3304</td></tr>
</tbody>
</table>

<footer>岚州青澜湖轮渡有限公司 客运营销部　岚州市鹤湾区湖滨路1号　客服热线：5820 3300</footer>
</body>
</html>
"""

QL_STAFF_MD = """
# 岚州青澜湖轮渡有限公司 员工值班与津贴办法

文件编号：青澜人〔2025〕8号　施行日期：2025年10月1日　发布：人力资源部

## 一、总则

第一条　本办法适用于公司所属青澜1号、青澜2号、青澜3号、澜翔号四艘船舶，鹤湾码头、芦屿码头、白沙岛码头、松门码头和公司机关的全体员工。

第二条　船舶和码头实行轮班制，排班表由各船船长和各码头负责人于每周五前公布。

## 二、班次与岗位要求

第三条　班次时间如下：

| 班次 | 时间 | 适用范围 |
|---|---|---|
| 早班 | 5:50–13:50 | 各船舶、各码头 |
| 中班 | 13:20–21:50 | 各船舶、各码头 |
| 机关班 | 8:30–17:30（中午休息1小时） | 公司机关 |
| 夜间值守 | 21:30至次日6:00 | 仅鹤湾码头 |

第四条　每航次开航前，船上至少须有驾驶人员1名、轮机人员1名和水手1名在岗；4号线快船须有水手2名。

第五条　船舶只能由员工名册中“驾驶资格”登记为“是”的船长或大副驾驶。水手和轮机人员即使持有适任证书也不得驾驶船舶，临时顶班的也不例外。

第六条　夜间值守只安排员工名册中“夜间值守”登记为“是”的人员，每人每月不超过8次，连续不超过2次。实习人员和劳务派遣人员不安排夜间值守。

## 三、津贴

第七条　津贴标准如下：

| 岗位 | 航行津贴（元/航次） | 夜间值守补贴（元/次） | 餐补（元/天） |
|---|---|---|---|
| 船长 | 25 | 150 | 25 |
| 大副 | 20 | 130 | 25 |
| 轮机长 | 20 | 130 | 25 |
| 轮机员 | 15 | 110 | 20 |
| 水手 | 12 | 100 | 20 |
| 售票员 | 不发放 | 90 | 20 |
| 安检员 | 不发放 | 90 | 20 |
| 调度员 | 不发放 | 120 | 20 |
| 行政人员 | 不发放 | 不发放 | 20 |

第八条　航行津贴按实际开出的航次发放，单程算1个航次。4号线快船每航次另加5元。每人每天最多计8个航次，超出的不再发放。因停航未开出的航次不发放航行津贴。餐补按当天出勤满6小时发放。实习人员只发餐补，不发其他津贴。

第九条　春节（除夕至正月初六）当班的，每天另发春节补助200元；其他法定节假日当班的，每天另发节日补助80元。两项补助不同时发放。

第十条　全年未发生责任事故的船舶，每名船员年终发放安全奖1500元。

## 四、工龄津贴

第十一条　全职员工按在本公司的工作年限（司龄）每月发放工龄津贴：

| 司龄 | 工龄津贴（元/月） |
|---|---|
| 不满3年 | 0 |
| 满3年不满6年 | 100 |
| 满6年不满10年 | 200 |
| 满10年及以上 | 350 |

兼职人员、实习人员和劳务派遣人员不发工龄津贴。

## 五、年休假与航行假

第十二条　员工年休假按累计工作年限确定：

| 累计工作年限 | 年休假 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满10年 | 5天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |

第十三条　船员（船长、大副、轮机长、轮机员、水手）在年休假之外另享受航行假：

| 司龄 | 航行假 |
|---|---|
| 不满5年 | 2天 |
| 满5年及以上 | 4天 |

码头和机关员工不享受航行假。

第十四条　累计工作年限以员工名册登记的为准（名册登记的是截至当年1月1日已满的整年数）；司龄按员工名册中的入职日期计算，也以截至当年1月1日已满的整年数为准。实习人员、兼职人员和劳务派遣人员不适用第十二条和第十三条。

第十五条　年休假须提前7天申请。春节、五一和国庆假期及其前后各2天不安排年休假。

## 六、员工乘船

第十六条　员工本人凭工作证免费乘坐1号线至3号线；乘坐4号线快船按5折购票。员工家属不享受本条待遇。

## 七、附则

第十七条　本办法由人力资源部负责解释，自2025年10月1日起施行。人力资源部电话：5820 3306。
"""

QL_NOTICE = [
    ("p", "文件编号：青澜客〔2025〕6号　施行日期：2025年11月15日　发布：客运营销部"),
    ("h", "一、购票与检票"),
    ("p", "船票实行实名制，旅客购票和登船时须出示本人有效身份证件。1号线至3号线开航前10分钟停止检票；4号线快船开航前15分钟停止检票。未满12周岁的儿童须由年满18周岁的旅客陪同乘船。"),
    ("h", "二、退票"),
    ("t", ["退票时间", "退票费"], [
        ["开航前24小时以上", "免费"],
        ["开航前2小时至24小时", "票价的10%"],
        ["开航前不足2小时", "票价的30%"],
        ["开航以后", "不予退票"],
    ]),
    ("p", "退票费按票价计算，不足2元的按2元收取。春节（除夕至正月初六）和国庆（10月1日至7日）期间的船票，开航前24小时以内退票的，一律收取票价的30%，不足2元的按2元收取。往返票的去程使用后，返程部分不予退票。"),
    ("h", "三、改签"),
    ("p", "开航前可以免费改签一次，改签只限同一航线；第二次改签按退票处理后重新购票。"),
    ("h", "四、停航与延误"),
    ("t", ["情形", "处理"], [
        ["因大风、大雾、暴雨或水位异常停航", "全额退票，或免费改签"],
        ["延误30分钟以上至60分钟（含60分钟）", "可以免费退票"],
        ["延误超过60分钟", "可以免费退票；继续乘船的，退还票价的50%"],
    ]),
    ("p", "延误时间按实际开航时间与计划开航时间之差计算。因大风、大雾、暴雨或水位异常延误的，只能免费退票，不退还票价的50%。"),
    ("h", "五、禁止携带的物品"),
    ("p", "汽油、柴油、煤气罐、烟花爆竹、油漆等易燃易爆物品和管制刀具一律不得携带上船。单块容量超过160瓦时的锂电池不得携带。"),
    ("h", "六、失物招领"),
    ("p", "旅客遗失在船上或码头的物品，由鹤湾码头服务台登记保管30天；30天后无人认领的，按有关规定处理。"),
    ("h", "七、投诉"),
    ("p", "旅客可以在各码头服务台或拨打客服热线5820 3300投诉。公司在收到投诉后24小时内答复。"),
]


def _vehicle_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：青澜客〔2024〕2号　版本：2024版　施行日期：2024年3月1日　发布：客运营销部"
        fees = [["电动自行车、摩托车", "10", "20", "12"],
                ["小型客车（车长6米以下，含6米）", "60", "120", "80"],
                ["中型车（车长6米以上至9米，含9米）", "120", "220", "150"],
                ["大型车（车长9米以上至12米，含12米）", "200", "360", "250"]]
        booking = "大型车须在开航前24小时预约；其他车辆可以在码头直接购票，先到先上。"
        cap = "每辆车最高赔偿5000元"
        closing = "本规定由客运营销部负责解释，自2024年3月1日起施行。"
    else:
        head = "文件编号：青澜客〔2026〕1号　版本：2026版　施行日期：2026年1月1日　发布：客运营销部"
        fees = [["电动自行车、摩托车", "12", "25", "15"],
                ["小型客车（车长6米以下，含6米）", "70", "145", "90"],
                ["中型车（车长6米以上至9米，含9米）", "140", "260", "170"],
                ["大型车（车长9米以上至12米，含12米）", "240", "420", "300"]]
        booking = "中型车和大型车须在开航前24小时预约；小型客车、电动自行车和摩托车可以在码头直接购票，先到先上。"
        cap = "每辆车最高赔偿10000元"
        closing = ("本规定由客运营销部负责解释，自2026年1月1日起施行，"
                   "《车辆随船运输规定（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本规定适用于1号线、2号线和3号线的车辆随船运输。4号线快船不载运车辆。"),
        ("h", "第二条　车辆随船运输费"),
        ("p", "车辆随船运输费按单程收取（金额单位：元/辆）："),
        ("t", ["车辆类型", "1号线", "2号线", "3号线"], fees),
        ("p", "往返的，去程和返程各收一次。驾驶员1人随车免票，其他随车人员按所乘航线购买船票。车辆随船运输费不参加岛民卡、月卡、次卡和其他任何优惠。"),
        ("h", "第三条　预约"),
        ("p", booking + "春节和国庆期间，所有车辆均须提前预约。"),
        ("h", "第四条　不予承运的车辆"),
        ("p", "车长超过12米或总重超过30吨的车辆，以及装载危险化学品、烟花爆竹的车辆，不予承运。"),
        ("h", "第五条　装载与航行安全"),
        ("p", "车辆上船后须熄火、拉紧手刹，听从水手指挥停放。航行中驾驶员和乘客不得留在车内，须到客舱就座。电动自行车须推行上下船，不得在船上充电。"),
        ("h", "第六条　车辆损坏赔偿"),
        ("p", "因本公司原因造成车辆损坏的，按实际维修费用赔偿，" + cap + "。因驾驶员未按要求停放或未拉紧手刹造成的损坏，本公司不予赔偿。"),
        ("h", "第七条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 部门, 岗位, 入职日期, 累计工作年限, 适任证书, 驾驶资格, 夜间值守, 用工形式
QL_STAFF = [
    ["QL01", "周海生", "青澜1号", "船长", "2009-04-20", 24, "有", "是", "否", "全职"],
    ["QL02", "吴立新", "青澜1号", "大副", "2016-03-14", 12, "有", "是", "否", "全职"],
    ["QL03", "郑国强", "青澜1号", "轮机长", "2011-07-01", 21, "有", "否", "否", "全职"],
    ["QL04", "冯晓峰", "青澜1号", "水手", "2021-05-10", 5, "有", "否", "是", "全职"],
    ["QL05", "陈宇", "青澜1号", "水手", "2025-06-16", 0, "无", "否", "否", "实习"],
    ["QL06", "褚建华", "青澜2号", "船长", "2013-09-02", 19, "有", "是", "否", "全职"],
    ["QL07", "卫志刚", "青澜2号", "大副", "2019-11-18", 8, "有", "是", "否", "全职"],
    ["QL08", "蒋明", "青澜2号", "轮机员", "2022-02-21", 6, "有", "否", "是", "全职"],
    ["QL09", "沈小龙", "青澜2号", "水手", "2017-08-07", 9, "有", "否", "是", "全职"],
    ["QL10", "韩涛", "青澜3号", "船长", "2007-05-28", 27, "有", "是", "否", "全职"],
    ["QL11", "杨帆", "青澜3号", "大副", "2023-04-03", 3, "有", "是", "否", "全职"],
    ["QL12", "朱振宇", "青澜3号", "轮机员", "2014-10-13", 14, "有", "否", "是", "全职"],
    ["QL13", "秦海燕", "青澜3号", "水手", "2024-09-09", 2, "有", "否", "否", "劳务派遣"],
    ["QL14", "尤俊杰", "澜翔号", "船长", "2012-01-16", 18, "有", "是", "否", "全职"],
    ["QL15", "许文斌", "澜翔号", "大副", "2020-06-29", 7, "有", "是", "否", "全职"],
    ["QL16", "何建军", "澜翔号", "轮机长", "2015-12-07", 17, "有", "否", "否", "全职"],
    ["QL17", "吕鹏", "澜翔号", "水手", "2018-03-26", 10, "有", "否", "是", "全职"],
    ["QL18", "施晓东", "澜翔号", "水手", "2022-08-15", 4, "无", "否", "否", "兼职"],
    ["QL19", "张丽", "鹤湾码头", "售票员", "2010-09-06", 20, "无", "否", "否", "全职"],
    ["QL20", "孔玉梅", "鹤湾码头", "售票员", "2021-03-01", 7, "无", "否", "否", "兼职"],
    ["QL21", "曹永", "鹤湾码头", "安检员", "2019-05-20", 11, "无", "否", "是", "全职"],
    ["QL22", "严冬梅", "鹤湾码头", "调度员", "2008-10-27", 22, "有", "否", "是", "全职"],
    ["QL23", "华志明", "芦屿码头", "售票员", "2023-07-17", 3, "无", "否", "否", "全职"],
    ["QL24", "金晓", "芦屿码头", "安检员", "2024-12-02", 1, "无", "否", "是", "全职"],
    ["QL25", "魏红", "公司机关", "行政人员", "2014-04-08", 16, "无", "否", "否", "全职"],
]

# 航次号, 日期, 航线, 船舶, 计划开航, 状态, 延误(分钟), 延误原因, 乘客人数, 随船车辆(辆)
QL_SAILINGS = [
    ["HC01", "2026-01-05", "1号线", "青澜1号", "07:00", "准点", 0, "", 86, 12],
    ["HC02", "2026-01-05", "2号线", "青澜2号", "08:30", "准点", 0, "", 142, 18],
    ["HC03", "2026-01-05", "3号线", "青澜3号", "09:00", "延误", 35, "客流", 64, 9],
    ["HC04", "2026-01-05", "4号线", "澜翔号", "09:30", "准点", 0, "", 118, 0],
    ["HC05", "2026-01-06", "1号线", "青澜1号", "07:30", "准点", 0, "", 92, 10],
    ["HC06", "2026-01-06", "2号线", "青澜2号", "10:00", "延误", 75, "机械故障", 96, 11],
    ["HC07", "2026-01-06", "3号线", "青澜3号", "12:00", "准点", 0, "", 51, 7],
    ["HC08", "2026-01-06", "4号线", "澜翔号", "11:30", "延误", 20, "客流", 131, 0],
    ["HC09", "2026-01-07", "1号线", "青澜1号", "08:00", "停航", "", "大风", 0, 0],
    ["HC10", "2026-01-07", "2号线", "青澜2号", "08:30", "停航", "", "大风", 0, 0],
    ["HC11", "2026-01-07", "3号线", "青澜3号", "08:00", "停航", "", "大风", 0, 0],
    ["HC12", "2026-01-07", "4号线", "澜翔号", "09:30", "停航", "", "大风", 0, 0],
    ["HC13", "2026-01-07", "1号线", "青澜1号", "15:00", "延误", 90, "大风", 104, 14],
    ["HC14", "2026-01-08", "2号线", "青澜2号", "13:00", "准点", 0, "", 158, 21],
    ["HC15", "2026-01-08", "1号线", "青澜1号", "17:30", "准点", 0, "", 121, 15],
    ["HC16", "2026-01-08", "3号线", "青澜3号", "14:00", "延误", 45, "机械故障", 58, 6],
    ["HC17", "2026-01-08", "4号线", "澜翔号", "13:30", "准点", 0, "", 142, 0],
    ["HC18", "2026-01-09", "1号线", "青澜1号", "07:00", "准点", 0, "", 97, 13],
    ["HC19", "2026-01-09", "2号线", "青澜2号", "14:30", "延误", 65, "客流", 171, 24],
    ["HC20", "2026-01-09", "3号线", "青澜3号", "16:00", "准点", 0, "", 72, 10],
    ["HC21", "2026-01-09", "4号线", "澜翔号", "15:30", "延误", 110, "机械故障", 87, 0],
    ["HC22", "2026-01-10", "1号线", "青澜1号", "09:00", "准点", 0, "", 156, 19],
    ["HC23", "2026-01-10", "2号线", "青澜2号", "07:00", "准点", 0, "", 188, 26],
    ["HC24", "2026-01-10", "2号线", "青澜2号", "16:00", "延误", 25, "客流", 164, 22],
    ["HC25", "2026-01-10", "3号线", "青澜3号", "10:00", "准点", 0, "", 83, 12],
    ["HC26", "2026-01-10", "4号线", "澜翔号", "07:30", "准点", 0, "", 149, 0],
    ["HC27", "2026-01-11", "1号线", "青澜1号", "10:30", "延误", 15, "客流", 133, 17],
    ["HC28", "2026-01-11", "2号线", "青澜2号", "11:30", "准点", 0, "", 176, 23],
    ["HC29", "2026-01-11", "3号线", "青澜3号", "13:00", "停航", "", "水位", 0, 0],
    ["HC30", "2026-01-11", "4号线", "澜翔号", "11:30", "准点", 0, "", 152, 0],
    ["HC31", "2026-01-11", "1号线", "青澜1号", "20:00", "准点", 0, "", 64, 8],
    ["HC32", "2026-01-11", "2号线", "青澜2号", "17:30", "延误", 40, "大雾", 129, 15],
]


# ----------------------------------------------------------------------------------------------
# Brackwater Removals Ltd (brackwater-removals), Selbury
# ----------------------------------------------------------------------------------------------

BW = HERE / "brackwater-removals"

BW_PRICES_HTML = """
<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Brackwater Removals — Price Guide 2026</title>
</head>
<body>
<h1>Brackwater Removals — Price Guide 2026</h1>
<p>Brackwater Removals Ltd · Unit 4, Tanner's Yard, Selbury · Prices for moves from 1 January to 31 December 2026 ·
All prices include VAT.</p>

<h2>1. Moving prices</h2>
<table border="1">
<thead>
<tr><th>Home size</th><th>Typical volume</th><th>Crew</th><th>Local (up to 25 miles)</th><th>Regional (26–100 miles)</th><th>Long distance (101–250 miles)</th></tr>
</thead>
<tbody>
<tr><td>Studio or 1 bedroom</td><td>up to 15 m³</td><td>2</td><td>£420</td><td>£690</td><td>£1,150</td></tr>
<tr><td>2 bedrooms</td><td>16–25 m³</td><td>3</td><td>£640</td><td>£980</td><td>£1,580</td></tr>
<tr><td>3 bedrooms</td><td>26–40 m³</td><td>4</td><td>£890</td><td>£1,350</td><td>£2,150</td></tr>
<tr><td>4 bedrooms or more</td><td>over 40 m³</td><td>5</td><td>£1,240</td><td>£1,820</td><td>£2,900</td></tr>
</tbody>
</table>
<p>Prices are for a move on a weekday (Monday to Friday) and include the van or lorry, the crew shown, fuel, furniture
blankets and wrapping, loading and unloading. The distance is the road distance between the two addresses, and the
whole move takes one distance band: a 30-mile move is priced as regional. Moves over 250 miles are quoted individually
after a home survey.</p>
<p>Saturday moves cost 15% more, and Sunday and bank holiday moves cost 25% more. The surcharge is added to the moving
price only, not to packing, extras or transit cover. A bank holiday that falls on a Saturday is charged at 25%:
surcharges are never added together. We do not move on 25 and 26 December.</p>

<h2>2. Packing service</h2>
<table border="1">
<thead>
<tr><th>Service</th><th>Studio or 1 bedroom</th><th>2 bedrooms</th><th>3 bedrooms</th><th>4 bedrooms or more</th></tr>
</thead>
<tbody>
<tr><td>Full packing (the day before the move)</td><td>£180</td><td>£260</td><td>£360</td><td>£480</td></tr>
<tr><td>Fragile items only (kitchen, glass and china)</td><td>£90</td><td>£120</td><td>£150</td><td>£190</td></tr>
<tr><td>Unpacking at the new home</td><td>£120</td><td>£170</td><td>£230</td><td>£300</td></tr>
</tbody>
</table>
<p>Packing materials are included in the packing service. If you pack yourself, you get up to 30 boxes free with every
booked move; further boxes cost £2.50 each, and tape and paper are sold at cost.</p>

<h2>3. Extras</h2>
<table border="1">
<thead>
<tr><th>Item</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Upright piano</td><td>£150</td><td>Ground floor to ground floor</td></tr>
<tr><td>Grand piano</td><td>£420</td><td>Legs taken off and refitted by our piano-trained crew</td></tr>
<tr><td>Stairs</td><td>£35 per floor</td><td>For each floor above the second, at either address, where there is no lift</td></tr>
<tr><td>Long carry</td><td>£40 per address</td><td>Where the van cannot park within 30 metres of the door</td></tr>
<tr><td>Taking apart and reassembling furniture</td><td>£25 per item</td><td>Beds, wardrobes and tables</td></tr>
<tr><td>Parking suspension</td><td>Council charge plus £20</td><td>We apply to the council for you</td></tr>
</tbody>
</table>
<p>A piano on any floor above the ground floor costs a further £60 for each floor, at each address, whether or not
there is a lift. We never carry a piano to or from the fourth floor or higher.</p>

<h2>4. Discounts</h2>
<table border="1">
<thead>
<tr><th>Discount</th><th>Amount</th><th>Who gets it</th></tr>
</thead>
<tbody>
<tr><td>Over-60s</td><td>10%</td><td>Customers aged 60 or over</td></tr>
<tr><td>Midweek</td><td>7%</td><td>Moves on a Tuesday, Wednesday or Thursday</td></tr>
<tr><td>Early booking</td><td>5%</td><td>Booking and deposit received at least 8 weeks before the moving day</td></tr>
</tbody>
</table>
<p>Discounts are taken off the moving price only, not off packing, extras or transit cover. Only one discount is given
on each move: when more than one applies, you get the largest. The over-60s discount is not given on Saturdays,
Sundays or bank holidays, and the midweek discount is not given on a bank holiday.</p>

<h2>5. Depots and office hours</h2>
<table border="1">
<thead>
<tr><th>Depot</th><th>Address</th><th>Office hours</th><th>Telephone</th></tr>
</thead>
<tbody>
<tr><td>Selbury (head office)</td><td>Unit 4, Tanner's Yard, Selbury</td><td>Monday to Friday 8:00–18:00, Saturday 9:00–13:00</td><td>01632 960410</td></tr>
<tr><td>Ashcombe</td><td>18 Mill Race Road, Ashcombe</td><td>Monday to Friday 8:30–17:00</td><td>01632 960455</td></tr>
</tbody>
</table>
<p>Moves run on every day of the year except 25 and 26 December, whatever the office hours.</p>

<footer>Brackwater Removals Ltd · Unit 4, Tanner's Yard, Selbury · 01632 960410</footer>
</body>
</html>
"""

BW_HANDBOOK_MD = """
# Brackwater Removals Ltd — Staff Handbook

Edition 2025/2 · Applies from 1 October 2025 · Issued by the Operations Manager

## 1. Working week

| Team | Usual start | Usual finish | Working days |
|---|---|---|---|
| Move crews (crew leaders, drivers, porters) | 07:00 at the depot | When the move is finished | Monday to Sunday, by rota |
| Packers | 08:00 | 16:30 | Monday to Saturday, by rota |
| Estimators | 08:30 | 17:00 | Monday to Friday, and Saturday mornings by rota |
| Office staff and managers | 09:00 | 17:30 | Monday to Friday |

Full time is 40 hours a week. The rota for the next week is published by Thursday noon. Nobody works more than six
days in a row.

## 2. Who may do what

- Only staff whose licence in staff.csv is C1 or C may drive the 7.5-tonne lorries, and only licence C holders drive
  the 18-tonne lorries. Licence B holders drive the 3.5-tonne vans only. There are no exceptions, not even to cover
  for a driver who is off sick.
- Trainees never drive a company vehicle and never lead a crew, whatever licence they hold.
- A piano is moved only by a crew with at least two members marked piano_trained Yes in staff.csv.
- Every crew of three or more includes at least one first aider (first_aider Yes).

## 3. Overtime and allowances

| Role | Overtime per hour | Overnight allowance per night | Piano bonus per piano |
|---|---|---|---|
| Crew Leader | £21.00 | £45 | £20 |
| HGV Driver | £20.00 | £45 | £15 |
| Van Driver | £17.50 | £40 | £15 |
| Porter | £16.00 | £40 | £15 |
| Packer | £15.00 | Not paid | Not paid |
| Estimator | Not paid | £40 | Not paid |
| Office staff and managers | Not paid | Not paid | Not paid |

Overtime is paid for the time worked beyond 9 hours on a moving day, counted in whole half hours; a part of a half
hour is not paid. The overnight allowance is paid for each night away when a long-distance move cannot be finished
in one day. The meal allowance is £9 for a shift longer than 10 hours, or £15 for a shift longer than 13 hours; the
two are never paid together. Trainees get the meal allowance only. Casual staff are paid overtime but no overnight
allowance.

Work on a Sunday or a bank holiday earns a day supplement of £30. A bank holiday that falls on a Sunday earns one
supplement of £30, not two.

## 4. Annual leave

| Years of service on 1 January | Annual leave |
|---|---|
| Under 2 years | 25 days |
| 2 to 4 years | 26 days |
| 5 to 9 years | 28 days |
| 10 years or more | 30 days |

Bank holidays are in addition. Years of service are the complete years from start_date to 1 January of the leave
year. Staff working fewer than 40 hours a week get leave in proportion to their hours_per_week divided by 40,
rounded up to the next whole day. Fixed-term staff and trainees get leave like permanent staff. Casual staff are paid
holiday pay with each hour worked instead of taking annual leave. Move crews take no leave from 20 July to 31 August,
our busiest weeks.

## 5. Long service

| Years of service | Award |
|---|---|
| 10 years | £500 |
| 20 years | £1,000 |

Each award is paid once, in the month after the anniversary.

## 6. Staff moves

Staff may book one move of their own every 2 years at 30% off the moving price. The staff discount is never combined
with any other discount, and it is not given on Saturdays.
"""

BW_TERMS = [
    ("p", "Document BR-T-04 · Edition 2025 · Applies to bookings made from 1 November 2025"),
    ("h", "1. Quotes and surveys"),
    ("p", "We survey homes of 3 bedrooms or more free of charge, in person or by video call, before we quote. Smaller "
          "homes are quoted from the list of furniture and boxes you send us. A quote is valid for 28 days from the "
          "date on it."),
    ("h", "2. Deposit and payment"),
    ("t", ["Total price of the move", "Deposit when booking"], [
        ["Under £600", "£100"],
        ["£600–£1,499", "20% of the price"],
        ["£1,500 and over", "25% of the price"],
    ]),
    ("p", "The balance is due 3 working days before the moving day. We hold the date only once the deposit has "
          "reached us."),
    ("h", "3. Cancelling or postponing"),
    ("t", ["Notice given before the moving day", "If you cancel", "If you postpone"], [
        ["More than 14 days", "Deposit refunded in full", "Free of charge"],
        ["7 to 14 days", "Deposit kept", "£75 rebooking fee"],
        ["Less than 7 days", "50% of the price of the move", "Charged as a cancellation"],
        ["On the moving day", "100% of the price of the move", "Charged as a cancellation"],
    ]),
    ("p", "A move can be postponed once. A second postponement is charged as a cancellation, with the notice given at "
          "the time."),
    ("p", "If you cancel because the sale or purchase of your home has fallen through, and you send us a letter from "
          "your solicitor or conveyancer saying so, the cancellation charge is never more than the deposit you have "
          "paid, however late you cancel."),
    ("h", "4. Waiting time"),
    ("p", "We arrive at the time agreed. The first 60 minutes of waiting at each address are free, for example while "
          "keys are released. After that, waiting is charged at £45 for each half hour or part of a half hour, for "
          "the whole crew."),
    ("h", "5. Things we do not carry"),
    ("p", "Petrol, diesel, gas bottles, paint, fireworks, firearms and ammunition, and anything else that can catch "
          "fire or explode. Keep cash, jewellery and important documents with you on the day."),
    ("h", "6. Damage and claims"),
    ("p", "Check your belongings when they are unloaded. Report any loss or damage to us in writing within 7 days of "
          "the moving day. Claims are settled under the Goods in Transit Cover that applies on the moving day."),
    ("h", "7. Complaints"),
    ("p", "Write to the Operations Manager at the Selbury office. We reply within 10 working days."),
]


def _transit_blocks(version: str) -> list:
    if version == "2024":
        head = "Document BR-GIT-24 · Version 2024 · Applies to moves from 1 March 2024"
        covers = [["Standard cover (included in every move)", "£25,000", "£500", "£100"],
                  ["Full value cover", "The declared value, up to £150,000", "£2,500", "£50"]]
        premiums = [["Up to £20,000", "£60"], ["£20,001–£50,000", "£120"], ["£50,001–£100,000", "£200"],
                    ["£100,001–£150,000", "£300"]]
        closing = "This version applies to moves from 1 March 2024."
    else:
        head = "Document BR-GIT-26 · Version 2026 · Applies to moves from 1 January 2026"
        covers = [["Standard cover (included in every move)", "£25,000", "£500", "£150"],
                  ["Full value cover", "The declared value, up to £150,000", "£5,000", "£50"]]
        premiums = [["Up to £20,000", "£75"], ["£20,001–£50,000", "£145"], ["£50,001–£100,000", "£240"],
                    ["£100,001–£150,000", "£360"]]
        closing = ("This version applies to moves from 1 January 2026 and replaces Goods in Transit Cover 2024, "
                   "which is withdrawn.")
    return [
        ("p", head),
        ("h", "1. What is covered"),
        ("p", "Your belongings are covered against loss or damage from the moment we start loading until the last "
              "item is unloaded at the new address. Every move includes standard cover; you may choose full value "
              "cover instead when you book."),
        ("h", "2. Standard cover and full value cover"),
        ("t", ["Cover", "Limit per move", "Limit per item", "Excess per claim"], covers),
        ("h", "3. Full value cover premium"),
        ("t", ["Declared value of contents", "Premium per move"], premiums),
        ("p", "The declared value is the value of all the contents that you give us on the booking form. Full value "
              "cover is not available for a declared value above £150,000. The premium is charged once per move; no "
              "discount is taken off it and no Saturday, Sunday or bank holiday surcharge is added to it."),
        ("h", "4. Boxes you pack yourself"),
        ("p", "Boxes packed by you are covered for loss only, not for breakage of what is inside, under either cover."),
        ("h", "5. Never covered"),
        ("p", "Cash, jewellery, watches and documents, and damage caused by wear, woodworm or a fault present before "
              "the move. Electrical items are covered for visible damage only, not for faults in how they work."),
        ("h", "6. Claims"),
        ("p", "Report any loss or damage in writing within 7 days of the moving day. We reply to every claim within "
              "28 days and may repair an item instead of paying for it."),
        ("h", "7. Effective date"),
        ("p", closing),
    ]


# staff_id, name, role, depot, contract, hours_per_week, start_date, licence, piano_trained, first_aider
BW_STAFF = [
    ["BR01", "Gareth Ollerton", "Operations Manager", "Selbury", "Permanent", 40, "2006-02-13", "C", "No", "Yes"],
    ["BR02", "Sian Pritchard", "Office Administrator", "Selbury", "Permanent", 24, "2015-09-07", "None", "No", "Yes"],
    ["BR03", "Dennis Mowbray", "Crew Leader", "Selbury", "Permanent", 40, "2010-05-24", "C", "Yes", "Yes"],
    ["BR04", "Kieran Loftus", "HGV Driver", "Selbury", "Permanent", 40, "2017-03-06", "C", "Yes", "No"],
    ["BR05", "Ade Okonjo", "HGV Driver", "Selbury", "Fixed-term", 40, "2024-10-14", "C", "No", "No"],
    ["BR06", "Lewis Harnett", "Van Driver", "Selbury", "Permanent", 40, "2020-01-20", "C1", "Yes", "Yes"],
    ["BR07", "Megan Tulley", "Van Driver", "Selbury", "Permanent", 32, "2022-06-13", "B", "No", "No"],
    ["BR08", "Robbie Greaves", "Porter", "Selbury", "Permanent", 40, "2019-04-01", "B", "Yes", "No"],
    ["BR09", "Tomas Kral", "Porter", "Selbury", "Permanent", 40, "2021-08-09", "None", "Yes", "Yes"],
    ["BR10", "Callum Frew", "Porter", "Selbury", "Trainee", 40, "2025-09-01", "None", "No", "No"],
    ["BR11", "Jade Whitcombe", "Porter", "Selbury", "Casual", 16, "2024-05-20", "B", "No", "No"],
    ["BR12", "Paula Dunmore", "Packer", "Selbury", "Permanent", 30, "2013-11-04", "None", "No", "Yes"],
    ["BR13", "Nisha Kaur", "Packer", "Selbury", "Permanent", 20, "2018-02-26", "B", "No", "No"],
    ["BR14", "Eric Samways", "Estimator", "Selbury", "Permanent", 40, "2011-10-10", "B", "No", "No"],
    ["BR15", "Fraser Quinlan", "Crew Leader", "Ashcombe", "Permanent", 40, "2014-07-28", "C1", "Yes", "Yes"],
    ["BR16", "Dale Everitt", "HGV Driver", "Ashcombe", "Permanent", 40, "2008-12-01", "C", "Yes", "No"],
    ["BR17", "Marek Nowicki", "Van Driver", "Ashcombe", "Permanent", 40, "2023-03-13", "C1", "No", "Yes"],
    ["BR18", "Shannon Byers", "Porter", "Ashcombe", "Permanent", 40, "2016-06-20", "B", "Yes", "No"],
    ["BR19", "Liam Corcoran", "Porter", "Ashcombe", "Trainee", 40, "2025-03-10", "B", "No", "No"],
    ["BR20", "Hazel Penrose", "Packer", "Ashcombe", "Permanent", 25, "2012-04-16", "None", "No", "Yes"],
    ["BR21", "Owen Tasker", "Estimator", "Ashcombe", "Permanent", 32, "2019-09-30", "B", "No", "Yes"],
    ["BR22", "Rita Calloway", "Porter", "Ashcombe", "Casual", 12, "2025-06-02", "None", "No", "No"],
    ["BR23", "Yusuf Demir", "Porter", "Ashcombe", "Permanent", 40, "2020-10-05", "C1", "Yes", "No"],
]

# job_no, move_date, day_type, customer, home_size, from_town, to_town, miles, crew, discount, price_gbp, cover,
# declared_value_gbp, status
BW_JOBS = [
    ["BW-J01", "2025-11-04", "Weekday", "Hale", "2 bedrooms", "Selbury", "Wenlow", 8, 3, "Midweek", "595.20", "Standard", "", "Completed"],
    ["BW-J02", "2025-11-08", "Saturday", "Okafor", "3 bedrooms", "Selbury", "Castle Avery", 47, 4, "None", "1552.50", "Full value", 62000, "Completed"],
    ["BW-J03", "2025-11-14", "Weekday", "Pryce", "Studio", "Ashcombe", "Haddon Cross", 11, 2, "Over-60s", "378.00", "Standard", "", "Completed"],
    ["BW-J04", "2025-11-21", "Weekday", "Lindqvist", "4 bedrooms", "Selbury", "Northallow", 164, 5, "None", "2900.00", "Full value", 118000, "Completed"],
    ["BW-J05", "2025-11-28", "Weekday", "Bramall", "1 bedroom", "Wenlow", "Carnford", 35, 2, "None", "690.00", "Standard", "", "Completed"],
    ["BW-J06", "2025-12-02", "Weekday", "Ashworth", "2 bedrooms", "Ashcombe", "Thorneby", 19, 3, "Midweek", "595.20", "Full value", 24000, "Completed"],
    ["BW-J07", "2025-12-06", "Saturday", "Mensah", "3 bedrooms", "Selbury", "Marlham", 22, 4, "None", "1023.50", "Standard", "", "Completed"],
    ["BW-J08", "2025-12-12", "Weekday", "Vickery", "2 bedrooms", "Ashcombe", "Brindlecombe", 63, 3, "Early booking", "931.00", "Full value", 31000, "Completed"],
    ["BW-J09", "2025-12-19", "Weekday", "Thorne", "4 bedrooms", "Selbury", "Oxley Vale", 88, 5, "None", "1820.00", "Full value", 96000, "Completed"],
    ["BW-J10", "2025-12-22", "Weekday", "Daley", "1 bedroom", "Selbury", "Ashcombe", 14, 2, "Over-60s", "378.00", "Standard", "", "Cancelled"],
    ["BW-J11", "2025-12-29", "Weekday", "Fenwick", "3 bedrooms", "Ashcombe", "Kirkby Wendle", 212, 4, "None", "2150.00", "Full value", 54000, "Completed"],
    ["BW-J12", "2026-01-02", "Weekday", "Rahman", "2 bedrooms", "Selbury", "Wenlow", 8, 3, "None", "640.00", "Standard", "", "Completed"],
    ["BW-J13", "2026-01-03", "Saturday", "Gillespie", "1 bedroom", "Marlham", "Port Ellery", 139, 2, "None", "1322.50", "Full value", 15000, "Completed"],
    ["BW-J14", "2026-01-07", "Weekday", "Harker", "3 bedrooms", "Selbury", "Castle Avery", 47, 4, "Midweek", "1255.50", "Full value", 48000, "Completed"],
    ["BW-J15", "2026-01-09", "Weekday", "Nolan", "2 bedrooms", "Ashcombe", "Haddon Cross", 11, 3, "Over-60s", "576.00", "Standard", "", "Completed"],
    ["BW-J16", "2026-01-13", "Weekday", "Quarrie", "Studio", "Selbury", "Marlham", 22, 2, "Midweek", "390.60", "Standard", "", "Booked"],
    ["BW-J17", "2026-01-17", "Saturday", "Ebdon", "4 bedrooms", "Ashcombe", "Brindlecombe", 63, 5, "None", "2093.00", "Full value", 135000, "Booked"],
    ["BW-J18", "2026-01-23", "Weekday", "Castellano", "3 bedrooms", "Selbury", "Greyhithe", 247, 4, "Early booking", "2042.50", "Full value", 72000, "Booked"],
    ["BW-J19", "2026-01-30", "Weekday", "Pennock", "2 bedrooms", "Selbury", "Ashcombe", 14, 3, "None", "640.00", "Standard", "", "Booked"],
    ["BW-J20", "2026-02-04", "Weekday", "Iqbal", "1 bedroom", "Wenlow", "Carnford", 35, 2, "Midweek", "641.70", "Standard", "", "Cancelled"],
    ["BW-J21", "2026-02-07", "Saturday", "Drummond", "3 bedrooms", "Ashcombe", "Thorneby", 19, 4, "None", "1023.50", "Full value", 41000, "Booked"],
    ["BW-J22", "2026-02-13", "Weekday", "Yeoman", "2 bedrooms", "Selbury", "Oxley Vale", 88, 3, "Early booking", "931.00", "Standard", "", "Booked"],
    ["BW-J23", "2026-02-20", "Weekday", "Kowalczyk", "4 bedrooms", "Selbury", "Wenlow", 8, 5, "Over-60s", "1116.00", "Full value", 88000, "Booked"],
    ["BW-J24", "2026-02-27", "Weekday", "Lacey", "1 bedroom", "Ashcombe", "Kirkby Wendle", 212, 2, "None", "1150.00", "Standard", "", "Booked"],
    ["BW-J25", "2026-03-06", "Weekday", "Marchetti", "3 bedrooms", "Selbury", "Northallow", 164, 4, "Early booking", "2042.50", "Full value", 58000, "Booked"],
    ["BW-J26", "2026-03-14", "Saturday", "Ogden", "2 bedrooms", "Selbury", "Marlham", 22, 3, "None", "736.00", "Standard", "", "Booked"],
    ["BW-J27", "2026-03-20", "Weekday", "Tremayne", "2 bedrooms", "Ashcombe", "Haddon Cross", 11, 3, "Early booking", "608.00", "Full value", 19500, "Cancelled"],
    ["BW-J28", "2026-03-27", "Weekday", "Sutcliffe", "4 bedrooms", "Ashcombe", "Brindlecombe", 63, 5, "Early booking", "1729.00", "Full value", 104000, "Booked"],
    ["BW-J29", "2026-04-03", "Bank holiday", "Abbott", "3 bedrooms", "Selbury", "Ashcombe", 14, 4, "None", "1112.50", "Standard", "", "Booked"],
    ["BW-J30", "2026-04-06", "Bank holiday", "Whitlock", "1 bedroom", "Selbury", "Wenlow", 8, 2, "None", "525.00", "Full value", 12000, "Booked"],
    ["BW-J31", "2026-04-10", "Weekday", "Brennan", "2 bedrooms", "Marlham", "Port Ellery", 139, 3, "Early booking", "1501.00", "Standard", "", "Booked"],
    ["BW-J32", "2026-04-18", "Saturday", "Hollis", "Studio", "Ashcombe", "Thorneby", 19, 2, "None", "483.00", "Standard", "", "Booked"],
]


def build() -> None:
    QL.mkdir(parents=True, exist_ok=True)
    BW.mkdir(parents=True, exist_ok=True)

    write_text(QL / "船票价目表（2026年）.html", QL_FARES_HTML)
    write_text(QL / "员工值班与津贴办法.md", QL_STAFF_MD)
    write_docx(QL / "旅客乘船须知与退票规定.docx", "青澜轮渡 旅客乘船须知与退票规定", QL_NOTICE)
    write_pdf(QL / "车辆随船运输规定（2024版）.pdf", "青澜轮渡 车辆随船运输规定（2024版）", _vehicle_blocks("2024"))
    write_pdf(QL / "车辆随船运输规定（2026版）.pdf", "青澜轮渡 车辆随船运输规定（2026版）", _vehicle_blocks("2026"))
    write_csv(QL / "员工名册.csv",
              ["工号", "姓名", "部门", "岗位", "入职日期", "累计工作年限", "适任证书", "驾驶资格", "夜间值守", "用工形式"],
              QL_STAFF)
    write_csv(QL / "航次记录.csv",
              ["航次号", "日期", "航线", "船舶", "计划开航", "状态", "延误(分钟)", "延误原因", "乘客人数", "随船车辆(辆)"],
              QL_SAILINGS)

    write_text(BW / "Price_Guide_2026.html", BW_PRICES_HTML)
    write_text(BW / "Staff_Handbook.md", BW_HANDBOOK_MD)
    write_docx(BW / "Booking_and_Cancellation_Terms.docx", "Brackwater Removals — Booking and Cancellation Terms",
               BW_TERMS)
    write_pdf(BW / "Goods_in_Transit_Cover_2024.pdf", "Brackwater Removals — Goods in Transit Cover 2024",
              _transit_blocks("2024"))
    write_pdf(BW / "Goods_in_Transit_Cover_2026.pdf", "Brackwater Removals — Goods in Transit Cover 2026",
              _transit_blocks("2026"))
    write_csv(BW / "staff.csv", ["staff_id", "name", "role", "depot", "contract", "hours_per_week", "start_date",
                                 "licence", "piano_trained", "first_aider"], BW_STAFF)
    write_csv(BW / "jobs.csv", ["job_no", "move_date", "day_type", "customer", "home_size", "from_town", "to_town",
                                "miles", "crew", "discount", "price_gbp", "cover", "declared_value_gbp", "status"],
              BW_JOBS)


if __name__ == "__main__":
    build()
