"""Span and Query: gold is line spans, never chunk ids, so one query set judges every chunker."""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, order=True)
class Span:
    """Lines ``start``..``end`` (1-based, inclusive) of ``path``, relative to the corpus root."""

    path: str
    start: int
    end: int

    def overlaps(self, path: str, start: int, end: int) -> bool:
        return self.path == path and self.start <= end and start <= self.end

    def to_dict(self) -> dict:
        return {"path": self.path, "start": self.start, "end": self.end}


@dataclass(frozen=True)
class Query:
    qid: str
    query: str
    gold: tuple[Span, ...]
    exclude: tuple[Span, ...] = ()
    kind: str = "auto"
    repo: str = ""
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict:
        return {"qid": self.qid, "query": self.query, "kind": self.kind, "repo": self.repo,
                "gold": [s.to_dict() for s in self.gold],
                "exclude": [s.to_dict() for s in self.exclude], "meta": self.meta}
