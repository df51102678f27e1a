"""The web UI's Markdown renderer (``web/assets/js/md.js``) run through node: text from the
knowledge base never becomes a link that leaves the app unseen (issue 10, finding 11).

A protocol-relative target (``//evil.example/login``, or ``/\\evil.example``, which browsers read
the same way) looks like an in-app path but opens another site; only absolute http(s) URLs,
``#anchors`` and single-slash in-app paths are rendered as links. Skipped where node is missing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

MD_JS = Path(__file__).resolve().parents[2] / "src" / "knowzero" / "web" / "assets" / "js" / "md.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")


def render(sources: list[str]) -> list[str]:
    script = (f"import {{ renderMarkdown }} from {json.dumps(MD_JS.as_uri())};\n"
              "const input = JSON.parse(process.argv[1]);\n"
              "process.stdout.write(JSON.stringify(input.map((s) => renderMarkdown(s))));\n")
    out = subprocess.run([NODE, "--input-type=module", "-e", script, json.dumps(sources)],  # type: ignore[list-item]
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("target", [
    "//evil.example/login", "/\\evil.example/login", "/\\/evil.example", "https:///evil.example", "https:\\\\evil.example",
    "javascript:alert(1)", "data:text/html,x", "JaVaScRiPt:alert(1)", "vbscript:x", "mailto:a@evil.example",
])
def test_links_that_leave_the_app_unseen_stay_text(target):
    [html] = render([f"登录请访问 [公司门户]({target}) 。"])
    assert "<a " not in html, html
    assert "公司门户" in html


@pytest.mark.parametrize(("target", "external"), [
    ("https://example.com/handbook", True), ("http://intranet.example/a?b=1", True), ("#sec-2", False), ("/docs", False),
])
def test_http_links_anchors_and_in_app_paths_render(target, external):
    [html] = render([f"见 [手册]({target})"])
    assert f'<a href="{target.replace("&", "&amp;")}"' in html, html
    assert ('target="_blank" rel="noopener"' in html) is external


def test_quotes_in_a_target_cannot_break_out_of_the_attribute():
    [html] = render(['[x](https://example.com/"onmouseover="alert(1))'])
    assert 'onmouseover="' not in html and "&quot;" in html
