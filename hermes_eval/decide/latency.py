"""Latency measured in this run, in A-B-…-A order: B is compared with the mean of A before and after
it (linear drift cancels), and A against itself tells whether the machine was steady enough."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from hermes_eval.core.errors import UserError
from hermes_eval.record.folder import RunFiles
from hermes_eval.judge.paired import EffectCI, ratio_bootstrap


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

    a_ms: float  # mean of A's two percentiles
    b_ms: float
    ratio: EffectCI  # point = b_ms / a_ms; CI by paired bootstrap over queries
    drift: float  # A's second percentile / first - 1


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
    """Ratio of B's percentile to the mean of A's two, with a per-query paired bootstrap CI."""
    qids = sorted(set(a_first.per_query_ms.index) & set(a_last.per_query_ms.index) & set(b.per_query_ms.index))
    a_ms = (a_first.per_query_ms.loc[qids].to_numpy() + a_last.per_query_ms.loc[qids].to_numpy()) / 2
    boot = ratio_bootstrap(a_ms, b.per_query_ms.loc[qids].to_numpy(), q, resamples, seed)
    a_point = (a_first.percentile_ms + a_last.percentile_ms) / 2
    ratio = b.percentile_ms / a_point if a_point > 0 else float("inf")
    drift = a_last.percentile_ms / a_first.percentile_ms - 1 if a_first.percentile_ms > 0 else float("inf")
    return LatencyComparison(a_point, b.percentile_ms, EffectCI(ratio, boot.ci_low, boot.ci_high, boot.n), drift)


def sequence_label(samples: list[LatencySample]) -> str:
    """e.g. ``A → B → A``."""
    return " → ".join(s.arm for s in sorted(samples, key=lambda s: s.order))


def as_array(sample: LatencySample) -> np.ndarray:
    return np.sort(sample.per_query_ms.to_numpy(dtype=float))
