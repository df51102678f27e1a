"""Build the second blind report set of organisational documents (tests/data/orgdocs_blind2/, CC0).

    python tests/data/orgdocs_blind2/build_files.py

Writes every file of the two fictional organisations (nanhu-service-center, harbourline-trading) from
the text below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK
font (WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in
$ORGDOCS_CJK_FONT). The output is deterministic: fixed timestamps in the DOCX zip entries and
core properties, a fixed creation date in the PDFs. Every name, address, number and rule is invented.

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
AUTHOR = "orgdocs_blind2"


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
# 云岚市南湖市民服务中心 (nanhu-service-center)
# ----------------------------------------------------------------------------------------------

NH = HERE / "nanhu-service-center"

NH_GUIDE_MD = """
# 云岚市南湖市民服务中心 办事指南

版本：2026年1月版　更新日期：2026年1月5日　编制：中心综合办公室

本指南供到中心办事的群众和企业参考。各事项的收费标准见《证件工本费及加急费收费标准》，办理时限见《主要事项办理时限一览表》，预约规则见《预约办事与爽约管理规定》。

## 一、地址与交通

- 地址：云岚市南湖区明湖路88号（南湖区政务服务大楼）。
- 公交：乘21路、K36路至“明湖路政务中心”站下车即到。
- 地铁：2号线“湖滨南”站C出口，步行约400米。
- 停车：大楼地下停车场（入口在明湖路一侧）。办事群众凭当日取号小票停车2小时内免费，超过2小时的按每小时4元收费，每日最高收费30元。

## 二、服务时间

| 日期 | 服务时间 | 取号截止 | 开放窗口 |
|---|---|---|---|
| 周一至周五 | 9:00–17:00（中午不休息） | 16:30 | 全部窗口（1–30号） |
| 周六 | 9:00–12:00 | 11:30 | 综合受理窗口（1–6号）、证件领取窗口（28–30号） |
| 周日 | 休息 | — | — |
| 法定节假日 | 休息 | — | — |

说明：

1. 夏季时段（每年7月1日至8月31日），周一至周五的服务时间延长至17:30，取号截止时间相应顺延至17:00。
2. 因法定节假日调休而上班的周六、周日，按周一至周五的服务时间执行，全部窗口开放。
3. 春节假期前的最后一个工作日，服务时间为9:00–15:00，取号截止14:30。
4. 每月最后一个周五15:00起，不动产登记窗口（16–20号）因系统月结暂停受理新件，当天已取号的照常办结。
5. 一楼东侧自助服务区在法定节假日期间照常24小时开放，可自助打印社保参保证明、缴纳非税收入款项；需要人工审核的事项不适用自助办理。

## 三、楼层与窗口分布

| 楼层 | 服务区域 | 窗口号 |
|---|---|---|
| 一楼 | 综合受理、出入境、户籍与身份证、证件领取、自助服务区、咨询导办台 | 1–6号（综合受理）、7–9号（出入境）、10–12号（户籍与身份证）、28–30号（证件领取） |
| 二楼 | 社保医保、不动产登记、母婴室 | 13–15号（社保医保）、16–20号（不动产登记） |
| 三楼 | 住房公积金、税务、中心综合办公室（301室） | 21–24号（住房公积金）、25–27号（税务） |

## 四、取号与办理

1. 现场取号：在一楼大厅取号机刷身份证取号，每人每次限取2个号。已预约的群众凭预约信息在取号机签到取号。
2. 过号：叫号3次未到窗口的，视为过号，须重新取号。
3. 代办：委托他人办理的，须提交委托书和委托人、受托人的身份证原件。居民身份证申领和出入境证件申领须本人到场，不适用代办。
4. 缴费：窗口收费支持微信、支付宝和银行卡；使用现金缴费的，请到一楼1号窗口办理。
5. 复印：一楼咨询导办台提供免费复印，每人每次不超过10页。

## 五、咨询与投诉

- 咨询电话：8806 1234（工作日9:00–17:00）。
- 投诉受理：中心综合办公室（三楼301室），电话8806 1200。
- 微信公众号：“云岚南湖办事”。

注：本指南所列时间如遇临时调整，以中心微信公众号发布的公告为准。
"""

NH_FEES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>云岚市南湖市民服务中心 证件工本费及加急费收费标准（2026年）</title>
</head>
<body>
<h1>云岚市南湖市民服务中心 证件工本费及加急费收费标准（2026年）</h1>
<p>版本：2026年版　执行日期：2026年1月1日　发布：中心综合办公室</p>
<p>收费依据：《云岚市证照工本费收费标准》（云发改价〔2025〕18号，虚构文号）。下表金额单位为人民币元；“—”表示该项目不提供加急服务。</p>

<h2>一、收费标准</h2>
<table border="1">
<thead>
<tr><th>序号</th><th>收费项目</th><th>工本费（元）</th><th>加急费（元）</th><th>备注</th></tr>
</thead>
<tbody>
<tr><td>1</td><td>居民身份证（首次申领、有效期满换领）</td><td>20</td><td>40</td><td>加急3个工作日取证</td></tr>
<tr><td>2</td><td>居民身份证（损坏换领、遗失补领）</td><td>40</td><td>40</td><td>加急3个工作日取证</td></tr>
<tr><td>3</td><td>临时居民身份证</td><td>10</td><td>—</td><td></td></tr>
<tr><td>4</td><td>户口簿（换领、补领）</td><td>8</td><td>—</td><td>当场办结</td></tr>
<tr><td>5</td><td>居住证（首次申领）</td><td>免费</td><td>—</td><td></td></tr>
<tr><td>6</td><td>居住证（换领、补领）</td><td>20</td><td>—</td><td></td></tr>
<tr><td>7</td><td>普通护照</td><td>120</td><td>100</td><td>加急须提交紧急出国事由证明<sup>①</sup></td></tr>
<tr><td>8</td><td>往来港澳通行证（电子卡式）</td><td>60</td><td>100</td><td>签注另收，每次15元</td></tr>
<tr><td>9</td><td>往来台湾通行证（电子卡式）</td><td>60</td><td>100</td><td>签注另收，每次15元</td></tr>
<tr><td>10</td><td>社会保障卡（补领、换领）</td><td>15</td><td>30</td><td>加急当天制卡</td></tr>
<tr><td>11</td><td>不动产登记费（住宅）</td><td>80（每件）</td><td>—</td><td>含第一本证书工本费，每增发一本加收10元</td></tr>
<tr><td>12</td><td>不动产登记费（非住宅）</td><td>550（每件）</td><td>—</td><td>含第一本证书工本费，每增发一本加收10元</td></tr>
</tbody>
</table>
<p><sup>①</sup> 紧急出国事由证明包括：境外亲属病危或死亡证明、境外院校入学通知书、单位出具的紧急出国任务证明等。</p>

<h2>二、减免与例外</h2>
<ol>
<li>城乡最低生活保障对象、特困供养人员凭有效证件，免收第1–6项（居民身份证、临时居民身份证、户口簿、居住证）的工本费；选择加急的，加急费照收。</li>
<li>因制证部门或本中心原因造成证件信息错误而重新制作的，不收取任何费用。</li>
<li>加急服务不适用于户口簿、居住证、临时居民身份证和不动产登记。</li>
<li>已缴纳的加急费，因申请人自身原因未能在加急时限内取证的，不予退还。</li>
</ol>

<h2>三、缴费方式</h2>
<p>窗口收费支持微信、支付宝和银行卡；使用现金缴费的，请到一楼1号窗口办理。缴费后可当场开具电子票据。</p>

<footer>云岚市南湖市民服务中心 综合办公室　电话：8806 1200</footer>
</body>
</html>
"""

# 工号, 姓名, 窗口号, 部门, 班次, 掌握语言, 周六轮值
NH_STAFF = [
    ["NH001", "陈思远", 1, "综合受理", "全天", "普通话;英语", "是"],
    ["NH002", "刘雨涵", 2, "综合受理", "早班", "普通话;粤语", "是"],
    ["NH003", "王志强", 2, "综合受理", "晚班", "普通话", "否"],
    ["NH004", "赵晓燕", 3, "综合受理", "全天", "普通话;手语", "否"],
    ["NH005", "孙浩", 4, "综合受理", "早班", "普通话;英语;日语", "是"],
    ["NH006", "周敏", 4, "综合受理", "晚班", "普通话", "是"],
    ["NH007", "吴佳怡", 5, "综合受理", "全天", "普通话;英语", "否"],
    ["NH008", "郑国平", 6, "综合受理", "全天", "普通话;手语", "是"],
    ["NH009", "冯晓晴", 7, "出入境", "全天", "普通话;英语;韩语", "否"],
    ["NH010", "许家豪", 8, "出入境", "全天", "普通话;英语;粤语", "否"],
    ["NH011", "何静", 9, "出入境", "早班", "普通话;英语", "否"],
    ["NH012", "吕文斌", 9, "出入境", "晚班", "普通话;日语", "否"],
    ["NH013", "施雅琴", 10, "户籍与身份证", "全天", "普通话", "否"],
    ["NH014", "张磊", 11, "户籍与身份证", "全天", "普通话;粤语", "否"],
    ["NH015", "曹丽娟", 12, "户籍与身份证", "全天", "普通话", "否"],
    ["NH016", "严俊", 13, "社保医保", "全天", "普通话;英语", "否"],
    ["NH017", "金晓梅", 14, "社保医保", "早班", "普通话", "否"],
    ["NH018", "魏东", 14, "社保医保", "晚班", "普通话;手语", "否"],
    ["NH019", "陶然", 15, "社保医保", "全天", "普通话", "否"],
    ["NH020", "姜海涛", 16, "不动产登记", "全天", "普通话", "否"],
    ["NH021", "范丽", 17, "不动产登记", "全天", "普通话;英语", "否"],
    ["NH022", "彭建国", 18, "不动产登记", "全天", "普通话", "否"],
    ["NH023", "鲁晓东", 19, "不动产登记", "早班", "普通话", "否"],
    ["NH024", "韦佳", 20, "不动产登记", "全天", "普通话;粤语", "否"],
    ["NH025", "马欣悦", 21, "住房公积金", "全天", "普通话;英语", "否"],
    ["NH026", "苗志勇", 22, "住房公积金", "全天", "普通话", "否"],
    ["NH027", "方婷", 23, "住房公积金", "早班", "普通话", "否"],
    ["NH028", "任浩然", 25, "税务", "全天", "普通话;英语", "否"],
    ["NH029", "袁梦", 26, "税务", "全天", "普通话", "否"],
    ["NH030", "柳青", 28, "证件领取", "全天", "普通话;英语", "是"],
    ["NH031", "邓子轩", 29, "证件领取", "早班", "普通话", "否"],
    ["NH032", "萧雨", 30, "证件领取", "全天", "普通话;手语", "是"],
]

NH_BOOKING = [
    ("p", "文件编号：NHFW-2025-06　版本：2025版　生效日期：2025年9月1日　发布：中心综合办公室"),
    ("h", "第一条　目的"),
    ("p", "为减少群众现场排队等候时间，合理使用窗口资源，制定本规定。本规定适用于在云岚市南湖市民服务中心预约办理的全部事项。"),
    ("h", "第二条　预约渠道"),
    ("p", "群众可通过以下渠道预约：微信公众号“云岚南湖办事”；咨询电话8806 1234（工作日9:00–17:00）；一楼大厅自助取号机。"),
    ("h", "第三条　预约规则"),
    ("p", "1. 可预约次日起7个工作日内的时段，每个时段为30分钟。"),
    ("p", "2. 同一身份证号每天最多预约2个事项；同一事项同一天只能预约1次。"),
    ("p", "3. 不动产登记事项实行全程预约，现场不放号；其他事项可预约，也可现场取号。"),
    ("p", "4. 预约成功后，须在预约时段开始前30分钟至开始后15分钟内，凭本人身份证到一楼取号机签到取号。预约号优先于现场号叫号。"),
    ("h", "第四条　取消与改约"),
    ("p", "不能按时前来的，应在预约时段开始前2小时通过原预约渠道取消或改约。每个预约最多可改约1次。"),
    ("h", "第五条　爽约的认定"),
    ("p", "有下列情形之一的，记爽约1次：（一）既未取消预约，也未在规定时间内签到的；（二）预约时段开始后超过15分钟才签到的；（三）在预约时段开始前不足2小时取消的。"),
    ("h", "第六条　爽约的处理"),
    ("p", "爽约次数按自然年（1月1日至12月31日）累计，每年1月1日清零。按累计次数处理如下："),
    ("t", ["同一自然年内累计爽约次数", "处理措施"], [
        ["1次", "短信提醒"],
        ["2次", "短信提醒，并告知再爽约1次将暂停预约"],
        ["3次至4次", "暂停网上及电话预约30天"],
        ["5次及以上", "暂停网上及电话预约90天"],
    ]),
    ("p", "暂停期自达到相应次数的次日起计算。暂停期间仍可现场取号办理可现场取号的事项。"),
    ("h", "第七条　不计爽约的情形"),
    ("p", "有下列情形之一的，不记爽约：（一）因中心系统故障、停电等中心方面原因未能办理的；（二）因急病住院、交通事故等突发情况未能前来，并在爽约后5个工作日内提交证明材料，经核实的。"),
    ("p", "第六条的暂停措施不适用于年满65周岁的老年人和持有残疾人证的群众，其爽约仅作短信提醒。"),
    ("h", "第八条　申诉"),
    ("p", "对爽约记录有异议的，可在收到短信之日起5个工作日内，通过微信公众号或到三楼301室中心综合办公室提出申诉；中心在3个工作日内答复。"),
    ("h", "第九条　附则"),
    ("p", "本规定由中心综合办公室负责解释，自2025年9月1日起施行。"),
]

NH_TIMES = [
    ("p", "版本：2026年1月更新　执行日期：2026年1月1日　发布：中心综合办公室"),
    ("h", "一、主要事项办理时限"),
    ("p", "下表所列为本中心主要事项的承诺办理时限和加急办理时限。加急服务的收费见《证件工本费及加急费收费标准》。"),
    ("t", ["事项", "办理窗口", "承诺办理时限", "加急办理时限", "备注"], [
        ["居民身份证申领、换领、补领", "10–12号", "15个工作日", "3个工作日", "须本人到场"],
        ["临时居民身份证", "10–12号", "3个工作日", "不提供", ""],
        ["户口迁入（投靠、落户）", "10–12号", "10个工作日", "不提供", ""],
        ["户口簿换领、补领", "10–12号", "即办", "—", "当场办结"],
        ["居住证（首次申领）", "10–12号", "10个工作日", "不提供", ""],
        ["普通护照", "7–9号", "10个工作日", "5个工作日", "须本人到场"],
        ["往来港澳通行证", "7–9号", "7个工作日", "3个工作日", "须本人到场"],
        ["港澳签注（持有效通行证）", "7–9号", "即办", "—", "也可在自助签注机办理"],
        ["社会保障卡补领、换领", "13–15号", "5个工作日", "当天", ""],
        ["社保参保证明打印", "13–15号、自助服务区", "即办", "—", ""],
        ["不动产转移登记（二手房买卖）", "16–20号", "5个工作日", "不提供", "须预约"],
        ["不动产抵押登记", "16–20号", "3个工作日", "不提供", "须预约"],
        ["不动产首次登记", "16–20号", "20个工作日", "不提供", "须预约，不含公告期"],
        ["住房公积金提取（购房）", "21–24号", "3个工作日", "—", ""],
        ["住房公积金贷款审批", "21–24号", "15个工作日", "—", "不含银行放款时间"],
        ["完税证明开具", "25–27号", "即办", "—", ""],
    ]),
    ("h", "二、说明"),
    ("p", "1. 办理时限自受理之日的次日起计算，不含申请人补正材料的时间、公告期和法定节假日。"),
    ("p", "2. 申请材料不齐全的，窗口一次性告知需要补正的全部材料；申请人应在30日内补正，逾期未补正的视为撤回申请。"),
    ("p", "3. 标为“即办”的事项，材料齐全的当场办结。"),
    ("p", "4. 因系统升级等原因不能按期办结的，中心以短信告知申请人，并在公众号公告。"),
]

NH_ELDER_2024 = [
    ("p", "文件编号：NHFW-2024-03　版本：2024版　生效日期：2024年4月1日　发布：中心综合办公室"),
    ("h", "一、服务对象"),
    ("p", "本规定所称老年人，是指年满70周岁的老年人。陪同老年人办事的家属，可与老年人一同使用绿色通道。"),
    ("h", "二、老年人专窗"),
    ("p", "中心在一楼设老年人专窗1个（6号窗口），工作日9:00–17:00开放，可受理综合受理窗口的全部事项。"),
    ("h", "三、优先服务"),
    ("p", "老年人办事无需预约，凭身份证在取号机取“老年人优先号”。等候超过20分钟仍未叫号的，由当班值班长安排优先办理。"),
    ("h", "四、上门服务"),
    ("p", "年满80周岁且行动不便（失能、半失能）的老年人，办理居民身份证换领、社保待遇资格认证的，可由家属通过咨询电话8806 1234申请上门服务。中心在收到申请后5个工作日内安排工作人员上门办理。"),
    ("h", "五、代办"),
    ("p", "老年人可委托家属代办，须提交委托书和双方身份证原件。居民身份证申领须本人到场，上门服务的除外。"),
    ("h", "六、便民设施"),
    ("p", "一楼咨询导办台免费提供老花镜、轮椅（5台）和饮用水。"),
    ("h", "七、附则"),
    ("p", "本规定由中心综合办公室负责解释，自2024年4月1日起施行。"),
]

NH_ELDER_2026 = [
    ("p", "文件编号：NHFW-2026-01　版本：2026版　生效日期：2026年1月1日　发布：中心综合办公室"),
    ("h", "一、服务对象"),
    ("p", "本规定所称老年人，是指年满65周岁的老年人。陪同老年人办事的家属，可与老年人一同使用绿色通道。"),
    ("h", "二、老年人专窗"),
    ("p", "中心在一楼设老年人专窗2个（5号、6号窗口），工作日9:00–17:00开放；周六9:00–12:00开放6号窗口。专窗可受理综合受理窗口的全部事项。"),
    ("h", "三、优先服务"),
    ("p", "老年人办事无需预约，凭身份证在取号机取“老年人优先号”。等候超过15分钟仍未叫号的，由当班值班长安排优先办理。"),
    ("h", "四、上门服务"),
    ("p", "年满75周岁且行动不便（失能、半失能）的老年人，办理居民身份证换领、社保待遇资格认证的，可由家属通过咨询电话8806 1234申请上门服务。中心在收到申请后3个工作日内安排工作人员上门办理。"),
    ("h", "五、代办"),
    ("p", "老年人可委托家属代办，须提交委托书和双方身份证原件。居民身份证申领须本人到场，上门服务的除外。"),
    ("h", "六、便民设施"),
    ("p", "一楼咨询导办台免费提供老花镜、便携式放大镜、轮椅（8台）和饮用水。"),
    ("h", "七、附则"),
    ("p", "本规定由中心综合办公室负责解释，自2026年1月1日起施行，《云岚市南湖市民服务中心老年人绿色通道服务规定（2024版）》同时废止。"),
]


# ----------------------------------------------------------------------------------------------
# Harbourline Trading Ltd. (harbourline-trading)
# ----------------------------------------------------------------------------------------------

HB = HERE / "harbourline-trading"

HB_TRAVEL_HTML = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Harbourline Trading Ltd. - Business Travel Policy</title>
</head>
<body>
<h1>Harbourline Trading Ltd. &mdash; Business Travel Policy</h1>
<p>Document HT-FIN-02 &middot; Version 3.0 &middot; Effective 1 February 2026 &middot; Owner: Finance</p>

<h2>1. Scope</h2>
<p>This policy applies to all permanent and fixed-term employees of Harbourline Trading Ltd. in every
office (Singapore, Rotterdam, Shenzhen and Dubai). Interns are covered and travel at the G1&ndash;G3 rates.
Contractors are not covered by this policy; their travel costs are reimbursed under their service
agreement.</p>

<h2>2. Booking</h2>
<p>Flights and hotels are booked through the travel desk (travel@harbourline.example) at least 10 working
days before departure. Bookings made later than that need the department head's approval, except for
urgent customer visits.</p>

<h2>3. City tiers</h2>
<table border="1">
<thead><tr><th>Tier</th><th>Cities</th></tr></thead>
<tbody>
<tr><td>Tier A</td><td>New York, London, Paris, Tokyo, Singapore, Hong Kong, Zurich</td></tr>
<tr><td>Tier B</td><td>Shanghai, Dubai, Rotterdam, Amsterdam, Frankfurt, Sydney, Seoul</td></tr>
<tr><td>Tier C</td><td>All other cities</td></tr>
</tbody>
</table>

<h2>4. Hotel caps</h2>
<p>Maximum hotel cost per room per night, in USD<sup>1</sup>:</p>
<table border="1">
<thead><tr><th>City tier</th><th>G1&ndash;G3</th><th>G4&ndash;G5</th><th>G6&ndash;G7</th></tr></thead>
<tbody>
<tr><td>Tier A</td><td>USD 220</td><td>USD 280</td><td>USD 360</td></tr>
<tr><td>Tier B</td><td>USD 170</td><td>USD 210</td><td>USD 260</td></tr>
<tr><td>Tier C</td><td>USD 120</td><td>USD 150</td><td>USD 190</td></tr>
</tbody>
</table>
<p><sup>1</sup> Caps include taxes and service charges, and breakfast where it is sold with the room.</p>
<p>Exceptions:</p>
<ol>
<li>During trade-fair weeks listed in Finance's annual travel calendar, the cap may be exceeded by up to
25% with the department head's written approval obtained before booking.</li>
<li>Two employees who share a room may claim 1.5 times the cap of the higher grade for that room.</li>
<li>Hotel costs above the cap without an approved exception are borne by the employee.</li>
</ol>

<h2>5. Meal per diem</h2>
<p>A flat daily meal allowance is paid for each day away; no receipts are needed.</p>
<table border="1">
<thead><tr><th>City tier</th><th>Per diem (USD per day)</th></tr></thead>
<tbody>
<tr><td>Tier A</td><td>90</td></tr>
<tr><td>Tier B</td><td>70</td></tr>
<tr><td>Tier C</td><td>50</td></tr>
</tbody>
</table>
<ul>
<li>Same-day trips (no overnight stay) lasting more than 8 hours receive 50% of the daily rate; trips of
8 hours or less receive no per diem.</li>
<li>For each lunch or dinner provided free by a customer, supplier or conference organiser, deduct 30% of
the daily rate.</li>
<li>The per diem is the same for every grade.</li>
</ul>

<h2>6. Air travel</h2>
<table border="1">
<thead><tr><th>Scheduled flight time</th><th>G1&ndash;G3</th><th>G4&ndash;G5</th><th>G6&ndash;G7</th></tr></thead>
<tbody>
<tr><td>Up to 6 hours</td><td>Economy</td><td>Economy</td><td>Economy</td></tr>
<tr><td>Over 6 hours, up to 9 hours</td><td>Economy</td><td>Premium economy</td><td>Premium economy</td></tr>
<tr><td>Over 9 hours</td><td>Economy</td><td>Premium economy</td><td>Business class</td></tr>
</tbody>
</table>
<p>An employee travelling together with a G6&ndash;G7 colleague flies in the class of their own grade.</p>

<h2>7. Ground transport</h2>
<p>Taxis and ride-hailing are reimbursed against receipts. Airport transfers in Tier A cities are capped at
USD 80 per trip. Car hire needs Finance's prior approval and is decided case by case. Use of a private car
is reimbursed per kilometre at the rate Finance publishes each January.</p>

<h2>8. Claims and advances</h2>
<p>Travel claims are submitted in the expense system within 30 days after the return date, with receipts
for every item over USD 25 (the per diem excepted). Claims are approved under the Expense Approval Policy
in force. A travel advance of up to 70% of the estimated cost may be requested one week before
departure.</p>

<footer>Harbourline Trading Ltd. &middot; Finance &middot; finance@harbourline.example &middot; ext. 2300</footer>
</body>
</html>
"""

HB_LEAVE_MD = """
# Harbourline Trading Ltd. — Leave Policy

Document HT-HR-04 · Version 2025.1 · Effective 1 January 2025 · Owner: People & Culture

## 1. Scope

This policy applies to permanent and fixed-term employees in all offices. Part-time employees receive leave
pro rata to their contracted hours. It does not apply to contractors, whose leave is set by their service
agreement, or to interns, who receive 1 day of paid leave for each full month of internship.

## 2. Annual leave

### 2.1 Entitlement

Annual leave depends on completed years of service with Harbourline (service with previous employers does
not count):

| Completed years of service | Annual leave (working days per year) |
|---|---|
| Less than 2 years | 14 |
| 2 years to less than 5 years | 16 |
| 5 years to less than 10 years | 18 |
| 10 years to less than 15 years | 20 |
| 15 years or more | 22 |

The entitlement for a year is set by the years of service completed on 1 January of that year. New
employees receive a pro-rata share in their first calendar year.

### 2.2 Probation

Leave accrues from the first day of employment, but no more than 3 days of annual leave may be taken
during probation (the first 3 months).

### 2.3 Requesting leave

Requests for 5 or more consecutive working days are made at least 2 weeks in advance; shorter requests
at least 2 working days in advance. The line manager approves; a block of more than 10 consecutive
working days also needs the department head. Sales and Logistics staff may not take annual leave in the
last two weeks of December (year-end shipments), except with the department head's approval.

### 2.4 Carry-over

Up to 5 unused days may be carried over to the next year and must be taken by 31 March; any other unused
days lapse. More than 5 days may be carried over only where leave was cancelled at the company's request,
with the department head's written approval.

## 3. Sick leave

Employees have 14 working days of paid sick leave per calendar year. A medical certificate is needed for
an absence of more than 2 consecutive days. Hospitalisation leave: up to 60 days per calendar year in
total, including the 14 days of sick leave, paid in full.

## 4. Family leave

- Maternity leave: 16 weeks of paid leave.
- Paternity leave: 10 working days (two weeks) of paid leave, to be taken within 6 months of the birth.
- Adoption leave: in accordance with the law of the country of the employee's office; People & Culture
  confirms the entitlement case by case.
- Marriage leave: 3 working days of paid leave.
- Compassionate leave: 3 working days on the death of a spouse, child, parent or sibling; 1 working day
  for a grandparent or parent-in-law.

## 5. Unpaid leave

After 2 years of service, employees may request up to 30 calendar days of unpaid leave per year, with the
approval of the department head and People & Culture.

## 6. Public holidays

Each office observes the public holidays of its own country. An employee who is asked to work on a public
holiday receives one day off in lieu, to be taken within 3 months.

## 7. Contact

People & Culture: hr@harbourline.example, extension 2200.
"""


def _approval_blocks(version: str) -> list:
    if version == "2024":
        head = "Document HT-FIN-05 · Version 2024 · Effective 1 March 2024 · Owner: Finance"
        rows = [
            ["Up to 500", "Line manager"],
            ["500.01 – 2,000", "Line manager and department head"],
            ["2,000.01 – 3,000", "Department head and Finance Manager"],
            ["Over 3,000", "Department head, Finance Manager and CFO"],
            ["Over 15,000", "Department head, Finance Manager, CFO and Managing Director"],
        ]
        entertain = 100
        pay_days = 15
        closing = "This policy is issued by Finance and takes effect on 1 March 2024."
    else:
        head = "Document HT-FIN-05 · Version 2026 · Effective 1 January 2026 · Owner: Finance"
        rows = [
            ["Up to 1,000", "Line manager"],
            ["1,000.01 – 2,500", "Line manager and department head"],
            ["2,500.01 – 5,000", "Department head and Finance Manager"],
            ["Over 5,000", "Department head, Finance Manager and CFO"],
            ["Over 25,000", "Department head, Finance Manager, CFO and Managing Director"],
        ]
        entertain = 150
        pay_days = 10
        closing = ("This policy is issued by Finance and takes effect on 1 January 2026. It replaces the "
                   "Expense Approval Policy (2024), which is withdrawn from the same date.")
    return [
        ("p", head),
        ("h", "1. Scope"),
        ("p", "This policy sets who approves expense claims submitted by employees of Harbourline Trading Ltd. "
              "in all offices. Supplier invoices are approved under the Procurement Policy."),
        ("h", "2. Approval matrix"),
        ("p", "Approvals needed for a single expense claim, by its total amount in USD including tax:"),
        ("t", ["Amount of a single claim (USD)", "Required approvals"], rows),
        ("p", "Amounts in other currencies are converted into USD at Finance's monthly rate for the month in "
              "which the expense was incurred."),
        ("h", "3. Rules"),
        ("p", "Claims must not be split to stay below a threshold; claims for the same purpose are added "
              "together."),
        ("p", "No one may approve their own claim. A department head's own claims are approved by the CFO; "
              "the CFO's claims are approved by the Managing Director."),
        ("p", "Flights and hotels booked through the travel desk are pre-approved and are not subject to "
              "this matrix."),
        ("h", "4. Client entertainment and gifts"),
        ("p", f"Client entertainment may cost up to USD {entertain} per guest per event, drinks included; a "
              "higher amount needs the department head's approval before the event."),
        ("p", "Gifts to clients may cost up to USD 75 per recipient per year. Cash, vouchers and other cash "
              "equivalents may never be given."),
        ("h", "5. Submission and payment"),
        ("p", "Claims are submitted in the expense system within 30 days, with receipts for every item over "
              f"USD 25. Approved claims are paid within {pay_days} working days after the final approval."),
        ("h", "6. Effective date"),
        ("p", closing),
    ]


HB_HANDBOOK = [
    ("p", "Document HT-ADM-01 · Version 2026 · Effective 5 January 2026 · Owner: Administration"),
    ("h", "1. Our offices"),
    ("p", "Singapore (head office): Level 9, 41 Marina Crescent, Singapore. "
          "Rotterdam: Kadeweg 215, Rotterdam, the Netherlands. "
          "Shenzhen: Room 1806, Qianwan Trade Centre, Shenzhen, China. "
          "Dubai: Office 704, Creekside Business Tower, Dubai, UAE."),
    ("h", "2. Office hours"),
    ("p", "Singapore: Monday to Friday, 8:30 to 17:30."),
    ("p", "Rotterdam: Monday to Friday, 8:30 to 17:00."),
    ("p", "Shenzhen: Monday to Friday, 9:00 to 18:00, with a lunch break from 12:00 to 13:30."),
    ("p", "Dubai: Monday to Thursday, 8:00 to 17:00; Friday, 8:00 to 12:00."),
    ("h", "3. Flexible hours"),
    ("p", "With their line manager's agreement, office staff may start work at any time between 7:30 and "
          "10:00. Core hours, when everyone must be available, are 10:00 to 16:00 local time. Warehouse staff "
          "work the shifts set by the Logistics manager and are not on flexible hours."),
    ("h", "4. Working from home"),
    ("p", "After probation, office staff may work from home up to 2 days per week, agreed with their line "
          "manager. Working from home is not available to warehouse staff. A one-off home-office allowance of "
          "USD 300 is paid for equipment, against receipts."),
    ("h", "5. IT and security"),
    ("p", "IT helpdesk: extension 2400, helpdesk@harbourline.example. A lost or stolen laptop or phone must be "
          "reported to the helpdesk within 24 hours. Passwords must have at least 14 characters."),
    ("h", "6. Visitors"),
    ("p", "Visitors sign in at reception, wear a visitor badge and are accompanied by their host at all "
          "times. Visitors may not enter the warehouse without safety shoes and a high-visibility vest."),
    ("h", "7. Contact"),
    ("p", "Administration: admin@harbourline.example, extension 2100."),
]

# employee_id, name, department, grade, office_city, start_year
HB_EMPLOYEES = [
    ["HL001", "Amelia Tan", "Management", "G7", "Singapore", 2009],
    ["HL002", "Marcus Lindqvist", "Management", "G7", "Rotterdam", 2011],
    ["HL003", "Priya Raman", "Finance", "G6", "Singapore", 2013],
    ["HL004", "Daniel Okafor", "Finance", "G4", "Singapore", 2018],
    ["HL005", "Sofia Marques", "Finance", "G3", "Rotterdam", 2021],
    ["HL006", "Chen Wei", "Finance", "G2", "Shenzhen", 2023],
    ["HL007", "Hannah Vermeulen", "Sales", "G6", "Rotterdam", 2012],
    ["HL008", "Rahul Mehta", "Sales", "G5", "Dubai", 2016],
    ["HL009", "Grace Lim", "Sales", "G5", "Singapore", 2015],
    ["HL010", "Tom Brennan", "Sales", "G4", "Rotterdam", 2019],
    ["HL011", "Li Na", "Sales", "G4", "Shenzhen", 2017],
    ["HL012", "Yusuf Al-Amin", "Sales", "G3", "Dubai", 2020],
    ["HL013", "Emma de Jong", "Sales", "G3", "Rotterdam", 2022],
    ["HL014", "Kevin Ng", "Sales", "G2", "Singapore", 2024],
    ["HL015", "Fatima Hassan", "Sales", "G2", "Dubai", 2025],
    ["HL016", "Zhang Hao", "Sales", "G3", "Shenzhen", 2021],
    ["HL017", "Olivia Brooks", "Sales", "G1", "Singapore", 2025],
    ["HL018", "Wang Fang", "Procurement", "G5", "Shenzhen", 2014],
    ["HL019", "Lukas Becker", "Procurement", "G4", "Rotterdam", 2016],
    ["HL020", "Nurul Aziz", "Procurement", "G3", "Singapore", 2019],
    ["HL021", "Huang Jie", "Procurement", "G3", "Shenzhen", 2020],
    ["HL022", "Mei Ling Koh", "Procurement", "G2", "Singapore", 2023],
    ["HL023", "Omar Farouk", "Procurement", "G2", "Dubai", 2022],
    ["HL024", "Pieter Smit", "Logistics", "G5", "Rotterdam", 2010],
    ["HL025", "Liu Yang", "Logistics", "G4", "Shenzhen", 2015],
    ["HL026", "Arjun Nair", "Logistics", "G3", "Dubai", 2018],
    ["HL027", "Jasmine Goh", "Logistics", "G3", "Singapore", 2021],
    ["HL028", "Sven Aalders", "Logistics", "G2", "Rotterdam", 2024],
    ["HL029", "Zhou Min", "Logistics", "G1", "Shenzhen", 2025],
    ["HL030", "Ahmed Saleh", "Logistics", "G1", "Dubai", 2025],
    ["HL031", "Rachel Foo", "People & Culture", "G5", "Singapore", 2014],
    ["HL032", "Noor Hamdan", "People & Culture", "G3", "Dubai", 2021],
    ["HL033", "Ines Jansen", "People & Culture", "G2", "Rotterdam", 2023],
    ["HL034", "Benjamin Yeo", "IT", "G5", "Singapore", 2012],
    ["HL035", "Xu Lei", "IT", "G4", "Shenzhen", 2019],
    ["HL036", "Thijs Bakker", "IT", "G3", "Rotterdam", 2022],
    ["HL037", "Siti Rahmah", "IT", "G2", "Singapore", 2024],
    ["HL038", "Maya Iyer", "Sales", "G4", "Singapore", 2018],
    ["HL039", "Gao Yan", "Logistics", "G2", "Shenzhen", 2023],
    ["HL040", "Ravi Shankar", "Management", "G6", "Dubai", 2013],
]

# sku, product_name, category, unit, unit_price_usd, stock_qty
HB_PRICES = [
    ["HT-KW-001", "Stainless Steel Saucepan 2L", "Kitchenware", "piece", "18.50", 420],
    ["HT-KW-002", "Stainless Steel Saucepan 3L", "Kitchenware", "piece", "22.90", 310],
    ["HT-KW-003", "Cast Iron Skillet 26cm", "Kitchenware", "piece", "27.40", 0],
    ["HT-KW-004", "Bamboo Cutting Board (Medium)", "Kitchenware", "piece", "9.80", 760],
    ["HT-KW-005", "Ceramic Mixing Bowl Set (3 pcs)", "Kitchenware", "set", "15.60", 240],
    ["HT-KW-006", "Silicone Spatula", "Kitchenware", "piece", "2.35", 1850],
    ["HT-KW-007", "Glass Food Container 1L", "Kitchenware", "piece", "4.20", 1300],
    ["HT-KW-008", "Enamel Kettle 1.5L", "Kitchenware", "piece", "19.90", 85],
    ["HT-TX-001", "Cotton Bath Towel 70x140cm", "Textiles", "piece", "6.75", 2200],
    ["HT-TX-002", "Cotton Hand Towel 40x70cm", "Textiles", "piece", "2.90", 3100],
    ["HT-TX-003", "Linen Tablecloth 150x250cm", "Textiles", "piece", "21.00", 140],
    ["HT-TX-004", "Microfibre Cleaning Cloth (10 pack)", "Textiles", "pack", "3.60", 0],
    ["HT-TX-005", "Cotton Apron", "Textiles", "piece", "4.85", 640],
    ["HT-TX-006", "Wool Blend Throw Blanket", "Textiles", "piece", "24.50", 95],
    ["HT-TX-007", "Bedsheet Set Queen", "Textiles", "set", "17.80", 380],
    ["HT-LT-001", "LED Bulb E27 9W", "Lighting", "piece", "1.45", 9800],
    ["HT-LT-002", "LED Bulb E14 5W", "Lighting", "piece", "1.30", 7600],
    ["HT-LT-003", "LED Panel 60x60cm 40W", "Lighting", "piece", "14.90", 520],
    ["HT-LT-004", "Solar Garden Light", "Lighting", "piece", "5.40", 0],
    ["HT-LT-005", "Desk Lamp with USB Port", "Lighting", "piece", "12.75", 330],
    ["HT-LT-006", "LED Strip 5m RGB", "Lighting", "roll", "8.60", 1150],
    ["HT-LT-007", "Emergency Exit Sign", "Lighting", "piece", "23.00", 60],
    ["HT-HW-001", "Cordless Drill 18V", "Hardware", "piece", "46.00", 150],
    ["HT-HW-002", "Screwdriver Set (24 pcs)", "Hardware", "set", "11.20", 480],
    ["HT-HW-003", "Measuring Tape 5m", "Hardware", "piece", "2.10", 2600],
    ["HT-HW-004", "Padlock 40mm", "Hardware", "piece", "3.95", 900],
    ["HT-HW-005", "Aluminium Step Ladder 3-step", "Hardware", "piece", "32.50", 70],
    ["HT-HW-006", "Claw Hammer 500g", "Hardware", "piece", "5.60", 0],
    ["HT-HW-007", "Wall Plugs and Screws Kit", "Hardware", "kit", "3.40", 1500],
    ["HT-ST-001", "A4 Copy Paper 80gsm (500 sheets)", "Stationery", "ream", "3.80", 5400],
    ["HT-ST-002", "Ballpoint Pen Blue (50 pack)", "Stationery", "pack", "6.20", 800],
    ["HT-ST-003", "Lever Arch File A4", "Stationery", "piece", "1.95", 2300],
    ["HT-ST-004", "Whiteboard 90x120cm", "Stationery", "piece", "38.00", 45],
    ["HT-ST-005", "Sticky Notes 76x76mm (12 pads)", "Stationery", "pack", "4.40", 1200],
    ["HT-ST-006", "Bamboo Desk Organiser", "Stationery", "piece", "8.90", 0],
    ["HT-ST-007", "Heavy Duty Stapler", "Stationery", "piece", "9.70", 260],
    ["HT-PK-001", "Corrugated Carton 40x30x30cm", "Packaging", "piece", "0.85", 12000],
    ["HT-PK-002", "Bubble Wrap Roll 1m x 50m", "Packaging", "roll", "16.40", 300],
    ["HT-PK-003", "Packing Tape 48mm x 66m", "Packaging", "roll", "1.10", 6500],
    ["HT-PK-004", "Stretch Film 500mm x 300m", "Packaging", "roll", "13.20", 210],
]


def build() -> None:
    NH.mkdir(parents=True, exist_ok=True)
    HB.mkdir(parents=True, exist_ok=True)

    write_text(NH / "办事指南.md", NH_GUIDE_MD)
    write_text(NH / "收费标准.html", NH_FEES_HTML)
    write_csv(NH / "窗口人员排班表.csv",
              ["工号", "姓名", "窗口号", "部门", "班次", "掌握语言", "周六轮值"], NH_STAFF)
    write_docx(NH / "预约办事与爽约管理规定.docx", "云岚市南湖市民服务中心 预约办事与爽约管理规定", NH_BOOKING)
    write_docx(NH / "办理时限一览表.docx", "云岚市南湖市民服务中心 主要事项办理时限一览表", NH_TIMES)
    write_pdf(NH / "老年人绿色通道服务规定（2024版）.pdf",
              "云岚市南湖市民服务中心 老年人绿色通道服务规定（2024版）", NH_ELDER_2024)
    write_pdf(NH / "老年人绿色通道服务规定（2026版）.pdf",
              "云岚市南湖市民服务中心 老年人绿色通道服务规定（2026版）", NH_ELDER_2026)

    write_text(HB / "Travel_Policy.html", HB_TRAVEL_HTML)
    write_text(HB / "Leave_Policy.md", HB_LEAVE_MD)
    write_docx(HB / "Expense_Approval_Policy_2024.docx",
               "Harbourline Trading Ltd. — Expense Approval Policy (2024)", _approval_blocks("2024"))
    write_docx(HB / "Expense_Approval_Policy_2026.docx",
               "Harbourline Trading Ltd. — Expense Approval Policy (2026)", _approval_blocks("2026"))
    write_pdf(HB / "Office_Handbook.pdf", "Harbourline Trading Ltd. — Office Handbook", HB_HANDBOOK)
    write_csv(HB / "employees.csv",
              ["employee_id", "name", "department", "grade", "office_city", "start_year"], HB_EMPLOYEES)
    write_csv(HB / "price_list_2026.csv",
              ["sku", "product_name", "category", "unit", "unit_price_usd", "stock_qty"], HB_PRICES)


if __name__ == "__main__":
    build()
