"""Rescore candidates by bi-encoder cosine between the query and each chunk."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Sequence

from retrievers.rerankers.base import DocVectors, Hit, Reranker, Scorer, by_scores, check_depth, query_vector, unit
from retrievers.identity.declare import declare


@declare("retrievers.rerankers.dense_rescore.DenseRescore")
@dataclass(frozen=True)
class DenseRescore(Reranker, Scorer):
    """Cosine(query, chunk) with the pipeline's embedder; chunk vectors come from its cache."""

    depth: int = 30
    stats: dict = field(default_factory=dict, compare=False)
    needs_embedder: ClassVar[bool] = True

    def __post_init__(self) -> None:
        check_depth(self.depth)
        object.__setattr__(self, "_vectors", DocVectors())

    def score(self, query: str, hits: Sequence[Hit], pipeline: Any) -> list[float]:
        if not hits:
            return []
        docs = self._vectors.get(pipeline, [cid for cid, _ in hits])
        return [float(x) for x in docs @ unit(query_vector(pipeline, query))]

    def rerank(self, query: str, hits: list[Hit], pipeline: Any) -> list[Hit]:
        head = hits[: self.depth]
        return by_scores(hits, self.depth, self.score(query, head, pipeline))
