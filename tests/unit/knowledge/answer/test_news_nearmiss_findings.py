"""Issue 31, found on the development news near-miss set (tests/data/news_nearmiss_dev, session 32): an answer must
meet the question's constraints in the sentence that gives the value — its year (a news item's "今年" is the
year of its dateline), its quarter or month, its place, its edition, the men's or the women's, the winner's —
and a source saying the figure is not known yet does not answer. The articles below are written for these tests."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer.checks.constraints import constraints_of, document_year, missed
from knowzero.vocabulary.questions import pending_only
from kz_testlib import answer_dict, make_kb

PORT_2022 = """# 白鹭港前三季度吞吐量公布

本报讯（记者 林涛）2022年10月12日，记者从白鹭港务集团获悉，今年前三季度白鹭港完成集装箱吞吐量402万标箱，同比增长2.1%。

港务集团表示，四季度将继续开拓外贸航线。
"""

PORT_2023 = """# 白鹭港集装箱业务稳步增长

（2023-10-15）白鹭港务集团15日公布，今年前三季度白鹭港完成集装箱吞吐量436万标箱，同比增长8.5%。

集团负责人介绍，外贸集装箱占比持续提升。
"""

LANDSLIDE_HERE = """# 石门县青溪村发生山体滑坡

新华社石门8月3日电 3日凌晨，石门县青溪村突发山体滑坡，部分农房被掩埋，有人员失联，具体失联人数正在进一步核查中。

救援人员正在使用生命探测仪进行搜索。
"""

LANDSLIDE_THERE = """# 杨柳县一村庄发生山体滑坡

本报讯 2023年8月4日，记者从杨柳县获悉，该县白石村3日晚发生山体滑坡，造成2户农房被埋，4人失联。

杨柳县与石门县相邻，近期两县均遭遇持续强降雨。
"""


OTHER_COMPANY = """# 岭芯微电子发布半年报

本报讯 2023年8月25日，岭芯微电子发布半年报。公司第二季度实现营业收入31.4亿元，环比增长12.5%。

岭芯微电子与禾川电子同为国内元器件领域的头部企业，两家公司的业绩常被放在一起比较。
"""


ELECTRONICS = """# 电子行业第二季度景气回升

2023年第二季度，电子元器件行业营收环比回升，消费电子需求逐步恢复。
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("news-nearmiss") / "kz")
    for collection, name, text in [("port", "2022.md", PORT_2022), ("port", "2023.md", PORT_2023),
                                   ("slide", "here.md", LANDSLIDE_HERE), ("slide", "there.md", LANDSLIDE_THERE),
                                   ("old", "2022-copy.md", PORT_2022), ("rev", "lingxin.md", OTHER_COMPANY),
                                   ("other", "electronics.md", ELECTRONICS)]:
        assert not kb.ingest_bytes(name, text.encode(), collection=collection).failed
    return kb


async def test_this_years_figure_is_read_by_the_dateline_and_the_other_year_is_not_beside_it(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("2023年前三季度白鹭港集装箱吞吐量是多少？", kb, collections=("port",))
    assert "436万标箱" in out["reply"] and "402万" not in out["reply"], out["reply"]
    assert out["verdict"]["level"] == "confirmed"


async def test_only_another_years_figure_is_declined(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("2023年前三季度白鹭港集装箱吞吐量是多少？", kb, collections=("old",))
    assert out["verdict"]["level"] == "insufficient", out["reply"]


async def test_a_figure_not_known_yet_and_another_places_figure_are_no_answer(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("石门县青溪村山体滑坡造成多少人失联？", kb, collections=("slide",))
    assert out["verdict"]["level"] == "insufficient", out["reply"]
    assert "4人" not in out["reply"]


async def test_another_companys_figure_is_no_answer_when_the_asked_one_is_only_compared_after_it(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("禾川电子2023年第二季度营收是多少？", kb, collections=("rev",))
    assert out["verdict"]["level"] == "insufficient" and "31.4" not in out["reply"], out["reply"]
    out = await answer_dict("岭芯微电子2023年第二季度营收是多少？", kb, collections=("rev",))
    assert "31.4亿元" in out["reply"] and out["verdict"]["level"] != "insufficient", out["reply"]


def test_the_constraint_kinds_read_as_values() -> None:
    assert document_year("# 标题\n（2023-10-15）白鹭港务集团15日公布") == 2023
    asked = constraints_of("2023年前三季度白鹭港集装箱吞吐量是多少？")
    assert [c.written for c in missed(asked, "今年前三季度完成402万标箱", 2022)] == ["2023年"]
    assert missed(asked, "今年前三季度完成436万标箱", 2023) == []
    assert [c.written for c in missed(constraints_of("石门县青溪村有多少人失联？"),
                                      ["该县白石村4人失联。", "杨柳县一村庄发生山体滑坡", "杨柳县与石门县相邻"])] == ["石门县"]
    assert [c.written for c in missed(constraints_of("女子组冠军奖金是多少？"), "男子组亚军获得5万元奖金。")] == ["女子", "冠军"]


@pytest.mark.parametrize(("kind", "text", "pending"), [
    ("number", "3日凌晨突发山体滑坡，有人员失联，具体失联人数正在进一步核查中。", True),
    ("number", "已造成6人死亡，伤亡人数仍在统计中。", False),     # a figure so far is a figure
    ("time", "（2023-11-02）新线具备年内开通条件，具体开通时间将另行公告。", True),
    ("time", "新线将于12月28日开通，票价另行公布。", False),
    ("number", "全省共报告病例2.1万例。", False),                 # nothing pending
])
def test_a_value_not_known_yet(kind: str, text: str, pending: bool) -> None:
    assert pending_only(kind, text) is pending
