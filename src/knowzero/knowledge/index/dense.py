"""Dense retrieval: a numpy matrix of bundled-model embeddings, brute-force cosine.

Embeddings are cached in the database by (model, text) hash, so re-ingesting or rebuilding never
re-embeds unchanged text; the demo knowledge base ships its vectors the same way. At 100k × 384
a brute-force scan is ~5 ms, which beats every embedded ANN option measured here (STACK.md).
In PostgreSQL mode :class:`PgVectorIndex` keeps the vectors in the database (pgvector, HNSW).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
from sqlalchemy import Connection, Engine, text

from knowzero.knowledge.types import Hit


class DenseIndex:
    """Cosine search over L2-normalised vectors.

    >>> idx = DenseIndex(["a", "b"], matrix); idx.search_vector(qvec, k=5)  # doctest: +SKIP
    """

    name = "dense"

    def __init__(self, ids: list[str], matrix: np.ndarray, encode_query=None) -> None:  # type: ignore[no-untyped-def]
        if matrix.ndim != 2 or matrix.shape[0] != len(ids):
            raise ValueError("matrix must be (len(ids), dim)")
        self.ids = ids
        self.matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        self._pos = {pid: i for i, pid in enumerate(ids)}
        self._encode_query = encode_query

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if self._encode_query is None:
            raise ValueError("DenseIndex was built without a query encoder")
        return self.search_vector(self._encode_query(query), k, allowed)

    def search_vector(self, q: np.ndarray, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if not self.ids:
            return []
        scores = self.matrix @ q.astype(np.float32)
        if allowed is not None:
            mask = np.full(len(self.ids), -np.inf, dtype=np.float32)
            idx = [self._pos[p] for p in allowed if p in self._pos]
            mask[idx] = 0
            scores = scores + mask
        k = min(k, len(self.ids))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [Hit(self.ids[i], float(scores[i]), self.name) for i in top if np.isfinite(scores[i])]

    def missing(self, ids: Sequence[str]) -> set[str]:
        """The ids among ``ids`` that have no vector here (yet)."""
        return {i for i in ids if i not in self._pos}

    def similarity(self, q: np.ndarray, pid: str) -> float:
        j = self._pos.get(pid)
        return float(self.matrix[j] @ q) if j is not None else 0.0


def vector_literal(v: np.ndarray) -> str:
    """pgvector's text form of a vector (no client library needed)."""
    return "[" + ",".join(f"{x:.7g}" for x in np.asarray(v, dtype=np.float32).ravel()) + "]"


class _IdView:
    """``ids`` of a :class:`PgVectorIndex`: length and truth from a cached count, iteration from the
    database (callers test ``if idx.ids`` per query; only rare callers iterate)."""

    def __init__(self, index: PgVectorIndex) -> None:
        self._index = index

    def __len__(self) -> int:
        return self._index.count()

    def __bool__(self) -> bool:
        return self._index.count() > 0

    def __iter__(self) -> Iterator[str]:
        return iter(self._index.all_ids())


class PgVectorIndex:
    """Dense search inside PostgreSQL: pgvector with an HNSW index (cosine), nothing held in memory.

    Needs the ``vector`` extension (``scripts/install_pgvector.sh``). The table is made with the
    first vectors' dimension. Filtered searches use pgvector 0.8's iterative index scans, so a
    narrow ``allowed`` still fills ``k``. :meth:`changed` forgets the cached count.

    >>> idx = PgVectorIndex(engine, encode_query=enc.query); idx.add(ids, paths, matrix)  # doctest: +SKIP
    """

    name = "dense"

    def __init__(self, engine: Engine, encode_query=None) -> None:  # type: ignore[no-untyped-def]
        self.engine, self._encode_query = engine, encode_query
        self._count: int | None = None
        with engine.begin() as conn:
            conn.execute(text("CREATE EXTENSION IF NOT EXISTS vector"))

    @staticmethod
    def available(engine: Engine) -> bool:
        """Whether the database can load pgvector (installed on the server)."""
        if engine.dialect.name != "postgresql":
            return False
        with engine.connect() as conn:
            return bool(conn.execute(text("SELECT count(*) FROM pg_available_extensions WHERE name = 'vector'"))
                        .scalar())

    def table_exists(self, conn: Connection) -> bool:
        """Whether ``kb_vectors`` exists yet (it is made with the first vectors)."""
        return self._exists(conn)

    def _exists(self, conn: Connection) -> bool:
        return conn.execute(text("SELECT to_regclass('kb_vectors') IS NOT NULL")).scalar() is True

    def _create(self, conn: Connection, dim: int) -> None:
        conn.execute(text(f"CREATE TABLE IF NOT EXISTS kb_vectors (id TEXT PRIMARY KEY, path TEXT NOT NULL, "
                          f"embedding vector({int(dim)}) NOT NULL)"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_kb_vectors_path ON kb_vectors (path)"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_kb_vectors_hnsw ON kb_vectors "
                          "USING hnsw (embedding vector_cosine_ops)"))

    @property
    def ids(self) -> _IdView:
        return _IdView(self)

    def changed(self) -> None:
        self._count = None

    def count(self) -> int:
        if self._count is None:
            with self.engine.connect() as conn:
                self._count = int(conn.execute(text("SELECT count(*) FROM kb_vectors")).scalar() or 0) \
                    if self._exists(conn) else 0
        return self._count

    def all_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(text("SELECT id FROM kb_vectors")).scalars()) if self._exists(conn) else []

    def add(self, ids: list[str], paths: list[str], matrix: np.ndarray, conn: Connection | None = None) -> None:
        rows = [{"id": i, "path": p, "v": vector_literal(v)} for i, p, v in zip(ids, paths, matrix, strict=True)]
        if not rows:
            return
        sql = text("INSERT INTO kb_vectors (id, path, embedding) VALUES (:id, :path, CAST(:v AS vector)) "
                   "ON CONFLICT (id) DO UPDATE SET path = EXCLUDED.path, embedding = EXCLUDED.embedding")

        def go(c: Connection) -> None:
            self._create(c, int(np.asarray(matrix).shape[1]))
            c.execute(sql, rows)

        if conn is not None:
            go(conn)
        else:
            with self.engine.begin() as c:
                go(c)
        self._count = None

    def remove_path(self, path: str, conn: Connection) -> None:
        if self._exists(conn):
            conn.execute(text("DELETE FROM kb_vectors WHERE path = :p"), {"p": path})
        self._count = None

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if self._encode_query is None:
            raise ValueError("PgVectorIndex was built without a query encoder")
        return self.search_vector(self._encode_query(query), k, allowed)

    def search_vector(self, q: np.ndarray, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if k <= 0 or (allowed is not None and not allowed):
            return []
        params: dict[str, object] = {"q": vector_literal(q), "k": k}
        where = ""
        if allowed is not None:
            where = "WHERE id = ANY(:allowed) "
            params["allowed"] = list(allowed)
        with self.engine.begin() as conn:
            if not self._exists(conn):
                return []
            conn.execute(text("SET LOCAL hnsw.iterative_scan = relaxed_order"))
            rows = conn.execute(text("SELECT id, 1 - (embedding <=> CAST(:q AS vector)) AS s FROM kb_vectors "
                                     f"{where}ORDER BY embedding <=> CAST(:q AS vector) LIMIT :k"), params).all()
        # relaxed_order may return near-ties slightly out of order: the contract is best first
        return [Hit(r.id, float(r.s), self.name) for r in sorted(rows, key=lambda r: (-r.s, r.id))]

    def missing(self, ids: Sequence[str]) -> set[str]:
        """The ids among ``ids`` that have no row in ``kb_vectors`` (yet); one query."""
        if not ids:
            return set()
        with self.engine.connect() as conn:
            if not self._exists(conn):
                return set(ids)
            have = set(conn.execute(text("SELECT id FROM kb_vectors WHERE id = ANY(:ids)"), {"ids": list(ids)}).scalars())
        return set(ids) - have

    def similarity(self, q: np.ndarray, pid: str) -> float:
        with self.engine.connect() as conn:
            if not self._exists(conn):
                return 0.0
            s = conn.execute(text("SELECT 1 - (embedding <=> CAST(:q AS vector)) FROM kb_vectors WHERE id = :id"),
                             {"q": vector_literal(q), "id": pid}).scalar()
        return float(s) if s is not None else 0.0
