"""Span: lines of one file; gold is line spans, never chunk ids, so one query set judges every chunker."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """Lines ``start``..``end`` (1-based, inclusive) of ``path``, relative to the corpus root."""

    path: str
    start: int
    end: int
    grade: int = 1  # graded relevance (MTEB/TREC qrels); 1 = plain relevant, omitted when written

    def overlaps(self, path: str, start: int, end: int) -> bool:
        return self.path == path and self.start <= end and start <= self.end

    def lines(self) -> list[tuple[str, int]]:
        """Every (path, line number) the span covers."""
        return [(self.path, n) for n in range(self.start, self.end + 1)]

    def to_dict(self) -> dict:
        out = {"path": self.path, "start": self.start, "end": self.end}
        if self.grade != 1:
            out["grade"] = self.grade
        return out
