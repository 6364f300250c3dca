"""Ranking metrics per query over the pipeline's order, ranx's definitions (judge/measures/)."""
from __future__ import annotations

from typing import Mapping, Sequence

from hermes_eval.core.metrics import RANX_FAMILIES
from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.measures import measure_values


def per_query(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, Sequence[str]],
              metrics: Sequence[str] = RANX_FAMILIES) -> dict[str, dict[str, float]]:
    """metric -> qid -> value over every qid of ``qrels``; a query with no relevant document or
    no results scores 0. A document ranked twice keeps its later place (what ranx reads from
    :func:`ordered_scores`)."""
    judged = [q for q in qrels if qrels[q]]
    out = {m: {q: 0.0 for q in qrels} for m in metrics}
    if judged:
        values = measure_values({q: qrels[q] for q in judged},
                                {q: ordered_scores(rankings.get(q, [])) for q in judged}, list(metrics))
        for m in metrics:
            for q, v in zip(judged, values[m]):
                out[m][q] = float(v)
    return out
