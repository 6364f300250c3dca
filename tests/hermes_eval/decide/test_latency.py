"""Latency ratio of a decision: the point and its CI are one statistic on the same queries."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.decide.latency import LatencySample, compare_latency
from hermes_eval.decide.render import latency_note
from hermes_eval.judge.significance import ratio_bootstrap


def sample(arm: str, order: int, ms: np.ndarray, qids: list[str], recorded: float) -> LatencySample:
    return LatencySample(arm, order, "2026-01-01T00:00:00", recorded, pd.Series(ms, index=qids))


def arms(n: int = 200, seed: int = 0):
    rng = np.random.default_rng(seed)
    qids = [f"q{i:04d}" for i in range(n)]  # sorted as compare_latency sorts them
    a1 = rng.lognormal(2.0, 0.5, n)
    a2 = a1 * rng.uniform(0.9, 1.2, n)  # A measured again, a little slower and noisier
    b = a1 * rng.uniform(1.1, 1.6, n)
    # recorded percentiles deliberately differ from the per-query ones: they must not set the point
    return (sample("A", 0, a1, qids, 999.0), sample("A", 2, a2, qids, 1098.9), sample("B", 1, b, qids, 5.0),
            a1, a2, b)


@pytest.mark.parametrize("q", [50.0, 95.0, 99.0])
def test_point_is_the_bootstrapped_statistic_and_lies_in_its_ci(q):
    a_first, a_last, b, a1, a2, bms = arms()
    c = compare_latency(a_first, a_last, b, q, resamples=2000, seed=3)
    direct = np.percentile(bms, q) / np.percentile((a1 + a2) / 2, q)
    assert c.ratio.mean == pytest.approx(direct, rel=1e-12)
    assert c.ratio.mean == pytest.approx(c.b_ms / c.a_ms, rel=1e-12)
    assert c.a_ms == pytest.approx(np.percentile((a1 + a2) / 2, q)) and c.b_ms == pytest.approx(np.percentile(bms, q))
    assert c.ratio.ci_low <= c.ratio.mean <= c.ratio.ci_high
    boot = ratio_bootstrap((a1 + a2) / 2, bms, q, 2000, 3)
    assert (c.ratio.ci_low, c.ratio.ci_high, c.ratio.n) == (boot.ci_low, boot.ci_high, 200)
    assert c.drift == pytest.approx(1098.9 / 999.0 - 1)  # drift stays on A's recorded percentiles


def test_only_queries_all_three_measurements_share_count():
    a_first, a_last, b, a1, a2, bms = arms()
    b_short = sample("B", 1, bms[:150], [f"q{i:04d}" for i in range(150)], 5.0)
    c = compare_latency(a_first, a_last, b_short, 95.0, resamples=500, seed=0)
    assert c.ratio.n == 150
    assert c.ratio.mean == pytest.approx(np.percentile(bms[:150], 95) / np.percentile((a1[:150] + a2[:150]) / 2, 95))
    with pytest.raises(UserError, match="shares no queries"):
        compare_latency(a_first, a_last, sample("B", 1, bms[:5], ["x1", "x2", "x3", "x4", "x5"], 5.0), 95.0, 500, 0)


def test_ratio_bootstrap_degenerate_inputs():
    assert ratio_bootstrap([1.0, 2.0], [2.0, 4.0], 95, n_resamples=0).ci_low == pytest.approx(2.0)
    r = ratio_bootstrap([0.0, 0.0], [1.0, 2.0], 95, n_resamples=50)
    assert r.mean == float("inf")


def test_decision_record_explains_the_ratio_as_one_statistic():
    rule = SimpleNamespace(latency_percentile="p95", latency_stage="total")
    spec = SimpleNamespace(rule=rule, resamples=2000, seed=0)
    note = latency_note(spec)
    assert "Latency ratio B/A = p95 of B's per-query total ms ÷ p95 of A's per-query total ms averaged" in note
    assert "recomputes the same ratio on 2000 resamples" in note and "A/A drift" in note
