"""Keyword retrieval: Okapi BM25 over Chinese-aware tokens, kept by a database engine on disk.

Chunks are segmented once, at ingest (jieba + whole Latin/part-number tokens, title and section
path indexed with the text), and written to a full-text index in the knowledge base's own
database, in the same transaction as the chunk rows — so an index is never behind its chunks,
updates are incremental (a changed file replaces only its own rows) and a process start loads
nothing. Two engines behind one class interface:

- :class:`Fts5Index` (embedded SQLite): an FTS5 table over the space-joined tokens, ranked by
  FTS5's ``bm25()`` (k1=1.2, b=0.75); document frequencies from an ``fts5vocab`` table.
- :class:`PgTextIndex` (PostgreSQL): the tokens as a ``tsvector`` (positions give term
  frequencies) with a GIN index; candidates by ``@@``, ranked by BM25 computed in SQL.

Both give :meth:`term_idf` / :meth:`has_term` (the reader, the coverage check and the key-term
rewrite need them) with the same IDF formula as before: ``log(1 + (N - df + 0.5) / (df + 0.5))``.

    idx = open_index(engine); idx.add(passages); idx.search("零件A 公差", k=5)
"""

from __future__ import annotations

import math
import threading
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from sqlalchemy import Connection, Engine, text

from knowzero.knowledge.index.vocabulary import resegmented
from knowzero.knowledge.text import tokens
from knowzero.knowledge.types import Hit, Passage

K1, B = 1.2, 0.75
_IN_LIMIT = 900  # allowed ids passed as SQL parameters up to this many; more are filtered while reading


def passage_tokens(p: Passage) -> list[str]:
    return tokens(f"{p.title} {p.section} {p.text}")


def _idf(n: int, df: int) -> float:
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


class _Base(ABC):
    """What both engines share: the statistics cache and the engine/connection plumbing. Each engine
    (SQLite FTS5, PostgreSQL tsvector) implements the abstract methods below."""

    name = "keyword"

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._lock = threading.Lock()
        self._df: dict[str, int] = {}
        self._n: int | None = None
        with engine.begin() as conn:
            self.ensure_schema(conn)

    # -- engine specific --
    @abstractmethod
    def ensure_schema(self, conn: Connection) -> None:
        ...

    @abstractmethod
    def _count(self, conn: Connection) -> int:
        ...

    @abstractmethod
    def _doc_freq(self, conn: Connection, term: str) -> int:
        ...

    @abstractmethod
    def _spaced(self, conn: Connection, word: str) -> bool:
        ...

    @abstractmethod
    def add(self, passages: Iterable[Passage], conn: Connection | None = None) -> int:
        ...

    @abstractmethod
    def remove_path(self, path: str, conn: Connection) -> None:
        ...

    @abstractmethod
    def reset(self, conn: Connection | None = None) -> None:
        ...

    @abstractmethod
    def search_tokens(self, qtoks: list[str], k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        ...

    # -- shared --
    def changed(self) -> None:
        """Forget cached statistics (the knowledge base calls this when its revision moves)."""
        with self._lock:
            self._df.clear()
            self._n = None

    def count(self) -> int:
        with self._lock:
            if self._n is not None:
                return self._n
        with self.engine.connect() as conn:
            n = self._count(conn)
        with self._lock:
            self._n = n
        return n

    def doc_freq(self, term: str) -> int:
        with self._lock:
            df = self._df.get(term)
        if df is None:
            with self.engine.connect() as conn:
                df = self._doc_freq(conn, term)
            with self._lock:
                if len(self._df) > 50_000:
                    self._df.clear()
                self._df[term] = df
        return df

    def has_term(self, term: str) -> bool:
        return self.doc_freq(term) > 0

    def term_idf(self, term: str) -> float:
        """IDF of a term; unseen terms get the maximum (they are rare by definition)."""
        n = self.count()
        df = self.doc_freq(term)
        return _idf(n, df) if df else math.log(1 + (n + 0.5) / 0.5)

    def spaced(self, word: str) -> bool:
        """Some chunk holds a word of ``word``'s two characters with one between (年休假 for 年假): one lookup in the
        index's own vocabulary, remembered until the index changes (the cheap test before a collection is searched)."""
        key = f"\x01{word}"
        with self._lock:
            got = self._df.get(key)
        if got is None:
            with self.engine.connect() as conn:
                got = int(self._spaced(conn, word))
            with self._lock:
                self._df[key] = got
        return bool(got)

    def words(self, words: list[str]) -> list[str]:
        """A question's words re-cut where the segmenter glued across indexed words (:func:`vocabulary.resegmented`);
        an English word the documents write only in the other number in that number (:func:`number_form`)."""
        return [w if w.isascii() and not w.isalpha() or self.has_term(w) else number_form(w, self.has_term) or w
                for w in resegmented(words, self.has_term)]

    def search(self, query: str, k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        qtoks = tokens(query)
        extra = [w for w in dict.fromkeys(self.words(tokens(query, search=False))) if w not in qtoks and len(w) >= 2]
        return self.search_tokens(qtoks + extra, k, allowed)

    def _write(self, conn: Connection | None, fn: Any) -> Any:
        if conn is not None:
            return fn(conn)
        with self.engine.begin() as c:
            return fn(c)


def number_form(word: str, indexed: Callable[[str], bool]) -> str:
    """The documents' singular or plural of an English word they do not write as asked ("bowsprit" → "bowsprits"
    when only the plural is indexed), or "".

    >>> number_form("bowsprit", {"bowsprits"}.__contains__), number_form("lockers", {"locker"}.__contains__)
    ('bowsprits', 'locker')
    >>> number_form("take", {"takes"}.__contains__)
    ''
    >>> number_form("bus", {"bu"}.__contains__), number_form("class", {"clas"}.__contains__)
    ('', '')
    """
    if len(word) < 6:
        return ""  # a short word is as often a verb ("take", "book", "comes") whose other form names another thing
    forms = [word + "s", word + "es"] + ([word[:-2]] if word.endswith("es") else []) + \
        ([word[:-1]] if word.endswith("s") and not word.endswith("ss") else [])
    return next((f for f in forms if len(f) >= 3 and indexed(f)), "")


def _fts_phrase(tok: str) -> str:
    return '"' + tok.replace('"', '""') + '"'


class Fts5Index(_Base):
    """SQLite FTS5 over pre-segmented tokens (one column: title, section and text)."""

    def ensure_schema(self, conn: Connection) -> None:
        # Tokens are already segmented and lower-cased: split on spaces only, keep part-number
        # punctuation inside tokens (non-ASCII characters are always token characters here).
        conn.exec_driver_sql(
            "CREATE VIRTUAL TABLE IF NOT EXISTS kb_fts USING fts5(body, tokenize=\"ascii tokenchars '+_-.%/#'\")")
        conn.exec_driver_sql("CREATE VIRTUAL TABLE IF NOT EXISTS kb_fts_vocab USING fts5vocab(kb_fts, row)")
        conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS kb_fts_ids (rowid INTEGER PRIMARY KEY, "
                             "id TEXT NOT NULL UNIQUE, path TEXT NOT NULL)")
        conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_kb_fts_ids_path ON kb_fts_ids(path)")

    def _count(self, conn: Connection) -> int:
        return int(conn.exec_driver_sql("SELECT count(*) FROM kb_fts_ids").scalar() or 0)

    def _doc_freq(self, conn: Connection, term: str) -> int:
        row = conn.exec_driver_sql("SELECT doc FROM kb_fts_vocab WHERE term = ?", (term,)).first()
        return int(row[0]) if row else 0

    def _spaced(self, conn: Connection, word: str) -> bool:
        # a range of the vocabulary's own order (fts5vocab answers term ranges without a scan)
        rows = conn.exec_driver_sql("SELECT term FROM kb_fts_vocab WHERE term > ? AND term < ?",
                                    (word[0], chr(ord(word[0]) + 1))).scalars()
        return any(len(t) == 3 and t[2] == word[1] for t in rows)

    def add(self, passages: Iterable[Passage], conn: Connection | None = None) -> int:
        rows = [(p.id, p.path, " ".join(passage_tokens(p))) for p in passages]

        def go(c: Connection) -> int:
            raw = c.connection.driver_connection
            assert raw is not None
            cur = raw.cursor()
            for pid, path, body in rows:
                cur.execute("SELECT rowid FROM kb_fts_ids WHERE id = ?", (pid,))
                old = cur.fetchone()
                if old is not None:
                    cur.execute("DELETE FROM kb_fts WHERE rowid = ?", (old[0],))
                    cur.execute("DELETE FROM kb_fts_ids WHERE rowid = ?", (old[0],))
                cur.execute("INSERT INTO kb_fts_ids (id, path) VALUES (?, ?)", (pid, path))
                cur.execute("INSERT INTO kb_fts (rowid, body) VALUES (?, ?)", (cur.lastrowid, body))
            cur.close()
            return len(rows)

        return int(self._write(conn, go))

    def remove_path(self, path: str, conn: Connection) -> None:
        conn.exec_driver_sql("DELETE FROM kb_fts WHERE rowid IN (SELECT rowid FROM kb_fts_ids WHERE path = ?)",
                             (path,))
        conn.exec_driver_sql("DELETE FROM kb_fts_ids WHERE path = ?", (path,))

    def reset(self, conn: Connection | None = None) -> None:
        def go(c: Connection) -> None:
            c.exec_driver_sql("DELETE FROM kb_fts")
            c.exec_driver_sql("DELETE FROM kb_fts_ids")
        self._write(conn, go)
        self.changed()

    def _avgdl(self) -> float:
        avg = self._avg
        if avg is None:
            with self.engine.connect() as conn:
                total = conn.exec_driver_sql("SELECT coalesce(sum(cnt), 0) FROM kb_fts_vocab").scalar() or 0
            avg = self._avg = max(float(total) / max(self.count(), 1), 1.0)
        return avg

    _avg: float | None = None

    def changed(self) -> None:
        super().changed()
        self._avg = None

    def search_tokens(self, qtoks: list[str], k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        """FTS5 finds and orders candidates; the best ``max(3k, 60)`` are rescored with the exact BM25
        of :func:`bm25_scores` (FTS5's own IDF floors terms in over half the chunks at zero)."""
        if not qtoks or k <= 0 or (allowed is not None and not allowed):
            return []
        # Repeated query terms stay repeated: each occurrence adds its BM25 term again (query tf).
        match = " OR ".join(_fts_phrase(t) for t in qtoks)
        sql = ("SELECT m.id, kb_fts.body, bm25(kb_fts) AS s FROM kb_fts JOIN kb_fts_ids m ON m.rowid = kb_fts.rowid "
               "WHERE kb_fts MATCH ?")
        params: list[Any] = [match]
        small = allowed is not None and len(allowed) <= _IN_LIMIT
        if small:
            assert allowed is not None
            sql += f" AND m.id IN ({','.join('?' * len(allowed))})"
            params.extend(sorted(allowed))
        depth = max(3 * k, 60)
        sql += " ORDER BY s, m.id"
        if allowed is None or small:
            sql += " LIMIT ?"
            params.append(depth)
        cands: list[tuple[str, list[str]]] = []
        with self.engine.connect() as conn:
            for pid, body, _ in conn.exec_driver_sql(sql, tuple(params)):
                if allowed is not None and pid not in allowed:
                    continue
                cands.append((pid, body.split(" ")))
                if len(cands) >= depth:
                    break
            if not cands:
                return []
            with self._lock:
                missing = [t for t in set(qtoks) if t not in self._df]
            dfs = {t: self._doc_freq(conn, t) for t in missing}
            with self._lock:
                self._df.update(dfs)
        n = self.count()
        idf = {t: _idf(n, self.doc_freq(t)) for t in set(qtoks)}
        scored = bm25_scores(Counter(qtoks), cands, idf, self._avgdl())
        scored.sort(key=lambda x: (-x[1], x[0]))
        return [Hit(pid, s, self.name) for pid, s in scored[:k] if s > 0]


def bm25_scores(qtf: Counter[str], docs: list[tuple[str, list[str]]], idf: dict[str, float],
                avgdl: float) -> list[tuple[str, float]]:
    """Okapi BM25 (k1=1.2, b=0.75) of each (id, tokens) for query term counts ``qtf``."""
    out = []
    for pid, toks in docs:
        tf = Counter(toks)
        norm = K1 * (1 - B + B * max(len(toks), 1) / avgdl)
        out.append((pid, sum(idf[t] * q * tf[t] * (K1 + 1) / (tf[t] + norm) for t, q in qtf.items() if t in tf)))
    return out


_MAX_POSITIONS = 16383  # a tsvector position's upper bound: later tokens are not indexed


def _tsv_lexeme(tok: str) -> str:
    return "'" + tok.replace("\\", "\\\\").replace("'", "''") + "'"


def tsvector_text(toks: list[str]) -> str:
    """A ``tsvector`` literal whose positions carry each token's frequency (lexemes verbatim)."""
    pos: dict[str, list[int]] = {}
    for i, t in enumerate(toks[:_MAX_POSITIONS], start=1):
        pos.setdefault(t, []).append(i)
    return " ".join(f"{_tsv_lexeme(t)}:{','.join(map(str, ps[:256]))}" for t, ps in pos.items())


class PgTextIndex(_Base):
    """PostgreSQL full text: jieba tokens in a ``tsvector`` (GIN), BM25 computed in SQL.

    Document frequencies live in ``kb_kw_df`` (term → chunks containing it), kept in the same
    transaction as the rows (added on insert, subtracted on delete), so a query's statistics are
    one indexed lookup instead of a count over the GIN index per term. Top-k is exact BM25 with a
    MaxScore shortcut: chunks matching one of the query's rarer terms are scored first; a chunk
    holding only the other, commoner terms cannot score more than ``Σ idf·qtf·(k1+1)`` over those
    terms, so when the k-th score already reaches that bound the answer is final. Rarer means in at
    most 1/200 of the chunks, then at most 1/20; failing both, every matching chunk is scored.
    """

    TIERS = (200, 20)
    """Rare-term cut-offs (a term in at most n/tier chunks is rare): a speed split, results are exact."""

    def ensure_schema(self, conn: Connection) -> None:
        conn.execute(text("CREATE TABLE IF NOT EXISTS kb_kw (id TEXT PRIMARY KEY, path TEXT NOT NULL, "
                          "len INTEGER NOT NULL, body TSVECTOR NOT NULL)"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_kb_kw_body ON kb_kw USING GIN (body)"))
        conn.execute(text("CREATE INDEX IF NOT EXISTS ix_kb_kw_path ON kb_kw (path)"))
        conn.execute(text("CREATE TABLE IF NOT EXISTS kb_kw_df (term TEXT PRIMARY KEY, df INTEGER NOT NULL)"))
        if conn.execute(text("SELECT NOT EXISTS (SELECT 1 FROM kb_kw_df) AND EXISTS (SELECT 1 FROM kb_kw)")).scalar():
            # an index from before the statistics table: count once from the index itself
            conn.execute(text("INSERT INTO kb_kw_df (term, df) SELECT word, ndoc FROM ts_stat('SELECT body FROM kb_kw') "
                              "ON CONFLICT (term) DO NOTHING"))

    def _count(self, conn: Connection) -> int:
        return int(conn.execute(text("SELECT count(*) FROM kb_kw")).scalar() or 0)

    def _avgdl(self, conn: Connection) -> float:
        return float(conn.execute(text("SELECT coalesce(avg(len), 1) FROM kb_kw")).scalar() or 1.0)

    def _doc_freq(self, conn: Connection, term: str) -> int:
        return int(conn.execute(text("SELECT df FROM kb_kw_df WHERE term = :t"), {"t": term}).scalar() or 0)

    def _spaced(self, conn: Connection, word: str) -> bool:
        return conn.execute(text("SELECT 1 FROM kb_kw_df WHERE term LIKE :p AND df > 0 LIMIT 1"),
                            {"p": f"{word[0]}_{word[1]}"}).first() is not None

    def doc_freqs(self, terms: list[str]) -> dict[str, int]:
        """Document frequencies of ``terms`` (one query for those not cached)."""
        with self._lock:
            out = {t: self._df[t] for t in terms if t in self._df}
        missing = [t for t in terms if t not in out]
        if missing:
            with self.engine.connect() as conn:
                found: dict[str, int] = dict(conn.execute(text("SELECT term, df FROM kb_kw_df WHERE term = ANY(:t)"),
                                          {"t": missing}).tuples().all())
            got = {t: max(int(found.get(t, 0)), 0) for t in missing}
            with self._lock:
                if len(self._df) > 50_000:
                    self._df.clear()
                self._df.update(got)
            out |= got
        return out

    _avg: float | None = None

    def changed(self) -> None:
        super().changed()
        self._avg = None

    def avgdl(self) -> float:
        avg = self._avg
        if avg is None:
            with self.engine.connect() as conn:
                avg = self._avg = self._avgdl(conn)
        return avg

    @staticmethod
    def _forget(c: Connection, where: str, params: dict[str, Any]) -> None:
        """Delete rows and subtract their terms from the document frequencies. The frequency rows are locked
        in term order first, as :meth:`add` upserts them, so two concurrent writers cannot deadlock."""
        c.execute(text("SELECT d.term FROM kb_kw_df d WHERE d.term IN (SELECT u.lexeme FROM kb_kw k, "  # noqa: S608
                       f"unnest(k.body) AS u(lexeme, positions, weights) WHERE {where}) ORDER BY d.term FOR UPDATE"),
                  params)
        c.execute(text(f"WITH gone AS (DELETE FROM kb_kw WHERE {where} RETURNING body), "  # noqa: S608 - fixed SQL
                       "t AS (SELECT u.lexeme, count(*) AS n FROM gone, unnest(gone.body) AS u(lexeme, positions, weights) "
                       "GROUP BY u.lexeme) UPDATE kb_kw_df d SET df = d.df - t.n FROM t WHERE d.term = t.lexeme"), params)

    def add(self, passages: Iterable[Passage], conn: Connection | None = None) -> int:
        rows = []
        df: Counter[str] = Counter()
        for p in passages:
            toks = passage_tokens(p)
            rows.append({"id": p.id, "path": p.path, "len": max(len(toks), 1), "body": tsvector_text(toks)})
            df.update(set(toks[:_MAX_POSITIONS]))
        terms = sorted(df)

        def go(c: Connection) -> int:
            if rows:
                self._forget(c, "id = ANY(:ids)", {"ids": [r["id"] for r in rows]})
                c.execute(text("INSERT INTO kb_kw (id, path, len, body) VALUES (:id, :path, :len, "
                               "CAST(:body AS tsvector))"), rows)
                c.execute(text("INSERT INTO kb_kw_df (term, df) SELECT * FROM unnest(CAST(:terms AS text[]), "
                               "CAST(:dfs AS int[])) ON CONFLICT (term) DO UPDATE SET df = kb_kw_df.df + EXCLUDED.df"),
                          {"terms": terms, "dfs": [df[t] for t in terms]})
            return len(rows)

        return int(self._write(conn, go))

    def remove_path(self, path: str, conn: Connection) -> None:
        self._forget(conn, "path = :p", {"p": path})

    def reset(self, conn: Connection | None = None) -> None:
        def go(c: Connection) -> None:
            c.execute(text("DELETE FROM kb_kw"))
            c.execute(text("DELETE FROM kb_kw_df"))
        self._write(conn, go)
        self.changed()

    def search_tokens(self, qtoks: list[str], k: int, allowed: frozenset[str] | None = None) -> list[Hit]:
        if not qtoks or k <= 0 or (allowed is not None and not allowed):
            return []
        qtf = Counter(qtoks)
        terms = list(qtf)
        dfs = self.doc_freqs(terms)
        live = [t for t in terms if dfs[t] > 0]
        if not live:
            return []
        n = self.count()
        idf = {t: _idf(n, dfs[t]) for t in terms}
        tried: set[tuple[str, ...]] = set()
        for tier in self.TIERS:
            rare = tuple(t for t in live if dfs[t] * tier <= n)
            common = [t for t in live if dfs[t] * tier > n]
            if not rare or not common or rare in tried:
                continue
            tried.add(rare)
            hits = self._bm25(list(rare), terms, qtf, idf, k, allowed)
            bound = sum(idf[t] * qtf[t] * (K1 + 1) for t in common)
            if len(hits) >= k and hits[k - 1].score >= bound:
                return hits
        return self._bm25(live, terms, qtf, idf, k, allowed)

    def _bm25(self, match: list[str], terms: list[str], qtf: Counter[str], idf: dict[str, float], k: int,
              allowed: frozenset[str] | None) -> list[Hit]:
        """BM25 over every query term of the chunks holding at least one ``match`` term; the best k."""
        params: dict[str, Any] = {"terms": terms, "qtfs": [qtf[t] for t in terms], "idfs": [idf[t] for t in terms],
                                  "tsq": " | ".join(_tsv_lexeme(t) for t in match), "avgdl": self.avgdl(),
                                  "k1": K1, "b": B, "k": k}
        where = ""
        if allowed is not None:
            where = " AND c.id = ANY(:allowed)"
            params["allowed"] = list(allowed)
        sql = text(
            "WITH q AS (SELECT * FROM unnest(CAST(:terms AS text[]), CAST(:qtfs AS int[]), "
            "CAST(:idfs AS float8[])) AS t(term, qtf, idf)) "
            "SELECT c.id, sum(q.idf * q.qtf * cardinality(u.positions) * (:k1 + 1) / "
            "(cardinality(u.positions) + :k1 * (1 - :b + :b * c.len / :avgdl))) AS s "
            # only the query's lexemes are unnested: marked with weight A, then filtered (C functions on
            # the tsvector), instead of one SQL row per lexeme of every matching chunk
            "FROM kb_kw c CROSS JOIN LATERAL unnest(ts_filter(setweight(c.body, 'A', CAST(:terms AS text[])), "
            "'{a}')) AS u(lexeme, positions, weights) "
            "JOIN q ON q.term = u.lexeme "
            f"WHERE c.body @@ CAST(:tsq AS tsquery){where} GROUP BY c.id ORDER BY s DESC, c.id LIMIT :k")
        with self.engine.connect() as conn:
            return [Hit(pid, float(s), self.name) for pid, s in conn.execute(sql, params)]


KeywordIndex = Fts5Index | PgTextIndex


def open_index(engine: Engine) -> KeywordIndex:
    """The keyword index of the database behind ``engine`` (schema created when missing)."""
    if engine.dialect.name == "postgresql":
        return PgTextIndex(engine)
    if engine.dialect.name == "sqlite":
        return Fts5Index(engine)
    raise ValueError(f"no keyword index for a {engine.dialect.name} database")
