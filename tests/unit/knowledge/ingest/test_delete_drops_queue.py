"""Issue 25 (review): deleting a document removes its text from the embedding queue (the SQL-table queue
stores each waiting chunk's text; a deleted document's text stayed there and kept being embedded)."""

from __future__ import annotations

from pathlib import Path

from kz_testlib import make_kb


def test_a_deleted_document_leaves_nothing_to_embed(tmp_path: Path) -> None:
    kb = make_kb(tmp_path / "kz")
    added = kb.ingest_bytes("a.md", "# A\n\n甲文档独有的一句话，用来排队嵌入。\n".encode(), collection="c", embed=False).added
    kb.ingest_bytes("b.md", "# B\n\n乙文档独有的另一句话。\n".encode(), collection="c", embed=False)
    before = kb.queue.queued_keys()
    assert before
    assert kb.delete_file(added[0])
    after = kb.queue.queued_keys()
    assert after and after < before  # b's jobs stay, a's are gone
    from sqlalchemy import select

    from knowzero.knowledge.index.tables import kb_embed_queue
    with kb.engine.connect() as conn:
        bodies = conn.execute(select(kb_embed_queue.c.body)).scalars().all()
    assert not any("甲文档" in b for b in bodies) and any("乙文档" in b for b in bodies)
