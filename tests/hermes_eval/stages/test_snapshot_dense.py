"""A snapshot set's dense legs over one shared vector store rank as an index per snapshot did: the same run.trec
(query, document, rank) and raw scores equal within float tolerance, whole or in batches; the record says per
snapshot what was embedded, read from the cache and added to the store."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from hermes_eval.cli.main import main

TOL = 1e-5  # float32 scores of one process; never compared exactly


def _run(tmp: Path, arm: list[str], name: str, *extra: str) -> tuple[dict, list[tuple[str, ...]], dict]:
    runs = tmp / f"runs-{name}"
    assert main(["run", *arm, f"paths.runs={runs}", *extra]) == 0
    [folder] = [p.parent for p in runs.glob("*/record.json")]
    rec = json.loads((folder / "record.json").read_text())
    assert rec["status"] == "ok", rec.get("error")
    trec = [tuple(line.split()[:4]) for line in (folder / "run.trec").read_text().splitlines()]
    per_query = pd.read_parquet(folder / "per_query.parquet")
    scores = {q: json.loads(s) for q, s in zip(per_query["qid"], per_query["top10_scores"])}
    return rec, trec, scores


def _same_scores(a: dict, b: dict) -> None:
    assert a.keys() == b.keys()
    for qid in a:
        np.testing.assert_allclose(a[qid], b[qid], rtol=0, atol=TOL)


@pytest.mark.parametrize("retriever", ["exact", "hybrid"])
def test_the_shared_store_ranks_as_an_index_per_snapshot(snapshot_set, retriever):
    tmp, arm = snapshot_set
    arm = [w if not w.startswith("retriever=") else f"retriever={retriever}" for w in arm]
    before, trec_before, scores_before = _run(tmp, arm, "per-snapshot", "+snapshot_dense=per_snapshot",
                                              "snapshot_batch=0")
    shared, trec_shared, scores_shared = _run(tmp, arm, "shared", "snapshot_batch=0")
    batched, trec_batched, scores_batched = _run(tmp, arm, "batched", "snapshot_batch=3")
    assert len(trec_before) > 8 * 3
    assert trec_shared == trec_before and trec_batched == trec_before
    _same_scores(scores_shared, scores_before)
    _same_scores(scores_batched, scores_before)
    assert "vector_store" not in before["embeddings"]
    store = shared["embeddings"]["vector_store"]
    assert store["modes"] == {"dense": "exact_members"} and store["mapped_blocks"] == 0
    for rec in (shared, batched):
        work = sorted(rec["snapshot_work"].values(), key=lambda w: w["position"])
        # each distinct text is stored once for the set: the snapshots' additions add up to the store's rows
        assert sum(w["vectors_stored"] for w in work) == rec["embeddings"]["vector_store"]["rows"]
        assert all(w["vectors_stored"] < work[0]["vectors_stored"] for w in work[1:])  # later ones add few
        assert all(w["build_seconds"] >= 0 and "embedded" in w and "embeddings_cached" in w for w in work)
    # per snapshot, every text went through the embedder (cache) again; with the store only the new ones
    per_snapshot_reads = sum(w["embedded"] + w["embeddings_cached"] for w in before["snapshot_work"].values())
    shared_reads = sum(w["embedded"] + w["embeddings_cached"] for w in shared["snapshot_work"].values())
    assert shared_reads == store["rows"] < per_snapshot_reads


def test_filtered_faiss_flat_ranks_as_an_index_per_snapshot(snapshot_set):
    """faiss flat is exact: one index over the distinct vectors searched with the snapshot's members as a filter
    finds the same documents; only near-ties (scores within TOL) may swap, as two faiss kernels may score
    identical vectors an ulp apart."""
    tmp, arm = snapshot_set
    arm = [w if not w.startswith("retriever=") else "retriever=faiss_flat" for w in arm]
    _, trec_before, scores_before = _run(tmp, arm, "flat-per-snapshot", "+snapshot_dense=per_snapshot")
    rec, trec_filtered, scores_filtered = _run(tmp, arm, "flat-filtered", "+snapshot_dense=filtered")
    assert rec["embeddings"]["vector_store"]["modes"] == {"dense": "filtered"}
    _same_scores(scores_filtered, scores_before)
    by_query = lambda trec: {q: [d for qq, _, d, _ in trec if qq == q] for q, *_ in trec}  # noqa: E731
    got, want = by_query(trec_filtered), by_query(trec_before)
    assert got.keys() == want.keys()
    for qid in want:
        assert set(got[qid]) == set(want[qid])  # every hit in the query's own snapshot, none missing
        assert all(d.split("/")[0] == want[qid][0].split("/")[0] for d in got[qid])
