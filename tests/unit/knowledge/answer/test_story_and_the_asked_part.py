"""Found on the fifth blind set's documents (session 35): a question that tells a story before it asks
("朋友开车来找我，没在App上登记，在小区里临停了一个半小时，要交多少钱？") is answered from the clause that asks — the
story's words no document uses are no part of what a table must hold — and a duration is compared as one
measure, minutes and hours alike ("一个半小时", "90分钟" against "超过30分钟，不超过2小时")."""

from __future__ import annotations

import pytest

from kz_testlib import answer_dict, make_kb

PARKING = """# 停车场管理办法

## 第三章 临时停车

第七条　临时停车收费标准如下：

| 停放时长 | 收费标准 |
|---|---|
| 30分钟以内（含30分钟） | 免费 |
| 超过30分钟，不超过2小时 | 5元 |
| 超过2小时的部分 | 每小时2元，不足1小时按1小时计 |
| 24小时内累计收费上限 | 25元 |

第八条　业主通过App提前登记的访客车辆，停放2小时以内免费。
"""
REPAIRS = """# 报修与维修服务规范

## 三、收费原则

业主户内的维修属于有偿服务，人工费按下表收取，所用材料按实际价格另行收取：

| 户内维修项目 | 人工费（元/次） |
|---|---|
| 更换水龙头 | 30 |
| 疏通下水道（户内） | 80 |
| 马桶维修 | 50 |
| 更换门锁（不含锁具） | 60 |

## 五、回访

维修完成后，客服中心在48小时内电话回访。
"""


HOTELS = """# 差旅费管理办法

## 住宿标准

员工出差的住宿费按下表标准凭发票实报实销，单位：元/人·晚。

| 城市类别 | P5–P6 | P7–P8 |
|---|---|---|
| 一类城市（北京、上海、广州、深圳） | 480 | 620 |
| 二类城市（其他省会城市） | 380 | 480 |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("story") / "kz", {"estate/停车场管理办法.md": PARKING,
                                                               "estate/报修与维修服务规范.md": REPAIRS,
                                                               "hr/差旅费管理办法.md": HOTELS})


@pytest.mark.parametrize(("question", "lead", "level"), [
    ("临时停车一个半小时要交多少钱？", "5元", "confirmed"),
    ("临时停车90分钟收费多少？", "5元", "confirmed"),
    ("临时停车20分钟收费多少？", "免费", "confirmed"),  # a band of minutes; a fee of nothing answers "多少"
    # the story's words no document uses are not what the table must hold, and may be a condition the answer
    # does not meet: answered, never confirmed unread
    ("朋友开车来找我，没在App上登记，在小区里临停了一个半小时，要交多少钱？", "5元", "uncertain"),
    ("家里下水道堵死了，叫物业师傅来通一下，人工费多少钱？", "80元", "uncertain"),
])
async def test_the_asked_part_and_its_band_answer(kb, question: str, lead: str, level: str) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict(question, kb)
    assert lead in out["reply"].splitlines()[0] or level == "uncertain" and lead in out["reply"], out["reply"]
    assert out["verdict"]["level"] == level, out["verdict"]
    if level == "uncertain":
        assert "no document mentions" in out["verdict"]["reason"], out["verdict"]


async def test_a_story_about_something_the_documents_lack_is_still_declined(kb) -> None:  # type: ignore[no-untyped-def]
    """The story's unseen words are dropped only when they are the story's: an asked thing no document names
    ("洗车") still makes the question one the sources do not answer."""
    out = await answer_dict("朋友开车来找我，在小区里停了一个半小时，洗车要多少钱？", kb)
    assert out["verdict"]["level"] != "confirmed", out["reply"]


async def test_the_place_a_story_goes_to_is_a_condition(kb) -> None:  # type: ignore[no-untyped-def]
    """"我下周要去新加坡出差": where the story goes is what the answer must be about — no document names it, so the
    table's rates for other cities do not answer (a near miss of the second blind set, session 35)."""
    out = await answer_dict("我下周要去新加坡出差，P6职级的住宿标准每晚是多少？", kb)
    assert out["verdict"]["level"] == "insufficient", out["reply"]
    out = await answer_dict("我下周要去深圳出差，P6的住宿标准每晚是多少？", kb)
    assert "480" in out["reply"] and out["verdict"]["level"] != "insufficient", out["reply"]
