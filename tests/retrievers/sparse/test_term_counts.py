"""Stacked term counts: postings, document frequencies and first-seen order equal a dict walk."""
from __future__ import annotations

import random

import numpy as np

from retrievers.sparse.term_counts import Stacked, TermCounts, Vocabulary


def test_index_equals_walking_the_documents_with_dicts():
    rng = random.Random(7)
    vocab = Vocabulary()
    words = [f"w{i}" for i in range(80)]
    docs = [[rng.choice(words[: rng.randint(1, 80)]) for _ in range(rng.randint(0, 40))] for _ in range(300)]
    counted = [TermCounts.of_tokens(d, vocab) for d in docs]
    p = Stacked.of(counted).index()
    nd: dict[str, int] = {}
    postings: dict[str, list[tuple[int, int]]] = {}
    for i, d in enumerate(docs):
        for w in dict.fromkeys(d):
            nd[w] = nd.get(w, 0) + 1
            postings.setdefault(w, []).append((i, d.count(w)))
    terms = [vocab.terms[t] for t in p.terms.tolist()]
    assert [terms[i] for i in p.first_seen.tolist()] == list(nd)
    assert dict(zip(terms, p.df.tolist())) == nd
    for j, w in enumerate(terms):
        a, b = p.bounds[j], p.bounds[j + 1]
        assert list(zip(p.docs[a:b].tolist(), p.tfs[a:b].tolist())) == postings[w]
    assert Stacked.of(counted).lengths.tolist() == [len(d) for d in docs]


def test_an_empty_corpus_stacks_to_empty_arrays():
    p = Stacked.of([]).index()
    assert p.terms.size == p.docs.size == 0 and p.bounds.tolist() == [0]
    assert np.array_equal(Stacked.of([TermCounts.of_tokens([], Vocabulary())]).lengths, [0])
