"""Build the sixth blind report set of organisational documents (tests/data/orgdocs_blind6/, CC0).

    python tests/data/orgdocs_blind6/build_files.py

Writes every file of the two fictional organisations (qinghe-health, harrowgate-cycles) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind5/build_files.py (only AUTHOR differs).

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
AUTHOR = "orgdocs_blind6"


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
# 青禾社区卫生服务中心 (qinghe-health), 岚水县青禾镇
# ----------------------------------------------------------------------------------------------

QH = HERE / "qinghe-health"

QH_FEES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>青禾社区卫生服务中心 医疗服务收费标准（2026年）</title>
</head>
<body>
<h1>岚水县青禾社区卫生服务中心 医疗服务收费标准（2026年）</h1>
<p>发布：综合办公室　发布日期：2025年12月15日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本标准适用于中心本部（青禾镇禾丰路18号）以及东村、南溪、北岭三个卫生服务站。金额单位为人民币元。药品按进价零差率销售，不在本标准之列。</p>

<h2>一、一般诊疗费</h2>
<table border="1">
<thead>
<tr><th>就诊类别</th><th>收费（元/次）</th><th>医保统筹支付（元/次）</th><th>个人自付（元/次）</th></tr>
</thead>
<tbody>
<tr><td>普通门诊（住院医师、主治医师）</td><td>10</td><td>8</td><td>2</td></tr>
<tr><td>副主任医师门诊</td><td>20</td><td>8</td><td>12</td></tr>
<tr><td>中医门诊</td><td>12</td><td>8</td><td>4</td></tr>
<tr><td>夜间门诊（17:30–21:00）及节假日门诊</td><td>15</td><td>8</td><td>7</td></tr>
</tbody>
</table>
<p>家庭医生签约居民在中心本部和各卫生服务站就诊的，普通门诊、中医门诊、夜间门诊及节假日门诊的个人自付部分免收；副主任医师门诊的个人自付部分照常收取。未参加城乡居民医保的，按“收费”一栏全额自付。</p>

<h2>二、上门服务费</h2>
<table border="1">
<thead>
<tr><th>距离（中心或服务站至居民住址）</th><th>上门服务费（元/次）</th><th>18:00以后另加收（元/次）</th></tr>
</thead>
<tbody>
<tr><td>3公里以内（含3公里）</td><td>30</td><td>20</td></tr>
<tr><td>3–8公里（含8公里）</td><td>50</td><td>20</td></tr>
<tr><td>8公里以上</td><td>80</td><td>30</td></tr>
</tbody>
</table>
<p>上门服务费不含药品、耗材和检查费用。签约失能照护包的居民，服务包内包含的上门次数（见《家庭医生签约服务管理办法》）不收上门服务费；超出包内次数的，按上表标准的50%收取，18:00以后的加收部分照常收取。</p>

<h2>三、健康体检</h2>
<table border="1">
<thead>
<tr><th>年龄</th><th>体检套餐</th><th>价格（元）</th><th>主要项目</th></tr>
</thead>
<tbody>
<tr><td>18–39岁</td><td>青年基础套餐</td><td>160</td><td>血常规、尿常规、肝功能、心电图</td></tr>
<tr><td>40–64岁</td><td>中年套餐</td><td>280</td><td>基础项目，另加血脂、血糖、腹部B超</td></tr>
<tr><td>65岁及以上</td><td>老年人健康体检</td><td>免费（每年1次）</td><td>中年套餐项目，另加眼底检查</td></tr>
</tbody>
</table>
<p>65岁及以上老人的免费体检限本镇户籍居民或在本镇居住满6个月的居民，每年1次；同一年内第二次及以后的体检，按中年套餐价格收费。单位组织10人以上团体体检的，按套餐价格9折收费（老年人免费体检不在此列）。</p>

<h2>四、中医理疗</h2>
<table border="1">
<thead>
<tr><th>项目</th><th>单次（元）</th><th>10次疗程卡（元）</th></tr>
</thead>
<tbody>
<tr><td>针灸</td><td>25</td><td>220</td></tr>
<tr><td>推拿（30分钟）</td><td>40</td><td>360</td></tr>
<tr><td>拔罐</td><td>15</td><td>130</td></tr>
<tr><td>艾灸</td><td>20</td><td>180</td></tr>
<tr><td>中药熏蒸</td><td>35</td><td>300</td></tr>
</tbody>
</table>
<p>70岁及以上老人做单次理疗按8折收费；疗程卡已含优惠，不再打折。疗程卡自购买之日起3个月内有效，不退不转让。中医理疗须在中心本部中医科或南溪卫生服务站办理。</p>

<footer>岚水县青禾社区卫生服务中心 综合办公室　青禾镇禾丰路18号　服务热线：6628 1200</footer>
</body>
</html>
"""

QH_DUTY_MD = """
# 青禾社区卫生服务中心 员工排班与值班补贴办法

文件编号：青禾卫〔2025〕12号　施行日期：2025年10月1日　发布：综合办公室

## 一、总则

第一条　本办法适用于中心本部及东村、南溪、北岭三个卫生服务站的全体员工。

第二条　中心实行排班制。各科室负责人于每月20日前将下月排班报综合办公室，经中心主任审核后于每月25日前公布。

## 二、班次与值班

第三条　班次时间如下：

| 班次 | 时间 | 地点 |
|---|---|---|
| 白班 | 8:00–17:30（中间休息1小时） | 中心本部和各卫生服务站 |
| 夜间值班 | 17:30至次日8:00 | 中心本部 |
| 周末白班 | 星期六、星期日 8:00–17:30 | 中心本部和东村卫生服务站 |
| 节假日值班 | 法定节假日当天8:00至次日8:00 | 中心本部 |

第四条　夜间值班由员工名册中“夜间值班”登记为“是”的人员轮流承担，每个夜班至少安排医师1名、护士1名。每人每月夜间值班不超过8次，连续工作不超过24小时。

第五条　下列人员不安排夜间值班：（一）返聘人员；（二）怀孕及哺乳期女员工；（三）工作年限不满1年的新员工（可随高年资人员跟班学习，跟班不计值班补贴）。

## 三、值班补贴

第六条　值班补贴按岗位和班次发放：

| 岗位 | 夜间值班（元/次） | 周末白班（元/次） | 节假日值班（元/次） |
|---|---|---|---|
| 医师 | 120 | 80 | 240 |
| 护士 | 90 | 60 | 180 |
| 药剂、检验、影像人员 | 70 | 50 | 140 |
| 行政后勤人员 | 50 | 40 | 100 |

第七条　法定节假日当天的值班（白天或夜间）均按节假日值班标准发放，不再另计夜间值班或周末白班补贴。春节（除夕至正月初三）值班的，在节假日值班标准基础上每次另加100元。

第八条　夜间值班期间出诊（上门急诊）的，每出诊一次另发出诊补贴30元。

第九条　值夜间班后次日安排补休1天，补休不占用年休假。值班补贴按当月实际值班次数计算，随次月工资发放。

## 四、年休假

第十条　员工享受带薪年休假，天数按工作年限确定：

| 工作年限 | 年休假天数 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满10年 | 5天 |
| 满10年不满20年 | 10天 |
| 满20年及以上 | 15天 |

工作年限以员工名册登记的为准（截至当年1月1日已满的整年数）。合同制员工与在编员工同等享受年休假；返聘人员不享受年休假。

第十一条　年休假须至少提前3个工作日申请，由科室负责人审批；一次休假超过5天的，须报中心主任审批。年休假当年有效，不跨年结转。春节期间（除夕至正月初六）原则上不安排年休假。

## 五、附则

第十二条　本办法由综合办公室负责解释，自2025年10月1日起施行。综合办公室电话：6628 1201。
"""

QH_BOOKING = [
    ("p", "文件编号：青禾卫〔2025〕15号　施行日期：2025年11月1日　发布：综合办公室"),
    ("h", "一、预约渠道"),
    ("p", "居民可以通过“青禾健康”微信公众号、预约电话6628 1234或到中心本部服务台预约。每个身份证每天最多预约2个号，同一科室同一天只能预约1个号。"),
    ("h", "二、预约项目与退号时间"),
    ("t", ["预约项目", "可提前预约天数", "退号或改约截止时间", "未按时就诊"], [
        ["普通门诊（全科、中医）", "7天", "就诊前1小时", "计爽约1次"],
        ["副主任医师门诊", "14天", "就诊前1天18:00", "计爽约1次"],
        ["中医理疗", "7天", "就诊前2小时", "计爽约1次"],
        ["儿童预防接种", "30天", "接种前1天17:00", "不计爽约，须重新预约"],
        ["健康体检", "30天", "体检前1天12:00", "计爽约1次"],
        ["家庭医生上门服务", "3天", "上门前1天17:00", "不计爽约"],
    ]),
    ("p", "注：退号或改约须通过原预约渠道办理。超过截止时间的，网上不能再退号，可以打电话给服务台说明情况。"),
    ("h", "三、取号与报到"),
    ("p", "预约成功的居民，请在预约时段开始前30分钟到自助机或服务台取号报到。预约时段开始后超过15分钟仍未报到的，号源作废，并计爽约1次。"),
    ("h", "四、爽约处理"),
    ("t", ["90天内累计爽约次数", "处理"], [
        ["1–2次", "短信提醒"],
        ["3–4次", "暂停网上预约30天"],
        ["5次及以上", "暂停网上预约90天"],
    ]),
    ("p", "因急诊、住院等原因未能按时就诊，并在7天内提供就医证明的，不计爽约。65岁及以上老人和持残疾人证的居民，在暂停网上预约期间仍可到服务台现场取号就诊。"),
    ("h", "五、退费"),
    ("p", "已缴费但未就诊的，凭缴费凭证在7天内到服务台办理退费，按原支付方式退回。"),
    ("h", "六、附则"),
    ("p", "本规定由综合办公室负责解释，自2025年11月1日起施行。"),
]


def _contract_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：青禾卫〔2024〕4号　版本：2024版　施行日期：2024年3月1日　发布：中心主任办公会"
        rows = [
            ["基础包", "0", "0", "0", "0"],
            ["慢病管理包", "120", "80", "40", "0"],
            ["老年健康包", "100", "70", "30", "1"],
            ["失能照护包", "300", "200", "100", "4"],
            ["母婴健康包", "200", "0", "200", "2"],
        ]
        limit, reply = "2000", "24"
        closing = "本办法由中心主任办公会负责解释，自2024年3月1日起施行。"
    else:
        head = "文件编号：青禾卫〔2026〕2号　版本：2026版　施行日期：2026年1月1日　发布：中心主任办公会"
        rows = [
            ["基础包", "0", "0", "0", "0"],
            ["慢病管理包", "150", "110", "40", "0"],
            ["老年健康包", "100", "80", "20", "1"],
            ["失能照护包", "300", "220", "80", "6"],
            ["母婴健康包", "180", "0", "180", "2"],
        ]
        limit, reply = "1800", "12"
        closing = ("本办法由中心主任办公会负责解释，自2026年1月1日起施行，"
                   "《家庭医生签约服务管理办法（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本办法适用于青禾镇常住居民（本镇户籍居民或在本镇居住满6个月的居民）与本中心家庭医生团队签约。"),
        ("h", "第二条　签约期限"),
        ("p", "签约期限为1年。期满前30天内居民未提出解约的，自动续约1年。签约期内，居民可以申请更换家庭医生团队1次。"),
        ("h", "第三条　服务包"),
        ("p", "所有签约居民均享受基础包（建立健康档案、健康咨询、每年1次健康评估）。居民可以自愿加签以下个性化服务包，年费标准如下（金额单位：元）："),
        ("t", ["服务包", "年费", "医保支付", "个人支付", "上门次数/年"], rows),
        ("p", "慢病管理包面向高血压、糖尿病患者，每季度随访1次；老年健康包面向65岁及以上老人；失能照护包面向失能、半失能老人；母婴健康包面向孕产妇和0–3岁婴幼儿。"),
        ("h", "第四条　签约人数上限"),
        ("p", f"每个家庭医生团队签约居民不超过{limit}人。"),
        ("h", "第五条　线上咨询"),
        ("p", f"签约居民通过“青禾健康”微信公众号提出的健康咨询，家庭医生团队须在{reply}小时内回复。"),
        ("h", "第六条　困难群众减免"),
        ("p", "低保户、特困供养人员签约个性化服务包的，个人支付部分由镇财政全额补助，本人不需支付。"),
        ("h", "第七条　转诊"),
        ("p", "签约居民需要转诊到县人民医院的，由家庭医生开具转诊单，可以优先预约县人民医院的专家号。"),
        ("h", "第八条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 科室, 岗位, 职称, 岗位等级, 工作年限, 夜间值班, 用工形式
QH_STAFF = [
    ["QH01", "林振华", "全科医疗科", "医师", "副主任医师", "专技六级", 28, "否", "在编"],
    ["QH02", "何雅琴", "全科医疗科", "医师", "主治医师", "专技九级", 14, "是", "在编"],
    ["QH03", "宋立新", "全科医疗科", "医师", "主治医师", "专技九级", 11, "是", "在编"],
    ["QH04", "唐晓东", "全科医疗科", "医师", "住院医师", "专技十一级", 4, "是", "合同制"],
    ["QH05", "邓佳怡", "全科医疗科", "医师", "住院医师", "专技十二级", 1, "是", "合同制"],
    ["QH06", "胡明远", "全科医疗科", "医师", "副主任医师", "专技七级", 22, "否", "在编"],
    ["QH07", "曹桂兰", "全科医疗科", "医师", "主治医师", "专技十级", 36, "否", "返聘"],
    ["QH08", "方志强", "中医科", "医师", "主治医师", "专技九级", 16, "是", "在编"],
    ["QH09", "程秀梅", "中医科", "医师", "副主任医师", "专技七级", 25, "否", "在编"],
    ["QH10", "杜文博", "中医科", "医师", "住院医师", "专技十一级", 3, "是", "合同制"],
    ["QH11", "彭丽娟", "护理部", "护士", "主管护师", "专技八级", 21, "是", "在编"],
    ["QH12", "罗春燕", "护理部", "护士", "主管护师", "专技九级", 17, "是", "在编"],
    ["QH13", "高静", "护理部", "护士", "护师", "专技十一级", 12, "是", "在编"],
    ["QH14", "谢婉婷", "护理部", "护士", "护师", "专技十一级", 6, "是", "合同制"],
    ["QH15", "姚璐", "护理部", "护士", "护士", "专技十三级", 2, "是", "合同制"],
    ["QH16", "郝梦瑶", "护理部", "护士", "护士", "专技十三级", 0, "否", "合同制"],
    ["QH17", "潘翠英", "护理部", "护士", "主管护师", "专技九级", 33, "否", "返聘"],
    ["QH18", "袁小芳", "预防保健科", "护士", "护师", "专技十级", 12, "否", "在编"],
    ["QH19", "蔡建国", "预防保健科", "医师", "主治医师", "专技九级", 19, "否", "在编"],
    ["QH20", "叶倩", "预防保健科", "医师", "住院医师", "专技十一级", 5, "否", "合同制"],
    ["QH21", "刘国平", "药剂科", "药剂人员", "主管药师", "专技九级", 38, "否", "返聘"],
    ["QH22", "许丹", "药剂科", "药剂人员", "药师", "专技十一级", 8, "是", "在编"],
    ["QH23", "苏晨", "药剂科", "药剂人员", "药士", "专技十三级", 2, "是", "合同制"],
    ["QH24", "周海燕", "检验科", "检验人员", "主管技师", "专技九级", 12, "是", "在编"],
    ["QH25", "江涛", "检验科", "检验人员", "技师", "专技十一级", 7, "是", "合同制"],
    ["QH26", "韦思远", "影像科", "影像人员", "主管技师", "专技八级", 18, "是", "在编"],
    ["QH27", "钟浩", "影像科", "影像人员", "技士", "专技十三级", 3, "否", "合同制"],
    ["QH28", "贾玉珍", "综合办公室", "行政后勤", "无", "管理八级", 24, "否", "在编"],
    ["QH29", "孔令辉", "综合办公室", "行政后勤", "无", "工勤四级", 10, "是", "合同制"],
    ["QH30", "严小龙", "综合办公室", "行政后勤", "无", "工勤五级", 2, "是", "合同制"],
]

# 设备编号, 设备名称, 类别, 所在站点, 购置年份, 购置金额(元), 状态
QH_EQUIP = [
    ["SB01", "数字化X射线摄影系统（DR）", "影像设备", "中心本部", 2019, 680000, "在用"],
    ["SB02", "彩色多普勒超声诊断仪", "影像设备", "中心本部", 2021, 420000, "在用"],
    ["SB03", "便携式超声诊断仪", "影像设备", "中心本部", 2024, 156000, "在用"],
    ["SB04", "全自动生化分析仪", "检验设备", "中心本部", 2018, 285000, "在用"],
    ["SB05", "全自动血细胞分析仪", "检验设备", "中心本部", 2020, 98000, "在用"],
    ["SB06", "尿液分析仪", "检验设备", "中心本部", 2016, 36000, "报废"],
    ["SB07", "十二导联心电图机", "心电设备", "中心本部", 2022, 28000, "在用"],
    ["SB08", "十二导联心电图机", "心电设备", "东村卫生服务站", 2023, 26500, "在用"],
    ["SB09", "十二导联心电图机", "心电设备", "南溪卫生服务站", 2017, 22000, "维修中"],
    ["SB10", "自动体外除颤器（AED）", "急救设备", "中心本部", 2023, 18800, "在用"],
    ["SB11", "自动体外除颤器（AED）", "急救设备", "东村卫生服务站", 2024, 18800, "在用"],
    ["SB12", "自动体外除颤器（AED）", "急救设备", "北岭卫生服务站", 2025, 19600, "在用"],
    ["SB13", "台式电子血压计", "诊疗设备", "东村卫生服务站", 2022, 3200, "在用"],
    ["SB14", "便携式血糖仪", "诊疗设备", "东村卫生服务站", 2024, 860, "在用"],
    ["SB15", "中医经络治疗仪", "中医设备", "中心本部", 2020, 45000, "在用"],
    ["SB16", "中药熏蒸机", "中医设备", "中心本部", 2021, 38000, "在用"],
    ["SB17", "电子针灸治疗仪", "中医设备", "南溪卫生服务站", 2019, 12500, "在用"],
    ["SB18", "医用冷藏箱（疫苗）", "预防接种设备", "中心本部", 2018, 24000, "在用"],
    ["SB19", "医用冷藏箱（疫苗）", "预防接种设备", "东村卫生服务站", 2015, 16000, "报废"],
    ["SB20", "医用冷藏箱（疫苗）", "预防接种设备", "东村卫生服务站", 2025, 26000, "在用"],
    ["SB21", "全科诊疗车（上门服务用）", "车辆", "中心本部", 2022, 168000, "在用"],
    ["SB22", "雾化吸入器", "诊疗设备", "北岭卫生服务站", 2021, 4600, "维修中"],
    ["SB23", "台式电子血压计", "诊疗设备", "北岭卫生服务站", 2023, 3200, "在用"],
    ["SB24", "眼底照相机", "检查设备", "中心本部", 2024, 135000, "在用"],
]


# ----------------------------------------------------------------------------------------------
# Harrowgate Cycle Hire & Repairs (harrowgate-cycles), Harrowgate
# ----------------------------------------------------------------------------------------------

HC = HERE / "harrowgate-cycles"

HC_RATES_HTML = """
<!DOCTYPE html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<title>Harrowgate Cycle Hire &amp; Repairs — Hire Rates 2026</title>
</head>
<body>
<h1>Harrowgate Cycle Hire &amp; Repairs — Hire Rates 2026</h1>
<p>Valid from 1 January to 31 December 2026. Harrowgate Cycle Hire &amp; Repairs is a co-operative owned by its
members. All prices are per bike and include VAT. Bookings: online, by telephone on 01632 960 418, or at any depot.</p>

<h2>1. Hire rates</h2>
<table border="1">
<thead>
<tr><th>Bike</th><th>Up to 2 hours</th><th>Half day (up to 4 hours)</th><th>Full day (09:00–18:00)</th><th>7 days</th><th>Deposit</th></tr>
</thead>
<tbody>
<tr><td>City bike</td><td>£8</td><td>£14</td><td>£20</td><td>£75</td><td>£50</td></tr>
<tr><td>Hybrid</td><td>£10</td><td>£17</td><td>£25</td><td>£95</td><td>£75</td></tr>
<tr><td>Mountain bike</td><td>£12</td><td>£20</td><td>£30</td><td>£110</td><td>£100</td></tr>
<tr><td>E-bike</td><td>£18</td><td>£30</td><td>£45</td><td>£180</td><td>£200</td></tr>
<tr><td>Cargo bike</td><td>£20</td><td>£32</td><td>£48</td><td>£190</td><td>£200</td></tr>
<tr><td>Tandem</td><td>£16</td><td>£26</td><td>£38</td><td>Not available</td><td>£100</td></tr>
<tr><td>Kids' bike</td><td>£5</td><td>£8</td><td>£12</td><td>£45</td><td>£25</td></tr>
</tbody>
</table>
<p>Member discount: members get 15% off the hire of city bikes, hybrids, mountain bikes, tandems and kids' bikes,
and 10% off the hire of e-bikes and cargo bikes. Group bookings of 6 or more bikes for the same day get 10% off the
hire of every bike in the booking. The group discount and the member discount are never added together: each bike
gets whichever is larger. One kids' bike is free with each adult full-day or 7-day hire in the same booking (its
deposit is still payable).</p>
<p>Deposits are held on a debit or credit card and released when the bike comes back undamaged. Commuter and Family
members pay no deposit, except on e-bikes and cargo bikes, where the £200 deposit always applies.</p>

<h2>2. Extras</h2>
<table border="1">
<thead>
<tr><th>Extra</th><th>Price</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Helmet</td><td>Free</td><td>All sizes, child and adult</td></tr>
<tr><td>Lock and lights</td><td>Free</td><td>Included with every bike</td></tr>
<tr><td>Child seat</td><td>£5 per day</td><td>Children up to 22 kg</td></tr>
<tr><td>Child trailer</td><td>£10 per day</td><td>Up to two children</td></tr>
<tr><td>Pannier bags (pair)</td><td>£4 per day</td><td>Not for kids' bikes</td></tr>
<tr><td>Phone holder</td><td>£2 per day</td><td></td></tr>
<tr><td>Damage Cover</td><td>£4 per bike per day</td><td>See the Safety and Damage rules</td></tr>
<tr><td>Delivery and collection</td><td>£15 each way</td><td>Within 5 miles of Station Yard</td></tr>
</tbody>
</table>

<h2>3. Late returns</h2>
<table border="1">
<thead>
<tr><th>Returned late by</th><th>Charge</th></tr>
</thead>
<tbody>
<tr><td>Up to 15 minutes</td><td>No charge</td></tr>
<tr><td>16 to 60 minutes</td><td>£10</td></tr>
<tr><td>61 minutes to 3 hours</td><td>£25</td></tr>
<tr><td>More than 3 hours</td><td>Another full day at the full-day rate for that bike</td></tr>
</tbody>
</table>
<p>There is no late charge if you telephone the depot before your return time to report a breakdown or an
accident. A bike not returned by closing time must be brought back the next morning and counts as more than 3 hours
late.</p>

<h2>4. Depots</h2>
<table border="1">
<thead>
<tr><th>Depot</th><th>Address</th><th>Open</th><th>E-bikes and cargo bikes</th><th>Workshop</th></tr>
</thead>
<tbody>
<tr><td>Station Yard</td><td>2 Railway Approach, Harrowgate</td><td>08:00–19:00 every day</td><td>Yes</td><td>Yes</td></tr>
<tr><td>Millbrook Quay</td><td>Unit 4, The Wharf, Millbrook</td><td>09:00–18:00 every day (closed on Mondays from November to February)</td><td>Yes</td><td>No</td></tr>
<tr><td>Ashby Green</td><td>Pavilion Kiosk, Ashby Green Park</td><td>09:00–17:00 Friday to Sunday</td><td>No</td><td>No</td></tr>
</tbody>
</table>
<p>E-bikes and cargo bikes can be collected and returned only at Station Yard and Millbrook Quay. Any bike may be
returned to any depot during its opening hours.</p>

<footer>Harrowgate Cycle Hire &amp; Repairs Ltd (a registered co-operative society) · 2 Railway Approach, Harrowgate</footer>
</body>
</html>
"""

HC_HANDBOOK_MD = """
# Harrowgate Cycle Hire & Repairs — Member Handbook

Edition 2025 · Approved at the annual general meeting on 15 March 2025

## 1. Who we are

Harrowgate Cycle Hire & Repairs is a cycling co-operative founded in 2014 and owned by its members. To become a
member you buy one share of £1, which is paid back when you leave, and pay the yearly membership fee. Every member has
one vote at the annual general meeting, which is held in March each year. Members must be 16 or over to join in their
own name.

## 2. Membership types

| Membership | Yearly fee | Who it covers | What is included |
|---|---|---|---|
| Rider | £30 | One adult | Member hire discount; one free safety check a year |
| Commuter | £75 | One adult | Member hire discount; free puncture repairs; two free safety checks a year; no hire deposit (except e-bikes and cargo bikes) |
| Family | £110 | Up to two adults and their children under 18 living at the same address | Everything in Commuter, for each person covered |
| Concession | £18 | Students, people aged 65 or over, and people receiving Jobseeker's Allowance | The same as Rider |

Membership runs for 12 months from the day you join. The member hire discounts are listed in the Hire Rates.

## 3. Workshop prices

All repairs are done at the Station Yard workshop.

| Job | Price | Usual time |
|---|---|---|
| Puncture repair (per wheel, inner tube included) | £9 | 20 minutes |
| Brake adjustment (per brake) | £8 | 15 minutes |
| Gear tune | £15 | 30 minutes |
| Wheel true (per wheel) | £14 | 30 minutes |
| Basic service | £35 | 1 hour |
| Full service | £65 | 2 hours |
| E-bike system check | £25 | 30 minutes |
| Any other work | £36 per hour | As quoted |

Parts are charged on top of these prices, except the inner tube in a puncture repair. Members get 10% off workshop
labour, but not off parts. Puncture repairs are free for Commuter and Family members. Bikes left at the workshop for
more than 30 days after we have told you they are ready are charged £2 a day.

## 4. Volunteering

Volunteer sessions run on Tuesday and Thursday evenings from 18:00 to 21:00 at Station Yard. A member who volunteers
for 12 hours or more in a calendar quarter gets a free Basic service in the following quarter.

## 5. Bike parking

Members may rent a space in the covered bike shelter at Station Yard for £6 a month.

## 6. Leaving the co-op

Tell the membership secretary in writing. Your £1 share is paid back; the yearly membership fee is not refunded.
"""


def _pay_blocks(version: str) -> list:
    if version == "2024":
        head = "Document HCR-HR-02 · Version 2024 · Effective 1 April 2024 · Agreed by the staff committee and the board"
        pay = [
            ["Grade 1", "Hire Assistant", "£12.00"],
            ["Grade 2", "Mechanic; Bookings Coordinator", "£13.60"],
            ["Grade 3", "Senior Mechanic", "£15.20"],
            ["Grade 4", "Depot Lead", "£16.40"],
        ]
        leave = [
            ["Less than 2 years", "28 days"],
            ["2 to 4 years", "29 days"],
            ["5 years or more", "31 days"],
        ]
        tools = "£150"
        closing = "This policy applies from 1 April 2024."
    else:
        head = "Document HCR-HR-02 · Version 2026 · Effective 1 April 2026 · Agreed by the staff committee and the board"
        pay = [
            ["Grade 1", "Hire Assistant", "£12.80"],
            ["Grade 2", "Mechanic; Bookings Coordinator", "£14.40"],
            ["Grade 3", "Senior Mechanic", "£16.00"],
            ["Grade 4", "Depot Lead", "£17.20"],
        ]
        leave = [
            ["Less than 2 years", "28 days"],
            ["2 to 4 years", "30 days"],
            ["5 years or more", "33 days"],
        ]
        tools = "£220"
        closing = ("This policy applies from 1 April 2026 and replaces the Staff Pay and Leave Policy (2024), which "
                   "is withdrawn.")
    return [
        ("p", head),
        ("h", "1. Scope"),
        ("p", "This policy applies to everyone employed by Harrowgate Cycle Hire & Repairs. Volunteers are not "
              "employees and are not covered by it."),
        ("h", "2. Hourly pay"),
        ("t", ["Grade", "Roles", "Hourly rate"], pay),
        ("p", "Hours worked on a Sunday are paid at the hourly rate plus 25%. Hours worked on a bank holiday are "
              "paid at double the hourly rate; the Sunday premium is not added on top."),
        ("h", "3. Annual leave"),
        ("p", "The leave year runs from 1 April to 31 March. Full-time staff (37.5 hours a week) receive paid annual "
              "leave, including bank holidays, according to their completed years of service on 1 April:"),
        ("t", ["Completed years of service on 1 April", "Annual leave (including bank holidays)"], leave),
        ("p", "Part-time staff receive leave in proportion to their contracted hours (hours per week divided by "
              "37.5), rounded up to the nearest half day. Staff on seasonal contracts do not receive annual leave "
              "days; instead, holiday pay of 12.07% is added to the pay for every hour they work. Up to 5 days may be "
              "carried over to the next leave year with the Depot Lead's approval. Hire Assistants may not take "
              "annual leave in August."),
        ("h", "4. Tool allowance"),
        ("p", f"Mechanics, Senior Mechanics and Depot Leads receive a tool allowance of {tools} a year, paid with "
              "the April salary. Staff with less than 6 months' service on 1 April receive half of it."),
        ("h", "5. Other paid and unpaid leave"),
        ("t", ["Reason", "Leave"], [
            ["Death of a close relative", "3 days, paid"],
            ["Own wedding or civil partnership", "2 days, paid"],
            ["Moving house", "1 day, unpaid"],
            ["Jury service", "As required; paid for up to 10 days"],
        ]),
        ("h", "6. Sickness"),
        ("p", "Staff who are ill tell their Depot Lead by 08:00 on the first day. After one year of service, staff "
              "receive full pay for up to 5 days of sickness a year; after that, Statutory Sick Pay applies."),
        ("h", "7. Staff hire"),
        ("p", "Staff may hire any bike free of charge on their days off, booked in advance like any customer."),
        ("h", "8. Effective date"),
        ("p", closing),
    ]


HC_SAFETY = [
    ("p", "Document HCR-SAF-01 · Version 2025 · Effective 1 March 2025"),
    ("h", "1. Who may hire and ride"),
    ("p", "The person making the booking must be 18 or over and show photo ID. Riders under 14 ride with an adult "
          "from the same booking. E-bikes and cargo bikes may only be ridden by people aged 16 or over. Helmets are "
          "lent free of charge and must be worn by every rider under 16."),
    ("h", "2. Choosing the right frame size"),
    ("t", ["Rider height", "Frame size"], [
        ["140–154 cm", "XS"],
        ["155–167 cm", "Small"],
        ["168–180 cm", "Medium"],
        ["181–193 cm", "Large"],
        ["Over 193 cm", "XL (Station Yard only)"],
    ]),
    ("p", "Riders shorter than 140 cm ride a kids' bike, chosen by wheel size at the depot. XL frames must be booked "
          "at least 2 days ahead."),
    ("h", "3. E-bikes"),
    ("p", "A fully charged e-bike has a range of about 60 km (about 40 miles) on normal assistance. Customers must "
          "not charge or remove the battery themselves; a charged battery is swapped in free of charge at Station "
          "Yard or Millbrook Quay. E-bikes are not allowed on the Tollbridge Trail between Millbrook Quay and "
          "Wexley Reservoir."),
    ("h", "4. Damage and loss charges"),
    ("t", ["Damage or loss", "Charge"], [
        ["Puncture", "No charge"],
        ["Broken spoke", "£6 per spoke"],
        ["Buckled wheel", "£40"],
        ["Broken gear hanger", "£30"],
        ["Torn saddle", "£18"],
        ["Lost lock or key", "£20"],
        ["Damaged or lost e-bike battery", "£450"],
        ["Bike stolen while locked", "The bike's deposit"],
        ["Bike stolen while not locked", "Full purchase price"],
    ]),
    ("p", "A theft must be reported to the police and the crime reference given to the depot. The purchase price "
          "of each bike is the one in the fleet list."),
    ("p", "Damage Cover costs £4 per bike per day and is bought when the bike is collected. It pays the first £50 "
          "of the damage charges for each incident, so you pay only the part above £50. Damage Cover does not "
          "cover lost locks or keys, or the theft of a bike."),
    ("h", "5. Accidents and breakdowns"),
    ("p", "Report any accident within 24 hours by telephoning Station Yard on 01632 960 418; in an emergency call "
          "999 first. If the bike breaks down, telephone before your return time and we will collect the bike and "
          "you will not pay a late charge."),
    ("h", "6. Locking"),
    ("p", "Always lock the bike through the frame to a fixed stand when you leave it, even for a few minutes."),
]

# bike_id, type, model, depot, frame_size, status, purchase_year, purchase_price_gbp
HC_FLEET = [
    ["HC001", "City", "Tollbridge City 3", "Station Yard", "M", "Available", 2021, 420],
    ["HC002", "City", "Tollbridge City 3", "Station Yard", "S", "Available", 2021, 420],
    ["HC003", "City", "Tollbridge City 3", "Station Yard", "L", "In repair", 2019, 395],
    ["HC004", "City", "Tollbridge City 3", "Millbrook Quay", "M", "Available", 2022, 440],
    ["HC005", "City", "Tollbridge City 3", "Millbrook Quay", "S", "Available", 2023, 455],
    ["HC006", "City", "Tollbridge City 3", "Ashby Green", "M", "Retired", 2016, 360],
    ["HC007", "Hybrid", "Wexley Hybrid 8", "Station Yard", "M", "Available", 2022, 610],
    ["HC008", "Hybrid", "Wexley Hybrid 8", "Station Yard", "L", "Available", 2022, 610],
    ["HC009", "Hybrid", "Wexley Hybrid 8", "Station Yard", "S", "Available", 2024, 650],
    ["HC010", "Hybrid", "Wexley Hybrid 8", "Millbrook Quay", "M", "Available", 2020, 575],
    ["HC011", "Hybrid", "Wexley Hybrid 8", "Millbrook Quay", "L", "In repair", 2020, 575],
    ["HC012", "Hybrid", "Wexley Hybrid 8", "Ashby Green", "M", "Available", 2023, 630],
    ["HC013", "Hybrid", "Wexley Hybrid 8", "Station Yard", "XL", "Available", 2025, 690],
    ["HC014", "Mountain", "Fellrunner MTB", "Station Yard", "M", "Available", 2021, 780],
    ["HC015", "Mountain", "Fellrunner MTB", "Station Yard", "L", "Available", 2021, 780],
    ["HC016", "Mountain", "Fellrunner MTB", "Ashby Green", "M", "Available", 2019, 720],
    ["HC017", "Mountain", "Fellrunner MTB", "Ashby Green", "S", "Retired", 2015, 650],
    ["HC018", "E-bike", "Voltra E-City", "Station Yard", "M", "Available", 2023, 1850],
    ["HC019", "E-bike", "Voltra E-City", "Station Yard", "S", "Available", 2023, 1850],
    ["HC020", "E-bike", "Voltra E-City", "Station Yard", "L", "In repair", 2022, 1790],
    ["HC021", "E-bike", "Voltra E-Trek", "Millbrook Quay", "M", "Available", 2024, 2350],
    ["HC022", "E-bike", "Voltra E-Trek", "Millbrook Quay", "L", "Available", 2024, 2350],
    ["HC023", "E-bike", "Voltra E-City", "Millbrook Quay", "M", "Retired", 2018, 1600],
    ["HC024", "E-bike", "Voltra E-Trek", "Station Yard", "M", "Available", 2025, 2420],
    ["HC025", "Cargo", "Haulmaster Cargo", "Station Yard", "One size", "Available", 2022, 3100],
    ["HC026", "Cargo", "Haulmaster Cargo", "Millbrook Quay", "One size", "Available", 2024, 3350],
    ["HC027", "Cargo", "Haulmaster Cargo E", "Station Yard", "One size", "In repair", 2023, 4200],
    ["HC028", "Tandem", "Twinline Tandem", "Millbrook Quay", "One size", "Available", 2020, 1450],
    ["HC029", "Tandem", "Twinline Tandem", "Ashby Green", "One size", "Available", 2017, 1200],
    ["HC030", "Kids", "Sprout 20", "Station Yard", "20-inch wheel", "Available", 2022, 210],
    ["HC031", "Kids", "Sprout 24", "Station Yard", "24-inch wheel", "Available", 2022, 240],
    ["HC032", "Kids", "Sprout 20", "Millbrook Quay", "20-inch wheel", "Available", 2023, 225],
    ["HC033", "Kids", "Sprout 24", "Ashby Green", "24-inch wheel", "Available", 2021, 235],
    ["HC034", "Kids", "Sprout 16", "Ashby Green", "16-inch wheel", "In repair", 2018, 180],
    ["HC035", "City", "Tollbridge City 3", "Ashby Green", "L", "Available", 2024, 465],
]

# staff_id, name, role, grade, depot, contract, hours_per_week, start_date, first_aider, ebike_trained
HC_STAFF = [
    ["HS01", "Maggie Thornton", "Depot Lead", 4, "Station Yard", "Permanent", 37.5, "2014-04-01", "Yes", "Yes"],
    ["HS02", "Rhiannon Pryce", "Depot Lead", 4, "Millbrook Quay", "Permanent", 37.5, "2019-05-13", "Yes", "Yes"],
    ["HS03", "Dev Malhotra", "Depot Lead", 4, "Ashby Green", "Permanent", 30, "2018-03-05", "No", "No"],
    ["HS04", "Sam Kettering", "Senior Mechanic", 3, "Station Yard", "Permanent", 37.5, "2015-06-01", "No", "Yes"],
    ["HS05", "Agnieszka Nowak", "Senior Mechanic", 3, "Station Yard", "Permanent", 37.5, "2020-02-17", "Yes", "Yes"],
    ["HS06", "Callum Reid", "Mechanic", 2, "Station Yard", "Permanent", 37.5, "2022-09-05", "No", "Yes"],
    ["HS07", "Jess Whitaker", "Mechanic", 2, "Station Yard", "Permanent", 22.5, "2023-10-02", "Yes", "No"],
    ["HS08", "Femi Adebayo", "Mechanic", 2, "Millbrook Quay", "Permanent", 37.5, "2021-01-11", "No", "Yes"],
    ["HS09", "Lewis Hartley", "Mechanic", 2, "Millbrook Quay", "Seasonal", 37.5, "2025-03-24", "No", "No"],
    ["HS10", "Ruth Ambler", "Bookings Coordinator", 2, "Station Yard", "Permanent", 37.5, "2016-08-15", "Yes", "No"],
    ["HS11", "Priya Shah", "Hire Assistant", 1, "Ashby Green", "Permanent", 30, "2021-06-14", "Yes", "No"],
    ["HS12", "Tom Barker", "Hire Assistant", 1, "Station Yard", "Seasonal", 37.5, "2025-04-07", "No", "No"],
    ["HS13", "Ellie Marsh", "Hire Assistant", 1, "Millbrook Quay", "Seasonal", 20, "2025-05-19", "No", "No"],
    ["HS14", "Nathan Cole", "Hire Assistant", 1, "Station Yard", "Permanent", 37.5, "2024-02-19", "No", "Yes"],
    ["HS15", "Grace Okafor", "Hire Assistant", 1, "Millbrook Quay", "Permanent", 37.5, "2016-05-09", "Yes", "Yes"],
    ["HS16", "Ibrahim Sesay", "Hire Assistant", 1, "Ashby Green", "Permanent", 15, "2023-04-03", "No", "No"],
]


def build() -> None:
    QH.mkdir(parents=True, exist_ok=True)
    HC.mkdir(parents=True, exist_ok=True)

    write_text(QH / "医疗服务收费标准（2026年）.html", QH_FEES_HTML)
    write_text(QH / "员工排班与值班补贴办法.md", QH_DUTY_MD)
    write_docx(QH / "预约与退号规定.docx", "青禾社区卫生服务中心 预约与退号规定", QH_BOOKING)
    write_pdf(QH / "家庭医生签约服务管理办法（2024版）.pdf", "青禾社区卫生服务中心 家庭医生签约服务管理办法（2024版）",
              _contract_blocks("2024"))
    write_pdf(QH / "家庭医生签约服务管理办法（2026版）.pdf", "青禾社区卫生服务中心 家庭医生签约服务管理办法（2026版）",
              _contract_blocks("2026"))
    write_csv(QH / "员工名册.csv",
              ["工号", "姓名", "科室", "岗位", "职称", "岗位等级", "工作年限", "夜间值班", "用工形式"], QH_STAFF)
    write_csv(QH / "服务站点设备清单.csv",
              ["设备编号", "设备名称", "类别", "所在站点", "购置年份", "购置金额(元)", "状态"], QH_EQUIP)

    write_text(HC / "Hire_Rates_2026.html", HC_RATES_HTML)
    write_text(HC / "Member_Handbook.md", HC_HANDBOOK_MD)
    write_docx(HC / "Staff_Pay_and_Leave_2024.docx",
               "Harrowgate Cycle Hire & Repairs — Staff Pay and Leave Policy (2024)", _pay_blocks("2024"))
    write_docx(HC / "Staff_Pay_and_Leave_2026.docx",
               "Harrowgate Cycle Hire & Repairs — Staff Pay and Leave Policy (2026)", _pay_blocks("2026"))
    write_pdf(HC / "Safety_and_Damage.pdf", "Harrowgate Cycle Hire & Repairs — Safety and Damage Rules", HC_SAFETY)
    write_csv(HC / "fleet.csv", ["bike_id", "type", "model", "depot", "frame_size", "status", "purchase_year",
                                 "purchase_price_gbp"], HC_FLEET)
    write_csv(HC / "staff.csv", ["staff_id", "name", "role", "grade", "depot", "contract", "hours_per_week",
                                 "start_date", "first_aider", "ebike_trained"], HC_STAFF)


if __name__ == "__main__":
    build()
