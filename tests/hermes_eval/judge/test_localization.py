"""Localization metrics: LocAgent's Acc@k (its acc_at_k transcribed from evaluation/eval_metric.py in
gersteinlab/LocAgent, numpy for torch), any-gold hit@k and strict all-gold acc_all@k, from ranx's hits."""
from __future__ import annotations

import random

import numpy as np
import pytest

from hermes_eval.judge.localization import from_hits, localization

MAX_K = 10


def locagent_acc_at_k(pred_target: np.ndarray, ideal_target: np.ndarray, k: int) -> np.ndarray:
    """Per instance, as acc_at_k computes it before averaging: the top k hold as many gold items as
    the ideal ranking's top k."""
    relevant = (pred_target[:, :k] == 1).sum(axis=-1)
    total_relevant = (ideal_target[:, :k] == 1).sum(axis=-1)
    return relevant == total_relevant


def _targets(gold: list[set[str]], preds: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """LocAgent's 0/1 matrices: a prediction row marks gold items; the ideal row has min(|gold|, MAX_K) ones."""
    pred = np.zeros((len(gold), MAX_K))
    ideal = np.zeros((len(gold), MAX_K))
    for i, (g, p) in enumerate(zip(gold, preds)):
        for j, d in enumerate(p[:MAX_K]):
            pred[i, j] = d in g
        ideal[i, :min(len(g), MAX_K)] = 1
    return pred, ideal


def test_acc_matches_locagents_acc_at_k_on_random_instances():
    rng = random.Random(5)
    files = [f"pkg/m{i}.py" for i in range(30)]
    gold = [set(rng.sample(files, rng.choice([1, 1, 2, 3, 12]))) for _ in range(300)]
    preds = [rng.sample(files, rng.choice([0, 3, 10, 20])) for _ in gold]
    qrels = {f"q{i}": {f: 1 for f in g} for i, g in enumerate(gold)}
    rankings = {f"q{i}": p for i, p in enumerate(preds)}
    ks = (1, 3, 5, 10)
    got = localization(qrels, rankings, {f"acc@{k}": ("acc", k) for k in ks}
                       | {f"hit@{k}": ("hit", k) for k in ks} | {f"acc_all@{k}": ("acc_all", k) for k in ks})
    pred, ideal = _targets(gold, preds)
    for k in ks:
        theirs = locagent_acc_at_k(pred, ideal, k)
        ours = np.array([got[f"acc@{k}"][f"q{i}"] for i in range(len(gold))])
        assert (ours == theirs).all(), k
        assert 0 < ours.mean() < 1  # the sample exercises both outcomes
        for i, (g, p) in enumerate(zip(gold, preds)):
            assert got[f"hit@{k}"][f"q{i}"] == float(bool(g & set(p[:k])))
            assert got[f"acc_all@{k}"][f"q{i}"] == float(g <= set(p[:k]))


@pytest.mark.parametrize("family,hits,n,k,want", [
    ("acc", 3, 12, 3, 1.0),      # top 3 all gold: counts though 9 gold items are missing
    ("acc_all", 3, 12, 3, 0.0),  # the strict variant does not
    ("acc", 1, 2, 5, 0.0), ("acc_all", 2, 2, 5, 1.0), ("hit", 1, 4, 1, 1.0), ("hit", 0, 4, 10, 0.0),
    ("acc", 0, 0, 5, 0.0),       # nothing relevant: 0, as every other metric scores it
])
def test_definitions_at_the_edges(family, hits, n, k, want):
    assert from_hits(family, hits, n, k) == want


SOURCE = '''\
import os


def top(a):
    return a


class Reader:
    def __init__(self, path):
        self.path = path

    def read(self):
        def inner():
            return 1
        return inner()


class Writer:
    @property
    def name(self):
        return "w"

    def write(self, data):
        return data
'''


def test_module_level_follows_locagents_conversion_on_a_function_chunking():
    """Modules as LocAgent's eval_metric.py derives them from CoRNStack ids ``file.py/Class/method``: the
    prediction ``f'{fle}.py:{func_n.strip("/").split("/")[0]}'`` deduplicated in rank order, gold
    ``func.split(':')[-1].split('.')[0]`` of each edited function ``file.py:Class.method``; then acc_at_k."""
    from hermes_eval.core import Query, Span
    from hermes_eval.judge.relevance import ChunkLookup
    from hermes_eval.judge.score import score
    from retrievers.chunkers.functions import FunctionChunker

    chunks = [c for p in ("pkg/a.py", "pkg/b.py") for c in FunctionChunker().chunk(p, SOURCE, "python")]
    assert [c.symbol for c in chunks[:5]] == ["top", "Reader/__init__", "Reader/read", "Writer/name", "Writer/write"]
    lookup = ChunkLookup(chunks)
    cornstack = {c.id: f"{c.path}/{c.symbol}" for c in chunks}  # their document ids
    rng = random.Random(11)
    queries, rankings, gold_funcs = [], {}, {}
    for i in range(60):
        gold = rng.sample(chunks, rng.choice([1, 1, 2, 3]))
        qid = f"q{i}"
        queries.append(Query(qid, "text", tuple(Span(c.path, c.start, c.end) for c in gold)))
        rankings[qid] = [c.id for c in rng.sample(chunks, rng.choice([2, 5, 10]))]
        gold_funcs[qid] = [f"{c.path}:{c.symbol.replace('/', '.')}" for c in gold]
    scores = score(queries, rankings, lookup, seed=0, n_resamples=10)
    preds, golds = [], []
    for q in queries:
        mods: list[str] = []
        for doc in (cornstack[cid] for cid in rankings[q.qid]):
            fle, func_n = doc.split(".py/")
            name = f"{fle}.py:{func_n.strip('/').split('/')[0]}"
            if name not in mods:
                mods.append(name)
        preds.append(mods)
        golds.append({f"{f.split(':')[0]}:{f.split(':')[-1].split('.')[0]}" for f in gold_funcs[q.qid]})
    pred, ideal = _targets(golds, preds)
    for k in (5, 10):
        theirs = locagent_acc_at_k(pred, ideal, k)
        ours = np.array([scores.per_query[f"module_acc@{k}"][q.qid] for q in queries])
        assert (ours == theirs).all(), k
        assert 0 < ours.mean() < 1
    assert scores.module_rankings["q0"] == preds[0]
