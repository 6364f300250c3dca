"""Latency measured in this run, in A-B-…-A order: B is compared with the mean of A before and after
it (linear drift cancels), and A against itself tells whether the machine was steady enough."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hermes_eval.core.errors import UserError
from hermes_eval.record.folder import RunFiles
from hermes_eval.judge.significance import EffectCI, ratio_bootstrap


@dataclass(frozen=True)
class LatencySample:
    """One measurement of one arm: the record's percentile and the per-query milliseconds."""

    arm: str
    order: int  # position in the measurement sequence
    finished_at: str
    percentile_ms: float
    per_query_ms: pd.Series  # indexed by qid


@dataclass(frozen=True)
class LatencyComparison:
    """B against A's two measurements."""

    a_ms: float  # percentile of A's per-query ms averaged over its two measurements (shared queries)
    b_ms: float  # percentile of B's per-query ms (same queries)
    ratio: EffectCI  # point = b_ms / a_ms exactly; CI: paired bootstrap over queries of that same ratio
    drift: float  # A's second recorded percentile / first - 1


def snapshot(arm: str, order: int, record: dict, files: RunFiles, stage: str, pct: str) -> LatencySample:
    """Copy a measurement out of its run directory before a re-run overwrites it."""
    value = ((record.get("latency_ms") or {}).get(stage) or {}).get(pct)
    ms = files.stage_ms().get(stage)
    if value is None or ms is None:
        have = sorted(record.get("latency_ms") or {})
        raise UserError(f"run {files.run_dir}: no {pct} latency for stage {stage!r}; "
                        f"set rule.latency_stage to one of {', '.join(have)}")
    series = pd.Series(ms.to_numpy(dtype=float), index=files.per_query["qid"].to_numpy())
    return LatencySample(arm, order, str(record.get("finished_at")), float(value), series)


def compare_latency(a_first: LatencySample, a_last: LatencySample, b: LatencySample, q: float,
                    resamples: int, seed: int) -> LatencyComparison:
    """B's latency over A's, point and CI of one statistic, on the queries all three measurements share:

        ratio = percentile_q(b per query) / percentile_q((a_first + a_last) / 2 per query)

    The point is that statistic on the data, and the CI is the paired percentile bootstrap of that same
    statistic (``ratio_bootstrap`` resamples queries, keeping each query's A and B together).  Drift is
    A's second recorded percentile over its first, minus 1 (A against itself)."""
    qids = sorted(set(a_first.per_query_ms.index) & set(a_last.per_query_ms.index) & set(b.per_query_ms.index))
    if not qids:
        raise UserError(f"latency of arms {a_first.arm} and {b.arm} shares no queries to pair; "
                        "give every arm the same queryset")
    a_ms = (a_first.per_query_ms.loc[qids].to_numpy() + a_last.per_query_ms.loc[qids].to_numpy()) / 2
    b_ms = b.per_query_ms.loc[qids].to_numpy()
    ratio = ratio_bootstrap(a_ms, b_ms, q, resamples, seed)
    drift = a_last.percentile_ms / a_first.percentile_ms - 1 if a_first.percentile_ms > 0 else float("inf")
    return LatencyComparison(float(np.percentile(a_ms, q)), float(np.percentile(b_ms, q)), ratio, drift)


def as_array(sample: LatencySample) -> np.ndarray:
    return np.sort(sample.per_query_ms.to_numpy(dtype=float))
