"""Metric speed: 10,000 queries x 100 results, every leaderboard metric (judge/measures/) and its BCa CI."""
from __future__ import annotations

import time

import numpy as np

from hermes_eval.judge.bootstrap import summarize
from hermes_eval.core.metrics import RANX_FAMILIES
from hermes_eval.judge.ranking import per_query

N_QUERIES = 10_000
DEPTH = 100


def _data(seed: int):
    rng = np.random.default_rng(seed)
    qrels, runs = {}, {}
    for i in range(N_QUERIES):
        rel = rng.choice(1000, size=int(rng.integers(1, 6)), replace=False)
        qrels[f"q{i}"] = {f"d{j}": 1 for j in rel}
        runs[f"q{i}"] = [f"d{j}" for j in rng.choice(1000, size=DEPTH, replace=False)]
    return qrels, runs


def run() -> dict:
    qrels, runs = _data(0)
    t = time.perf_counter()
    chunk = per_query(qrels, runs)
    files = per_query(qrels, runs)  # file level is a second pass of the same size
    measures_s = time.perf_counter() - t
    t = time.perf_counter()
    for values in (*chunk.values(), *files.values()):
        summarize(list(values.values()), n_resamples=1000)
    ci_s = time.perf_counter() - t
    return {"queries": N_QUERIES, "depth": DEPTH, "metrics": 2 * len(RANX_FAMILIES),
            "measures_seconds": round(measures_s, 3), "bootstrap_ci_seconds": round(ci_s, 3),
            "total_seconds": round(measures_s + ci_s, 3)}
