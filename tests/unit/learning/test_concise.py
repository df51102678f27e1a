"""The offline shorter wording (issue 28, "说得简洁一点" / "say this more simply"): only what the concise table
allows goes, every number, negation and condition stays, and the comment words that ask for it are understood."""

from __future__ import annotations

import pytest

from knowzero.learning.concise import keeps_what_matters, shorter_wording
from knowzero.learning.optimize import classify_request


@pytest.mark.parametrize(("text", "short"), [
    # a purpose tacked on to a clause, a bracketed example, a wordy word
    ("同一事项不得拆分为多笔申请以规避审批权限，一经发现，按违规处理。", "同一事项不得拆分为多笔申请，一经发现，按违规处理。"),
    ("车辆在途紧急维修（如爆胎、故障抛锚）可先行处理，驾驶员须在返回后3个工作日内补办审批手续。",
     "车辆在途紧急维修可先处理，驾驶员须在返回后3个工作日内补办审批手续。"),
    ("冷藏车须提前预冷至货主要求的温度后方可装货。", "冷藏车须预冷至货主要求的温度后方可装货。"),
    # a parallel clause's repeated phrase, before its number and after it
    ("校外用户按校内机时费的2倍收费，企业用户按校内机时费的3倍收费。", "校外用户按校内机时费的2倍收费，企业用户按3倍收费。"),
    ("Staff are paid 1.5 times their regular rate for hours worked over 40, and 2 times their regular rate for hours "
     "worked on a holiday.", "Staff are paid 1.5 times their regular rate for hours worked over 40, and 2 times on a holiday."),
    # English plain words; clause joins keep their spaces
    ("An employee who is called in is paid prior to the end of the month; in order to claim, file a form.",
     "An employee called in is paid before the end of the month; to claim, file a form."),
    # a light verb goes only before a verb that ends its clause
    ("报销单由财务处进行审核。", "报销单由财务处审核。"),
])
def test_a_shorter_wording_leaves_out_only_what_says_nothing(text: str, short: str) -> None:
    assert shorter_wording(text) == short
    assert keeps_what_matters(text, short)


@pytest.mark.parametrize("text", [
    "本科生不得进行夜间实验。",  # 进行 before an object stays
    "The stipend is paid for being available, whether or not the employee is called in.",  # "or not" is a negation
    "住宿费凭发票在上限内据实报销；伙食补助和市内交通定额发放。",  # nothing the table names: unchanged, said so
    "禁止使用个人网盘存储公司数据。",
])
def test_a_sentence_with_nothing_to_leave_out_is_kept(text: str) -> None:
    assert shorter_wording(text) == text


def test_a_shortening_that_drops_a_condition_or_a_negation_is_refused() -> None:
    assert not keeps_what_matters("如果超过3天，必须提前申请。", "超过3天，提前申请。")
    assert not keeps_what_matters("不得超过5天", "得超过5天")
    assert not keeps_what_matters("up to 2 days", "up to 3 days")
    assert keeps_what_matters("如果超过3天，必须提前申请。", "若超过3天，须提前申请。")


@pytest.mark.parametrize("comment", ["这句能不能写短一点", "说得简单些", "能写得再精炼点吗", "太啰嗦了，压缩一下",
                                     "This is a mouthful. Can you make it more concise?", "Can you say this in fewer words?",
                                     "This reads like a mission statement - trim it down", "Too wordy, tighten this"])
def test_asking_for_fewer_words_on_a_sentence_is_a_shortening(comment: str) -> None:
    assert classify_request(comment, "客户或供应商来访需要就餐的，由接待部门申请客餐，标准为每人每餐40元。").kinds[0] == "shorten"


@pytest.mark.parametrize("comment", ["What about part-time employees?", "Are there any exceptions to this?",
                                     "夜班加餐是所有员工都能吃吗？", "70多岁的老人来办也要排队取号吗？"])
def test_who_else_a_rule_covers_is_a_scope_question(comment: str) -> None:
    assert classify_request(comment, "Full-time employees are eligible after 3 months of continuous service.").need == "scope"
