"""Value types shared by retrieval, reading and checking."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


@dataclass(frozen=True)
class Passage:
    """A citable span: a chunk of a document, or one row of a structured table."""

    id: str
    path: str
    title: str
    section: str
    text: str
    start: int
    end: int
    domain: str
    collection: str
    page: int | None = None
    """The page (or slide) of the document where the span starts; None for a document without pages."""
    ocr: bool = False
    """The span's text was read by OCR from an image (a reader should check the page itself)."""


@dataclass(frozen=True)
class Hit:
    """One retriever's opinion: passage id, its score and rank in that retriever's list."""

    id: str
    score: float
    retriever: str


@dataclass(frozen=True)
class Scored:
    """A fused result: the passage, the fused score and each retriever's contribution."""

    passage: Passage
    score: float
    contributions: dict[str, float] = field(default_factory=dict)


class Retriever(Protocol):
    """What every retriever offers; ``allowed`` restricts to passage ids (collections)."""

    name: str

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]: ...
