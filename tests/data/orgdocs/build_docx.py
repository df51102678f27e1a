"""Build the DOCX files of the organisational development set (tests/data/orgdocs/, CC0).

    python tests/data/orgdocs/build_docx.py

Writes each document below into its organisation's folder with python-docx (a project dependency).
The output is byte-for-byte reproducible: fixed core properties and fixed zip entry times, so a
rebuild leaves ``git status`` clean unless the text below changed. The generated files are
committed beside this script; edit the text here, never the .docx files.

Blocks: ("title", text) → Title style, ("h1"/"h2", text) → Heading 1/2, ("p", text) → a paragraph,
("table", [[header…], [row…], …]) → a table (the parser reads body tables after the paragraphs).
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path
from typing import Any

import docx

HERE = Path(__file__).resolve().parent
FIXED = dt.datetime(2025, 12, 1, 9, 0, 0)

Block = tuple[str, Any]

# ---------------------------------------------------------------------------------------------
# 瀚陆物流 (hanglu-logistics): 运输安全管理规定, the 2024 edition and the 2026 edition replacing it
# ---------------------------------------------------------------------------------------------
HL_SAFETY_2024: list[Block] = [
    ("title", "瀚陆物流有限公司 运输安全管理规定（2024版）"),
    ("p", "文件编号：HL-SAF-002　版本：2024版　生效日期：2024年1月1日　归口部门：安全管理部"),
    ("h1", "一、适用范围"),
    ("p", "本规定适用于公司全体专职驾驶员、押运员及调度人员，承运商车辆在为公司承运期间参照执行。"),
    ("h1", "二、驾驶时间"),
    ("p", "驾驶员连续驾驶不得超过4小时，每次停车休息不少于20分钟；单日累计驾驶时间不得超过10小时。"
          "调度人员不得安排驾驶员超时驾驶。"),
    ("h1", "三、车速"),
    ("p", "重型货车在高速公路上行驶速度不得超过每小时90公里，在普通公路上不得超过每小时70公里；"
          "冷藏车、厢式货车按道路限速行驶。"),
    ("h1", "四、酒驾与毒驾"),
    ("p", "对酒后驾驶、醉酒驾驶和毒驾实行零容忍，一经查实，公司立即解除劳动合同。"),
    ("h1", "五、出车检查"),
    ("p", "出车前驾驶员须检查轮胎、灯光、制动和随车灭火器，并在车载终端完成点检打卡；"
          "冷藏车须提前预冷至货主要求的温度后方可装货。"),
    ("h1", "六、安全奖励"),
    ("p", "当月无违规记录且无责任事故的驾驶员，每月发放安全奖300元；全年无责任事故的，"
          "年终评为安全标兵，奖励3000元。"),
    ("h1", "七、违规扣分"),
    ("p", "驾驶员实行年度安全积分制，每年初始积分12分，违规按下表扣分，年度累计扣满12分的停岗培训。"),
    ("table", [["违规行为", "每次扣分"], ["超速行驶", "5分"], ["疲劳驾驶", "8分"], ["未系安全带", "3分"],
               ["行驶中使用手机", "5分"]]),
]

HL_SAFETY_2026: list[Block] = [
    ("title", "瀚陆物流有限公司 运输安全管理规定（2026版）"),
    ("p", "文件编号：HL-SAF-002　版本：2026版　生效日期：2026年1月1日　归口部门：安全管理部"),
    ("p", "本规定自2026年1月1日起施行，《瀚陆物流有限公司运输安全管理规定（2024版）》同时废止。"),
    ("h1", "一、适用范围"),
    ("p", "本规定适用于公司全体专职驾驶员、押运员及调度人员，承运商车辆在为公司承运期间参照执行。"),
    ("h1", "二、驾驶时间"),
    ("p", "驾驶员连续驾驶不得超过3.5小时，每次停车休息不少于30分钟；单日累计驾驶时间不得超过9小时。"
          "调度人员不得安排驾驶员超时驾驶。"),
    ("h1", "三、车速"),
    ("p", "重型货车在高速公路上行驶速度不得超过每小时90公里，在普通公路上不得超过每小时70公里；"
          "冷藏车、厢式货车按道路限速行驶。"),
    ("h1", "四、酒驾与毒驾"),
    ("p", "对酒后驾驶、醉酒驾驶和毒驾实行零容忍，一经查实，公司立即解除劳动合同。"),
    ("h1", "五、出车检查"),
    ("p", "出车前驾驶员须检查轮胎、灯光、制动和随车灭火器，并在车载终端完成点检打卡；"
          "冷藏车须提前预冷至货主要求的温度后方可装货。"),
    ("h1", "六、主动安全报警"),
    ("p", "车辆主动安全系统（ADAS）的分心、疲劳报警，同一驾驶员一个月内超过20次的，由安全管理部约谈。"),
    ("h1", "七、安全奖励"),
    ("p", "当月无违规记录且无责任事故的驾驶员，每月发放安全奖400元；全年无责任事故的，"
          "年终评为安全标兵，奖励5000元。"),
    ("h1", "八、违规扣分"),
    ("p", "驾驶员实行年度安全积分制，每年初始积分12分，违规按下表扣分，年度累计扣满12分的停岗培训。"),
    ("table", [["违规行为", "每次扣分"], ["超速行驶", "5分"], ["疲劳驾驶", "10分"], ["未系安全带", "3分"],
               ["行驶中使用手机", "6分"]]),
]

# ---------------------------------------------------------------------------------------------
# 清源大学智能材料与器件实验室 (qingyuan-lab): 助研津贴 2024 → 2026, and the instrument booking rules
# ---------------------------------------------------------------------------------------------
QY_STIPEND_2024: list[Block] = [
    ("title", "智能材料与器件实验室 研究生助研津贴发放办法（2024版）"),
    ("p", "发布日期：2024年8月30日　生效日期：2024年9月1日　发布单位：智能材料与器件实验室"),
    ("h1", "一、发放对象"),
    ("p", "本实验室在读的全日制博士研究生和硕士研究生。在职研究生、定向委培研究生不享受助研津贴。"),
    ("h1", "二、发放标准"),
    ("p", "助研津贴由基本津贴和绩效津贴两部分组成，基本津贴按月发放，绩效津贴由导师每学期评定一次。"),
    ("table", [["类别", "基本津贴（元/月）", "绩效津贴上限（元/月）", "发放年限"],
               ["博士研究生", "3000", "1500", "第1至第4学年"],
               ["硕士研究生", "1200", "600", "第1至第3学年"]]),
    ("h1", "三、发放时间"),
    ("p", "基本津贴每月15日发放至学生校园卡绑定的银行卡，寒暑假照常发放。"),
    ("h1", "四、暂停与延期"),
    ("p", "学生当月请假超过15天的，暂停发放当月基本津贴；休学期间不发放。"),
    ("p", "超出基本学制延期毕业的学生，不再发放助研津贴；因导师课题需要延期、并经实验室主任批准的，"
          "可按基本津贴标准的50%发放，最长6个月。"),
]

QY_STIPEND_2026: list[Block] = [
    ("title", "智能材料与器件实验室 研究生助研津贴发放办法（2026版）"),
    ("p", "发布日期：2025年12月15日　生效日期：2026年1月1日　发布单位：智能材料与器件实验室"),
    ("p", "本办法自2026年1月1日起施行，《智能材料与器件实验室研究生助研津贴发放办法（2024版）》同时废止。"),
    ("h1", "一、发放对象"),
    ("p", "本实验室在读的全日制博士研究生和硕士研究生。在职研究生、定向委培研究生不享受助研津贴。"),
    ("h1", "二、发放标准"),
    ("p", "助研津贴由基本津贴和绩效津贴两部分组成，基本津贴按月发放，绩效津贴由导师每学期评定一次。"),
    ("table", [["类别", "基本津贴（元/月）", "绩效津贴上限（元/月）", "发放年限"],
               ["博士研究生", "3600", "2000", "第1至第4学年"],
               ["硕士研究生", "1500", "800", "第1至第3学年"]]),
    ("h1", "三、发放时间"),
    ("p", "基本津贴每月15日发放至学生校园卡绑定的银行卡，寒暑假照常发放。"),
    ("h1", "四、暂停与延期"),
    ("p", "学生当月请假超过15天的，暂停发放当月基本津贴；休学期间不发放。"),
    ("p", "超出基本学制延期毕业的学生，不再发放助研津贴；因导师课题需要延期、并经实验室主任批准的，"
          "可按基本津贴标准的60%发放，最长6个月。"),
]

QY_BOOKING: list[Block] = [
    ("title", "大型仪器预约与使用规定"),
    ("p", "适用范围：智能材料与器件实验室单台购置价格50万元以上的仪器　修订：2025年5月"),
    ("h1", "一、预约"),
    ("p", "大型仪器一律通过\u201c清源实验室管理平台\u201d预约，每次预约最短1小时、最长4小时，"
          "每人每周累计预约同一台仪器不超过8小时。预约开始15分钟后未上机的，视为爽约，"
          "当月累计爽约3次的，暂停该仪器预约权限2周。"),
    ("h1", "二、独立上机资格"),
    ("p", "首次使用须参加仪器负责人组织的培训，并在负责人监督下完成至少3次操作，考核通过后获得独立上机资格。"
          "透射电子显微镜和X射线光电子能谱仪须由负责人或其指定的博士后陪同操作，学生不得独立上机。"),
    ("h1", "三、收费"),
    ("p", "校内用户按《仪器设备清单》中的校内机时费收费；校外高校和科研院所按校内机时费的2倍收费，"
          "企业用户按校内机时费的3倍收费。本实验室成员使用本实验室仪器免收机时费，但须自付耗材。"),
    ("table", [["用户类别", "收费倍数"], ["校内用户", "1倍"], ["校外高校和科研院所", "2倍"], ["企业用户", "3倍"],
               ["本实验室成员", "免收机时费"]]),
    ("h1", "四、故障报告"),
    ("p", "使用中发现仪器故障，须立即停止操作并在30分钟内通知仪器负责人，不得自行拆修。"),
]

# ---------------------------------------------------------------------------------------------
# Maple Grove Veterinary Clinic (maplegrove-vet): Continuing Education Policy 2024 → 2026
# ---------------------------------------------------------------------------------------------
MG_CE_2024: list[Block] = [
    ("title", "Continuing Education Policy (2024 edition)"),
    ("p", "Maple Grove Veterinary Clinic · Document MGV-HR-09 · Effective January 1, 2024 · Owner: Practice Manager"),
    ("h1", "1. Purpose"),
    ("p", "Maple Grove supports continuing education (CE) so that our veterinarians and technicians keep "
          "their licenses and credentials current and bring new skills to patient care."),
    ("h1", "2. Eligibility"),
    ("p", "Full-time employees are eligible after 6 months of continuous service. Part-time employees scheduled "
          "at least 24 hours per week receive 50% of the full-time allowance. Relief veterinarians are not eligible."),
    ("h1", "3. Annual CE allowance"),
    ("table", [["Role", "CE allowance per calendar year", "Paid CE days per year"],
               ["DVM", "$1,200", "2 days"],
               ["Credentialed veterinary technician", "$500", "1 day"],
               ["Other staff", "$200", "0 days"]]),
    ("p", "The allowance covers registration fees, course materials and travel. Unused allowance does not carry "
          "over to the next year."),
    ("h1", "4. Reimbursement"),
    ("p", "Submit receipts and a certificate of attendance to the Practice Manager within 30 days of the course."),
    ("h1", "5. Repayment"),
    ("p", "An employee who resigns within 6 months after a CE reimbursement repays 100% of it; within 6 to 12 "
          "months, 50%. No repayment is due if the clinic ends the employment without cause."),
]

MG_CE_2026: list[Block] = [
    ("title", "Continuing Education Policy (2026 edition)"),
    ("p", "Maple Grove Veterinary Clinic · Document MGV-HR-09 · Effective January 1, 2026 · Owner: Practice Manager"),
    ("p", "This policy takes effect on January 1, 2026 and supersedes the Continuing Education Policy "
          "(2024 edition), which is withdrawn on that date."),
    ("h1", "1. Purpose"),
    ("p", "Maple Grove supports continuing education (CE) so that our veterinarians and technicians keep "
          "their licenses and credentials current and bring new skills to patient care."),
    ("h1", "2. Eligibility"),
    ("p", "Full-time employees are eligible after 3 months of continuous service. Part-time employees scheduled "
          "at least 24 hours per week receive 50% of the full-time allowance. Relief veterinarians are not eligible."),
    ("h1", "3. Annual CE allowance"),
    ("table", [["Role", "CE allowance per calendar year", "Paid CE days per year"],
               ["DVM", "$1,500", "3 days"],
               ["Credentialed veterinary technician", "$650", "2 days"],
               ["Other staff", "$250", "0 days"]]),
    ("p", "The allowance covers registration fees, course materials and travel. Unused allowance does not carry "
          "over to the next year."),
    ("h1", "4. Reimbursement"),
    ("p", "Submit receipts and a certificate of attendance to the Practice Manager within 45 days of the course."),
    ("h1", "5. Repayment"),
    ("p", "An employee who resigns within 6 months after a CE reimbursement repays 100% of it; within 6 to 12 "
          "months, 50%. No repayment is due if the clinic ends the employment without cause."),
]

# ---------------------------------------------------------------------------------------------
# 城东街道便民服务中心 (chengdong-service): 考勤与休假管理办法 2024 → 2026 (annual leave unchanged)
# ---------------------------------------------------------------------------------------------
_CD_LEAVE_TABLE: Block = ("table", [["工作年限", "年休假天数"], ["满1年不满5年", "7天"], ["满5年不满15年", "10天"],
                                    ["满15年及以上", "14天"]])

CD_ATTENDANCE_2024: list[Block] = [
    ("title", "城东街道便民服务中心工作人员考勤与休假管理办法（2024版）"),
    ("p", "发布日期：2024年2月20日　生效日期：2024年3月1日　制定：城东街道办事处"),
    ("h1", "一、作息与考勤"),
    ("p", "工作人员上午8:30至12:00、下午13:30至17:30上班（5月至9月下午为14:00至18:00），"
          "实行人脸识别考勤。上班时间后到岗超过15分钟的记迟到一次，月累计迟到3次的按旷工半天处理。"),
    ("h1", "二、年休假"),
    ("p", "工作人员累计工作满1年的，按以下标准享受年休假。编外聘用人员在本中心连续工作满1年后方可享受。"),
    ("h1", "三、病假"),
    ("p", "工作人员每年享有带薪病假5天；超过5天的，按有关规定核减绩效工资。"),
    ("h1", "四、值班与补贴"),
    ("p", "中心实行工作日夜间和节假日值班制度。工作日夜间值班补贴每次80元；双休日和法定节假日白天值班，"
          "补贴每天150元。已安排调休的，不再发放值班补贴。"),
    ("h1", "五、加班调休"),
    ("p", "因工作需要加班的，原则上安排调休，调休须在加班之日起3个月内安排完毕，逾期不再安排。"),
    ("h1", "六、请假审批"),
    ("p", "请假2天以内由科室负责人审批；2天以上至5天由中心主任审批；5天以上报街道分管领导审批。"),
    _CD_LEAVE_TABLE,
]

CD_ATTENDANCE_2026: list[Block] = [
    ("title", "城东街道便民服务中心工作人员考勤与休假管理办法（2026版）"),
    ("p", "发布日期：2025年12月10日　生效日期：2026年1月1日　制定：城东街道办事处"),
    ("p", "本办法自2026年1月1日起施行，《城东街道便民服务中心工作人员考勤与休假管理办法（2024版）》同时废止。"),
    ("h1", "一、作息与考勤"),
    ("p", "工作人员上午8:30至12:00、下午13:30至17:30上班（5月至9月下午为14:00至18:00），"
          "实行人脸识别考勤。上班时间后到岗超过15分钟的记迟到一次，月累计迟到3次的按旷工半天处理。"),
    ("h1", "二、年休假"),
    ("p", "工作人员累计工作满1年的，按以下标准享受年休假。编外聘用人员在本中心连续工作满1年后方可享受。"),
    ("h1", "三、病假"),
    ("p", "工作人员每年享有带薪病假5天；超过5天的，按有关规定核减绩效工资。"),
    ("h1", "四、值班与补贴"),
    ("p", "中心实行工作日夜间和节假日值班制度。工作日夜间值班补贴每次100元；双休日和法定节假日白天值班，"
          "补贴每天200元。已安排调休的，不再发放值班补贴。"),
    ("h1", "五、加班调休"),
    ("p", "因工作需要加班的，原则上安排调休，调休须在加班之日起6个月内安排完毕，逾期不再安排。"),
    ("h1", "六、请假审批"),
    ("p", "请假2天以内由科室负责人审批；2天以上至5天由中心主任审批；5天以上报街道分管领导审批。"),
    _CD_LEAVE_TABLE,
]

DOCUMENTS: dict[str, list[Block]] = {
    "hanglu-logistics/运输安全管理规定（2024版）.docx": HL_SAFETY_2024,
    "hanglu-logistics/运输安全管理规定（2026版）.docx": HL_SAFETY_2026,
    "qingyuan-lab/研究生助研津贴发放办法（2024版）.docx": QY_STIPEND_2024,
    "qingyuan-lab/研究生助研津贴发放办法（2026版）.docx": QY_STIPEND_2026,
    "qingyuan-lab/大型仪器预约与使用规定.docx": QY_BOOKING,
    "maplegrove-vet/Continuing_Education_Policy_2024.docx": MG_CE_2024,
    "maplegrove-vet/Continuing_Education_Policy_2026.docx": MG_CE_2026,
    "chengdong-service/工作人员考勤与休假管理办法（2024版）.docx": CD_ATTENDANCE_2024,
    "chengdong-service/工作人员考勤与休假管理办法（2026版）.docx": CD_ATTENDANCE_2026,
}


def render(blocks: list[Block]) -> bytes:
    """One document's .docx bytes (python-docx), with fixed metadata."""
    d = docx.Document()
    props = d.core_properties
    props.author = props.last_modified_by = "KnowZero orgdocs (fictional)"
    props.created = props.modified = props.last_printed = FIXED
    props.revision = 1
    for kind, value in blocks:
        if kind == "title":
            d.add_heading(value, level=0)
            props.title = value
        elif kind in ("h1", "h2"):
            d.add_heading(value, level=int(kind[1]))
        elif kind == "p":
            d.add_paragraph(value)
        elif kind == "table":
            table = d.add_table(rows=len(value), cols=len(value[0]))
            table.style = "Table Grid"
            for r, row in enumerate(value):
                for c, cell in enumerate(row):
                    table.cell(r, c).text = cell
        else:
            raise ValueError(f"unknown block {kind!r}")
    buf = io.BytesIO()
    d.save(buf)
    return _fixed_zip(buf.getvalue())


def _fixed_zip(data: bytes) -> bytes:
    """The same zip with every entry's time fixed (python-docx stamps the time of saving)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED.timetuple()[:6])
            fixed.compress_type = zipfile.ZIP_DEFLATED
            fixed.external_attr = 0o644 << 16
            dst.writestr(fixed, src.read(info.filename))
    return out.getvalue()


def main() -> None:
    for rel, blocks in DOCUMENTS.items():
        path = HERE / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(render(blocks))
        print(f"wrote {path.relative_to(HERE)}")


if __name__ == "__main__":
    main()
