"""Paired statistics: ranx significance tests, Holm correction, paired bootstrap effect sizes."""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from hermes_eval.judge.bootstrap import bootstrap_ci

STAT_TESTS = ("student", "fisher")  # ranx's two-sided paired t-test and randomization test
DEFAULT_STAT_TEST = "student"
DEFAULT_ALPHA = 0.05
DEFAULT_PERMUTATIONS = 1000
DEFAULT_RESAMPLES = 2000
RANX_SEED = 42


@dataclass(frozen=True)
class PairedTest:
    """One paired comparison of arm B against baseline A on one metric."""

    metric: str
    mean_a: float
    mean_b: float
    p_value: float
    n: int
    method: str  # "ranx.compare" or "ranx paired test on per-query values"

    @property
    def delta(self) -> float:
        return self.mean_b - self.mean_a


@dataclass(frozen=True)
class EffectCI:
    """A paired effect with its bootstrap CI: the mean of per-query differences (B - A) from
    ``paired_bootstrap``, or a latency percentile ratio from ``ratio_bootstrap``."""

    mean: float
    ci_low: float
    ci_high: float
    n: int


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm step-down adjusted p-values (same order as given, monotone, capped at 1)."""
    p = [1.0 if (v is None or math.isnan(v)) else float(v) for v in p_values]
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def paired_bootstrap(a: Sequence[float], b: Sequence[float], n_resamples: int = DEFAULT_RESAMPLES,
                     seed: int = 0, alpha: float = DEFAULT_ALPHA) -> EffectCI:
    """Mean of the per-query differences b - a and its BCa bootstrap CI.

    The paired form used here is the one-sample bootstrap of the differences d = b - a (resampling a
    query keeps its pair together), computed by ``judge.bootstrap.bootstrap_ci`` — the same
    implementation as every metric CI, with the same degenerate cases (no queries -> 0 with n = 0;
    one query, all differences equal or ``n_resamples == 0`` -> CI at the mean difference)."""
    d = np.asarray(b, dtype=np.float64) - np.asarray(a, dtype=np.float64)
    if d.size == 0:
        return EffectCI(0.0, 0.0, 0.0, 0)
    lo, hi = bootstrap_ci(d, n_resamples=n_resamples, seed=seed, alpha=alpha)
    return EffectCI(float(d.mean()), lo, hi, int(d.size))


def ratio_bootstrap(a: Sequence[float], b: Sequence[float], q: float, n_resamples: int = DEFAULT_RESAMPLES,
                    seed: int = 0, alpha: float = DEFAULT_ALPHA) -> EffectCI:
    """Percentile(b, q) / percentile(a, q) (latency ratios) with a paired percentile bootstrap CI.

    Not a mean, so not ``bootstrap_ci``: each resample draws queries with replacement (a query's a and
    b stay together) and recomputes exactly the point statistic.  A zero percentile of a gives inf
    (numpy division, no warning); ``n_resamples == 0`` gives the CI at the point."""
    xa, xb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if xa.size == 0 or xa.size != xb.size:
        return EffectCI(float("nan"), float("nan"), float("nan"), 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        point = float(np.percentile(xb, q) / np.percentile(xa, q))
        if n_resamples <= 0:
            return EffectCI(point, point, point, int(xa.size))
        rng = np.random.default_rng(seed)
        idx = rng.integers(0, xa.size, size=(n_resamples, xa.size))
        ratios = np.percentile(xb[idx], q, axis=1) / np.percentile(xa[idx], q, axis=1)
        lo, hi = np.quantile(ratios, [alpha / 2, 1 - alpha / 2])
    return EffectCI(point, float(lo), float(hi), int(xa.size))


def _clean(p: float) -> float:
    """Identical arms make the t statistic 0/0: no evidence of a difference, p = 1."""
    return 1.0 if p is None or math.isnan(float(p)) else float(p)


def paired_pvalue(a: Sequence[float], b: Sequence[float], stat_test: str = DEFAULT_STAT_TEST,
                  n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = RANX_SEED) -> float:
    """ranx's own paired test (the one `compare` runs) on per-query values of any metric."""
    from ranx.statistical_tests import fisher_randomization_test, paired_student_t_test

    xa, xb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if stat_test not in STAT_TESTS:
        raise ValueError(f"stat_test must be one of {STAT_TESTS}, got {stat_test!r}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if stat_test == "student":
            p, _ = paired_student_t_test(xa, xb)
        else:
            p, _ = fisher_randomization_test(xa, xb, n_permutations, 1.0, seed)
    return _clean(p)


def ranx_compare_values(metric: str, a: Sequence[float], b: Sequence[float], stat_test: str = DEFAULT_STAT_TEST,
                        n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = RANX_SEED) -> PairedTest:
    """What ``ranx.compare`` reports for two runs whose per-query scores of ``metric`` (as ranx evaluates
    them) are ``a`` and ``b``, aligned in the order of the qrels' query ids: each mean as ``ranx.compare``
    takes it (``np.mean`` of the scores) and the p-value of the call it makes once both runs are evaluated,
    ranx's ``compute_statistical_significance`` over the two (same test, permutations, ``max_p`` 1 and
    seed; the pair keeps its last test, B as control). Without the ``Run`` and ``Qrels`` it builds first:
    a run's per-query table already holds those scores (``judge/score.py`` computes them with ranx's kernels,
    ``judge/measures``, equal to ranx bit for bit)."""
    from ranx.statistical_tests import compute_statistical_significance

    if stat_test not in STAT_TESTS:
        raise ValueError(f"stat_test must be one of {STAT_TESTS}, got {stat_test!r}")
    xa, xb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tests = compute_statistical_significance(["A", "B"], {"A": {metric: xa}, "B": {metric: xb}}, stat_test,
                                                 n_permutations, 1.0, seed)
    return PairedTest(metric, float(np.mean(xa)), float(np.mean(xb)),
                      _clean(tests[frozenset(["A", "B"])][metric]["p_value"]), int(xa.size), "ranx.compare")


def vector_test(metric: str, a: Sequence[float], b: Sequence[float], stat_test: str = DEFAULT_STAT_TEST,
                n_permutations: int = DEFAULT_PERMUTATIONS, seed: int = RANX_SEED) -> PairedTest:
    """A paired test on aligned per-query values (metrics ranx cannot compute itself)."""
    p = paired_pvalue(a, b, stat_test, n_permutations, seed)
    return PairedTest(metric, float(np.mean(a)) if len(a) else 0.0, float(np.mean(b)) if len(b) else 0.0,
                      p, len(a), "ranx paired test on per-query values")
