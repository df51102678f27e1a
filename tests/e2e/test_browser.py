"""The web UI in a real browser (Debian Chromium via Playwright) against a real ``knowzero serve``.

Covers: a cited knowledge answer with its live trace (tier, verdict) and a citation opened with
the span highlighted; threads (resume after reload, rename); a learning document generated from
chat, highlight → comment → "让 AI 优化" → the section changes and a new version with a diff;
entity click; follow-up chip; a refund confirmed by the customer and approved by an agent in a
second browser context; a handoff answered by an agent; drag-and-drop upload then a question
about the uploaded file; phone width in English; a broken stream that reconnects and resumes.
Screenshots of the main screens go to docs/screenshots/. Timings are printed, never asserted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

METRICS: dict[str, Any] = {}
FIRST_EVENT: list[float] = []
FIRST_PAINT: list[float] = []


def ask(page: Any, text: str) -> Any:
    """Type a message, send it with Enter, wait for the turn to finish; returns the turn locator."""
    before = page.locator("article.turn:not(.stored)").count()
    page.fill("#composer", text)
    page.press("#composer", "Enter")
    turn = page.locator("article.turn:not(.stored)").nth(before)
    turn.locator(".tr-done, .tr-error").first.wait_for(state="attached", timeout=30000)
    m = page.evaluate("window.__kz.metrics")
    if m["sendToFirstEvent"]:
        FIRST_EVENT.append(m["sendToFirstEvent"][-1])
    if m["sendToFirstPaint"]:
        FIRST_PAINT.append(m["sendToFirstPaint"][-1])
    return turn


def test_knowledge_answer_trace_and_citation(pages: Any, shots: Path) -> None:
    page = pages.new()
    page.wait_for_selector("#composer")
    METRICS["first_paint_ms"] = page.evaluate(
        "(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime || null")
    nav = page.evaluate("(() => { const n = performance.getEntriesByType('navigation')[0]; return {dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()")
    METRICS["dom_content_loaded_ms"] = nav["dcl"]
    page.screenshot(path=str(shots / "chat-empty.png"))

    turn = ask(page, "零件A的公差是多少？")
    trace = turn.locator(".trace")
    intent = trace.locator(".tr-intent")
    assert intent.locator(".tier").inner_text() in ("规则", "模糊", "语义", "LLM")
    assert re.search(r"\d+(\.\d+)? ms", intent.locator(".ms").inner_text())
    assert "knowledge" in trace.locator(".tr-path").inner_text()
    assert trace.locator(".node").count() >= 3
    assert trace.locator(".tr-retrieval .sources li").count() >= 1
    verdict = trace.locator(".tr-verdict .verdict")
    assert verdict.inner_text().strip().endswith("已证实")
    assert "v-confirmed" in (verdict.get_attribute("class") or "")
    assert trace.locator(".tr-verdict .tr-sub").inner_text().strip()
    assert "0.01" in turn.locator(".answer").inner_text()
    METRICS["layout_shift_after_streamed_answer"] = page.evaluate("window.__kz.metrics.layoutShift")
    turn.locator(".refs").wait_for()
    METRICS["send_to_first_event_ms"] = page.evaluate("window.__kz.metrics.sendToFirstEvent[0]")
    METRICS["send_to_response_headers_ms"] = page.evaluate("window.__kz.metrics.sendToHeaders[0]")
    METRICS["send_to_first_event_painted_ms"] = page.evaluate("window.__kz.metrics.sendToFirstPaint[0]")
    page.screenshot(path=str(shots / "chat-answer-trace.png"))

    turn.locator(".answer .cite").first.click()
    mark = page.locator(".source-dialog mark.cited")
    mark.wait_for()
    assert "±0.01" in mark.inner_text()
    assert mark.is_visible()
    page.screenshot(path=str(shots / "citation-source.png"))
    page.keyboard.press("Escape")
    assert page.locator(".source-dialog").count() == 0


def test_threads_resume_after_reload_and_rename(pages: Any) -> None:
    page = pages.new()
    ask(page, "差旅报销标准是什么？")
    url = page.url
    assert "#/chat/" in url
    page.reload()
    page.locator(".msg.user .bubble", has_text="差旅报销标准是什么？").wait_for()
    assert page.locator("article.turn.stored .answer").first.inner_text().strip()
    meta = page.locator("article.turn.stored").first.inner_text()
    assert "意图" not in meta and "路径" not in meta and "Intent" not in meta, meta  # internal labels are the staff's
    thread_id = url.split("#/chat/")[1]
    item = page.locator(f'li.thread[data-thread="{thread_id}"]')
    item.locator('[data-action="rename-thread"]').click()
    page.fill(".rename-input", "报销问题")
    page.press(".rename-input", "Enter")
    page.locator(f'li.thread[data-thread="{thread_id}"] .thread-title', has_text="报销问题").wait_for()
    page.reload()
    page.locator(f'li.thread[data-thread="{thread_id}"] .thread-title', has_text="报销问题").wait_for()


def _select_in(page: Any, selector: str) -> str:
    """Select the leading text of an element like a user dragging over it; returns the text."""
    return page.evaluate("""(sel) => {
        const el = document.querySelector(sel);
        const r = document.createRange();
        r.setStart(el.firstChild, 0);
        const cite = el.querySelector('.cite');
        if (cite) r.setEndBefore(cite); else r.setEnd(el, el.childNodes.length);
        const s = getSelection(); s.removeAllRanges(); s.addRange(r);
        el.dispatchEvent(new MouseEvent('mouseup', {bubbles: true}));
        return s.toString();
    }""", selector)


def test_learning_document_comment_entity_follow_up(pages: Any, shots: Path) -> None:
    page = pages.new()
    turn = ask(page, "我想学习CNC维护")
    card = turn.locator(".doc-card")
    card.locator(".card-title", has_text="已完成").wait_for()
    card.locator("a", has_text="打开文档").click()
    page.locator(".doc-section").first.wait_for()
    title = page.locator("#doc-title").inner_text()
    assert page.locator(".toc li").count() == page.locator(".doc-section").count() >= 2
    assert page.locator("#doc-version").inner_text() == "v1"
    doc_url = page.url
    page.screenshot(path=str(shots / "reader.png"), full_page=False)

    # highlight → popover → comment → 让 AI 优化 → the section updates in place with a summary
    section = page.locator(".doc-section").nth(1)
    sid = section.get_attribute("data-section-id")
    old_text = section.inner_text()
    selected = _select_in(page, f'.doc-section[data-section-id="{sid}"] .sec-body li')
    assert selected
    page.locator("#comment-btn").click()
    page.fill("#comment-text", "这里说得太简单了，请详细一点")
    page.screenshot(path=str(shots / "reader-comment-popover.png"))
    page.locator("#improve-btn").click()
    changed = page.locator(f'.doc-section.changed[data-section-id="{sid}"]')
    changed.wait_for(timeout=30000)
    assert changed.locator(".change-summary").inner_text().startswith("✎ v2")
    assert changed.inner_text() != old_text
    assert page.locator("#doc-version").inner_text() == "v2"
    assert page.url == doc_url  # updated in place, no navigation
    note = page.locator(".margin .note").first
    note.wait_for()
    assert "太简单" in note.inner_text()
    assert page.locator(f'mark.anchor[data-comment="{note.get_attribute("data-comment")}"]').count() >= 1
    page.screenshot(path=str(shots / "reader-after-comment.png"))

    # version history + diff
    page.locator("#history-btn").click()
    page.locator(".diff .dl.add").first.wait_for()
    assert page.locator(".versions .version").count() == 2
    page.screenshot(path=str(shots / "reader-diff.png"))
    page.keyboard.press("Escape")

    # an entity link creates (or opens) that term's page
    entity = page.locator(".doc-section a.entity").first
    name = entity.get_attribute("data-entity")
    entity.click()
    page.wait_for_function("u => location.href !== u", arg=doc_url, timeout=30000)
    page.locator("#doc-title", has_text=name).wait_for()
    entity_url = page.url

    # a follow-up chip: navigates to a page or answers in the activity panel
    chip = page.locator("#follow-up-chips .chip").first
    chip.wait_for()
    done_before = page.locator("#activity .tr-done").count()  # a trace of the entity turn may already be there
    chip.click()
    page.wait_for_function(
        "([u, n]) => location.href !== u || document.querySelectorAll('#activity .tr-done').length > n",
        arg=[entity_url, done_before], timeout=30000)
    if page.url == entity_url:
        assert "follow_up" in (page.locator("#activity .tr-path").last.text_content() or "")
    else:
        page.locator(".doc-section").first.wait_for()
    assert title


def test_refund_confirmation_and_agent_approval(pages: Any, shots: Path) -> None:
    customer = pages.new(key="demo-alice")
    customer.locator("body[data-role='customer']").wait_for(state="attached")
    assert not customer.locator('.mainnav [data-nav="console"]').is_visible()  # the agents' page is not a customer's
    assert customer.locator('.mainnav [data-nav="chat"]').is_visible()
    turn = ask(customer, "订单125申请退款600元，原因是质量问题")
    card = turn.locator(".review-card")
    card.wait_for()
    assert "600.00" in card.inner_text()
    customer.screenshot(path=str(shots / "refund-confirmation.png"))
    customer.locator('[data-action="confirm-refund"]').click()
    waiting = customer.locator('.review-card[data-kind="refund_approval"]')
    waiting.wait_for(timeout=30000)
    assert customer.locator(".tr-tool code", has_text="request_refund").count() >= 1

    agent = pages.new(key="demo-agent", path="/#/console/approvals")
    item = agent.locator("article[data-refund]").first
    item.wait_for()
    assert "600.00" in item.inner_text()
    agent.screenshot(path=str(shots / "console-approvals.png"))
    item.locator('[data-action="approve-refund"]').click()
    agent.locator("article[data-refund]").first.wait_for(state="detached")

    # the customer's page updates without a reload
    customer.locator("article.turn.stored .answer", has_text="已执行").wait_for(timeout=20000)


def test_handoff_answered_by_agent(pages: Any, shots: Path) -> None:
    customer = pages.new()
    # sign in through the dialog (paste an API key)
    customer.locator("#user-btn").click()
    customer.locator("#api-key").wait_for()
    customer.fill("#api-key", "demo-bob")
    customer.press("#api-key", "Enter")
    # the user's name, not the role (the server may still be embedding the previous tests' uploads: a full
    # suite on two cores once took over 20 s here; CI once timed out after 60 s: a refusal shown in the dialog
    # is reported as itself, and the server's log tail comes with any failure, slow requests named)
    customer.locator("#user-btn:has-text('李四'), .form-error:not(:empty)").first.wait_for(timeout=60000)
    refused = customer.locator(".form-error:not(:empty)")
    assert refused.count() == 0, f"sign-in refused: {refused.first.inner_text()}"
    turn = ask(customer, "我要转人工客服")
    turn.locator('.review-card[data-kind="handoff"]').wait_for()

    agent = pages.new(key="demo-agent", path="/#/console/handoffs")
    detail = agent.locator(".handoff-detail")
    detail.wait_for()
    assert "bob" in detail.inner_text()
    agent.locator("#handoff-thread .msg.user", has_text="转人工").wait_for()
    agent.screenshot(path=str(shots / "console-handoff.png"))
    agent.fill("#human-reply", "您好，我是人工客服，马上帮您处理。")
    agent.locator("#send-human-reply").click()
    agent.locator("#handoff-thread .bubble", has_text="马上帮您处理").wait_for()

    customer.locator(".chat-log .answer", has_text="马上帮您处理").wait_for(timeout=20000)
    agent.locator("#return-assistant").click()
    agent.locator(".toast.show").wait_for()


def test_review_queue_edit(pages: Any, kz_server: Any, shots: Path) -> None:
    from knowzero.config import Settings
    from knowzero.persistence.db import make_engine
    from knowzero.service.store import SqlStore

    store = SqlStore(make_engine(Settings(data_dir=kz_server.data_dir).db_url))
    for q, v in (("零件A的公差是±0.05mm吗？", "contradicted"), ("零件A的交期是几天？", "uncertain")):
        store.enqueue_review(thread_id="t-review", user_id="alice", question=q, answer="零件A的公差是±0.05mm。[1]",
                             verdict=v, evidence=[{"source": "demo_kb/technical/零件A-XH-1001工艺说明.md", "title": "零件A工艺说明",
                                                   "quote": "零件A的公差为±0.01mm", "start": 569, "end": 583}])
    agent = pages.new(key="demo-agent", path="/#/console/reviews")
    items = agent.locator("article[data-review]")
    items.first.wait_for()
    assert items.count() == 2
    first = items.first
    assert "有矛盾" in first.inner_text()
    agent.screenshot(path=str(shots / "console-reviews.png"))
    first.locator('[data-action="edit-review"]').click()
    first.locator("textarea").fill("零件A的公差是±0.01mm。")
    first.locator('[data-action="save-review"]').click()
    agent.locator("article[data-review]").nth(1).wait_for(state="detached")
    agent.locator("article[data-review]").first.locator('[data-action="approve-review"]').click()
    agent.locator(".console-panel .empty").wait_for()
    done = {r["question"]: r for r in store.list_reviews(None)}
    assert done["零件A的公差是±0.05mm吗？"]["status"] == "edited"
    assert done["零件A的交期是几天？"]["status"] == "approved"


def test_upload_then_ask(pages: Any, shots: Path, tmp_path: Path) -> None:
    page = pages.new(path="/#/kb", key="demo-editor")
    page.locator("#dropzone").wait_for()
    content = ("# 星云-7 伺服电机规格\n\n星云-7 伺服电机的额定扭矩是 42 N·m，额定转速 3000 rpm。\n\n"
               "星云-7 的防护等级为 IP65，适用于潮湿车间。\n")
    # drag and drop a file onto the drop zone
    page.evaluate("""(text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], '星云-7规格.md', {type: 'text/markdown'}));
        const zone = document.getElementById('dropzone');
        zone.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
        zone.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
    }""", content)
    done = page.locator(".upload.ok")
    done.wait_for(timeout=60000)
    assert "✓" in done.inner_text()
    page.locator("#kb-files td", has_text="星云-7").first.wait_for()
    # searchable at once by keyword; hybrid ranking wants its vectors (the status refreshes by itself)
    page.locator("#kb-files tr", has_text="星云-7").filter(has_text="已索引").first.wait_for(timeout=120000)
    page.fill("#kb-query", "星云-7 的额定扭矩是多少？")
    page.press("#kb-query", "Enter")
    first = page.locator("#kb-results .passage").first
    first.wait_for()
    assert "星云-7" in first.inner_text()
    assert re.search(r"0\.\d{4}", first.locator(".score").inner_text())
    page.screenshot(path=str(shots / "knowledge-base.png"))

    page.goto("/#/chat")
    turn = ask(page, "星云-7 伺服电机的额定扭矩是多少？")
    assert "42" in turn.locator(".answer").inner_text()
    turn.locator(".refs").wait_for()
    turn.locator(".answer .cite").first.click()
    assert "42" in page.locator(".source-dialog mark.cited").inner_text()
    # the team's first document hides the demo from questions that name no collection (and from learning):
    # the later tests of this module use the demo, so the uploaded collection goes again
    files = page.request.get("/v1/kb/files").json()["files"]
    uploaded = {f["collection"] for f in files if "星云-7" in f["path"]}
    for collection in uploaded:
        r = page.request.delete(f"/v1/kb/collections/{collection}", headers={"Authorization": "Bearer demo-editor"})
        assert r.ok, r.text()


def test_phone_width_english(pages: Any, shots: Path) -> None:
    page = pages.new(locale="en-US", width=390, height=844)
    page.locator("#composer").wait_for()
    assert page.locator('[data-nav="chat"]').inner_text() == "Chat"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    turn = ask(page, "What is the tolerance of part A?")
    assert turn.locator(".trace").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / "phone-chat.png"))
    page.locator("#menu-btn").click()
    page.locator("#sidebar .thread-list").wait_for()
    assert page.locator("#menu-btn").get_attribute("aria-expanded") == "true"
    # switch language from the top bar
    page.keyboard.press("Escape")
    page.locator("#lang-btn").click()
    page.locator('[data-nav="chat"]', has_text="对话").wait_for()


def _boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


@pytest.mark.parametrize(("locale", "key"), [("en-US", None), ("zh-CN", "demo-agent")])
def test_phone_top_bar_shows_every_nav_item(pages: Any, shots: Path, locale: str, key: str | None) -> None:
    """390 px: every nav item whole on screen (no clipping, no scrolling), none under the account
    button or the other top-bar controls (outside review 1, finding 8)."""
    page = pages.new(locale=locale, width=390, height=844, key=key, path="/#/console" if key else "/")
    page.locator("#user-btn", has_text="王客服" if key else "Sign in").wait_for()  # the widest name it shows
    nav = page.locator(".mainnav")
    assert page.evaluate("(n) => n.scrollWidth <= n.clientWidth", nav.element_handle())
    controls = [page.locator(sel).bounding_box() for sel in ("#user-btn", "#lang-btn", "#settings-link", "#menu-btn")]
    for link in page.locator(".mainnav a").all():
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, (link.inner_text(), box)
        assert page.evaluate("(a) => a.scrollWidth <= a.clientWidth", link.element_handle()), link.inner_text()
        assert not any(c and _boxes_overlap(box, c) for c in controls), link.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=str(shots / f"phone-top-bar-{locale}.png"))


def test_stale_quick_replies_and_refused_messages(pages: Any) -> None:
    """Quick replies go once anything else is sent; a left-over "确认" is told nothing is pending;
    a message over the server's limit cannot be typed, and if sent anyway (or refused with 429)
    only an error card that says why stays (outside review 1, findings 3 and 7)."""
    pages.allowed += ["status of 422", "status of 429"]  # the refusals below, logged by the browser
    page = pages.new(key="demo-bob")
    turn = ask(page, "订单200退款10元，原因质量问题")
    turn.locator(".quick-replies .chip", has_text="确认").wait_for()
    turn.locator('[data-action="confirm-refund"]').click()  # answered by the card, not by the chips
    page.locator("article.turn:not(.stored) .tr-done").nth(1).wait_for(state="attached")
    assert page.locator(".quick-replies").count() == 0
    nothing = ask(page, "确认")
    assert "当前没有待确认的操作" in nothing.locator(".answer").inner_text()
    assert nothing.locator(".verdict").count() == 0

    limit = page.evaluate("document.getElementById('composer').maxLength")
    assert limit == 4000  # the server's KNOWZERO_MAX_MESSAGE_CHARS, from GET /v1/settings
    page.fill("#composer", "长" * 4100)
    assert len(page.input_value("#composer")) == 4000
    page.locator("#composer-count", has_text="最多 4000 字").wait_for()
    before = page.locator("article.turn").count()
    page.evaluate("(() => { const c = document.getElementById('composer'); c.removeAttribute('maxlength'); c.value = '长'.repeat(4100); })()")
    page.press("#composer", "Enter")
    refused = page.locator("article.turn").nth(before)
    refused.locator(".error-card", has_text="消息过长：最多 4000 字").wait_for()
    assert refused.locator(".assistant-bubble").count() == 0 and refused.locator(".turn-trace").count() == 0

    page.route("**/v1/chat", lambda route: route.fulfill(status=429, headers={"Retry-After": "60"}, json={
        "error": {"code": "rate_limited", "message": "too many requests; try again shortly", "details": None}}))
    page.fill("#composer", "你好")
    page.press("#composer", "Enter")
    limited = page.locator("article.turn").nth(before + 1)
    limited.locator(".error-card", has_text="请求太频繁").wait_for()
    assert limited.locator(".assistant-bubble").count() == 0 and limited.locator(".turn-trace").count() == 0
    page.unroute("**/v1/chat")


def test_keyboard_only_send(pages: Any) -> None:
    page = pages.new()
    page.locator("#composer").wait_for()
    assert page.evaluate("document.activeElement.id") == "composer"  # ready to type on load
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "send-btn"
    page.evaluate("document.querySelector('.skip').focus()")
    assert page.locator(".skip").bounding_box()["x"] >= 0  # the skip link shows when focused
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "composer"
    page.locator("#composer").focus()
    page.keyboard.type("你好")
    page.keyboard.press("Enter")
    page.locator("article.turn .tr-done").wait_for(state="attached")
    # every button in the top bar has a name
    names = page.evaluate("[...document.querySelectorAll('button')].filter(b => !(b.textContent.trim() || b.getAttribute('aria-label'))).length")
    assert names == 0


def test_broken_stream_reconnects_and_resumes(pages: Any) -> None:
    page = pages.new()
    ask(page, "零件A的公差是多少？")
    thread_id = page.url.split("#/chat/")[1]

    def broken(route: Any) -> None:  # the connection drops after the first event
        body = 'event: intent_classified\ndata: {"intent": "knowledge", "confidence": 1, "method": "rule", "elapsed_ms": 0.1}\n\n'
        route.fulfill(status=200, headers={"Content-Type": "text/event-stream", "X-Thread-Id": thread_id}, body=body)

    page.route("**/v1/chat", broken)
    page.fill("#composer", "再说一遍")
    page.press("#composer", "Enter")
    # the thread is reloaded from the server and the unfinished turn offers a retry
    page.locator(".error-card", has_text="连接中断").wait_for()
    assert page.locator("article.turn.stored").count() >= 1
    page.unroute("**/v1/chat")
    page.locator(".error-card button").click()
    page.locator("article.turn:not(.stored) .tr-done").last.wait_for(state="attached", timeout=30000)


def test_learn_page_topic_and_path(pages: Any, shots: Path) -> None:
    page = pages.new(path="/#/learn")
    page.fill("#goal-input", "成为量子计算工程师")  # not enough material: closest topics offered
    page.press("#goal-input", "Enter")
    page.locator("#path-note .chip").first.wait_for()
    page.fill("#goal-input", "成为合格的CNC操作工")  # the placeholder's own example: a role, planned from the KB
    page.press("#goal-input", "Enter")
    path = page.locator("#paths details.path[open]")
    path.locator(".steps li").first.wait_for()
    assert path.locator('[role="progressbar"]').count() == 1
    page.screenshot(path=str(shots / "learn.png"))
    page.locator(".learn .chips .chip", has_text="首件检验").click()
    page.wait_for_url(re.compile(r"#/doc/"), timeout=30000)
    page.locator(".doc-section").first.wait_for()
    page.goto("/#/learn")
    page.locator("#doc-list a", has_text="首件检验").first.wait_for()


def test_server_down_banner(pages: Any) -> None:
    pages.allowed.append("ERR_FAILED")  # the aborted health checks below
    page = pages.new()
    page.locator("#composer").wait_for()
    page.route("**/healthz", lambda route: route.abort())
    banner = page.locator("#banner")
    banner.wait_for(timeout=20000)
    assert "连接" in banner.inner_text()
    page.unroute("**/healthz")
    banner.wait_for(state="hidden", timeout=20000)


def test_zz_report_metrics() -> None:
    for name, xs in (("send_to_first_event", FIRST_EVENT), ("send_to_first_event_painted", FIRST_PAINT)):
        if xs:
            xs = sorted(xs)
            METRICS[name + "_all_turns_ms"] = {"n": len(xs), "median": round(xs[len(xs) // 2], 1), "max": round(xs[-1], 1)}
    print("\nbrowser metrics: " + json.dumps(METRICS, ensure_ascii=False))
