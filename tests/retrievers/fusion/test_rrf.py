"""Weighted RRF against hand-computed scores."""
from __future__ import annotations

import pytest

from retrievers.fusion.rrf import WeightedRRF

SPARSE = [("a", 9.0), ("b", 5.0), ("c", 1.0)]
DENSE = [("b", 0.9), ("d", 0.5)]


def test_dense_weight_by_hand():
    fused = WeightedRRF(k=60, dense_weight=0.3).fuse({"sparse": SPARSE, "dense": DENSE}, 10)
    expected = [("b", 0.7 / 62 + 0.3 / 61), ("a", 0.7 / 61), ("c", 0.7 / 63), ("d", 0.3 / 62)]
    assert [d for d, _ in fused] == [d for d, _ in expected]
    assert [s for _, s in fused] == pytest.approx([s for _, s in expected], abs=1e-15)


def test_top_rank_bonus_and_id_tie_break_by_hand():
    lists = {"sparse": [("a", 1.0), ("b", 0.5)], "dense": [("c", 1.0), ("b", 0.5)]}
    plain = WeightedRRF(k=1).fuse(lists, 10)  # a = c = 1/2, b = 1/3 + 1/3
    assert plain == [("b", pytest.approx(2 / 3)), ("a", 0.5), ("c", 0.5)]
    bonus = WeightedRRF(k=1, top_rank_bonus=0.2).fuse(lists, 10)  # firsts a and c gain 0.2
    assert bonus == [("a", pytest.approx(0.7)), ("c", pytest.approx(0.7)), ("b", pytest.approx(2 / 3))]


def test_variant_weights_and_zero_weight_lists():
    f = WeightedRRF(k=0, weights={"sparse": 2.0, "sparse@q1": 1.0, "dense": 0.0})
    lists = {"sparse": [("a", 1.0)], "sparse@q1": [("b", 1.0)], "dense": [("c", 1.0)],
             "dense@q1": [("c", 1.0)]}
    assert f.weight("sparse@q2") == 2.0 and f.weight("dense@q1") == 0.0
    assert f.fuse(lists, 10) == [("a", 2.0), ("b", 1.0)]  # dense lists weigh nothing, at any variant


def test_top_k_cuts_and_bad_weights_are_refused():
    assert len(WeightedRRF().fuse({"sparse": SPARSE, "dense": DENSE}, 2)) == 2
    with pytest.raises(ValueError):
        WeightedRRF(dense_weight=1.5)
    with pytest.raises(ValueError):
        WeightedRRF(k=-1)
