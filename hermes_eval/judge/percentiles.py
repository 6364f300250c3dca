"""Latency percentiles of per-query samples."""
from __future__ import annotations

from typing import Sequence

import numpy as np


def latency_summary(samples_ns: Sequence[int]) -> dict:
    """Milliseconds: p50/p90/p95/p99, mean and n."""
    x = np.asarray(samples_ns, dtype=np.float64) / 1e6
    if x.size == 0:
        return {"n": 0}
    q = np.percentile(x, [50, 90, 95, 99])
    return {"p50": round(float(q[0]), 4), "p90": round(float(q[1]), 4), "p95": round(float(q[2]), 4),
            "p99": round(float(q[3]), 4), "mean": round(float(x.mean()), 4), "n": int(x.size)}
