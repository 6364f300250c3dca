"""SQLite FTS5 with ``bm25()`` ranking (sia-code's lexical index), from Python's own sqlite3.

Two tokenizations: ``porter unicode61`` over the raw text, or a code-aware one where a
pretokenizer (e.g. :class:`retrievers.sparse.tokenizer.CodeTokenizer`) turns each chunk into a
space-joined shadow text that FTS5 indexes with ``unicode61``. FTS5's bm25 uses k1=1.2, b=0.75.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, ClassVar, Sequence

from retrievers.index import Hit, check_k, settle_ties
from retrievers.sparse.terms import QuotedOr, unicode_words
from retrievers.identity.declare import declare

_DB = "fts5.sqlite"


@declare("retrievers.sparse.sqlite_fts5.SQLiteFTS5Index")
@dataclass
class SQLiteFTS5Index:
    """An in-memory FTS5 table ranked by ``bm25()``; saved as a SQLite file."""

    tokenize: str = "porter unicode61"
    pretokenizer: Callable[[str], list[str]] | None = None

    input: ClassVar[str] = "text"

    def __post_init__(self) -> None:
        if "'" in self.tokenize:
            raise ValueError(f"fts5 tokenize spec must not contain quotes: {self.tokenize!r}")
        self._ids: list[str] = []
        self._db = self._connect(":memory:")
        self._query = QuotedOr(self.pretokenizer or unicode_words)

    @staticmethod
    def _connect(target: str) -> sqlite3.Connection:
        return sqlite3.connect(target, isolation_level=None, check_same_thread=False)

    def _text(self, doc: str) -> str:
        return " ".join(self.pretokenizer(doc)) if self.pretokenizer else doc

    def build(self, ids: Sequence[str], docs: Sequence[str]) -> None:
        self._ids = list(ids)
        db = self._db = self._connect(":memory:")
        db.execute(f"CREATE VIRTUAL TABLE fts USING fts5(body, tokenize='{self.tokenize}', content='')")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("BEGIN")
        db.executemany("INSERT INTO fts(rowid, body) VALUES (?, ?)",
                       ((i, self._text(d)) for i, d in enumerate(docs)))
        db.execute("INSERT INTO meta VALUES ('ids', ?)", (json.dumps(self._ids),))
        db.execute("COMMIT")

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        k = check_k(k)
        return [self._search_one(q, k) for q in queries]

    def _search_one(self, query: str, k: int) -> list[Hit]:
        expr = self._query(query)
        if not expr or not self._ids:
            return []
        sql = "SELECT rowid, bm25(fts) FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ?"

        def fetch(want: int) -> list[Hit]:
            return [(self._ids[r], -float(s)) for r, s in self._db.execute(sql, (expr, want))]

        return settle_ties(fetch, k, len(self._ids))

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / _DB).unlink(missing_ok=True)
        dest = self._connect(str(path / _DB))
        try:
            self._db.backup(dest)
        finally:
            dest.close()

    def load(self, path: Path) -> None:
        src = self._connect(str(path / _DB))
        db = self._connect(":memory:")
        try:
            src.backup(db)
        finally:
            src.close()
        self._db = db
        self._ids = json.loads(db.execute("SELECT value FROM meta WHERE key = 'ids'").fetchone()[0])
