"""Which legs run and whether an embedder is needed: the one rule every caller uses."""
from __future__ import annotations

from retrievers.fusion.rrf import WeightedRRF
from retrievers.legs import active_legs, needs_embedder
from retrievers.sparse.rank_bm25 import RankBM25Index
from retrievers.dense.exact import ExactIndex


def test_a_zero_weight_or_missing_leg_does_not_run():
    legs = {"sparse": RankBM25Index(), "dense": ExactIndex()}
    assert active_legs(legs, WeightedRRF(dense_weight=0.5)) == ["sparse", "dense"]
    assert active_legs(legs, WeightedRRF(dense_weight=0.0)) == ["sparse"]
    assert active_legs(legs, WeightedRRF(dense_weight=1.0)) == ["dense"]
    assert active_legs({"sparse": None, "dense": ExactIndex()}, WeightedRRF(dense_weight=0.5)) == ["dense"]


def test_an_embedder_is_needed_for_vector_legs_or_an_embedding_reranker():
    class Rescorer:
        needs_embedder = True

    assert needs_embedder([ExactIndex()]) and not needs_embedder([RankBM25Index()])
    assert needs_embedder([RankBM25Index()], Rescorer()) and not needs_embedder([], None)
