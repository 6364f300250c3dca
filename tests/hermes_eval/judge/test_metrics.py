"""Metrics: ranx wrapper against hand-computed values; CIs; latency percentiles."""
from __future__ import annotations

import math

import warnings

import numpy as np
import pytest
from scipy import stats as sp

from hermes_eval.judge.bootstrap import bootstrap_ci, summarize
from hermes_eval.judge.percentiles import latency_summary
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


@pytest.mark.parametrize("n,seed,resamples", [(7, 0, 1000), (60, 3, 500), (301, 11, 1000)])
def test_bootstrap_ci_is_scipy_bca_with_a_seeded_generator(n, seed, resamples):
    rng = np.random.default_rng(100 + n)
    vals = rng.random(n) * (rng.random(n) < 0.7)  # metric-like: many zeros
    direct = sp.bootstrap((vals,), np.mean, n_resamples=resamples, confidence_level=0.95, method="BCa",
                          rng=np.random.default_rng(seed)).confidence_interval
    # the normal CDF/quantile are the standard library's (judge/bca.py): equal to scipy's to an ulp
    assert bootstrap_ci(vals, n_resamples=resamples, seed=seed) == pytest.approx(
        (float(direct.low), float(direct.high)), rel=1e-12, abs=0)
    s = summarize(list(vals), seed=seed, n_resamples=resamples)
    assert (s["ci_low"], s["ci_high"]) == (round(float(direct.low), 10), round(float(direct.high), 10))
    assert s["mean"] == round(float(np.mean(vals)), 10) and s["n"] == n


@pytest.mark.parametrize("values,resamples,expected", [
    ([], 1000, (0.0, 0.0, 0.0, 0)),
    ([0.25], 1000, (0.25, 0.25, 0.25, 1)),
    ([0.0] * 40, 1000, (0.0, 0.0, 0.0, 40)),
    ([1.0] * 40, 1000, (1.0, 1.0, 1.0, 40)),
    ([0.0, 1.0, 0.5, 0.5], 0, (0.5, 0.5, 0.5, 4)),  # `bootstrap: 0` in a config
])
def test_summarize_degenerate_inputs_without_warnings_or_nan(values, resamples, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = summarize(values, n_resamples=resamples)
    assert (s["mean"], s["ci_low"], s["ci_high"], s["n"]) == expected


def test_bootstrap_ci_stays_finite_when_bca_is_undefined():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lo, hi = bootstrap_ci([0.0, 1.0], n_resamples=1)  # one resample: BCa's bias correction is infinite
    assert math.isfinite(lo) and math.isfinite(hi) and 0.0 <= lo <= hi <= 1.0


def test_latency_summary_in_ms():
    s = latency_summary([1_000_000 * i for i in range(1, 101)])
    assert s["n"] == 100 and s["p50"] == pytest.approx(50.5) and s["p99"] == pytest.approx(99.01)
