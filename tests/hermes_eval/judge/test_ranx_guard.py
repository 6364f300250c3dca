"""The direct count agrees with ranx on real rankings, and a disagreeing kernel stops the run."""
from __future__ import annotations

import random

import pytest

from hermes_eval.core.errors import UserError
from hermes_eval.judge import ranx_guard
from hermes_eval.judge.ranking import per_query


def _random_case(seed: int):
    rng = random.Random(seed)
    docs = [f"d{i}" for i in range(30)]
    qrels, rankings = {}, {}
    for q in range(40):
        qrels[f"q{q}"] = {d: rng.choice([0, 1, 2]) for d in rng.sample(docs, rng.randint(0, 4))}
        rankings[f"q{q}"] = rng.sample(docs, rng.randint(0, 25))
    return qrels, rankings


@pytest.mark.parametrize("seed", range(5))
def test_ranx_and_the_direct_count_agree_on_random_runs(seed):
    qrels, rankings = _random_case(seed)
    got = per_query(qrels, rankings)  # raises if they disagree
    rel = {q: {d for d, r in qrels[q].items() if r > 0} for q in qrels}
    assert got["recall@5"] == {q: ranx_guard.direct("recall", 5, rel[q], rankings[q]) for q in qrels}
    assert any(v > 0 for v in got["mrr@10"].values())


def test_a_repeated_document_counts_at_its_last_place_as_ranx_reads_it():
    got = per_query({"q": {"b": 1}}, {"q": ["b", "a", "c", "b"]})
    assert got["mrr@10"]["q"] == pytest.approx(1 / 3)  # "b" scored as at place 4 -> third of a, c, b


def test_a_value_off_from_the_direct_count_stops_the_run_naming_the_fix():
    with pytest.raises(UserError, match=r"ranx computed recall@10=1\.000000 for query 'q' but a direct count "
                                        r"gives 0\.500000: delete ranx's numba cache"):
        ranx_guard.check({"q": {"a": 1, "b": 1}}, {"q": ["a", "x"]}, {"recall@10": {"q": 1.0}})


def test_metrics_without_a_direct_count_are_not_checked():
    ranx_guard.check({"q": {"a": 1}}, {"q": []}, {"ndcg@10": {"q": 0.7}})
