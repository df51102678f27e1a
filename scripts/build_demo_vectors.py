"""Precompute the bundled model's vectors for the demo knowledge base (src/knowzero/demo_kb/_vectors.npz).

Run after editing the demo documents: ``python scripts/build_demo_vectors.py``. The vectors are
keyed exactly like the embedding cache (model + text hash), so a fresh install answers on the
demo at once; any chunk whose text changed is simply embedded at ingest time instead.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

from knowzero.config import Settings
from knowzero.knowledge.kb import KnowledgeBase, demo_kb_path, embed_body, vector_key
from knowzero.persistence.db import make_engine


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        s = Settings(data_dir=Path(tmp))
        kb = KnowledgeBase(make_engine(s.db_url), s)
        kb.ingest_paths([demo_kb_path()], collection="demo",
                        progress=lambda a, b: print(f"{a}/{b}", file=sys.stderr))
        keys = [vector_key(embed_body(p)) for p in kb.passages.values()]
        vecs = kb._cached_vectors(keys)
        keys = [k for k in keys if k in vecs]
        out = demo_kb_path() / "_vectors.npz"
        np.savez_compressed(out, keys=np.array(keys), vectors=np.vstack([vecs[k] for k in keys]).astype(np.float32))
        print(f"wrote {len(keys)} vectors to {out}")


if __name__ == "__main__":
    main()
