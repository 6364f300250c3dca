"""rank-bm25 fed counted documents scores exactly as the library fed token lists (every variant)."""
from __future__ import annotations

import random

import numpy as np
import pytest
import rank_bm25

from retrievers.sparse.rank_bm25 import CountedCorpus, _counted_class

VOCAB = [f"w{i}" for i in range(60)]


@pytest.mark.parametrize("cls", [rank_bm25.BM25Okapi, rank_bm25.BM25L, rank_bm25.BM25Plus])
def test_counted_documents_score_as_token_lists(cls):
    rng = random.Random(3)
    docs = [[rng.choice(VOCAB[: rng.randint(5, 60)]) for _ in range(rng.randint(0, 80))] for _ in range(200)]
    assert any(not d for d in docs)  # empty documents (an empty __init__.py) count as the library counts them
    plain, counted = cls(docs), _counted_class(cls)(CountedCorpus.of_tokens(docs))
    for _ in range(30):
        query = rng.sample(VOCAB, rng.randint(1, 6)) + ["absent"]
        query += query[: rng.randint(0, 2)]  # a repeated term counts each time, as in the library
        assert np.array_equal(plain.get_scores(query), counted.get_scores(query))
        for ids in (sorted(rng.sample(range(len(docs)), 40)), rng.sample(range(len(docs)), 40), [7, 7, 3]):
            assert np.array_equal(plain.get_batch_scores(query, ids), counted.get_batch_scores(query, ids))
    assert (plain.avgdl, plain.idf, plain.doc_len) == (counted.avgdl, counted.idf, counted.doc_len)
    assert list(plain.idf) == list(counted.idf)  # the same terms in the same order
    assert getattr(plain, "average_idf", None) == getattr(counted, "average_idf", None)


def test_a_corpus_without_any_token_builds_and_finds_nothing():
    from retrievers.sparse.rank_bm25 import RankBM25Index

    for docs in ([], ["", "  \n"]):  # the library itself divides by zero here
        ix = RankBM25Index()
        ix.build([f"d{i}" for i in range(len(docs))], docs)
        assert ix.search(["anything at all"], 3) == [[]]
