"""Build the third blind report set of organisational documents (tests/data/orgdocs_blind3/, CC0).

    python tests/data/orgdocs_blind3/build_files.py

Writes every file of the two fictional organisations (qinghe-vocational-college, northwind-logistics)
from the text below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a
CJK font (WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in
$ORGDOCS_CJK_FONT). The output is deterministic: fixed timestamps in the DOCX zip entries and core
properties, a fixed creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied from ../orgdocs_blind2/build_files.py.

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
AUTHOR = "orgdocs_blind3"


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
    """blocks: ("h", text) heading, ("p", text) paragraph."""
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
    for kind, text in blocks:
        if kind == "h":
            pdf.set_font("wqy", size=13)
            pdf.ln(2)
            pdf.multi_cell(0, 8, text, new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font("wqy", size=11)
            pdf.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
    path.parent.mkdir(parents=True, exist_ok=True)
    pdf.output(str(path))




# ----------------------------------------------------------------------------------------------
# 江澄市青禾职业技术学院 (qinghe-vocational-college)
# ----------------------------------------------------------------------------------------------

QH = HERE / "qinghe-vocational-college"

QH_FEES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>青禾职业技术学院 2026-2027学年学生收费标准</title>
</head>
<body>
<h1>青禾职业技术学院 2026-2027学年学生收费标准</h1>
<p>发布：计划财务处　发布日期：2026年6月18日　执行期间：2026年9月1日至2027年8月31日</p>
<p>本标准适用于江澄市青禾职业技术学院（江澄市青禾区学府大道200号）全日制高职（专科）在校学生。下表金额单位为人民币元，按学年收取。</p>

<h2>一、学费</h2>
<table border="1">
<thead>
<tr><th>序号</th><th>专业类别</th><th>所含专业</th><th>2026级（元/学年）</th><th>2025级及以前（元/学年）</th></tr>
</thead>
<tbody>
<tr><td>1</td><td>文史财经类</td><td>会计信息管理、电子商务、旅游管理、学前教育</td><td>5200</td><td>4800</td></tr>
<tr><td>2</td><td>理工类</td><td>机电一体化技术、工业机器人技术、计算机应用技术、建筑工程技术</td><td>5800</td><td>5400</td></tr>
<tr><td>3</td><td>医药卫生类</td><td>护理、药学、康复治疗技术</td><td>6200</td><td>5800</td></tr>
<tr><td>4</td><td>艺术类</td><td>视觉传达设计、数字媒体艺术设计、音乐表演</td><td>8000</td><td>7500</td></tr>
<tr><td>5</td><td>中外合作办学项目</td><td>现代物流管理（中德合作）</td><td>16000</td><td>16000</td></tr>
</tbody>
</table>
<p>“2026级”指2026年秋季入学的新生；2025年及以前入学的在校生按“2025级及以前”一栏收费。</p>

<h2>二、住宿费</h2>
<table border="1">
<thead>
<tr><th>宿舍类型</th><th>所在楼栋</th><th>配置</th><th>住宿费（元/学年）</th></tr>
</thead>
<tbody>
<tr><td>4人间</td><td>1号楼、2号楼</td><td>上床下桌、独立卫浴、空调</td><td>1500</td></tr>
<tr><td>6人间</td><td>3号楼、4号楼、5号楼</td><td>上床下桌、独立卫浴、空调</td><td>1200</td></tr>
<tr><td>8人间</td><td>6号楼</td><td>上下铺、公共卫浴</td><td>800</td></tr>
</tbody>
</table>
<p>住宿费不含电费。每间宿舍每月赠送电量30度，超出部分按每度0.6元从宿舍电费卡中扣除。</p>

<h2>三、代收及其他费用</h2>
<table border="1">
<thead>
<tr><th>项目</th><th>标准</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>教材费</td><td>预收800元/学年</td><td>按实际领取的教材结算，多退少补</td></tr>
<tr><td>军训服装费</td><td>180元</td><td>仅新生，一次性收取</td></tr>
<tr><td>新生体检费</td><td>60元</td><td>仅新生</td></tr>
</tbody>
</table>

<h2>四、减免与例外</h2>
<ol>
<li>经认定的退役士兵学生免收学费；住宿费和代收费用照常收取。</li>
<li>经认定的家庭经济困难学生（脱贫家庭、最低生活保障家庭学生）可申请住宿费减半；学费不予减免，可申请生源地信用助学贷款。</li>
<li>同一家庭有两名及以上子女同时在本院就读的，除最先入学的一名子女外，其余子女的学费优惠10%；中外合作办学项目不享受此项优惠。</li>
<li>经批准走读的学生不收住宿费。</li>
<li>休学期间不收学费和住宿费。</li>
</ol>

<h2>五、缴费时间与方式</h2>
<p>学费、住宿费和教材费须在每学年9月15日前缴清。确有困难的，可在9月10日前向计划财务处申请分两期缴纳：第一期（50%）在9月15日前缴纳，第二期在次年3月10日前缴纳。</p>
<p>缴费方式：学院“青禾缴费”微信小程序，或到校园一卡通中心（行政楼一楼102室）刷银行卡缴纳。学院不收现金。</p>

<h2>六、退费</h2>
<p>学生自报到注册之日起4周内（含第4周）申请退学的，退还当学年已缴学费的50%；超过4周申请退学的，学费不予退还。住宿费按每学年10个月计算，按实际入住月数收取，不足1个月的按1个月计。</p>

<footer>青禾职业技术学院 计划财务处　咨询电话：6688 3050</footer>
</body>
</html>
"""

QH_DORM_MD = """
# 青禾职业技术学院学生宿舍管理规定

文件编号：青职院学〔2025〕12号　修订日期：2025年8月20日　发布：学生工作处（宿舍管理中心）

## 第一章 总则

第一条　为维护宿舍的安全和秩序，制定本规定。本规定适用于在校内住宿的全体学生。

第二条　宿舍管理中心设在6号楼一楼，24小时值班电话：6688 3120。

## 第二章 入住与调换

第三条　新生按学院统一安排入住。入住时领取门禁卡和空调遥控器；空调遥控器押金50元，毕业退宿时退还。

第四条　调换宿舍在每学期第3周至第4周集中办理，由学生本人到宿舍管理中心申请。每名学生每学年最多调换1次。

第五条　家住江澄市区并经家长书面同意的学生，可向所在系部申请走读，经学生工作处批准后办理退宿。一年级新生第一学期不得申请走读。

## 第三章 作息与门禁

第六条　宿舍楼门禁时间如下：

| 时段 | 开门时间 | 关门时间 |
|---|---|---|
| 周日至周四 | 6:00 | 23:00 |
| 周五、周六及法定节假日前一天 | 6:00 | 23:30 |
| 寒暑假留宿期间 | 6:30 | 22:30 |

第七条　每晚22:30宿管员查寝。周日至周四23:20宿舍照明断电（卫生间和走廊照明除外），周五、周六不断电。

第八条　门禁关闭后返回的，须在值班室登记，记晚归1次。同一学期内累计晚归按下表处理：

| 同一学期累计晚归次数 | 处理 |
|---|---|
| 1–2次 | 值班室登记，由辅导员提醒 |
| 3–4次 | 系部通报批评，并通知家长 |
| 5次及以上 | 给予警告处分 |

未请假且当晚未返回宿舍的，记夜不归宿，一次即给予警告处分。

## 第四章 安全用电

第九条　禁止在宿舍内使用电饭锅、电炒锅、电热水壶、热得快、电热毯、电暖器，以及功率超过1000瓦的其他电器。每层开水间6:30–23:00供应开水。

第十条　允许使用台灯、电脑、手机充电器和功率不超过1000瓦的吹风机。

第十一条　查获违规电器的，由宿管员暂扣，学期末由本人领回；同一学期内第二次查获的，给予通报批评。

## 第五章 访客

第十二条　访客须持身份证在值班室登记。访客时间为8:00–21:00，只能在一楼会客室会面，不得进入宿舍房间。

第十三条　学生不得进入异性宿舍楼层；搬运行李等特殊情况须经宿管员同意并由其陪同。

## 第六章 卫生

第十四条　每周三下午检查宿舍卫生，结果分为优、良、合格、不合格四档。连续两次不合格的宿舍，取消当学期“文明宿舍”评选资格。

## 第七章 假期留宿

第十五条　寒暑假需要留宿的学生，须在放假前2周向宿舍管理中心申请。留宿学生统一安排在3号楼。

第十六条　留宿费每人每天10元，按实际留宿天数收取。参加学院组织的技能竞赛集训的学生免收留宿费。

第十七条　除夕至正月初三宿舍楼关闭，不安排留宿。

## 第八章 附则

第十八条　本规定由学生工作处负责解释，自2025年9月1日起施行。
"""

QH_EXAM = [
    ("p", "文件编号：青职院教〔2025〕7号　版本：2025年修订　施行日期：2025年9月1日　发布：教务处"),
    ("h", "第一章　考核方式与成绩构成"),
    ("p", "第一条　课程考核分为考试和考查两种，各门课程的考核方式以《课程目录》为准。"),
    ("p", "第二条　课程总评成绩由平时成绩和期末成绩按下表比例折算，结果四舍五入取整："),
    ("t", ["考核方式", "平时成绩所占比例", "期末成绩所占比例"], [
        ["考试", "40%", "60%"],
        ["考查", "50%", "50%"],
    ]),
    ("p", "第三条　考试课的期末卷面成绩低于40分的，不按第二条折算，总评成绩直接记为期末卷面成绩。"),
    ("p", "第四条　课程类型为实训课的，总评成绩按实训报告和技能操作考核综合评定，不适用第二条。"),
    ("p", "第五条　总评成绩（百分制，取整）与等级、绩点的对应关系如下："),
    ("t", ["百分制成绩", "等级", "绩点"], [
        ["90–100", "优秀", "4.0"],
        ["80–89", "良好", "3.0"],
        ["70–79", "中等", "2.0"],
        ["60–69", "及格", "1.0"],
        ["59及以下", "不及格", "0"],
    ]),
    ("h", "第二章　考场纪律"),
    ("p", "第六条　考生须持学生证和身份证（或校园一卡通）进入考场。开考15分钟后不得进入考场；开考30分钟内不得交卷离场。"),
    ("p", "第七条　考试作弊的，该课程成绩记0分，不得参加补考，须重修，并按《学生违纪处分规定》处理。"),
    ("h", "第三章　缓考"),
    ("p", "第八条　因病或其他不可抗力不能参加期末考试的，须在考试开始前提交缓考申请，因病的须附二级及以上医院证明，经系部审核、教务处批准。突发情况可在考试结束后3个工作日内补交申请。"),
    ("p", "第九条　缓考与补考同时进行。缓考成绩按实际卷面成绩与平时成绩折算后记载，不受60分的限制。"),
    ("p", "第十条　无故缺考的，该课程成绩记0分，不得参加补考，须重修。"),
    ("h", "第四章　补考"),
    ("p", "第十一条　总评成绩不及格的课程，可参加补考一次。补考安排在下一学期开学第2周进行，补考名单在开学第1周公布。"),
    ("p", "第十二条　补考成绩及格的，该课程总评成绩一律按60分记载；补考不及格的，须重修。"),
    ("p", "第十三条　毕业前最后一学期第15周组织一次毕业前补考，每名学生最多可申请3门课程。"),
    ("h", "第五章　重修"),
    ("p", "第十四条　重修按课程学分缴纳重修费，标准如下（课程类型以《课程目录》为准）："),
    ("t", ["课程类型", "重修费（元/学分）"], [
        ["理论课", "90"],
        ["理实一体课", "110"],
        ["实训课", "130"],
    ]),
    ("p", "第十五条　经学院认定的家庭经济困难学生，重修费减半收取。"),
    ("p", "第十六条　重修成绩按实际成绩记载，并在成绩单上注明“重修”。每学期重修课程总学分不超过12学分。"),
    ("h", "第六章　附则"),
    ("p", "第十七条　本办法由教务处负责解释，自2025年9月1日起施行。"),
]

QH_PAY = [
    ("p", "文件编号：青职院人〔2026〕3号　执行日期：2026年1月1日　发布：人事处"),
    ("h", "一、适用范围"),
    ("p", "本标准适用于本院专任教师和外聘教师的课时津贴。教龄津贴仅适用于专任教师，外聘教师和行政人员不享受教龄津贴。行政人员兼课的，按其职称享受课时津贴。"),
    ("h", "二、课时津贴标准"),
    ("p", "课时津贴按实际授课课时计发，每课时45分钟。标准如下（元/课时）："),
    ("t", ["职称", "理论课", "理实一体课", "实训课"], [
        ["教授", "120", "125", "130"],
        ["副教授", "100", "105", "110"],
        ["讲师", "80", "85", "90"],
        ["助教", "60", "65", "70"],
        ["外聘教师（不分职称）", "70", "75", "80"],
    ]),
    ("p", "说明：1. 每周授课超过16课时的部分，按标准的1.2倍计发；每周计发上限为24课时，超出部分不再计发。2. 晚上（18:30以后）和周末授课的，每课时另加15元。3. 多个平行班合班授课且学生人数超过100人的，每课时按标准的1.3倍计发。"),
    ("h", "三、教龄津贴"),
    ("p", "教龄津贴按月发放，标准如下："),
    ("t", ["教龄", "教龄津贴（元/月）"], [
        ["满1年不满5年", "100"],
        ["满5年不满10年", "200"],
        ["满10年不满20年", "350"],
        ["满20年及以上", "500"],
    ]),
    ("p", "教龄以《教职工名册》登记的教龄为准（计至2026年9月1日）。"),
    ("h", "四、班主任津贴"),
    ("p", "班主任津贴每月600元；所带班级学生人数超过45人的，每月加发100元。一名教师同时担任两个班级班主任的，按两个班级分别计发。"),
    ("h", "五、发放"),
    ("p", "课时津贴按月核算，于次月15日随工资发放；教龄津贴和班主任津贴按月随工资发放，寒暑假照发。"),
]


def _scholarship_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：青职院学〔2024〕9号　版本：2024版　施行日期：2024年9月1日　发布：学生工作处"
        cond2 = "（二）上一学年所有课程均一次考试通过，无补考、无重修；"
        amounts = ("一等奖学金：每人3000元，获奖比例为参评学生人数的3%。",
                   "二等奖学金：每人1500元，获奖比例为8%。",
                   "三等奖学金：每人800元，获奖比例为15%。")
        national = "获得国家级职业技能竞赛一等奖的，每人奖励5000元；二等奖3000元；三等奖1800元。"
        provincial = "获得省级职业技能竞赛一等奖的，每人奖励2000元；二等奖1200元；三等奖600元。"
        closing = "第八条　本办法由学生工作处负责解释，自2024年9月1日起施行。"
    else:
        head = "文件编号：青职院学〔2026〕5号　版本：2026版　施行日期：2026年3月1日　发布：学生工作处"
        cond2 = ("（二）上一学年无重修；有补考的课程不超过1门且补考通过的，可参评二等、三等奖学金，"
                 "不得参评一等奖学金；")
        amounts = ("一等奖学金：每人4000元，获奖比例为参评学生人数的3%。",
                   "二等奖学金：每人2000元，获奖比例为8%。",
                   "三等奖学金：每人1000元，获奖比例为15%。")
        national = "获得国家级职业技能竞赛一等奖的，每人奖励6000元；二等奖4000元；三等奖2500元。"
        provincial = "获得省级职业技能竞赛一等奖的，每人奖励2800元；二等奖1600元；三等奖900元。"
        closing = ("第八条　本办法由学生工作处负责解释，自2026年3月1日起施行，"
                   "《青禾职业技术学院学生奖学金评定办法（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本办法适用于本院全日制高职在校学生的综合奖学金和技能竞赛单项奖学金评定。"),
        ("h", "第二条　评定时间"),
        ("p", "每学年10月评定上一学年的奖学金。"),
        ("h", "第三条　基本条件"),
        ("p", "参评综合奖学金的学生须同时满足：（一）遵守校纪校规，上一学年未受任何纪律处分；"
              + cond2 + "（三）体育课成绩及格。"),
        ("h", "第四条　综合奖学金"),
        ("p", amounts[0]),
        ("p", amounts[1]),
        ("p", amounts[2]),
        ("p", "名额按各专业参评人数分配，按综合测评成绩排名确定。"),
        ("h", "第五条　技能竞赛单项奖学金"),
        ("p", national),
        ("p", provincial),
        ("p", "同一竞赛项目按所获最高级别奖励，不重复奖励。"),
        ("h", "第六条　兼得"),
        ("p", "同一学生同一学年只能获得一项综合奖学金，可同时获得技能竞赛单项奖学金。"),
        ("h", "第七条　公示与发放"),
        ("p", "评定结果在学院网站公示5个工作日，无异议的于当年12月发放至学生本人银行卡。"),
        ("h", "第八条　附则"),
        ("p", closing),
    ]


# 工号, 姓名, 系部, 职称, 岗位类型, 教龄, 班主任, 带班人数
QH_STAFF = [
    ["QH001", "王建华", "机电工程系", "教授", "专任教师", 26, "否", ""],
    ["QH002", "李晓东", "机电工程系", "副教授", "专任教师", 15, "是", 42],
    ["QH003", "赵敏", "机电工程系", "讲师", "专任教师", 8, "是", 47],
    ["QH004", "孙立军", "机电工程系", "讲师", "专任教师", 4, "否", ""],
    ["QH005", "陈浩", "机电工程系", "助教", "专任教师", 1, "否", ""],
    ["QH006", "刘强", "机电工程系", "高级工程师", "外聘教师", 6, "否", ""],
    ["QH007", "周雅琴", "信息技术系", "副教授", "专任教师", 12, "否", ""],
    ["QH008", "吴俊", "信息技术系", "副教授", "专任教师", 18, "是", 45],
    ["QH009", "郑丽", "信息技术系", "讲师", "专任教师", 9, "是", 50],
    ["QH010", "冯涛", "信息技术系", "讲师", "专任教师", 6, "否", ""],
    ["QH011", "何佳", "信息技术系", "讲师", "专任教师", 3, "否", ""],
    ["QH012", "蒋磊", "信息技术系", "助教", "专任教师", 2, "是", 38],
    ["QH013", "韩雪", "信息技术系", "高级工程师", "外聘教师", 12, "否", ""],
    ["QH014", "杨帆", "财经商贸系", "教授", "专任教师", 22, "否", ""],
    ["QH015", "朱红梅", "财经商贸系", "副教授", "专任教师", 16, "是", 44],
    ["QH016", "秦月", "财经商贸系", "讲师", "专任教师", 10, "是", 48],
    ["QH017", "许静", "财经商贸系", "讲师", "专任教师", 5, "否", ""],
    ["QH018", "曹磊", "财经商贸系", "助教", "专任教师", 1, "否", ""],
    ["QH019", "沈晓燕", "医药护理系", "教授", "专任教师", 28, "否", ""],
    ["QH020", "彭丽华", "医药护理系", "副教授", "专任教师", 19, "是", 46],
    ["QH021", "吕娜", "医药护理系", "讲师", "专任教师", 7, "是", 52],
    ["QH022", "苏婷", "医药护理系", "讲师", "专任教师", 11, "否", ""],
    ["QH023", "丁悦", "医药护理系", "助教", "专任教师", 2, "否", ""],
    ["QH024", "叶青", "医药护理系", "主管护师", "外聘教师", 15, "否", ""],
    ["QH025", "潘宇", "艺术设计系", "副教授", "专任教师", 14, "否", ""],
    ["QH026", "谢婉", "艺术设计系", "讲师", "专任教师", 9, "是", 40],
    ["QH027", "邹阳", "艺术设计系", "助教", "专任教师", 3, "否", ""],
    ["QH028", "田野", "基础部", "教授", "专任教师", 30, "否", ""],
    ["QH029", "石磊", "基础部", "副教授", "专任教师", 20, "否", ""],
    ["QH030", "林芳", "基础部", "讲师", "专任教师", 13, "否", ""],
    ["QH031", "高翔", "基础部", "讲师", "专任教师", 5, "否", ""],
    ["QH032", "罗兰", "学生工作处", "讲师", "行政人员", 9, "否", ""],
]

# 课程代码, 课程名称, 开课系部, 课程类型, 学分, 学时, 考核方式, 开课学期
QH_COURSES = [
    ["JD101", "机械制图", "机电工程系", "理论课", 4, 64, "考试", 1],
    ["JD102", "电工电子技术", "机电工程系", "理实一体课", 4, 64, "考试", 2],
    ["JD201", "PLC编程与应用", "机电工程系", "理实一体课", 4, 64, "考试", 3],
    ["JD202", "PLC编程与应用实训", "机电工程系", "实训课", 3, 60, "考查", 3],
    ["JD203", "液压与气动技术", "机电工程系", "理论课", 3, 48, "考试", 3],
    ["JD301", "工业机器人操作实训", "机电工程系", "实训课", 4, 80, "考查", 4],
    ["JD302", "数控加工实训", "机电工程系", "实训课", 3, 60, "考查", 5],
    ["XX101", "计算机应用基础", "信息技术系", "理实一体课", 3, 48, "考试", 1],
    ["XX102", "程序设计基础（Python）", "信息技术系", "理实一体课", 4, 64, "考试", 2],
    ["XX201", "数据库技术", "信息技术系", "理论课", 3, 48, "考试", 3],
    ["XX202", "网页设计与制作", "信息技术系", "理实一体课", 3, 48, "考查", 3],
    ["XX203", "计算机网络技术", "信息技术系", "理论课", 3, 48, "考试", 3],
    ["XX301", "网络综合布线实训", "信息技术系", "实训课", 2, 40, "考查", 4],
    ["XX302", "软件项目实训", "信息技术系", "实训课", 4, 80, "考查", 5],
    ["CJ101", "基础会计", "财经商贸系", "理论课", 4, 64, "考试", 1],
    ["CJ102", "经济法基础", "财经商贸系", "理论课", 3, 48, "考试", 2],
    ["CJ201", "会计电算化", "财经商贸系", "理实一体课", 3, 48, "考试", 3],
    ["CJ202", "电子商务运营", "财经商贸系", "理实一体课", 3, 48, "考查", 3],
    ["CJ301", "会计综合实训", "财经商贸系", "实训课", 3, 60, "考查", 4],
    ["YH101", "人体解剖学", "医药护理系", "理论课", 4, 64, "考试", 1],
    ["YH102", "护理学基础", "医药护理系", "理实一体课", 5, 80, "考试", 2],
    ["YH201", "内科护理", "医药护理系", "理论课", 4, 64, "考试", 3],
    ["YH202", "护理技能综合实训", "医药护理系", "实训课", 3, 60, "考查", 4],
    ["YS101", "设计素描", "艺术设计系", "理实一体课", 3, 48, "考查", 1],
    ["YS201", "版式设计", "艺术设计系", "理实一体课", 3, 48, "考查", 3],
    ["YS301", "毕业设计", "艺术设计系", "实训课", 6, 120, "考查", 6],
    ["JC101", "大学语文", "基础部", "理论课", 2, 32, "考查", 1],
    ["JC102", "高等数学", "基础部", "理论课", 4, 64, "考试", 1],
    ["JC103", "大学英语（一）", "基础部", "理论课", 4, 64, "考试", 1],
    ["JC104", "大学英语（二）", "基础部", "理论课", 4, 64, "考试", 2],
    ["JC105", "职业生涯规划", "基础部", "理论课", 1, 16, "考查", 1],
    ["JC106", "体育", "基础部", "理实一体课", 2, 32, "考查", 1],
]


# ----------------------------------------------------------------------------------------------
# Northwind Logistics Ltd. (northwind-logistics)
# ----------------------------------------------------------------------------------------------

NW = HERE / "northwind-logistics"

NW_RATES_HTML = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Northwind Logistics Ltd. - UK Parcel and Pallet Rate Card 2026</title>
</head>
<body>
<h1>Northwind Logistics Ltd. &mdash; UK Parcel and Pallet Rate Card 2026</h1>
<p>Rate card NWL-RC-2026 &middot; Valid 1 February 2026 to 31 January 2027 &middot; Issued by the Commercial Team</p>
<p>All prices are in GBP per item, exclude VAT and include fuel surcharge. Collection from the sender's
premises is included for account customers.</p>

<h2>1. Delivery zones</h2>
<table border="1">
<thead>
<tr><th>Zone</th><th>Destination</th><th>Transit time</th></tr>
</thead>
<tbody>
<tr><td>Zone A</td><td>Within 50 miles of the collecting depot</td><td>Next working day</td></tr>
<tr><td>Zone B</td><td>Rest of mainland England and Wales</td><td>Next working day</td></tr>
<tr><td>Zone C</td><td>Mainland Scotland, except the postcode areas listed under Zone D</td><td>1&ndash;2 working days</td></tr>
<tr><td>Zone D</td><td>Scottish Highlands and Islands (postcode areas IV, PH, KW, HS and ZE), Isle of Wight (PO30&ndash;PO41) and Isles of Scilly (TR21&ndash;TR25)</td><td>2&ndash;4 working days</td></tr>
</tbody>
</table>

<h2>2. Parcel rates</h2>
<p>Parcels up to 30 kg and up to 120 cm long. A parcel is charged on its chargeable weight: the higher of
its actual weight and its volumetric weight (length &times; width &times; height in cm, divided by 5,000).</p>
<table border="1">
<thead>
<tr><th>Chargeable weight</th><th>Zone A</th><th>Zone B</th><th>Zone C</th><th>Zone D</th></tr>
</thead>
<tbody>
<tr><td>Up to 2 kg</td><td>&pound;4.20</td><td>&pound;5.10</td><td>&pound;6.40</td><td>&pound;9.80</td></tr>
<tr><td>2.01 &ndash; 5 kg</td><td>&pound;5.30</td><td>&pound;6.60</td><td>&pound;8.20</td><td>&pound;12.50</td></tr>
<tr><td>5.01 &ndash; 10 kg</td><td>&pound;6.90</td><td>&pound;8.70</td><td>&pound;10.90</td><td>&pound;16.40</td></tr>
<tr><td>10.01 &ndash; 20 kg</td><td>&pound;9.40</td><td>&pound;11.80</td><td>&pound;14.60</td><td>&pound;22.00</td></tr>
<tr><td>20.01 &ndash; 30 kg</td><td>&pound;12.80</td><td>&pound;15.90</td><td>&pound;19.70</td><td>&pound;29.50</td></tr>
</tbody>
</table>
<p>Items over 30 kg or longer than 120 cm travel on the pallet service.</p>

<h2>3. Pallet rates</h2>
<table border="1">
<thead>
<tr><th>Pallet size (maximum weight)</th><th>Zone A</th><th>Zone B</th><th>Zone C</th></tr>
</thead>
<tbody>
<tr><td>Quarter pallet (up to 250 kg)</td><td>&pound;38.00</td><td>&pound;46.00</td><td>&pound;58.00</td></tr>
<tr><td>Half pallet (up to 500 kg)</td><td>&pound;49.00</td><td>&pound;59.00</td><td>&pound;74.00</td></tr>
<tr><td>Full pallet (up to 1,000 kg)</td><td>&pound;62.00</td><td>&pound;75.00</td><td>&pound;95.00</td></tr>
</tbody>
</table>
<p>Pallets to Zone D are quoted individually by the Commercial Team. Maximum pallet height 1.8 m.
Tail-lift delivery costs &pound;12.00 extra per pallet.</p>

<h2>4. Surcharges</h2>
<ul>
<li>Saturday delivery: &pound;7.50 per consignment, Zones A to C only.</li>
<li>Pre-10:30 next-day delivery: &pound;5.00 per parcel, Zones A and B only.</li>
<li>Island surcharge: &pound;6.00 per parcel for the HS and ZE postcode areas and the Isles of Scilly (TR21&ndash;TR25), added to the Zone D rate.</li>
<li>A failed delivery that is returned to the sender is charged the zone rate a second time.</li>
</ul>

<h2>5. Discounts</h2>
<ul>
<li>Registered charities: 10% off parcel and pallet rates. Surcharges are not discounted.</li>
<li>Volume: an account that sends more than 1,000 parcels in a calendar month receives 7% off that month's parcel rates.</li>
<li>Discounts cannot be combined; where more than one applies, the larger one is given.</li>
</ul>

<h2>6. Liability and items we do not carry</h2>
<p>We do not carry dangerous goods (including loose lithium batteries, aerosols and flammable liquids), live
animals, cash, or jewellery worth more than &pound;1,000. Compensation for loss or damage is limited to
&pound;100 per parcel unless Extended Cover is bought at &pound;2.50 per parcel, which raises the limit to
&pound;1,000.</p>

<footer>Northwind Logistics Ltd., Unit 4, Calder Park Way, Wakefield &middot; Commercial Team: sales@northwind-logistics.example, 0113 496 0750</footer>
</body>
</html>
"""

NW_OVERTIME_MD = """
# Northwind Logistics Ltd. — Overtime and Shift Allowance Policy

Policy HR-07 · Version 2.1 · Effective 1 April 2026 · Owner: People Team

## 1. Who this policy covers

This policy applies to hourly-paid warehouse and transport staff on grades W1 to W4 at all four depots
(Wakefield, Bristol, Glasgow and Northampton).

- Grade W5 staff (shift managers and depot managers) are salaried. They do not receive overtime pay or
  shift allowances; extra hours are given back as time off in lieu, agreed with the depot manager.
- Agency workers are paid by their agency under the agency's terms and are not covered.
- Drivers' night-out and meal allowances are set in the Driver Hours and Vehicle Use Policy, not here.

## 2. Standard hours

The standard working week is 40 hours over five shifts. Hours worked beyond the scheduled shift, or on a
sixth or seventh day, are overtime.

## 3. Overtime rates

| When the overtime is worked | Rate of pay |
|---|---|
| Monday to Friday | 1.5 × basic hourly rate |
| Saturday | 1.75 × basic hourly rate |
| Sunday | 2 × basic hourly rate |
| Bank holiday | 2.5 × basic hourly rate |

- Overtime must be approved in advance by the shift manager; unapproved overtime is not paid.
- No one may work more than 12 hours of overtime in a week, or more than 60 hours in total in a week.
- Overtime is paid with the following month's pay.
- Call-out: an employee called back to site after going home is paid for at least 4 hours at the
  applicable overtime rate.
- Instead of overtime pay, an employee may choose time off in lieu, one hour for each hour worked, to be
  taken within 8 weeks.

## 4. Shift allowances

The shift allowance is paid for every hour worked on the shift, on top of the basic hourly rate. It is not
paid on overtime hours.

| Shift | Hours | Grades W1–W2 (per hour) | Grades W3–W4 (per hour) |
|---|---|---|---|
| Day | 08:00–16:30 | none | none |
| Evening | 14:00–22:00 | £1.10 | £1.35 |
| Night | 22:00–06:00 | £2.20 | £2.65 |
| Weekend | Saturday and Sunday, 06:00–18:00 | £1.60 | £1.90 |

- Staff working in the chilled zone at Bristol (0 to 5 °C) receive a further £0.80 per hour, and staff in
  the frozen store at Glasgow (-22 °C) a further £1.40 per hour.
- An employee moved to another shift for less than 2 weeks keeps the allowance of their usual shift.

## 5. Long-service award

The award is paid once a year with the December pay, based on completed years of service on 1 December:

| Completed years of service | Annual award |
|---|---|
| 3 to 4 years | £150 |
| 5 to 9 years | £300 |
| 10 to 14 years | £500 |
| 15 years or more | £750 |

There is no award for less than 3 years of service. Grade W5 staff also receive the award. Unpaid leave
of more than one month does not count as service.

## 6. Contact

People Team: people@northwind-logistics.example, extension 310.
"""

NW_SAFETY = [
    ("p", "Document NWL-HS-03 · Version 2026 · Effective 12 January 2026 · Owner: Health and Safety Manager"),
    ("h", "1. Personal protective equipment"),
    ("p", "Safety boots with steel or composite toecaps and a high-visibility vest must be worn at all times in "
          "the warehouse, the yard and the loading bays. Hard hats are required in the racking aisles while "
          "high-level picking (above 2.5 m) is in progress. Cut-resistant gloves must be worn when a safety "
          "knife is used to open cartons. Visitors receive a vest and overshoes at reception."),
    ("h", "2. Forklifts and other lift trucks"),
    ("p", "Only employees who hold a recognised lift-truck licence and a Northwind site authorisation may "
          "drive a forklift. Refresher training is required every 3 years; the site authorisation lapses if "
          "the refresher is not done."),
    ("p", "Speed limits: 6 km/h inside the warehouse, 10 km/h in the yard, and walking pace in the loading "
          "bays. Seat belts must be worn at all times. When a truck is left unattended, the forks must be "
          "lowered and the key removed."),
    ("h", "3. Pedestrians"),
    ("p", "Pedestrians use the marked green walkways and cross truck routes only at the marked crossings. "
          "Mobile phones may not be used while walking in operational areas. Headphones and earbuds are not "
          "allowed in operational areas."),
    ("h", "4. Manual handling"),
    ("p", "No one may lift more than 25 kg alone; heavier items need two people or a mechanical aid. Employees "
          "under 18, and employees who have told their manager that they are pregnant, may not lift more than "
          "16 kg alone and may not drive lift trucks."),
    ("h", "5. Racking"),
    ("p", "Never climb racking. The maximum load per beam level is shown on the load notice at the end of each "
          "aisle. Damage to racking must be reported to the shift manager at once; the bay is closed until it "
          "has been inspected. Racking is inspected by the site team every week and by an external expert "
          "every 12 months."),
    ("h", "6. Chilled and frozen areas"),
    ("p", "In the Glasgow frozen store (-22 °C) staff work no more than 45 minutes at a time, followed by a "
          "warm-up break of at least 15 minutes. Freezer suits, gloves and hats are provided. Lone working in "
          "the frozen store is not allowed."),
    ("h", "7. Accidents and near misses"),
    ("p", "All accidents and near misses must be reported to the shift manager before the end of the shift and "
          "recorded in the incident log. Each shift has at least two trained first aiders; their names are on "
          "the notice board by the canteen."),
    ("h", "8. Fire"),
    ("p", "When the alarm sounds, leave by the nearest exit and go to the assembly point in Car Park B. Do not "
          "use the lifts and do not stop to collect belongings. Fire drills are held twice a year at every "
          "depot."),
    ("h", "9. Breaches"),
    ("p", "A serious breach of these rules, such as driving a forklift without authorisation or removing "
          "machine guards, may lead to dismissal."),
]


def _driver_blocks(version: str) -> list:
    if version == "2024":
        head = "Document NWL-TR-02 · Version 2024 · Effective 1 May 2024 · Owner: Transport Manager"
        artic = ["Tractor unit (articulated)", "C+E", "3 years", "25"]
        accident = ("Any accident or damage to a vehicle, however minor, must be reported to the transport "
                    "office within 2 hours.")
        allowances = [
            ["Night out (overnight away from home, no hotel booked by the company)", "£32 per night"],
            ["Night out with a hotel booked and paid by the company", "£11 per night"],
            ["Meal allowance (duty of more than 10 hours away from the depot, no night out)", "£8.50 per day"],
        ]
        home = "Company vehicles may not be taken home."
        closing = "This policy is issued by the Transport Manager and takes effect on 1 May 2024."
    else:
        head = "Document NWL-TR-02 · Version 2026 · Effective 1 March 2026 · Owner: Transport Manager"
        artic = ["Tractor unit (articulated)", "C+E", "2 years", "23"]
        accident = ("Any accident or damage to a vehicle, however minor, must be reported to the transport "
                    "office immediately, and in any case within 1 hour.")
        allowances = [
            ["Night out (overnight away from home, no hotel booked by the company)", "£38 per night"],
            ["Night out with a hotel booked and paid by the company", "£15 per night"],
            ["Meal allowance (duty of more than 10 hours away from the depot, no night out)", "£10.00 per day"],
        ]
        home = ("Drivers on the on-call rota may take a van home with the Transport Manager's written "
                "approval. Private use of company vehicles is not allowed.")
        closing = ("This policy is issued by the Transport Manager and takes effect on 1 March 2026. It "
                   "replaces the Driver Hours and Vehicle Use Policy (2024), which is withdrawn from the same "
                   "date.")
    return [
        ("p", head),
        ("h", "1. Scope"),
        ("p", "This policy applies to all employed drivers of Northwind vehicles and to warehouse staff who drive "
              "a company van. Agency drivers follow the same driving rules, but their allowances are paid by "
              "their agency."),
        ("h", "2. Licences and experience"),
        ("t", ["Vehicle type", "Licence category", "Minimum driving experience", "Minimum age"], [
            ["Van (up to 3.5 t)", "B", "1 year", "21"],
            ["Rigid 7.5 t", "C1", "2 years", "21"],
            ["Rigid 18 t", "C", "2 years", "21"],
            artic,
        ]),
        ("p", "Licences are checked before employment and every 6 months. Drivers must report any new penalty "
              "points to the Transport Manager within 7 days."),
        ("h", "3. Driving hours and breaks"),
        ("p", "A driver must take a break of at least 45 minutes after no more than 4.5 hours of driving. Daily "
              "driving time is at most 9 hours, extended to 10 hours no more than twice a week. The daily rest "
              "period is at least 11 consecutive hours."),
        ("h", "4. Vehicle checks"),
        ("p", "Before the first journey of the day the driver carries out a walkaround check and records it in "
              "the fleet app. Defects are reported before driving. A vehicle marked 'Off road' must not be "
              "driven."),
        ("h", "5. Mobile phones"),
        ("p", "Drivers may not make or take phone calls while driving, even hands-free; calls are returned when "
              "the vehicle is parked."),
        ("h", "6. Accidents"),
        ("p", accident + " Take photographs, exchange details and do not admit liability."),
        ("h", "7. Allowances"),
        ("t", ["Allowance", "Amount"], allowances),
        ("p", "Allowances are claimed in the fleet app and paid with the following month's pay."),
        ("h", "8. Fuel cards, fines and tolls"),
        ("p", "Each vehicle has a fuel card with a limit of £300 per transaction. Speeding and parking fines are "
              "paid by the driver. Tolls and congestion charges on the planned route are paid by the company."),
        ("h", "9. Use of vehicles"),
        ("p", home),
        ("h", "10. Effective date"),
        ("p", closing),
    ]


# vehicle_id, registration, type, model, year, depot, fuel, payload_kg, status
NW_FLEET = [
    ["NW-V01", "NW19 KDA", "Van (up to 3.5 t)", "Calder V35", 2019, "Wakefield", "Diesel", 1200, "Active"],
    ["NW-V02", "NW20 KDB", "Van (up to 3.5 t)", "Calder V35", 2020, "Wakefield", "Diesel", 1200, "Active"],
    ["NW-V03", "NW23 KDC", "Van (up to 3.5 t)", "Calder V35e", 2023, "Wakefield", "Electric", 950, "Active"],
    ["NW-V04", "NW24 KDD", "Van (up to 3.5 t)", "Calder V35e", 2024, "Wakefield", "Electric", 950, "Active"],
    ["NW-V05", "NW18 BRA", "Van (up to 3.5 t)", "Calder V35", 2018, "Bristol", "Diesel", 1200, "Workshop"],
    ["NW-V06", "NW22 BRB", "Van (up to 3.5 t)", "Calder V35e", 2022, "Bristol", "Electric", 950, "Active"],
    ["NW-V07", "NW24 BRC", "Van (up to 3.5 t)", "Calder V35e", 2024, "Bristol", "Electric", 950, "Active"],
    ["NW-V08", "NW25 BRD", "Van (up to 3.5 t)", "Calder V35e", 2025, "Bristol", "Electric", 950, "Active"],
    ["NW-V09", "NW21 GLA", "Van (up to 3.5 t)", "Calder V35", 2021, "Glasgow", "Diesel", 1200, "Active"],
    ["NW-V10", "NW17 GLB", "Van (up to 3.5 t)", "Calder V35", 2017, "Glasgow", "Diesel", 1200, "Off road"],
    ["NW-V11", "NW23 NHA", "Van (up to 3.5 t)", "Calder V35e", 2023, "Northampton", "Electric", 950, "Active"],
    ["NW-V12", "NW20 NHB", "Van (up to 3.5 t)", "Calder V35", 2020, "Northampton", "Diesel", 1200, "Active"],
    ["NW-R01", "NW19 KRA", "Rigid 7.5 t", "Pennine R75", 2019, "Wakefield", "Diesel", 2800, "Active"],
    ["NW-R02", "NW22 KRB", "Rigid 7.5 t", "Pennine R75", 2022, "Wakefield", "Diesel", 2800, "Active"],
    ["NW-R03", "NW21 BRR", "Rigid 7.5 t", "Pennine R75", 2021, "Bristol", "Diesel", 2800, "Active"],
    ["NW-R04", "NW16 GLR", "Rigid 7.5 t", "Pennine R75", 2016, "Glasgow", "Diesel", 2800, "Workshop"],
    ["NW-R05", "NW23 GLS", "Rigid 7.5 t", "Pennine R75", 2023, "Glasgow", "Diesel", 2800, "Active"],
    ["NW-R06", "NW20 NHR", "Rigid 7.5 t", "Pennine R75", 2020, "Northampton", "Diesel", 2800, "Active"],
    ["NW-H01", "NW18 KHA", "Rigid 18 t", "Pennine R180", 2018, "Wakefield", "Diesel", 9500, "Active"],
    ["NW-H02", "NW21 KHB", "Rigid 18 t", "Pennine R180", 2021, "Wakefield", "Diesel", 9500, "Active"],
    ["NW-H03", "NW20 BRH", "Rigid 18 t", "Pennine R180", 2020, "Bristol", "Diesel", 9500, "Active"],
    ["NW-H04", "NW24 GLH", "Rigid 18 t", "Pennine R180", 2024, "Glasgow", "Diesel", 9500, "Active"],
    ["NW-H05", "NW15 GLJ", "Rigid 18 t", "Pennine R180", 2015, "Glasgow", "Diesel", 9500, "Off road"],
    ["NW-H06", "NW22 NHH", "Rigid 18 t", "Pennine R180", 2022, "Northampton", "Diesel", 9500, "Active"],
    ["NW-T01", "NW19 KTA", "Tractor unit (articulated)", "Ridgeway T44", 2019, "Wakefield", "Diesel", 26000, "Active"],
    ["NW-T02", "NW23 KTB", "Tractor unit (articulated)", "Ridgeway T44", 2023, "Wakefield", "Diesel", 26000, "Active"],
    ["NW-T03", "NW21 BRT", "Tractor unit (articulated)", "Ridgeway T44", 2021, "Bristol", "Diesel", 26000, "Active"],
    ["NW-T04", "NW22 GLT", "Tractor unit (articulated)", "Ridgeway T44", 2022, "Glasgow", "Diesel", 26000, "Workshop"],
    ["NW-T05", "NW20 NHT", "Tractor unit (articulated)", "Ridgeway T44", 2020, "Northampton", "Diesel", 26000, "Active"],
    ["NW-T06", "NW24 NHU", "Tractor unit (articulated)", "Ridgeway T44", 2024, "Northampton", "Diesel", 26000, "Active"],
]

# staff_id, name, depot, role, grade, shift, start_date, forklift_licence
NW_STAFF = [
    ["WS001", "Aaron Fletcher", "Wakefield", "Depot manager", "W5", "Day", "2008-04-14", "Yes"],
    ["WS002", "Bethany Clarke", "Wakefield", "Shift manager", "W5", "Night", "2013-09-02", "Yes"],
    ["WS003", "Callum Reid", "Wakefield", "Team leader", "W4", "Night", "2015-06-22", "Yes"],
    ["WS004", "Dorota Nowak", "Wakefield", "Forklift operator", "W3", "Night", "2019-03-11", "Yes"],
    ["WS005", "Ethan Walsh", "Wakefield", "Forklift operator", "W3", "Evening", "2021-10-04", "Yes"],
    ["WS006", "Farah Siddiqui", "Wakefield", "Picker", "W1", "Day", "2025-02-17", "No"],
    ["WS007", "George Pike", "Wakefield", "Picker", "W2", "Evening", "2022-07-25", "No"],
    ["WS008", "Hollie Marsh", "Wakefield", "Packer", "W1", "Night", "2024-11-04", "No"],
    ["WS009", "Imran Qureshi", "Wakefield", "Loader", "W2", "Night", "2020-01-13", "No"],
    ["WS010", "Jade Thornton", "Wakefield", "Picker", "W2", "Weekend", "2023-05-08", "No"],
    ["WS011", "Kieran Doyle", "Bristol", "Depot manager", "W5", "Day", "2011-02-07", "No"],
    ["WS012", "Laura Bennett", "Bristol", "Team leader", "W4", "Evening", "2012-12-03", "Yes"],
    ["WS013", "Mateusz Zielinski", "Bristol", "Forklift operator", "W3", "Day", "2016-08-15", "Yes"],
    ["WS014", "Nadia Rahman", "Bristol", "Forklift operator", "W3", "Night", "2018-04-30", "Yes"],
    ["WS015", "Oliver Grant", "Bristol", "Picker", "W1", "Day", "2025-09-01", "No"],
    ["WS016", "Priya Shah", "Bristol", "Packer", "W2", "Evening", "2021-03-22", "No"],
    ["WS017", "Quinn Harper", "Bristol", "Loader", "W2", "Night", "2017-11-06", "Yes"],
    ["WS018", "Rosa Martins", "Bristol", "Picker", "W1", "Weekend", "2024-06-10", "No"],
    ["WS019", "Samuel Ogun", "Glasgow", "Shift manager", "W5", "Night", "2010-05-17", "Yes"],
    ["WS020", "Tara McLeod", "Glasgow", "Team leader", "W4", "Day", "2014-01-20", "Yes"],
    ["WS021", "Euan Fraser", "Glasgow", "Forklift operator", "W3", "Night", "2019-09-09", "Yes"],
    ["WS022", "Vaila Robertson", "Glasgow", "Forklift operator", "W3", "Evening", "2022-02-14", "Yes"],
    ["WS023", "William Kerr", "Glasgow", "Picker", "W2", "Night", "2020-10-19", "No"],
    ["WS024", "Ailsa Murray", "Glasgow", "Picker", "W1", "Day", "2026-01-12", "No"],
    ["WS025", "Yusuf Demir", "Glasgow", "Loader", "W2", "Weekend", "2018-07-02", "No"],
    ["WS026", "Zoe Campbell", "Glasgow", "Packer", "W1", "Evening", "2023-03-27", "No"],
    ["WS027", "Adam Kowalski", "Northampton", "Depot manager", "W5", "Day", "2009-10-05", "Yes"],
    ["WS028", "Bella Osei", "Northampton", "Team leader", "W4", "Night", "2011-06-13", "Yes"],
    ["WS029", "Connor Byrne", "Northampton", "Forklift operator", "W3", "Night", "2016-02-29", "Yes"],
    ["WS030", "Daisy Lowe", "Northampton", "Forklift operator", "W4", "Day", "2007-08-20", "Yes"],
    ["WS031", "Elliot Price", "Northampton", "Picker", "W2", "Evening", "2021-05-31", "No"],
    ["WS032", "Fiona Patel", "Northampton", "Packer", "W1", "Night", "2025-06-16", "No"],
    ["WS033", "Gareth Jones", "Northampton", "Loader", "W2", "Day", "2019-12-09", "No"],
    ["WS034", "Hana Sato", "Northampton", "Picker", "W1", "Weekend", "2024-09-23", "No"],
]


def build() -> None:
    QH.mkdir(parents=True, exist_ok=True)
    NW.mkdir(parents=True, exist_ok=True)

    write_text(QH / "学生收费标准（2026-2027学年）.html", QH_FEES_HTML)
    write_text(QH / "学生宿舍管理规定.md", QH_DORM_MD)
    write_docx(QH / "考试与补考管理办法.docx", "青禾职业技术学院 考试与补考管理办法", QH_EXAM)
    write_docx(QH / "教师课时津贴与教龄津贴标准.docx", "青禾职业技术学院 教师课时津贴与教龄津贴标准", QH_PAY)
    write_pdf(QH / "学生奖学金评定办法（2024版）.pdf",
              "青禾职业技术学院 学生奖学金评定办法（2024版）", _scholarship_blocks("2024"))
    write_pdf(QH / "学生奖学金评定办法（2026版）.pdf",
              "青禾职业技术学院 学生奖学金评定办法（2026版）", _scholarship_blocks("2026"))
    write_csv(QH / "教职工名册.csv",
              ["工号", "姓名", "系部", "职称", "岗位类型", "教龄", "班主任", "带班人数"], QH_STAFF)
    write_csv(QH / "课程目录.csv",
              ["课程代码", "课程名称", "开课系部", "课程类型", "学分", "学时", "考核方式", "开课学期"], QH_COURSES)

    write_text(NW / "Rate_Card_2026.html", NW_RATES_HTML)
    write_text(NW / "Overtime_and_Shift_Allowances.md", NW_OVERTIME_MD)
    write_pdf(NW / "Warehouse_Safety_Rules.pdf", "Northwind Logistics Ltd. — Warehouse Safety Rules", NW_SAFETY)
    write_docx(NW / "Driver_Policy_2024.docx",
               "Northwind Logistics Ltd. — Driver Hours and Vehicle Use Policy (2024)", _driver_blocks("2024"))
    write_docx(NW / "Driver_Policy_2026.docx",
               "Northwind Logistics Ltd. — Driver Hours and Vehicle Use Policy (2026)", _driver_blocks("2026"))
    write_csv(NW / "fleet.csv",
              ["vehicle_id", "registration", "type", "model", "year", "depot", "fuel", "payload_kg", "status"],
              NW_FLEET)
    write_csv(NW / "warehouse_staff.csv",
              ["staff_id", "name", "depot", "role", "grade", "shift", "start_date", "forklift_licence"], NW_STAFF)


if __name__ == "__main__":
    build()
