"""Bootstrap confidence intervals of a mean over queries: the one implementation.

``summarize`` (a metric's CI in every run record) and ``judge.significance.paired_bootstrap`` (a paired
effect, the mean of per-query differences) both call ``bootstrap_ci``.  Ratios of latency
percentiles are a different statistic and live in ``judge.significance.ratio_bootstrap``.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

METHOD = "BCa"
# Resamples (and jackknife rows) per vectorized call: bounds memory at BATCH x n values and is the
# fastest setting measured for 300..10,000 queries.  It does not change the result: scipy draws the
# same resample indices whatever the batch.
BATCH = 100
ALPHA = 0.05  # a summary's CI is the 95% one


def bootstrap_ci(values: Sequence[float], n_resamples: int = 1000, seed: int = 0,
                 alpha: float = ALPHA) -> tuple[float, float]:
    """BCa bootstrap CI of the mean: ``scipy.stats.bootstrap(method='BCa')``, vectorized, with
    ``rng=np.random.default_rng(seed)`` and ``confidence_level=1 - alpha`` (0.95 by default), computed
    by judge/bca.py, its steps without importing scipy.stats.

    Degenerate inputs give no warning and no NaN: no values -> (0, 0); one value or all values
    identical -> (v, v); ``n_resamples == 0`` (``bootstrap: 0`` in a config) -> (mean, mean).  Should
    BCa still be undefined (every resample on one side of the mean, possible only with very few
    resamples), the percentile interval of the same resamples is returned instead.
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    if x.size == 0:
        return (0.0, 0.0)
    if x.min() == x.max():
        return (float(x[0]), float(x[0]))
    if n_resamples <= 0:
        m = float(x.mean())
        return (m, m)
    from hermes_eval.judge.bca import bca_interval

    lo, hi, resampled = bca_interval(x, int(n_resamples), BATCH, 1 - alpha, np.random.default_rng(seed))
    return _defined(lo, hi, resampled, alpha)


def _defined(lo: float, hi: float, resampled: np.ndarray, alpha: float) -> tuple[float, float]:
    """The BCa interval, or where BCa is undefined the percentile interval of the same resamples."""
    if np.isfinite(lo) and np.isfinite(hi):
        return (lo, hi)
    low, high = np.quantile(resampled, [alpha / 2, 1 - alpha / 2])
    return (float(low), float(high))


def summarize(values: Sequence[float], seed: int = 0, n_resamples: int = 1000) -> dict:
    """Mean and 95% BCa bootstrap CI (``bootstrap_ci``), rounded to 10 digits, and the count."""
    lo, hi = bootstrap_ci(values, n_resamples=n_resamples, seed=seed)
    return _summary(values, lo, hi)


def _summary(values: Sequence[float], lo: float, hi: float) -> dict:
    return {"mean": round(float(np.mean(values)) if len(values) else 0.0, 10),
            "ci_low": round(lo, 10), "ci_high": round(hi, 10), "n": len(values)}


def summarize_all(columns: Mapping[str, Sequence[float]], seed: int = 0, n_resamples: int = 1000) -> dict[str, dict]:
    """``{name: summarize(values)}`` for every column, equal to it, with the columns of one size resampled
    together (judge/bca.py's ``bca_intervals``): a run's 53 metrics over the same queries draw their resample
    indices once instead of 53 times (about 3x faster from 163 to 1,047 queries)."""
    from hermes_eval.judge.bca import bca_intervals

    out: dict[str, dict] = {}
    by_size: dict[int, list[tuple[str, np.ndarray]]] = {}
    for name, values in columns.items():
        x = np.asarray(values, dtype=np.float64).ravel()
        if x.size == 0 or x.min() == x.max() or n_resamples <= 0:
            out[name] = summarize(values, seed=seed, n_resamples=n_resamples)
        else:
            by_size.setdefault(x.size, []).append((name, x))
    for rows in by_size.values():
        cis, resampled = bca_intervals(np.stack([x for _, x in rows]), int(n_resamples), BATCH, 1 - ALPHA,
                                       np.random.default_rng(seed))
        for (name, _), (lo, hi), dist in zip(rows, cis, resampled):
            out[name] = _summary(columns[name], *_defined(lo, hi, dist, ALPHA))
    return {name: out[name] for name in columns}
