"""A table of checksummed rows in one SQLite file shared by processes (WAL, busy timeout): what the
per-file chunk store and the term-count store have in common. Rows are read by key in batches, a row
failing its checksum is deleted (and counted), and a batch of rows is written in one transaction."""
from __future__ import annotations

import logging
import sqlite3
from pathlib import Path
from typing import Sequence

log = logging.getLogger(__name__)

BATCH = 500  # keys per SELECT (SQLite's variable limit)


class SQLiteRows:
    def __init__(self, path: Path, schema: str):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=120, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        # a commit without fsync: in WAL mode the file stays consistent, and a power cut loses at most the
        # last commits of a cache, recomputed on the next run (one fsync per snapshot cost a 193-snapshot
        # run 0.4 s)
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(schema)
        self.corrupt_rows = 0

    def select(self, query: str, fixed: Sequence, keys: Sequence[str]) -> list[tuple]:
        """Rows of ``query`` (ending in ``... IN``) over ``keys``, a batch of them per statement."""
        rows: list[tuple] = []
        for i in range(0, len(keys), BATCH):
            part = list(keys[i:i + BATCH])
            rows += self._db.execute(f"{query} ({','.join('?' * len(part))})", [*fixed, *part]).fetchall()
        return rows

    def drop(self, delete: str, bad: list[tuple], what: str) -> None:
        """Delete the rows that failed their checksum (``delete`` takes one of ``bad`` per row)."""
        if not bad:
            return
        log.warning("%s %s: %d rows failed their checksum; dropped, %s", type(self).__name__, self.path, len(bad),
                    what)
        self.corrupt_rows += len(bad)
        self._db.executemany(delete, bad)

    def insert(self, statement: str, rows: list[tuple]) -> None:
        """``statement`` over ``rows`` in one transaction (not one commit per row)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            self._db.executemany(statement, rows)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()
