"""top_k and settle_ties: the shared helpers that make every backend order ties by id."""
from __future__ import annotations

import numpy as np
import pytest

from retrievers.index import check_k, settle_ties, top_k


def test_top_k_keeps_the_smallest_ids_among_ties_at_the_cut():
    ids = ["e", "d", "c", "b", "a"]
    scores = np.array([1.0, 2.0, 2.0, 2.0, 0.5])
    assert top_k(ids, scores, 2) == [("b", 2.0), ("c", 2.0)]
    assert top_k(ids, scores, 10) == [("b", 2.0), ("c", 2.0), ("d", 2.0), ("e", 1.0), ("a", 0.5)]
    assert top_k(ids, scores, 2, candidates=np.array([0, 4])) == [("e", 1.0), ("a", 0.5)]


def test_settle_ties_widens_until_past_the_tied_score():
    # an engine returning ties in reverse id order, 12 docs all tied, then lower ones
    docs = [(f"t{i:02d}", 1.0) for i in range(12)][::-1] + [("z", 0.1)]
    asked: list[int] = []

    def fetch(want: int):
        asked.append(want)
        return docs[:want]

    assert settle_ties(fetch, 3, len(docs)) == [("t00", 1.0), ("t01", 1.0), ("t02", 1.0)]
    assert asked == [4, 8, 13]


def test_settle_ties_asks_once_without_a_tie():
    asked: list[int] = []

    def fetch(want: int):
        asked.append(want)
        return [("a", 3.0), ("b", 2.0), ("c", 1.0)][:want]

    assert settle_ties(fetch, 2, 3) == [("a", 3.0), ("b", 2.0)]
    assert asked == [3]


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3"])
def test_check_k_rejects_non_positive_integers(bad):
    with pytest.raises(ValueError):
        check_k(bad)
