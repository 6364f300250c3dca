"""Percentiles of per-query samples and chunk sizes: ``np.percentile``'s default (linear) method, the same floats,
without the ``numpy.ma`` import its partition makes through ``np.unique`` (a sixtieth of a small run).
tests/hermes_eval/judge/test_percentiles.py compares them with numpy's own."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def percentiles(values: Sequence[float] | np.ndarray, qs: Sequence[float]) -> np.ndarray:
    """``np.percentile(values, qs)`` of 1-d ``values`` (numpy's linear method, step by step as numpy takes it)."""
    x = np.sort(np.asarray(values).ravel())
    if x.size == 0:
        raise ValueError("percentiles of no values")
    q = np.true_divide(np.asarray(qs, dtype=np.float64), 100)
    if np.any((q < 0) | (q > 1)):
        raise ValueError("percentiles must lie in [0, 100]")
    n = x.size
    virtual = (n - 1) * q
    prev = np.floor(virtual)
    nxt = prev + 1
    above = virtual >= n - 1
    prev[above], nxt[above] = -1, -1
    prev_i, next_i = prev.astype(np.intp), nxt.astype(np.intp)
    a, b = x[prev_i], x[next_i]
    gamma = np.asarray(virtual - prev, dtype=virtual.dtype)
    diff = b - a
    out = np.add(a, diff * gamma)
    np.subtract(b, diff * (1 - gamma), out=out, where=gamma >= 0.5, casting="unsafe")
    if np.issubdtype(x.dtype, np.inexact) and np.isnan(x[-1]):
        out[:] = np.nan  # a NaN among the values: numpy answers NaN
    return out


def latency_summary(samples_ns: Sequence[int]) -> dict:
    """Milliseconds: p50/p90/p95/p99, mean and n."""
    x = np.asarray(samples_ns, dtype=np.float64) / 1e6
    if x.size == 0:
        return {"n": 0}
    q = percentiles(x, [50, 90, 95, 99])
    return {"p50": round(float(q[0]), 4), "p90": round(float(q[1]), 4), "p95": round(float(q[2]), 4),
            "p99": round(float(q[3]), 4), "mean": round(float(x.mean()), 4), "n": int(x.size)}
