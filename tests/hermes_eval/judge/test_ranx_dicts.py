"""ranx fed plain dicts (the path numba's cache serves) gives what its Qrels/Run objects give, empty
rankings and a lone metric included."""
from __future__ import annotations

import random
import warnings

from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.ranking import per_query
from hermes_eval.judge.ranx_dicts import ranx_per_query

METRICS = ["recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10", "hits@5", "precision@5"]


def _objects(qrels, rankings, metrics):
    from ranx import Qrels, Run, evaluate

    judged = [q for q in qrels if qrels[q]]
    run = Run({q: ordered_scores(rankings.get(q, [])) for q in judged})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        evaluate(Qrels({q: dict(qrels[q]) for q in judged}), run, metrics, make_comparable=True)
    return {m: {q: float(run.scores[m].get(q, 0.0)) if q in judged else 0.0 for q in qrels} for m in metrics}


def test_dicts_and_objects_agree_on_random_graded_runs():
    rng = random.Random(3)
    docs = [f"src/m{i}.py:{i}-{i + 9}" for i in range(60)]
    qrels, rankings = {}, {}
    for i in range(200):
        q = f"q{i}"
        qrels[q] = {d: rng.choice([1, 1, 2]) for d in rng.sample(docs, rng.randint(0, 5))}
        rankings[q] = rng.sample(docs, rng.choice([1, 5, 20, 40])) if i % 7 else []  # every 7th: no results
    assert sum(1 for q in qrels if qrels[q] and not rankings[q]) > 10
    assert per_query(qrels, rankings, METRICS) == _objects(qrels, rankings, METRICS)


def test_a_lone_metric_and_a_query_without_results():
    got = ranx_per_query({"a": {"x": 1}, "b": {"y": 1}}, {"a": {"z": 2.0, "x": 1.0}, "b": {}}, ["mrr@10"])
    assert got == {"mrr@10": [0.5, 0.0]}
