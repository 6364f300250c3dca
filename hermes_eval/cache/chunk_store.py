"""Chunks cached per file: (chunker key, path, sha256 of the file's text) -> that file's chunks, in one
SQLite file shared by processes (WAL, busy timeout), every row checksummed.

A snapshot set (one repository at many commits) chunks each distinct file once, ever: a later arm,
a later snapshot or a re-run reads the rows. A row stores line ranges, language, symbol and meta, and
a chunk's text only when it is not the file's lines ``start..end`` (the common case stores no text),
so the store holds each file's chunking once and no copy of the code. A row failing its checksum is
dropped and the file chunked again.
"""
from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Iterable

from hermes_eval.cache.sqlite_rows import SQLiteRows
from retrievers.chunk import Chunk
from retrievers.chunkers.base import split_lines

SCHEMA = ("CREATE TABLE IF NOT EXISTS chunks (chunker TEXT, file TEXT, data BLOB, chk TEXT, "
          "PRIMARY KEY (chunker, file))")  # file: path NUL sha256 of the text
Row = tuple[int, int, str, "str | None", dict, "str | None"]  # start, end, language, symbol, meta, text or None


def _checksum(chunker: str, file: str, blob: bytes) -> str:
    h = hashlib.sha256(f"{chunker}\0{file}\0".encode())
    h.update(blob)
    return h.hexdigest()[:32]


def to_rows(chunks: Iterable[Chunk], text: str) -> list[Row]:
    """``chunks`` of one file as rows: a chunk's text is kept only when it is not its lines of ``text``."""
    lines = split_lines(text)
    return [(c.start, c.end, c.language, c.symbol, dict(c.meta),
             None if c.text == "\n".join(lines[c.start - 1:c.end]) else c.text) for c in chunks]


def from_rows(rows: list[Row], path: str, text: str) -> list[Chunk]:
    lines = split_lines(text) if any(r[5] is None for r in rows) else []
    return [Chunk(path=path, start=s, end=e, text="\n".join(lines[s - 1:e]) if t is None else t, language=lang,
                  symbol=sym, meta=meta) for s, e, lang, sym, meta, t in rows]


class ChunkStore(SQLiteRows):
    def __init__(self, path: Path):
        super().__init__(path, SCHEMA)

    def get(self, chunker: str, keys: list[tuple[str, str]]) -> dict[tuple[str, str], list[Row]]:
        """Rows found for (path, sha) ``keys``; rows failing their checksum are dropped and left out."""
        out: dict[tuple[str, str], list[Row]] = {}
        bad = []
        rows = self.select("SELECT file, data, chk FROM chunks WHERE chunker=? AND file IN", [chunker],
                           [f"{path}\0{sha}" for path, sha in keys])
        for file, blob, chk in rows:
            if _checksum(chunker, file, blob) != chk:
                bad.append((chunker, file))
                continue
            path, _, sha = file.rpartition("\0")
            out[(path, sha)] = pickle.loads(blob)
        self.drop("DELETE FROM chunks WHERE chunker=? AND file=?", bad, "the files are chunked again")
        return out

    def put(self, chunker: str, items: dict[tuple[str, str], list[Row]]) -> None:
        rows = []
        for (path, sha), value in items.items():
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
            file = f"{path}\0{sha}"
            rows.append((chunker, file, blob, _checksum(chunker, file, blob)))
        self.insert("INSERT OR IGNORE INTO chunks VALUES (?,?,?,?)", rows)
