"""sqlite-vec: vec0 answers at most 4096 neighbours; deeper searches scan and still agree with exact."""
from __future__ import annotations

import numpy as np
from rankings import assert_same_ranking

from retrievers.dense.exact import ExactIndex
from retrievers.dense.sqlite_vec import SQLiteVecIndex


def test_beyond_the_vec0_knn_limit_matches_exact():
    x = np.random.default_rng(3).standard_normal((4300, 8)).astype(np.float32)
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    ids = [f"c{i:04d}" for i in range(4300)]
    vec, exact = SQLiteVecIndex(), ExactIndex()
    vec.build(ids, x)
    exact.build(ids, x)
    got, want = vec.search(x[:2], 4200), exact.search(x[:2], 4200)
    assert [len(g) for g in got] == [4200, 4200]
    for g, w in zip(got, want):  # sqlite-vec and numpy round apart: the same order away from near-ties
        assert_same_ranking(g, w, depth=50)
        assert np.allclose([s for _, s in g], [s for _, s in w], atol=1e-5)


def test_zero_query_vector_scores_zero(small_corpus):
    ix = SQLiteVecIndex()
    ix.build(small_corpus.ids, small_corpus.vectors)
    hits = ix.search(np.zeros((1, 384), np.float32), 3)[0]
    assert hits == [(c, 0.0) for c in sorted(small_corpus.ids)[:3]]
