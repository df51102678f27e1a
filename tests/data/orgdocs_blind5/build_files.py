"""Build the fifth blind report set of organisational documents (tests/data/orgdocs_blind5/, CC0).

    python tests/data/orgdocs_blind5/build_files.py

Writes every file of the two fictional organisations (yunfan-pharmacy, brightwell-school) from the text
below: Markdown, HTML and CSV as UTF-8 text, DOCX with python-docx, PDF with fpdf2 and a CJK font
(WenQuanYi Micro Hei, /usr/share/fonts/truetype/wqy/wqy-microhei.ttc, or the path in $ORGDOCS_CJK_FONT).
The output is deterministic: fixed timestamps in the DOCX zip entries and core properties, a fixed
creation date in the PDFs. Every name, address, number and rule is invented.
The writer functions are copied unchanged from ../orgdocs_blind4/build_files.py (only AUTHOR differs).

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
AUTHOR = "orgdocs_blind5"


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
# 云帆大药房连锁有限公司 (yunfan-pharmacy), 鹭州市
# ----------------------------------------------------------------------------------------------

YF = HERE / "yunfan-pharmacy"

YF_FEES_HTML = """
<!DOCTYPE html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<title>云帆大药房 会员权益与服务收费标准（2026年）</title>
</head>
<body>
<h1>云帆大药房连锁有限公司 会员权益与服务收费标准（2026年）</h1>
<p>发布：运营管理部　发布日期：2025年12月20日　执行期间：2026年1月1日至2026年12月31日</p>
<p>本标准适用于云帆大药房在鹭州市的全部12家直营门店。金额单位为人民币元。门店地址和营业时间见《门店列表》。</p>

<h2>一、会员等级与折扣</h2>
<table border="1">
<thead>
<tr><th>会员等级</th><th>升级条件（近12个月累计实付金额）</th><th>会员折扣</th><th>每消费1元积分</th><th>专属服务</th></tr>
</thead>
<tbody>
<tr><td>普通会员</td><td>免费注册</td><td>无折扣</td><td>1分</td><td>免费测血压</td></tr>
<tr><td>银卡会员</td><td>满1000元</td><td>9.5折</td><td>1.2分</td><td>免费测血压、免费测血糖</td></tr>
<tr><td>金卡会员</td><td>满3000元</td><td>9折</td><td>1.5分</td><td>银卡服务，另加每月1次免配送费送药上门</td></tr>
<tr><td>钻石会员</td><td>满8000元</td><td>8.8折</td><td>2分</td><td>金卡服务，另加执业药师一对一用药咨询</td></tr>
</tbody>
</table>
<p>会员折扣只适用于非处方药、保健食品和医疗器械。处方药、中药饮片、特价商品以及医保个人账户或统筹基金支付的部分不打折；处方药可以正常累计积分。会员折扣不与门店其他促销活动同时使用，两者取优惠较大的一项。</p>
<p>积分规则：每100积分可抵扣现金1元，单笔抵扣不超过实付金额的50%。积分有效期至获得积分的次年12月31日。会员等级每12个月评定一次，未达到原等级升级条件的，下调一级。</p>

<h2>二、中药代煎服务收费</h2>
<table border="1">
<thead>
<tr><th>每剂药材干重</th><th>普通代煎（元/剂，次日取药）</th><th>急煎（元/剂，4小时内取药）</th></tr>
</thead>
<tbody>
<tr><td>200克及以下</td><td>4</td><td>7</td></tr>
<tr><td>201–400克</td><td>6</td><td>9</td></tr>
<tr><td>400克以上</td><td>8</td><td>12</td></tr>
</tbody>
</table>
<p>以上标准已含包装（每剂分装2袋，每袋200毫升），不含药材费用。每剂需分装3袋及以上的，每剂加收1元。金卡会员和钻石会员的普通代煎费按8折收取，急煎费不打折。</p>
<p>代煎服务只在城南旗舰店、城北店和东湖医院店的煎药室提供；其他门店可以代收处方，药材送煎药室煎好后于次日送回原门店取药（急煎须到上述三家门店办理）。处方中含有生川乌、生草乌、生附子等毒性中药材的，不提供代煎服务。</p>

<h2>三、送药上门配送费</h2>
<table border="1">
<thead>
<tr><th>配送距离（门店至收货地址）</th><th>配送费（元/单）</th><th>满额免配送费</th><th>送达时限</th></tr>
</thead>
<tbody>
<tr><td>3公里以内（含3公里）</td><td>5</td><td>订单满59元免配送费</td><td>1小时内</td></tr>
<tr><td>3–6公里（含6公里）</td><td>8</td><td>订单满99元免配送费</td><td>1.5小时内</td></tr>
<tr><td>6–10公里（含10公里）</td><td>12</td><td>不免配送费</td><td>2小时内</td></tr>
<tr><td>10公里以上</td><td>不提供配送</td><td>—</td><td>—</td></tr>
</tbody>
</table>
<p>以上配送费不含冷链包装费和夜间服务费。订单中含有冷链药品（胰岛素、生物制品等需2–8℃保存的药品）的，每单另收冷链包装费10元，且该订单不参与满额免配送费。22:00至次日7:00只由24小时门店配送，每单另收夜间服务费6元。金卡会员每月1次免配送费只免除配送费，冷链包装费和夜间服务费照收。处方药须先上传处方、经执业药师审核后才能配送。</p>

<h2>四、其他便民服务</h2>
<table border="1">
<thead>
<tr><th>服务项目</th><th>收费标准</th><th>说明</th></tr>
</thead>
<tbody>
<tr><td>血压测量</td><td>免费</td><td>所有顾客</td></tr>
<tr><td>指尖血糖检测</td><td>5元/次</td><td>银卡及以上会员免费</td></tr>
<tr><td>中药饮片打粉</td><td>3元/100克</td><td>不足100克按100克计</td></tr>
<tr><td>冷藏药品临时寄存</td><td>免费</td><td>限本店购买的药品，最长寄存7天</td></tr>
</tbody>
</table>

<footer>云帆大药房连锁有限公司 运营管理部　鹭州市城南区南门大街168号　客服热线：8812 3300</footer>
</body>
</html>
"""

YF_LEAVE_MD = """
# 云帆大药房 员工考勤与请假制度

文件编号：云帆人〔2025〕9号　版本：2025年修订版　施行日期：2025年7月1日　发布：人力资源部

## 第一章 总则

第一条　本制度适用于公司全体员工，包括各门店、仓储配送中心和总部员工。

第二条　兼职员工按本制度第二章考勤；请假只适用第十一条（病假）和第十四条（事假），不享受带薪年休假，也不适用第十二条、第十三条。

## 第二章 考勤

第三条　门店实行排班制，每班8小时（含用餐30分钟），排班表由店长于每月25日前公布下月安排。总部实行标准工时，上班时间为8:30–17:30。

第四条　员工上下班须在本门店考勤机刷脸打卡。漏打卡的，每月可补卡2次，须当天由店长在系统中确认。

第五条　迟到、早退按下表处理：

| 迟到或早退时长 | 处理 |
|---|---|
| 15分钟以内（含15分钟） | 每次扣款20元 |
| 超过15分钟，不超过60分钟 | 每次扣款50元 |
| 超过60分钟 | 按旷工半天处理 |

每月第一次15分钟以内的迟到不扣款。鹭州市人民政府发布台风或暴雨红色预警的当天，迟到不扣款。

第六条　连续旷工3天，或一年内累计旷工5天的，公司可以依法解除劳动合同。

## 第三章 假期

第七条　员工享受带薪年休假，天数按在本公司的司龄确定：

| 司龄 | 年休假天数 |
|---|---|
| 不满1年 | 0天 |
| 满1年不满3年 | 5天 |
| 满3年不满5年 | 7天 |
| 满5年不满10年 | 10天 |
| 满10年及以上 | 15天 |

司龄按《门店员工名册》登记的入职日期计算，以每年1月1日已满的整年数确定当年的年休假天数，全年不变。

第八条　年休假须至少提前5个工作日在系统中申请。年休假当年有效，不能结转；因公司安排当年未能休完的，经人力资源部确认后可顺延至次年3月31日前休完。

第九条　春节期间（除夕前3天至正月初六），门店员工原则上不批准年休假。

第十条　执业药师请假（含年休假）的，须由店长安排其他执业药师顶岗后方可批准。门店营业期间必须至少有1名执业药师在岗。

第十一条　病假须提供医疗机构出具的病假证明；连续病假超过3天的，须提供二级及以上医院出具的证明。病假期间按本人月工资的80%计发。

第十二条　婚假3天；直系亲属丧假3天。婚假须在领取结婚证后1年内一次休完。

第十三条　女员工产假158天；男员工陪产假15天，须在子女出生后6个月内休完。

第十四条　事假为无薪假，每次不超过3天，每年累计不超过10天。

## 第四章 审批

第十五条　请假审批权限如下：

| 请假天数 | 审批人 |
|---|---|
| 1天及以下 | 店长 |
| 超过1天，不超过3天 | 区域经理 |
| 超过3天 | 人力资源部经理 |

店长本人请假的，3天以内由区域经理审批，超过3天的由人力资源部经理审批。

第十六条　请假须事先在系统中提交申请；突发疾病等紧急情况，可以先电话报告店长，并在返岗后2个工作日内补办手续。未经批准擅自离岗的，按旷工处理。

## 第五章 附则

第十七条　本制度由人力资源部负责解释，自2025年7月1日起施行。人力资源部电话：8812 3320。
"""

YF_RETURNS = [
    ("p", "文件编号：云帆质〔2025〕21号　版本：V3.0　施行日期：2025年9月1日　发布：质量管理部"),
    ("h", "一、总则"),
    ("p", "1. 药品是特殊商品。为保证用药安全，除药品质量问题外，已售出的药品原则上不予退换。本规定列明可以退换的商品、期限和条件。"),
    ("p", "2. 本规定适用于本公司全部门店的柜台销售和送药上门订单。送药上门订单在签收前可以拒收，签收后按本规定执行。"),
    ("h", "二、可退换的商品与期限"),
    ("t", ["商品类别", "非质量问题", "质量问题", "条件"], [
        ["非处方药（OTC）", "购买之日起7天内可退换", "30天内可退换", "未拆封、包装完好、在有效期内，凭购物小票或电子发票"],
        ["保健食品", "购买之日起7天内可退换", "30天内可退换", "未拆封、包装完好，凭购物小票或电子发票"],
        ["医疗器械（血压计、血糖仪、制氧机等）", "7天内可换货，不退款", "30天内可退换；保修期内免费维修", "配件齐全，凭购物小票和保修卡"],
        ["一次性医疗用品（口罩、注射器、血糖试纸等）", "不退换", "30天内可退换", "包装未拆封"],
        ["处方药", "不退换", "30天内可退换", "须经门店执业药师确认"],
        ["冷链药品（胰岛素、生物制品等）", "不退换", "只限离柜前当场验货时提出", "离开门店后不退换"],
        ["中药饮片（已按处方调配）", "不退换", "7天内可退换", "凭处方和购物小票"],
    ]),
    ("p", "注：“购买之日起7天内”含购买当天，以购物小票上的日期为准。退换商品时须带上原包装和全部赠品。"),
    ("h", "三、不予退换的情形"),
    ("p", "1. 已拆封或包装破损的药品和保健食品（质量问题除外）。"),
    ("p", "2. 冷链药品一经离开门店，无论是否拆封，均不予退换；顾客应在柜台当场验货，当场发现质量问题的可以退换。送药上门的冷链药品视同离柜，签收后不予退换。"),
    ("p", "3. 特价商品和赠品（质量问题除外）。"),
    ("p", "4. 超过上表期限的商品。"),
    ("p", "5. 无购物凭证，且系统中查询不到购买记录的商品。"),
    ("h", "四、退款方式与审批"),
    ("p", "退款按原支付方式退回：医保个人账户和统筹基金支付的部分退回医保；微信、支付宝和银行卡支付的原路退回；现金支付的退还现金。该笔消费获得的会员积分同时扣回；使用积分抵扣的，积分退回会员账户。"),
    ("p", "单笔退款金额在500元以内（含500元）的，由店长审批；超过500元的，须报区域经理审批。因质量问题退货的，不论金额大小，门店均须在24小时内上报质量管理部。"),
    ("h", "五、质量问题的认定"),
    ("p", "质量问题由门店执业药师初步认定，必要时送质量管理部检验。认定为质量问题的，顾客可以选择退货或换货，往返费用由本公司承担。"),
    ("h", "六、附则"),
    ("p", "本规定由质量管理部负责解释，自2025年9月1日起施行。质量投诉电话：8812 3366。"),
]


def _night_blocks(version: str) -> list:
    if version == "2024":
        head = "文件编号：云帆人〔2024〕3号　版本：2024版　施行日期：2024年3月1日　发布：人力资源部"
        rows = [
            ["执业药师", "80", "15"],
            ["店长（值夜班时）", "80", "15"],
            ["营业员、中药调剂员", "50", "15"],
            ["收银员", "40", "15"],
        ]
        closing = "本标准由人力资源部负责解释，自2024年3月1日起施行。"
    else:
        head = "文件编号：云帆人〔2026〕1号　版本：2026版　施行日期：2026年1月1日　发布：人力资源部"
        rows = [
            ["执业药师", "100", "20"],
            ["店长（值夜班时）", "100", "20"],
            ["营业员、中药调剂员", "60", "20"],
            ["收银员", "50", "20"],
        ]
        closing = ("本标准由人力资源部负责解释，自2026年1月1日起施行，"
                   "《门店夜班与补贴标准（2024版）》同时废止。")
    return [
        ("p", head),
        ("h", "第一条　适用范围"),
        ("p", "本标准适用于24小时营业门店安排的夜班。非24小时营业的门店不安排夜班，不适用本标准。"),
        ("h", "第二条　夜班时间"),
        ("p", "夜班时间为22:00至次日8:00。夜班期间门店至少2人在岗，其中至少1名执业药师。"),
        ("h", "第三条　夜班补贴和夜班餐补"),
        ("p", "员工每上一个完整夜班，按岗位发放夜班补贴和夜班餐补，标准如下："),
        ("t", ["岗位", "夜班补贴（元/班）", "夜班餐补（元/班）"], rows),
        ("h", "第四条　法定节假日"),
        ("p", "在法定节假日当天值夜班的，夜班补贴按上表标准的2倍发放；夜班餐补不加倍。"),
        ("h", "第五条　排班限制"),
        ("p", "员工连续上夜班不超过5个，之后至少安排2天休息。怀孕和哺乳期的女员工不安排夜班。"),
        ("h", "第六条　兼职员工"),
        ("p", "兼职员工值夜班的，按同岗位标准发放夜班补贴和夜班餐补。"),
        ("h", "第七条　发放"),
        ("p", "夜班补贴和夜班餐补按当月实际完成的夜班数计算，随次月工资发放。"),
        ("h", "第八条　附则"),
        ("p", closing),
    ]


# 门店编号, 门店, 区, 地址, 营业时间, 是否24小时, 面积(㎡), 医保定点, 开业日期
YF_STORES = [
    ["YF01", "城南旗舰店", "城南区", "南门大街168号", "00:00–24:00", "是", 420, "是", "2012-05-18"],
    ["YF02", "城南新村店", "城南区", "新村路32号", "08:00–22:00", "否", 135, "是", "2016-09-01"],
    ["YF03", "城北店", "城北区", "北环路77号", "08:00–22:00", "否", 160, "是", "2014-03-20"],
    ["YF04", "火车站店", "城北区", "站前广场东侧3号", "00:00–24:00", "是", 210, "是", "2015-11-11"],
    ["YF05", "滨海店", "滨海区", "海滨路9号", "08:30–21:30", "否", 98, "否", "2019-06-06"],
    ["YF06", "东湖店", "东湖区", "湖光路201号", "08:00–22:00", "否", 150, "是", "2017-04-28"],
    ["YF07", "东湖医院店", "东湖区", "湖滨路15号（市第二人民医院对面）", "00:00–24:00", "是", 260, "是", "2018-08-08"],
    ["YF08", "西山店", "西山区", "枫叶街56号", "08:30–21:00", "否", 88, "否", "2021-01-15"],
    ["YF09", "高新店", "高新区", "创新大道1200号", "08:00–22:00", "否", 175, "是", "2020-10-10"],
    ["YF10", "高新园区店", "高新区", "软件园路8号", "08:00–20:00", "否", 72, "否", "2023-03-03"],
    ["YF11", "海港店", "滨海区", "港湾路88号", "00:00–24:00", "是", 190, "是", "2022-07-01"],
    ["YF12", "西山新城店", "西山区", "新城大道66号", "08:00–22:00", "否", 120, "是", "2024-12-18"],
]

# 工号, 姓名, 门店, 岗位, 职称/等级, 入职日期, 是否执业药师, 用工性质
YF_STAFF = [
    ["YF001", "陈建华", "城南旗舰店", "店长", "主管药师", "2012-05-18", "是", "全职"],
    ["YF002", "李秀英", "城南旗舰店", "执业药师", "主管药师", "2014-09-01", "是", "全职"],
    ["YF003", "王磊", "城南旗舰店", "执业药师", "药师", "2019-07-01", "是", "全职"],
    ["YF004", "张慧", "城南旗舰店", "营业员", "药士", "2021-03-15", "否", "全职"],
    ["YF005", "刘洋", "城南旗舰店", "收银员", "无", "2023-08-01", "否", "兼职"],
    ["YF006", "赵敏", "城南新村店", "店长", "药师", "2016-09-01", "是", "全职"],
    ["YF007", "孙婷婷", "城南新村店", "营业员", "药士", "2022-11-07", "否", "全职"],
    ["YF008", "周伟", "城北店", "店长", "药师", "2014-03-20", "是", "全职"],
    ["YF009", "吴芳", "城北店", "中药调剂员", "药士", "2018-05-14", "否", "全职"],
    ["YF010", "郑凯", "火车站店", "店长", "主管药师", "2015-11-11", "是", "全职"],
    ["YF011", "冯雪", "火车站店", "执业药师", "药师", "2020-01-01", "是", "全职"],
    ["YF012", "陈晨", "火车站店", "营业员", "无", "2024-06-17", "否", "全职"],
    ["YF013", "褚红梅", "火车站店", "收银员", "无", "2025-09-01", "否", "兼职"],
    ["YF014", "卫强", "滨海店", "店长", "药师", "2019-06-06", "是", "全职"],
    ["YF015", "蒋丽", "滨海店", "营业员", "药士", "2023-02-20", "否", "全职"],
    ["YF016", "沈涛", "东湖店", "店长", "药师", "2017-04-28", "是", "全职"],
    ["YF017", "韩雪梅", "东湖店", "中药调剂员", "药师", "2013-10-08", "否", "全职"],
    ["YF018", "杨帆", "东湖医院店", "店长", "主管药师", "2013-07-01", "是", "全职"],
    ["YF019", "朱琳", "东湖医院店", "执业药师", "药师", "2018-08-08", "是", "全职"],
    ["YF020", "秦朗", "东湖医院店", "执业药师", "药师", "2022-04-11", "是", "全职"],
    ["YF021", "尤佳", "东湖医院店", "营业员", "药士", "2020-12-01", "否", "全职"],
    ["YF022", "许诺", "东湖医院店", "收银员", "无", "2025-03-10", "否", "兼职"],
    ["YF023", "何静", "西山店", "店长", "药师", "2021-01-15", "是", "全职"],
    ["YF024", "吕斌", "高新店", "店长", "药师", "2020-10-10", "是", "全职"],
    ["YF025", "施雨", "高新店", "营业员", "药士", "2024-01-02", "否", "全职"],
    ["YF026", "张玉兰", "高新园区店", "店长", "药士", "2023-03-03", "否", "全职"],
    ["YF027", "孔明亮", "高新园区店", "执业药师", "药师", "2023-03-03", "是", "兼职"],
    ["YF028", "曹文", "海港店", "店长", "主管药师", "2010-04-12", "是", "全职"],
    ["YF029", "严冬", "海港店", "执业药师", "药师", "2022-07-01", "是", "全职"],
    ["YF030", "华丽", "海港店", "营业员", "药士", "2022-07-01", "否", "全职"],
    ["YF031", "金鑫", "西山新城店", "店长", "药师", "2024-12-18", "是", "全职"],
    ["YF032", "魏晓", "西山新城店", "营业员", "无", "2025-11-03", "否", "兼职"],
]


# ----------------------------------------------------------------------------------------------
# Brightwell International School (brightwell-school), Kessington
# ----------------------------------------------------------------------------------------------

BW = HERE / "brightwell-school"

BW_FEES_HTML = """
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Brightwell International School - Fee Schedule 2026-27</title>
</head>
<body>
<h1>Brightwell International School &mdash; Fee Schedule 2026&ndash;27</h1>
<p>Fee schedule BIS-FIN-2026 &middot; Approved by the Board of Governors on 12 March 2026 &middot; Applies to the
school year starting 1 September 2026 &middot; Issued by the Bursar</p>
<p>Brightwell International School, 14 Linnet Lane, Kessington. All fees are in pounds sterling (GBP) per pupil.
The school year has three terms: Autumn (September&ndash;December), Spring (January&ndash;March) and Summer
(April&ndash;July). A pupil's year group is the year group they join in September 2026.</p>

<h2>1. Tuition fees</h2>
<table border="1">
<thead>
<tr><th>Year group</th><th>Autumn term</th><th>Spring term</th><th>Summer term</th><th>Full year</th></tr>
</thead>
<tbody>
<tr><td>Nursery (age 3&ndash;4)</td><td>&pound;3,150</td><td>&pound;3,150</td><td>&pound;2,700</td><td>&pound;9,000</td></tr>
<tr><td>Reception</td><td>&pound;3,900</td><td>&pound;3,900</td><td>&pound;3,300</td><td>&pound;11,100</td></tr>
<tr><td>Years 1&ndash;2</td><td>&pound;4,450</td><td>&pound;4,450</td><td>&pound;3,800</td><td>&pound;12,700</td></tr>
<tr><td>Years 3&ndash;6</td><td>&pound;4,980</td><td>&pound;4,980</td><td>&pound;4,240</td><td>&pound;14,200</td></tr>
<tr><td>Years 7&ndash;9</td><td>&pound;5,760</td><td>&pound;5,760</td><td>&pound;4,880</td><td>&pound;16,400</td></tr>
<tr><td>Years 10&ndash;11</td><td>&pound;6,300</td><td>&pound;6,300</td><td>&pound;5,400</td><td>&pound;18,000</td></tr>
<tr><td>Years 12&ndash;13</td><td>&pound;6,650</td><td>&pound;6,650</td><td>&pound;5,700</td><td>&pound;19,000</td></tr>
</tbody>
</table>
<p>Tuition includes textbooks, stationery and the day trips that are part of the curriculum. It does not include
lunches, the school bus, residential trips, instrumental lessons or public exam entry fees (IGCSE and A level
entries are invoiced at cost in the Spring term).</p>

<h2>2. Discounts</h2>
<ul>
<li>Siblings: the second child of a family at the school receives 5% off tuition, and the third and each further
child 10% off tuition. The eldest child pays the full fee. Sibling discounts apply to tuition only, not to lunches,
clubs or the bus, and do not apply to Nursery fees.</li>
<li>Paying the whole year in advance: families who pay the full-year tuition by 15 August 2026 receive a further
3% off. This can be combined with the sibling discount; the 3% is taken off after the sibling discount.</li>
<li>Children of staff: 50% off tuition, once the member of staff has completed one year of employment. The staff
discount cannot be combined with the sibling discount.</li>
</ul>

<h2>3. School bus (per pupil, per term)</h2>
<table border="1">
<thead>
<tr><th>Zone</th><th>Area</th><th>Return (morning and afternoon)</th><th>One way</th></tr>
</thead>
<tbody>
<tr><td>Zone A</td><td>Kessington town, up to 5 km from school</td><td>&pound;320</td><td>&pound;190</td></tr>
<tr><td>Zone B</td><td>Morrow Hill and Eastholme, 5&ndash;12 km</td><td>&pound;450</td><td>&pound;270</td></tr>
<tr><td>Zone C</td><td>Fallowmere and Pike's Cross, 12&ndash;20 km</td><td>&pound;590</td><td>&pound;350</td></tr>
</tbody>
</table>
<p>Bus fees are the same in all three terms. A family's third and any further child on the bus travel free; there
is no reduction for the second child. The late bus leaves at 17:15 after clubs, Monday to Thursday, and runs to
Zones A and B only; it costs &pound;4 per journey and is booked through the school office by 12:00 on the day.</p>

<h2>4. Other fees</h2>
<table border="1">
<thead>
<tr><th>Item</th><th>Fee</th><th>Notes</th></tr>
</thead>
<tbody>
<tr><td>Application fee</td><td>&pound;150</td><td>Paid with the application; not refundable</td></tr>
<tr><td>Acceptance deposit</td><td>&pound;1,500</td><td>Returned after the pupil leaves, less any unpaid fees</td></tr>
<tr><td>Lunch (Reception to Year 13)</td><td>&pound;420 per term</td><td>Nursery lunch is included in the Nursery fee</td></tr>
<tr><td>EAL support (English as an additional language)</td><td>&pound;650 per term</td><td>Years 1&ndash;11; free in Reception</td></tr>
<tr><td>Instrumental lessons</td><td>&pound;260 per term</td><td>Ten 30-minute individual lessons</td></tr>
</tbody>
</table>

<h2>5. Payment and withdrawal</h2>
<p>Termly invoices are due 14 days before the first day of term. A late payment charge of &pound;50 is added to
invoices unpaid 30 days after the due date. To withdraw a pupil, parents must give one full term's notice in
writing to the Principal; otherwise one term's fees are payable in lieu of notice.</p>

<footer>Brightwell International School &middot; Bursary office: fees@brightwell.example &middot; 01632 960 771</footer>
</body>
</html>
"""

BW_UNIFORM_MD = """
# Uniform and After-School Clubs Policy

Policy BIS-PUP-07 · Version 3 · Reviewed by the Deputy Head (Pastoral) on 20 January 2026 · Next review January 2027

## 1. Uniform

1.1 Pupils from Reception to Year 11 wear the school uniform below. Nursery children wear their own comfortable
clothes. Sixth Form students (Years 12 and 13) follow the Sixth Form dress code: smart business dress, no jeans
and no trainers.

1.2 Uniform by section:

| Item | Reception to Year 6 | Years 7 to 11 |
|---|---|---|
| Blazer | Not worn | Navy blazer with the school crest |
| Shirt | White polo shirt | White shirt with a collar |
| Tie | None | House tie (Years 7 to 9); Senior tie (Years 10 and 11) |
| Trousers, skirt or pinafore | Grey | Charcoal |
| Jumper | Navy V-neck (optional) | Navy V-neck (optional) |
| Shoes | Plain black shoes | Plain black leather shoes |
| PE kit | Navy shorts and house T-shirt | Navy shorts, house T-shirt and navy track top |

1.3 From 1 May to the end of the Summer term, blazers and ties are optional for Years 7 to 11; pupils who leave
them off wear the white shirt with the top button open.

1.4 Jewellery: one pair of plain stud earrings and a simple watch are allowed. No other jewellery is worn.
Smart watches and fitness trackers are not allowed in school.

1.5 Pupils in Reception to Year 6 come to school in their PE kit on their class's PE day.

1.6 The Parents' Association runs a second-hand uniform shop every Friday from 15:00 to 16:00 in the
Atrium; every item costs £3.

## 2. After-school clubs

2.1 Clubs run from Monday to Thursday, 15:45 to 16:45, in the Autumn and Spring terms and the first half of the
Summer term. There are no clubs in the last two weeks of each term.

2.2 Clubs offered this year:

| Club | Day | Year groups | Cost per term | Room |
|---|---|---|---|---|
| Junior Chess | Monday | Years 2 to 6 | Free | Library |
| Robotics | Monday | Years 5 to 8 | £85 | Lab S3 |
| Swimming Squad | Tuesday | Years 3 to 9 | £110 | Pool |
| Mandarin | Tuesday | Years 1 to 6 | £60 | Room P7 |
| Drama | Wednesday | Years 7 to 11 | £45 | Studio |
| Football | Wednesday | Years 3 to 8 | £40 | Field |
| Coding Club | Thursday | Years 9 to 12 | Free | Lab S1 |
| Art Studio | Thursday | Years 1 to 4 | £55 (materials included) | Room P4 |

A club runs only if at least 6 pupils sign up. A pupil may join at most 3 paid clubs in a term. Club fees are added
to the termly invoice; the sibling discount does not apply to clubs. Pupils who hold a bursary attend clubs free of
charge.

## 3. Collection after clubs

3.1 Pupils must be collected from the club room at 16:45. Children not collected by 17:00 are taken to the
supervised Late Room, and a late collection charge of £12 is added for each started 15 minutes after 17:00.

3.2 Pupils in Year 7 and above may walk home or take the late bus after clubs if their parents have given written
permission to the school office. Pupils in Year 6 and below must always be collected by an adult named on the
collection form.
"""


def _leave_blocks(version: str) -> list:
    if version == "2024":
        head = "Document BIS-HR-03 · Version 2024 · Effective 1 January 2024 · Owner: HR Manager and Bursar"
        leave_rows = [
            ["Less than 2 years", "25 days"],
            ["2 to 4 years", "27 days"],
            ["5 to 9 years", "28 days"],
            ["10 years or more", "30 days"],
        ]
        comp = "3 days"
        cover_pay = ("Cover beyond the maximum is recorded by the cover manager and paid at £22 per lesson with the "
                     "next month's salary.")
        closing = "This policy is issued by the HR Manager and the Bursar and applies from 1 January 2024."
    else:
        head = "Document BIS-HR-03 · Version 2026 · Effective 1 January 2026 · Owner: HR Manager and Bursar"
        leave_rows = [
            ["Less than 2 years", "25 days"],
            ["2 to 4 years", "27 days"],
            ["5 to 9 years", "29 days"],
            ["10 years or more", "31 days"],
        ]
        comp = "5 days"
        cover_pay = ("Cover beyond the maximum is recorded by the cover manager and paid at £25 per lesson with the "
                     "next month's salary.")
        closing = ("This policy is issued by the HR Manager and the Bursar. It applies from 1 January 2026 and "
                   "replaces the Staff Leave and Cover Policy (2024).")
    return [
        ("p", head),
        ("h", "1. Scope"),
        ("p", "This policy applies to all staff employed by Brightwell International School. Agency supply "
              "teachers and visiting instrumental teachers are covered by their own agreements."),
        ("h", "2. Annual leave"),
        ("p", "2.1 Teaching staff take their holidays during the school holidays and are not granted annual leave "
              "in term time."),
        ("p", "2.2 Support staff on full-year contracts receive annual leave, in addition to bank holidays, "
              "according to their completed years of service at the school on 1 September, the start of the "
              "leave year:"),
        ("t", ["Completed years of service on 1 September", "Annual leave (excluding bank holidays)"], leave_rows),
        ("p", "2.3 Part-time support staff receive leave in proportion to their FTE. Up to 5 days may be carried "
              "over to the next leave year with the Bursar's approval. Support staff may not take annual leave "
              "in the first week of the Autumn term."),
        ("h", "3. Term-time leave for all staff"),
        ("t", ["Reason", "Leave", "Approved by"], [
            ["Death of a close family member (compassionate leave)", comp + ", paid", "Principal"],
            ["Own wedding or civil partnership", "3 days, paid", "Principal"],
            ["Wedding of a child or sibling", "1 day, unpaid", "Principal"],
            ["Child's first day at school or graduation", "Half a day, paid", "Line manager"],
            ["Medical or dental appointment", "Up to half a day, paid", "Line manager"],
            ["Moving house", "1 day, unpaid", "Line manager"],
        ]),
        ("p", "Requests must be made at least 10 school days in advance, except in an emergency. Term-time leave "
              "for holidays is not granted."),
        ("h", "4. Cover for absent teachers"),
        ("p", "4.1 Lessons of an absent teacher are covered first by the cover supervisors and then by teachers "
              "in their non-contact periods. The number of cover lessons a teacher may be asked to take is "
              "limited:"),
        ("t", ["Teacher's contract", "Maximum cover lessons per term"], [
            ["Full-time (1.0 FTE)", "6"],
            ["Part-time, 0.6 FTE or more", "3"],
            ["Part-time, under 0.6 FTE", "0"],
        ]),
        ("p", "4.2 Teachers in their first year at the school and the Designated Safeguarding Lead are not asked "
              "to cover. " + cover_pay),
        ("h", "5. Sickness absence"),
        ("p", "Staff who are ill report to the cover manager by 07:00 on the first day. Staff may self-certify "
              "for up to 7 calendar days; a fit note from a doctor is needed after that."),
        ("h", "6. Effective date"),
        ("p", closing),
    ]


BW_TRIPS = [
    ("p", "Document BIS-SAF-02 · Version 2025 · Effective 1 September 2025 · Owner: Designated Safeguarding Lead"),
    ("h", "1. Approval of visits"),
    ("p", "Day visits in the UK are approved by the Head of Primary or the Head of Secondary at least 3 weeks "
          "before the visit. Residential visits and visits abroad are approved by the Principal and the "
          "Governors' Safeguarding Committee at least 12 weeks before departure."),
    ("h", "2. Staff to pupil ratios"),
    ("p", "The minimum number of adults on a visit is set by the ratio for the youngest year group taking part:"),
    ("t", ["Year group", "Day visit", "Residential or abroad", "Water activities"], [
        ["Nursery and Reception", "1:4", "Not offered", "Not offered"],
        ["Years 1 to 3", "1:6", "1:6", "1:4"],
        ["Years 4 to 6", "1:8", "1:8", "1:6"],
        ["Years 7 to 9", "1:10", "1:8", "1:6"],
        ["Years 10 to 13", "1:12", "1:10", "1:8"],
    ]),
    ("p", "Every visit has at least two adults, whatever the size of the group, and at least one of them is a "
          "qualified first aider. Residential visits with boys and girls take at least one male and one female "
          "member of staff. A teaching assistant supporting one pupil one-to-one does not count towards the "
          "ratio. Parent volunteers with an enhanced DBS check may count towards the ratio on day visits only, "
          "never on residential visits or visits abroad."),
    ("h", "3. Consent and payment"),
    ("p", "Parents give consent in the school app at least 10 school days before a day visit. Residential visits "
          "need a deposit of £100, which is not refundable once the booking with the provider is confirmed."),
    ("h", "4. Safeguarding on visits"),
    ("p", "Staff do not travel alone in a vehicle with a single pupil except in an emergency, and report any "
          "such journey to the Designated Safeguarding Lead the same day. Photographs of pupils are taken only on "
          "school devices. Staff do not give pupils their personal telephone numbers or add pupils on social "
          "media."),
    ("p", "Any safeguarding concern that arises on a visit is reported to the Designated Safeguarding Lead, "
          "David Okonkwo, the same day, or to the Deputy DSL, Priya Raman, when he is not available."),
    ("h", "5. School minibus"),
    ("p", "Only staff listed as minibus drivers in the staff list may drive the school minibus. Drivers are at "
          "least 25 years old, have held a full driving licence for at least 3 years and have passed the "
          "school's minibus driver assessment. The minibus carries at most 15 pupils plus the driver, and a "
          "second adult travels on every journey with pupils in Year 6 or below."),
]

# staff_id, name, role, department, category, fte, start_date, first_aider, minibus_driver
BW_STAFF = [
    ["BW01", "Helen Marchetti", "Principal", "Leadership", "Teaching", "1.0", "2009-08-24", "No", "No"],
    ["BW02", "David Okonkwo", "Deputy Head (Pastoral) and DSL", "Leadership", "Teaching", "1.0", "2012-09-01", "Yes", "No"],
    ["BW03", "Priya Raman", "Head of Primary and Deputy DSL", "Primary", "Teaching", "1.0", "2014-08-27", "Yes", "No"],
    ["BW04", "Thomas Kerr", "Head of Secondary", "Secondary", "Teaching", "1.0", "2011-01-04", "No", "Yes"],
    ["BW05", "Amelia Ward", "Nursery Teacher", "Early Years", "Teaching", "1.0", "2019-08-26", "Yes", "No"],
    ["BW06", "Lucy Fenwick", "Reception Teacher", "Early Years", "Teaching", "1.0", "2017-08-28", "Yes", "No"],
    ["BW07", "Grace Liu", "Reception Teacher", "Early Years", "Teaching", "0.6", "2022-01-05", "No", "No"],
    ["BW08", "Samuel Adjei", "Class Teacher", "Primary", "Teaching", "1.0", "2016-08-29", "No", "Yes"],
    ["BW09", "Isabel Moreno", "Class Teacher", "Primary", "Teaching", "1.0", "2020-08-24", "Yes", "No"],
    ["BW10", "Oliver Pratt", "Class Teacher", "Primary", "Teaching", "1.0", "2013-08-27", "No", "No"],
    ["BW11", "Hannah Brooks", "Class Teacher", "Primary", "Teaching", "0.8", "2018-08-27", "Yes", "No"],
    ["BW12", "Kenji Watanabe", "Class Teacher", "Primary", "Teaching", "1.0", "2023-08-28", "No", "Yes"],
    ["BW13", "Rosa Delgado", "Class Teacher", "Primary", "Teaching", "1.0", "2021-08-23", "No", "No"],
    ["BW14", "Tom Ashdown", "Class Teacher", "Primary", "Teaching", "1.0", "2012-08-28", "No", "No"],
    ["BW15", "Nicola Hart", "Class Teacher", "Primary", "Teaching", "1.0", "2024-08-26", "Yes", "No"],
    ["BW16", "Matthew Hale", "Mathematics Teacher", "Mathematics", "Teaching", "1.0", "2015-08-24", "No", "Yes"],
    ["BW17", "Fatima Noor", "Mathematics Teacher", "Mathematics", "Teaching", "0.5", "2024-08-26", "No", "No"],
    ["BW18", "Chloe Barrett", "English Teacher", "English", "Teaching", "1.0", "2018-01-08", "Yes", "No"],
    ["BW19", "Ian McLeod", "Science Teacher", "Science", "Teaching", "1.0", "2010-08-23", "Yes", "Yes"],
    ["BW20", "Nadia Petrova", "Science Teacher", "Science", "Teaching", "1.0", "2022-08-22", "No", "No"],
    ["BW21", "Wei Zhang", "Mandarin Teacher", "Languages", "Teaching", "0.8", "2019-01-07", "No", "No"],
    ["BW22", "Claire Dubois", "French Teacher", "Languages", "Teaching", "1.0", "2016-08-29", "No", "No"],
    ["BW23", "Jack Whitfield", "PE Teacher", "PE", "Teaching", "1.0", "2020-08-24", "Yes", "Yes"],
    ["BW24", "Sara Lindgren", "Art Teacher", "Arts", "Teaching", "1.0", "2017-08-28", "No", "No"],
    ["BW25", "Ben Osei", "Computing Teacher", "Computing", "Teaching", "1.0", "2025-08-25", "No", "No"],
    ["BW26", "Emma Castle", "Cover Supervisor", "Secondary", "Support", "1.0", "2021-09-06", "Yes", "No"],
    ["BW27", "Rob Delaney", "Cover Supervisor", "Secondary", "Support", "1.0", "2023-01-09", "No", "Yes"],
    ["BW28", "Julia Fairbanks", "Teaching Assistant", "Primary", "Support", "0.8", "2015-09-07", "Yes", "No"],
    ["BW29", "Mohammed Rahim", "Teaching Assistant", "Early Years", "Support", "1.0", "2019-09-02", "No", "No"],
    ["BW30", "Karen Holt", "Bursar", "Finance", "Support", "1.0", "2008-04-14", "No", "No"],
    ["BW31", "Pete Grayson", "Site Manager", "Facilities", "Support", "1.0", "2014-03-03", "Yes", "Yes"],
    ["BW32", "Aisha Karim", "School Nurse", "Medical", "Support", "0.6", "2018-09-03", "Yes", "No"],
    ["BW33", "Laura Pennington", "Office Manager", "Administration", "Support", "1.0", "2011-05-16", "No", "No"],
]

# class, year_group, section, form_tutor, room, pupils
BW_CLASSES = [
    ["N1", "Nursery", "Early Years", "Amelia Ward", "EY1", 16],
    ["RA", "Reception", "Early Years", "Lucy Fenwick", "EY2", 18],
    ["RB", "Reception", "Early Years", "Grace Liu", "EY3", 17],
    ["1A", "Year 1", "Primary", "Isabel Moreno", "P1", 20],
    ["2A", "Year 2", "Primary", "Oliver Pratt", "P2", 21],
    ["3A", "Year 3", "Primary", "Samuel Adjei", "P3", 22],
    ["3B", "Year 3", "Primary", "Hannah Brooks", "P4", 20],
    ["4A", "Year 4", "Primary", "Rosa Delgado", "P5", 23],
    ["5A", "Year 5", "Primary", "Kenji Watanabe", "P6", 22],
    ["5B", "Year 5", "Primary", "Tom Ashdown", "P7", 21],
    ["6A", "Year 6", "Primary", "Nicola Hart", "P8", 24],
    ["7A", "Year 7", "Secondary", "Chloe Barrett", "S11", 24],
    ["7B", "Year 7", "Secondary", "Nadia Petrova", "S12", 23],
    ["8A", "Year 8", "Secondary", "Matthew Hale", "S13", 25],
    ["8B", "Year 8", "Secondary", "Claire Dubois", "S14", 24],
    ["9A", "Year 9", "Secondary", "Jack Whitfield", "S21", 26],
    ["10A", "Year 10", "Secondary", "Sara Lindgren", "S22", 18],
    ["10B", "Year 10", "Secondary", "Ian McLeod", "S23", 17],
    ["11A", "Year 11", "Secondary", "Wei Zhang", "S24", 22],
    ["12A", "Year 12", "Sixth Form", "Ben Osei", "SF1", 12],
    ["13A", "Year 13", "Sixth Form", "Thomas Kerr", "SF2", 11],
]


def build() -> None:
    YF.mkdir(parents=True, exist_ok=True)
    BW.mkdir(parents=True, exist_ok=True)

    write_text(YF / "会员权益与服务收费标准（2026年）.html", YF_FEES_HTML)
    write_text(YF / "员工考勤与请假制度.md", YF_LEAVE_MD)
    write_docx(YF / "药品退换货规定.docx", "云帆大药房 药品退换货规定", YF_RETURNS)
    write_pdf(YF / "门店夜班与补贴标准（2024版）.pdf", "云帆大药房 门店夜班与补贴标准（2024版）", _night_blocks("2024"))
    write_pdf(YF / "门店夜班与补贴标准（2026版）.pdf", "云帆大药房 门店夜班与补贴标准（2026版）", _night_blocks("2026"))
    write_csv(YF / "门店员工名册.csv",
              ["工号", "姓名", "门店", "岗位", "职称/等级", "入职日期", "是否执业药师", "用工性质"], YF_STAFF)
    write_csv(YF / "门店列表.csv",
              ["门店编号", "门店", "区", "地址", "营业时间", "是否24小时", "面积(㎡)", "医保定点", "开业日期"], YF_STORES)

    write_text(BW / "Fees_2026-27.html", BW_FEES_HTML)
    write_text(BW / "Uniform_and_Clubs_Policy.md", BW_UNIFORM_MD)
    write_docx(BW / "Staff_Leave_and_Cover_Policy_2024.docx",
               "Brightwell International School — Staff Leave and Cover Policy (2024)", _leave_blocks("2024"))
    write_docx(BW / "Staff_Leave_and_Cover_Policy_2026.docx",
               "Brightwell International School — Staff Leave and Cover Policy (2026)", _leave_blocks("2026"))
    write_pdf(BW / "Trips_and_Safeguarding.pdf",
              "Brightwell International School — Educational Visits and Safeguarding Rules", BW_TRIPS)
    write_csv(BW / "staff_list.csv",
              ["staff_id", "name", "role", "department", "category", "fte", "start_date", "first_aider",
               "minibus_driver"], BW_STAFF)
    write_csv(BW / "class_list.csv", ["class", "year_group", "section", "form_tutor", "room", "pupils"], BW_CLASSES)


if __name__ == "__main__":
    build()
