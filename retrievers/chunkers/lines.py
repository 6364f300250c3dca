"""Fixed line windows (repo-search: 100/20, RepoCoder: 20 lines with stride 10)."""
from __future__ import annotations

from dataclasses import dataclass

from retrievers.chunk import Chunk
from retrievers.chunkers.base import Chunker, Piece, is_blank, make_chunk, split_lines, windows
from retrievers.identity.declare import declare


@declare("retrievers.chunkers.lines.LineChunker")
@dataclass(frozen=True)
class LineChunker(Chunker):
    """Windows of ``size`` lines stepping ``size - overlap``; whitespace-only windows dropped."""

    size: int = 40
    overlap: int = 10

    def __post_init__(self) -> None:
        windows(1, self.size, self.overlap)  # validates the parameters early

    def split(self, lines: list[str], first: int, last: int) -> list[Piece]:
        """Windows over lines ``first..last``."""
        return [Piece(s, e) for s, e in windows(last - first + 1, self.size, self.overlap, first=first)
                if not is_blank(lines, s, e)]

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        lines = split_lines(text)
        return [make_chunk(path, lines, p.start, p.end, language) for p in self.split(lines, 1, len(lines))]
