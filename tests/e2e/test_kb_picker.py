"""The knowledge-base picker and the knowledge base's bulk actions in a real browser (issue 27, deliver 1).

Chat: a conversation picks a collection next to the composer; every message of that thread carries it
as ``collections`` (read from the requests the page sends), the trace shows it, and reopening the thread
(another thread in between, a reload) restores it; a new thread starts at "all my documents" (no
``collections``). Knowledge base: two files selected with their checkboxes are disabled in one action
and the list stays as it was (collections open, including one the user opened); a whole collection is
enabled in one action; the demo company is removed in one action after a confirm dialog (the module's
last test: the server is the module's own).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

EDITOR = {"Authorization": "Bearer demo-editor"}
SHUTTLE = "# 班车时刻\n\n公司班车每天早上7点30分从南门发车，晚上6点返回。\n"
CANTEEN = "# 食堂安排\n\n员工食堂午餐11点30分开始供应，晚餐5点30分。\n"


@pytest.fixture(scope="module")
def picker_docs(kz_server: str) -> str:
    """Two documents in collection ``picker`` (uploaded once for the module)."""
    r = httpx.post(f"{kz_server}/v1/kb/upload", headers=EDITOR, data={"collection": "picker"}, timeout=120,
                   files=[("files", ("班车.md", SHUTTLE.encode(), "text/markdown")),
                          ("files", ("食堂.md", CANTEEN.encode(), "text/markdown"))])
    assert r.status_code == 200, r.text
    return "picker"


def _chat_bodies(page: Any) -> list[dict[str, Any]]:
    """Every POST /v1/chat body the page sends, in order (appended as they go)."""
    bodies: list[dict[str, Any]] = []
    page.on("request", lambda req: bodies.append(json.loads(req.post_data or "{}"))
            if req.method == "POST" and req.url.endswith("/v1/chat") else None)
    return bodies


def ask(page: Any, text: str) -> Any:
    before = page.locator("article.turn:not(.stored)").count()
    page.fill("#composer", text)
    page.press("#composer", "Enter")
    turn = page.locator("article.turn:not(.stored)").nth(before)
    turn.locator(".tr-done, .tr-error").first.wait_for(state="attached", timeout=30000)
    return turn


def test_picker_is_sent_shown_and_restored_with_the_thread(pages: Any, picker_docs: str, shots: Path) -> None:
    page = pages.new()
    bodies = _chat_bodies(page)
    page.locator(f'#kb-picker option[value="{picker_docs}"]').wait_for(state="attached")
    assert page.input_value("#kb-picker") == ""
    assert page.locator("#kb-picker option").first.inner_text() == "全部我的文档"
    page.select_option("#kb-picker", picker_docs)

    turn = ask(page, "班车几点发车？")
    assert bodies[-1]["collections"] == [picker_docs]
    assert turn.locator(".tr-scope").inner_text().endswith(picker_docs)
    assert "7点30分" in turn.locator(".answer").inner_text()
    turn.locator(".refs").wait_for()
    page.wait_for_timeout(300)
    page.screenshot(path=str(shots / "chat-kb-picker.png"))
    thread = page.url.split("#/chat/")[1]

    # another conversation starts at "all my documents" and sends no collections
    page.locator("#new-chat").click()
    page.wait_for_function("!location.hash.includes('/chat/')")
    page.locator(f'#kb-picker option[value="{picker_docs}"]').wait_for(state="attached")
    assert page.input_value("#kb-picker") == ""
    ask(page, "零件A的公差是多少？")
    assert "collections" not in bodies[-1]
    other = page.url.split("#/chat/")[1]
    assert other != thread

    # reopening the first thread (from the list, then after a reload) restores its pick
    page.locator(f'li.thread[data-thread="{thread}"] a').click()
    page.locator(".msg.user .bubble", has_text="班车几点发车？").wait_for()
    page.wait_for_function(f"document.getElementById('kb-picker').value === {picker_docs!r}")
    page.reload()
    page.locator(".msg.user .bubble", has_text="班车几点发车？").wait_for()
    page.wait_for_function(f"document.getElementById('kb-picker').value === {picker_docs!r}")
    ask(page, "食堂午餐几点开始？")
    assert bodies[-1]["collections"] == [picker_docs] and bodies[-1]["thread_id"] == thread

    # back to "all my documents" in a thread the server remembers as limited: an explicit [] clears it
    page.select_option("#kb-picker", "")
    turn = ask(page, "零件A的公差是多少？")
    assert bodies[-1]["collections"] == []
    assert turn.locator(".tr-scope").inner_text().endswith("全部我的文档")
    # the other thread is untouched
    page.goto(f"/#/chat/{other}")
    page.locator(".msg.user .bubble", has_text="零件A的公差是多少？").wait_for()
    page.locator(f'#kb-picker option[value="{picker_docs}"]').wait_for(state="attached")
    assert page.input_value("#kb-picker") == ""


def test_picker_in_english_on_a_phone(pages: Any, picker_docs: str) -> None:
    page = pages.new(locale="en-US", width=375, height=812)
    page.locator(f'#kb-picker option[value="{picker_docs}"]').wait_for(state="attached")
    assert page.locator("#kb-picker option").first.inner_text() == "All my documents"
    assert page.locator("label[for=kb-picker]").inner_text() == "Knowledge"
    assert page.locator("#kb-picker").is_visible() and page.locator("#send-btn").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_bulk_disable_keeps_the_list_expanded(pages: Any, picker_docs: str, shots: Path, kz_server: str) -> None:
    page = pages.new(key="demo-editor", path="/#/kb")
    picker = page.locator(f'details.collection[data-collection="{picker_docs}"]')
    demo = page.locator('details.collection[data-collection="demo"]')
    picker.locator("tr[data-path]").first.wait_for()
    assert picker.get_attribute("open") is not None and demo.get_attribute("open") is None
    rows = picker.locator("tbody tr[data-path]")
    assert rows.count() == 2
    rows.nth(0).locator("input.select-file").check()
    assert page.locator("#kb-selected-count").inner_text() == "已选 1 个文件"
    assert picker.locator("input.select-all").evaluate("(el) => el.indeterminate")
    rows.nth(1).locator("input.select-file").check()
    assert picker.locator("input.select-all").is_checked()
    assert page.locator("#kb-selected-count").inner_text() == "已选 2 个文件"
    page.locator("#kb-files").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "knowledge-base-bulk.png"))
    demo.locator("summary strong").click()  # the user opens the demo's list too
    assert demo.get_attribute("open") is not None

    page.locator('#kb-bulk [data-action="disable-selected"]').click()
    page.wait_for_function(f"[...document.querySelectorAll('details[data-collection=\"{picker_docs}\"] tbody tr')]"
                           ".every((tr) => tr.dataset.enabled === 'false')")
    assert picker.get_attribute("open") is not None and demo.get_attribute("open") is not None
    assert page.locator("#kb-bulk").is_hidden()
    assert not picker.locator("input.select-file:checked").count()
    assert picker.locator('[data-action="enable-collection"]').is_visible()
    found = httpx.post(f"{kz_server}/v1/kb/search", json={"query": "班车 食堂 发车 午餐", "top_k": 20}).json()
    assert not any(p["source"].startswith(f"{picker_docs}/") for p in found["passages"])

    picker.locator('[data-action="enable-collection"]').click()
    page.wait_for_function(f"[...document.querySelectorAll('details[data-collection=\"{picker_docs}\"] tbody tr')]"
                           ".every((tr) => tr.dataset.enabled === 'true')")
    assert picker.get_attribute("open") is not None and demo.get_attribute("open") is not None

    # not an editor: no boxes, no collection actions
    anon = pages.new(path="/#/kb")
    anon.locator("tr[data-path]").first.wait_for(state="attached")
    assert anon.locator("input.select-file").first.get_attribute("hidden") is not None
    assert anon.locator('[data-action="remove-demo"]').get_attribute("hidden") is not None


def test_remove_demo_documents(pages: Any, picker_docs: str, shots: Path) -> None:
    page = pages.new(key="demo-editor", path="/#/kb")
    page.locator('details.collection[data-collection="demo"]').wait_for()
    page.locator('[data-action="remove-demo"]').click()
    dialog = page.locator(".dialog")
    assert "删除演示文档" in dialog.locator("h2").inner_text()
    assert "demo" in dialog.inner_text()
    dialog.locator("button", has_text="取消").click()
    assert page.locator('details.collection[data-collection="demo"]').count() == 1
    page.locator('[data-action="remove-demo"]').click()
    page.locator("#confirm-action").click()
    page.locator('details.collection[data-collection="demo"]').wait_for(state="detached", timeout=60000)
    assert page.locator(f'details.collection[data-collection="{picker_docs}"]').get_attribute("open") is not None
    page.goto("/#/chat")
    page.locator(f'#kb-picker option[value="{picker_docs}"]').wait_for(state="attached")
    assert page.locator('#kb-picker option[value="demo"]').count() == 0
