"""ANN backends, as configured, against exact search on >2,000 real chunks embedded with MiniLM."""
from __future__ import annotations

import numpy as np
import pytest
from backend_cases import ANN, make

from retrievers.dense.exact import ExactIndex


@pytest.fixture(scope="module")
def truth(real_corpus, real_queries):
    ix = ExactIndex()
    ix.build(real_corpus.ids, real_corpus.vectors)
    return ix.search(real_queries, 10)


def test_the_corpus_is_big_enough(real_corpus):
    assert len(real_corpus.ids) >= 2000 and real_corpus.vectors.shape == (len(real_corpus.ids), 384)


@pytest.mark.parametrize("name", ANN)
def test_recall_at_10_against_exact(name, real_corpus, real_queries, truth):
    ix = make(name)
    ix.build(real_corpus.ids, real_corpus.vectors)
    got = ix.search(real_queries, 10)
    recall = np.mean([len({c for c, _ in g} & {c for c, _ in t}) / len(t) for g, t in zip(got, truth)])
    assert recall >= 0.95, f"{name}: recall@10 {recall:.3f}"
