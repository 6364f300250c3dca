"""Position-aware blend of the fused score and a scorer's score (repo-search)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from retrievers.rerankers.base import Hit, Reranker, Scorer, bump, by_scores, check_depth, minmax
from retrievers.identity.declare import declare

# repo-search: fused ranks 1-3 keep 75% of their RRF score, 4-10 keep 60%, 11 and below 40%
REPO_SEARCH_BANDS: tuple[tuple[int | None, float], ...] = ((3, 0.75), (10, 0.60), (None, 0.40))


@declare("retrievers.rerankers.blend.Blend")
@dataclass(frozen=True)
class Blend(Reranker):
    """score = w(rank) * fused + (1 - w(rank)) * scorer, both min-max scaled within the head.

    ``bands`` are (last fused rank, fusion weight) pairs in rank order; the last one's rank is
    None (every rank below). When the scorer fails the fused order stands (counted as fallback).
    """

    scorer: Scorer
    depth: int = 30
    bands: Sequence[Sequence[Any]] = REPO_SEARCH_BANDS
    stats: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        check_depth(self.depth)
        bands = tuple((None if last is None else int(last), float(w)) for last, w in self.bands)
        if not bands or bands[-1][0] is not None:
            raise ValueError("blend bands must end with a (None, weight) band covering every rank")
        lasts = [last for last, _ in bands[:-1]]
        if lasts != sorted(set(lasts)) or any(last < 1 for last in lasts):
            raise ValueError(f"blend band ranks must increase from 1, got {lasts}")
        if any(not 0.0 <= w <= 1.0 for _, w in bands):
            raise ValueError("blend weights must be in [0, 1]")
        object.__setattr__(self, "bands", bands)
        self.stats["scorer"] = self.scorer.stats

    @property
    def needs_embedder(self) -> bool:
        return bool(self.scorer.needs_embedder)

    def weight(self, rank: int) -> float:
        """Fusion weight for 1-based fused ``rank``."""
        return next(w for last, w in self.bands if last is None or rank <= last)

    def rerank(self, query: str, hits: list[Hit], pipeline: Any) -> list[Hit]:
        head = hits[: self.depth]
        if not head:
            return list(hits)
        raw = self.scorer.score(query, head, pipeline)
        if raw is None:
            bump(self.stats, "fallbacks")
            return list(hits)
        fused, other = minmax([s for _, s in head]), minmax(raw)
        blended = [self.weight(i + 1) * fused[i] + (1 - self.weight(i + 1)) * other[i] for i in range(len(head))]
        return by_scores(hits, self.depth, blended)
