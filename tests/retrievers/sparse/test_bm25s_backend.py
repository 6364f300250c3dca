"""bm25s: only documents that share a term are returned, even for BM25L/BM25+ (which score all)."""
from __future__ import annotations

import pytest

from retrievers.sparse.bm25s import BM25SIndex

DOCS = ["alpha beta", "beta gamma", "gamma delta", "epsilon"]
IDS = ["d1", "d2", "d3", "d4"]


@pytest.mark.parametrize("method", ["lucene", "robertson", "atire", "bm25l", "bm25+"])
def test_only_matching_documents(method):
    ix = BM25SIndex(method=method)
    ix.build(IDS, DOCS)
    hits = ix.search(["beta", "unknownword", "beta epsilon"], 10)
    assert {c for c, _ in hits[0]} == {"d1", "d2"}
    assert hits[1] == []
    assert {c for c, _ in hits[2]} == {"d1", "d2", "d4"}


def test_rarer_terms_score_higher():
    ix = BM25SIndex()
    ix.build(IDS, DOCS)
    hits = ix.search(["alpha beta"], 10)[0]
    assert [c for c, _ in hits] == ["d1", "d2"] and hits[0][1] > hits[1][1]


def test_empty_corpus_searches_to_nothing(tmp_path):
    ix = BM25SIndex()
    ix.build([], [])
    assert ix.search(["beta"], 3) == [[]]
    ix.save(tmp_path / "b")
    fresh = BM25SIndex()
    fresh.load(tmp_path / "b")
    assert fresh.search(["beta"], 3) == [[]]
