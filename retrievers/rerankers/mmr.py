"""Maximal marginal relevance over bi-encoder vectors (workspace-RAG's diversity pass)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

import numpy as np

from retrievers.rerankers.base import DocVectors, Hit, Reranker, arrange, check_depth, minmax, query_vector, unit
from retrievers.identity.declare import declare


@declare("retrievers.rerankers.mmr.MMR")
@dataclass(frozen=True)
class MMR(Reranker):
    """Greedy MMR: pick argmax of lambda * relevance - (1 - lambda) * max cosine to the picked.

    ``relevance`` is ``fusion`` (the fused scores scaled to [0, 1] within the head) or ``cosine``
    (bi-encoder query-chunk cosine). Output scores are rank-derived: 1 for the first pick down
    to 1/depth.
    """

    depth: int = 30
    lambda_: float = 0.5
    relevance: Literal["fusion", "cosine"] = "fusion"
    stats: dict = field(default_factory=dict, compare=False)
    needs_embedder: ClassVar[bool] = True

    def __post_init__(self) -> None:
        check_depth(self.depth)
        if not 0.0 <= self.lambda_ <= 1.0:
            raise ValueError(f"mmr lambda_ must be in [0, 1], got {self.lambda_}")
        if self.relevance not in ("fusion", "cosine"):
            raise ValueError(f"mmr relevance must be fusion or cosine, got {self.relevance!r}")
        object.__setattr__(self, "_vectors", DocVectors())

    def rerank(self, query: str, hits: list[Hit], pipeline: Any) -> list[Hit]:
        head = hits[: self.depth]
        if len(head) < 2:
            return list(hits)
        docs = self._vectors.get(pipeline, [cid for cid, _ in head])
        if self.relevance == "cosine":
            rel = docs @ unit(query_vector(pipeline, query))
        else:
            rel = minmax([s for _, s in head])
        sim = docs @ docs.T
        picked: list[int] = []
        left = list(range(len(head)))
        closest = np.full(len(head), -np.inf)
        while left:
            gain = [self.lambda_ * rel[i] - (1 - self.lambda_) * (closest[i] if picked else 0.0) for i in left]
            best = left[int(np.argmax(gain))]  # first maximum: ties keep fused order
            picked.append(best)
            left.remove(best)
            closest = np.maximum(closest, sim[best])
        n = len(picked)
        scores = [0.0] * n
        for rank, i in enumerate(picked):
            scores[i] = (n - rank) / n
        return arrange(hits, self.depth, picked, scores)
