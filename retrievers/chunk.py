"""The Chunk record every chunker produces and every index consumes."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

CHUNK_ID = re.compile(r"^(?P<path>.+):(?P<start>\d+)-(?P<end>\d+)$")


def chunk_id(path: str, start: int, end: int) -> str:
    """The stable, human-readable id ``path:start-end`` of lines ``start``..``end`` of ``path``."""
    return f"{path}:{start}-{end}"


def parse_chunk_id(cid: str) -> tuple[str, int, int] | None:
    """``path:start-end`` -> (path, start, end); None when ``cid`` is not of that form."""
    m = CHUNK_ID.match(cid)
    return (m["path"], int(m["start"]), int(m["end"])) if m else None


def chunk_path(cid: str) -> str:
    """The file of chunk id ``cid`` (the id itself when it names no line range)."""
    parsed = parse_chunk_id(cid)
    return parsed[0] if parsed else cid


@dataclass(frozen=True, slots=True)
class Chunk:
    """A contiguous run of lines of one file; lines are 1-based and inclusive."""

    path: str
    start: int
    end: int
    text: str
    language: str = "text"
    symbol: str | None = None
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def id(self) -> str:
        return chunk_id(self.path, self.start, self.end)

    @property
    def n_lines(self) -> int:
        return self.end - self.start + 1

    def under(self, prefix: str, text: str | None = None) -> Chunk:
        """This chunk with ``prefix`` before its path (and ``text`` for its text, an equal string kept
        once): ``dataclasses.replace`` without its per-call field walk, for loops over millions."""
        return Chunk(prefix + self.path, self.start, self.end, self.text if text is None else text, self.language,
                     self.symbol, self.meta)
