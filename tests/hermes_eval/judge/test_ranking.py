"""per_query scores the pipeline's order as ranx's Qrels/Run objects do: graded and zero-graded qrels,
queries with no results and queries with no relevant document."""
from __future__ import annotations

import random
import warnings

from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.ranking import per_query
from retrievers.fusion.fixed_width_ids import FixedWidthIds
from tests.hermes_eval.judge.measures.test_ranx_parity import METRICS, case


def _ranx_objects(qrels, rankings, metrics):
    from ranx import Qrels, Run, evaluate

    judged = [q for q in qrels if qrels[q]]
    table, gold = {q: ordered_scores(rankings.get(q, [])) for q in judged}, {q: dict(qrels[q]) for q in judged}
    ids = FixedWidthIds.of(table, gold)  # one numba compile of ranx's builders, whatever the id widths
    run = Run(ids.rename(table))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluate(Qrels(ids.rename(gold)), run, metrics, make_comparable=True)
    return {m: {q: float(run.scores[m].get(q, 0.0)) if q in judged else 0.0 for q in qrels} for m in metrics}


def test_per_query_equals_ranx_objects_on_random_graded_runs():
    qrels, rankings = case(3)
    assert sum(1 for q in qrels if qrels[q] and not rankings[q]) > 10
    assert sum(1 for q in qrels if not qrels[q]) > 10
    assert per_query(qrels, rankings, METRICS) == _ranx_objects(qrels, rankings, METRICS)
