"""Issue 31, session 33 (found on tests/data/news_nearmiss_dev): a dated news item on the topic does not answer when
its sentences lack what the question asks — a date besides the item's dateline for the asked event ("首场门票开售后不到
3分钟即告售罄" is no sale date), a number in the asked unit ("开行旅客列车136列" for "发送旅客多少人次"), a figure
given as fact (a rumour or an estimate is none) — and a figure of another qualifier, version, model or code of the
same measure ("平均气温" for "最高气温", "长续航版" for "标准版", "X9 Pro" for "X9", "WLTC" for "CLTC") is
another figure. The articles below are written for these tests."""

from __future__ import annotations

import pytest

from knowzero.knowledge.answer.checks.constraints import constraints_of, missed
from knowzero.vocabulary.questions import (
    asked_event,
    asked_unit,
    dateline,
    gives_time,
    gives_unit,
    news_item,
    pending_only,
)
from kz_testlib import answer_dict, make_kb

SOLD_OUT = """# 白帆乐队巡演杭州站门票秒空

本报讯 2023年5月8日电 白帆乐队2024巡回演唱会杭州站首场门票开售后不到3分钟即告售罄。

主办方表示，将研究加场的可能。
"""

ON_SALE = """# 白帆乐队巡演杭州站开票

本报讯（记者 林立）2023年4月20日，主办方宣布，白帆乐队2024巡回演唱会杭州站首场门票将于4月28日12时在各大平台开售。

门票分为三档。
"""

TRAINS = """# 春运首日青峰站客流平稳

（2024-01-26）1月26日，2024年春运首日，青峰站共开行旅客列车136列，其中加开临客12列。

车站增开了售票窗口。
"""

RUMOUR = """# 云帆Y5手机发布会定档

（2023-09-04）云帆科技4日宣布，Y5系列新品发布会将于9月12日在深圳举行。此前有数码博主爆料称，Y5起售价或控制在3000元以内，但这一说法未获官方证实。

云帆科技表示，Y5系列已开启预约，预约人数已超过60万。
"""

POLICY = """# 请假制度

第一条 员工请假须提前申请。

第二条 年假自2024年1月1日起按新标准执行，员工每年可休年假5天。
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    kb = make_kb(tmp_path_factory.mktemp("news-slot") / "kz")
    for collection, name, text in [("sold", "sold.md", SOLD_OUT), ("sale", "sale.md", ON_SALE),
                                   ("sale", "sold.md", SOLD_OUT), ("trains", "trains.md", TRAINS),
                                   ("rumour", "rumour.md", RUMOUR), ("policy", "leave.md", POLICY)]:
        assert not kb.ingest_bytes(f"{collection}/{name}", text.encode(), collection=collection).failed
    return kb


async def test_a_news_item_dated_only_by_its_dateline_gives_no_sale_date(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("白帆乐队2024巡回演唱会杭州站首场门票什么时候开售？", kb, collections=("sold",))
    assert out["verdict"]["level"] == "insufficient", out["reply"]


async def test_the_sale_date_answers_beside_the_sold_out_item(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("白帆乐队2024巡回演唱会杭州站首场门票什么时候开售？", kb, collections=("sale",))
    assert "4月28日" in out["reply"] and out["verdict"]["level"] != "insufficient", out["reply"]


async def test_trains_run_are_no_count_of_passengers(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("2024年春运首日青峰站发送旅客多少人次？", kb, collections=("trains",))
    assert out["verdict"]["level"] == "insufficient", out["reply"]


async def test_a_rumoured_price_is_no_price(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("云帆Y5手机起售价是多少？", kb, collections=("rumour",))
    assert out["verdict"]["level"] == "insufficient", out["reply"]


async def test_a_policy_is_not_read_as_a_news_item(kb) -> None:  # type: ignore[no-untyped-def]
    assert not news_item(POLICY)
    out = await answer_dict("年假每年可以休几天？", kb, collections=("policy",))
    assert "5天" in out["reply"] and out["verdict"]["level"] != "insufficient", out["reply"]


@pytest.mark.parametrize(("kind", "text", "pending"), [
    ("person", "决赛被迫推迟，冠军归属暂未揭晓。", True),
    ("person", "据传，周牧之的《北坡》是热门作品。", True),                      # a rumour names no winner
    ("person", "周牧之的《北坡》获得长篇小说奖。", False),
    ("place", "为保护遗址安全，窑址具体位置暂不对外公布。", True),
])
def test_a_name_not_known_yet(kind: str, text: str, pending: bool) -> None:
    assert pending_only(kind, text) is pending


def test_datelines_events_and_units_are_read_from_the_structure() -> None:
    assert dateline("新华社江州2月5日电 5日上午，…") == "新华社江州2月5日电 "
    assert dateline("自2024年1月1日电子发票全面推行") == ""
    assert news_item("# 标题\n\n央视网消息：1月10日，记者从国铁集团获悉") and news_item(SOLD_OUT)
    assert news_item("芦湾人口普查现场登记工作结束\n\n（2020-12-12）本报讯 记者获悉，登记工作已经结束。")  # an unmarked headline
    assert not news_item("2007年11月1日，在线课程上线。")  # a date opening a paragraph is no dateline
    assert not gives_time("本报讯 2023年5月8日电 门票开售后不到3分钟即告售罄。")
    assert gives_time("门票将于4月28日12时开售。")
    assert asked_event("首场门票什么时候开售？") == "开售" and asked_event("展览展到哪天结束？") == "结束"
    assert asked_unit("发送旅客多少人次？")[0] == "人次" and "元" in asked_unit("冠军奖金是多少？")
    assert asked_unit("常住人口有多少人口？") == () and asked_unit("GDP增长了多少？") == ()
    assert not gives_unit(asked_unit("发送旅客多少人次？"), "共开行旅客列车136列")
    assert gives_unit(asked_unit("造成多少人死亡？"), "已造成三名游客死亡")  # 名 counts people as 人 does
    assert not gives_unit(asked_unit("造成多少人死亡？"), "事故造成3辆车受损")


@pytest.mark.parametrize(("question", "evidence", "missed_written"), [
    ("2022年7月青峰市的最高气温是多少？", "2022年7月全市平均气温30.4℃", ["最高气温"]),
    ("2022年7月青峰市的最高气温是多少？", "7月青峰市最高气温达到41.2℃", []),
    ("7月20日永宁县城单日降雨量是多少？", "县城当日降雨量256毫米", []),            # 当日 is the same day's
    ("7月20日永宁县城单日降雨量是多少？", "最大小时降雨量达到78.5毫米", ["单日降雨量"]),
    ("云帆Y5手机起售价是多少？", "Y5 Pro起售价3999元", ["Y5"]),
    ("云帆Y5手机起售价是多少？", "云帆Y5起售价2999元，Y5 Pro起售价3999元", []),
    ("2023款驰远E7标准版的CLTC续航里程是多少？", "按照WLTC测试标准，E7标准版续航里程为530公里", ["CLTC"]),
    ("2023款驰远E7标准版的CLTC续航里程是多少？", "2023款驰远E7长续航版CLTC续航里程达到705公里", ["标准版"]),
    ("2023款驰远E7标准版的CLTC续航里程是多少？", "新车共推出标准版和长续航版，标准版CLTC续航620公里", []),
    ("寺庙踩踏事故造成多少人死亡？", "当地发生一起交通事故，已造成10人死亡。", ["踩踏事故"]),
    ("寺庙踩踏事故造成多少人死亡？", "庙会发生踩踏，此次事故已造成3人死亡。", []),      # 此次 points back
    ("2023青川马拉松男子全程冠军奖金是多少？", "2023青川国际马拉松男子全程冠军奖金5万元", []),
    ("《泊阳市电动自行车管理条例》什么时候起施行？", "《泊阳市电动自行车管理办法》自2015年10月1日起施行", ["《泊阳市电动自行车管理条例》"]),
    ("《泊阳市电动自行车管理条例》什么时候起施行？", "《泊阳市电动自行车管理条例（草案）》提请审议", ["《泊阳市电动自行车管理条例》"]),
    ("《红楼梦》的作者是谁？", "曹雪芹著《石头记》", []),                                 # another name, not another text
    ("职级在P8及以上的员工有几位？", "P9：2人", []),                                     # a range, no model
    ("泓州市总商会第八届会长是谁？", "吕青当选第八届常务副会长", ["会长"]),                # a deputy is not the head
    ("泓州市总商会第八届会长是谁？", "吕青当选第八届会长，王五当选副会长", []),
    ("第七次全国人口普查时芦湾市常住人口是多少？", "第六次全国人口普查：常住人口283.76万人", ["第七次"]),
    ("第一次世界大战是哪年结束的？", "第二次世界大战于1945年结束", []),                   # 第一次: often just "first"
    ("第十届茶文化节共接待游客多少万人次？", ["本届茶文化节共接待游客72.6万人次", "第九届茶文化节昨日落幕。明年第十届将扩大规模"],
     ["第十届"]),                                                                          # 本届 is the item's own
])
def test_qualifiers_versions_models_and_codes_are_values(question: str, evidence: str | list[str],
                                                         missed_written: list[str]) -> None:
    assert [c.written for c in missed(constraints_of(question), evidence, 2023)
            if c.kind != "year"] == missed_written
