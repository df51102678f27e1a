"""Build the eighth blind report set of organisational documents (tests/data/orgdocs_blind8/, CC0).

    python tests/data/orgdocs_blind8/build_files.py

Writes every file of the two fictional organisations (qinghe-fitness, fernbrook-vets) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind7/build_files.py (only AUTHOR differs).

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
AUTHOR = "orgdocs_blind8"


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
# 栖川青禾健身管理有限公司 (qinghe-fitness), 栖川市
# ----------------------------------------------------------------------------------------------

QH = HERE / "qinghe-fitness"

QH_PRICES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>青禾健身 会员卡与课程价目表（2026年）</title>
</head>
<body>
<h1>青禾健身 会员卡与课程价目表（2026年）</h1>
<p>发布：会员服务部　发布日期：2025年12月15日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本价目表适用于栖川青禾健身管理有限公司所属南湖店、梧桐店和高新店。金额单位为人民币元，均含税。</p>

<h2>一、会员卡</h2>
<table border="1">
<thead>
<tr><th>卡种</th><th>有效期</th><th>价格（元）</th><th>可用门店</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>月卡</td><td>30天</td><td>399</td><td>办卡门店</td><td>不限次数</td></tr>
<tr><td>季卡</td><td>90天</td><td>999</td><td>办卡门店</td><td>不限次数</td></tr>
<tr><td>年卡</td><td>365天</td><td>2680</td><td>全部门店</td><td>不限次数，含毛巾</td></tr>
<tr><td>次卡（20次）</td><td>180天</td><td>880</td><td>全部门店</td><td>每次入场扣1次</td></tr>
<tr><td>学生年卡</td><td>365天</td><td>1680</td><td>办卡门店</td><td>仅限周一至周五使用</td></tr>
</tbody>
</table>
<p>会员卡自首次入场之日起开始计算有效期；办卡后30天内未入场的，自第31天起自动激活。学生年卡限全日制在校学生凭学生证办理，年满25周岁的不予办理；学生年卡只能在周一至周五使用，周六、周日和法定节假日不能入场。</p>
<p>各种会员卡均可使用南湖店恒温泳池，但月卡和次卡会员每次使用泳池另收20元。</p>

<h2>二、团体购卡折扣</h2>
<table border="1">
<thead>
<tr><th>同一单位一次购卡人数</th><th>折扣</th></tr>
</thead>
<tbody>
<tr><td>不足5人</td><td>无折扣</td></tr>
<tr><td>5–19人</td><td>9折</td></tr>
<tr><td>20人及以上</td><td>8折</td></tr>
</tbody>
</table>
<p>团体购卡折扣适用于新办和续费的季卡、年卡；月卡、次卡和学生年卡不参加团体购卡折扣。季卡最多按9折计算，一次购卡20人及以上的也按9折。年卡会员在到期前30天内续费年卡的，续费立减200元；续费立减与团体购卡折扣不同时享受，按对会员有利的一项计算。</p>

<h2>三、私教课</h2>
<table border="1">
<thead>
<tr><th>单次购买节数</th><th>初级教练（元/节）</th><th>中级教练（元/节）</th><th>高级教练（元/节）</th><th>资深教练（元/节）</th></tr>
</thead>
<tbody>
<tr><td>1–9节</td><td>280</td><td>350</td><td>450</td><td>600</td></tr>
<tr><td>10–29节</td><td>260</td><td>320</td><td>410</td><td>550</td></tr>
<tr><td>30–59节</td><td>240</td><td>300</td><td>380</td><td>500</td></tr>
<tr><td>60节及以上</td><td>220</td><td>280</td><td>350</td><td>460</td></tr>
</tbody>
</table>
<p>每节私教课60分钟。节数按单次购买的节数计算，多次购买的节数不累计。两名会员同上一节的双人私教，按单价的1.5倍收取。首次购买私教课的会员，赠送体测与体态评估1次。私教课包的有效期和退课办法见《会员服务与退卡规定》。</p>

<h2>四、其他服务</h2>
<table border="1">
<thead>
<tr><th>项目</th><th>收费标准</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>毛巾租用</td><td>5元/次</td><td>年卡会员免费</td></tr>
<tr><td>储物柜月租</td><td>60元/月</td><td>南湖店、梧桐店；高新店只有当日柜</td></tr>
<tr><td>泳池单次（非会员）</td><td>45元/次</td><td>仅南湖店；身高1.2米以下的儿童须由成人陪同</td></tr>
<tr><td>团课单次（非会员）</td><td>59元/节</td><td>须提前预约</td></tr>
<tr><td>体测与体态评估</td><td>99元/次</td><td>会员每季度免费1次</td></tr>
<tr><td>带客体验</td><td>80元/人次</td><td>年卡会员每年免费带客4次</td></tr>
<tr><td>补办会员卡</td><td>30元</td><td></td></tr>
</tbody>
</table>

<h2>五、门店与营业时间</h2>
<table border="1">
<thead>
<tr><th>门店</th><th>地址</th><th>营业时间</th><th>泳池</th></tr>
</thead>
<tbody>
<tr><td>南湖店</td><td>栖川市南湖区临湖路18号</td><td>6:00–23:00</td><td>恒温泳池，6:30–21:30开放</td></tr>
<tr><td>梧桐店</td><td>栖川市梧桐区梧桐大道306号</td><td>6:00–23:00</td><td>无</td></tr>
<tr><td>高新店</td><td>栖川市高新园科创路9号</td><td>24小时</td><td>无</td></tr>
</tbody>
</table>
<p>高新店23:00至次日6:00只能刷卡入场，前台不办理业务。</p>

<footer>栖川青禾健身管理有限公司 会员服务部　栖川市南湖区临湖路18号三楼　会员热线：6210 8800</footer>
</body>
</html>
"""

QH_STAFF_MD = """
# 栖川青禾健身管理有限公司 员工考勤与津贴办法

文件编号：青禾人〔2025〕7号　施行日期：2025年10月1日　发布：人力行政部

## 一、总则

第一条　本办法适用于公司总部和南湖店、梧桐店、高新店的全体员工。教练的私教课时提成、团课课时费和考核另按《教练课时提成与考核办法》执行。

第二条　各门店实行轮班制。店长于每周五前公布下一周的排班表。

## 二、班次

第三条　班次时间如下：

| 班次 | 时间 | 适用范围 |
|---|---|---|
| 早班 | 6:00–14:00 | 各门店 |
| 晚班 | 14:00–23:00（含1小时就餐） | 各门店 |
| 通宵班 | 22:30至次日6:30 | 仅高新店 |
| 行政班 | 9:00–18:00（中午休息1小时） | 公司总部 |

第四条　通宵班只安排员工名册中“通宵班”登记为“是”的人员。每人每月通宵班不超过8个，连续通宵班不超过4个。实习人员和兼职人员不安排通宵班。

第五条　泳池值班须持有有效的救生员证。员工名册中“救生员证”登记为“无”的人员一律不得在泳池值班，泳池缺人时临时顶班的教练也不例外。

第六条　每个门店的每个班次至少安排1名持有急救证的员工在岗。

## 三、津贴

第七条　津贴标准如下：

| 岗位 | 通宵班津贴（元/班） | 泳池值班津贴（元/班） | 餐补（元/天） |
|---|---|---|---|
| 店长 | 100 | 不发放 | 25 |
| 前台接待、会籍顾问 | 80 | 不发放 | 20 |
| 私人教练、团课教练 | 80 | 50 | 20 |
| 救生员 | 不发放 | 60 | 20 |
| 维修技工、保洁员 | 70 | 30 | 20 |
| 行政人员 | 不发放 | 不发放 | 20 |

第八条　泳池值班津贴只发给持有救生员证、当班实际在泳池值班的员工。餐补按当天出勤满6小时发放。实习人员只发餐补，不发其他津贴。

第九条　法定节假日当班的，除按规定支付加班工资外，每班另发节日补助80元；春节（除夕至正月初三）当班的，每班另发200元，不再发80元的节日补助。

## 四、工龄奖

第十条　全职员工按在本公司的工作年限（司龄）每月发放工龄奖：

| 司龄 | 工龄奖（元/月） |
|---|---|
| 不满1年 | 0 |
| 满1年不满3年 | 100 |
| 满3年不满5年 | 200 |
| 满5年及以上 | 300 |

兼职人员和实习人员不发工龄奖。

## 五、年休假

第十一条　员工的年休假由法定年休假和企业福利假两部分组成。法定年休假按累计工作年限确定：

| 累计工作年限 | 法定年休假 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满10年 | 5天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |

企业福利假按司龄确定：

| 司龄 | 企业福利假 |
|---|---|
| 不满5年 | 0天 |
| 满5年不满10年 | 1天 |
| 满10年及以上 | 2天 |

累计工作年限以员工名册登记的为准（名册登记的是截至当年1月1日已满的整年数）；司龄按员工名册中的入职日期计算，也以截至当年1月1日已满的整年数为准。实习人员和兼职人员不享受年休假和企业福利假。

第十二条　年休假须提前7天申请。每年1月至3月为健身旺季，门店员工原则上不安排年休假。当年未休完的年休假，最多可以结转2天到次年第二季度使用。

## 六、员工健身

第十三条　员工本人可以在下班后免费使用所在门店的器械区，不得占用会员预约的私教和团课时段。

## 七、附则

第十四条　本办法由人力行政部负责解释，自2025年10月1日起施行。人力行政部电话：6210 8806。
"""

QH_SERVICE = [
    ("p", "文件编号：青禾会〔2025〕4号　施行日期：2025年11月1日　发布：会员服务部"),
    ("h", "一、办卡与入场"),
    ("p", "办卡须本人持身份证到门店前台办理，年满16周岁方可办卡；16至18周岁的须由监护人到场签字。60周岁及以上的会员办卡时须签署健康声明。会员凭本人会员卡或人脸识别入场，会员卡不得借给他人使用，借卡的一经发现停卡30天。"),
    ("h", "二、冻结（停卡）"),
    ("t", ["卡种", "可冻结次数", "每次最长", "手续费"], [
        ["月卡、次卡", "不可冻结", "—", "—"],
        ["季卡", "1次", "15天", "免费"],
        ["年卡", "2次", "两次合计不超过60天", "第1次免费，第2次50元"],
        ["学生年卡", "寒假、暑假各1次", "30天", "免费"],
    ]),
    ("p", "因怀孕或因伤病住院不能训练的，凭医院证明可以冻结，最长180天，不受上表次数和天数的限制，不收手续费。冻结期间有效期顺延。"),
    ("h", "三、退卡与转让"),
    ("t", ["自办卡之日起", "退款标准"], [
        ["7天以内（含7天）且未入场", "全额退款"],
        ["30天以内（含30天）", "按剩余天数折算金额的80%退还"],
        ["31天至180天", "按剩余天数折算金额的60%退还"],
        ["超过180天", "不予退款，可以转让"],
    ]),
    ("p", "月卡和次卡一经激活不予退款。剩余天数折算金额=实付金额×剩余天数÷有效期天数；享受团体购卡折扣或续费立减的，按实付金额计算。年卡转让的手续费为200元，季卡为100元；学生年卡不得转让。"),
    ("h", "四、私教课"),
    ("t", ["单次购买节数", "课包有效期"], [
        ["1–9节", "3个月"],
        ["10–29节", "6个月"],
        ["30–59节", "12个月"],
        ["60节及以上", "18个月"],
    ]),
    ("p", "会员取消私教课须在上课前12小时提出；不足12小时取消或无故缺席的，按已上课扣除1节。因教练原因取消的，补上1节，另赠送1节。课包到期未上完的，可以申请延期1次，最长1个月，手续费100元。"),
    ("p", "退私教课的，按未上节数乘以购买单价退还，扣除退款金额的10%作为手续费；赠送的节数不退款。"),
    ("h", "五、团课预约"),
    ("p", "团课须通过“青禾健身”小程序预约，开课前48小时开放预约。开课前1小时以内不能取消预约。当月预约后未到场累计3次的，暂停团课预约7天。"),
    ("h", "六、意外与赔偿"),
    ("t", ["情形", "处理"], [
        ["储物柜被撬导致物品丢失", "按实际损失赔偿，每人每次最高2000元"],
        ["器械故障导致会员受伤", "承担医疗费用，并将会员卡有效期免费延长30天"],
        ["会员未按规范使用器械或不听教练劝阻受伤", "公司不承担责任"],
    ]),
    ("p", "现金、首饰、手机等贵重物品请勿存放在储物柜内；存放在储物柜内丢失的，公司不承担赔偿责任，储物柜被撬的除外。"),
    ("h", "七、投诉"),
    ("p", "会员可以向门店前台或拨打会员热线6210 8800投诉。公司在收到投诉后48小时内答复。"),
]


def _coach_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：青禾人〔2024〕2号　版本：2024版　施行日期：2024年3月1日　发布：人力行政部"
        pt = [["初级教练", "60"], ["中级教练", "80"], ["高级教练", "110"], ["资深教练", "150"]]
        mid, top, complaint, best = "300元", "800元", "100元", "3000"
        closing = "本办法由人力行政部负责解释，自2024年3月1日起施行。"
    else:
        head = "文件编号：青禾人〔2026〕1号　版本：2026版　施行日期：2026年1月1日　发布：人力行政部"
        pt = [["初级教练", "70"], ["中级教练", "95"], ["高级教练", "130"], ["资深教练", "180"]]
        mid, top, complaint, best = "500元", "1200元", "200元", "5000"
        closing = ("本办法由人力行政部负责解释，自2026年1月1日起施行，"
                   "《教练课时提成与考核办法（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本办法适用于公司的私人教练和团课教练，包括兼职教练。"),
        ("h", "第二条　私教课时提成"),
        ("p", "教练每上一节私教课，按教练级别发放课时提成（金额单位：元）："),
        ("t", ["教练级别", "课时提成（元/节）"], pt),
        ("p", "会员不足12小时取消或无故缺席、按已上课扣节的，提成照发。赠送的私教课按上表标准的一半发放提成。双人私教按上表标准的1.5倍发放提成。试用期内的教练按上表标准的80%发放。"),
        ("h", "第三条　团课课时费"),
        ("t", ["课程类型", "课时费（元/节）"], [
            ["动感单车、搏击操", "90"],
            ["瑜伽、普拉提", "110"],
            ["游泳课（仅南湖店）", "130"],
        ]),
        ("p", "团课实际到课不足5人的，课时费按一半发放。"),
        ("h", "第四条　月度课时奖"),
        ("t", ["当月完成私教课节数", "月度课时奖"], [
            ["不足40节", "无"],
            ["40–79节", mid],
            ["80节及以上", top],
        ]),
        ("p", "赠送的私教课不计入节数。兼职教练不参加月度课时奖。"),
        ("h", "第五条　考核扣款"),
        ("t", ["项目", "扣款"], [
            ["上课迟到（每次）", "50元"],
            ["无故缺课（每次）", "300元"],
            ["会员有效投诉（每次）", complaint],
            ["私下向会员收费授课", "解除劳动合同"],
        ]),
        ("h", "第六条　年度优秀教练奖"),
        ("p", f"全年（1月至12月）完成私教课800节及以上且无会员有效投诉的教练，年终发放年度优秀教练奖{best}元。兼职教练不参加评选。"),
        ("h", "第七条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 门店, 岗位, 教练级别, 入职日期, 累计工作年限, 救生员证, 急救证, 通宵班, 用工形式
QH_STAFF = [
    ["QH01", "林振华", "南湖店", "店长", "—", "2015-06-01", 18, "有", "有", "否", "全职"],
    ["QH02", "苏晓敏", "南湖店", "前台接待", "—", "2021-03-15", 6, "无", "有", "否", "全职"],
    ["QH03", "郭大鹏", "南湖店", "私人教练", "资深", "2014-09-01", 21, "有", "有", "否", "全职"],
    ["QH04", "唐婉清", "南湖店", "私人教练", "中级", "2019-04-08", 8, "无", "有", "否", "全职"],
    ["QH05", "马骁", "南湖店", "私人教练", "初级", "2024-07-01", 2, "有", "有", "否", "全职"],
    ["QH06", "罗雅琪", "南湖店", "团课教练", "—", "2020-10-19", 9, "无", "有", "否", "兼职"],
    ["QH07", "邓凯", "南湖店", "救生员", "—", "2018-05-21", 12, "有", "有", "否", "全职"],
    ["QH08", "许诺", "南湖店", "救生员", "—", "2025-06-16", 1, "有", "无", "否", "全职"],
    ["QH09", "彭丽娟", "南湖店", "保洁员", "—", "2017-02-27", 26, "无", "无", "否", "全职"],
    ["QH10", "谢振宇", "梧桐店", "店长", "—", "2016-08-08", 15, "无", "有", "否", "全职"],
    ["QH11", "梁思远", "梧桐店", "私人教练", "高级", "2017-03-06", 11, "无", "有", "否", "全职"],
    ["QH12", "宋佳怡", "梧桐店", "私人教练", "初级", "2023-09-11", 3, "无", "有", "否", "全职"],
    ["QH13", "韦志强", "梧桐店", "会籍顾问", "—", "2022-05-09", 4, "无", "无", "否", "全职"],
    ["QH14", "叶欣然", "梧桐店", "团课教练", "—", "2019-11-25", 7, "无", "有", "否", "全职"],
    ["QH15", "贺明轩", "梧桐店", "前台接待", "—", "2025-07-07", 0, "无", "无", "否", "实习"],
    ["QH16", "钟伟", "高新店", "店长", "—", "2018-01-08", 13, "无", "有", "是", "全职"],
    ["QH17", "江涛", "高新店", "私人教练", "资深", "2016-04-18", 16, "有", "有", "是", "全职"],
    ["QH18", "傅晨", "高新店", "私人教练", "高级", "2020-06-29", 10, "无", "有", "是", "全职"],
    ["QH19", "姚敏", "高新店", "私人教练", "中级", "2021-12-06", 8, "无", "有", "否", "兼职"],
    ["QH20", "潘宇航", "高新店", "前台接待", "—", "2023-02-13", 3, "无", "有", "是", "全职"],
    ["QH21", "顾晓峰", "高新店", "会籍顾问", "—", "2019-07-22", 9, "无", "无", "是", "全职"],
    ["QH22", "汤文杰", "高新店", "维修技工", "—", "2015-10-12", 23, "无", "有", "是", "全职"],
    ["QH23", "白露", "高新店", "团课教练", "—", "2024-03-04", 4, "无", "有", "否", "兼职"],
    ["QH24", "孟庆国", "公司总部", "行政人员", "—", "2013-05-06", 28, "无", "无", "否", "全职"],
    ["QH25", "萧雨桐", "公司总部", "行政人员", "—", "2022-08-15", 6, "无", "无", "否", "全职"],
    ["QH26", "任海燕", "南湖店", "私人教练", "高级", "2012-11-05", 20, "有", "有", "否", "全职"],
]

# 编号, 类别, 名称, 门店, 数量, 购置年份, 单价(元), 状态
QH_EQUIPMENT = [
    ["QJ01", "有氧器械", "商用跑步机", "南湖店", 6, 2019, 31000, "在用"],
    ["QJ02", "有氧器械", "商用跑步机", "南湖店", 4, 2022, 34500, "在用"],
    ["QJ03", "有氧器械", "椭圆机", "南湖店", 4, 2018, 18600, "在用"],
    ["QJ04", "有氧器械", "动感单车", "南湖店", 20, 2021, 6800, "在用"],
    ["QJ05", "有氧器械", "动感单车", "南湖店", 12, 2015, 5200, "报废"],
    ["QJ06", "力量器械", "史密斯架", "南湖店", 2, 2017, 15800, "在用"],
    ["QJ07", "力量器械", "龙门架", "南湖店", 1, 2023, 26000, "在用"],
    ["QJ08", "其他设备", "泳池水处理系统", "南湖店", 1, 2016, 86000, "在用"],
    ["QJ09", "有氧器械", "商用跑步机", "梧桐店", 3, 2016, 28000, "维修中"],
    ["QJ10", "有氧器械", "商用跑步机", "梧桐店", 5, 2021, 33000, "在用"],
    ["QJ11", "有氧器械", "动感单车", "梧桐店", 16, 2020, 6500, "在用"],
    ["QJ12", "有氧器械", "划船机", "梧桐店", 3, 2022, 9800, "在用"],
    ["QJ13", "力量器械", "腿举机", "梧桐店", 1, 2014, 21000, "报废"],
    ["QJ14", "力量器械", "坐姿推胸机", "梧桐店", 1, 2019, 16500, "维修中"],
    ["QJ15", "其他设备", "体测仪", "梧桐店", 1, 2023, 12800, "在用"],
    ["QJ16", "有氧器械", "商用跑步机", "高新店", 4, 2020, 32000, "在用"],
    ["QJ17", "有氧器械", "商用跑步机", "高新店", 3, 2024, 36800, "在用"],
    ["QJ18", "有氧器械", "商用跑步机", "高新店", 2, 2018, 29500, "维修中"],
    ["QJ19", "有氧器械", "商用跑步机", "高新店", 2, 2025, 37200, "在用"],
    ["QJ20", "有氧器械", "动感单车", "高新店", 18, 2024, 7200, "在用"],
    ["QJ21", "有氧器械", "动感单车", "高新店", 4, 2019, 6300, "维修中"],
    ["QJ22", "力量器械", "深蹲架", "高新店", 3, 2021, 13500, "在用"],
    ["QJ23", "力量器械", "龙门架", "高新店", 1, 2025, 27500, "在用"],
    ["QJ24", "其他设备", "门禁闸机", "高新店", 2, 2018, 22000, "在用"],
]


# ----------------------------------------------------------------------------------------------
# Fernbrook Vets (fernbrook-vets), Fernbrook, on the River Lusk
# ----------------------------------------------------------------------------------------------

FV = HERE / "fernbrook-vets"

FV_FEES_HTML = """
<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Fernbrook Vets — Fees and Charges 2026</title>
</head>
<body>
<h1>Fernbrook Vets — Fees and Charges 2026</h1>
<p>Valid from 1 January to 31 December 2026. All prices include VAT. Fernbrook Vets Ltd, 14 Tanner's Row, Fernbrook,
on the River Lusk, with branch surgeries at Kestle Cross and Mill Green. Appointments: 01632 960 215.</p>

<h2>1. Consultations</h2>
<table border="1">
<thead>
<tr><th>Consultation</th><th>Weekdays 08:00–19:00</th><th>Saturday morning</th><th>Out of hours</th></tr>
</thead>
<tbody>
<tr><td>Vet consultation (15 minutes)</td><td>£52</td><td>£62</td><td>£165</td></tr>
<tr><td>Second pet seen in the same consultation</td><td>£26</td><td>£31</td><td>£80</td></tr>
<tr><td>Nurse clinic (weight check, nail clip, stitches out)</td><td>£24</td><td>£28</td><td>Not available</td></tr>
<tr><td>Home visit (added to the consultation)</td><td>£90</td><td>£120</td><td>£180</td></tr>
<tr><td>Second opinion (30 minutes)</td><td>£95</td><td>Not available</td><td>Not available</td></tr>
</tbody>
</table>
<p>Out of hours means 19:00 to 08:00 on weekdays, from the end of Saturday morning surgery until 08:00 on Monday,
and all day on bank holidays. Out-of-hours patients are seen at Tanner's Row only; please phone first.</p>
<p>A re-check for the same problem within 10 days of a vet consultation is free on weekdays. Clients aged 66 or over
get 10% off vet consultations on weekdays (not on Saturdays and not out of hours). Pet Health Plan members get the
discount set out in the Pet Health Plan Terms. Discounts are never added together: you get whichever is larger.</p>

<h2>2. Neutering and dental treatment for dogs</h2>
<table border="1">
<thead>
<tr><th>Dog's weight</th><th>Spay (bitch)</th><th>Castration</th><th>Dental scale and polish</th></tr>
</thead>
<tbody>
<tr><td>Up to 10 kg</td><td>£310</td><td>£245</td><td>£285</td></tr>
<tr><td>10.1–25 kg</td><td>£365</td><td>£290</td><td>£315</td></tr>
<tr><td>25.1–40 kg</td><td>£440</td><td>£345</td><td>£350</td></tr>
<tr><td>Over 40 kg</td><td>£520</td><td>£405</td><td>£390</td></tr>
</tbody>
</table>
<p>The price band is set by the dog's weight on the day of the operation. Prices include the anaesthetic, pain relief
to take home and a post-operative check. A keyhole (laparoscopic) spay costs £180 more. We do not spay a bitch that
is in season or has been in season in the last 8 weeks. Dental extractions are charged on top at £18 per tooth.
Pets aged 8 years or over must have a pre-anaesthetic blood test (£68) before any general anaesthetic; for younger
pets the test is optional.</p>
<p>Cats: spay £125, castration £82. Rabbits: spay £165, castration £120.</p>

<h2>3. Vaccinations and other treatments</h2>
<table border="1">
<thead>
<tr><th>Treatment</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Dog primary vaccination course (2 injections)</td><td>£76</td><td>From 8 weeks old</td></tr>
<tr><td>Dog annual booster</td><td>£54</td><td>Includes a health check</td></tr>
<tr><td>Kennel cough vaccine (nasal)</td><td>£36</td><td>Once a year</td></tr>
<tr><td>Cat primary vaccination course (2 injections)</td><td>£70</td><td>From 9 weeks old</td></tr>
<tr><td>Cat annual booster</td><td>£50</td><td>Includes a health check</td></tr>
<tr><td>Rabbit combined vaccine (myxomatosis and RHD)</td><td>£58</td><td>Once a year</td></tr>
<tr><td>Microchipping</td><td>£22</td><td>Free when done at the same visit as a primary vaccination</td></tr>
<tr><td>Animal health certificate for travel abroad</td><td>£185</td><td>Book at least 10 days before you travel</td></tr>
<tr><td>Nail clip</td><td>£14</td><td>Nurse clinic</td></tr>
</tbody>
</table>
<p>If an annual booster is given more than 3 months after its due date, the vaccination course has to be started
again and is charged at the primary course price.</p>

<footer>Fernbrook Vets Ltd · 14 Tanner's Row, Fernbrook · 01632 960 215</footer>
</body>
</html>
"""

FV_STAFF_MD = """
# Fernbrook Vets — Staff Handbook

Edition 2025 · Issued by the practice manager on 1 September 2025

## 1. Our surgeries

| Surgery | Weekdays | Saturday | Out-of-hours service | Facilities |
|---|---|---|---|---|
| Tanner's Row | 08:00–19:00 | 09:00–13:00 | Yes, every night, weekend and bank holiday | Two operating theatres, X-ray, wards |
| Kestle Cross | 08:30–18:30 | 09:00–12:00 | No | One operating theatre, X-ray |
| Mill Green | 09:00–17:00 | Closed | No | Consultations and nurse clinics only |

Rotas are published every other Friday for the two weeks after next.

## 2. Out-of-hours on-call

| Role | Weeknight on call (19:00–08:00) | Weekend day on call | Bank holiday on call | Call-out (each time called in) |
|---|---|---|---|---|
| Vet (including the Clinical Director and locum vets) | £120 | £200 | £300 | £50 |
| Registered Veterinary Nurse (RVN) | £70 | £120 | £180 | £30 |
| Patient Care Assistant | £40 | £70 | £105 | £20 |

Only staff marked on_call Yes in staff.csv are put on the out-of-hours rota. Nobody is on call for more than 2
weeknights in a row or more than 2 weekend days in a month. A weeknight or weekend day that is also a bank holiday
is paid at the bank holiday rate only; the rates are not added together. Call-out payments are paid on top of the
on-call rate, for each time you are called in. If you are called in after 02:00, your next shift starts at 12:00.

Student nurses are never on call on their own and are not paid on-call rates; they may join an on-call RVN to learn.

## 3. Controlled drugs and X-rays

Only staff marked cd_signatory Yes in staff.csv may sign the controlled drugs register or hold the keys to the
controlled drugs cabinet. This applies to locums as well: there are no exceptions.

Only staff marked xray_trained Yes may take radiographs. Everybody in the X-ray room wears a lead apron and a
dosimeter badge.

## 4. Annual leave

| Complete years of service on 1 January | Annual leave (full-time, 40 hours a week) |
|---|---|
| Under 2 years | 25 days |
| 2 to 4 years | 26 days |
| 5 to 9 years | 28 days |
| 10 years or more | 30 days |

Bank holidays are in addition. Part-time staff get leave in proportion to their hours_per_week divided by 40,
rounded up to the next half day. Locums are self-employed and students are on placement: neither gets annual leave
from the practice. Book leave at least 4 weeks ahead; no more than two vets may be on leave in the same week.

## 5. CPD

| Role | CPD days a year | CPD budget a year |
|---|---|---|
| Vet | 5 | £1,500 |
| Registered Veterinary Nurse (RVN) | 4 | £800 |
| Patient Care Assistant, Receptionist | 2 | £250 |

Unused CPD budget is not carried over to the next year. Staff who leave within 12 months of a course that cost the
practice more than £500 pay back half of the course fee.

## 6. Staff pets

Staff get 30% off fees for up to 3 pets of their own. Medicines are charged at cost plus 10%. The staff discount is
never combined with the Pet Health Plan discount.
"""


def _plan_blocks(version: str) -> list:
    if version == "2024":
        head = "Document FV-HP-24 · Version 2024 · Effective 1 February 2024"
        prices = [
            ["Cat", "£14.50"],
            ["Rabbit", "£9.50"],
            ["Dog up to 10 kg", "£16.00"],
            ["Dog 10.1–25 kg", "£19.50"],
            ["Dog over 25 kg", "£23.00"],
        ]
        pct, multi, fee = "10%", "£1.50", "£25"
        closing = "These terms apply from 1 February 2024."
    else:
        head = "Document FV-HP-26 · Version 2026 · Effective 1 January 2026"
        prices = [
            ["Cat", "£16.00"],
            ["Rabbit", "£10.50"],
            ["Dog up to 10 kg", "£18.00"],
            ["Dog 10.1–25 kg", "£21.50"],
            ["Dog over 25 kg", "£26.00"],
        ]
        pct, multi, fee = "12%", "£2.00", "£35"
        closing = ("These terms apply from 1 January 2026 and replace the Pet Health Plan Terms 2024, which are "
                   "withdrawn.")
    return [
        ("p", head),
        ("h", "1. What the plan covers"),
        ("t", ["Item", "Included"], [
            ["Annual vaccination (booster, or the primary course for a puppy or kitten)", "1 a year"],
            ["Health check with a vet", "2 a year"],
            ["Flea and worm treatment", "Every month"],
            ["Nurse clinic (weight check, nail clip)", "Unlimited"],
        ]),
        ("h", "2. Monthly price"),
        ("t", ["Pet", "Monthly price"], prices),
        ("p", "Dogs are priced by the weight recorded at their last health check. Prices include VAT."),
        ("h", "3. Member discount"),
        ("p", f"Plan members get {pct} off vet consultations in normal opening hours, neutering, dental treatment and "
              "hospital stays. The discount is not given on out-of-hours consultations, medicines, referrals, animal "
              "health certificates or cremation."),
        ("h", "4. More than one pet"),
        ("p", f"Each further pet on the same account gets {multi} off its monthly price."),
        ("h", "5. Joining"),
        ("p", "Pets can join from 8 weeks old. Dogs and cats aged 12 years or over can join only after a senior "
              "health check with a vet, charged at £40."),
        ("h", "6. Paying and leaving"),
        ("p", "The plan is paid monthly by direct debit and runs for a minimum of 12 months. After 12 months you may "
              "cancel at any time with 30 days' notice. If you cancel within the first 12 months, you pay the full "
              "price of the treatments you have had, less the plan payments you have made, plus an administration "
              f"fee of {fee}. If a direct debit fails twice in a row, the plan lapses and the member discount stops."),
        ("h", "7. Effective date"),
        ("p", closing),
    ]


FV_POLICIES = [
    ("p", "Document FV-CP-03 · Edition 2025 · Effective 1 June 2025"),
    ("h", "1. Appointments"),
    ("p", "Book online or on 01632 960 215. Please cancel at least 24 hours before your appointment. A missed "
          "appointment, or one cancelled less than 24 hours before, is charged as follows:"),
    ("t", ["Missed or late-cancelled appointment", "Charge"], [
        ["Vet consultation or nurse clinic", "£25"],
        ["Operation or dental (admission day)", "£60"],
    ]),
    ("p", "The first missed appointment in any 12 months is not charged, whatever the type of appointment."),
    ("h", "2. Estimates, deposits and paying"),
    ("p", "We give a written estimate before any operation. When a pet is admitted, we ask for a deposit:"),
    ("t", ["Estimated cost of treatment", "Deposit when admitted"], [
        ["Under £300", "None"],
        ["£300–£999", "30% of the estimate"],
        ["£1,000 and over", "50% of the estimate"],
    ]),
    ("p", "Payment is due at the end of the consultation, or when the pet goes home. We take cards, bank transfer and "
          "cash up to £500. We claim directly from your insurer only for claims over £400; the direct-claim "
          "administration fee is £30, and you pay your policy excess when the pet goes home."),
    ("h", "3. Prescriptions"),
    ("p", "A written prescription costs £21. Repeat prescriptions need 48 hours' notice. A pet on long-term "
          "medication must be examined by a vet at least every 6 months before repeat prescriptions can continue. "
          "Controlled drugs are supplied for at most 28 days at a time."),
    ("h", "4. Pets staying in"),
    ("t", ["Patient", "Ward, per day", "Intensive care, per day"], [
        ["Cat", "£48", "£120"],
        ["Dog up to 25 kg", "£58", "£140"],
        ["Dog over 25 kg", "£72", "£165"],
        ["Rabbit or other small pet", "£36", "£95"],
    ]),
    ("p", "Pets stay in at Tanner's Row only. Visiting hours are 14:00–16:00 every day. Phone for an update after "
          "11:00."),
    ("h", "5. Euthanasia and aftercare"),
    ("t", ["Service", "Cat or small pet", "Dog up to 25 kg", "Dog over 25 kg"], [
        ["Euthanasia", "£95", "£120", "£140"],
        ["Communal cremation", "£45", "£75", "£110"],
        ["Individual cremation, ashes returned", "£140", "£195", "£260"],
    ]),
    ("p", "For euthanasia at home, the home visit fee is added. Ashes are returned within 10 working days."),
    ("h", "6. In the waiting room"),
    ("p", "Dogs must be on a short lead and cats and rabbits in a carrier. If your pet may be infectious, for example "
          "with diarrhoea or kennel cough, tell reception before you come in: we will see you in the isolation room."),
    ("h", "7. Emergencies"),
    ("p", "Out of hours, ring 01632 960 215 and you will be put through to the on-call vet at Tanner's Row. Please "
          "do not come without phoning first."),
    ("h", "8. Complaints"),
    ("p", "Write to the practice manager. We reply within 10 working days."),
]

# staff_id, name, role, site, contract, hours_per_week, start_date, on_call, cd_signatory, xray_trained
FV_STAFF = [
    ["FS01", "Helen Marchbank", "Clinical Director", "Tanner's Row", "Permanent", 40, "2009-09-01", "Yes", "Yes", "Yes"],
    ["FS02", "Rhys Okafor", "Vet", "Tanner's Row", "Permanent", 40, "2016-02-15", "Yes", "Yes", "Yes"],
    ["FS03", "Clara Whitlow", "Vet", "Kestle Cross", "Permanent", 32, "2019-07-01", "Yes", "Yes", "No"],
    ["FS04", "Ben Harcourt", "Vet", "Tanner's Row", "Permanent", 40, "2022-09-05", "Yes", "No", "Yes"],
    ["FS05", "Isla Fenn", "Vet", "Mill Green", "Permanent", 24, "2018-03-12", "No", "Yes", "No"],
    ["FS06", "Tobias Lund", "Locum Vet", "Tanner's Row", "Locum", 40, "2025-10-06", "Yes", "No", "No"],
    ["FS07", "Megan Purslow", "RVN", "Tanner's Row", "Permanent", 40, "2012-05-14", "Yes", "Yes", "Yes"],
    ["FS08", "Dylan Ashby", "RVN", "Tanner's Row", "Permanent", 40, "2020-01-20", "Yes", "No", "Yes"],
    ["FS09", "Poppy Gildea", "RVN", "Kestle Cross", "Permanent", 30, "2017-11-06", "Yes", "No", "Yes"],
    ["FS10", "Nia Rowntree", "RVN", "Mill Green", "Permanent", 20, "2023-04-17", "No", "No", "No"],
    ["FS11", "Sam Beckwith", "Student Nurse", "Tanner's Row", "Student", 40, "2025-09-01", "No", "No", "No"],
    ["FS12", "Aaron Tilley", "Patient Care Assistant", "Tanner's Row", "Permanent", 40, "2021-06-07", "Yes", "No", "No"],
    ["FS13", "Jess Carrow", "Patient Care Assistant", "Kestle Cross", "Permanent", 25, "2024-02-26", "No", "No", "No"],
    ["FS14", "Linda Moss", "Receptionist", "Tanner's Row", "Permanent", 35, "2011-03-21", "No", "No", "No"],
    ["FS15", "Farah Qureshi", "Receptionist", "Kestle Cross", "Permanent", 30, "2019-10-14", "No", "No", "No"],
    ["FS16", "Owen Pascoe", "Receptionist", "Mill Green", "Permanent", 20, "2022-01-04", "No", "No", "No"],
    ["FS17", "Grace Eldridge", "Practice Manager", "Tanner's Row", "Permanent", 37.5, "2014-08-18", "No", "No", "No"],
    ["FS18", "Kai Brennock", "Patient Care Assistant", "Tanner's Row", "Permanent", 40, "2015-12-01", "Yes", "No", "Yes"],
]

# plan_no, pet_name, species, breed, sex, weight_kg, birth_year, site, joined, status, neutered
FV_PETS = [
    ["FP001", "Biscuit", "Dog", "Labrador Retriever", "F", 28.5, 2019, "Tanner's Row", "2019-06-10", "Active", "Yes"],
    ["FP002", "Mochi", "Cat", "Domestic Shorthair", "F", 4.1, 2021, "Kestle Cross", "2021-08-02", "Active", "Yes"],
    ["FP003", "Ziggy", "Dog", "Border Terrier", "M", 7.2, 2020, "Mill Green", "2020-11-16", "Active", "Yes"],
    ["FP004", "Pepper", "Cat", "Maine Coon", "M", 7.8, 2018, "Tanner's Row", "2018-04-23", "Active", "Yes"],
    ["FP005", "Hazel", "Rabbit", "Netherland Dwarf", "F", 1.1, 2023, "Kestle Cross", "2023-05-08", "Active", "Yes"],
    ["FP006", "Bramble", "Dog", "Cocker Spaniel", "F", 13.4, 2022, "Tanner's Row", "2022-03-14", "Active", "No"],
    ["FP007", "Otis", "Dog", "Labrador Retriever", "M", 32.1, 2017, "Kestle Cross", "2017-09-04", "Active", "Yes"],
    ["FP008", "Luna", "Cat", "Ragdoll", "F", 5.3, 2020, "Mill Green", "2020-02-17", "Cancelled", "Yes"],
    ["FP009", "Moose", "Dog", "Newfoundland", "M", 61.0, 2021, "Tanner's Row", "2021-10-11", "Active", "Yes"],
    ["FP010", "Tilly", "Dog", "Cavapoo", "F", 8.9, 2023, "Mill Green", "2023-07-24", "Active", "No"],
    ["FP011", "Smudge", "Cat", "Domestic Shorthair", "M", 5.0, 2016, "Tanner's Row", "2016-05-30", "Active", "Yes"],
    ["FP012", "Juniper", "Dog", "Whippet", "F", 12.6, 2019, "Kestle Cross", "2019-12-02", "Lapsed", "Yes"],
    ["FP013", "Nutmeg", "Rabbit", "Lionhead", "M", 1.6, 2022, "Tanner's Row", "2022-06-20", "Active", "Yes"],
    ["FP014", "Rolo", "Dog", "Dachshund", "M", 9.4, 2021, "Mill Green", "2021-04-12", "Active", "Yes"],
    ["FP015", "Willow", "Cat", "British Shorthair", "F", 4.6, 2019, "Kestle Cross", "2019-03-11", "Active", "Yes"],
    ["FP016", "Bear", "Dog", "German Shepherd", "M", 38.2, 2020, "Tanner's Row", "2020-08-17", "Active", "No"],
    ["FP017", "Poppy", "Dog", "Labrador Retriever", "F", 30.9, 2015, "Tanner's Row", "2015-11-09", "Active", "Yes"],
    ["FP018", "Jasper", "Cat", "Bengal", "M", 5.9, 2022, "Tanner's Row", "2022-11-28", "Active", "Yes"],
    ["FP019", "Clover", "Rabbit", "Dutch", "F", 2.0, 2024, "Mill Green", "2024-09-16", "Cancelled", "No"],
    ["FP020", "Hugo", "Dog", "French Bulldog", "M", 12.1, 2022, "Kestle Cross", "2022-07-04", "Active", "Yes"],
    ["FP021", "Maple", "Dog", "Golden Retriever", "F", 27.3, 2018, "Kestle Cross", "2018-10-22", "Active", "Yes"],
    ["FP022", "Oreo", "Cat", "Domestic Shorthair", "M", 4.8, 2023, "Mill Green", "2023-02-06", "Active", "Yes"],
    ["FP023", "Skye", "Dog", "Border Collie", "F", 19.5, 2020, "Kestle Cross", "2020-06-01", "Active", "Yes"],
    ["FP024", "Teddy", "Dog", "Cockapoo", "M", 10.0, 2024, "Tanner's Row", "2024-04-15", "Active", "No"],
    ["FP025", "Misty", "Cat", "Persian", "F", 3.9, 2012, "Tanner's Row", "2014-09-08", "Active", "Yes"],
    ["FP026", "Archie", "Dog", "Staffordshire Bull Terrier", "M", 17.8, 2019, "Mill Green", "2019-01-28", "Active", "Yes"],
    ["FP027", "Pip", "Cat", "Siamese", "M", 4.2, 2024, "Kestle Cross", "2024-12-09", "Active", "No"],
    ["FP028", "Ruby", "Dog", "Labrador Retriever", "F", 29.0, 2024, "Mill Green", "2024-03-25", "Lapsed", "No"],
    ["FP029", "Dexter", "Dog", "Springer Spaniel", "M", 22.4, 2021, "Tanner's Row", "2021-01-18", "Active", "Yes"],
    ["FP030", "Rex", "Dog", "Boxer", "M", 31.5, 2012, "Tanner's Row", "2013-01-21", "Cancelled", "Yes"],
    ["FP031", "Fern", "Cat", "Domestic Longhair", "F", 4.4, 2021, "Tanner's Row", "2021-05-17", "Lapsed", "Yes"],
    ["FP032", "Ludo", "Dog", "Great Dane", "M", 58.4, 2023, "Kestle Cross", "2023-10-30", "Active", "Yes"],
    ["FP033", "Bella", "Dog", "Shih Tzu", "F", 6.8, 2017, "Mill Green", "2017-05-15", "Active", "Yes"],
    ["FP034", "Sooty", "Cat", "Domestic Shorthair", "M", 5.5, 2019, "Mill Green", "2019-07-29", "Active", "Yes"],
]


def build() -> None:
    QH.mkdir(parents=True, exist_ok=True)
    FV.mkdir(parents=True, exist_ok=True)

    write_text(QH / "会员卡与课程价目表（2026年）.html", QH_PRICES_HTML)
    write_text(QH / "员工考勤与津贴办法.md", QH_STAFF_MD)
    write_docx(QH / "会员服务与退卡规定.docx", "青禾健身 会员服务与退卡规定", QH_SERVICE)
    write_pdf(QH / "教练课时提成与考核办法（2024版）.pdf", "青禾健身 教练课时提成与考核办法（2024版）", _coach_blocks("2024"))
    write_pdf(QH / "教练课时提成与考核办法（2026版）.pdf", "青禾健身 教练课时提成与考核办法（2026版）", _coach_blocks("2026"))
    write_csv(QH / "员工名册.csv",
              ["工号", "姓名", "门店", "岗位", "教练级别", "入职日期", "累计工作年限", "救生员证", "急救证", "通宵班", "用工形式"],
              QH_STAFF)
    write_csv(QH / "器材清单.csv", ["编号", "类别", "名称", "门店", "数量", "购置年份", "单价(元)", "状态"], QH_EQUIPMENT)

    write_text(FV / "Fees_and_Charges_2026.html", FV_FEES_HTML)
    write_text(FV / "Staff_Handbook.md", FV_STAFF_MD)
    write_docx(FV / "Pet_Health_Plan_Terms_2024.docx", "Fernbrook Vets — Pet Health Plan Terms 2024", _plan_blocks("2024"))
    write_docx(FV / "Pet_Health_Plan_Terms_2026.docx", "Fernbrook Vets — Pet Health Plan Terms 2026", _plan_blocks("2026"))
    write_pdf(FV / "Client_Policies.pdf", "Fernbrook Vets — Client Policies", FV_POLICIES)
    write_csv(FV / "staff.csv", ["staff_id", "name", "role", "site", "contract", "hours_per_week", "start_date", "on_call",
                                 "cd_signatory", "xray_trained"], FV_STAFF)
    write_csv(FV / "plan_pets.csv", ["plan_no", "pet_name", "species", "breed", "sex", "weight_kg", "birth_year", "site",
                                     "joined", "status", "neutered"], FV_PETS)


if __name__ == "__main__":
    build()
