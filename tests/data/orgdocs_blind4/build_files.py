"""Build the fourth blind report set of organisational documents (tests/data/orgdocs_blind4/, CC0).

    python tests/data/orgdocs_blind4/build_files.py

Writes every file of the two fictional organisations (lanting-property, kestrelmoor-hotels) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied from ../orgdocs_blind3/build_files.py; write_pdf also draws tables.

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
AUTHOR = "orgdocs_blind4"


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
# 栖川市澜庭物业服务有限公司 (lanting-property)
# ----------------------------------------------------------------------------------------------

LT = HERE / "lanting-property"

LT_FEES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>澜庭物业 2026年度物业服务收费标准</title>
</head>
<body>
<h1>栖川市澜庭物业服务有限公司 2026年度物业服务收费标准</h1>
<p>发布：财务部　发布日期：2025年12月12日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本标准适用于本公司在管的江畔花园、云溪苑和枫林里三个项目。金额单位为人民币元；物业服务费按房屋产权证登记的建筑面积计收。</p>

<h2>一、物业服务费</h2>
<table border="1">
<thead>
<tr><th>物业类型</th><th>江畔花园（元/平方米·月）</th><th>云溪苑（元/平方米·月）</th><th>枫林里（元/平方米·月）</th></tr>
</thead>
<tbody>
<tr><td>多层住宅</td><td>1.20</td><td>1.35</td><td>—</td></tr>
<tr><td>小高层住宅</td><td>1.80</td><td>1.95</td><td>—</td></tr>
<tr><td>高层住宅</td><td>2.10</td><td>—</td><td>2.30</td></tr>
<tr><td>联排别墅</td><td>—</td><td>3.20</td><td>—</td></tr>
<tr><td>商铺</td><td>—</td><td>4.50</td><td>5.80</td></tr>
</tbody>
</table>
<p>物业类型按楼栋总层数划分：多层住宅指7层及以下、无电梯的楼栋；小高层住宅指8至18层的楼栋；高层住宅指19层及以上的楼栋。同一楼栋内各楼层的物业服务费单价相同。“—”表示该项目没有此类物业。</p>

<h2>二、电梯运行费和二次加压供水费（按所在楼层）</h2>
<table border="1">
<thead>
<tr><th>所在楼层</th><th>电梯运行费（元/户·月）</th><th>二次加压供水费（元/户·月）</th></tr>
</thead>
<tbody>
<tr><td>1–2层</td><td>0</td><td>0</td></tr>
<tr><td>3–11层</td><td>25</td><td>8</td></tr>
<tr><td>12–20层</td><td>35</td><td>12</td></tr>
<tr><td>21层及以上</td><td>45</td><td>15</td></tr>
</tbody>
</table>
<p>本表只适用于有电梯的小高层住宅和高层住宅。多层住宅、联排别墅和商铺不收取电梯运行费和二次加压供水费。</p>

<h2>三、其他服务收费</h2>
<table border="1">
<thead>
<tr><th>项目</th><th>收费标准</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>门禁卡补办</td><td>20元/张</td><td>每户首次发放的3张门禁卡免费</td></tr>
<tr><td>会所多功能厅使用</td><td>50元/小时</td><td>仅限本项目业主预约，每次不少于2小时</td></tr>
<tr><td>装修出入证工本费</td><td>10元/张</td><td>装修押金和垃圾清运费见《装修管理规定》</td></tr>
</tbody>
</table>

<h2>四、优惠与例外</h2>
<ol>
<li>一次性预缴全年（12个月）物业服务费的，按应缴金额的95%收取；商铺不享受此项优惠。电梯运行费和二次加压供水费不打折。</li>
<li>住宅和联排别墅交付后未装修、未入住，且连续空置满6个月的，业主可书面申报，经客服中心上门核实后，空置期间的物业服务费按70%收取；电梯运行费和二次加压供水费照常收取。空置未满6个月的，按全额收取。</li>
<li>业主自行出租房屋的，物业服务费仍由业主承担，租赁合同另有约定的从其约定。</li>
</ol>

<h2>五、缴费时间与方式</h2>
<p>物业服务费、电梯运行费和二次加压供水费按季度预缴，业主须在每季度第一个月的15日前（即1月、4月、7月、10月的15日前）缴清当季费用。本公司不收取滞纳金；逾期超过3个月的，由客服中心书面催缴。</p>
<p>缴费方式：“澜庭生活”App、各项目客服中心刷卡或扫码缴纳。客服中心不收现金。</p>

<footer>栖川市澜庭物业服务有限公司 财务部　栖川市滨江区望潮路88号　客服热线：8866 2400</footer>
</body>
</html>
"""

LT_PARKING_MD = """
# 澜庭物业停车场管理办法

文件编号：澜庭物〔2025〕15号　施行日期：2025年10月1日　发布：秩序维护部

## 第一章 总则

第一条　本办法适用于江畔花园、云溪苑的地下停车场和地面车位，以及枫林里商业广场地面停车场。

第二条　地下车库限高2.1米；车长超过5.5米的车辆不得进入地下车库。

第三条　枫林里商业广场地面停车场只提供临时停车，不办理车位月租。

## 第二章 固定车位

第四条　固定车位月租标准如下（元/月）：

| 车位类型 | 江畔花园 | 云溪苑 |
|---|---|---|
| 地下固定车位（租用） | 300 | 350 |
| 地面固定车位（租用） | 180 | 200 |
| 已购产权车位（车位管理费） | 60 | 70 |

第五条　租用固定车位须凭房屋产权证或租赁合同办理，租期最短3个月，可按月、按季或按年缴纳。按年一次缴纳12个月租金的，只收取11个月的租金。

第六条　同一户租用第二个及以上固定车位的，自第二个车位起月租上浮20%。已购产权车位的车位管理费不受此限。

## 第三章 临时停车

第七条　临时停车收费标准如下：

| 停放时长 | 收费标准 |
|---|---|
| 30分钟以内（含30分钟） | 免费 |
| 超过30分钟，不超过2小时 | 5元 |
| 超过2小时的部分 | 每小时2元，不足1小时按1小时计 |
| 24小时内累计收费上限 | 25元 |

第八条　业主通过“澜庭生活”App提前登记的访客车辆，停放2小时以内免费；超过2小时的，从第3小时起按每小时2元收取，24小时内累计不超过25元。

第九条　执行救援任务的消防、救护、公安车辆，以及市政抢修车辆免费停放。

## 第四章 充电与非机动车

第十条　地下车库设有公共充电桩。充电电费按每度1.0元收取，另收充电服务费每度0.6元。充电完成后超过1小时未挪车的，另收占位费每小时2元。

第十一条　电动自行车禁止进入电梯、楼道和地下停车场，须停放在小区非机动车棚，并使用车棚内的集中充电设施充电（每次充电4小时以内收费1元）。

## 第五章 附则

第十二条　本办法由秩序维护部负责解释。停车咨询电话：8866 2411。
"""

LT_REPAIR = [
    ("p", "文件编号：澜庭物〔2025〕18号　施行日期：2025年11月1日　发布：工程部"),
    ("h", "一、报修渠道"),
    ("p", "业主可通过24小时客服热线8866 2400、“澜庭生活”App或到各项目客服中心报修。客服中心接单后派发给工程部维修人员。"),
    ("h", "二、响应与处理时限"),
    ("t", ["维修类别", "典型情形", "响应时限", "到场时限", "处理时限"], [
        ["紧急维修", "水管爆裂、电梯困人、燃气泄漏、整户停电", "5分钟内", "15分钟内", "4小时内控制险情"],
        ["一般维修", "水龙头漏水、下水道堵塞、灯具开关损坏", "30分钟内", "2小时内", "24小时内修复"],
        ["预约维修", "门锁更换、墙面修补、公共设施小修", "2小时内", "按约定时间", "3个工作日内完成"],
    ]),
    ("p", "22:00至次日8:00只受理紧急维修；此时段报修的一般维修和预约维修，顺延至次日8:00以后上门。"),
    ("h", "三、收费原则"),
    ("p", "楼道、电梯、公共管道、屋面等公共部位和共用设施设备的维修不向业主收费，费用由物业服务费或专项维修资金列支。"),
    ("p", "业主户内的维修属于有偿服务，人工费按下表收取，所用材料按实际价格另行收取，业主也可自备材料："),
    ("t", ["户内维修项目", "人工费（元/次）"], [
        ["更换水龙头", "30"],
        ["疏通下水道（户内）", "80"],
        ["更换灯具、开关或插座（每个）", "25"],
        ["马桶维修", "50"],
        ["更换门锁（不含锁具）", "60"],
        ["上门检查后业主决定不维修", "20（上门检查费）"],
    ]),
    ("p", "工作日8:00–18:00上门的，按上表收费；工作日18:00–22:00，以及周六、周日和法定节假日上门的，人工费加收50%。"),
    ("h", "四、保修期内的户内维修"),
    ("p", "房屋交付之日起2年内为保修期。保修期内户内给排水管道、电气线路和防水层出现的质量问题，由开发商负责免费维修；物业服务中心负责登记并联系开发商，不收取人工费和上门检查费。"),
    ("h", "五、回访与投诉"),
    ("p", "维修完成后，客服中心在48小时内电话回访。业主对维修质量不满意的，可拨打投诉电话8866 2499，工程部主管在1个工作日内答复。"),
    ("p", "户内有偿维修的质量保证期为3个月，保证期内因同一原因再次损坏的，免人工费返修。"),
]

LT_ALLOW = [
    ("p", "文件编号：澜庭物〔2026〕2号　施行日期：2026年1月1日　发布：综合管理部（人事）"),
    ("h", "一、适用范围"),
    ("p", "本办法适用于本公司全体在册员工。劳务派遣人员和实习生按其协议执行，不适用本办法的补贴条款。"),
    ("h", "二、班次"),
    ("t", ["班次", "时间", "适用部门"], [
        ["行政班", "8:30–17:30（午休1小时）", "综合管理部、客服部，以及各部门主管和项目经理"],
        ["白班", "8:00–20:00（环境部为7:00–16:00）", "秩序维护部、工程部、环境部"],
        ["夜班", "20:00–次日8:00", "秩序维护部、工程部"],
    ]),
    ("p", "客服部不安排夜班。员工连续上夜班不超过7天，之后须安排至少2天休息。"),
    ("h", "三、夜班补贴"),
    ("t", ["部门", "夜班补贴（元/班）"], [
        ["秩序维护部", "40"],
        ["工程部", "50"],
    ]),
    ("h", "四、司龄补贴"),
    ("p", "司龄按《员工花名册》登记的入职日期计算，以每年1月1日已满的整年数确定当年的补贴标准，全年不变。"),
    ("t", ["司龄", "司龄补贴（元/月）"], [
        ["不满1年", "0"],
        ["满1年不满3年", "100"],
        ["满3年不满5年", "200"],
        ["满5年不满10年", "300"],
        ["满10年及以上", "450"],
    ]),
    ("h", "五、证书津贴"),
    ("t", ["证书", "证书津贴（元/月）"], [
        ["电工证", "150"],
        ["电梯作业证（特种设备作业人员证）", "200"],
        ["消防设施操作员证", "100"],
    ]),
    ("p", "证书须在有效期内并已在综合管理部备案。同时持有多项证书的，只按其中最高的一项发放，不累计。"),
    ("h", "六、高温补贴"),
    ("p", "每年6月至9月发放高温补贴：户外岗位（秩序维护部、环境部）每月300元，其他岗位每月150元。"),
    ("h", "七、发放"),
    ("p", "夜班补贴按当月实际上夜班的班数计算；各项补贴随当月工资发放。"),
]


def _reno_blocks(version: str) -> list:
    if version == "2023":
        head = "文件编号：澜庭物〔2023〕4号　版本：2023版　施行日期：2023年3月1日　发布：工程部"
        fee_rows = [
            ["住宅（多层、小高层、高层）", "2000", "10"],
            ["联排别墅", "5000", "10"],
            ["商铺", "5000", "15"],
        ]
        weekend = ("周六、周日可以施工，时间为9:00–12:00、14:00–17:00；法定节假日禁止施工。")
        closing = "本规定由工程部负责解释，自2023年3月1日起施行。"
    else:
        head = "文件编号：澜庭物〔2026〕6号　版本：2026版　施行日期：2026年3月1日　发布：工程部"
        fee_rows = [
            ["住宅（多层、小高层、高层）", "3000", "12"],
            ["联排别墅", "8000", "12"],
            ["商铺", "6000", "15"],
        ]
        weekend = ("周六、周日和法定节假日禁止使用电锤、电钻、切割机等产生噪声的工具，"
                   "只允许在9:00–17:00进行无噪声作业。")
        closing = ("本规定由工程部负责解释，自2026年3月1日起施行，"
                   "《澜庭物业装修管理规定（2023版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本规定适用于本公司在管项目内的住宅、联排别墅和商铺的室内装修。"),
        ("h", "第二条　装修申请"),
        ("p", "业主须在开工前3个工作日到项目客服中心办理装修登记，提交装修方案和施工单位资料；"
              "涉及拆改墙体、改动给排水或燃气管道的，须附设计单位出具的方案。"),
        ("h", "第三条　装修押金和装修垃圾清运费"),
        ("p", "办理装修登记时缴纳装修押金和装修垃圾清运费，标准如下（清运费按建筑面积计收）："),
        ("t", ["物业类型", "装修押金（元/户）", "装修垃圾清运费（元/平方米）"], fee_rows),
        ("h", "第四条　施工时间"),
        ("p", "工作日施工时间为8:00–12:00、14:00–18:00。" + weekend),
        ("h", "第五条　禁止行为"),
        ("p", "禁止拆改承重墙、梁、柱和剪力墙；禁止将卫生间改在下层住户的卧室、客厅上方；"
              "禁止在楼道、电梯厅等公共部位堆放装修材料和垃圾。"),
        ("h", "第六条　出入管理"),
        ("p", "施工人员凭装修出入证进出，出入证工本费每张10元。装修材料须经货梯运送，搬运前在电梯内做好防护。"),
        ("h", "第七条　验收与押金退还"),
        ("p", "装修完工后，业主向客服中心申请验收。验收合格且无违规、无损坏公共设施的，"
              "装修押金于验收合格后15个工作日内无息退还。"),
        ("h", "第八条　违规处理"),
        ("p", "擅自拆改承重结构的，责令立即停工恢复原状，并扣除全部装修押金；损坏公共设施的，从押金中扣除修复费用。"),
        ("h", "第九条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 部门, 岗位, 所属项目, 入职日期, 班次, 持证
LT_STAFF = [
    ["LT001", "周建国", "综合管理部", "总经理", "公司本部", "2009-03-01", "行政班", "无"],
    ["LT002", "林晓梅", "综合管理部", "人事专员", "公司本部", "2018-07-16", "行政班", "无"],
    ["LT003", "黄志刚", "客服部", "项目经理", "江畔花园", "2012-05-08", "行政班", "无"],
    ["LT004", "陈思雨", "客服部", "客服专员", "江畔花园", "2020-09-01", "行政班", "无"],
    ["LT005", "刘婷", "客服部", "客服专员", "江畔花园", "2024-03-11", "行政班", "无"],
    ["LT006", "郭伟", "工程部", "工程主管", "江畔花园", "2011-10-10", "行政班", "电工证+电梯作业证"],
    ["LT007", "马强", "工程部", "维修工", "江畔花园", "2016-04-18", "白班", "电工证"],
    ["LT008", "钱进", "工程部", "维修工", "江畔花园", "2022-06-06", "夜班", "无"],
    ["LT009", "张军", "秩序维护部", "秩序维护队长", "江畔花园", "2014-02-24", "白班", "消防设施操作员证"],
    ["LT010", "王海", "秩序维护部", "秩序维护员", "江畔花园", "2019-08-05", "夜班", "无"],
    ["LT011", "李勇", "秩序维护部", "秩序维护员", "江畔花园", "2023-11-20", "夜班", "无"],
    ["LT012", "赵桂兰", "环境部", "保洁员", "江畔花园", "2017-03-06", "白班", "无"],
    ["LT013", "孙丽", "环境部", "保洁员", "江畔花园", "2025-05-12", "白班", "无"],
    ["LT014", "吴敏", "客服部", "项目经理", "云溪苑", "2015-01-05", "行政班", "无"],
    ["LT015", "郑佳", "客服部", "客服专员", "云溪苑", "2021-01-01", "行政班", "无"],
    ["LT016", "冯磊", "工程部", "工程主管", "云溪苑", "2013-07-01", "行政班", "电梯作业证"],
    ["LT017", "陈刚", "工程部", "维修工", "云溪苑", "2018-09-17", "夜班", "电工证"],
    ["LT018", "何斌", "工程部", "维修工", "云溪苑", "2021-04-26", "白班", "电工证"],
    ["LT019", "许文涛", "工程部", "维修工", "云溪苑", "2025-02-10", "白班", "无"],
    ["LT020", "韩梅", "秩序维护部", "秩序维护员", "云溪苑", "2020-06-15", "夜班", "消防设施操作员证"],
    ["LT021", "杨帅", "秩序维护部", "秩序维护员", "云溪苑", "2022-10-08", "白班", "无"],
    ["LT022", "朱海波", "秩序维护部", "秩序维护队长", "云溪苑", "2010-12-01", "白班", "消防设施操作员证"],
    ["LT023", "秦红", "环境部", "保洁员", "云溪苑", "2019-04-01", "白班", "无"],
    ["LT024", "沈芳", "环境部", "绿化工", "云溪苑", "2016-11-14", "白班", "无"],
    ["LT025", "曹宇", "客服部", "项目经理", "枫林里", "2017-08-21", "行政班", "无"],
    ["LT026", "邓丽娟", "客服部", "客服专员", "枫林里", "2023-02-13", "行政班", "无"],
    ["LT027", "彭涛", "工程部", "维修工", "枫林里", "2019-12-02", "夜班", "电工证+电梯作业证"],
    ["LT028", "蒋超", "秩序维护部", "秩序维护员", "枫林里", "2024-07-01", "夜班", "无"],
    ["LT029", "谢云", "秩序维护部", "秩序维护员", "枫林里", "2018-03-19", "白班", "无"],
    ["LT030", "罗小燕", "环境部", "保洁员", "枫林里", "2021-09-06", "白班", "无"],
]

# 项目, 房号, 物业类型, 所在楼层, 建筑面积(㎡), 使用状态, 租用车位数
LT_UNITS = [
    ["江畔花园", "2-301", "多层住宅", 3, "89.50", "自住", 0],
    ["江畔花园", "2-602", "多层住宅", 6, "89.50", "出租", 0],
    ["江畔花园", "5-101", "多层住宅", 1, "76.20", "空置", 0],
    ["江畔花园", "7-801", "小高层住宅", 8, "105.60", "自住", 1],
    ["江畔花园", "7-1803", "小高层住宅", 18, "105.60", "自住", 1],
    ["江畔花园", "9-1202", "小高层住宅", 12, "118.00", "出租", 0],
    ["江畔花园", "9-201", "小高层住宅", 2, "118.00", "空置", 0],
    ["江畔花园", "11-1502", "高层住宅", 15, "128.40", "自住", 1],
    ["江畔花园", "11-2603", "高层住宅", 26, "128.40", "自住", 2],
    ["江畔花园", "12-2101", "高层住宅", 21, "143.70", "空置", 0],
    ["江畔花园", "12-302", "高层住宅", 3, "98.80", "出租", 0],
    ["云溪苑", "1-402", "多层住宅", 4, "92.00", "自住", 1],
    ["云溪苑", "3-501", "多层住宅", 5, "92.00", "空置", 0],
    ["云溪苑", "6-1101", "小高层住宅", 11, "112.50", "自住", 1],
    ["云溪苑", "8-602", "小高层住宅", 6, "96.40", "自住", 1],
    ["云溪苑", "8-1601", "小高层住宅", 16, "96.40", "出租", 0],
    ["云溪苑", "10-901", "小高层住宅", 9, "120.00", "空置", 0],
    ["云溪苑", "B3", "联排别墅", 1, "236.50", "自住", 2],
    ["云溪苑", "B7", "联排别墅", 1, "236.50", "空置", 0],
    ["云溪苑", "B12", "联排别墅", 1, "268.00", "自住", 2],
    ["云溪苑", "S-05", "商铺", 1, "64.00", "出租", 0],
    ["云溪苑", "S-11", "商铺", 1, "80.00", "自住", 0],
    ["枫林里", "1-1901", "高层住宅", 19, "88.60", "自住", 1],
    ["枫林里", "1-3002", "高层住宅", 30, "88.60", "出租", 0],
    ["枫林里", "2-2305", "高层住宅", 23, "110.20", "自住", 1],
    ["枫林里", "2-1208", "高层住宅", 12, "110.20", "空置", 0],
    ["枫林里", "S-02", "商铺", 1, "80.00", "出租", 0],
    ["枫林里", "S-09", "商铺", 1, "120.50", "自住", 0],
]


# ----------------------------------------------------------------------------------------------
# Kestrelmoor Hotels Ltd. (kestrelmoor-hotels)
# ----------------------------------------------------------------------------------------------

KH = HERE / "kestrelmoor-hotels"

KH_RATES_HTML = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Kestrelmoor Hotels - Room Rates 2026</title>
</head>
<body>
<h1>Kestrelmoor Hotels &mdash; Room Rates and Extras 2026</h1>
<p>Rate sheet KH-RATES-2026 &middot; Valid for stays from 5 January 2026 to 4 January 2027 &middot; Issued by Revenue Management</p>
<p>Kestrelmoor Hotels Ltd. runs four hotels: Kestrelmoor Harbour (Fenmouth), Kestrelmoor Abbey (Lindenford),
Kestrelmoor Lakes (Carrow Water) and Kestrelmoor City (Ashbridge). Prices are in GBP per room per night,
include VAT and are room only. Check-in is from 15:00 and check-out is by 11:00.</p>

<h2>1. Seasons</h2>
<table border="1">
<thead>
<tr><th>Season</th><th>Nights of stay</th></tr>
</thead>
<tbody>
<tr><td>Low</td><td>5 January &ndash; 31 March; 1 November &ndash; 19 December</td></tr>
<tr><td>Mid</td><td>1 April &ndash; 30 June; 1 September &ndash; 31 October</td></tr>
<tr><td>High</td><td>1 July &ndash; 31 August; 20 December &ndash; 4 January</td></tr>
</tbody>
</table>
<p>The season is set by each night of the stay, not by the arrival date: a stay that runs across two seasons
is charged night by night at the rate of the season each night falls in.</p>

<h2>2. Room rates</h2>
<table border="1">
<thead>
<tr><th>Room type</th><th>Sleeps</th><th>Low</th><th>Mid</th><th>High</th></tr>
</thead>
<tbody>
<tr><td>Classic Double</td><td>2</td><td>&pound;89</td><td>&pound;115</td><td>&pound;149</td></tr>
<tr><td>Superior Double</td><td>2</td><td>&pound;109</td><td>&pound;139</td><td>&pound;179</td></tr>
<tr><td>Family Room</td><td>2 adults + 2 children</td><td>&pound;129</td><td>&pound;159</td><td>&pound;209</td></tr>
<tr><td>Junior Suite</td><td>3 (with extra bed)</td><td>&pound;169</td><td>&pound;209</td><td>&pound;269</td></tr>
</tbody>
</table>
<p>Kestrelmoor City in Ashbridge is a business hotel and has one price all year: the Mid column applies to
every night there, whatever the season.</p>

<h2>3. Extras</h2>
<table border="1">
<thead>
<tr><th>Extra</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Full breakfast, adult (13 and over)</td><td>&pound;14.50 per person per day</td><td>Served 07:00&ndash;10:00</td></tr>
<tr><td>Full breakfast, child aged 5 to 12</td><td>&pound;7.00 per child per day</td><td></td></tr>
<tr><td>Breakfast, child under 5</td><td>Free</td><td></td></tr>
<tr><td>Dog</td><td>&pound;20 per dog per stay</td><td>Pet-friendly rooms only, at most 2 dogs per room</td></tr>
<tr><td>Extra bed</td><td>&pound;30 per night</td><td>Junior Suite only</td></tr>
<tr><td>Car parking at Harbour and Abbey</td><td>&pound;8 per car per night</td><td>Parking at Kestrelmoor Lakes and Kestrelmoor City is free</td></tr>
</tbody>
</table>
<p>Dogs are not accepted at Kestrelmoor City. Assistance dogs are welcome in every room at every hotel free of charge.</p>

<h2>4. Discounts and conditions</h2>
<ul>
<li>Long stay: a booking of 7 nights or more gets 10% off the room rate. Extras are not discounted.</li>
<li>Single occupancy: a Classic Double used by one guest costs &pound;20 less per night in the Low and Mid seasons.</li>
<li>Minimum stay: in the High season a stay that includes a Saturday night must be at least 2 nights.</li>
<li>Kestrel Club member discounts are set out in the Kestrel Club terms. Discounts cannot be combined with each
other or with the Advance Saver rate; where more than one applies, the guest gets the larger one.</li>
</ul>

<h2>5. Late check-out</h2>
<table border="1">
<thead>
<tr><th>Check-out time</th><th>Charge</th></tr>
</thead>
<tbody>
<tr><td>By 11:00</td><td>Included</td></tr>
<tr><td>11:01 &ndash; 13:00</td><td>&pound;25</td></tr>
<tr><td>13:01 &ndash; 16:00</td><td>50% of the night's room rate</td></tr>
<tr><td>After 16:00</td><td>A full night's room rate</td></tr>
</tbody>
</table>
<p>Late check-out is subject to availability and must be agreed with reception by 09:00 on the day.
Kestrel Club Gold members may check out as late as 13:00 at no charge.</p>

<footer>Kestrelmoor Hotels Ltd., 3 Quayside Row, Fenmouth &middot; Reservations: stay@kestrelmoor.example, 01632 960 418</footer>
</body>
</html>
"""

KH_CLUB_MD = """
# Kestrel Club — Membership Terms

Terms KC-2026 · Effective 1 January 2026 · Owner: Guest Loyalty Team

## 1. Tiers

| Tier | Annual fee | Fee waived for | Discount on room rate | Points per £1 spent |
|---|---|---|---|---|
| Blue | Free | (anyone may join) | 5% | 1 |
| Silver | £45 | 10 or more qualifying nights in the previous calendar year | 10% | 1.5 |
| Gold | £120 | 25 or more qualifying nights in the previous calendar year | 15% | 2 |

- A qualifying night is a paid night booked directly with Kestrelmoor. Nights paid with points do not count.
- Students with a valid student card pay £25 a year for Silver instead of £45.
- The fee is charged when the member joins or moves up a tier, and again on each anniversary.

## 2. Benefits

| Benefit | Blue | Silver | Gold |
|---|---|---|---|
| Free Wi-Fi | Yes | Yes | Yes |
| Welcome drink on arrival | No | Yes | Yes |
| Room upgrade on arrival, when available | No | No | Yes |
| Late check-out until 13:00 at no charge | No | No | Yes |

## 3. Using the discount

- Member discounts apply to the room rate only, and only on bookings made directly with Kestrelmoor (our
  website, the Kestrelmoor app or by phone). Bookings made through online travel agents get no member
  discount and earn no points.
- A member discount cannot be combined with the long-stay discount or with the Advance Saver rate; the
  guest gets whichever is larger.

## 4. Points

Points are earned on the room rate and on breakfast, not on parking, dog fees or late check-out charges.
Points expire 24 months after the last stay or redemption on the account.

| Points | Reward |
|---|---|
| 2,000 | Breakfast for two on one morning |
| 5,000 | £50 off a stay |
| 12,000 | One free night in a Classic Double, any season |

## 5. Contact

Guest Loyalty Team: club@kestrelmoor.example, 01632 960 430.
"""


def _cancel_blocks(version: str) -> list:
    if version == "2024":
        head = "Document KH-RES-04 · Version 2024 · Effective 1 March 2024 · Owner: Reservations Manager"
        deposit = ("A deposit of 20% of the total room cost is taken when a flexible-rate booking is made.")
        saver = ("The Advance Saver rate is 10% below the flexible rate. It is paid in full when the booking is "
                 "made and cannot be refunded, changed or cancelled.")
        rows = [
            ["More than 48 hours before 15:00 on the arrival date", "No charge; the deposit is refunded in full"],
            ["48 hours or less before 15:00 on the arrival date", "The first night's room rate"],
            ["No-show", "The first night's room rate"],
        ]
        group = ("Group bookings (5 or more rooms): the final names and number of rooms must be confirmed "
                 "14 days before arrival. Rooms released after that are charged at the first night's room rate.")
        closing = "This policy is issued by the Reservations Manager and applies from 1 March 2024."
    else:
        head = "Document KH-RES-04 · Version 2026 · Effective 1 February 2026 · Owner: Reservations Manager"
        deposit = ("A deposit of 25% of the total room cost is taken when a flexible-rate booking is made.")
        saver = ("The Advance Saver rate is 12% below the flexible rate. It is paid in full when the booking is "
                 "made and cannot be refunded, changed or cancelled.")
        rows = [
            ["More than 72 hours before 15:00 on the arrival date", "No charge; the deposit is refunded in full"],
            ["72 hours or less before 15:00 on the arrival date", "The first night's room rate"],
            ["No-show", "The first two nights' room rate (the whole stay if it is shorter)"],
        ]
        group = ("Group bookings (5 or more rooms): the final names and number of rooms must be confirmed "
                 "21 days before arrival. Rooms released after that are charged at the first night's room rate.")
        closing = ("This policy is issued by the Reservations Manager. It applies to bookings made on or after "
                   "1 February 2026 and replaces the Cancellation and Deposit Policy (2024). Bookings made before "
                   "1 February 2026 keep the terms of the 2024 policy.")
    return [
        ("p", head),
        ("h", "1. Scope"),
        ("p", "This policy applies to individual and group room bookings at all four Kestrelmoor hotels, "
              "whether made on our website, in the app or by phone. Bookings made through online travel "
              "agents follow the agent's terms."),
        ("h", "2. Arrival and departure"),
        ("p", "Rooms are available from 15:00 on the day of arrival and must be vacated by 11:00 on the day of "
              "departure. Late check-out charges are set out in the current rate sheet."),
        ("h", "3. Deposits and guarantee"),
        ("p", deposit + " The balance is paid on arrival. Every booking is guaranteed with a payment card."),
        ("p", saver),
        ("h", "4. Cancelling a flexible-rate booking"),
        ("t", ["When the booking is cancelled", "Charge"], rows),
        ("h", "5. Group bookings"),
        ("p", group),
        ("h", "6. Leaving early"),
        ("p", "Guests who leave before the booked departure date are charged for the nights booked, unless the "
              "room is sold again."),
        ("h", "7. Refunds"),
        ("p", "Refunds are made to the card used for payment within 10 working days."),
        ("h", "8. Effective date"),
        ("p", closing),
    ]


KH_HANDBOOK = [
    ("p", "Document KH-HR-02 · Version 2026 · Effective 1 January 2026 · Owner: People and Culture"),
    ("h", "1. Who this covers"),
    ("p", "This part of the handbook covers pay premiums, leave and allowances for everyone employed by "
          "Kestrelmoor Hotels Ltd. on grades H1 to H5 at the four hotels. Agency staff are covered by their "
          "agency's terms."),
    ("h", "2. Shift premiums"),
    ("p", "A shift premium is paid for every hour worked on the shift, on top of the hourly pay for the grade:"),
    ("t", ["Shift", "Hours", "Premium per hour"], [
        ["Early", "06:30-15:00", "none"],
        ["Day", "09:00-17:30", "none"],
        ["Late", "14:30-23:00", "£0.90"],
        ["Night", "22:30-07:00", "£2.40"],
    ]),
    ("p", "Grade H5 (general managers) are salaried and receive no shift premiums. Part-time and seasonal "
          "staff receive the same premiums per hour as full-time staff."),
    ("h", "3. Annual leave and loyalty days"),
    ("p", "Full-time staff receive 28 days of annual leave a year, including bank holidays; part-time staff "
          "receive the same in proportion to their contracted hours. The leave year runs from 1 January. "
          "Loyalty days are added according to completed years of service on 1 January of the leave year:"),
    ("t", ["Completed years of service on 1 January", "Loyalty days"], [
        ["Less than 2 years", "none"],
        ["2 to 4 years", "1 extra day"],
        ["5 to 9 years", "3 extra days"],
        ["10 years or more", "5 extra days"],
    ]),
    ("p", "Loyalty days are the same for full-time and part-time staff. Seasonal staff do not receive loyalty "
          "days, however many seasons they have worked."),
    ("h", "4. Allowances"),
    ("p", "First aid: staff who hold a current first-aid at work certificate, recorded as first aider in the "
          "staff roster, receive £15 per month. Shoes: Housekeeping and Food & Beverage staff receive £40 a "
          "year towards work shoes. Uniforms are provided and laundered free of charge."),
    ("h", "5. Meals"),
    ("p", "Staff receive one free meal in the staff canteen for each shift of 6 hours or more."),
    ("h", "6. Staff stays"),
    ("p", "Employees who have passed probation may stay at any Kestrelmoor hotel for £45 per room per night in "
          "the Low and Mid seasons, subject to availability. The staff rate is not available in the High "
          "season. Close family and friends receive 25% off the flexible rate when the employee books for "
          "them."),
    ("h", "7. Pay dates"),
    ("p", "Pay, premiums and allowances are paid monthly on the last working day of the month."),
]

# staff_id, name, hotel, department, role, grade, contract, shift, start_date, first_aider
KH_STAFF = [
    ["KH001", "Eleanor Hartley", "Harbour", "Management", "General manager", "H5", "Full-time", "Day", "2008-05-12", "Yes"],
    ["KH002", "Marcus Bell", "Harbour", "Front Office", "Receptionist", "H2", "Full-time", "Early", "2019-03-04", "Yes"],
    ["KH003", "Sophie Turner", "Harbour", "Front Office", "Night auditor", "H3", "Full-time", "Night", "2016-10-17", "No"],
    ["KH004", "Megan Doyle", "Harbour", "Housekeeping", "Room attendant", "H1", "Part-time", "Early", "2021-01-01", "No"],
    ["KH005", "Tomasz Wojcik", "Harbour", "Housekeeping", "Head housekeeper", "H3", "Full-time", "Early", "2012-06-25", "Yes"],
    ["KH006", "Lily Chambers", "Harbour", "Food & Beverage", "Waiter", "H1", "Seasonal", "Late", "2023-06-01", "No"],
    ["KH007", "Owen Gallagher", "Harbour", "Food & Beverage", "Chef de partie", "H3", "Full-time", "Late", "2017-02-13", "Yes"],
    ["KH008", "Ruth Ansell", "Harbour", "Maintenance", "Maintenance technician", "H2", "Full-time", "Day", "2014-09-08", "Yes"],
    ["KH009", "Daniel Okafor", "Abbey", "Management", "General manager", "H5", "Full-time", "Day", "2011-04-04", "Yes"],
    ["KH010", "Hannah Whitlock", "Abbey", "Front Office", "Receptionist", "H2", "Part-time", "Late", "2022-08-15", "No"],
    ["KH011", "Isaac Moreno", "Abbey", "Front Office", "Night auditor", "H3", "Full-time", "Night", "2018-11-26", "Yes"],
    ["KH012", "Chloe Pritchard", "Abbey", "Housekeeping", "Room attendant", "H1", "Full-time", "Early", "2024-04-08", "No"],
    ["KH013", "Agnieszka Nowicka", "Abbey", "Housekeeping", "Room attendant", "H1", "Seasonal", "Early", "2019-05-20", "No"],
    ["KH014", "Ben Ashworth", "Abbey", "Food & Beverage", "Bar supervisor", "H2", "Full-time", "Late", "2020-02-10", "Yes"],
    ["KH015", "Freya Lindqvist", "Abbey", "Food & Beverage", "Waiter", "H1", "Part-time", "Late", "2025-03-03", "No"],
    ["KH016", "Gavin Rhodes", "Abbey", "Maintenance", "Maintenance technician", "H2", "Full-time", "Day", "2015-07-06", "Yes"],
    ["KH017", "Imogen Reeve", "Lakes", "Management", "General manager", "H5", "Full-time", "Day", "2013-01-14", "Yes"],
    ["KH018", "Jack Haworth", "Lakes", "Front Office", "Receptionist", "H2", "Full-time", "Early", "2020-10-05", "No"],
    ["KH019", "Kavita Menon", "Lakes", "Front Office", "Receptionist", "H2", "Part-time", "Late", "2023-09-18", "No"],
    ["KH020", "Liam Steadman", "Lakes", "Front Office", "Night auditor", "H3", "Full-time", "Night", "2017-12-04", "No"],
    ["KH021", "Maisie Thorne", "Lakes", "Housekeeping", "Room attendant", "H1", "Part-time", "Early", "2022-04-25", "No"],
    ["KH022", "Nathan Crowe", "Lakes", "Housekeeping", "Room attendant", "H1", "Seasonal", "Early", "2024-06-03", "No"],
    ["KH023", "Orla Kennedy", "Lakes", "Food & Beverage", "Chef de partie", "H3", "Full-time", "Late", "2018-03-12", "Yes"],
    ["KH024", "Peter Lindsay", "Lakes", "Food & Beverage", "Waiter", "H1", "Part-time", "Late", "2025-05-19", "No"],
    ["KH025", "Rhiannon Evans", "Lakes", "Maintenance", "Maintenance technician", "H2", "Full-time", "Day", "2021-07-19", "Yes"],
    ["KH026", "Stefan Novak", "City", "Management", "General manager", "H5", "Full-time", "Day", "2016-03-07", "Yes"],
    ["KH027", "Tessa Goodwin", "City", "Front Office", "Receptionist", "H2", "Full-time", "Early", "2010-09-13", "Yes"],
    ["KH028", "Umar Farouk", "City", "Front Office", "Night auditor", "H3", "Full-time", "Night", "2019-06-24", "No"],
    ["KH029", "Violet Sandoval", "City", "Housekeeping", "Room attendant", "H1", "Part-time", "Early", "2023-01-09", "No"],
    ["KH030", "Wesley Munro", "City", "Housekeeping", "Head housekeeper", "H3", "Full-time", "Early", "2012-11-05", "No"],
    ["KH031", "Yasmin Adeyemi", "City", "Food & Beverage", "Breakfast cook", "H2", "Full-time", "Early", "2020-05-26", "Yes"],
    ["KH032", "Zach Holloway", "City", "Maintenance", "Maintenance technician", "H2", "Part-time", "Day", "2024-10-14", "No"],
]

# room_no, hotel, room_type, floor, max_guests, view, pet_friendly, accessible, status
KH_ROOMS = [
    ["H-101", "Harbour", "Classic Double", 1, 2, "Street", "Yes", "Yes", "In service"],
    ["H-102", "Harbour", "Classic Double", 1, 2, "Street", "Yes", "No", "In service"],
    ["H-103", "Harbour", "Family Room", 1, 4, "Garden", "Yes", "No", "In service"],
    ["H-201", "Harbour", "Superior Double", 2, 2, "Sea", "No", "No", "In service"],
    ["H-202", "Harbour", "Superior Double", 2, 2, "Sea", "No", "No", "Refurbishment"],
    ["H-203", "Harbour", "Classic Double", 2, 2, "Street", "No", "No", "In service"],
    ["H-204", "Harbour", "Superior Double", 2, 2, "Sea", "No", "No", "In service"],
    ["H-301", "Harbour", "Junior Suite", 3, 3, "Sea", "No", "No", "In service"],
    ["H-302", "Harbour", "Family Room", 3, 4, "Sea", "No", "No", "In service"],
    ["H-303", "Harbour", "Classic Double", 3, 2, "Street", "No", "No", "In service"],
    ["A-101", "Abbey", "Classic Double", 1, 2, "Garden", "Yes", "Yes", "In service"],
    ["A-102", "Abbey", "Family Room", 1, 4, "Garden", "Yes", "No", "In service"],
    ["A-103", "Abbey", "Classic Double", 1, 2, "Garden", "No", "Yes", "In service"],
    ["A-201", "Abbey", "Superior Double", 2, 2, "Garden", "No", "No", "In service"],
    ["A-202", "Abbey", "Superior Double", 2, 2, "Garden", "No", "No", "In service"],
    ["A-203", "Abbey", "Classic Double", 2, 2, "Street", "No", "No", "Refurbishment"],
    ["A-204", "Abbey", "Junior Suite", 2, 3, "Garden", "No", "No", "In service"],
    ["A-301", "Abbey", "Classic Double", 3, 2, "Street", "No", "No", "In service"],
    ["A-302", "Abbey", "Family Room", 3, 4, "Street", "No", "No", "In service"],
    ["L-101", "Lakes", "Classic Double", 1, 2, "Lake", "Yes", "Yes", "In service"],
    ["L-102", "Lakes", "Classic Double", 1, 2, "Garden", "Yes", "No", "In service"],
    ["L-103", "Lakes", "Family Room", 1, 4, "Garden", "Yes", "No", "Refurbishment"],
    ["L-104", "Lakes", "Superior Double", 1, 2, "Lake", "Yes", "No", "In service"],
    ["L-105", "Lakes", "Family Room", 1, 4, "Lake", "Yes", "No", "In service"],
    ["L-201", "Lakes", "Superior Double", 2, 2, "Lake", "No", "No", "In service"],
    ["L-202", "Lakes", "Junior Suite", 2, 3, "Lake", "No", "No", "In service"],
    ["L-203", "Lakes", "Classic Double", 2, 2, "Garden", "No", "No", "In service"],
    ["L-204", "Lakes", "Family Room", 2, 4, "Garden", "No", "No", "In service"],
    ["L-205", "Lakes", "Classic Double", 2, 2, "Lake", "No", "No", "Refurbishment"],
    ["C-101", "City", "Classic Double", 1, 2, "Street", "No", "Yes", "In service"],
    ["C-102", "City", "Classic Double", 1, 2, "Street", "No", "Yes", "In service"],
    ["C-201", "City", "Classic Double", 2, 2, "Street", "No", "No", "In service"],
    ["C-202", "City", "Classic Double", 2, 2, "Street", "No", "No", "In service"],
    ["C-203", "City", "Superior Double", 2, 2, "Street", "No", "No", "In service"],
    ["C-301", "City", "Superior Double", 3, 2, "Street", "No", "No", "In service"],
    ["C-302", "City", "Junior Suite", 3, 3, "Street", "No", "No", "In service"],
    ["C-303", "City", "Family Room", 3, 4, "Street", "No", "No", "Refurbishment"],
    ["C-304", "City", "Classic Double", 3, 2, "Street", "No", "No", "In service"],
]


def build() -> None:
    LT.mkdir(parents=True, exist_ok=True)
    KH.mkdir(parents=True, exist_ok=True)

    write_text(LT / "物业服务收费标准（2026年度）.html", LT_FEES_HTML)
    write_text(LT / "停车场管理办法.md", LT_PARKING_MD)
    write_docx(LT / "报修与维修服务规范.docx", "澜庭物业 报修与维修服务规范", LT_REPAIR)
    write_docx(LT / "员工考勤与补贴办法.docx", "澜庭物业 员工考勤与补贴办法", LT_ALLOW)
    write_pdf(LT / "装修管理规定（2023版）.pdf", "澜庭物业 装修管理规定（2023版）", _reno_blocks("2023"))
    write_pdf(LT / "装修管理规定（2026版）.pdf", "澜庭物业 装修管理规定（2026版）", _reno_blocks("2026"))
    write_csv(LT / "员工花名册.csv", ["工号", "姓名", "部门", "岗位", "所属项目", "入职日期", "班次", "持证"], LT_STAFF)
    write_csv(LT / "房屋台账.csv",
              ["项目", "房号", "物业类型", "所在楼层", "建筑面积(㎡)", "使用状态", "租用车位数"], LT_UNITS)

    write_text(KH / "Room_Rates_2026.html", KH_RATES_HTML)
    write_text(KH / "Kestrel_Club_Membership.md", KH_CLUB_MD)
    write_docx(KH / "Cancellation_Policy_2024.docx",
               "Kestrelmoor Hotels — Cancellation and Deposit Policy (2024)", _cancel_blocks("2024"))
    write_docx(KH / "Cancellation_Policy_2026.docx",
               "Kestrelmoor Hotels — Cancellation and Deposit Policy (2026)", _cancel_blocks("2026"))
    write_pdf(KH / "Staff_Handbook_Pay_and_Leave.pdf",
              "Kestrelmoor Hotels — Staff Handbook: Pay, Leave and Allowances", KH_HANDBOOK)
    write_csv(KH / "staff_roster.csv",
              ["staff_id", "name", "hotel", "department", "role", "grade", "contract", "shift", "start_date",
               "first_aider"], KH_STAFF)
    write_csv(KH / "room_inventory.csv",
              ["room_no", "hotel", "room_type", "floor", "max_guests", "view", "pet_friendly", "accessible",
               "status"], KH_ROOMS)


if __name__ == "__main__":
    build()
