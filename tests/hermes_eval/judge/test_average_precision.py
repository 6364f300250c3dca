"""Bug-localization AP and MRR at file level: trec_eval's AP (pytrec_eval, independent of ranx), BLIZZARD's
getAP (transcribed from BLIZZARD/src/blizzard/query/evaluator/BLIZZARDResultProvider.java in
masud-technope/BLIZZARD) and a hand-computed case."""
from __future__ import annotations

import random

import pytest

from hermes_eval.core.metrics import REGISTRY, metric
from hermes_eval.judge.average_precision import from_map, map_found
from hermes_eval.judge.ranking import per_query


def blizzard_ap(found_indices: list[int]) -> float:
    """BLIZZARDResultProvider.getAP: the 1-based ranks of the gold files found (in the top K), each once
    (a HashSet of small Integers iterates in ascending order); precision = count so far / rank, summed and
    divided by the count of distinct ranks found; 0 when none."""
    unique = sorted(set(found_indices))
    s = 0.0
    for count, index in enumerate(unique, start=1):
        s += count / index
    return s / len(unique) if unique else 0.0


def found_ranks(gold: set[str], ranking: list[str], k: int | None = None) -> list[int]:
    return [i for i, d in enumerate(ranking[:k] if k else ranking, start=1) if d in gold]


def _random_case(seed: int):
    rng = random.Random(seed)
    files = [f"java/org/p{i}/C{i}.java" for i in range(40)]
    qrels, rankings = {}, {}
    for q in range(200):
        gold = rng.sample(files, rng.choice([1, 1, 2, 3, 6]))
        qrels[f"q{q}"] = {f: 1 for f in gold}
        rankings[f"q{q}"] = rng.sample(files, rng.choice([0, 5, 15, 30]))
    return qrels, rankings


def test_hand_computed_case():
    # gold a, b, c; retrieved a at 1 and b at 3, c never: S = 1/1 + 2/3
    qrels, rankings = {"q": {"a": 1, "b": 1, "c": 1}}, {"q": ["a", "x", "b", "y"]}
    got = per_query(qrels, rankings, ["map", "map@2", "mrr", "hits"])
    assert got["map"]["q"] == pytest.approx((1 + 2 / 3) / 3)
    assert got["map@2"]["q"] == pytest.approx(1 / 3)
    assert got["mrr"]["q"] == 1.0 and got["hits"]["q"] == 2
    found = map_found(qrels, rankings, {"file_map_found": 0, "file_map_found@2": 2})
    assert found["file_map_found"]["q"] == pytest.approx((1 + 2 / 3) / 2)
    assert found["file_map_found@2"]["q"] == pytest.approx(1.0)


@pytest.mark.parametrize("ap,hits,n,want", [(0.5, 2, 3, 0.75), (0.0, 0, 3, 0.0), (0.4, 1, 0, 0.0), (1.0, 3, 3, 1.0)])
def test_map_found_edges(ap, hits, n, want):
    assert from_map(ap, hits, n) == pytest.approx(want)


@pytest.mark.parametrize("seed", range(3))
def test_map_and_mrr_match_trec_eval_and_map_found_matches_blizzard(seed):
    import pytrec_eval

    qrels, rankings = _random_case(seed)
    ours = per_query(qrels, rankings, ["map", "map@10", "mrr"])
    found = map_found(qrels, rankings, {"found": 0, "found@10": 10})
    run = {q: {d: float(len(r) - i) for i, d in enumerate(r)} for q, r in rankings.items() if r}
    theirs = pytrec_eval.RelevanceEvaluator(qrels, {"map", "map_cut.10", "recip_rank"}).evaluate(run)
    for q in qrels:
        t = theirs.get(q, {})
        assert ours["map"][q] == pytest.approx(t.get("map", 0.0), abs=1e-9)
        assert ours["map@10"][q] == pytest.approx(t.get("map_cut_10", 0.0), abs=1e-9)
        assert ours["mrr"][q] == pytest.approx(t.get("recip_rank", 0.0), abs=1e-9)
        gold = set(qrels[q])
        assert found["found@10"][q] == pytest.approx(blizzard_ap(found_ranks(gold, rankings[q], 10)), abs=1e-12)
        assert found["found"][q] == pytest.approx(blizzard_ap(found_ranks(gold, rankings[q])), abs=1e-12)
        assert found["found"][q] >= ours["map"][q] - 1e-12  # never below the standard AP
    assert 0 < sum(ours["map"].values()) < sum(found["found"].values())  # missed gold files make them differ


def test_registry_declares_the_fields_metrics_at_file_level_after_the_older_ones():
    names = list(REGISTRY)
    assert names[-5:] == ["file_mrr", "file_map", "file_map@10", "file_map_found", "file_map_found@10"]
    assert metric("file_map").ranx == "map" and metric("file_map").k == 0
    assert metric("file_map@10").ranx == "map@10" and metric("file_mrr").ranx == "mrr"
    assert metric("file_map_found@10").ranx is None and metric("file_map_found@10").family == "map_found"
    assert all(metric(n).level == "file" and metric(n).chunking_fair for n in names[-5:])


def test_scoring_records_them_per_query():
    from hermes_eval.core import Query, Span
    from hermes_eval.judge.relevance import ChunkLookup
    from hermes_eval.judge.score import score
    from retrievers.chunk import Chunk

    chunks = [Chunk(p, 1, 5, "x\n" * 5) for p in ("a.java", "b.java", "c.java", "d.java")]
    q = Query("q1", "x", (Span("a.java", 1, 5), Span("c.java", 1, 5), Span("d.java", 2, 2)))
    s = score([q], {"q1": ["a.java:1-5", "b.java:1-5", "c.java:1-5"]}, ChunkLookup(chunks), seed=0, n_resamples=10)
    v = {n: s.per_query[n]["q1"] for n in ("file_mrr", "file_map", "file_map_found", "file_hit@1")}
    assert v == pytest.approx({"file_mrr": 1.0, "file_map": (1 + 2 / 3) / 3, "file_map_found": (1 + 2 / 3) / 2,
                               "file_hit@1": 1.0})
