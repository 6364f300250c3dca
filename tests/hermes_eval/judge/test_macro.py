"""The mean of per-stratum means and its stratified bootstrap CI, against a resampling loop
written out here (each stratum resampled on its own, percentile interval)."""
from __future__ import annotations

import numpy as np

from hermes_eval.judge.macro import macro_mean


def stratified_percentile(groups, n=4000, seed=3):
    rng = np.random.default_rng(seed)
    stats = [np.mean([rng.choice(g, size=len(g)).mean() for g in groups.values()]) for _ in range(n)]
    return tuple(np.quantile(stats, [0.025, 0.975]))


def test_the_mean_weights_every_stratum_alike():
    groups = {"big": [0.0] * 90 + [1.0] * 10, "small": [1.0] * 5}
    mean, (lo, hi) = macro_mean(groups)
    assert mean == (0.1 + 1.0) / 2  # not the 15/105 a mean over queries gives
    assert lo < mean < hi


def test_ci_agrees_with_an_independent_stratified_bootstrap():
    rng = np.random.default_rng(0)
    groups = {"a": rng.random(40), "b": rng.random(120) * 0.4, "c": (rng.random(15) > 0.3).astype(float)}
    _, (lo, hi) = macro_mean(groups, n_resamples=4000)
    want = stratified_percentile(groups)
    assert abs(lo - want[0]) < 0.01 and abs(hi - want[1]) < 0.01
    # a mean over the pooled queries would resample the strata's sizes too: a different statistic
    assert not np.isclose(np.mean(np.concatenate(list(groups.values()))), macro_mean(groups)[0])


def test_degenerate_strata():
    assert macro_mean({}) == (0.0, (0.0, 0.0))
    assert macro_mean({"a": [1.0, 1.0], "b": [0.0]}) == (0.5, (0.5, 0.5))
    assert macro_mean({"a": [], "b": [0.25, 0.75]}, n_resamples=0) == (0.5, (0.5, 0.5))
