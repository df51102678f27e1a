"""Build the ninth blind report set of organisational documents (tests/data/orgdocs_blind9/, CC0).

    python tests/data/orgdocs_blind9/build_files.py

Writes every file of the two fictional organisations (xingyuan-carhire, dunmarrow-museums) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind8/build_files.py (only AUTHOR differs).

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
AUTHOR = "orgdocs_blind9"


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
# 澄屿行远汽车租赁有限公司 (xingyuan-carhire), 澄屿市
# ----------------------------------------------------------------------------------------------

XY = HERE / "xingyuan-carhire"

XY_PRICES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>行远租车 租车价目表（2026年）</title>
</head>
<body>
<h1>行远租车 租车价目表（2026年）</h1>
<p>发布：客户服务部　发布日期：2025年12月20日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本价目表适用于澄屿行远汽车租赁有限公司所属鹭汀店、柳泽店和空港店。金额单位为人民币元，均含税。</p>

<h2>一、车型组与租金</h2>
<table border="1">
<thead>
<tr><th>车型组</th><th>参考车型</th><th>座位数</th><th>1–2天（元/天）</th><th>3–6天（元/天）</th><th>7–29天（元/天）</th><th>月租（30天，元）</th><th>车辆押金（元）</th></tr>
</thead>
<tbody>
<tr><td>A组 经济型</td><td>星澜S3（燃油）</td><td>5</td><td>168</td><td>148</td><td>128</td><td>3280</td><td>3000</td></tr>
<tr><td>B组 舒适型</td><td>星澜S5（燃油）</td><td>5</td><td>228</td><td>198</td><td>178</td><td>4380</td><td>5000</td></tr>
<tr><td>C组 新能源型</td><td>远途E5、远途E6（纯电）</td><td>5</td><td>248</td><td>218</td><td>188</td><td>4680</td><td>5000</td></tr>
<tr><td>D组 商务型</td><td>远途M7（混动）</td><td>7</td><td>368</td><td>328</td><td>288</td><td>6980</td><td>8000</td></tr>
<tr><td>E组 豪华型</td><td>澜庭L9（混动）</td><td>5</td><td>688</td><td>618</td><td>558</td><td>不提供</td><td>20000</td></tr>
</tbody>
</table>
<p>租期自取车时间起每24小时为1天。日租价格按整个租期的天数确定档位，例如租5天的，5天都按3–6天的价格计算。租期满30天的按月租计算，超过30天的部分按7–29天的日租价格另计。驾驶人须年满22周岁、持有效驾驶证满1年；租用E组豪华型车辆的另有要求，见《租车服务与违约规定》。</p>
<p>春节（除夕至正月初六）和国庆（10月1日至7日）期间的租车日，日租价格一律上浮30%；月租不上浮。</p>
<p>除车辆押金外，每笔订单另收违章押金2000元，退还办法见《租车服务与违约规定》。白金会员租用A组至D组车辆免收车辆押金；E组豪华型一律收取车辆押金。违章押金不予免收。</p>

<h2>二、会员折扣</h2>
<table border="1">
<thead>
<tr><th>会员等级</th><th>升级条件（近12个月）</th><th>日租折扣</th></tr>
</thead>
<tbody>
<tr><td>普通会员</td><td>注册即可</td><td>无折扣</td></tr>
<tr><td>银卡会员</td><td>租车满5次或累计租期满20天</td><td>95折</td></tr>
<tr><td>金卡会员</td><td>租车满12次或累计租期满50天</td><td>9折</td></tr>
<tr><td>白金会员</td><td>租车满25次或累计租期满100天</td><td>85折</td></tr>
</tbody>
</table>
<p>会员折扣只适用于日租租金，不适用于月租、车辆押金、保障服务费和附加服务。E组豪华型最多按95折计算，金卡会员和白金会员租用E组的也按95折。会员折扣与优惠券不同时使用，按对会员有利的一项计算。</p>

<h2>三、附加服务</h2>
<table border="1">
<thead>
<tr><th>项目</th><th>收费标准</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>儿童安全座椅</td><td>30元/天</td><td>每笔订单最高收取300元</td></tr>
<tr><td>额外驾驶人</td><td>50元/人</td><td>按每笔订单收取，须在租车合同中登记</td></tr>
<tr><td>车载Wi-Fi</td><td>15元/天</td><td></td></tr>
<tr><td>送车上门、上门取车</td><td>80元/次</td><td>限鹭汀区、柳泽区；空港店不提供</td></tr>
<tr><td>营业时间以外取车或还车</td><td>100元/次</td><td>空港店24小时营业，不收取</td></tr>
</tbody>
</table>

<h2>四、异地还车</h2>
<table border="1">
<thead>
<tr><th>还车地点</th><th>异地还车费</th></tr>
</thead>
<tbody>
<tr><td>澄屿市内的其他行远门店</td><td>免费</td></tr>
<tr><td>市外合作网点，距取车门店100公里以内</td><td>200元</td></tr>
<tr><td>市外合作网点，距取车门店101–300公里</td><td>600元</td></tr>
<tr><td>市外合作网点，距取车门店301–600公里</td><td>1200元</td></tr>
<tr><td>600公里以上</td><td>不提供异地还车</td></tr>
</tbody>
</table>
<p>异地还车须在预订时提出。C组新能源车异地还车只限300公里以内。</p>

<h2>五、门店与营业时间</h2>
<table border="1">
<thead>
<tr><th>门店</th><th>地址</th><th>营业时间</th><th>门店电话</th></tr>
</thead>
<tbody>
<tr><td>鹭汀店</td><td>澄屿市鹭汀区滨江东路66号</td><td>8:00–20:00</td><td>6630 2201</td></tr>
<tr><td>柳泽店</td><td>澄屿市柳泽区柳泽大道218号</td><td>8:00–20:00</td><td>6630 2202</td></tr>
<tr><td>空港店</td><td>澄屿空港T2航站楼到达层</td><td>24小时</td><td>6630 2203</td></tr>
</tbody>
</table>

<footer>澄屿行远汽车租赁有限公司 客户服务部　澄屿市鹭汀区滨江东路66号二楼　客服热线：6630 2200</footer>
</body>
</html>
"""

XY_STAFF_MD = """
# 澄屿行远汽车租赁有限公司 员工考勤与补贴办法

文件编号：行远人〔2025〕5号　施行日期：2025年9月1日　发布：人力行政部

## 一、总则

第一条　本办法适用于公司总部和鹭汀店、柳泽店、空港店的全体员工。

第二条　各门店实行轮班制。店长于每周四前公布下一周的排班表。

## 二、班次

第三条　班次时间如下：

| 班次 | 时间 | 适用范围 |
|---|---|---|
| 早班 | 7:30–15:30 | 各门店 |
| 晚班 | 12:30–20:30 | 各门店 |
| 夜班 | 20:00至次日8:00 | 仅空港店 |
| 行政班 | 8:30–17:30（中午休息1小时） | 公司总部 |

第四条　夜班只安排员工名册中“夜班”登记为“是”的人员。每人每月夜班不超过6个，连续夜班不超过3个。实习人员和兼职人员不安排夜班。

第五条　送车上门和上门取车只能由员工名册中“准驾送车”登记为“是”的员工承担。驾龄不满3年的员工一律不得送车，门店人手不足临时顶替的也不例外。

第六条　车辆出库前须由车辆专员或车辆整备员完成整备检查，并在系统中签字确认。

## 三、补贴

第七条　补贴标准如下：

| 岗位 | 夜班补贴（元/班） | 送车补贴（元/趟） | 餐补（元/天） |
|---|---|---|---|
| 店长 | 120 | 40 | 25 |
| 租赁顾问 | 90 | 不发放 | 20 |
| 车辆专员 | 90 | 40 | 20 |
| 机修技师 | 100 | 30 | 20 |
| 车辆整备员 | 70 | 不发放 | 20 |
| 行政人员 | 不发放 | 不发放 | 20 |

第八条　送车补贴按实际完成的送车上门和上门取车趟数发放，一送一取算2趟；送车地点在澄屿市外的，每趟另加60元。餐补按当天出勤满6小时发放。实习人员只发餐补，不发其他补贴。

第九条　法定节假日当班的，除按规定支付加班工资外，每班另发节日补助100元；春节（除夕至正月初六）当班的，每班另发300元，不再发100元的节日补助。

第十条　全年无责任事故、无违章记录的送车人员，年终发放安全驾驶奖2000元。

## 四、工龄津贴

第十一条　全职员工按在本公司的工作年限（司龄）每月发放工龄津贴：

| 司龄 | 工龄津贴（元/月） |
|---|---|
| 不满2年 | 0 |
| 满2年不满5年 | 150 |
| 满5年不满8年 | 300 |
| 满8年及以上 | 450 |

兼职人员和实习人员不发工龄津贴。

## 五、年休假

第十二条　员工的年休假由法定年休假和企业福利假两部分组成。法定年休假按累计工作年限确定：

| 累计工作年限 | 法定年休假 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满10年 | 5天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |

企业福利假按司龄确定：

| 司龄 | 企业福利假 |
|---|---|
| 不满3年 | 0天 |
| 满3年不满8年 | 2天 |
| 满8年及以上 | 3天 |

累计工作年限以员工名册登记的为准（名册登记的是截至当年1月1日已满的整年数）；司龄按员工名册中的入职日期计算，也以截至当年1月1日已满的整年数为准。实习人员和兼职人员不享受年休假和企业福利假。

第十三条　年休假须提前10天申请。春节、五一和国庆假期及其前后各3天为租车旺季，门店员工原则上不安排年休假。当年未休完的年休假，最多可以结转3天，在次年3月31日前休完。

## 六、员工租车

第十四条　员工因私租用本公司车辆的，日租价格按8折计算，每人每年最多10天，不与会员折扣同时使用。

## 七、附则

第十五条　本办法由人力行政部负责解释，自2025年9月1日起施行。人力行政部电话：6630 2206。
"""

XY_SERVICE = [
    ("p", "文件编号：行远客〔2025〕3号　施行日期：2025年11月1日　发布：客户服务部"),
    ("h", "一、取车"),
    ("p", "取车时驾驶人须出示本人身份证和驾驶证原件，并用本人名下的银行卡支付押金。租用E组豪华型车辆的，驾驶人须年满25周岁且驾龄满3年。额外驾驶人须在租车合同中登记；未登记的人员驾驶车辆造成的一切损失由承租人承担。"),
    ("p", "取车时双方共同检查车况并拍照留存。超过约定取车时间2小时仍未取车、也未联系门店的，订单按爽约处理。"),
    ("h", "二、超时还车"),
    ("t", ["超出约定还车时间", "收费标准"], [
        ["1小时以内（含1小时）", "免费"],
        ["1小时以上至4小时（含4小时）", "每小时50元，全部超时时长计费，不足1小时按1小时计"],
        ["超过4小时", "按1天租金计算"],
    ]),
    ("p", "E组豪华型车辆超时1小时以上至4小时的，每小时按100元计算。按1天租金计算的，按合同日租单价收取。超时超过24小时且无法联系承租人的，公司有权报警并收回车辆。"),
    ("h", "三、取消预订"),
    ("t", ["取消时间", "收费"], [
        ["取车时间前48小时以上", "免费取消"],
        ["取车时间前24小时至48小时", "收取首日租金的30%"],
        ["取车时间前不足24小时", "收取首日租金的50%"],
        ["爽约（未取车且未取消）", "收取首日租金的100%"],
    ]),
    ("p", "春节和国庆期间取车的订单，须在取车时间前7天以上取消才免费；取车前7天以内取消的，一律收取首日租金的50%，爽约的收取100%。首日租金按订单的日租单价计算；月租订单按月租金的1/30计算。"),
    ("h", "四、油量与电量"),
    ("p", "燃油车还车时油量低于取车时的，按每升12元补足，另收加油服务费50元。新能源车还车时电量低于取车时的，差额每10%收取40元，不足10%的按10%计算；还车时电量低于20%的，另收充电服务费100元。"),
    ("h", "五、车辆清洁"),
    ("t", ["情形", "收费"], [
        ["车内一般污渍、沙土较多", "清洁费200元"],
        ["车内吸烟或有明显烟味", "深度清洁费500元"],
        ["座椅、内饰污损须更换", "按实际维修费用收取"],
    ]),
    ("h", "六、违章处理"),
    ("p", "违章押金2000元在取车时与车辆押金一并收取。还车后30天内未查询到违章记录的，违章押金原路退还；有违章记录的，从违章押金中扣除罚款，并按每宗50元收取违章处理服务费。违章记分须由实际驾驶人本人处理。"),
    ("h", "七、事故与保障"),
    ("p", "发生交通事故的，承租人须立即报警并通知门店。事故车损由承租人承担多少，按所选的保障方案执行，详见《车辆保障服务条款》。所有租车订单均已含基础保障。"),
    ("h", "八、投诉"),
    ("p", "客户可以在门店或拨打客服热线6630 2200投诉。公司在收到投诉后48小时内答复。"),
]


def _cover_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：行远客〔2024〕1号　版本：2024版　施行日期：2024年4月1日　发布：客户服务部"
        full, prem = ["全面保障", "50", "80", "150"], ["尊享保障", "90", "130", "260"]
        basic_cap, full_cap = "最高5000元", "最高1500元"
        closing = "本条款由客户服务部负责解释，自2024年4月1日起施行。"
    else:
        head = "文件编号：行远客〔2026〕1号　版本：2026版　施行日期：2026年1月1日　发布：客户服务部"
        full, prem = ["全面保障", "60", "90", "180"], ["尊享保障", "100", "150", "300"]
        basic_cap, full_cap = "最高6000元", "最高2000元"
        closing = ("本条款由客户服务部负责解释，自2026年1月1日起施行，"
                   "《车辆保障服务条款（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本条款适用于在本公司租用车辆的全部订单，包括日租和月租订单。"),
        ("h", "第二条　保障方案与价格"),
        ("p", "每笔订单已含基础保障。承租人可以在取车时加购全面保障或尊享保障（金额单位：元/天）："),
        ("t", ["保障方案", "A组、B组、C组", "D组", "E组"], [
            ["基础保障", "已含在租金内", "已含在租金内", "已含在租金内"],
            full,
            prem,
        ]),
        ("p", "保障服务费按租期天数计算，最多收取30天。保障服务费不参加会员折扣，春节和国庆期间也不上浮。"),
        ("h", "第三条　车损用户自付额"),
        ("t", ["保障方案", "每次事故车损用户自付额"], [
            ["基础保障", basic_cap],
            ["全面保障", full_cap],
            ["尊享保障", "0元"],
        ]),
        ("p", "用户自付额以内的车损由承租人承担，超出部分由本公司承担。同一租期内发生第2次及以后事故的，每次事故的用户自付额加倍。"),
        ("h", "第四条　停运损失费"),
        ("p", "车辆因事故须维修的，按合同日租单价的50%收取停运损失费，最长收取30天。购买尊享保障的，免收停运损失费。"),
        ("h", "第五条　轮胎和玻璃"),
        ("p", "轮胎、玻璃单独损坏的，基础保障和全面保障均不承担，按实际费用由承租人承担；尊享保障承担。"),
        ("h", "第六条　不予保障的情形"),
        ("p", "酒后驾驶或无证驾驶；未在合同中登记的人员驾驶；涉水行驶导致发动机损坏；将车辆用于营运或转租。出现上述情形之一的，任何保障方案均不承担，全部损失由承租人承担。"),
        ("h", "第七条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 门店, 岗位, 入职日期, 累计工作年限, 驾照类型, 驾龄, 准驾送车, 夜班, 用工形式
XY_STAFF = [
    ["XY01", "沈建国", "鹭汀店", "店长", "2014-03-10", 22, "C1", 24, "是", "否", "全职"],
    ["XY02", "陆芳", "鹭汀店", "租赁顾问", "2020-06-15", 7, "C1", 6, "否", "否", "全职"],
    ["XY03", "卢俊", "鹭汀店", "车辆专员", "2017-09-04", 12, "C1", 14, "是", "否", "全职"],
    ["XY04", "曹晓东", "鹭汀店", "车辆专员", "2024-08-19", 3, "C1", 2, "否", "否", "全职"],
    ["XY05", "范敏", "鹭汀店", "机修技师", "2012-05-07", 25, "C1", 20, "是", "否", "全职"],
    ["XY06", "秦雨萱", "鹭汀店", "车辆整备员", "2025-04-01", 1, "C2", 1, "否", "否", "全职"],
    ["XY07", "杜鹏飞", "鹭汀店", "租赁顾问", "2025-07-14", 0, "无", 0, "否", "否", "实习"],
    ["XY08", "邱海涛", "柳泽店", "店长", "2016-11-21", 15, "C1", 17, "是", "否", "全职"],
    ["XY09", "廖静", "柳泽店", "租赁顾问", "2019-02-25", 9, "C2", 8, "否", "否", "全职"],
    ["XY10", "石磊", "柳泽店", "车辆专员", "2018-04-16", 11, "A2", 13, "是", "否", "全职"],
    ["XY11", "汪洋", "柳泽店", "车辆专员", "2022-10-10", 5, "C1", 5, "是", "否", "兼职"],
    ["XY12", "黎明辉", "柳泽店", "机修技师", "2015-08-03", 19, "C1", 18, "是", "否", "全职"],
    ["XY13", "蒋思琪", "柳泽店", "车辆整备员", "2023-03-20", 4, "C1", 3, "否", "否", "全职"],
    ["XY14", "贾志远", "空港店", "店长", "2017-01-09", 16, "C1", 19, "是", "是", "全职"],
    ["XY15", "熊倩", "空港店", "租赁顾问", "2021-05-24", 6, "C1", 4, "否", "是", "全职"],
    ["XY16", "余晨阳", "空港店", "租赁顾问", "2023-09-18", 3, "C1", 3, "否", "是", "全职"],
    ["XY17", "姚建平", "空港店", "车辆专员", "2013-06-17", 21, "B2", 23, "是", "是", "全职"],
    ["XY18", "万小军", "空港店", "车辆专员", "2020-12-07", 8, "C1", 9, "是", "是", "全职"],
    ["XY19", "严可欣", "空港店", "车辆专员", "2021-08-30", 6, "C1", 2, "否", "否", "全职"],
    ["XY20", "龚伟", "空港店", "机修技师", "2019-10-14", 13, "C1", 12, "是", "是", "全职"],
    ["XY21", "侯桂兰", "空港店", "车辆整备员", "2016-07-11", 27, "无", 0, "否", "是", "全职"],
    ["XY22", "薛诚", "空港店", "车辆整备员", "2024-02-26", 2, "C1", 1, "否", "否", "兼职"],
    ["XY23", "雷振东", "公司总部", "行政人员", "2011-09-05", 30, "C1", 28, "否", "否", "全职"],
    ["XY24", "段丽华", "公司总部", "行政人员", "2018-03-12", 14, "C1", 10, "否", "否", "全职"],
    ["XY25", "郝文博", "公司总部", "行政人员", "2025-03-03", 4, "C1", 5, "否", "否", "全职"],
    ["XY26", "韩秀兰", "鹭汀店", "车辆专员", "2010-10-18", 26, "C1", 28, "是", "否", "全职"],
]

# 编号, 车型组, 车型, 能源类型, 门店, 购入年份, 购入价(元), 累计里程(公里), 状态
XY_FLEET = [
    ["CL01", "A", "星澜S3", "燃油", "鹭汀店", 2021, 89800, 98200, "在租"],
    ["CL02", "A", "星澜S3", "燃油", "鹭汀店", 2023, 92800, 45600, "待租"],
    ["CL03", "A", "星澜S3", "燃油", "鹭汀店", 2019, 86800, 176500, "已处置"],
    ["CL04", "B", "星澜S5", "燃油", "鹭汀店", 2022, 128800, 67300, "在租"],
    ["CL05", "C", "远途E5", "纯电", "鹭汀店", 2024, 149800, 28400, "在租"],
    ["CL06", "C", "远途E5", "纯电", "鹭汀店", 2023, 149800, 51200, "维修中"],
    ["CL07", "D", "远途M7", "混动", "鹭汀店", 2022, 219800, 88900, "待租"],
    ["CL08", "E", "澜庭L9", "混动", "鹭汀店", 2024, 428000, 19800, "待租"],
    ["CL09", "A", "星澜S3", "燃油", "柳泽店", 2020, 87800, 132600, "在租"],
    ["CL10", "A", "星澜S3", "燃油", "柳泽店", 2024, 93800, 21500, "在租"],
    ["CL11", "B", "星澜S5", "燃油", "柳泽店", 2018, 119800, 189300, "维修中"],
    ["CL12", "B", "星澜S5", "燃油", "柳泽店", 2023, 131800, 40700, "待租"],
    ["CL13", "C", "远途E6", "纯电", "柳泽店", 2025, 169800, 9600, "在租"],
    ["CL14", "C", "远途E5", "纯电", "柳泽店", 2022, 145800, 83100, "在租"],
    ["CL15", "D", "远途M7", "混动", "柳泽店", 2021, 209800, 121400, "在租"],
    ["CL16", "D", "远途M7", "混动", "柳泽店", 2017, 189800, 236000, "已处置"],
    ["CL17", "A", "星澜S3", "燃油", "空港店", 2022, 90800, 86700, "在租"],
    ["CL18", "A", "星澜S3", "燃油", "空港店", 2025, 95800, 12300, "待租"],
    ["CL19", "B", "星澜S5", "燃油", "空港店", 2021, 126800, 104500, "在租"],
    ["CL20", "B", "星澜S5", "燃油", "空港店", 2024, 133800, 33900, "在租"],
    ["CL21", "C", "远途E5", "纯电", "空港店", 2023, 147800, 62800, "在租"],
    ["CL22", "C", "远途E6", "纯电", "空港店", 2024, 165800, 35200, "待租"],
    ["CL23", "C", "远途E6", "纯电", "空港店", 2025, 169800, 8700, "在租"],
    ["CL24", "C", "远途E5", "纯电", "空港店", 2020, 139800, 158900, "维修中"],
    ["CL25", "D", "远途M7", "混动", "空港店", 2023, 225800, 54300, "在租"],
    ["CL26", "D", "远途M7", "混动", "空港店", 2019, 199800, 167200, "维修中"],
    ["CL27", "E", "澜庭L9", "混动", "空港店", 2023, 418000, 41600, "在租"],
    ["CL28", "E", "澜庭L9", "混动", "空港店", 2025, 438000, 6200, "待租"],
    ["CL29", "B", "星澜S5", "燃油", "鹭汀店", 2016, 115800, 241800, "已处置"],
    ["CL30", "A", "星澜S3", "燃油", "柳泽店", 2019, 85800, 152400, "维修中"],
]


# ----------------------------------------------------------------------------------------------
# Dunmarrow Museums Trust (dunmarrow-museums), Dunmarrow, on the River Tamsey
# ----------------------------------------------------------------------------------------------

DM = HERE / "dunmarrow-museums"

DM_CHARGES_HTML = """
<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Dunmarrow Museums — Admission and Charges 2026</title>
</head>
<body>
<h1>Dunmarrow Museums — Admission and Charges 2026</h1>
<p>Valid from 1 January to 31 December 2026. Dunmarrow Museums Trust runs three sites in Dunmarrow, on the River
Tamsey: the Corn Exchange Museum (Corn Exchange Square), The Ropewalk (Hempgarth Lane) and the Tollhouse Gallery
(Tamsey Bridge). Prices include VAT where it applies. Enquiries: 01632 961 400.</p>

<h2>1. Admission</h2>
<table border="1">
<thead>
<tr><th>Site</th><th>Adult</th><th>Concession</th><th>Child (5–15)</th><th>Open</th></tr>
</thead>
<tbody>
<tr><td>Corn Exchange Museum</td><td>£9.50</td><td>£7.50</td><td>£4.00</td><td>All year</td></tr>
<tr><td>The Ropewalk</td><td>£12.00</td><td>£9.50</td><td>£5.50</td><td>All year</td></tr>
<tr><td>Tollhouse Gallery</td><td>£6.00</td><td>£4.50</td><td>Free</td><td>1 April to 31 October</td></tr>
<tr><td>All-sites day ticket</td><td>£22.00</td><td>£17.00</td><td>£9.00</td><td>All three sites on the same day</td></tr>
</tbody>
</table>
<p>Children under 5 go free at every site. Children under 16 must be with an adult. Concessions are for visitors
aged 65 or over, full-time students and jobseekers, on showing proof. A carer accompanying a disabled visitor is
admitted free. A Ropewalk ticket bought at the admissions desk can be used for free return visits for 12 months from
the date of purchase; tickets bought online are for one visit only.</p>
<p>Special exhibition 2026: "Threads of the Tamsey" at The Ropewalk, 14 March to 1 November, £3.00 on top of
admission (children £1.50). Friends go free.</p>

<h2>2. Groups</h2>
<table border="1">
<thead>
<tr><th>Paying visitors in one booking</th><th>Discount on admission</th></tr>
</thead>
<tbody>
<tr><td>Under 10</td><td>None</td></tr>
<tr><td>10–19</td><td>10%</td></tr>
<tr><td>20 or more</td><td>20%</td></tr>
</tbody>
</table>
<p>Groups must book at least 14 days before the visit. The group discount applies to adult and concession admission
and to the all-sites day ticket, but the all-sites day ticket gets at most 10% off, even for groups of 20 or more.
One group leader goes free for every 10 paying visitors. The group discount is not given on the special exhibition
supplement, on tours or on handling sessions.</p>

<h2>3. Tours and activities</h2>
<table border="1">
<thead>
<tr><th>Activity</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Highlights tour (45 minutes)</td><td>£4 per person</td><td>On top of admission; daily at 11:30 at the Corn Exchange Museum</td></tr>
<tr><td>Rope-making demonstration</td><td>Free with admission</td><td>The Ropewalk, Saturdays and Sundays at 14:00</td></tr>
<tr><td>Private curator-led tour</td><td>£180 per group</td><td>Up to 15 people; book at least 21 days ahead</td></tr>
<tr><td>Behind-the-scenes store tour</td><td>£15 per person</td><td>Ages 12 and over only; at most 8 people</td></tr>
<tr><td>Handling session (objects from the handling collection)</td><td>£65 per session</td><td>Up to 20 people</td></tr>
</tbody>
</table>

<h2>4. Friends of Dunmarrow Museums</h2>
<table border="1">
<thead>
<tr><th>Membership</th><th>Price a year</th><th>Covers</th></tr>
</thead>
<tbody>
<tr><td>Individual</td><td>£38</td><td>One named adult</td></tr>
<tr><td>Joint</td><td>£60</td><td>Two named adults at the same address</td></tr>
<tr><td>Senior (65 or over)</td><td>£30</td><td>One named adult</td></tr>
<tr><td>Student</td><td>£20</td><td>One full-time student</td></tr>
<tr><td>Patron</td><td>£250</td><td>Two named adults, plus a private view of each special exhibition</td></tr>
</tbody>
</table>
<p>Friends get free admission at all three sites, free entry to special exhibitions and 10% off in the museum shops
and cafés. The Friends discount is not given on venue hire, on tours or on handling sessions. Membership runs for 12
months from the day you join.</p>

<h2>5. Other charges</h2>
<table border="1">
<thead>
<tr><th>Service</th><th>Charge</th></tr>
</thead>
<tbody>
<tr><td>Photography for personal use</td><td>Free (no flash)</td></tr>
<tr><td>Commercial photography or filming</td><td>£75 per hour</td></tr>
<tr><td>Digital image licence</td><td>£35 per image</td></tr>
<tr><td>Research enquiry</td><td>First 30 minutes free, then £40 per hour</td></tr>
<tr><td>Locker</td><td>£1 coin, returned</td></tr>
<tr><td>Wheelchair loan</td><td>Free; please book ahead</td></tr>
</tbody>
</table>
<p>Venue hire is set out in the Venue Hire Terms. Loans of objects to other institutions are set out in the Object
Loans Policy.</p>

<footer>Dunmarrow Museums Trust · Corn Exchange Square, Dunmarrow · 01632 961 400</footer>
</body>
</html>
"""

DM_HANDBOOK_MD = """
# Dunmarrow Museums Trust — Staff and Volunteer Handbook

Edition 2025 · Issued by the Director on 1 October 2025

## 1. Our sites

| Site | Tuesday to Saturday | Sunday | Monday | Season |
|---|---|---|---|---|
| Corn Exchange Museum | 10:00–17:00 | 11:00–16:00 | Closed, except bank holidays | All year |
| The Ropewalk | 10:00–17:00 | 10:00–17:00 | Closed, except bank holidays | All year |
| Tollhouse Gallery | 11:00–16:00 | 11:00–16:00 | Closed | 1 April to 31 October |

Rotas are published on the first Monday of each month for the month after.

## 2. Pay supplements

| Role | Sunday (per hour) | Bank holiday (per hour) | Evening event (per event) | Alarm call-out (each time) |
|---|---|---|---|---|
| Curatorial and collections staff (curators, conservator, collections officer) | £2.50 | £5.00 | £45 | £40 |
| Technician | £2.50 | £5.00 | £45 | £40 |
| Visitor Services Assistant | £2.00 | £4.00 | £35 | £30 |
| Other staff | £1.50 | £3.00 | £30 | £30 |

A Sunday that is also a bank holiday is paid the bank holiday supplement only; the supplements are not added
together. The evening event payment is a flat sum for each event worked, on top of normal pay. Alarm call-outs are
paid for each time you are called out, on top of any other payment. The Director receives no supplements. Casual
staff get the supplements of their role. Volunteers are not paid supplements; their travel is repaid at 30p a mile.

## 3. Objects, keys and working alone

Only staff marked object_handling Yes in staff.csv may move, pack or handle collection objects, including when
events and exhibitions are set up. This applies to curatorial staff as well: there are no exceptions. Volunteers
never handle collection objects; they may use the handling collection in supervised sessions.

Only staff marked keyholder Yes may hold site keys, set and unset the alarms or be on the alarm call-out list.

Nobody opens or closes the Tollhouse Gallery on their own: at least two people must be on site, one of them a
keyholder. Every site has at least one first aider (first_aider Yes) on duty whenever it is open.

## 4. Annual leave

| Complete years of service on 1 January | Annual leave (full-time, 37 hours a week) |
|---|---|
| Under 3 years | 24 days |
| 3 to 6 years | 26 days |
| 7 to 11 years | 28 days |
| 12 years or more | 31 days |

Bank holidays are in addition. Part-time staff get leave in proportion to their hours_per_week divided by 37,
rounded up to the next half day. Fixed-term staff get leave like permanent staff. Casual staff are paid holiday pay
with each hour worked instead of taking annual leave, and volunteers get no annual leave. Book leave at least 3
weeks ahead. Visitor Services staff take no leave in the week of the Tamsey Regatta (the second week of July).

## 5. Training

| Role | Training days a year | Training budget a year |
|---|---|---|
| Curatorial and collections staff | 5 | £1,200 |
| Technician | 3 | £600 |
| Visitor Services Assistant | 2 | £200 |

Unused training budget is not carried over to the next year.

## 6. Staff discount

Staff get 25% off in the museum shops and cafés and may bring up to two guests free to any site. The staff discount
is never combined with the Friends discount.
"""

DM_VENUE = [
    ("p", "Document DMT-VH-05 · Edition 2025 · Effective 1 September 2025"),
    ("h", "1. Spaces and prices"),
    ("t", ["Space", "Capacity (standing / seated)", "Weekday daytime, per hour", "Saturday daytime, per hour",
           "Evening 18:00–23:00, flat rate"], [
        ["Great Hall, Corn Exchange Museum", "200 / 120", "£150", "£220", "£1,200"],
        ["Board Room, Corn Exchange Museum", "30 / 20", "£45", "£65", "£350"],
        ["Engine Hall, The Ropewalk", "150 / 90", "£130", "£190", "£1,000"],
        ["Riverside Terrace, Tollhouse Gallery", "40 / 24", "£60", "£90", "£450"],
    ]),
    ("p", "Daytime hire is for at least 2 hours. Spaces are not hired out on Sundays. The Riverside Terrace is hired "
          "out from 1 May to 30 September only. Registered charities get 20% off weekday daytime hire; the charity "
          "discount is not given on Saturdays or for evening hire. Evening hire includes one member of staff on duty; "
          "each further member of staff costs £30 an hour."),
    ("h", "2. Booking deposit"),
    ("t", ["Total hire charge", "Deposit when booking"], [
        ["Under £500", "25% of the hire charge"],
        ["£500–£1,999", "40% of the hire charge"],
        ["£2,000 and over", "50% of the hire charge"],
    ]),
    ("p", "The rest of the hire charge is due 14 days before the event. Evening hires also pay a security deposit of "
          "£500, returned within 14 days of the event if nothing has been damaged."),
    ("h", "3. Cancelling"),
    ("t", ["Notice given before the event", "What happens"], [
        ["More than 90 days", "Booking deposit refunded less a £50 administration fee"],
        ["30 to 90 days", "Booking deposit kept"],
        ["Less than 30 days", "Full hire charge payable"],
    ]),
    ("h", "4. Conditions of use"),
    ("p", "Naked flames, candles, confetti, glitter and smoke machines are not allowed in any space. Red wine and "
          "coloured drinks are not served in the Engine Hall, where historic machinery stands in the room. Food and "
          "drink must come from one of our approved caterers; the list is sent with the booking form. Amplified "
          "music must stop by 22:30. Hirers and their guests may not move, touch or lean anything on exhibits or "
          "display cases."),
    ("h", "5. Insurance and liability"),
    ("p", "Hirers must hold public liability insurance of at least £5 million and send us a copy of the certificate "
          "14 days before the event. The hirer pays for any damage to the building, exhibits or equipment caused by "
          "the hirer's guests or suppliers."),
]


def _loan_blocks(version: str) -> list:
    if version == "2023":
        head = "Document DMT-OL-23 · Version 2023 · Effective 1 April 2023"
        fees = [["Under £10,000", "£150", "Not required"], ["£10,000–£49,999", "£300", "Not required"],
                ["£50,000 and over", "£500", "Required"]]
        report, courier = "£60", "£250"
        closing = "This policy applies from 1 April 2023."
    else:
        head = "Document DMT-OL-26 · Version 2026 · Effective 1 January 2026"
        fees = [["Under £10,000", "£180", "Not required"], ["£10,000–£49,999", "£350", "Not required"],
                ["£50,000 and over", "£600", "Required"]]
        report, courier = "£75", "£300"
        closing = ("This policy applies from 1 January 2026 and replaces the Object Loans Policy 2023, which is "
                   "withdrawn.")
    return [
        ("p", head),
        ("h", "1. Who may borrow"),
        ("p", "We lend objects to accredited museums, galleries and archives in the UK for public exhibitions. "
              "Requests must reach the Senior Curator at least 6 months before the loan is to start. Objects in "
              "conservation and objects too fragile to travel are not lent."),
        ("h", "2. Loan fees"),
        ("t", ["Insured value of the object", "Administration fee per object", "Courier"], fees),
        ("p", "The insured value is the value in the Trust's collection register. Members of the Tamsey Valley "
              "Museums Partnership pay no administration fee; condition reports and couriers are still charged to "
              "them."),
        ("h", "3. Other charges"),
        ("t", ["Charge", "Amount"], [
            ["Condition report, per object", report],
            ["Courier, per day (travel and hotel charged at cost)", courier],
            ["Packing and crating", "At cost"],
        ]),
        ("h", "4. Loan periods and display conditions"),
        ("p", "A loan lasts at most 12 months and can be renewed once, for up to 12 more months. Textiles and works "
              "on paper are shown at no more than 50 lux and for no more than 3 months in any 12 months; a longer "
              "loan of these objects is not agreed."),
        ("h", "5. Insurance"),
        ("p", "The borrower insures each object nail to nail, from the moment it leaves our store until it is back, at "
              "the insured value in our register. Government indemnity is accepted in place of commercial insurance."),
        ("h", "6. Credit line"),
        ("p", "Borrowers credit each object as \u201cLent by Dunmarrow Museums Trust\u201d."),
        ("h", "7. Effective date"),
        ("p", closing),
    ]


# staff_id, name, role, site, contract, hours_per_week, start_date, object_handling, first_aider, keyholder
DM_STAFF = [
    ["DM01", "Eleanor Stroud", "Director", "Corn Exchange Museum", "Permanent", 37, "2008-04-14", "Yes", "No", "Yes"],
    ["DM02", "Tomasz Wilk", "Senior Curator", "Corn Exchange Museum", "Permanent", 37, "2012-09-03", "Yes", "Yes", "Yes"],
    ["DM03", "Priya Havers", "Curator", "The Ropewalk", "Permanent", 37, "2016-01-11", "Yes", "No", "Yes"],
    ["DM04", "Callum Reddaway", "Assistant Curator", "Corn Exchange Museum", "Permanent", 30, "2021-05-17", "Yes", "Yes", "No"],
    ["DM05", "Hattie Brannigan", "Conservator", "Corn Exchange Museum", "Permanent", 22.5, "2014-10-06", "Yes", "No", "No"],
    ["DM06", "Joel Ambrose", "Collections Officer", "The Ropewalk", "Fixed-term", 37, "2024-11-04", "No", "Yes", "No"],
    ["DM07", "Rosalind Keel", "Learning Officer", "Corn Exchange Museum", "Permanent", 30, "2019-03-25", "No", "Yes", "No"],
    ["DM08", "Martin Sallow", "Visitor Services Manager", "Corn Exchange Museum", "Permanent", 37, "2010-06-21", "No", "Yes", "Yes"],
    ["DM09", "Bethan Cray", "Visitor Services Assistant", "Corn Exchange Museum", "Permanent", 37, "2018-08-13", "No", "Yes", "Yes"],
    ["DM10", "Leon Farrant", "Visitor Services Assistant", "Corn Exchange Museum", "Permanent", 18.5, "2022-02-07", "No", "No", "No"],
    ["DM11", "Mina Choudry", "Visitor Services Assistant", "The Ropewalk", "Permanent", 37, "2017-04-24", "No", "Yes", "Yes"],
    ["DM12", "Declan Ure", "Visitor Services Assistant", "The Ropewalk", "Permanent", 24, "2023-06-05", "No", "Yes", "No"],
    ["DM13", "Agnes Polworth", "Visitor Services Assistant", "Tollhouse Gallery", "Permanent", 30, "2015-05-11", "No", "Yes", "Yes"],
    ["DM14", "Felix Marr", "Visitor Services Assistant", "Tollhouse Gallery", "Casual", 16, "2025-04-01", "No", "No", "No"],
    ["DM15", "Ruth Ingleby", "Visitor Services Assistant", "The Ropewalk", "Casual", 12, "2024-07-15", "No", "No", "No"],
    ["DM16", "Owain Tredgold", "Technician", "The Ropewalk", "Permanent", 37, "2009-11-30", "Yes", "Yes", "Yes"],
    ["DM17", "Kit Lassiter", "Technician", "Corn Exchange Museum", "Permanent", 37, "2020-09-14", "Yes", "No", "Yes"],
    ["DM18", "Norah Beck", "Finance and Admin Officer", "Corn Exchange Museum", "Permanent", 30, "2013-02-18", "No", "No", "No"],
    ["DM19", "Imogen Tate", "Volunteer Coordinator", "Corn Exchange Museum", "Permanent", 21, "2019-11-04", "No", "Yes", "No"],
    ["DM20", "Arthur Penhale", "Assistant Curator", "The Ropewalk", "Permanent", 37, "2022-10-24", "Yes", "No", "No"],
]

# object_no, title, category, site, date_made, year_acquired, acquisition, insured_value_gbp, status
DM_OBJECTS = [
    ["DMO001", "Portrait of Alderman Josiah Pell", "Painting", "Corn Exchange Museum", "1788", 1921, "Bequest", 85000, "On display"],
    ["DMO002", "Tamsey Bridge at Dusk", "Painting", "Tollhouse Gallery", "1864", 1958, "Purchase", 42000, "On display"],
    ["DMO003", "Ropemaker's jack", "Tool", "The Ropewalk", "c. 1870", 1979, "Gift", 1800, "On display"],
    ["DMO004", "Sampler by Martha Quayle", "Textile", "Corn Exchange Museum", "1812", 1934, "Gift", 6500, "In store"],
    ["DMO005", "Guild banner of the Ropemakers' Company", "Textile", "The Ropewalk", "1836", 1962, "Gift", 28000, "On display"],
    ["DMO006", "Corn Exchange foundation trowel", "Metalwork", "Corn Exchange Museum", "1851", 1902, "Gift", 3200, "On display"],
    ["DMO007", "Hemp hackling comb", "Tool", "The Ropewalk", "c. 1845", 1979, "Gift", 650, "In store"],
    ["DMO008", "View of Dunmarrow from Gallows Hill", "Painting", "Corn Exchange Museum", "1740", 1987, "Purchase", 120000, "On loan"],
    ["DMO009", "Ropewalk order book 1891–1902", "Archive", "The Ropewalk", "1891", 1980, "Gift", 900, "In store"],
    ["DMO010", "Silver mayoral chain", "Metalwork", "Corn Exchange Museum", "1897", 1974, "Transfer", 64000, "On display"],
    ["DMO011", "Ferryman's lantern", "Metalwork", "Tollhouse Gallery", "c. 1880", 2001, "Gift", 450, "On display"],
    ["DMO012", "Tollkeeper's fee board", "Woodwork", "Tollhouse Gallery", "1822", 1968, "Transfer", 7800, "On display"],
    ["DMO013", "Silk evening dress of Clara Fane", "Textile", "Corn Exchange Museum", "1889", 1995, "Gift", 4200, "In conservation"],
    ["DMO014", "Still Life with Eels", "Painting", "Corn Exchange Museum", "1702", 2009, "Purchase", 58000, "In store"],
    ["DMO015", "Steam rope-laying machine", "Machine", "The Ropewalk", "1903", 1981, "Purchase", 36000, "On display"],
    ["DMO016", "Quilted coverlet", "Textile", "Tollhouse Gallery", "c. 1850", 1977, "Bequest", 3800, "On loan"],
    ["DMO017", "Glass plate negatives of the Tamsey wharves (box of 48)", "Photograph", "Corn Exchange Museum", "1905", 1999, "Gift", 2400, "In store"],
    ["DMO018", "Dunmarrow Hoard coin group", "Archaeology", "Corn Exchange Museum", "c. AD 120", 2014, "Purchase", 95000, "On display"],
    ["DMO019", "Spinning wheel", "Woodwork", "The Ropewalk", "c. 1790", 1955, "Gift", 1500, "On display"],
    ["DMO020", "Portrait of Hannah Pell", "Painting", "Corn Exchange Museum", "1791", 1921, "Bequest", 72000, "On loan"],
    ["DMO021", "Tamsey salmon trap", "Tool", "Tollhouse Gallery", "c. 1860", 1895, "Gift", 300, "In store"],
    ["DMO022", "Map of the Borough of Dunmarrow", "Map", "Corn Exchange Museum", "1776", 1948, "Purchase", 15500, "On display"],
    ["DMO023", "Ropewalk strike poster", "Archive", "The Ropewalk", "1911", 2018, "Purchase", 1200, "On display"],
    ["DMO024", "Embroidered pulpit fall", "Textile", "Corn Exchange Museum", "c. 1710", 1966, "Transfer", 18000, "On loan"],
    ["DMO025", "Tinplate toy paddle steamer", "Toy", "Tollhouse Gallery", "c. 1925", 2003, "Gift", 2100, "On display"],
    ["DMO026", "Winter on the Water Meadows", "Painting", "Tollhouse Gallery", "1931", 2022, "Purchase", 26000, "On display"],
    ["DMO027", "Cordage sample book", "Archive", "The Ropewalk", "1898", 1983, "Gift", 750, "In conservation"],
    ["DMO028", "Bronze Age axe head", "Archaeology", "Corn Exchange Museum", "c. 1500 BC", 1936, "Gift", 3900, "In store"],
    ["DMO029", "Long-case clock by Ezra Minchin", "Woodwork", "Corn Exchange Museum", "1768", 1952, "Bequest", 22000, "On display"],
    ["DMO030", "Ship's figurehead \u201cThe Tamsey Maid\u201d", "Woodwork", "Tollhouse Gallery", "c. 1840", 1973, "Purchase", 48000, "In store"],
    ["DMO031", "Ropewalk time clock", "Machine", "The Ropewalk", "1924", 1981, "Gift", 2600, "On display"],
    ["DMO032", "Dunmarrow Psalter leaf", "Manuscript", "Corn Exchange Museum", "c. 1380", 1938, "Purchase", 51000, "On loan"],
    ["DMO033", "Sailcloth banner for the 1908 Regatta", "Textile", "The Ropewalk", "1908", 1990, "Gift", 5400, "On display"],
    ["DMO034", "Pell silver teapot", "Metalwork", "Corn Exchange Museum", "1785", 1921, "Bequest", 9500, "In store"],
]


def build() -> None:
    XY.mkdir(parents=True, exist_ok=True)
    DM.mkdir(parents=True, exist_ok=True)

    write_text(XY / "租车价目表（2026年）.html", XY_PRICES_HTML)
    write_text(XY / "员工考勤与补贴办法.md", XY_STAFF_MD)
    write_docx(XY / "租车服务与违约规定.docx", "行远租车 租车服务与违约规定", XY_SERVICE)
    write_pdf(XY / "车辆保障服务条款（2024版）.pdf", "行远租车 车辆保障服务条款（2024版）", _cover_blocks("2024"))
    write_pdf(XY / "车辆保障服务条款（2026版）.pdf", "行远租车 车辆保障服务条款（2026版）", _cover_blocks("2026"))
    write_csv(XY / "员工名册.csv",
              ["工号", "姓名", "门店", "岗位", "入职日期", "累计工作年限", "驾照类型", "驾龄", "准驾送车", "夜班", "用工形式"],
              XY_STAFF)
    write_csv(XY / "车辆清单.csv",
              ["编号", "车型组", "车型", "能源类型", "门店", "购入年份", "购入价(元)", "累计里程(公里)", "状态"], XY_FLEET)

    write_text(DM / "Admission_and_Charges_2026.html", DM_CHARGES_HTML)
    write_text(DM / "Staff_and_Volunteer_Handbook.md", DM_HANDBOOK_MD)
    write_docx(DM / "Venue_Hire_Terms.docx", "Dunmarrow Museums — Venue Hire Terms", DM_VENUE)
    write_pdf(DM / "Object_Loans_Policy_2023.pdf", "Dunmarrow Museums Trust — Object Loans Policy 2023", _loan_blocks("2023"))
    write_pdf(DM / "Object_Loans_Policy_2026.pdf", "Dunmarrow Museums Trust — Object Loans Policy 2026", _loan_blocks("2026"))
    write_csv(DM / "staff.csv", ["staff_id", "name", "role", "site", "contract", "hours_per_week", "start_date",
                                 "object_handling", "first_aider", "keyholder"], DM_STAFF)
    write_csv(DM / "objects.csv", ["object_no", "title", "category", "site", "date_made", "year_acquired", "acquisition",
                                   "insured_value_gbp", "status"], DM_OBJECTS)


if __name__ == "__main__":
    build()
