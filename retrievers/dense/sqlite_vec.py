"""sqlite-vec exact KNN (a ``vec0`` table, cosine distance), the workspace-RAG dense index.

Python's own sqlite3 here cannot load extensions, so this uses ``sqlean`` (package sqlean.py),
a drop-in sqlite3 that can. vec0 answers at most 4096 neighbours; deeper searches scan with
``vec_distance_cosine``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, Sequence

import numpy as np

from retrievers.dense.vectors import as_rows
from retrievers.index import Hit, check_k, settle_ties
from retrievers.identity.declare import declare

_DB = "vec.sqlite"
_KNN_MAX = 4096
_KNN = "SELECT rowid, distance FROM vec WHERE embedding MATCH ? AND k = ? ORDER BY distance"
_SCAN = "SELECT rowid, vec_distance_cosine(embedding, ?) AS d FROM vec ORDER BY d LIMIT ?"


def _connect(target: str):
    import sqlean
    import sqlite_vec

    db = sqlean.connect(target, isolation_level=None, check_same_thread=False)
    db.enable_load_extension(True)
    sqlite_vec.load(db)
    db.enable_load_extension(False)
    return db


@declare("retrievers.dense.sqlite_vec.SQLiteVecIndex")
@dataclass
class SQLiteVecIndex:
    """An in-memory vec0 table (cosine) in sqlean; saved as a SQLite file.

    Exact (vec0 scans every row, one distance call per row): among hits tied at the k-th score the k
    smallest ids are returned (:func:`retrievers.index.settle_ties` widens the KNN past the tie).
    """

    input: ClassVar[str] = "vector"

    def __post_init__(self) -> None:
        self._ids: list[str] = []
        self._db = None

    def build(self, ids: Sequence[str], docs: np.ndarray) -> None:
        self._ids = list(ids)
        x = as_rows(docs)
        db = self._db = _connect(":memory:")
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.execute("INSERT INTO meta VALUES ('ids', ?)", (json.dumps(self._ids),))
        if self._ids:
            db.execute(f"CREATE VIRTUAL TABLE vec USING vec0(embedding float[{x.shape[1]}] "
                       "distance_metric=cosine)")
            db.execute("BEGIN")
            db.executemany("INSERT INTO vec(rowid, embedding) VALUES (?, ?)",
                           ((i, row.tobytes()) for i, row in enumerate(x)))
            db.execute("COMMIT")

    def _fetch(self, blob: bytes, want: int) -> list[Hit]:
        rows = self._db.execute(_KNN if want <= _KNN_MAX else _SCAN, (blob, want))
        # cosine distance is 1 - cos; a zero vector has no direction (NULL) and scores 0
        return [(self._ids[r], 0.0 if d is None else 1.0 - float(d)) for r, d in rows]

    def search(self, queries: np.ndarray, k: int) -> list[list[Hit]]:
        k = check_k(k)
        q = as_rows(queries)
        n = len(self._ids)
        if not n:
            return [[] for _ in range(len(q))]
        return [settle_ties(lambda want, b=row.tobytes(): self._fetch(b, want), k, n) for row in q]

    def save(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)
        (path / _DB).unlink(missing_ok=True)
        dest = _connect(str(path / _DB))
        try:
            self._db.backup(dest)
        finally:
            dest.close()

    def load(self, path: Path) -> None:
        src, db = _connect(str(path / _DB)), _connect(":memory:")
        try:
            src.backup(db)
        finally:
            src.close()
        self._db = db
        self._ids = json.loads(db.execute("SELECT value FROM meta WHERE key = 'ids'").fetchone()[0])
