"""ranx's per-query values, computed on plain dicts.

ranx is handed plain dicts, not ``Qrels``/``Run`` objects: those build numba typed dicts, whose
methods numba compiles afresh in every process (about 3 s each time, the cache cannot keep them),
while the dict path runs only kernels numba's on-disk cache serves (about 0.4 s once cached). Both
the ranking metrics (judge/ranking.py) and the kernels' warm-up (judge/warmup_lock.py) call ranx
through here, so the warm-up compiles exactly what the metrics run."""
from __future__ import annotations

import warnings
from typing import Mapping, Sequence

from hermes_eval.judge.relevance import NO_RESULTS


def ranx_per_query(qrels: Mapping[str, Mapping[str, int]], run: Mapping[str, Mapping[str, float]],
                   metrics: list[str]) -> dict[str, list[float]]:
    """ranx's per-query values of ``metrics``, in ``qrels``' query order (``run`` has the same queries).
    A query without results gets the one document no qrels name, :data:`NO_RESULTS` (ranx's arrays
    need a row), as in run.trec: at any cut-off it scores what no results score, 0."""
    from ranx import evaluate

    qids = list(qrels)
    docs = {q: dict(run.get(q) or {NO_RESULTS: 0.0}) for q in qids}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = evaluate({q: dict(qrels[q]) for q in qids}, docs, list_of_two(metrics), return_mean=False)
    return {m: [float(v) for v in got[m]] for m in metrics}


def list_of_two(metrics: Sequence[str]) -> list[str]:
    """``metrics`` with a lone metric asked twice: ranx 0.3's evaluate on dicts with one metric and
    ``return_mean=False`` looks its result up under the metric's bare family name (KeyError)."""
    return list(metrics) * 2 if len(metrics) == 1 else list(metrics)
