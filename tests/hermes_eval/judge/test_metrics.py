"""Metrics: ranx wrapper against hand-computed values; CIs; latency percentiles."""
from __future__ import annotations

import math

import pytest

from hermes_eval.judge.bootstrap import bootstrap_ci
from hermes_eval.judge.latency import latency_summary
from hermes_eval.judge.ranking import per_query


def test_per_query_values_match_hand_computation():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}, "q3": {"z": 1}, "q4": {}}
    rankings = {"q1": ["x", "a", "y", "b"], "q2": ["c"], "q3": []}
    m = per_query(qrels, rankings, ["recall@2", "mrr@10", "ndcg@10"])
    assert m["recall@2"] == {"q1": 0.5, "q2": 1.0, "q3": 0.0, "q4": 0.0}
    assert m["mrr@10"] == {"q1": 0.5, "q2": 1.0, "q3": 0.0, "q4": 0.0}
    dcg = 1 / math.log2(3) + 1 / math.log2(5)
    idcg = 1 + 1 / math.log2(3)
    assert m["ndcg@10"]["q1"] == pytest.approx(dcg / idcg)


def test_bootstrap_ci_is_seeded_and_brackets_the_mean():
    vals = [0, 1, 1, 0, 1, 0.5, 0.25, 1, 0, 1] * 5
    a, b = bootstrap_ci(vals, seed=3), bootstrap_ci(vals, seed=3)
    assert a == b and a[0] < sum(vals) / len(vals) < a[1]
    assert bootstrap_ci([0.5] * 10) == (0.5, 0.5)


def test_latency_summary_in_ms():
    s = latency_summary([1_000_000 * i for i in range(1, 101)])
    assert s["n"] == 100 and s["p50"] == pytest.approx(50.5) and s["p99"] == pytest.approx(99.01)
