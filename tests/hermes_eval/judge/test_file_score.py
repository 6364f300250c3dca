"""File rankings from chunk rankings and raw scores: max (the default), first chunk, sum of the top k."""
from __future__ import annotations

import pytest

from hermes_eval.core import Query, Span
from hermes_eval.judge.file_score import FileScore
from hermes_eval.judge.relevance import ChunkLookup, file_ranking
from hermes_eval.judge.score import score_queries
from retrievers.chunk import Chunk

# a.py has one strong chunk, b.py three middling ones, c.py's first chunk is weak but ranked
HITS = ["a.py:10-20", "b.py:1-9", "c.py:30-40", "b.py:10-19", "b.py:20-29", "c.py:1-9"]
SCORES = [0.90, 0.60, 0.55, 0.50, 0.45, 0.10]
FIRST = {"a.py": "a.py:1-9", "b.py": "b.py:1-9", "c.py": "c.py:1-9"}.get


def test_max_is_the_order_of_each_files_best_chunk():
    assert FileScore().ranking(HITS, SCORES, FIRST) == file_ranking(HITS) == ["a.py", "b.py", "c.py"]


def test_sum_top_k_adds_a_files_best_k_chunks():
    assert FileScore("sum_top_k", k=3).ranking(HITS, SCORES, FIRST) == ["b.py", "a.py", "c.py"]  # 1.55, 0.9, 0.65
    assert FileScore("sum_top_k", k=1).ranking(HITS, SCORES, FIRST) == ["a.py", "b.py", "c.py"]  # k=1 is max
    assert FileScore("sum_top_k", k=2).ranking(HITS, SCORES, FIRST) == ["b.py", "a.py", "c.py"]  # 1.1 > 0.9


def test_first_scores_a_file_by_its_first_chunk_only():
    """a.py's first chunk was not retrieved: a.py is not ranked; c.py ranks by its weak first chunk."""
    assert FileScore("first").ranking(HITS, SCORES, FIRST) == ["b.py", "c.py"]


def test_ties_keep_the_order_of_first_appearance():
    hits, scores = ["z.py:1-2", "y.py:1-2", "z.py:3-4", "y.py:3-4"], [0.5, 0.5, 0.25, 0.25]
    assert FileScore("sum_top_k", k=2).ranking(hits, scores, FIRST) == ["z.py", "y.py"]


def test_scores_must_match_the_ranking_and_settings_are_checked():
    with pytest.raises(ValueError):
        FileScore("sum_top_k").ranking(HITS, SCORES[:-1], FIRST)
    with pytest.raises(ValueError):
        FileScore("mean")
    with pytest.raises(ValueError):
        FileScore("sum_top_k", k=0)


def test_the_judge_scores_file_metrics_on_the_declared_ranking():
    chunks = [Chunk(p, s, e, "x\n" * (e - s + 1)) for p, s, e in
              [("a.py", 1, 9), ("a.py", 10, 20), ("b.py", 1, 9), ("b.py", 10, 19), ("b.py", 20, 29),
               ("c.py", 1, 9), ("c.py", 30, 40)]]
    lookup = ChunkLookup(chunks)
    assert lookup.first_chunk("b.py") == "b.py:1-9" and lookup.first_chunk("nowhere.py") is None
    q = Query(qid="q1", query="q", gold=(Span("b.py", 12, 14),))
    rankings = {"q1": HITS}
    by_max = score_queries([q], rankings, lookup, lines=False)
    files = FileScore("sum_top_k", k=3).rankings(rankings, {"q1": SCORES}, lookup.first_chunk)
    by_sum = score_queries([q], rankings, lookup, lines=False, files=files)
    assert by_max.per_query["file_mrr"]["q1"] == 0.5 and by_sum.per_query["file_mrr"]["q1"] == 1.0
    assert by_sum.file_rankings == {"q1": ["b.py", "a.py", "c.py"]} and by_max.file_rankings == {}
    assert by_sum.per_query["mrr@10"] == by_max.per_query["mrr@10"]  # chunk level untouched
