"""Hostile Markdown in a real browser (Debian Chromium): answers and document sections are rendered
by markdown-it (raw HTML off) then DOMPurify, and citation markers ``[n]`` become buttons only in
text, never inside a link's URL, a title attribute or code (security finding: ``[a](https://x/[1])``
used to put the cite button's markup into ``href``).

Each hostile payload tries to set ``window.__pwned``; the checks read the rendered DOM: no script
ran, no element or attribute that can run one, every ``href`` an http(s)/mailto URL or an in-app
``#``/``/`` path without markup, and ``.cite`` buttons only where the reader sees ``[n]`` as text.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PWN = "window.__pwned=1"

# name -> (markdown, expected number of cite buttons, expected number of links)
HOSTILE: dict[str, tuple[str, int, int]] = {
    "cite_in_link_url": (
        "[a](https://x.example/[1]) and [b](https://x.example/?q=[2] \"t [3]\") then text [4]", 1, 2),
    "javascript_links": (
        f"[j1](javascript:{PWN}) [j2](JAVASCRIPT:{PWN}) [j3](jav&#x61;script:{PWN}) [j4]( javascript:{PWN})"
        f" [j5](<javascript:{PWN}>) <javascript:{PWN}> [j6](vbscript:{PWN}) [j7](%6Aavascript:{PWN})", 0, 0),
    "raw_html": (
        f"<script>{PWN}</script>\n\n<img src=x onerror=\"{PWN}\">\n\ninline <b onmouseover=\"{PWN}\">b</b>"
        f" <iframe src=\"javascript:{PWN}\"></iframe> <a href=\"javascript:{PWN}\">x</a> [1]", 1, 0),
    "svg_onload": (
        f"<svg onload=\"{PWN}\"><script>{PWN}</script></svg>\n\n"
        f"<math><mtext><table><mglyph><style><img src=x onerror={PWN}></style></mglyph></table></mtext></math>", 0, 0),
    "data_urls": (
        "[d](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)"
        " ![i](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9IndpbmRvdy5fX3B3bmVkPTEiLz4=)"
        " ![p](data:image/png;base64,iVBORw0KGgo=) <data:text/html,x>", 0, 0),
    "markdown_in_title": (
        f"[t](https://x.example/ \"**bold** <img src=x onerror={PWN}> [1] \\\" onmouseover={PWN} x=\\\"\")", 0, 1),
    "protocol_relative": ("[p](//evil.example) [q](/\\evil.example) [r](https:evil.example) [s](file:///etc/passwd)", 0, 0),
    # links that would leave the app unseen stay text (issue 10, finding 11; mailto: included)
    "leaves_the_app": (" ".join(f"[公司门户]({t})" for t in (
        "//evil.example/login", "/\\evil.example/login", "/\\/evil.example", "https:///evil.example", "https:\\\\evil.example",
        "JaVaScRiPt:alert(1)", "data:text/html,x", "mailto:a@evil.example", "<mailto:a@evil.example>")) + " <a@evil.example>", 0, 0),
    "quotes_in_target": ('[x](https://example.com/"onmouseover="alert(1)) [y](https://example.com/\'onfocus=\'x)', 0, 2),
    "cite_in_code": (f"`[1]` and\n\n```\n[2] <img src=x onerror={PWN}>\n```\n\n    [5] indented\n\ntext [3]", 1, 0),
    "reference_definition": ("[1]: https://evil.example\n\nsee [1]", 2, 0),
    "cite_in_link_text": ("[see [1]](https://x.example/) and [1]", 1, 1),
}

# The rendered container's report: what a reader (or an attacker) can get out of it.
INSPECT = """(root) => {
    const ok = new Set(['P','BR','STRONG','EM','S','CODE','PRE','A','H1','H2','H3','H4','H5','H6','UL','OL','LI',
                        'BLOCKQUOTE','HR','TABLE','THEAD','TBODY','TR','TH','TD','DIV','BUTTON']);
    const els = [...root.querySelectorAll('*')];
    return {
        pwned: window.__pwned === 1,
        tags: [...new Set(els.map((e) => e.tagName))].filter((t) => !ok.has(t)),
        onAttrs: els.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => e.tagName + '.' + a.name)),
        badAttrs: els.flatMap((e) => [...e.attributes].filter((a) => /<button|data-n=|class="cite/i.test(a.value)).map((a) => a.name + '=' + a.value)),
        hrefs: [...root.querySelectorAll('a')].map((a) => ({raw: a.getAttribute('href'), protocol: a.href ? new URL(a.href).protocol : null,
                                                            host: a.href ? new URL(a.href).host : null, rel: a.rel, target: a.target, cls: a.className})),
        srcs: els.filter((e) => e.hasAttribute('src') || e.hasAttribute('srcset') || e.hasAttribute('xlink:href')).map((e) => e.outerHTML),
        cites: [...root.querySelectorAll('.cite')].map((b) => ({tag: b.tagName, n: b.dataset.n, text: b.textContent,
                                                                inside: !!b.parentElement.closest('a, code, pre')})),
    };
}"""


def _check(report: dict[str, Any], cites: int, links: int, origin: str) -> None:
    assert not report["pwned"], "a hostile payload ran"
    assert report["tags"] == [], report["tags"]
    assert report["onAttrs"] == [], report["onAttrs"]
    assert report["badAttrs"] == [], report["badAttrs"]
    assert report["srcs"] == [], report["srcs"]
    for a in report["hrefs"]:
        raw = a["raw"] or ""
        assert re.match(r"^(https?://[^/\\%]|#|/(?![/\\]|%5c))", raw, re.I), a
        assert not re.search(r"[<>\"\s]", raw), a
        assert a["protocol"] in ("http:", "https:"), a
        assert a["host"] != "evil.example", a
        assert "cite" not in a["cls"], a
        if not raw.startswith(("#", "/")):
            assert a["target"] == "_blank" and set(a["rel"].split()) >= {"noopener", "noreferrer"}, a
    assert len(report["hrefs"]) == links, report["hrefs"]
    assert len(report["cites"]) == cites, report["cites"]
    for c in report["cites"]:
        assert c["tag"] == "BUTTON" and not c["inside"] and c["text"] == c["n"] and c["n"].isdigit(), c
    assert origin


def _render(page: Any, markdown: str, opts: dict[str, Any] | None = None) -> dict[str, Any]:
    """Render with the UI's own renderer (md.js) into a container in the page; returns its report."""
    page.evaluate("""async ([md, opts]) => {
        const { renderMarkdown } = await import('/assets/js/md.js');
        let box = document.getElementById('md-test');
        if (!box) { box = document.createElement('div'); box.id = 'md-test'; document.body.append(box); }
        box.innerHTML = renderMarkdown(md, opts);
    }""", [markdown, opts or {}])
    page.wait_for_timeout(50)  # an <img onerror> / <svg onload> would fire by now
    page.evaluate("document.querySelectorAll('#md-test *').forEach((e) => e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true})))")
    return page.evaluate(f"({INSPECT})(document.getElementById('md-test'))")


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_markdown_renderer(pages: Any, name: str) -> None:
    page = pages.new()
    page.locator("#composer").wait_for()
    markdown, cites, links = HOSTILE[name]
    _check(_render(page, markdown, {"citeLabel": "source"}), cites, links, name)
    _check(_render(page, markdown, {"shiftHeadings": 2}), cites, links, name)  # the reader's options
    _check(_render(page, markdown, {"cites": False}), 0, links, name)  # the console's options
    assert page.evaluate("window.__pwned") is None


def test_hostile_markdown_cite_in_url_keeps_the_url(pages: Any) -> None:
    page = pages.new()
    page.locator("#composer").wait_for()
    _render(page, HOSTILE["cite_in_link_url"][0])
    links = page.evaluate("[...document.querySelectorAll('#md-test a')].map((a) => [a.textContent, a.getAttribute('href'), a.title])")
    assert links == [["a", "https://x.example/%5B1%5D", ""], ["b", "https://x.example/?q=%5B2%5D", "t [3]"]]
    assert page.locator("#md-test").inner_text().strip() == "a and b then text 4"
    _render(page, HOSTILE["markdown_in_title"][0])
    title = page.evaluate("document.querySelector('#md-test a').title")
    assert title == f'**bold** <img src=x onerror={PWN}> [1] " onmouseover={PWN} x="'


def test_markdown_features_kept(pages: Any) -> None:
    """What the hand-written renderer did still works: headings (shifted in the reader), paragraphs
    with line breaks, nested lists, tables in .table-wrap, code blocks, quotes, rules, emphasis (also
    next to Chinese punctuation), safe links (external ones open in a new tab), in-app links (mailto:
    stays text), citation buttons with their label."""
    page = pages.new()
    page.locator("#composer").wait_for()
    md = ("# Title [1]\n\nline one **bold** *it* `code [2]`\nline two [3]\n\n"
          "- a [1]\n  - nested\n- b\n\n1. first\n2. second\n\n"
          "| k | v |\n|---|---|\n| 公差 [2] | ±0.01mm |\n\n"
          "```\ncode [9]\n```\n\n> quoted [1]\n\n---\n\n"
          "[ext](https://example.com/a) [anchor](#sec-1) [path](/#/doc/1) [mail](mailto:a@example.com)")
    _check(_render(page, md, {"citeLabel": "来源", "shiftHeadings": 2}), 5, 3, "features")
    r = page.evaluate("""() => {
        const b = document.getElementById('md-test'), q = (s) => b.querySelector(s);
        return {h: q('h3') && q('h3').textContent, br: b.querySelectorAll('p br').length, strong: q('p strong').textContent,
                em: q('p em').textContent, code: q('p code').textContent, nested: b.querySelectorAll('ul ul li').length,
                ol: b.querySelectorAll('ol li').length, th: [...b.querySelectorAll('.table-wrap table th')].map((x) => x.textContent),
                td: q('.table-wrap td').textContent, pre: q('pre code').textContent, quote: q('blockquote').textContent.trim(),
                hr: b.querySelectorAll('hr').length, label: q('.cite').getAttribute('aria-label'), type: q('.cite').type,
                links: [...b.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.target, a.rel])};
    }""")
    assert r["h"] == "Title 1" and r["br"] == 1 and r["strong"] == "bold" and r["em"] == "it"
    assert r["code"] == "code [2]" and r["pre"] == "code [9]\n" and r["quote"] == "quoted 1"
    assert r["nested"] == 1 and r["ol"] == 2 and r["th"] == ["k", "v"] and r["td"] == "公差 2" and r["hr"] == 1
    assert r["label"] == "来源 1" and r["type"] == "button"
    assert r["links"] == [["ext", "https://example.com/a", "_blank", "noopener noreferrer"], ["anchor", "#sec-1", "", ""],
                          ["path", "/#/doc/1", "", ""]]
    _render(page, "# H\n\n[1]", {})
    assert page.evaluate("!!document.querySelector('#md-test h1')")
    _render(page, "**注意：**请看[1]，**“引用”**的内容")  # bold beside full-width punctuation (CJK-friendly)
    assert page.evaluate("[...document.querySelectorAll('#md-test strong')].map((x) => x.textContent)") == ["注意：", "“引用”"]


THREAD = "kz-md-hostile"
CITATION = {"n": 1, "source": "demo_kb/technical/零件A-XH-1001工艺说明.md", "title": "零件A工艺说明",
            "quote": "零件A的公差为±0.01mm", "start": 569, "end": 583}
REPLY = "\n\n".join([
    "零件A的公差是±0.01mm。[1]",
    HOSTILE["cite_in_link_url"][0].replace("[4]", "[1]"),
    HOSTILE["javascript_links"][0],
    HOSTILE["raw_html"][0],
    HOSTILE["svg_onload"][0],
    HOSTILE["data_urls"][0],
    HOSTILE["markdown_in_title"][0],
])


def test_hostile_reply_in_chat_turn(pages: Any) -> None:
    """The whole path: a streamed reply (live turn) and the same reply reloaded from the thread
    (stored turn); the text citation still opens its source."""
    page = pages.new()
    page.locator("#composer").wait_for()
    stored = {"thread_id": THREAD, "summary": "", "topic": "", "state": {}, "interrupted": False, "pending": [],
              "messages": [{"id": "u1", "role": "user", "content": "hostile"},
                           {"id": "a1", "role": "assistant", "content": REPLY, "meta": {"citations": [CITATION]}}]}
    sse = ('event: intent_classified\ndata: {"intent": "knowledge", "confidence": 1, "method": "rule", "elapsed_ms": 0.1}\n\n'
           f"event: done\ndata: {json.dumps({'reply': REPLY, 'elapsed_ms': 1.0})}\n\n")
    page.route("**/v1/chat", lambda route: route.fulfill(
        status=200, headers={"Content-Type": "text/event-stream", "X-Thread-Id": THREAD}, body=sse))
    page.route(re.compile(rf".*/v1/threads/{THREAD}$"), lambda route: route.fulfill(json=stored))
    page.fill("#composer", "hostile")
    page.press("#composer", "Enter")
    answer = page.locator("article.turn:not(.stored) .answer")
    answer.locator(".cite").first.wait_for()
    page.locator("article.turn:not(.stored) .refs").wait_for()
    page.wait_for_timeout(100)
    _check(page.evaluate(f"({INSPECT})(document.querySelector('article.turn:not(.stored) .answer'))"), 3, 3, "live")
    answer.locator(".cite").first.click()
    assert "±0.01" in page.locator(".source-dialog mark.cited").inner_text()
    page.keyboard.press("Escape")

    page.reload()
    stored_answer = page.locator("article.turn.stored .answer")
    stored_answer.locator(".cite").first.wait_for()
    page.wait_for_timeout(100)
    _check(page.evaluate(f"({INSPECT})(document.querySelector('article.turn.stored .answer'))"), 3, 3, "stored")
    assert page.evaluate("window.__pwned") is None
