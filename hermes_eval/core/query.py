"""Query: a search text with its gold spans (never chunk ids) and the spans it must not see."""
from __future__ import annotations

from dataclasses import dataclass, field

from hermes_eval.core.spans import Span


@dataclass(frozen=True)
class Query:
    qid: str
    query: str
    gold: tuple[Span, ...]
    exclude: tuple[Span, ...] = ()
    kind: str = "auto"
    repo: str = ""
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    def origin(self) -> tuple[Span, ...]:
        """Where the query text was taken from in the corpus, which is no leak: ``meta["origin"]``
        spans when a generator gives them, else its ``mask`` spans (a masked docstring or comment),
        else a completion task's left context (``context_start`` up to the ``hole``)."""
        spans = self.meta.get("origin") or self.meta.get("mask")
        if spans:
            return tuple(Span(s["path"], int(s["start"]), int(s["end"])) for s in spans)
        start, hole = self.meta.get("context_start"), self.meta.get("hole")
        if start is not None and hole and self.exclude:
            return (Span(self.exclude[0].path, int(start), int(hole[0]) - 1),)
        return ()

    def to_dict(self) -> dict:
        return {"qid": self.qid, "query": self.query, "kind": self.kind, "repo": self.repo,
                "gold": [s.to_dict() for s in self.gold],
                "exclude": [s.to_dict() for s in self.exclude], "meta": self.meta}
