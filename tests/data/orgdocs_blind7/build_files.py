"""Build the seventh blind report set of organisational documents (tests/data/orgdocs_blind7/, CC0).

    python tests/data/orgdocs_blind7/build_files.py

Writes every file of the two fictional organisations (luyuan-logistics, wrenhaven-marina) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind6/build_files.py (only AUTHOR differs).

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
AUTHOR = "orgdocs_blind7"


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
# 鹭原仓储物流有限公司 (luyuan-logistics), 潮溪市
# ----------------------------------------------------------------------------------------------

LY = HERE / "luyuan-logistics"

LY_FEES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>鹭原仓储物流有限公司 仓储与配送收费标准（2026年）</title>
</head>
<body>
<h1>鹭原仓储物流有限公司 仓储与配送收费标准（2026年）</h1>
<p>发布：客服部　发布日期：2025年12月20日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本标准适用于东港常温仓（潮溪市东港区港前路66号）、西岭冷链仓（潮溪市西岭镇冷库路8号）和北站中转仓（北站物流园C区12号库）。金额单位为人民币元，均含增值税。</p>

<h2>一、仓储费与装卸费</h2>
<table border="1">
<thead>
<tr><th>货物类别</th><th>存放仓库</th><th>仓储费（元/托盘/天）</th><th>入库装卸费（元/托盘）</th><th>出库装卸费（元/托盘）</th></tr>
</thead>
<tbody>
<tr><td>常温普货</td><td>东港常温仓、北站中转仓</td><td>1.8</td><td>12</td><td>12</td></tr>
<tr><td>恒温货物（15–25℃）</td><td>东港常温仓</td><td>3.2</td><td>15</td><td>15</td></tr>
<tr><td>冷藏货物（0–4℃）</td><td>西岭冷链仓</td><td>6.5</td><td>20</td><td>20</td></tr>
<tr><td>冷冻货物（-18℃及以下）</td><td>西岭冷链仓</td><td>8</td><td>25</td><td>25</td></tr>
</tbody>
</table>
<p>标准托盘为1.2米×1.0米，货物码放高度不超过1.5米、重量不超过1吨。超高或超重的托盘按1.5个托盘计费。仓储费按自然日计算，入库当天计1天，出库当天不计。每个客户每月仓储费最低收费500元，不足500元的按500元收取。本公司不接收危险化学品、易燃易爆物品和活体动物。</p>

<h2>二、仓储费折扣</h2>
<table border="1">
<thead>
<tr><th>月均在库托盘数</th><th>仓储费折扣</th></tr>
</thead>
<tbody>
<tr><td>不足200托盘</td><td>无折扣</td></tr>
<tr><td>200–499托盘</td><td>9折</td></tr>
<tr><td>500托盘及以上</td><td>85折</td></tr>
</tbody>
</table>
<p>折扣只适用于仓储费，装卸费和配送费不打折。冷藏货物和冷冻货物最多按9折计算，月均在库500托盘及以上的也按9折。新签订年度合同的客户，合同第一个月的仓储费减半收取；减半与上表折扣不同时享受，按对客户有利的一项计算。</p>

<h2>三、配送费</h2>
<table border="1">
<thead>
<tr><th>运输距离（仓库至收货地址）</th><th>4.2米厢式货车（元/车次）</th><th>7.6米厢式货车（元/车次）</th><th>4.2米冷藏车（元/车次）</th><th>7.6米冷藏车（元/车次）</th></tr>
</thead>
<tbody>
<tr><td>20公里以内（含20公里）</td><td>260</td><td>420</td><td>380</td><td>600</td></tr>
<tr><td>20–50公里（含50公里）</td><td>380</td><td>600</td><td>560</td><td>860</td></tr>
<tr><td>50–100公里（含100公里）</td><td>560</td><td>880</td><td>820</td><td>1260</td></tr>
<tr><td>100公里以上</td><td>5.6元/公里</td><td>8.8元/公里</td><td>8.2元/公里</td><td>12.6元/公里</td></tr>
</tbody>
</table>
<p>运输距离按导航软件推荐路线的单程公里数计算；100公里以上的，按全程单程公里数乘以每公里单价计算。需要9.6米车型的，按同类7.6米车型的价格上浮30%收取。</p>
<p>附加费：（一）夜间配送（22:00至次日6:00之间从仓库发车）加收配送费的20%；（二）法定节假日当天配送加收配送费的30%；夜间配送与节假日配送同时发生的，只按节假日加收30%，不叠加；（三）同一车次多点卸货的，从第2个卸货点起每个卸货点加收50元；（四）因收货方原因在卸货地等待超过2小时的，超出部分每小时加收80元，不足1小时按1小时计；（五）送货上楼的，有电梯的每托盘加收30元；无电梯的每托盘加收60元，只送到三楼及以下，四楼及以上不提供送货上楼服务。</p>
<p>年度合同客户当月配送满30车次的，当月配送费（不含附加费）按95折结算。</p>

<h2>四、增值服务</h2>
<table border="1">
<thead>
<tr><th>服务项目</th><th>收费标准</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>贴标、换标</td><td>0.3元/件</td><td>标签由客户提供</td></tr>
<tr><td>拆零拣货</td><td>0.5元/件</td><td>按出库件数计算</td></tr>
<tr><td>缠绕膜加固</td><td>8元/托盘</td><td></td></tr>
<tr><td>木托盘租用</td><td>0.6元/托盘/天</td><td>随货出库不归还的，按每个60元收取</td></tr>
<tr><td>退货清点与重新上架</td><td>3元/件</td><td></td></tr>
<tr><td>客户要求的临时盘点</td><td>200元/次</td><td>每季度第1次免费</td></tr>
</tbody>
</table>

<footer>鹭原仓储物流有限公司 客服部　潮溪市东港区港前路66号　客服热线：8830 6600</footer>
</body>
</html>
"""

LY_STAFF_MD = """
# 鹭原仓储物流有限公司 员工排班与津贴办法

文件编号：鹭原综〔2025〕9号　施行日期：2025年9月1日　发布：综合部

## 一、总则

第一条　本办法适用于公司总部和东港常温仓、西岭冷链仓、北站中转仓的全体员工。驾驶员的出车补贴和安全奖惩另按《驾驶员出车补贴与安全奖惩办法》执行。

第二条　各仓库实行三班制。仓库主管于每周四前公布下一周的排班表。

## 二、班次

第三条　班次时间如下：

| 班次 | 时间 | 适用范围 |
|---|---|---|
| 早班 | 6:00–14:00 | 各仓库 |
| 中班 | 14:00–22:00 | 各仓库 |
| 夜班 | 22:00至次日6:00 | 各仓库 |
| 行政班 | 8:30–17:30（中午休息1小时） | 公司总部 |

第四条　夜班只安排员工名册中“夜班”登记为“是”的人员。每人每月夜班不超过10个，连续夜班不超过5个。实习人员和怀孕、哺乳期女员工不安排夜班。

第五条　驾驶叉车须持有有效的叉车证（特种设备作业人员证）。员工名册中“叉车证”登记为“无”的人员一律不得驾驶叉车，仓库繁忙时临时顶岗的理货员也不例外。

## 三、津贴

第六条　津贴标准如下：

| 岗位 | 夜班津贴（元/班） | 冷库作业津贴（元/天） | 高温津贴（元/月） |
|---|---|---|---|
| 仓管员 | 50 | 40 | 300 |
| 叉车司机 | 60 | 45 | 300 |
| 理货员 | 45 | 40 | 300 |
| 驾驶员、调度员 | 40 | 30 | 300 |
| 客服专员、行政人员 | 30 | 不发放 | 150 |

第七条　冷库作业津贴发放给当天在冷冻库（-18℃及以下）内累计作业满2小时的员工；在冷藏库（0–4℃）内累计作业满2小时的，按上表标准的一半发放。

第八条　高温津贴的发放期间为每年6月1日至9月30日，按月发放；当月出勤不满10天的，按一半发放。实习人员只享受高温津贴的一半，不享受其他津贴。

第九条　法定节假日当班的，除按规定支付加班工资外，每班另发节日补助100元；春节（除夕至正月初三）当班的，每班另发200元，不再发100元的节日补助。

## 四、加班

第十条　加班须经仓库主管批准。工作日延长工作时间的，按小时工资的150%支付；休息日加班且不能安排补休的，按200%支付；法定节假日加班的，按300%支付。

## 五、年休假

第十一条　员工的年休假由法定年休假和司龄奖励假两部分组成。法定年休假按累计工作年限确定：

| 累计工作年限 | 法定年休假 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满10年 | 5天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |

司龄奖励假按在本公司的工作年限（司龄）确定：

| 司龄 | 司龄奖励假 |
|---|---|
| 不满5年 | 0天 |
| 满5年不满10年 | 1天 |
| 满10年及以上 | 2天 |

累计工作年限以员工名册登记的为准（名册登记的是截至当年1月1日已满的整年数）；司龄按员工名册中的入职日期计算，也以截至当年1月1日已满的整年数为准。实习人员不享受年休假。劳务派遣人员的年休假由派遣单位安排，本公司不另给司龄奖励假。

第十二条　年休假须提前5个工作日申请。每年11月至次年1月为仓储旺季，仓储部员工原则上不安排年休假。当年未休完的年休假，最多可以结转3天到次年第一季度使用。

## 六、附则

第十三条　本办法由综合部负责解释，自2025年9月1日起施行。综合部电话：8830 6601。
"""

LY_SERVICE = [
    ("p", "文件编号：鹭原客〔2025〕6号　施行日期：2025年10月1日　发布：客服部"),
    ("h", "一、入库预约"),
    ("p", "客户送货入库，须提前在“鹭原云仓”客户平台或通过客服热线8830 6600预约。未经预约到仓的车辆，仓库在当天有空余卸货时段时安排卸货，每车加收临时卸货费100元。"),
    ("t", ["货物类别", "预约截止时间", "卸货时限", "迟到处理"], [
        ["常温普货、恒温货物", "送货前1天16:00", "到仓后2小时内卸完", "迟到超过1小时的，安排到当天空余时段"],
        ["冷藏货物、冷冻货物", "送货前1天12:00", "到仓后1小时内卸完", "迟到超过30分钟的，须重新预约"],
        ["20尺集装箱", "送货前2天16:00", "3小时", "迟到超过1小时的，安排到当天空余时段"],
        ["40尺集装箱", "送货前2天16:00", "4小时", "迟到超过1小时的，安排到当天空余时段"],
    ]),
    ("p", "因客户货物混装、没有装箱单等原因超出卸货时限的，超出部分每小时收取150元。"),
    ("h", "二、出库与签收"),
    ("p", "出库指令须在发货前1天18:00前提交；发货当天提交的加急出库指令，每单加收50元。收货人应当场清点并签收；冷链货物须同时核对随车温度记录。"),
    ("h", "三、货损与丢失赔偿"),
    ("t", ["情形", "赔偿标准", "每托盘赔偿上限"], [
        ["因本公司原因造成货物破损", "按货物实际价值赔偿", "5000元"],
        ["在库或运输途中货物丢失", "按货物实际价值赔偿", "8000元"],
        ["冷链货物温度超出约定范围", "按受损货物实际价值赔偿", "6000元"],
    ]),
    ("p", "客户可以为货物办理保价，保价费为申报价值的0.3%，每票最低20元。办理了保价的货物按申报价值全额赔偿，不受每托盘赔偿上限的限制。"),
    ("p", "下列情形本公司不承担赔偿责任：（一）不可抗力；（二）货物包装不符合运输要求，或客户自行装卸造成的损失；（三）客户未如实申报货物品名或价值的；（四）货物的自然损耗在合同约定的损耗率以内的。"),
    ("h", "四、配送延误"),
    ("t", ["延误时间（超过约定送达时间）", "处理"], [
        ["2小时以内", "不减免"],
        ["超过2小时不满12小时", "减免该车次配送费的30%"],
        ["12小时至24小时", "减免该车次配送费的50%"],
        ["超过24小时", "免收该车次配送费"],
    ]),
    ("p", "因交通管制、恶劣天气等不可抗力造成的延误，不减免配送费。"),
    ("h", "五、理赔时限"),
    ("p", "理赔申请须在签收后3天内提出；冷链货物须在签收后24小时内提出。赔偿金额在5000元以下的，公司在确认后10个工作日内支付；5000元及以上的，在20个工作日内支付。"),
    ("h", "六、结算"),
    ("p", "月结客户应在次月15日前付清上月费用。逾期的，每逾期1天按未付金额的0.05%收取滞纳金。"),
]


def _driver_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：鹭原运〔2024〕3号　版本：2024版　施行日期：2024年4月1日　发布：运输部"
        trip = [
            ["100公里以内（含100公里）", "40", "不发放"],
            ["100–300公里（含300公里）", "80", "150"],
            ["300公里以上", "120", "180"],
        ]
        monthly, fatigue, annual = "300", "200", "2000"
        closing = "本办法由运输部负责解释，自2024年4月1日起施行。"
    else:
        head = "文件编号：鹭原运〔2026〕1号　版本：2026版　施行日期：2026年1月1日　发布：运输部"
        trip = [
            ["100公里以内（含100公里）", "50", "不发放"],
            ["100–300公里（含300公里）", "100", "180"],
            ["300公里以上", "150", "220"],
        ]
        monthly, fatigue, annual = "400", "300", "2500"
        closing = ("本办法由运输部负责解释，自2026年1月1日起施行，"
                   "《驾驶员出车补贴与安全奖惩办法（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本办法适用于公司运输部的全体驾驶员，包括劳务派遣驾驶员。"),
        ("h", "第二条　出车补贴和住宿补贴"),
        ("p", "驾驶员出车的，按单程运输距离发放出车补贴；需要在外过夜的，另发住宿补贴（金额单位：元）："),
        ("t", ["单程运输距离", "出车补贴（元/天）", "住宿补贴（元/晚）"], trip),
        ("p", "当天往返的不发住宿补贴。驾驶冷藏车出车的，出车补贴每天另加20元。夜间（22:00至次日6:00）从仓库发车的，出车补贴每天另加30元。"),
        ("h", "第三条　安全驾驶"),
        ("p", "驾驶员连续驾驶不得超过4小时，每次停车休息不少于20分钟。出车前须检查车辆和随车温度记录仪，冷藏车须提前30分钟开机预冷。"),
        ("h", "第四条　月度安全奖惩"),
        ("t", ["项目", "奖励或扣款"], [
            ["当月无违章、无事故", f"奖励{monthly}元"],
            ["超速（每次）", "扣款100元"],
            ["闯红灯（每次）", "扣款200元"],
            ["疲劳驾驶（每次）", f"扣款{fatigue}元"],
            ["负主要责任及以上的交通事故", "扣发当月安全奖，并承担损失的10%，最高3000元"],
        ]),
        ("h", "第五条　年度安全奖"),
        ("p", f"全年（1月至12月）无责任事故的驾驶员，年终发放年度安全奖{annual}元。试用期内的驾驶员和劳务派遣驾驶员不享受月度和年度安全奖，违章扣款照常执行。"),
        ("h", "第六条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 部门, 岗位, 所属仓库, 入职日期, 累计工作年限, 叉车证, 夜班, 用工形式
LY_STAFF = [
    ["LY01", "黄启明", "仓储部", "仓管员", "东港常温仓", "2012-03-19", 22, "有", "否", "正式"],
    ["LY02", "陈美玲", "仓储部", "仓管员", "西岭冷链仓", "2016-07-04", 15, "无", "是", "正式"],
    ["LY03", "吴海生", "仓储部", "叉车司机", "东港常温仓", "2019-05-13", 9, "有", "是", "正式"],
    ["LY04", "赵立峰", "仓储部", "叉车司机", "东港常温仓", "2021-09-01", 6, "有", "是", "正式"],
    ["LY05", "钱俊", "仓储部", "叉车司机", "西岭冷链仓", "2017-11-20", 13, "有", "是", "正式"],
    ["LY06", "孙红霞", "仓储部", "叉车司机", "北站中转仓", "2023-04-10", 4, "有", "是", "劳务派遣"],
    ["LY07", "李卫东", "仓储部", "叉车司机", "北站中转仓", "2014-06-16", 26, "有", "否", "正式"],
    ["LY08", "周晓燕", "仓储部", "理货员", "东港常温仓", "2022-02-21", 3, "无", "否", "正式"],
    ["LY09", "冯志刚", "仓储部", "理货员", "东港常温仓", "2024-08-05", 1, "无", "是", "劳务派遣"],
    ["LY10", "蒋丽", "仓储部", "理货员", "西岭冷链仓", "2020-10-12", 11, "无", "是", "正式"],
    ["LY11", "沈浩然", "仓储部", "理货员", "西岭冷链仓", "2025-07-01", 0, "无", "否", "实习"],
    ["LY12", "韩雪", "仓储部", "理货员", "北站中转仓", "2018-03-26", 8, "有", "是", "正式"],
    ["LY13", "杨志远", "仓储部", "仓管员", "北站中转仓", "2010-05-04", 19, "有", "否", "正式"],
    ["LY14", "朱建华", "运输部", "驾驶员", "东港常温仓", "2015-04-07", 24, "无", "是", "正式"],
    ["LY15", "秦永强", "运输部", "驾驶员", "东港常温仓", "2019-08-19", 12, "无", "是", "正式"],
    ["LY16", "尤金龙", "运输部", "驾驶员", "西岭冷链仓", "2013-01-14", 30, "无", "是", "正式"],
    ["LY17", "许文斌", "运输部", "驾驶员", "西岭冷链仓", "2022-06-06", 7, "无", "是", "正式"],
    ["LY18", "何勇", "运输部", "驾驶员", "北站中转仓", "2024-03-18", 5, "无", "否", "劳务派遣"],
    ["LY19", "吕大伟", "运输部", "驾驶员", "北站中转仓", "2011-10-10", 27, "无", "否", "正式"],
    ["LY20", "施晓峰", "运输部", "调度员", "公司总部", "2016-03-01", 14, "无", "是", "正式"],
    ["LY21", "张倩", "运输部", "调度员", "公司总部", "2020-05-18", 6, "无", "是", "正式"],
    ["LY22", "孔德明", "客服部", "客服专员", "公司总部", "2018-09-03", 10, "无", "否", "正式"],
    ["LY23", "曹雨欣", "客服部", "客服专员", "公司总部", "2023-03-13", 2, "无", "否", "正式"],
    ["LY24", "严佳慧", "客服部", "客服专员", "公司总部", "2025-09-15", 0, "无", "否", "实习"],
    ["LY25", "华秀兰", "综合部", "行政人员", "公司总部", "2009-07-01", 31, "无", "否", "正式"],
    ["LY26", "金鹏", "综合部", "行政人员", "公司总部", "2021-11-08", 9, "无", "否", "正式"],
    ["LY27", "魏振宇", "仓储部", "仓管员", "东港常温仓", "2025-03-03", 2, "无", "否", "正式"],
    ["LY28", "陶春梅", "仓储部", "理货员", "北站中转仓", "2017-04-24", 20, "无", "是", "正式"],
]

# 编号, 类别, 车型, 核定载重(吨), 所属仓库, 冷链, 购置年份, 购置金额(元), 状态
LY_FLEET = [
    ["CL01", "货车", "4.2米厢式货车", 1.5, "东港常温仓", "否", 2021, 128000, "在用"],
    ["CL02", "货车", "4.2米厢式货车", 1.5, "东港常温仓", "否", 2022, 132000, "在用"],
    ["CL03", "货车", "7.6米厢式货车", 10, "东港常温仓", "否", 2019, 268000, "在用"],
    ["CL04", "货车", "7.6米厢式货车", 10, "东港常温仓", "否", 2016, 235000, "停用"],
    ["CL05", "货车", "9.6米厢式货车", 15, "北站中转仓", "否", 2020, 356000, "在用"],
    ["CL06", "货车", "7.6米厢式货车", 10, "北站中转仓", "否", 2023, 289000, "维修中"],
    ["CL07", "货车", "4.2米厢式货车", 1.5, "北站中转仓", "否", 2018, 118000, "在用"],
    ["CL08", "货车", "4.2米冷藏车", 1.5, "西岭冷链仓", "是", 2022, 215000, "在用"],
    ["CL09", "货车", "4.2米冷藏车", 1.5, "西岭冷链仓", "是", 2024, 228000, "在用"],
    ["CL10", "货车", "7.6米冷藏车", 8, "西岭冷链仓", "是", 2020, 398000, "在用"],
    ["CL11", "货车", "7.6米冷藏车", 8, "西岭冷链仓", "是", 2017, 352000, "维修中"],
    ["CL12", "货车", "9.6米冷藏车", 12, "西岭冷链仓", "是", 2025, 486000, "在用"],
    ["CL13", "叉车", "3吨内燃叉车", 3, "东港常温仓", "否", 2019, 86000, "在用"],
    ["CL14", "叉车", "3吨内燃叉车", 3, "东港常温仓", "否", 2015, 72000, "停用"],
    ["CL15", "叉车", "2.5吨电动叉车", 2.5, "东港常温仓", "否", 2023, 98000, "在用"],
    ["CL16", "叉车", "2吨电动前移式叉车", 2, "东港常温仓", "否", 2021, 165000, "在用"],
    ["CL17", "叉车", "2.5吨电动叉车（冷库型）", 2.5, "西岭冷链仓", "是", 2022, 118000, "在用"],
    ["CL18", "叉车", "2吨电动前移式叉车（冷库型）", 2, "西岭冷链仓", "是", 2024, 196000, "在用"],
    ["CL19", "叉车", "2吨电动前移式叉车（冷库型）", 2, "西岭冷链仓", "是", 2019, 172000, "维修中"],
    ["CL20", "叉车", "3吨内燃叉车", 3, "北站中转仓", "否", 2020, 82000, "在用"],
    ["CL21", "叉车", "3.5吨内燃叉车", 3.5, "北站中转仓", "否", 2024, 95000, "在用"],
    ["CL22", "叉车", "2.5吨电动叉车", 2.5, "北站中转仓", "否", 2019, 88000, "维修中"],
    ["CL23", "叉车", "1.5吨电动搬运车", 1.5, "北站中转仓", "否", 2025, 26000, "在用"],
    ["CL24", "叉车", "1.5吨电动搬运车（冷库型）", 1.5, "西岭冷链仓", "是", 2023, 28000, "在用"],
]


# ----------------------------------------------------------------------------------------------
# Wrenhaven Marina (wrenhaven-marina), Wrenhaven, on the River Tave
# ----------------------------------------------------------------------------------------------

WM = HERE / "wrenhaven-marina"

WM_TARIFF_HTML = """
<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Wrenhaven Marina — Visitor Berthing Tariff 2026</title>
</head>
<body>
<h1>Wrenhaven Marina — Visitor Berthing Tariff 2026</h1>
<p>Valid from 1 January to 31 December 2026. All prices include VAT. Wrenhaven Marina Ltd, Quay Road, Wrenhaven, on
the River Tave. Please call the marina office on VHF channel 80 or on 01632 741 300 before you enter.</p>

<h2>1. Visitor berthing</h2>
<table border="1">
<thead>
<tr><th>Length overall (LOA)</th><th>Short stay (up to 4 hours, 09:00–17:00)</th><th>Per night</th><th>7 nights</th></tr>
</thead>
<tbody>
<tr><td>Up to 8.00 m</td><td>£12</td><td>£28</td><td>£168</td></tr>
<tr><td>8.01–10.00 m</td><td>£15</td><td>£36</td><td>£216</td></tr>
<tr><td>10.01–12.00 m</td><td>£18</td><td>£44</td><td>£264</td></tr>
<tr><td>12.01–15.00 m</td><td>£24</td><td>£58</td><td>£348</td></tr>
<tr><td>Over 15.00 m</td><td>£30</td><td>£4.40 per metre</td><td>£26.40 per metre</td></tr>
</tbody>
</table>
<p>LOA is measured including bowsprits, davits, outboard brackets and anything else that sticks out. The 7-night rate
is for 7 consecutive nights paid on arrival (you pay for 6 nights). Multihulls pay 50% more than the rates above. A
short stay that turns into an overnight stay is charged the nightly rate only; the short-stay fee is deducted.</p>
<p>Discounts: members of the Tave Estuary Yacht Club and of Pennock Sailing Club get 20% off the nightly and 7-night
rates, except in July and August; the club discount never applies to short stays. From 1 November to 31 March all
nightly and 7-night rates are 30% lower (winter rates). Discounts are never added together: you get whichever is
larger. Discounts apply to berthing fees only, not to shore power or to the services below.</p>
<p>No charge is made for RNLI lifeboats or harbour authority craft. A boat that comes in for shelter while a gale
warning is in force for our coastal waters pays nothing for its first night; any further nights are charged as
usual.</p>
<p>Shore power is included for boats up to 12.00 m LOA. Boats over 12.00 m pay £5 a night for shore power.</p>

<h2>2. Services and extras</h2>
<table border="1">
<thead>
<tr><th>Service</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Diesel</td><td>£1.42 per litre</td><td>Fuel berth at the head of pontoon A</td></tr>
<tr><td>Petrol</td><td>£1.65 per litre</td><td>Into approved cans of up to 20 litres only</td></tr>
<tr><td>Holding-tank pump-out</td><td>£15</td><td>Free for annual berth holders</td></tr>
<tr><td>Laundry</td><td>£5 per wash or dry</td><td>Tokens from the marina office</td></tr>
<tr><td>Car parking</td><td>Free for 3 days, then £6 per day</td><td>Quay Road car park</td></tr>
<tr><td>Water taxi to the Gull Reach moorings</td><td>£4 per person each way</td><td>08:00–20:00; children under 12 free</td></tr>
<tr><td>Gas bottle exchange (4.5 kg butane)</td><td>£38</td><td>Marina office</td></tr>
<tr><td>Wi-Fi</td><td>Free</td><td>Password from the marina office</td></tr>
</tbody>
</table>
<p>Showers and toilets are free for everyone with a berth; the door code changes every Monday.</p>

<h2>3. Pontoons and moorings</h2>
<table border="1">
<thead>
<tr><th>Pontoon</th><th>Berths</th><th>Maximum LOA</th><th>Depth at low water</th><th>Shore power</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>A</td><td>24</td><td>10 m</td><td>1.8 m</td><td>16 A</td><td>Fuel berth at the head</td></tr>
<tr><td>B</td><td>30</td><td>12 m</td><td>2.2 m</td><td>16 A</td><td>Liveaboard berths allowed</td></tr>
<tr><td>C</td><td>22</td><td>15 m</td><td>2.5 m</td><td>32 A</td><td>Visitor berths at the outer end</td></tr>
<tr><td>D</td><td>12</td><td>20 m</td><td>3.0 m</td><td>32 A and 63 A</td><td>Deep water; multihulls wider than 6 m; liveaboard berths allowed</td></tr>
<tr><td>Gull Reach moorings</td><td>20</td><td>12 m</td><td>1.5 m</td><td>None</td><td>Swinging moorings; water taxi</td></tr>
</tbody>
</table>
<p>The marina office is open 08:00–18:00 from April to September and 09:00–17:00 from October to March. Visitors
arriving while the office is closed may take any free visitor berth on pontoon C and pay at the office before 10:00
the next morning.</p>

<footer>Wrenhaven Marina Ltd · Quay Road, Wrenhaven · 01632 741 300 · VHF channel 80</footer>
</body>
</html>
"""

WM_HANDBOOK_MD = """
# Wrenhaven Marina — Berth Holder Handbook

Edition 2025 · Issued by the marina office on 1 March 2025

## 1. Getting in and out

The gate code changes on the first day of each month and is emailed to every berth holder. The entrance channel has
1.2 m of water at the lowest tides; boats drawing more than 1.8 m should enter or leave within 3 hours either side of
high water.

## 2. Boatyard at Quarry Hard

| LOA | Lift-out and relaunch (pressure wash included) | Hardstanding per week | Mast unstepping or stepping (each) |
|---|---|---|---|
| Up to 8.00 m | £190 | £38 | £60 |
| 8.01–10.00 m | £260 | £48 | £75 |
| 10.01–12.00 m | £340 | £62 | £90 |
| 12.01–15.00 m | £450 | £80 | £120 |
| Over 15.00 m | By quotation | By quotation | By quotation |

Annual berth holders get 15% off all boatyard prices. Multihulls pay 50% more for a lift-out and relaunch, because
they need the wide slings. A lift on a Saturday or Sunday costs an extra £80. The travel hoist lifts boats of up to
25 tonnes and up to 15 m LOA; heavier or longer boats are lifted by a mobile crane, quoted separately.

Annual berth holders' boats may stay on the hardstanding free of charge for up to 6 weeks between 1 November and
31 March (winter lay-up). After the 6 weeks, the weekly hardstanding rate applies, with the 15% berth holder
discount.

Owners may work on their own boats on the hardstanding between 08:00 and 18:00. Sanding and painting the hull are
allowed only over a ground sheet. Hot work needs a permit (see the Marina Rules and Safety).

## 3. Living aboard

Living aboard is allowed only on pontoons B and D, for up to 10 boats at a time, and only with the marina manager's
written approval. Berth holders may apply to live aboard after they have held a berth at Wrenhaven for at least 12
months. The liveaboard surcharge is set in the Annual Berthing Terms.

## 4. Leaving your berth empty

If you will be away for 3 nights or more, write your dates on the away board in the marina office. While you are
away we may let your berth to visitors; you then receive a credit of 25% of the visitor fees we took, set against
your next annual berthing fee.

## 5. Services for berth holders

| Service | Price for berth holders | Notes |
|---|---|---|
| Holding-tank pump-out | Free | Self-service at the fuel berth |
| Summer electricity (1 April – 31 October) | Included | |
| Winter electricity (1 November – 31 March) | 32p per kWh | Metered at each berth |
| Post and parcels | Free | Collect from the marina office |
| Tender kept on the pontoon, up to 3 m | Free | Longer tenders: see the Annual Berthing Terms |

## 6. Quiet hours and dogs

Quiet hours are 23:00 to 07:00. Dogs must be on a lead on the pontoons. Swimming in the marina is not allowed.
"""


def _terms_blocks(version: str) -> list:
    if version == "2025":
        head = "Document WM-AB-25 · Berthing year 1 April 2025 to 31 March 2026 · Issued 3 February 2025"
        prices = [
            ["Pontoon A", "£395 per metre"],
            ["Pontoon B", "£430 per metre"],
            ["Pontoon C", "£470 per metre"],
            ["Pontoon D", "£560 per metre"],
            ["Gull Reach swinging mooring (boats up to 12 m)", "£1,150 per mooring"],
        ]
        live, early, dd, cover = "£950", "5%", "£30", "£3 million"
        closing = "These terms apply from 1 April 2025."
    else:
        head = "Document WM-AB-26 · Berthing year 1 April 2026 to 31 March 2027 · Issued 2 February 2026"
        prices = [
            ["Pontoon A", "£420 per metre"],
            ["Pontoon B", "£460 per metre"],
            ["Pontoon C", "£505 per metre"],
            ["Pontoon D", "£610 per metre"],
            ["Gull Reach swinging mooring (boats up to 12 m)", "£1,250 per mooring"],
        ]
        live, early, dd, cover = "£1,200", "4%", "£40", "£5 million"
        closing = ("These terms apply from 1 April 2026 and replace the Annual Berthing Terms 2025, which are "
                   "withdrawn.")
    return [
        ("p", head),
        ("h", "1. Annual berth prices"),
        ("p", "Annual berths on the pontoons are charged per metre of the boat's LOA, rounded up to the next half "
              "metre. Boats shorter than 7 m are charged as 7 m. Prices are for the whole berthing year and include "
              "VAT."),
        ("t", ["Berth", "Price for the berthing year"], prices),
        ("p", "A winter-only berth (1 October to 31 March) costs 55% of the annual price."),
        ("h", "2. Surcharges"),
        ("t", ["Surcharge", "Amount"], [
            ["Multihull", "50% of the berth price"],
            ["Liveaboard", f"{live} a year"],
            ["Tender longer than 3 m kept on the pontoon", "£150 a year"],
        ]),
        ("h", "3. Paying"),
        ("p", f"The full price is due on 1 April. Berth holders who pay in full by 1 April get {early} off the berth "
              f"price; the discount is not given on surcharges. You may instead pay in 10 monthly direct debits "
              f"from April to January, with an administration fee of {dd} added."),
        ("h", "4. Insurance"),
        ("p", f"Every boat must have third-party liability insurance with cover of at least {cover}. Show the "
              "certificate to the marina office every year by 1 April."),
        ("h", "5. Leaving and refunds"),
        ("p", "Give at least 60 days' notice in writing. The unused part of the berth price is refunded, less 3 "
              "months' fees; surcharges are not refunded. No refund is made for notice given after 1 October."),
        ("h", "6. Selling your boat"),
        ("p", "A berth is not transferred with the boat. A buyer who wants a berth applies like anyone else."),
        ("h", "7. Effective date"),
        ("p", closing),
    ]


WM_SAFETY = [
    ("p", "Document WM-SAF-02 · Version 2025 · Effective 1 May 2025"),
    ("h", "1. Speed and navigation"),
    ("p", "The speed limit in the marina and in the entrance channel is 4 knots, and no boat may make a wash. Keep "
          "to the starboard side of the channel. Boats must motor inside the marina; sailing is allowed only "
          "outside the entrance channel."),
    ("h", "2. Children and lifejackets"),
    ("p", "Children under 12 must wear a lifejacket on the pontoons and in tenders. Lifejackets are lent free of "
          "charge by the marina office."),
    ("h", "3. Fuel berth"),
    ("t", ["Season", "Fuel berth open"], [
        ["April to September", "08:00–19:00 every day"],
        ["October to March", "09:00–16:00, closed on Tuesdays"],
    ]),
    ("p", "While refuelling, stop the engine, do not smoke and turn off every gas appliance. Petrol is sold only "
          "into approved cans of up to 20 litres."),
    ("h", "4. Hot work"),
    ("p", "Welding, grinding and any other hot work anywhere in the marina or the boatyard needs a hot work "
          "permit. Permits are free, must be asked for at least 24 hours in advance and are valid for one day "
          "only. A fire extinguisher and a second person must be at hand. Permits are issued only by the Marina "
          "Manager or the Boatyard Manager."),
    ("h", "5. Travel hoist and boatyard machinery"),
    ("p", "Only staff holding a hoist operator certificate may drive the travel hoist or the boatyard forklift. "
          "Nobody may stay aboard a boat while it is being lifted."),
    ("h", "6. Charges for breaking the rules"),
    ("t", ["Breach", "Charge"], [
        ["Speeding or making a wash (first time in a berthing year)", "£50"],
        ["Speeding or making a wash (second and later times in a berthing year)", "£150"],
        ["Hot work without a permit", "£250"],
        ["Using another berth without permission", "The visitor nightly rate for each night, plus £25"],
        ["Leaving rubbish or oil on the pontoons", "£40"],
        ["Emptying a holding tank inside the marina", "£500"],
        ["Overstaying a short stay by more than 1 hour", "The visitor nightly rate"],
    ]),
    ("p", "Charges are added to the next invoice. A berth holder charged three times in one berthing year may have "
          "the berth agreement ended with 30 days' notice."),
    ("h", "7. Emergencies and incidents"),
    ("t", ["Place", "Fire point", "Lifebuoys", "Defibrillator"], [
        ["Pontoon A", "At the fuel berth", "3", "No"],
        ["Pontoon B", "Halfway along", "3", "No"],
        ["Pontoon C", "At the gangway", "3", "Yes"],
        ["Pontoon D", "At the gangway", "2", "No"],
        ["Marina office", "None", "1", "Yes"],
    ]),
    ("p", "In an emergency call 999 and ask for the Coastguard, then call the marina office, or the duty "
          "dockmaster on 07700 900 418 when the office is closed. Report any incident, spill or damage to another "
          "boat to the marina office within 12 hours."),
    ("h", "8. Gale warnings"),
    ("p", "When a gale warning is in force, double up your mooring lines, tie down furled sails and remove loose "
          "covers. Dockmasters patrol the pontoons every 2 hours during a gale."),
]

# berth_id, pontoon, max_loa_m, status, boat_name, boat_type, boat_loa_m, liveaboard, holder_since
WM_BERTHS = [
    ["C01", "C", 10, "Annual", "Sea Pink", "Monohull sail", 8.4, "No", 2019],
    ["C02", "C", 10, "Annual", "Puffin II", "Motor", 7.9, "No", 2022],
    ["C03", "C", 10, "Annual", "Kittiwake", "Monohull sail", 9.6, "No", 2016],
    ["C04", "C", 10, "Vacant", "", "", "", "", ""],
    ["C05", "C", 12, "Annual", "Morwenna", "Monohull sail", 11.3, "No", 2012],
    ["C06", "C", 12, "Annual", "Blue Heron", "Motor", 10.7, "No", 2021],
    ["C07", "C", 12, "Annual", "Curlew", "Monohull sail", 10.2, "No", 2018],
    ["C08", "C", 12, "Winter only", "Jubilee", "Motor", 9.8, "No", 2024],
    ["C09", "C", 12, "Annual", "Tern Song", "Monohull sail", 11.9, "No", 2020],
    ["C10", "C", 12, "Under repair", "", "", "", "", ""],
    ["C11", "C", 12, "Annual", "Wild Thyme", "Multihull", 9.2, "No", 2023],
    ["C12", "C", 15, "Annual", "Silver Dawn", "Motor", 13.4, "No", 2015],
    ["C13", "C", 15, "Annual", "Arctic Skua", "Monohull sail", 14.2, "No", 2017],
    ["C14", "C", 15, "Annual", "Marram", "Monohull sail", 12.6, "No", 2025],
    ["C15", "C", 15, "Vacant", "", "", "", "", ""],
    ["C16", "C", 15, "Annual", "Osprey", "Motor", 14.9, "No", 2019],
    ["C17", "C", 15, "Visitor", "", "", "", "", ""],
    ["C18", "C", 15, "Visitor", "", "", "", "", ""],
    ["C19", "C", 15, "Visitor", "", "", "", "", ""],
    ["C20", "C", 15, "Visitor", "", "", "", "", ""],
    ["C21", "C", 15, "Visitor", "", "", "", "", ""],
    ["C22", "C", 15, "Visitor", "", "", "", "", ""],
    ["D01", "D", 20, "Annual", "Ocean Lark", "Motor", 17.8, "No", 2014],
    ["D02", "D", 20, "Annual", "Gannet", "Monohull sail", 16.2, "Yes", 2018],
    ["D03", "D", 20, "Annual", "Halcyon", "Multihull", 12.8, "No", 2020],
    ["D04", "D", 20, "Annual", "Firecrest", "Monohull sail", 15.5, "Yes", 2021],
    ["D05", "D", 18, "Vacant", "", "", "", "", ""],
    ["D06", "D", 18, "Annual", "Saltmarsh", "Motor", 15.1, "No", 2023],
    ["D07", "D", 18, "Annual", "Northern Star", "Monohull sail", 13.7, "Yes", 2016],
    ["D08", "D", 18, "Winter only", "Avocet", "Monohull sail", 12.3, "No", 2025],
    ["D09", "D", 16, "Annual", "Brent Goose", "Multihull", 11.6, "Yes", 2022],
    ["D10", "D", 16, "Annual", "Merlin", "Motor", 12.9, "No", 2019],
    ["D11", "D", 16, "Under repair", "", "", "", "", ""],
    ["D12", "D", 16, "Visitor", "", "", "", "", ""],
]

# staff_id, name, role, team, contract, hours_per_week, start_date, first_aider, hoist_operator, powerboat_level2
WM_STAFF = [
    ["WS01", "Fiona Gallagher", "Marina Manager", "Office", "Permanent", 40, "2011-04-04", "Yes", "No", "Yes"],
    ["WS02", "Owen Tremayne", "Boatyard Manager", "Boatyard", "Permanent", 40, "2013-02-18", "Yes", "Yes", "Yes"],
    ["WS03", "Hollie Brennan", "Office Administrator", "Office", "Permanent", 30, "2020-09-07", "No", "No", "No"],
    ["WS04", "Marcus Penrose", "Berthing Coordinator", "Office", "Permanent", 40, "2017-05-22", "Yes", "No", "Yes"],
    ["WS05", "Kieran Doyle", "Dockmaster", "Dock", "Permanent", 40, "2016-03-14", "Yes", "No", "Yes"],
    ["WS06", "Bethan Rowe", "Dockmaster", "Dock", "Permanent", 40, "2019-06-03", "Yes", "No", "Yes"],
    ["WS07", "Luke Ashdown", "Assistant Dockmaster", "Dock", "Seasonal", 40, "2025-04-01", "No", "No", "Yes"],
    ["WS08", "Amara Nwosu", "Assistant Dockmaster", "Dock", "Seasonal", 40, "2025-04-14", "Yes", "No", "No"],
    ["WS09", "Tomasz Wojcik", "Yard Hand", "Boatyard", "Permanent", 40, "2018-08-20", "No", "Yes", "No"],
    ["WS10", "Gareth Lloyd", "Yard Hand", "Boatyard", "Permanent", 40, "2022-01-10", "Yes", "Yes", "Yes"],
    ["WS11", "Sian Pritchard", "Marine Engineer", "Boatyard", "Permanent", 37.5, "2015-11-02", "No", "No", "Yes"],
    ["WS12", "Declan Moore", "Marine Engineer", "Boatyard", "Zero hours", 0, "2023-07-17", "No", "Yes", "No"],
    ["WS13", "Rosie Fenwick", "Fuel Berth Attendant", "Fuel berth", "Seasonal", 30, "2025-05-01", "No", "No", "No"],
    ["WS14", "Jago Nancarrow", "Fuel Berth Attendant", "Fuel berth", "Permanent", 24, "2021-03-29", "Yes", "No", "Yes"],
    ["WS15", "Priti Desai", "Water Taxi Skipper", "Dock", "Seasonal", 35, "2024-05-13", "Yes", "No", "Yes"],
    ["WS16", "Alfie Crane", "Night Security", "Office", "Permanent", 40, "2019-10-21", "Yes", "No", "No"],
]


def build() -> None:
    LY.mkdir(parents=True, exist_ok=True)
    WM.mkdir(parents=True, exist_ok=True)

    write_text(LY / "仓储与配送收费标准（2026年）.html", LY_FEES_HTML)
    write_text(LY / "员工排班与津贴办法.md", LY_STAFF_MD)
    write_docx(LY / "客户服务与货损理赔规定.docx", "鹭原仓储物流有限公司 客户服务与货损理赔规定", LY_SERVICE)
    write_pdf(LY / "驾驶员出车补贴与安全奖惩办法（2024版）.pdf", "鹭原仓储物流有限公司 驾驶员出车补贴与安全奖惩办法（2024版）",
              _driver_blocks("2024"))
    write_pdf(LY / "驾驶员出车补贴与安全奖惩办法（2026版）.pdf", "鹭原仓储物流有限公司 驾驶员出车补贴与安全奖惩办法（2026版）",
              _driver_blocks("2026"))
    write_csv(LY / "员工名册.csv",
              ["工号", "姓名", "部门", "岗位", "所属仓库", "入职日期", "累计工作年限", "叉车证", "夜班", "用工形式"], LY_STAFF)
    write_csv(LY / "车辆与叉车清单.csv",
              ["编号", "类别", "车型", "核定载重(吨)", "所属仓库", "冷链", "购置年份", "购置金额(元)", "状态"], LY_FLEET)

    write_text(WM / "Visitor_Tariff_2026.html", WM_TARIFF_HTML)
    write_text(WM / "Berth_Holder_Handbook.md", WM_HANDBOOK_MD)
    write_docx(WM / "Annual_Berthing_Terms_2025.docx", "Wrenhaven Marina — Annual Berthing Terms 2025",
               _terms_blocks("2025"))
    write_docx(WM / "Annual_Berthing_Terms_2026.docx", "Wrenhaven Marina — Annual Berthing Terms 2026",
               _terms_blocks("2026"))
    write_pdf(WM / "Marina_Rules_and_Safety.pdf", "Wrenhaven Marina — Marina Rules and Safety", WM_SAFETY)
    write_csv(WM / "berths.csv", ["berth_id", "pontoon", "max_loa_m", "status", "boat_name", "boat_type", "boat_loa_m",
                                  "liveaboard", "holder_since"], WM_BERTHS)
    write_csv(WM / "staff.csv", ["staff_id", "name", "role", "team", "contract", "hours_per_week", "start_date",
                                 "first_aider", "hoist_operator", "powerboat_level2"], WM_STAFF)


if __name__ == "__main__":
    build()
