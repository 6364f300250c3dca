"""RepoCoder's sliding windows as CodeRAG-Bench builds its RepoEval corpus: a window centred on
every ``step``-th line (0-based line ``c`` gives lines ``max(0, c - size//2)`` up to
``min(n, c + size - size//2)``), so a file's first window is half a window and its last ones are
cut at the end of the file; with ``merge_identical`` the windows of one repository whose text is
identical are kept once, at their first place in path order (the published script keeps the
first in its directory-listing order)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Sequence

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, is_blank, make_chunk, split_lines
from retrievers.identity.declare import declare


def centred_windows(n_lines: int, size: int, step: int) -> list[tuple[int, int]]:
    """1-based inclusive spans of the windows of an ``n_lines`` file, duplicates dropped."""
    out: list[tuple[int, int]] = []
    half = size // 2
    for centre in range(0, n_lines, step):
        span = (max(0, centre - half) + 1, min(n_lines, centre + size - half))
        if span not in out[-2:]:
            out.append(span)
    return out


@declare("retrievers.chunkers.centred_windows.CentredWindowChunker")
@dataclass(frozen=True)
class CentredWindowChunker(Chunker):
    """Windows of ``size`` lines centred every ``step`` lines; whitespace-only windows dropped."""

    size: int = 20
    step: int = 10
    merge_identical: bool = True

    def __post_init__(self) -> None:
        if self.size < 2 or self.step < 1:
            raise ValueError(f"size must be >= 2 and step >= 1, got size={self.size} step={self.step}")

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        lines = split_lines(text)
        return [make_chunk(path, lines, s, e, language) for s, e in centred_windows(len(lines), self.size, self.step)
                if not is_blank(lines, s, e)]

    def merge(self, chunks: Sequence[Chunk]) -> list[Chunk]:
        """One repository's chunks with identical texts kept once, at the first in (path, start)
        order; the kept chunk lists the others' ids in ``meta['copies']``."""
        if not self.merge_identical:
            return list(chunks)
        first: dict[str, Chunk] = {}
        copies: dict[str, list[str]] = {}
        for c in sorted(chunks, key=lambda c: (c.path, c.start, c.end)):
            if c.text in first:
                copies.setdefault(c.text, []).append(c.id)
            else:
                first[c.text] = c
        return [replace(c, meta=dict(c.meta, copies=copies[t])) if t in copies else c for t, c in first.items()]
