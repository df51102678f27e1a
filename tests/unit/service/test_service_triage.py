"""Triage: urgency P0-P2, lexicon sentiment (zh/en), handoff triggers."""

from knowzero.service.triage import assess, sentiment_score


def test_sentiment_lexicon_zh_en():
    assert sentiment_score("气死我了！垃圾服务！！") < -0.6
    assert sentiment_score("this is ridiculous, worst service ever!!") < -0.6
    assert sentiment_score("谢谢，很满意") > 0.3
    assert -0.6 < sentiment_score("怎么还没到？太慢了") < 0
    assert sentiment_score("订单124到哪了") == 0


def test_urgency():
    assert assess("我们的生产线停了，急需配件").urgency == "P0"
    assert assess("货物破损了，我要退款").urgency == "P1"
    assert assess("订单124到哪了").urgency == "P2"


def test_handoff_triggers():
    assert assess("转人工").handoff and assess("talk to a person please").handoff
    assert assess("有人受伤了").handoff  # P0
    first = assess("气死我了！垃圾服务！！")
    assert first.label == "angry" and not first.handoff and first.angry_streak == 1
    second = assess("太差劲了，骗子！！", first.to_dict())
    assert second.handoff and second.angry_streak == 2 and "angry" in second.reason
    calm = assess("好的", second.to_dict())
    assert calm.angry_streak == 0 and not calm.handoff


def test_the_lexicon_is_a_floor_under_a_models_sentiment():
    # a model that reads "气死我了！垃圾服务！！" as neutral cannot stop the angry streak, nor the hand-off
    first = assess("气死我了！垃圾服务！！", sentiment=0.0)
    assert first.label == "angry" and first.sentiment == round(sentiment_score("气死我了！垃圾服务！！"), 3)
    second = assess("太差劲了，骗子！！", first.to_dict(), sentiment=0.9)
    assert second.handoff and second.angry_streak == 2 and "angry" in second.reason
    # ...and a model that hears anger the lexicon misses makes it stricter: the more negative reading counts
    quiet = assess("订单124到哪了", sentiment=-0.9)
    assert quiet.label == "angry" and quiet.sentiment == -0.9 and quiet.urgency == "P1"
    assert assess("谢谢，很满意", sentiment=0.2).sentiment == 0.2  # the model's milder reading of praise stands
