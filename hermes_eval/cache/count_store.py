"""Term counts cached per text: (tokenizer identity, sha256 of the text) -> the text's number of tokens,
distinct terms and their frequencies, in one SQLite file shared by processes (WAL, busy timeout),
every row checksummed.

A lexical index over many snapshots asks for the counts of every document of every snapshot; a
re-run, a later arm with the same tokenizer or a shard reads them here instead of tokenizing again.
A row failing its checksum is dropped and the text counted again.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from hermes_eval.cache.sqlite_rows import SQLiteRows
from retrievers.sparse.memo import Stored

SCHEMA = ("CREATE TABLE IF NOT EXISTS counts (tokenizer TEXT, text TEXT, length INTEGER, terms TEXT, tfs BLOB, "
          "chk TEXT, PRIMARY KEY (tokenizer, text))")
SEP = "\0"  # between terms; a text with a term holding it is not stored


def _checksum(tokenizer: str, text: str, length: int, terms: str, tfs: bytes) -> str:
    h = hashlib.sha256(f"{tokenizer}{SEP}{text}{SEP}{length}{SEP}{terms}{SEP}".encode("utf-8", "surrogatepass"))
    h.update(tfs)
    return h.hexdigest()[:32]


class CountStore(SQLiteRows):
    def __init__(self, path: Path):
        super().__init__(path, SCHEMA)

    def get(self, tokenizer: str, digests: list[str]) -> dict[str, Stored]:
        """Rows found for the text ``digests``; rows failing their checksum are dropped and left out."""
        out: dict[str, Stored] = {}
        bad = []
        rows = self.select("SELECT text, length, terms, tfs, chk FROM counts WHERE tokenizer=? AND text IN",
                           [tokenizer], digests)
        for text, length, terms, tfs, chk in rows:
            if _checksum(tokenizer, text, length, terms, tfs) != chk:
                bad.append((tokenizer, text))
                continue
            out[text] = (length, terms.split(SEP) if terms else [], tfs)
        self.drop("DELETE FROM counts WHERE tokenizer=? AND text=?", bad, "the texts are counted again")
        return out

    def put(self, tokenizer: str, items: dict[str, Stored]) -> None:
        rows = []
        for text, (length, terms, tfs) in items.items():
            if any(SEP in t for t in terms):
                continue
            joined = SEP.join(terms)
            rows.append((tokenizer, text, length, joined, tfs, _checksum(tokenizer, text, length, joined, tfs)))
        self.insert("INSERT OR IGNORE INTO counts VALUES (?,?,?,?,?,?)", rows)
