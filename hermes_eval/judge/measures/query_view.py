"""One query as every measure reads it: the grade of each ranked document and the ideal grades."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence


@dataclass(frozen=True)
class QueryView:
    gains: tuple[int, ...]  # the grade of each ranked document, 0 below the relevance level
    ideal: tuple[int, ...]  # the grades at or above the relevance level, highest first

    @property
    def n_relevant(self) -> int:
        return len(self.ideal)

    def cut(self, k: int) -> int:
        """ranx's ``fix_k``: 0 or a k past the ranking's end means the whole ranking."""
        n = len(self.gains)
        return n if k == 0 or k > n else k

    def hits(self, k: int) -> int:
        """Relevant documents among the first ``k`` (already cut)."""
        return sum(1 for g in self.gains[:k] if g)


def ranked(scores: Mapping[str, float]) -> list[str]:
    """Documents by descending score (the evaluators' order: scores are strictly decreasing)."""
    return sorted(scores, key=scores.__getitem__, reverse=True)


def view(qrel: Mapping[str, int], ranking: Sequence[str], rel_lvl: int = 1) -> QueryView:
    """The query's view at relevance level ``rel_lvl`` (ranx's ``-l`` suffix; default 1)."""
    kept = {d: r for d, r in qrel.items() if r >= rel_lvl}
    return QueryView(gains=tuple(kept.get(d, 0) for d in ranking),
                     ideal=tuple(sorted(kept.values(), reverse=True)))
