"""FAISS IVF on corpora smaller than nlist, and HNSW's exhaustive path for k >= n."""
from __future__ import annotations

import numpy as np
from rankings import assert_same_ranking

from retrievers.dense.exact import ExactIndex
from retrievers.dense.faiss_index import FaissIndex


def unit_rows(n: int, dim: int = 16, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return x / np.linalg.norm(x, axis=1, keepdims=True)


def test_ivf_clamps_nlist_to_the_corpus_and_still_finds_everything():
    x = unit_rows(40)
    ids = [f"c{i:02d}" for i in range(40)]
    ix = FaissIndex(kind="ivf", nlist=1000, nprobe=2000)
    ix.build(ids, x)
    assert ix._index.nlist == 40 and ix._index.nprobe == 40
    exact = ExactIndex()
    exact.build(ids, x)
    got, want = ix.search(x[:5], 10), exact.search(x[:5], 10)  # every list probed: exact answers
    for g, w in zip(got, want):  # faiss and numpy round apart: the same order away from near-ties
        assert_same_ranking(g, w)


def test_ivf_with_few_probes_still_returns_all_when_k_covers_the_corpus():
    x = unit_rows(300, seed=1)
    ids = [f"c{i:03d}" for i in range(300)]
    ix = FaissIndex(kind="ivf", nlist=64, nprobe=1)
    ix.build(ids, x)
    assert len(ix.search(x[:1], 10)[0]) <= 10
    assert sorted(c for c, _ in ix.search(x[:1], 500)[0]) == ids


def test_hnsw_k_at_least_n_is_exhaustive():
    x = unit_rows(120, seed=2)
    ids = [f"c{i:03d}" for i in range(120)]
    ix = FaissIndex(kind="hnsw", M=4, ef_search=4)
    ix.build(ids, x)
    exact = ExactIndex()
    exact.build(ids, x)
    got, want = ix.search(x[:3], 120), exact.search(x[:3], 120)
    for g, w in zip(got, want):  # two scores here lie 2e-6 apart: faiss and numpy may round them either way
        assert_same_ranking(g, w)
