"""The graph's wiring, as a mermaid snapshot, so a wiring change shows up in review.

To regenerate after an intended change (then review the diff of graph.mmd):

    knowzero graph > tests/graph/graph.mmd
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from knowzero.graph.builder import build_graph

SNAPSHOT = Path(__file__).with_name("graph.mmd")


def current() -> str:
    return build_graph().compile().get_graph(xray=1).draw_mermaid()


def test_mermaid_matches_the_snapshot() -> None:
    assert current() == SNAPSHOT.read_text("utf-8"), (
        "the graph's wiring changed: regenerate with `knowzero graph > tests/graph/graph.mmd` and review the diff")


def test_every_path_is_wired_from_decide_path() -> None:
    text = SNAPSHOT.read_text("utf-8")
    for target in ("chitchat", "clarify", "knowledge\\3a__start__", "learning", "react", "service"):
        assert f"decide_path -.-> {target};" in text
    assert "knowledge\\3a__start__ --> knowledge\\3aroute_domain;" in text
    assert "knowledge\\3aretrieve --> knowledge\\3aread;" in text, "retrieval (its retry loop inside the node) then reading"
    assert "knowledge\\3areread --> knowledge\\3aroute_domain;" in text, "the other language's reading"
    assert "finish --> __end__;" in text


def test_cli_prints_the_same_mermaid() -> None:
    from knowzero.cli import app

    result = CliRunner().invoke(app, ["graph"])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == current().strip()
