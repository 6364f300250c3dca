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

    def to_dict(self) -> dict:
        return {"qid": self.qid, "query": self.query, "kind": self.kind, "repo": self.repo,
                "gold": [s.to_dict() for s in self.gold],
                "exclude": [s.to_dict() for s in self.exclude], "meta": self.meta}
