"""knowledge/text.py's process-wide resources: a team's dictionary comes in through the knowledge base."""

from __future__ import annotations

from pathlib import Path

from knowzero.config import Settings
from knowzero.knowledge import text as kztext
from knowzero.knowledge.kb import KnowledgeBase
from knowzero.persistence.db import make_engine

TERM = "喵星快递柜"  # made up: jieba's dictionary does not know it


def test_a_teams_dictionary_is_handed_in_by_the_knowledge_base_once(tmp_path: Path) -> None:
    assert TERM not in kztext.tokens(f"请把包裹放进{TERM}里", search=False)
    words = tmp_path / "terms.txt"
    words.write_text(f"{TERM} 50 n\n", encoding="utf-8")
    s = Settings(data_dir=tmp_path / "kz", database_url="", user_dict=str(words))
    KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: None)
    assert TERM in kztext.tokens(f"请把包裹放进{TERM}里", search=False)
    loads = kztext._user_dict.cache_info().misses
    KnowledgeBase(make_engine(s.db_url), s, encoder=lambda: None)  # a second container on the same file
    assert kztext._user_dict.cache_info().misses == loads, "the same dictionary file is not added twice"


def test_without_a_dictionary_setting_nothing_is_loaded(tmp_path: Path) -> None:
    kztext.load_user_dict("")
    kztext.load_user_dict(tmp_path / "missing.txt")  # a missing file is ignored, as before
