"""Term counts cached per text: (tokenizer identity, sha256 of the text) -> the text's number of tokens,
distinct terms and their frequencies, in one SQLite file shared by processes (WAL, busy timeout),
every row checksummed.

A lexical index over many snapshots asks for the counts of every document of every snapshot; a
re-run, a later arm with the same tokenizer or a shard reads them here instead of tokenizing again.
A row failing its checksum is dropped and the text counted again.
"""
from __future__ import annotations

import hashlib
import logging
import sqlite3
from pathlib import Path

from retrievers.sparse.memo import Stored

log = logging.getLogger(__name__)

SCHEMA = ("CREATE TABLE IF NOT EXISTS counts (tokenizer TEXT, text TEXT, length INTEGER, terms TEXT, tfs BLOB, "
          "chk TEXT, PRIMARY KEY (tokenizer, text))")
SEP = "\0"  # between terms; a text with a term holding it is not stored
BATCH = 500  # digests per SELECT (SQLite's variable limit)


def _checksum(tokenizer: str, text: str, length: int, terms: str, tfs: bytes) -> str:
    h = hashlib.sha256(f"{tokenizer}{SEP}{text}{SEP}{length}{SEP}{terms}{SEP}".encode("utf-8", "surrogatepass"))
    h.update(tfs)
    return h.hexdigest()[:32]


class CountStore:
    def __init__(self, path: Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path), timeout=120, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(SCHEMA)
        self.corrupt_rows = 0

    def get(self, tokenizer: str, digests: list[str]) -> dict[str, Stored]:
        """Rows found for the text ``digests``; rows failing their checksum are dropped and left out."""
        out: dict[str, Stored] = {}
        bad = []
        for i in range(0, len(digests), BATCH):
            part = digests[i:i + BATCH]
            rows = self._db.execute(f"SELECT text, length, terms, tfs, chk FROM counts WHERE tokenizer=? AND text IN "
                                    f"({','.join('?' * len(part))})", [tokenizer, *part]).fetchall()
            for text, length, terms, tfs, chk in rows:
                if _checksum(tokenizer, text, length, terms, tfs) != chk:
                    bad.append((tokenizer, text))
                    continue
                out[text] = (length, terms.split(SEP) if terms else [], tfs)
        if bad:
            log.warning("count store %s: %d rows failed their checksum; dropped, the texts are counted again",
                        self.path, len(bad))
            self.corrupt_rows += len(bad)
            self._db.executemany("DELETE FROM counts WHERE tokenizer=? AND text=?", bad)
        return out

    def put(self, tokenizer: str, items: dict[str, Stored]) -> None:
        rows = []
        for text, (length, terms, tfs) in items.items():
            if any(SEP in t for t in terms):
                continue
            joined = SEP.join(terms)
            rows.append((tokenizer, text, length, joined, tfs, _checksum(tokenizer, text, length, joined, tfs)))
        self._db.execute("BEGIN IMMEDIATE")  # one transaction, not one commit per row
        try:
            self._db.executemany("INSERT OR IGNORE INTO counts VALUES (?,?,?,?,?,?)", rows)
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def close(self) -> None:
        self._db.close()
