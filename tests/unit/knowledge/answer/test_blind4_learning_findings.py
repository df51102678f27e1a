"""Issue 27 and 28, found on the development half of the fifth blind set's learning comments (session 31): the
asker's need ("how many points do I need") is no word of the documents, booking "by phone" asks for no phone
number, and a company's "Ltd." or a line wrapped after a comma ends no sentence."""

from __future__ import annotations

import pytest

from knowzero.knowledge.text import split_sentences
from knowzero.vocabulary.questions import asked_value
from kz_testlib import answer_dict, make_kb

CLUB = """# Kestrel Club — Membership Terms

## 3. Using the discount

- Member discounts apply only on bookings made directly with Kestrelmoor (our
  website, the Kestrelmoor app or by phone). Bookings made through online travel agents get no member
  discount and earn no points.

## 4. Points

Points expire 24 months after the last stay.

| Points | Reward |
|---|---|
| 2,000 | Breakfast for two on one morning |
| 12,000 | One free night in a Classic Double, any season |
"""


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind4-learn") / "kz", {"kestrel/Kestrel_Club_Membership.md": CLUB})


async def test_the_askers_need_is_no_subject(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("How many points do I need for a free night?", kb)
    assert out["verdict"]["level"] == "confirmed" and "12,000" in out["reply"], out["reply"]


def test_the_askers_need_is_dropped_from_key_terms(kb) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer.retriever import key_terms

    assert "need" not in [t for t, _ in key_terms(kb, "How many points do I need for a free night?")]
    assert "want" not in [t for t, _ in key_terms(kb, "We want to book a free night")]


@pytest.mark.parametrize(("question", "kind"), [
    ("does booking by phone count as booked directly?", None),
    ("可以电话报修吗？", None),
    ("What is the phone number of the Guest Loyalty Team?", "phone"),
    ("What's the phone for reservations?", "phone"),
    ("物业的电话是多少？", "phone"),
    ("客服热线多少", "phone"),
])
def test_the_phone_as_a_way_of_booking_asks_for_no_number(question: str, kind: str | None) -> None:
    assert asked_value(question) == kind


async def test_booking_by_phone_is_answered_by_the_rule_that_names_it(kb) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("booked directly: does booking by phone count?", kb)
    assert out["verdict"]["level"] == "confirmed" and "by phone" in out["reply"], out["reply"]


def test_a_company_abbreviation_and_a_wrap_after_a_comma_end_no_sentence() -> None:
    text = ("This covers everyone employed by Kestrelmoor Hotels Ltd.\non every grade. It runs four hotels: "
            "Harbour (Fenmouth),\nAbbey (Lindenford) and Lakes.\n- Next item")
    assert [s.text for s in split_sentences(text)] == [
        "This covers everyone employed by Kestrelmoor Hotels Ltd.\non every grade.",
        "It runs four hotels: Harbour (Fenmouth),\nAbbey (Lindenford) and Lakes.", "- Next item"]


RENOVATION = """# 装修管理规定（2026版）

## 四、施工时间

工作日施工时间为8:00–12:00、14:00–18:00。周六、周日和法定节假日禁止使用电锤、电钻等产生噪声的工具，只允许在9:00–17:00进行无噪声作业。

## 五、费用

物业服务费、电梯运行费和二次加压供水费按季度预缴，业主须在每季度第一个月的15日前缴清当季费用。
一次性预缴全年（12个月）物业服务费的，按应缴金额的95%收取。电梯运行费和二次加压供水费不打折。
"""


@pytest.fixture(scope="module")
def kb_zh(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    return make_kb(tmp_path_factory.mktemp("blind4-learn-zh") / "kz", {"lanting/装修管理规定（2026版）.md": RENOVATION})


async def test_a_weekend_is_answered_by_the_rule_for_its_days(kb_zh) -> None:  # type: ignore[no-untyped-def]
    out = await answer_dict("周末能装修吗？", kb_zh)
    assert out["verdict"]["level"] == "confirmed" and "周六、周日" in out["reply"], out["reply"]


def test_a_word_for_several_days_is_searched_as_its_days() -> None:
    from knowzero.knowledge.answer.retriever import with_named_days
    from knowzero.vocabulary.questions import days_named

    assert with_named_days("周末能装修吗？").endswith("周六 周日")
    assert days_named("周末", "周六、周日可以施工") and not days_named("周末", "工作日施工")
    assert with_named_days("工作日几点上班？") == "工作日几点上班？"


async def test_a_value_of_another_kind_denies_no_premise(kb_zh) -> None:  # type: ignore[no-untyped-def]
    # "95折" is no date: the sentence of quarterly due dates says nothing against it ("不是。文档中写的是15日、1月…"
    # before); the sentence that says 不打折 answers
    out = await answer_dict("预缴全年的话，电梯运行费和二次加压供水费也能一起打95折吗？", kb_zh)
    assert "15日" not in out["reply"].split("：")[0], out["reply"]
    assert out["reply"].startswith("不能") and "不打折" in out["reply"], out["reply"]


def test_a_conditional_particle_is_no_term(kb_zh) -> None:  # type: ignore[no-untyped-def]
    from knowzero.knowledge.answer.retriever import key_terms

    assert "的话" not in [t for t, _ in key_terms(kb_zh, "预缴全年的话，能打95折吗？")]


@pytest.mark.parametrize(("question", "kind"), [
    ("What are the late check-out charges?", "money"),
    ("what is the price of breakfast for a child?", "money"),
    ("What are the rules for dogs?", None),
])
def test_what_are_the_charges_asks_for_an_amount(question: str, kind: str | None) -> None:
    assert asked_value(question) == kind


def test_pounds_are_money() -> None:
    from knowzero.vocabulary.questions import gives_value

    assert gives_value("money", "Late check-out until 13:00: £20")
    assert gives_value("money", "Price (£): 14.50")
    assert not gives_value("money", "Late check-out charges are set out in the current rate sheet.")
