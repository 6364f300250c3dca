"""A query set: queries plus the manifest that says how they were made."""
from __future__ import annotations

from dataclasses import dataclass, field

from hermes_eval.core.spans import Span
from hermes_eval.core.query import Query


@dataclass(frozen=True)
class QuerySet:
    name: str
    queries: tuple[Query, ...]
    manifest: dict = field(default_factory=dict)

    @property
    def masks(self) -> list[Span]:
        """Spans to blank from the indexed corpus (the text each query was taken from)."""
        return [Span(**m) for q in self.queries for m in q.meta.get("mask", [])]

    def __len__(self) -> int:
        return len(self.queries)
