"""Metrics: ranx for ranking metrics, plus bootstrap CIs and latency percentiles."""
from __future__ import annotations

import warnings
from typing import Mapping, Sequence

import numpy as np

RANX_METRICS = ("recall@5", "recall@10", "mrr@10", "ndcg@10")


def ordered_scores(ranking: Sequence[str]) -> dict[str, float]:
    """Strictly decreasing scores from the pipeline's order, so every evaluator sees that order."""
    n = len(ranking)
    return {doc: float(n - i) for i, doc in enumerate(ranking)}


def per_query(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, Sequence[str]],
              metrics: Sequence[str] = RANX_METRICS) -> dict[str, dict[str, float]]:
    """metric -> qid -> value over every qid of ``qrels``; a query with no relevant document or
    no results scores 0."""
    from ranx import Qrels, Run, evaluate

    judged = [q for q in qrels if qrels[q]]
    out = {m: {q: 0.0 for q in qrels} for m in metrics}
    if judged:
        qr = Qrels({q: dict(qrels[q]) for q in judged})
        run = Run({q: ordered_scores(rankings.get(q, [])) for q in judged})
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            evaluate(qr, run, list(metrics), make_comparable=True)
        for m in metrics:
            for q, v in run.scores[m].items():
                out[m][q] = float(v)
    return out


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


def latency_summary(samples_ns: Sequence[int]) -> dict:
    """Milliseconds: p50/p90/p95/p99, mean and n."""
    x = np.asarray(samples_ns, dtype=np.float64) / 1e6
    if x.size == 0:
        return {"n": 0}
    q = np.percentile(x, [50, 90, 95, 99])
    return {"p50": round(float(q[0]), 4), "p90": round(float(q[1]), 4), "p95": round(float(q[2]), 4),
            "p99": round(float(q[3]), 4), "mean": round(float(x.mean()), 4), "n": int(x.size)}
