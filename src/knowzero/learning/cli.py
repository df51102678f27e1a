"""``knowzero learn "TOPIC"``: generate a learning document and print it (markdown + citations)."""

from __future__ import annotations

import json

import typer

from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.learning.compose import document_markdown
from knowzero.learning.service import LearningService
from knowzero.llm.factory import build_provider
from knowzero.persistence.db import make_engine

LEVELS = ("beginner", "intermediate", "advanced")


def _fail(message: str) -> None:
    """The CLI's one-line error (``error: …``, exit code 2), as in ``knowzero.cli``."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def learn_command(topic: str = typer.Argument(..., help="What to learn, e.g. 首件检验"),
                  level: str = typer.Option("beginner", "--level", help=" | ".join(LEVELS)),
                  json_out: bool = typer.Option(False, "--json", help="Print the document as one JSON object.")) -> None:
    """Generate a learning document from the knowledge base (the demo one when nothing was ingested)."""
    if not topic.strip():
        _fail("the topic is empty")
    if level not in LEVELS:
        _fail(f"--level must be one of {', '.join(LEVELS)} (got {level!r})")
    settings = Settings()
    kb = KnowledgeBase(make_engine(settings.db_url), settings)
    kb.refresh()
    if kb.is_empty():
        typer.echo("ingesting the demo knowledge base (first run)…", err=True)
        kb.ensure_demo()
    svc = LearningService(kb.engine, kb=kb, provider=build_provider(settings), settings=settings)
    doc = svc.generate(topic, level=level)
    if json_out:
        typer.echo(json.dumps(doc, ensure_ascii=False, default=str))
        return
    typer.echo(document_markdown(doc["title"], doc["sections"], with_references=True))
    if doc.get("entities"):
        typer.echo("术语：" + "、".join(e["name"] for e in doc["entities"]))
    if doc.get("follow_ups"):
        typer.echo("可以继续问：\n" + "\n".join(f"- {q}" for q in doc["follow_ups"]))
    if doc.get("id"):
        typer.echo(f"\n(document {doc['id']} · version {doc.get('version')} · {doc.get('elapsed_ms', 0):.0f} ms)", err=True)
