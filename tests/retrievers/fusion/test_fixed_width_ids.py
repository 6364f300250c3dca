"""Renaming document ids to fixed-width tokens changes nothing ranx computes: fusion (ties included) and
every measure equal the same calls on the original ids, whose lengths differ."""
from __future__ import annotations

import random
import warnings

import pytest

from retrievers.fusion.fixed_width_ids import WIDTH, FixedWidthIds

ranx = pytest.importorskip("ranx")


def _tables(seed: int = 0):
    rng = random.Random(seed)
    # ids of 1 to WIDTH characters (a letter prefix, then a number: distinct). The longest is as wide as the
    # tokens, as the other fusion tests' ids are (test_ranx_methods.doc_id): ranx stores ids in arrays as wide
    # as the longest, so the calls on plain ids here run the kernels the token calls compiled (no width of
    # their own to compile) while most of the ids are shorter than the array's width
    docs = [f"{'abcdefghij'[:i % (WIDTH - 1)]}{i}" for i in range(40)]
    legs = {leg: {f"q{q}": {d: float(rng.choice([1, 2, 3, 4, rng.random()])) for d in rng.sample(docs, 15)}
                  for q in range(8)} for leg in ("sparse", "dense")}
    qrels = {f"q{q}": {d: rng.choice([1, 2]) for d in rng.sample(docs, 4)} for q in range(8)}
    assert {len(d) for d in docs} == set(range(1, WIDTH + 1))
    return legs, qrels


def test_tokens_have_one_width_sort_as_the_ids_and_come_back():
    ids = ["b", "a" * 30, "ab", "", "a"]
    names = FixedWidthIds(ids + ["b"])
    assert {len(t) for t in names.token.values()} == {WIDTH}
    assert sorted(ids, key=names.token.__getitem__) == sorted(ids)
    table = {"q": {"b": 1.0, "a" * 30: 2.0, "": 0.5}}
    renamed = names.rename(table)
    assert list(renamed["q"].values()) == [1.0, 2.0, 0.5]  # insertion order kept
    assert names.restore(renamed["q"]) == table["q"] and list(names.restore(renamed["q"])) == list(table["q"])


@pytest.mark.parametrize("method", ["wsum", "rrf", "mnz"])
def test_fusion_on_tokens_equals_fusion_on_ids(method):
    legs, _ = _tables()
    names = FixedWidthIds.of(*legs.values())
    params = {"weights": [0.3, 0.7]} if method == "wsum" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = ranx.fuse([ranx.Run(t, name=n) for n, t in legs.items()], method=method, norm="min-max", params=params)
        tokens = ranx.fuse([ranx.Run(names.rename(t), name=n) for n, t in legs.items()], method=method,
                           norm="min-max", params=params)
    for q in legs["sparse"]:
        assert list(names.restore(tokens[q]).items()) == list(plain[q].items()), q


def test_measures_on_tokens_equal_measures_on_ids():
    legs, qrels = _tables(1)
    run = legs["dense"]
    names = FixedWidthIds.of(qrels, run)
    metrics = ["ndcg@5", "map", "mrr", "recall@10", "precision@3"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), metrics, return_mean=False)
        tokens = ranx.evaluate(ranx.Qrels(names.rename(qrels)), ranx.Run(names.rename(run)), metrics,
                               return_mean=False)
    for m in metrics:
        assert list(tokens[m]) == list(plain[m]), m
    assert any(0 < v < 1 for v in plain["ndcg@5"])
