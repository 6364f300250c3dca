"""Ranking metrics per query, computed by ranx (on plain dicts: judge/ranx_dicts.py) over the
pipeline's order."""
from __future__ import annotations

from typing import Mapping, Sequence

from hermes_eval.core.metrics import RANX_FAMILIES
from hermes_eval.core.order import ordered_scores
from hermes_eval.judge import ranx_guard, warmup_lock
from hermes_eval.judge.ranx_dicts import ranx_per_query


def per_query(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, Sequence[str]],
              metrics: Sequence[str] = RANX_FAMILIES) -> dict[str, dict[str, float]]:
    """metric -> qid -> value over every qid of ``qrels``; a query with no relevant document or
    no results scores 0."""
    judged = [q for q in qrels if qrels[q]]
    out = {m: {q: 0.0 for q in qrels} for m in metrics}
    if judged:
        warmup_lock.warm(metrics)  # compile under a lock before the first real evaluation in this process
        ordered = {q: ordered_scores(rankings.get(q, [])) for q in judged}
        values = ranx_per_query({q: qrels[q] for q in judged}, ordered, list(metrics))
        for m in metrics:
            for q, v in zip(judged, values[m]):
                out[m][q] = float(v)
        # ranx reads the order from the scores (a repeated document keeps its last, lower score)
        ranx_guard.check(qrels, {q: sorted(s, key=s.get, reverse=True) for q, s in ordered.items()},
                         {m: {q: out[m][q] for q in judged} for m in metrics})
    return out

