"""The metric registry: every recorded metric is declared once, with its level, cut-off and ranx name."""
from __future__ import annotations

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.core.metrics import REGISTRY, at_level, metric


def test_levels_and_ranx_names_come_from_declarations():
    assert metric("ndcg@10").level == "chunk" and metric("ndcg@10").ranx == "ndcg@10"
    assert metric("file_recall@5").level == "file" and metric("file_recall@5").ranx == "recall@5"
    assert metric("file_recall@5").k == 5 and metric("mrr@10").family == "mrr"
    assert metric("line_coverage@10").ranx is None and metric("line_coverage@10").k == 10
    assert metric("budget_line_coverage@2k").k == 2000 and metric("budget_recall@4k").level == "budget"
    assert all(m.higher_is_better for m in REGISTRY.values())


def test_only_chunk_and_module_level_depend_on_the_chunking():
    assert {m.level for m in REGISTRY.values() if not m.chunking_fair} == {"chunk", "module"}
    assert [m.name for m in at_level("module")] == [f"module_{f}@{k}" for f in ("hit", "acc", "acc_all")
                                                    for k in (5, 10)]
    assert [m.name for m in at_level("chunk")] == ["recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10",
                                                   *(f"{f}@{k}" for f in ("hit", "acc", "acc_all") for k in (1, 3, 5, 10))]


def test_unknown_metric_is_a_one_line_error_listing_the_known_ones():
    with pytest.raises(UserError) as err:
        metric("ndcg@11")
    assert "ndcg@11" in str(err.value) and "file_ndcg@10" in str(err.value) and "\n" not in str(err.value)


def test_every_score_the_judge_writes_is_registered(tmp_path):
    from hermes_eval.core import Query, Span
    from hermes_eval.judge.relevance import ChunkLookup
    from hermes_eval.judge.score import score
    from retrievers.chunk import Chunk

    chunks = [Chunk("a.py", 1, 5, "x\n" * 5), Chunk("b.py", 1, 5, "y\n" * 5)]
    q = Query("q1", "x", (Span("a.py", 2, 3),))
    s = score([q], {"q1": ["b.py:1-5", "a.py:1-5"]}, ChunkLookup(chunks), seed=0, n_resamples=10)
    assert list(s.summary) == list(REGISTRY)
    assert s.per_query["recall@5"]["q1"] == 1.0 and s.per_query["mrr@10"]["q1"] == 0.5
    assert s.per_query["file_mrr@10"]["q1"] == 0.5 and s.per_query["line_coverage@5"]["q1"] == 1.0
