"""Each measure of judge/measures/ equals ranx's own kernel bit for bit (ranx's plain-dict path), at every
family, cut-off, the whole ranking, a cut past the ranking's end and relevance levels 2 and 3."""
from __future__ import annotations

import random
import warnings

import pytest

from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.measures import measure_values
from retrievers.fusion.fixed_width_ids import FixedWidthIds

METRICS = ["recall@1", "recall@5", "recall@10", "mrr@10", "ndcg@10", "hits@5", "precision@5"]
EVERY = METRICS + ["map", "map@10", "hits", "ndcg", "mrr", "precision@100", "hit_rate@3", "recall@1000",
                   "ndcg@10-l2", "map@10-l2", "recall-l3", "precision-l2"]


def case(seed: int, n: int = 300):
    """Random graded qrels (grade 0 included) and rankings; every 7th query retrieves nothing."""
    rng = random.Random(seed)
    docs = [f"src/m{i}.py:{i}-{i + 9}" for i in range(60)]
    qrels, rankings = {}, {}
    for i in range(n):
        q = f"q{i}"
        qrels[q] = {d: rng.choice([0, 1, 1, 2, 3]) for d in rng.sample(docs, rng.randint(0, 6))}
        rankings[q] = rng.sample(docs, rng.choice([1, 5, 20, 40])) if i % 7 else []
    return qrels, rankings


def _ranx_dicts(qrels, run, metrics):
    from ranx import evaluate

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ids = FixedWidthIds.of(qrels, run)  # one numba compile of ranx's builders, whatever the id widths
        got = evaluate(ids.rename(qrels), ids.rename(run), metrics * 2, return_mean=False)
    return {m: [float(v) for v in got[m]] for m in metrics}


@pytest.mark.parametrize("seed", range(3))
def test_every_family_cut_and_level_equals_ranx_bit_for_bit(seed):
    qrels, rankings = case(seed)
    judged = {q: r for q, r in qrels.items() if r}
    run = {q: ordered_scores(rankings[q]) or {"none": 0.0} for q in judged}  # ranx's arrays need a row
    ours, theirs = measure_values(judged, run, EVERY), _ranx_dicts(judged, run, EVERY)
    for m in EVERY:
        assert ours[m] == theirs[m], m
    assert any(0 < v < 1 for v in ours["ndcg@10-l2"]) and any(v > 0 for v in ours["map"])


def test_a_lone_metric_and_a_query_without_results():
    got = measure_values({"a": {"x": 1}, "b": {"y": 1}}, {"a": {"z": 2.0, "x": 1.0}, "b": {}}, ["mrr@10"])
    assert got == {"mrr@10": [0.5, 0.0]}


def test_a_name_ranx_would_not_read_is_refused():
    with pytest.raises(ValueError, match="recal@10.*recall"):
        measure_values({"a": {"x": 1}}, {"a": {"x": 1.0}}, ["recal@10"])
