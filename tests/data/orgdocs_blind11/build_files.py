"""Build the eleventh blind report set of organisational documents (tests/data/orgdocs_blind11/, CC0).

    python tests/data/orgdocs_blind11/build_files.py

Writes every file of the two fictional organisations (fengsui-nongji, pellam-scaffolding) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind10/build_files.py (only AUTHOR differs).

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
AUTHOR = "orgdocs_blind11"


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
# 沅丘县丰穗农机专业合作社 (fengsui-nongji), 沅丘县石桥镇
# ----------------------------------------------------------------------------------------------

FS = HERE / "fengsui-nongji"

FS_PRICES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>丰穗合作社 农机作业服务价目表（2025-2026年度）</title>
</head>
<body>
<h1>丰穗合作社 农机作业服务价目表（2025-2026年度）</h1>
<p>发布：沅丘县丰穗农机专业合作社理事会　发布日期：2025年8月20日　执行期间：2025年9月1日至2026年8月31日</p>
<p>本价目表适用于本社为社员和非社员提供的耕种、植保、收获和烘干作业。金额单位为人民币元，面积单位为亩。社员价凭社员证享受；与社员在同一户口簿上的家庭成员也按社员价结算。</p>

<h2>一、耕种作业</h2>
<table border="1">
<thead>
<tr><th>作业项目</th><th>作业要求</th><th>社员价（元/亩）</th><th>非社员价（元/亩）</th></tr>
</thead>
<tbody>
<tr><td>旋耕</td><td>耕深12至15厘米，一遍</td><td>45</td><td>55</td></tr>
<tr><td>深翻</td><td>耕深25厘米以上</td><td>70</td><td>85</td></tr>
<tr><td>小麦机播</td><td>含播种和镇压，不含种子</td><td>30</td><td>38</td></tr>
<tr><td>油菜直播</td><td>不含种子</td><td>28</td><td>35</td></tr>
<tr><td>机插秧</td><td>含育秧和秧盘，不含种子</td><td>150</td><td>175</td></tr>
</tbody>
</table>

<h2>二、植保作业</h2>
<table border="1">
<thead>
<tr><th>作业项目</th><th>社员价（元/亩·次）</th><th>非社员价（元/亩·次）</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>无人机飞防</td><td>8</td><td>10</td><td>药剂由农户自备，也可由本社代购，按进价结算</td></tr>
<tr><td>自走式喷杆喷雾</td><td>6</td><td>8</td><td>只在平地作业</td></tr>
</tbody>
</table>

<h2>三、收获作业</h2>
<table border="1">
<thead>
<tr><th>作物</th><th>机型</th><th>社员价（元/亩）</th><th>非社员价（元/亩）</th></tr>
</thead>
<tbody>
<tr><td>水稻</td><td>履带式联合收割机</td><td>85</td><td>100</td></tr>
<tr><td>小麦</td><td>轮式联合收割机</td><td>65</td><td>78</td></tr>
<tr><td>油菜</td><td>履带式联合收割机（加装割台）</td><td>75</td><td>90</td></tr>
<tr><td>玉米（摘穗）</td><td>玉米收获机</td><td>95</td><td>115</td></tr>
</tbody>
</table>
<p>丘陵坡地（坡度15度以上）的耕种作业和收获作业，单价上浮15%；倒伏面积超过地块三成的，收获作业单价上浮25%。两项同时适用的，只按较高的一项上浮，不累加。植保作业和烘干不上浮。</p>
<p>每单作业面积不足3亩的，按3亩计价。秸秆粉碎还田已含在收获价格中。</p>

<h2>四、粮食烘干</h2>
<table border="1">
<thead>
<tr><th>入仓含水率</th><th>社员价（元/吨）</th><th>非社员价（元/吨）</th></tr>
</thead>
<tbody>
<tr><td>20%以下（含20%）</td><td>70</td><td>85</td></tr>
<tr><td>20%以上至25%（含25%）</td><td>95</td><td>115</td></tr>
<tr><td>25%以上至30%（含30%）</td><td>120</td><td>145</td></tr>
<tr><td>30%以上</td><td>不接收</td><td>不接收</td></tr>
</tbody>
</table>
<p>含水率以烘干中心入仓时的检测结果为准，重量按入仓湿重计算。每批不足2吨的，按2吨计费。含水率超过30%的粮食请晾晒后再送。烘干后的粮食可以在烘干中心免费存放15天，第16天起每吨每天收取1元。</p>

<h2>五、服务点与服务时间</h2>
<table border="1">
<thead>
<tr><th>服务点</th><th>地址</th><th>服务时间</th><th>电话</th></tr>
</thead>
<tbody>
<tr><td>合作社办公室（农机大院）</td><td>石桥镇柳塘村村委会东侧</td><td>7:30–17:30；农忙期6:00–20:00</td><td>6730 2210</td></tr>
<tr><td>烘干中心</td><td>石桥镇东坝村工业路6号</td><td>8:00–18:00；秋季农忙期24小时收粮</td><td>6730 2216</td></tr>
<tr><td>北片服务点</td><td>石桥镇北圩村文化广场北侧</td><td>8:00–17:00，每周一休息</td><td>6730 2218</td></tr>
</tbody>
</table>
<p>农忙期为每年5月20日至6月20日和9月20日至10月31日。</p>

<footer>沅丘县丰穗农机专业合作社　沅丘县石桥镇柳塘村农机大院　服务热线：6730 2210</footer>
</body>
</html>
"""

FS_STAFF_MD = """
# 沅丘县丰穗农机专业合作社 员工管理与补贴办法

文件编号：丰穗社〔2025〕5号　施行日期：2025年7月1日　发布：合作社理事会

## 一、总则

第一条　本办法适用于本社机耕组、收割组、植保组、烘干中心、维修间和办公室的全体员工，包括全职员工、季节工和学徒。

第二条　作息时间如下：

| 时段 | 作息时间 | 适用人员 |
|---|---|---|
| 平时 | 8:00–17:00（中午休息1小时） | 全体员工 |
| 农忙期 | 6:00–19:00，由组长轮流安排2小时休息 | 机耕组、收割组、植保组、维修间 |
| 烘干夜班 | 19:00至次日7:00 | 烘干中心（仅秋季农忙期） |

农忙期为每年5月20日至6月20日和9月20日至10月31日。

## 二、操作资格

第三条　拖拉机（旋耕、深翻和播种作业）只能由员工名册中“拖拉机驾驶证”登记为“有”的员工驾驶。

第四条　联合收割机和玉米收获机只能由员工名册中“收割机驾驶证”登记为“有”的员工驾驶。拖拉机驾驶证不能代替收割机驾驶证，农忙期人手不足时也不例外。

第五条　植保无人机只能由员工名册中“无人机执照”登记为“有”的人员操作。其他员工即使会操作也不得起飞，机手组长也不例外。

第六条　学徒不论是否持有驾驶证，都不得单独驾驶任何农机，只能在持证机手陪同下跟机学习。

## 三、补贴

第七条　补贴标准如下：

| 岗位 | 作业补贴（元/亩） | 夜班补贴（元/班） | 农忙餐补（元/天） |
|---|---|---|---|
| 机手组长 | 4 | 不发放 | 30 |
| 收割机手 | 3.5 | 不发放 | 30 |
| 拖拉机手 | 3 | 不发放 | 30 |
| 飞手 | 0.8 | 不发放 | 25 |
| 辅助工 | 1 | 不发放 | 25 |
| 烘干工 | 不发放 | 80 | 25 |
| 维修工 | 不发放 | 80 | 25 |
| 调度员 | 不发放 | 60 | 20 |
| 财务人员 | 不发放 | 不发放 | 20 |

第八条　作业补贴按本人驾驶或操作完成、经农户验收的亩数计发。收割机手、拖拉机手和机手组长在丘陵坡地作业的，每亩另加1元。每人每天计发作业补贴的亩数最多120亩，超出部分不再计发。因降雨取消的作业不发作业补贴。农忙餐补只在农忙期按出勤天数发放。

第九条　学徒只发农忙餐补，每天25元，不发其他补贴。季节工按本人岗位发放作业补贴、夜班补贴和农忙餐补。

第十条　7月1日至9月15日在室外作业的，每天另发高温补贴15元。

## 四、工龄补贴

第十一条　全职员工按在本社的工作年限（司龄）每月发放工龄补贴：

| 司龄 | 工龄补贴（元/月） |
|---|---|
| 不满2年 | 0 |
| 满2年不满5年 | 80 |
| 满5年不满10年 | 150 |
| 满10年及以上 | 260 |

季节工和学徒不发工龄补贴。

## 五、年休假与冬季轮休

第十二条　员工年休假按累计工作年限确定：

| 累计工作年限 | 年休假 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满5年 | 5天 |
| 满5年不满10年 | 7天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |

第十三条　机耕组、收割组和植保组的员工在年休假之外，于每年12月至次年2月另享受冬季轮休：

| 司龄 | 冬季轮休 |
|---|---|
| 不满3年 | 3天 |
| 满3年及以上 | 6天 |

烘干中心、维修间和办公室的员工不享受冬季轮休。

第十四条　累计工作年限以员工名册登记的为准（名册登记的是截至当年1月1日已满的整年数）；司龄按员工名册中的入职日期计算，也以截至当年1月1日已满的整年数为准。季节工和学徒不适用第十二条和第十三条。

第十五条　农忙期不安排年休假。年休假须提前7天向调度员申请。

## 六、员工作业优惠

第十六条　员工本人承包的土地由本社作业的，按社员价的八折结算；烘干按社员价结算。员工的亲属不享受本条优惠。

## 七、附则

第十七条　本办法由合作社理事会负责解释，自2025年7月1日起施行。理事会办公室电话：6730 2210。
"""

FS_TERMS = [
    ("p", "文件编号：丰穗社〔2025〕7号　施行日期：2025年8月1日　发布：合作社办公室"),
    ("h", "一、预约"),
    ("p", "作业须提前预约：平时提前2天，农忙期提前5天。可以打电话预约，也可以到合作社办公室或北片服务点登记。需要交定金的，交纳定金后预约才算成立。"),
    ("h", "二、定金"),
    ("t", ["预计作业金额", "定金"], [
        ["500元以下", "不收定金"],
        ["500元至2000元（含500元和2000元）", "100元"],
        ["2000元以上", "预计作业金额的10%"],
    ]),
    ("p", "定金在作业完成后抵作作业费。"),
    ("h", "三、取消与改期"),
    ("t", ["取消时间", "定金处理"], [
        ["约定作业日前2天以上", "全额退还"],
        ["约定作业日前1天", "退还50%"],
        ["约定作业日当天，机手出发前", "不予退还"],
        ["机手到达地头以后", "不予退还，另收空跑费150元"],
    ]),
    ("p", "因降雨、田块过湿等天气原因不能作业的，双方另约时间，不收任何费用；农户也可以取消预约，定金全额退还。农户要求改期的，可以免费改期1次；第二次改期按取消处理。"),
    ("h", "四、作业验收与退费"),
    ("t", ["作业问题", "处理办法"], [
        ["旋耕、深翻漏耕面积超过5%", "免费补耕"],
        ["机插秧漏插率超过5%", "免费补插；无法补插的，按漏插面积退还作业费"],
        ["水稻、小麦收获损失率超过3%", "每超过1个百分点退还作业费的5%，不足1个百分点的部分不计，最多退还作业费的30%"],
    ]),
    ("p", "作业质量由农户和机手在地头共同验收。验收异议须在作业完成后24小时内提出，逾期视为验收合格。损失率由合作社技术员和农户共同抽样测定。"),
    ("h", "五、结算"),
    ("p", "作业费在作业完成当天结清。社员可以在收获后15天内结清。"),
    ("h", "六、作业安全"),
    ("p", "作业时，任何人不得在作业机械10米以内停留，儿童不得进入作业田块。田里的电线杆、水井、坟地等障碍物，农户须在作业前告知机手。"),
    ("h", "七、投诉"),
    ("p", "农户可以拨打服务监督电话6730 2299，或到合作社办公室投诉。合作社在收到投诉后3个工作日内答复。"),
]


def _rental_blocks(version: str) -> list:
    if version == "2023":
        head = "文件编号：丰穗社〔2023〕2号　版本：2023版　施行日期：2023年3月1日　发布：合作社理事会"
        fees = [["微耕机", "60", "800"],
                ["小型拖拉机（不含农具）", "150", "3000"],
                ["配套旋耕机具", "40", "1000"],
                ["手推式播种机", "30", "500"],
                ["背负式喷雾器", "10", "100"]]
        term = "每次租期最长5天。"
        late = "逾期归还的，逾期天数按日租金的1.5倍收取租金。"
        closing = "本办法由合作社理事会负责解释，自2023年3月1日起施行。"
    else:
        head = "文件编号：丰穗社〔2025〕9号　版本：2025版　施行日期：2025年9月1日　发布：合作社理事会"
        fees = [["微耕机", "80", "1000"],
                ["小型拖拉机（不含农具）", "180", "4000"],
                ["配套旋耕机具", "50", "1000"],
                ["手推式播种机", "35", "500"],
                ["背负式喷雾器", "10", "200"]]
        term = "每次租期最长7天；农忙期每次最长3天。"
        late = "逾期归还的，逾期天数按日租金的2倍收取租金。"
        closing = ("本办法由合作社理事会负责解释，自2025年9月1日起施行。"
                   "2023年3月1日起施行的《农机具出租管理办法（2023版）》自本办法施行之日起不再执行。")
    return [
        ("p", head),
        ("h", "第一条　出租对象"),
        ("p", "本社农机具只出租给本社社员，由社员本人凭社员证办理，不得转租。"),
        ("h", "第二条　租金与押金"),
        ("t", ["机具", "日租金（元/天）", "押金（元）"], fees),
        ("p", "租期按天计算，不足1天的按1天计算。押金在机具归还验收后退还。"),
        ("h", "第三条　租期"),
        ("p", term),
        ("h", "第四条　逾期归还"),
        ("p", late),
        ("h", "第五条　不出租的农机"),
        ("p", "联合收割机、玉米收获机、插秧机和植保无人机不对外出租，只由本社机手作业。"),
        ("h", "第六条　归还"),
        ("p", "归还时须清洗干净、加满燃油。未清洗的收取清洗费30元；损坏的按实际维修费用赔偿，从押金中扣除。"),
        ("h", "第七条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 岗位, 班组, 入职日期, 累计工作年限, 拖拉机驾驶证, 收割机驾驶证, 无人机执照, 用工形式
FS_STAFF = [
    ["FS01", "梁永福", "机手组长", "收割组", "2008-03-10", 26, "有", "有", "无", "全职"],
    ["FS02", "邓春生", "收割机手", "收割组", "2012-09-01", 15, "有", "有", "无", "全职"],
    ["FS03", "罗建平", "收割机手", "收割组", "2016-05-16", 11, "有", "有", "无", "全职"],
    ["FS04", "潘国庆", "收割机手", "收割组", "2019-08-26", 9, "有", "有", "无", "全职"],
    ["FS05", "汤志远", "收割机手", "收割组", "2025-04-14", 4, "无", "有", "无", "季节工"],
    ["FS06", "易小军", "辅助工", "收割组", "2023-09-04", 3, "无", "无", "无", "季节工"],
    ["FS07", "程大海", "机手组长", "机耕组", "2010-02-22", 21, "有", "有", "无", "全职"],
    ["FS08", "傅明亮", "拖拉机手", "机耕组", "2014-11-03", 13, "有", "无", "无", "全职"],
    ["FS09", "温德才", "拖拉机手", "机耕组", "2018-03-19", 12, "有", "无", "无", "全职"],
    ["FS10", "苏建军", "拖拉机手", "机耕组", "2021-06-07", 5, "有", "无", "无", "全职"],
    ["FS11", "覃小勇", "拖拉机手", "机耕组", "2024-03-04", 2, "有", "无", "无", "季节工"],
    ["FS12", "石磊", "拖拉机手", "机耕组", "2025-07-01", 0, "有", "无", "无", "学徒"],
    ["FS13", "龙海燕", "飞手", "植保组", "2020-04-13", 6, "无", "无", "有", "全职"],
    ["FS14", "孟凡", "飞手", "植保组", "2022-03-28", 4, "无", "无", "有", "全职"],
    ["FS15", "卢晓彤", "飞手", "植保组", "2024-05-06", 2, "无", "无", "有", "季节工"],
    ["FS16", "段志强", "机手组长", "植保组", "2015-03-02", 18, "有", "无", "无", "全职"],
    ["FS17", "姚桂兰", "烘干工", "烘干中心", "2013-10-08", 20, "无", "无", "无", "全职"],
    ["FS18", "钟伟", "烘干工", "烘干中心", "2017-09-11", 9, "无", "无", "无", "全职"],
    ["FS19", "贺强", "烘干工", "烘干中心", "2025-09-15", 1, "无", "无", "无", "季节工"],
    ["FS20", "严金宝", "维修工", "维修间", "2011-04-18", 24, "有", "有", "无", "全职"],
    ["FS21", "宋小鹏", "维修工", "维修间", "2022-10-10", 7, "有", "无", "无", "全职"],
    ["FS22", "方丽娟", "调度员", "办公室", "2016-03-01", 14, "无", "无", "无", "全职"],
    ["FS23", "韦春梅", "财务人员", "办公室", "2009-07-06", 17, "无", "无", "无", "全职"],
    ["FS24", "黎志华", "辅助工", "收割组", "2020-09-21", 5, "无", "无", "无", "全职"],
]

# 单号, 日期, 村, 农户, 社员, 作业项目, 地形, 倒伏超三成, 数量, 单位, 含水率(%), 单价(元), 金额(元), 作业人员, 状态, 备注
FS_JOBS = [
    ["ZY01", "2025-09-22", "柳塘村", "梁德旺", "是", "水稻收获", "平地", "否", "12.5", "亩", "", "85", "1062.50", "FS02", "完成", ""],
    ["ZY02", "2025-09-22", "杏坪村", "黄玉兰", "否", "水稻收获", "丘陵", "否", "6", "亩", "", "115", "690.00", "FS03", "完成", ""],
    ["ZY03", "2025-09-23", "东坝村", "彭红军", "是", "水稻收获", "平地", "是", "8", "亩", "", "106.25", "850.00", "FS04", "完成", ""],
    ["ZY04", "2025-09-23", "东坝村", "彭红军", "是", "稻谷烘干", "", "", "5.2", "吨", "22.5", "95", "494.00", "FS17", "完成", ""],
    ["ZY05", "2025-09-24", "上湾村", "谢长根", "是", "无人机飞防", "丘陵", "否", "40", "亩", "", "8", "320.00", "FS13", "完成", ""],
    ["ZY06", "2025-09-24", "北圩村", "万家顺", "否", "水稻收获", "平地", "否", "15", "亩", "", "100", "1500.00", "FS01", "完成", ""],
    ["ZY07", "2025-09-25", "梅溪村", "曾秋菊", "是", "水稻收获", "丘陵", "是", "4", "亩", "", "106.25", "425.00", "FS05", "完成", ""],
    ["ZY08", "2025-09-25", "柳塘村", "梁德旺", "是", "稻谷烘干", "", "", "6.8", "吨", "19.5", "70", "476.00", "FS18", "完成", ""],
    ["ZY09", "2025-09-26", "杏坪村", "龚长林", "否", "玉米收获", "平地", "否", "10", "亩", "", "115", "1150.00", "FS02", "完成", ""],
    ["ZY10", "2025-09-26", "上湾村", "邱桂花", "是", "水稻收获", "平地", "否", "9", "亩", "", "85", "765.00", "FS03", "取消", "降雨取消"],
    ["ZY11", "2025-09-27", "东坝村", "彭红军", "是", "旋耕", "平地", "否", "8", "亩", "", "45", "360.00", "FS08", "完成", ""],
    ["ZY12", "2025-09-27", "北圩村", "万家顺", "否", "稻谷烘干", "", "", "8", "吨", "26.5", "145", "1160.00", "FS17", "完成", ""],
    ["ZY13", "2025-09-28", "梅溪村", "卜家福", "否", "水稻收获", "丘陵", "是", "7", "亩", "", "125", "875.00", "FS01", "完成", ""],
    ["ZY14", "2025-09-29", "柳塘村", "梁德旺", "是", "旋耕", "平地", "否", "12.5", "亩", "", "45", "562.50", "FS09", "完成", ""],
    ["ZY15", "2025-09-30", "杏坪村", "黄玉兰", "否", "稻谷烘干", "", "", "1.5", "吨", "24.0", "115", "230.00", "FS18", "完成", ""],
    ["ZY16", "2025-10-02", "上湾村", "谢长根", "是", "水稻收获", "丘陵", "否", "11", "亩", "", "97.75", "1075.25", "FS04", "完成", ""],
    ["ZY17", "2025-10-03", "东坝村", "何满仓", "否", "深翻", "平地", "否", "20", "亩", "", "85", "1700.00", "FS10", "完成", ""],
    ["ZY18", "2025-10-04", "北圩村", "舒红梅", "是", "玉米收获", "丘陵", "否", "6", "亩", "", "109.25", "655.50", "FS02", "取消", "农户取消"],
    ["ZY19", "2025-10-05", "梅溪村", "曾秋菊", "是", "稻谷烘干", "", "", "3.4", "吨", "21.0", "95", "323.00", "FS19", "完成", ""],
    ["ZY20", "2025-10-06", "柳塘村", "鲁正清", "否", "水稻收获", "平地", "否", "2.5", "亩", "", "100", "300.00", "FS05", "完成", ""],
    ["ZY21", "2025-10-08", "上湾村", "邱桂花", "是", "水稻收获", "平地", "否", "9", "亩", "", "85", "765.00", "FS03", "完成",
     "9月26日降雨取消后重新预约"],
    ["ZY22", "2025-10-09", "杏坪村", "龚长林", "否", "旋耕", "丘陵", "否", "10", "亩", "", "63.25", "632.50", "FS09", "完成", ""],
    ["ZY23", "2025-10-10", "东坝村", "何满仓", "否", "小麦机播", "平地", "否", "20", "亩", "", "38", "760.00", "FS10", "取消", "降雨取消"],
    ["ZY24", "2025-10-11", "北圩村", "万家顺", "否", "旋耕", "平地", "否", "15", "亩", "", "55", "825.00", "FS11", "完成", ""],
    ["ZY25", "2025-10-12", "梅溪村", "卜家福", "否", "油菜直播", "丘陵", "否", "7", "亩", "", "40.25", "281.75", "FS08", "完成", ""],
    ["ZY26", "2025-10-14", "柳塘村", "梁德旺", "是", "小麦机播", "平地", "否", "12.5", "亩", "", "30", "375.00", "FS09", "完成", ""],
    ["ZY27", "2025-10-15", "上湾村", "谢长根", "是", "油菜直播", "丘陵", "否", "11", "亩", "", "32.20", "354.20", "FS10", "完成", ""],
    ["ZY28", "2025-10-16", "杏坪村", "黄玉兰", "否", "无人机飞防", "平地", "否", "6", "亩", "", "10", "60.00", "FS14", "取消", "农户取消"],
    ["ZY29", "2025-10-17", "东坝村", "何满仓", "否", "小麦机播", "平地", "否", "20", "亩", "", "38", "760.00", "FS10", "完成",
     "10月10日降雨取消后重新预约"],
    ["ZY30", "2025-10-19", "北圩村", "舒红梅", "是", "深翻", "丘陵", "否", "6", "亩", "", "80.50", "483.00", "FS08", "完成", ""],
]


# ----------------------------------------------------------------------------------------------
# Pellam & Wragg Scaffolding Ltd (pellam-scaffolding), Quarlby
# ----------------------------------------------------------------------------------------------

PW = HERE / "pellam-scaffolding"

PW_PRICES_HTML = """
<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Pellam &amp; Wragg Scaffolding — Price List 2026</title>
</head>
<body>
<h1>Pellam &amp; Wragg Scaffolding — Price List 2026</h1>
<p>Pellam &amp; Wragg Scaffolding Ltd · Unit 9, Foundry Lane Estate, Quarlby · Prices for scaffolds erected from
5 January 2026 · All prices include VAT.</p>

<h2>1. Access scaffolds</h2>
<table border="1">
<thead>
<tr><th>Height band</th><th>Highest working platform</th><th>Typical building</th><th>Price per metre of scaffold</th><th>Each extra week, per metre</th></tr>
</thead>
<tbody>
<tr><td>Band A</td><td>up to 4 m</td><td>Bungalow or single-storey extension</td><td>£32</td><td>£2.00</td></tr>
<tr><td>Band B</td><td>4.1–7 m</td><td>Two-storey house</td><td>£46</td><td>£3.00</td></tr>
<tr><td>Band C</td><td>7.1–10 m</td><td>Three-storey house or small block of flats</td><td>£62</td><td>£4.00</td></tr>
<tr><td>Band D</td><td>10.1–14 m</td><td>Four-storey building</td><td>£84</td><td>£5.50</td></tr>
</tbody>
</table>
<p>The price per metre covers delivery, erection, the handover inspection, the first 4 weeks of hire, the weekly
inspections and dismantling. The length is measured along the face of the building and rounded up to the next whole
metre. A scaffold takes the band of its highest working platform all along its length: a scaffold 6 m high at the
front and 8 m at the gable is priced in Band C throughout. Scaffolds over 14 m are designed by our engineer and quoted
individually.</p>
<p>The minimum charge for an access scaffold is £480. Hire is counted from the erection day. The first 4 weeks end 28
days after the erection day, so a scaffold erected on a Monday and dismantled four weeks later on a Monday pays no
extra week. Every further 7 days, or part of 7 days, until the day we dismantle counts as one extra week, charged at
the rate per metre of the scaffold's band.</p>

<h2>2. Chimney and roof access</h2>
<table border="1">
<thead>
<tr><th>Item</th><th>Price</th><th>What is included</th></tr>
</thead>
<tbody>
<tr><td>Chimney scaffold, one stack, roof ridge up to 7 m</td><td>£360</td><td>4 weeks of hire; each extra week £40</td></tr>
<tr><td>Chimney scaffold, one stack, roof ridge over 7 m</td><td>£490</td><td>4 weeks of hire; each extra week £55</td></tr>
<tr><td>Roof edge protection</td><td>£18 per metre</td><td>4 weeks of hire; each extra week £1.50 per metre</td></tr>
<tr><td>Temporary roof</td><td>£22 per m² of roof covered</td><td>4 weeks of hire; designed by our engineer</td></tr>
</tbody>
</table>

<h2>3. Extras</h2>
<table border="1">
<thead>
<tr><th>Extra</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Loading bay</td><td>£290</td><td>Takes one pallet of materials at a time</td></tr>
<tr><td>Debris netting</td><td>£3 per m²</td><td>Fitted at erection; £4 per m² if added later</td></tr>
<tr><td>Scaffold alarm</td><td>£35 per week</td><td>Charged for every week the alarm is on, the first 4 weeks included</td></tr>
<tr><td>Lockable ladder guard</td><td>£40</td><td>One-off charge</td></tr>
<tr><td>Bridging over a conservatory or glass roof</td><td>£150 per bridge</td><td>Built by an Advanced-led crew</td></tr>
<tr><td>Adaptation visit</td><td>£95 per visit</td><td>Moving boards, lifts or ladders while the scaffold is on hire</td></tr>
<tr><td>Pavement licence</td><td>Council fee plus £60</td><td>We apply to the council for you; allow 10 working days</td></tr>
</tbody>
</table>
<p>Erection or dismantling on a Saturday costs £150 extra per visit. We do not erect or dismantle on Sundays or bank
holidays, except to make a scaffold safe after storm damage.</p>

<h2>4. Discounts</h2>
<table border="1">
<thead>
<tr><th>Discount</th><th>Amount</th><th>Who gets it</th></tr>
</thead>
<tbody>
<tr><td>Trade account</td><td>8%</td><td>Builders and roofers with an approved trade account</td></tr>
<tr><td>Repeat customer</td><td>5%</td><td>Customers who have hired a scaffold from us in the last 3 years</td></tr>
<tr><td>Community</td><td>10%</td><td>Registered charities, places of worship and village halls</td></tr>
</tbody>
</table>
<p>A discount is taken off the scaffold price only (the price per metre times the length, or the chimney or roof
price), never off extra weeks, extras, alarms or council fees. Only one discount is given on each job: when more than
one applies, you get the largest. The minimum charge of £480 applies after any discount, so a discounted access
scaffold never costs less than £480.</p>

<h2>5. Yards and office hours</h2>
<table border="1">
<thead>
<tr><th>Yard</th><th>Address</th><th>Office hours</th><th>Telephone</th></tr>
</thead>
<tbody>
<tr><td>Quarlby (head office)</td><td>Unit 9, Foundry Lane Estate, Quarlby</td><td>Monday to Friday 7:00–16:30, Saturday 7:30–11:30</td><td>01632 960731</td></tr>
<tr><td>Corland</td><td>Plot 3, Wharf Road, Corland</td><td>Monday to Friday 7:30–16:00</td><td>01632 960748</td></tr>
</tbody>
</table>
<p>Out of hours, for a scaffold damaged by a storm or struck by a vehicle, ring 01632 960799 at any time.</p>

<footer>Pellam &amp; Wragg Scaffolding Ltd · Unit 9, Foundry Lane Estate, Quarlby · 01632 960731</footer>
</body>
</html>
"""

PW_HANDBOOK_MD = """
# Pellam & Wragg Scaffolding Ltd — Employee Handbook

Issue 7 · In force from 1 September 2025 · Issued by the Contracts Manager

## 1. Hours

| Team | Start | Finish | Days |
|---|---|---|---|
| Site crews (supervisors, scaffolders, trainees, labourers) | 07:00 at the yard | 15:30 | Monday to Friday; Saturdays by rota |
| Wagon drivers and yard operatives | 06:30 | 15:00 | Monday to Friday; Saturdays by rota |
| Estimators | 08:00 | 16:30 | Monday to Friday |
| Office staff and managers | 08:30 | 17:00 | Monday to Friday |

Full time is 39 hours a week. The rota for the following week goes up in both yards by Thursday at 14:00.

## 2. Cards: who may do what

The card column of staff.csv records the scaffolding card each person holds.

- A scaffold is erected, altered or dismantled only by a crew led by a holder of an Advanced or Scaffolder card.
- Loading bays, temporary roofs, bridging and every Band D scaffold are built only by a crew led by an Advanced card
  holder.
- Trainee card holders always work alongside a Scaffolder or Advanced card holder and never lead a crew, however long
  they have been with us.
- Labourer card holders carry materials and pass them up from the ground and the base lift. They never work above the
  base lift, and there are no exceptions, not even to get a job finished ahead of bad weather.
- Only staff marked inspector Yes in staff.csv may sign a handover certificate or a weekly inspection record.
- Every crew on site includes at least one first aider (first_aider Yes).
- Erection and dismantling stop when gusts reach 40 mph on the site anemometer.

## 3. Overtime and allowances

| Role | Overtime per hour | Height money per day | Lodging allowance per night |
|---|---|---|---|
| Supervisor | £25.00 | £14 | £55 |
| Advanced Scaffolder | £23.50 | £14 | £55 |
| Scaffolder | £21.00 | £12 | £50 |
| Trainee Scaffolder | £17.00 | £8 | £50 |
| Labourer | £15.50 | Not paid | £45 |
| Wagon Driver | £17.50 | Not paid | £45 |
| Yard Operative | £15.00 | Not paid | Not paid |
| Estimator | Not paid | Not paid | £45 |
| Office staff and managers | Not paid | Not paid | Not paid |

Overtime is paid for time worked beyond 8 hours on a weekday, counted in whole quarter hours; a part of a quarter hour
is not paid. Every hour worked on a Saturday is paid at the overtime rate, with a minimum of 4 hours for anyone called
in. Height money is paid once for each day on which you work on a lift more than 10 m above the ground. The lodging
allowance is paid for each night away from home when a job is too far away to travel to each day.

Wet time: when the weather stops work and the crew is sent home before 11:00, everyone is paid 4 hours for that day;
a crew sent home at 11:00 or later is paid the full day.

Supervisors, Advanced Scaffolders and Scaffolders get a tool allowance of £10 a week for their own spanners and
levels. Agency workers are paid by their agency: none of the allowances in this section is paid to them by us.

## 4. Annual leave

| Years of service on 1 January | Annual leave |
|---|---|
| Under 3 years | 22 days |
| 3 to 5 years | 24 days |
| 6 to 9 years | 25 days |
| 10 years or more | 27 days |

Bank holidays are on top of these days. Three days of everyone's leave are kept for the Christmas shutdown, when both
yards close; they are part of the days above, not extra. Years of service are the complete years from start_date to
1 January of the leave year. Staff working fewer than 39 hours a week get leave in proportion to their hours_per_week
divided by 39, rounded up to the next half day. Fixed-term staff and apprentices get leave like permanent staff.
Agency workers take their leave through their agency. Site crews take no more than 10 days of leave between 1 May and
30 September.

## 5. Long service

| Years of service | Award |
|---|---|
| 10 years | £400 |
| 20 years | £900 |

Each award is paid once, with the pay for the month after the anniversary.

## 6. Protective equipment

Hard hats, harnesses with twin lanyards, gloves and boots with midsole protection are issued free and replaced when
worn. The supervisor checks every harness every 6 months and records the check in the yard register.
"""

PW_TERMS = [
    ("p", "Terms PW-T-09 · Edition 2026 · Apply to every scaffold ordered from 5 January 2026"),
    ("h", "1. Quotes and site surveys"),
    ("p", "We survey every site free of charge before we quote, except chimney scaffolds and roof edge protection, "
          "which we quote from photographs. A quote stays open for 60 days from the date on it."),
    ("h", "2. Paying for your scaffold"),
    ("t", ["Quoted price of the job", "When you pay"], [
        ["Under £1,000", "The whole price on the day of handover"],
        ["£1,000–£4,999", "30% when you book, the rest within 14 days of handover"],
        ["£5,000 and over", "30% when you book, 50% at handover and 20% after dismantling"],
    ]),
    ("p", "Extra weeks, adaptation visits and alarms are invoiced every 4 weeks while the scaffold is on hire; the last "
          "invoice follows dismantling. Invoices are due within 14 days."),
    ("h", "3. Cancelling or moving the erection date"),
    ("t", ["Notice before the agreed erection date", "If you cancel", "If you move the date"], [
        ["More than 10 working days", "Free of charge; anything paid is refunded", "Free of charge"],
        ["5 to 10 working days", "£95 administration fee", "Free of charge"],
        ["2 to 4 working days", "25% of the scaffold price", "£95 rebooking fee"],
        ["Less than 2 working days", "50% of the scaffold price", "Charged as a cancellation"],
    ]),
    ("p", "Working days are Monday to Friday, bank holidays excepted. The erection date can be moved free of charge "
          "only once; a second move costs £95 however much notice you give. Once erection has started the whole "
          "scaffold price is due, and a scaffold taken down before its first 4 weeks are over is still charged for "
          "4 weeks."),
    ("p", "If we cannot erect on the agreed day because of gusts of 40 mph or more, snow or ice, we agree a new date "
          "with you free of charge, or you may cancel free of charge."),
    ("h", "4. Off-hire and dismantling"),
    ("p", "Ask us to off-hire the scaffold in writing (email is fine) at least 3 working days before you want it "
          "down. Hire runs until the day our crew dismantles the scaffold, not the day you ask."),
    ("h", "5. Aborted visits"),
    ("p", "Our crew waits up to 45 minutes at the site. If they still cannot start or finish because access is "
          "blocked, vehicles have not been moved or the site is not ready, the visit counts as aborted and we "
          "charge £175 for it."),
    ("h", "6. While the scaffold is up"),
    ("p", "Only our crews may alter or adapt the scaffold: never remove boards, ties, guard rails or ladders yourself. "
          "Keep the ladder guard locked and the alarm switched on outside working hours. Tell us about any damage "
          "within 24 hours. Components lost or damaged while the scaffold is on hire are charged under the Loss and "
          "Damage Charges schedule that applies on the day of the count at dismantling."),
    ("h", "7. Complaints"),
    ("p", "Write to the Contracts Manager at the Quarlby office. We reply within 7 working days."),
]


def _damage_blocks(version: str) -> list:
    if version == "2024":
        head = "Schedule LD-24 · Edition 2024 · Applies to counts made from 1 April 2024"
        charges = [["Steel tube", "per metre", "£5.00"], ["Coupler or fitting", "each", "£6.50"],
                   ["Scaffold board (3.9 m)", "each", "£24.00"], ["Toe board", "each", "£12.00"],
                   ["Ladder", "per metre", "£16.00"], ["Debris netting", "per m²", "£2.50"],
                   ["Alarm sensor", "each", "£120.00"]]
        handling = ("A handling charge is added to every loss and damage invoice: 10% of the component charges, "
                    "and never less than £25.")
        closing = "This schedule applies to every count made from 1 April 2024."
    else:
        head = "Schedule LD-26 · Edition 2026 · Applies to counts made from 2 February 2026"
        charges = [["Steel tube", "per metre", "£6.20"], ["Coupler or fitting", "each", "£8.00"],
                   ["Scaffold board (3.9 m)", "each", "£29.00"], ["Toe board", "each", "£14.00"],
                   ["Ladder", "per metre", "£19.00"], ["Debris netting", "per m²", "£3.00"],
                   ["Alarm sensor", "each", "£150.00"]]
        handling = ("A handling charge is added to every loss and damage invoice: 15% of the component charges, "
                    "and never less than £40.")
        closing = ("LD-26 applies to every count made on or after 2 February 2026, including counts for hires that "
                   "began before that date. From 2 February 2026 it supersedes Schedule LD-24, which is no longer "
                   "used.")
    return [
        ("p", head),
        ("h", "1. The count"),
        ("p", "When we dismantle, we count every component against the delivery note, with you or your representative "
              "present if you wish. Components that are missing, or damaged beyond repair, are charged at the rates "
              "in section 2. Normal wear and tear is never charged."),
        ("h", "2. Charges"),
        ("t", ["Component", "Unit", "Charge"], charges),
        ("h", "3. Handling charge"),
        ("p", handling),
        ("h", "4. Repairable damage"),
        ("p", "A component that can be repaired is charged at the cost of the repair, never more than its charge in "
              "section 2."),
        ("h", "5. Theft"),
        ("p", "If components are stolen while our alarm was switched on, and you give us a police crime reference "
              "number within 7 days, we waive the charge for the stolen components. Without both, stolen components "
              "are charged like lost ones."),
        ("h", "6. Reporting damage"),
        ("p", "Tell us about damage to the scaffold within 24 hours of finding it, and keep everyone off the damaged "
              "part until our crew has made it safe."),
        ("h", "7. Which schedule applies"),
        ("p", closing),
    ]


# staff_id, name, role, yard, contract, hours_per_week, start_date, card, inspector, first_aider
PW_STAFF = [
    ["PW01", "Graham Pellam", "Contracts Manager", "Quarlby", "Permanent", 39, "2004-03-01", "Advanced", "Yes", "Yes"],
    ["PW02", "Lorraine Wragg", "Office Administrator", "Quarlby", "Permanent", 30, "2012-06-11", "None", "No", "Yes"],
    ["PW03", "Stuart Helm", "Supervisor", "Quarlby", "Permanent", 39, "2008-09-15", "Advanced", "Yes", "Yes"],
    ["PW04", "Declan Moss", "Advanced Scaffolder", "Quarlby", "Permanent", 39, "2013-04-22", "Advanced", "Yes", "No"],
    ["PW05", "Ricky Ashdown", "Scaffolder", "Quarlby", "Permanent", 39, "2016-02-08", "Scaffolder", "Yes", "Yes"],
    ["PW06", "Owen Sallis", "Scaffolder", "Quarlby", "Permanent", 39, "2019-07-01", "Scaffolder", "No", "No"],
    ["PW07", "Jamie Prowse", "Scaffolder", "Quarlby", "Fixed-term", 39, "2024-05-13", "Scaffolder", "No", "Yes"],
    ["PW08", "Kyle Burdett", "Trainee Scaffolder", "Quarlby", "Apprentice", 39, "2024-09-02", "Trainee", "No", "No"],
    ["PW09", "Ellis Vane", "Trainee Scaffolder", "Quarlby", "Permanent", 39, "2019-10-14", "Trainee", "No", "Yes"],
    ["PW10", "Tommy Garside", "Labourer", "Quarlby", "Permanent", 39, "2018-01-15", "Labourer", "No", "No"],
    ["PW11", "Dariusz Lis", "Labourer", "Quarlby", "Agency", 30, "2025-08-04", "Labourer", "No", "No"],
    ["PW12", "Bridget Coyle", "Estimator", "Quarlby", "Permanent", 24, "2017-03-20", "None", "No", "No"],
    ["PW13", "Martin Yeo", "Wagon Driver", "Quarlby", "Permanent", 39, "2011-11-07", "None", "No", "No"],
    ["PW14", "Sean Cully", "Yard Operative", "Quarlby", "Permanent", 20, "2021-04-12", "None", "No", "Yes"],
    ["PW15", "Neil Frampton", "Supervisor", "Corland", "Permanent", 39, "2006-05-30", "Advanced", "Yes", "Yes"],
    ["PW16", "Aled Pryor", "Advanced Scaffolder", "Corland", "Permanent", 39, "2015-08-17", "Advanced", "Yes", "Yes"],
    ["PW17", "Callum Reddy", "Scaffolder", "Corland", "Permanent", 39, "2020-03-09", "Scaffolder", "Yes", "No"],
    ["PW18", "Luke Danvers", "Scaffolder", "Corland", "Permanent", 39, "2022-11-21", "Scaffolder", "No", "Yes"],
    ["PW19", "Harvey Tull", "Trainee Scaffolder", "Corland", "Apprentice", 39, "2025-01-06", "Trainee", "No", "No"],
    ["PW20", "Kwame Boateng", "Labourer", "Corland", "Permanent", 39, "2023-06-05", "Labourer", "No", "Yes"],
    ["PW21", "Shane Quigley", "Labourer", "Corland", "Permanent", 24, "2024-02-19", "Labourer", "No", "No"],
    ["PW22", "Fiona Marchbank", "Estimator", "Corland", "Permanent", 39, "2014-01-27", "Advanced", "Yes", "No"],
    ["PW23", "Wayne Ostler", "Wagon Driver", "Corland", "Permanent", 39, "2010-10-04", "None", "No", "Yes"],
]

# job_ref, customer, customer_type, site_town, height_m, length_m, band, loading_bay, discount, erect_date,
# dismantle_date, extra_weeks, scaffold_price_gbp, extra_hire_gbp, crew_leader, status
PW_JOBS = [
    ["PW-J01", "Hartwell Roofing", "Trade", "Quarlby", "6.5", 24, "B", "No", "Trade account", "2026-01-05", "2026-02-16", "2", "1015.68", "144.00", "PW05", "Dismantled"],
    ["PW-J02", "Mrs Penhaligon", "Domestic", "Mossgill", "3.8", 14, "A", "No", "None", "2026-01-06", "2026-02-03", "0", "480.00", "0.00", "PW06", "Dismantled"],
    ["PW-J03", "Brackenholt Village Hall", "Community", "Brackenholt", "7.8", 18, "C", "No", "Community", "2026-01-07", "2026-02-25", "3", "1004.40", "216.00", "PW04", "Dismantled"],
    ["PW-J04", "Coldharbour Construction", "Trade", "Sallowby", "12.5", 30, "D", "Yes", "Trade account", "2026-01-08", "", "", "2318.40", "", "PW03", "On hire"],
    ["PW-J05", "Mr Okoro", "Domestic", "Corland", "6.0", 11, "B", "No", "None", "2026-01-09", "2026-02-06", "0", "506.00", "0.00", "PW17", "Dismantled"],
    ["PW-J06", "Greystone Lofts", "Trade", "Fennick Cross", "9.5", 22, "C", "Yes", "Trade account", "2026-01-12", "2026-02-20", "2", "1254.88", "176.00", "PW16", "Dismantled"],
    ["PW-J07", "Mrs Ibbotson", "Domestic", "Orrin Vale", "5.2", 9, "B", "No", "Repeat customer", "2026-01-13", "2026-02-10", "0", "480.00", "0.00", "PW18", "Dismantled"],
    ["PW-J08", "Mr and Mrs Chalk", "Domestic", "Stannerton", "6.8", 16, "B", "No", "None", "2026-01-14", "", "", "736.00", "", "PW05", "Cancelled"],
    ["PW-J09", "Wicklade Roofing", "Trade", "Wicklade", "7.0", 20, "B", "No", "Trade account", "2026-01-15", "2026-02-18", "1", "846.40", "60.00", "PW07", "Dismantled"],
    ["PW-J10", "Mr Varga", "Domestic", "Quarlby", "4.0", 12, "A", "No", "None", "2026-01-19", "2026-02-27", "2", "480.00", "48.00", "PW06", "Dismantled"],
    ["PW-J11", "Orrin Vale Community Centre", "Community", "Orrin Vale", "8.4", 26, "C", "No", "Community", "2026-01-20", "", "", "1450.80", "", "PW15", "On hire"],
    ["PW-J12", "Mrs Greatorex", "Domestic", "Mossgill", "6.2", 13, "B", "No", "Repeat customer", "2026-01-21", "2026-02-18", "0", "568.10", "0.00", "PW17", "Dismantled"],
    ["PW-J13", "Felgate Homes", "Trade", "Stannerton", "13.6", 40, "D", "Yes", "Trade account", "2026-01-22", "", "", "3091.20", "", "PW03", "On hire"],
    ["PW-J14", "Mr Tranter", "Domestic", "Corland", "5.5", 15, "B", "No", "None", "2026-01-26", "", "", "690.00", "", "PW18", "Cancelled"],
    ["PW-J15", "1st Sallowby Scout Group", "Community", "Sallowby", "3.5", 10, "A", "No", "Community", "2026-01-27", "2026-02-24", "0", "480.00", "0.00", "PW07", "Dismantled"],
    ["PW-J16", "Kestle and Daughters Builders", "Trade", "Fennick Cross", "7.6", 19, "C", "No", "Trade account", "2026-01-28", "", "", "1083.76", "", "PW05", "On hire"],
    ["PW-J17", "Mr Ashe", "Domestic", "Brackenholt", "6.6", 17, "B", "No", "None", "2026-01-29", "2026-02-26", "0", "782.00", "0.00", "PW05", "Dismantled"],
    ["PW-J18", "Mrs Lindgren", "Domestic", "Quarlby", "9.0", 14, "C", "No", "Repeat customer", "2026-02-02", "", "", "824.60", "", "PW04", "On hire"],
    ["PW-J19", "Brackenholt Parish Church", "Community", "Brackenholt", "11.8", 28, "D", "No", "Community", "2026-02-03", "", "", "2116.80", "", "PW16", "On hire"],
    ["PW-J20", "Mr Hussain", "Domestic", "Wicklade", "6.4", 12, "B", "No", "None", "2026-02-04", "", "", "552.00", "", "PW17", "Cancelled"],
    ["PW-J21", "Trevane Roofing", "Trade", "Mossgill", "5.8", 21, "B", "No", "Trade account", "2026-02-09", "", "", "888.72", "", "PW06", "On hire"],
    ["PW-J22", "Ms Oduya", "Domestic", "Orrin Vale", "3.9", 16, "A", "No", "None", "2026-02-10", "", "", "512.00", "", "PW17", "On hire"],
    ["PW-J23", "Pellow Developments", "Trade", "Sallowby", "8.8", 35, "C", "Yes", "Trade account", "2026-02-16", "", "", "1996.40", "", "PW15", "On hire"],
    ["PW-J24", "Mr Crabtree", "Domestic", "Stannerton", "6.9", 18, "B", "No", "Repeat customer", "2026-02-18", "", "", "786.60", "", "PW18", "On hire"],
    ["PW-J25", "Mrs Fairbairn", "Domestic", "Fennick Cross", "7.4", 15, "C", "No", "None", "2026-03-04", "", "", "930.00", "", "PW05", "Booked"],
    ["PW-J26", "Wicklade Village Hall", "Community", "Wicklade", "6.0", 20, "B", "No", "Community", "2026-03-05", "", "", "828.00", "", "PW07", "Booked"],
    ["PW-J27", "Coldharbour Construction", "Trade", "Corland", "13.9", 32, "D", "Yes", "Trade account", "2026-03-09", "", "", "2472.96", "", "PW16", "Booked"],
    ["PW-J28", "Mr Quarrington", "Domestic", "Mossgill", "5.0", 10, "B", "No", "None", "2026-03-10", "", "", "480.00", "", "PW06", "Cancelled"],
    ["PW-J29", "Mrs Abernethy", "Domestic", "Quarlby", "6.3", 14, "B", "No", "Repeat customer", "2026-03-12", "", "", "611.80", "", "PW06", "Booked"],
    ["PW-J30", "Hartwell Roofing", "Trade", "Brackenholt", "9.8", 24, "C", "No", "Trade account", "2026-03-16", "", "", "1368.96", "", "PW04", "Booked"],
]


def build() -> None:
    FS.mkdir(parents=True, exist_ok=True)
    PW.mkdir(parents=True, exist_ok=True)

    write_text(FS / "作业服务价目表（2025-2026年度）.html", FS_PRICES_HTML)
    write_text(FS / "员工管理与补贴办法.md", FS_STAFF_MD)
    write_docx(FS / "农机作业服务约定与退费规定.docx", "丰穗合作社 农机作业服务约定与退费规定", FS_TERMS)
    write_pdf(FS / "农机具出租管理办法（2023版）.pdf", "丰穗合作社 农机具出租管理办法（2023版）", _rental_blocks("2023"))
    write_pdf(FS / "农机具出租管理办法（2025版）.pdf", "丰穗合作社 农机具出租管理办法（2025版）", _rental_blocks("2025"))
    write_csv(FS / "员工名册.csv",
              ["工号", "姓名", "岗位", "班组", "入职日期", "累计工作年限", "拖拉机驾驶证", "收割机驾驶证", "无人机执照", "用工形式"],
              FS_STAFF)
    write_csv(FS / "作业记录.csv",
              ["单号", "日期", "村", "农户", "社员", "作业项目", "地形", "倒伏超三成", "数量", "单位", "含水率(%)", "单价(元)",
               "金额(元)", "作业人员", "状态", "备注"],
              FS_JOBS)

    write_text(PW / "Price_List_2026.html", PW_PRICES_HTML)
    write_text(PW / "Employee_Handbook.md", PW_HANDBOOK_MD)
    write_docx(PW / "Hire_Terms_and_Cancellation.docx", "Pellam & Wragg Scaffolding — Terms of Hire and Cancellation",
               PW_TERMS)
    write_pdf(PW / "Loss_and_Damage_Charges_2024.pdf", "Pellam & Wragg Scaffolding — Loss and Damage Charges 2024",
              _damage_blocks("2024"))
    write_pdf(PW / "Loss_and_Damage_Charges_2026.pdf", "Pellam & Wragg Scaffolding — Loss and Damage Charges 2026",
              _damage_blocks("2026"))
    write_csv(PW / "staff.csv", ["staff_id", "name", "role", "yard", "contract", "hours_per_week", "start_date", "card",
                                 "inspector", "first_aider"], PW_STAFF)
    write_csv(PW / "jobs.csv", ["job_ref", "customer", "customer_type", "site_town", "height_m", "length_m", "band",
                                "loading_bay", "discount", "erect_date", "dismantle_date", "extra_weeks",
                                "scaffold_price_gbp", "extra_hire_gbp", "crew_leader", "status"], PW_JOBS)


if __name__ == "__main__":
    build()
