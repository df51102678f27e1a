"""The routing table: messages users send and the intent each must get, at the product classifier.

Classifier-level only (``knowzero.routing``; the graph's path decision is tested with the graph):

* every question of the demo knowledge base (``demo_kb/questions.jsonl``) is a **knowledge**
  question, including the ones marked ``answerable: false`` (the KB lacks the answer, but the
  question is still one for the documents, and the knowledge path is the one that can say so);
* knowledge questions that share words with chitchat or service phrases ("访客WiFi叫什么？" holds
  '…i叫什么', one edit from 你叫什么; "退款政策" holds 退款) stay knowledge;
* service requests (order status, refund, ticket, human agent) get a **service** intent
  (:data:`knowzero.routing.SERVICE_INTENTS`: ``realtime`` looks something up, ``action`` does something);
* greetings and thanks are **chitchat**.

Each must be decided with confidence at or above the classifier's threshold, so a path decision
that trusts confident intents takes the right path. Tests load the bundled USE encoder (offline).
"""

from __future__ import annotations

import json
from importlib import resources

import pytest

from knowzero.routing import SERVICE_INTENTS, IntentClassifier, IntentResult

KB_QUESTIONS = [json.loads(line)["question"] for line in
                resources.files("knowzero.demo_kb").joinpath("questions.jsonl").read_text(encoding="utf-8").splitlines()
                if line.strip()]

KNOWLEDGE = [
    "访客WiFi叫什么？", "访客WiFi的密码是多少？", "访客可以在车间拍照吗？", "车间里可以拍照吗？",
    "车间里可以带手机吗？", "访客进车间需要戴安全帽吗？", "退款政策是什么？", "退货流程是怎样的？",
    "报销流程是什么？", "公司的名字叫什么？", "这个零件叫什么名字？",
    "What is the refund policy?", "Can visitors take photos in the workshop?",
]

SERVICE = [
    ("我的订单124到哪了？", "realtime"), ("查一下我的订单状态", "realtime"), ("订单12345发货了吗？", "realtime"),
    ("我的快递到哪了", "realtime"), ("工单T-1001处理得怎么样了？", "realtime"), ("我的退款到账了吗？", "realtime"),
    ("退款进度怎么样了", "realtime"), ("where is my order 124?", "realtime"),
    ("what's the status of my ticket", "realtime"),
    ("我要退款", "action"), ("我想申请退款", "action"), ("帮我退货", "action"), ("帮我开一张工单", "action"),
    ("转人工", "action"), ("我要找人工客服", "action"), ("我要投诉", "action"), ("取消我的订单", "action"),
    ("I want a refund", "action"), ("talk to a human agent", "action"), ("open a ticket for my broken part", "action"),
]

CHITCHAT = ["你好", "谢谢", "hello", "你好！", "谢谢你", "thanks!", "再见", "你叫什么名字？", "你是谁", "讲个笑话"]


@pytest.fixture(scope="module")
def product() -> IntentClassifier:
    return IntentClassifier.from_package_data(cache_size=0)


def _decided(clf: IntentClassifier, text: str, intent: str) -> IntentResult:
    r = clf.classify(text)
    assert r.intent == intent, f"{text!r} → {r.intent} via {r.method} ({r.confidence:.2f}): {r.reasoning}"
    assert r.confidence >= clf.threshold, f"{text!r} → {intent} only at {r.confidence:.2f}: {r.reasoning}"
    return r


def test_the_table_is_the_size_we_report() -> None:
    assert len(KB_QUESTIONS) == 48  # benchmarks/routing.md reports the pass count out of this many rows
    assert len(KB_QUESTIONS) + len(KNOWLEDGE) + len(SERVICE) + len(CHITCHAT) == 91


@pytest.mark.parametrize("text", KB_QUESTIONS)
def test_demo_kb_questions_are_knowledge(product: IntentClassifier, text: str) -> None:
    _decided(product, text, "knowledge")


@pytest.mark.parametrize("text", KNOWLEDGE)
def test_knowledge_questions_near_chitchat_and_service_words(product: IntentClassifier, text: str) -> None:
    r = _decided(product, text, "knowledge")
    assert r.intent not in SERVICE_INTENTS


@pytest.mark.parametrize(("text", "intent"), SERVICE)
def test_service_requests(product: IntentClassifier, text: str, intent: str) -> None:
    r = _decided(product, text, intent)
    assert r.service


@pytest.mark.parametrize("text", CHITCHAT)
def test_chitchat(product: IntentClassifier, text: str) -> None:
    assert not _decided(product, text, "chitchat").service


def test_fuzzy_chitchat_phrase_must_cover_the_message(product: IntentClassifier) -> None:
    assert product.fuzzy is not None
    assert product.fuzzy.classify("访客WiFi叫什么？") is None  # 'i叫什么' is not a typo of 你叫什么
    assert product.fuzzy.classify("公司老板你是谁都不知道吗") is None  # 你是谁 inside a longer question
    for text in ("你叫什么名字呀", "那你叫什么？", "你叫神么"):
        r = product.fuzzy.classify(text)
        assert r is not None and r.intent == "chitchat"
