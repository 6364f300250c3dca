"""The Chunk record every chunker produces and every index consumes."""
from __future__ import annotations

from dataclasses import dataclass, field


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
        return f"{self.path}:{self.start}-{self.end}"

    @property
    def n_lines(self) -> int:
        return self.end - self.start + 1
