"""Bootstrap confidence intervals of a mean over queries."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def bootstrap_ci(values: Sequence[float], n_resamples: int = 1000, seed: int = 0,
                 alpha: float = 0.05) -> tuple[float, float]:
    """Percentile bootstrap CI of the mean."""
    x = np.asarray(values, dtype=np.float64)
    if x.size == 0:
        return (0.0, 0.0)
    rng = np.random.default_rng(seed)
    means = x[rng.integers(0, x.size, size=(n_resamples, x.size))].mean(axis=1)
    return (float(np.quantile(means, alpha / 2)), float(np.quantile(means, 1 - alpha / 2)))


def summarize(values: Sequence[float], seed: int = 0, n_resamples: int = 1000) -> dict:
    lo, hi = bootstrap_ci(values, n_resamples=n_resamples, seed=seed)
    return {"mean": round(float(np.mean(values)) if len(values) else 0.0, 10),
            "ci_low": round(lo, 10), "ci_high": round(hi, 10), "n": len(values)}
