"""Fixed line windows (repo-search: 100/20, RepoCoder: 20 lines with stride 10)."""
from __future__ import annotations

from dataclasses import dataclass

from retrievers.chunk import Chunk
from retrievers.chunkers.base import make_chunk, split_lines, windows


@dataclass(frozen=True)
class LineChunker:
    size: int = 40
    overlap: int = 10

    def __post_init__(self) -> None:
        windows(1, self.size, self.overlap)  # validates the parameters early

    def chunk(self, path: str, text: str, language: str) -> list[Chunk]:
        lines = split_lines(text)
        return [make_chunk(path, lines, s, e, language)
                for s, e in windows(len(lines), self.size, self.overlap)]
