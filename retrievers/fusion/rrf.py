"""Weighted reciprocal rank fusion (HERMES, sia-code, repo-search variants)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from retrievers.fusion.base import check_dense_weight, leg_weight
from retrievers.index import Hit
from retrievers.identity.declare import declare


@declare("retrievers.fusion.WeightedRRF")
@dataclass(frozen=True)
class WeightedRRF:
    """score(d) = sum over lists of weight / (k + rank), rank 1-based; plus an optional bonus
    for documents ranked first in any list (repo-search's top-rank bonus).

    ``dense_weight`` is a shorthand for two lists named sparse and dense: weights
    {dense: w, sparse: 1 - w}. A list with weight 0 contributes nothing, so the pipeline does
    not run it.
    """

    k: float = 60.0
    weights: Mapping[str, float] = field(default_factory=dict)
    dense_weight: float | None = None
    top_rank_bonus: float = 0.0

    def __post_init__(self) -> None:
        if self.k < 0:
            raise ValueError(f"fusion.k must be >= 0, got {self.k}")
        check_dense_weight(self.dense_weight)

    def weight(self, name: str) -> float:
        return leg_weight(name, self.weights, self.dense_weight)

    def fuse(self, lists: Mapping[str, list[Hit]], top_k: int) -> list[Hit]:
        scores: dict[str, float] = {}
        firsts: set[str] = set()
        for name, hits in lists.items():
            w = self.weight(name)
            if w == 0:
                continue
            for rank, (doc, _) in enumerate(hits, start=1):
                scores[doc] = scores.get(doc, 0.0) + w / (self.k + rank)
            if hits:
                firsts.add(hits[0][0])
        for doc in firsts if self.top_rank_bonus else ():
            scores[doc] += self.top_rank_bonus
        return sorted(scores.items(), key=lambda x: (-x[1], x[0]))[:top_k]
