"""Every dense backend over a snapshot set's one vector store, against its own index per snapshot.

Overlapping snapshots of >2,000 real chunks (MiniLM vectors of the committed slice), each with a twin; every
backend as configured (conf/retriever) under ``ann: filtered``: exact backends find what their index per
snapshot finds (``exact`` in the same order, the others up to near-ties), approximate ones reach the recall
their own suite asks of them against exact search over the members, and nothing outside the snapshot."""
from __future__ import annotations

import numpy as np
import pytest
from backend_cases import ANN, DENSE, make
from test_vector_store import Encoder, _snapshots

from retrievers.dense.exact import ExactIndex
from retrievers.dense.snapshot_legs import SharedDense, SnapshotDense

TOL = 1e-5
COSINE_TOL = 1e-4  # sqlite-vec's cosine divides by norms MiniLM's float32 rows hold to ~1e-5, inner product does not
K = 10
FALLBACK = {"usearch_f32", "usearch_f16", "usearch_i8", "sqlite_vec"}  # exact over the members, stated


def _ids(snap_no: int, texts: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for t in texts:  # a snapshot's twin gets an id of its own
        seen[t] = seen.get(t, 0) + 1
        out.append(f"s{snap_no}/{t}" + ("" if seen[t] == 1 else f"#{seen[t]}"))
    return out


@pytest.fixture(scope="module")
def snapshot_set(real_corpus):
    return [(_ids(i, texts), texts) for i, texts in enumerate(_snapshots(real_corpus))]


def _shared_hits(name, snapshot_set, enc, queries):
    dense = SnapshotDense(SharedDense(ann="filtered"))
    out = []
    for ids, texts in snapshot_set:
        legs = {"dense": make(name)}
        docs = dense.attach(legs, texts, enc)
        legs["dense"].build(ids, docs)
        out.append(legs["dense"].search(queries, K))
    return out, dict(dense.modes_seen), len(dense.store)


def _own_hits(make_index, snapshot_set, enc, queries):
    out = []
    for ids, texts in snapshot_set:
        ix = make_index()
        ix.build(ids, enc(texts))
        out.append(ix.search(queries, K))
    return out


def _agree_up_to_near_ties(got, want, tol):
    """Same scores (within TOL) rank by rank; the ids of each group of near-equal scores the same, but for the
    group at the cut, whose members past the k-th may differ."""
    assert len(got) == len(want)
    np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=0, atol=tol)
    start = 0
    for end in range(1, len(want) + 1):
        if end == len(want) or want[end][1] < want[end - 1][1] - tol:
            if end < len(want):
                assert {d for d, _ in got[start:end]} == {d for d, _ in want[start:end]}
            start = end


@pytest.mark.parametrize("name", DENSE)
def test_each_backend_over_the_shared_store(name, real_corpus, real_queries, snapshot_set):
    enc = Encoder(real_corpus)
    queries = real_queries[:40]
    shared, modes, rows = _shared_hits(name, snapshot_set, enc, queries)
    assert rows == len({t for _, texts in snapshot_set for t in texts})  # one row per distinct text
    expected = ("exact_members" if name == "exact" else "fallback_exact_members" if name in FALLBACK
                else "filtered")
    assert modes == {"dense": expected}
    truth = _own_hits(ExactIndex, snapshot_set, enc, queries)  # exact, an index per snapshot
    own = _own_hits(lambda: make(name), snapshot_set, enc, queries) if name not in ANN else truth
    recalls = []
    for (ids, _), got_s, own_s, truth_s in zip(snapshot_set, shared, own, truth):
        mine = set(ids)
        for got, want, exact in zip(got_s, own_s, truth_s):
            assert len(got) == K and {d for d, _ in got} <= mine  # the filter: only this snapshot's documents
            assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
            if name == "exact":
                assert [d for d, _ in got] == [d for d, _ in want]
                np.testing.assert_allclose([s for _, s in got], [s for _, s in want], rtol=0, atol=TOL)
            elif name not in ANN or name in FALLBACK:
                _agree_up_to_near_ties(got, want, COSINE_TOL if name in FALLBACK else TOL)
            recalls.append(len({d for d, _ in got} & {d for d, _ in exact}) / K)
    assert np.mean(recalls) >= (0.95 if name in ANN else 1.0), f"{name}: recall@{K} {np.mean(recalls):.3f}"


@pytest.mark.parametrize("name", ["exact", "faiss_flat", "faiss_hnsw"])
def test_a_twin_comes_back_beside_its_text(name, real_corpus, snapshot_set):
    """Two documents of one text share a store row; a search finding the row returns both, equal scores, by id."""
    enc = Encoder(real_corpus)
    ids, texts = snapshot_set[0]
    query = enc([texts[0]])  # the twin's own vector: both copies score highest
    dense = SnapshotDense(SharedDense(ann="filtered"))
    legs = {"dense": make(name)}
    docs = dense.attach(legs, texts, enc)  # swaps the leg for its view over the store
    legs["dense"].build(ids, docs)
    [hits] = legs["dense"].search(query, 3)
    assert [d for d, _ in hits[:2]] == sorted([ids[0], ids[-1]])
    assert abs(hits[0][1] - hits[1][1]) <= TOL and hits[2][1] < hits[1][1]
