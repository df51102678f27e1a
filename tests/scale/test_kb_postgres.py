"""The knowledge base on PostgreSQL: ingestion, CSV tables as SQL, hybrid answers, incremental re-ingest."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine
from kz_testlib import answer_dict

pytestmark = pytest.mark.postgres


def _write(folder: Path) -> None:
    (folder / "technical").mkdir(parents=True)
    (folder / "product").mkdir()
    (folder / "technical" / "零件A-XH-1001工艺说明.md").write_text(
        "# 零件A-XH-1001 工艺说明\n\n## 技术要求\n\n零件A的外圆公差为±0.01mm，表面粗糙度Ra0.8。\n", encoding="utf-8")
    (folder / "technical" / "零件B-XH-1002工艺说明.md").write_text(
        "# 零件B-XH-1002 工艺说明\n\n## 技术要求\n\n零件B的外圆公差为±0.05mm，表面粗糙度Ra1.6。\n", encoding="utf-8")
    (folder / "product" / "products.csv").write_text(
        "型号,名称,单价_元,库存\nXH-1001,精密传动轴,68.0,1200\nXH-1002,轻型导向轴,32.0,3500\nXH-7002,关节连接件,880.0,80\n",
        encoding="utf-8")


def test_knowledge_base_on_postgres(pg_url: str, tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", database_url=pg_url)
    assert settings.is_postgres
    kb = KnowledgeBase(make_engine(settings.db_url), settings)
    docs = tmp_path / "docs"
    _write(docs)
    first = kb.ingest_paths([docs], collection="team")
    assert not first.failed and len(first.added) == 3
    again = kb.ingest_paths([docs], collection="team")
    assert again.added == [] and again.updated == [] and len(again.unchanged) == 3, "re-ingesting is a no-op"

    out = asyncio.run(answer_dict("零件A的公差是多少？", kb))
    assert out["verdict"]["level"] == "confirmed"
    assert out["citations"][0]["source"].endswith("零件A-XH-1001工艺说明.md") and "±0.01mm" in out["reply"]
    assert "±0.05mm" not in out["citations"][0]["quote"]

    out = asyncio.run(answer_dict("哪个产品最贵？", kb))
    assert out["citations"][0]["source"].endswith("products.csv") and "XH-7002" in out["citations"][0]["quote"]

    # A second process (another worker) sees the same knowledge base through the database.
    other = KnowledgeBase(make_engine(settings.db_url), settings)
    other.refresh()
    assert set(other.passages) == set(kb.passages) and other.sql is not None
