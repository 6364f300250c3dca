"""The one average precision (judge/average_precision.py) against independent implementations, for each
denominator: ir_measures (trec_eval's C code) and ranx for ``all_gold``; ir_measures over the gold found
(the relevant set cut down to what the ranking retrieves) and BLIZZARD's getAP transcribed from
BLIZZARD/src/blizzard/query/evaluator/BLIZZARDResultProvider.java for ``gold_found``; ir_measures with the
fixed files the corpus lacks judged but unretrievable for ``fixed_files``; and the scoring path of a run."""
from __future__ import annotations

import random
import warnings

import pytest

from hermes_eval.core.metrics import REGISTRY, metric
from hermes_eval.judge.average_precision import average_precision, ranks_of, rescale
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


def _random_case(seed: int, n: int = 200):
    """Gold files (some outside the corpus: never retrievable) and rankings; some retrieve nothing."""
    rng = random.Random(seed)
    files = [f"java/org/p{i}/C{i}.java" for i in range(40)]
    gold, rankings = {}, {}
    for q in range(n):
        gold[f"q{q}"] = rng.sample(files, rng.choice([1, 1, 2, 3, 6])) + [f"gone/G{j}.java" for j in range(rng.choice([0, 0, 1, 2]))]
        rankings[f"q{q}"] = rng.sample(files, rng.choice([0, 5, 15, 30]))
    return gold, rankings


def _ir_measures(qrels: dict, rankings: dict, k: int) -> dict[str, float]:
    import ir_measures
    from ir_measures import AP

    measure = AP @ k if k else AP
    run = {q: {d: float(len(r) - i) for i, d in enumerate(r)} for q, r in rankings.items() if r}
    got = {m.query_id: m.value for m in ir_measures.iter_calc([measure], {q: r for q, r in qrels.items() if r}, run)}
    return {q: float(got.get(q, 0.0)) for q in qrels}


@pytest.mark.parametrize("k", [0, 10])
@pytest.mark.parametrize("seed", range(2))
def test_each_denominator_equals_an_independent_implementation(seed, k):
    gold, rankings = _random_case(seed)
    in_corpus = {q: [g for g in gs if not g.startswith("gone/")] for q, gs in gold.items()}
    top = {q: r[:k] if k else r for q, r in rankings.items()}
    # all_gold: trec_eval over the judged (in-corpus) gold
    want = _ir_measures({q: {g: 1 for g in gs} for q, gs in in_corpus.items()}, rankings, k)
    # gold_found: trec_eval with the relevant set cut to the gold the ranking retrieves within the cut
    found_qrels = {q: {g: 1 for g in in_corpus[q] if g in top[q]} for q in gold}
    want_found = _ir_measures(found_qrels, rankings, k)
    # fixed_files: trec_eval with every fixed file judged, those outside the corpus never retrieved
    want_fixed = _ir_measures({q: {g: 1 for g in gs} for q, gs in gold.items()}, rankings, k)
    for q in gold:
        ranks = ranks_of(rankings[q], in_corpus[q])
        assert average_precision(ranks, len(in_corpus[q]), "all_gold", k) == pytest.approx(want[q], abs=1e-12)
        assert average_precision(ranks, len(in_corpus[q]), "gold_found", k) == pytest.approx(want_found[q], abs=1e-12)
        assert average_precision(ranks, 0, "gold_found", k) == pytest.approx(want_found[q], abs=1e-12)
        assert average_precision(ranks, len(gold[q]), "fixed_files", k) == pytest.approx(want_fixed[q], abs=1e-12)
        assert average_precision(ranks, len(in_corpus[q]), "gold_found", k) == pytest.approx(
            blizzard_ap([r for r in ranks if not k or r <= k]), abs=1e-12)
    # the variants differ on this data (missed and unindexed gold), so a swapped denominator fails above
    n_found = sum(average_precision(ranks_of(rankings[q], in_corpus[q]), len(in_corpus[q]), "gold_found", k) for q in gold)
    n_all = sum(want.values())
    assert 0 < sum(want_fixed.values()) < n_all < n_found


@pytest.mark.parametrize("seed", range(2))
def test_all_gold_equals_ranx_bit_for_bit(seed):
    from ranx import evaluate

    from hermes_eval.core.order import ordered_scores
    from retrievers.fusion.fixed_width_ids import FixedWidthIds

    gold, rankings = _random_case(seed)
    qrels = {q: {g: 1 for g in gs if not g.startswith("gone/")} for q, gs in gold.items()}
    run = {q: ordered_scores(rankings[q]) or {"none": 0.0} for q in qrels}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ids = FixedWidthIds.of(qrels, run)  # one numba compile of ranx's builders, whatever the id widths
        theirs = evaluate(ids.rename(qrels), ids.rename(run), ["map", "map@10", "map@10"], return_mean=False)
    for k, name in ((0, "map"), (10, "map@10")):
        ours = [average_precision(ranks_of(rankings[q], qrels[q]), len(qrels[q]), "all_gold", k) for q in qrels]
        assert ours == [float(v) for v in theirs[name]], name


def test_hand_computed_case_and_edges():
    # gold a, b, c; retrieved a at 1 and b at 3, c never: S = 1/1 + 2/3
    ranks = ranks_of(["a", "x", "b", "y"], ["a", "b", "c"])
    assert ranks == [1, 3]
    assert average_precision(ranks, 3) == pytest.approx((1 + 2 / 3) / 3)
    assert average_precision(ranks, 3, "gold_found") == pytest.approx((1 + 2 / 3) / 2)
    assert average_precision(ranks, 5, "fixed_files") == pytest.approx((1 + 2 / 3) / 5)
    assert average_precision(ranks, 3, k=2) == pytest.approx(1 / 3)
    assert average_precision(ranks, 3, "gold_found", k=2) == 1.0
    # no gold found: every variant 0; no gold at all: 0, but a Bench4BL report always has a fixed file
    assert [average_precision([], 3, d) for d in ("all_gold", "gold_found", "fixed_files")] == [0.0, 0.0, 0.0]
    assert average_precision([], 0) == 0.0 and average_precision([], 0, "gold_found") == 0.0
    with pytest.raises(ValueError, match="fixed files"):
        average_precision([1], 0, "fixed_files")
    # a rank given twice (BLIZZARD: one result matching two gold lines) counts once, in any order
    assert average_precision([3, 1, 3], 2, "gold_found") == average_precision([1, 3], 2, "gold_found")
    with pytest.raises(ValueError, match="denominator 'found'"):
        average_precision([1], 1, "found")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="1-based"):
        average_precision([0], 1)


@pytest.mark.parametrize("ap,n,found,want", [(0.5, 3, 2, 0.75), (0.0, 3, 0, 0.0), (0.4, 0, 1, 0.0), (1.0, 3, 3, 1.0)])
def test_rescale_edges(ap, n, found, want):
    assert rescale(ap, n, found) == pytest.approx(want)


@pytest.mark.parametrize("seed", range(2))
def test_measures_map_found_keeps_the_recorded_arithmetic(seed):
    """map_found from judge/measures is what runs recorded before it was one function: ranx's map times
    |R| over ranx's hits, bit for bit (a record re-made by this code is the same record)."""
    gold, rankings = _random_case(seed)
    qrels = {q: {g: 1 for g in gs if not g.startswith("gone/")} for q, gs in gold.items()}
    got = per_query(qrels, rankings, ["map", "hits", "map@10", "hits@10", "map_found", "map_found@10"])
    for q in qrels:
        for sfx in ("", "@10"):
            hits, ap = got[f"hits{sfx}"][q], got[f"map{sfx}"][q]
            old = ap * len(qrels[q]) / hits if hits > 0 else 0.0
            assert got[f"map_found{sfx}"][q] == old
    assert any(got["map_found"][q] > got["map"][q] for q in qrels)


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
    v = {n: s.per_query[n]["q1"] for n in ("file_mrr", "file_map", "file_map_found", "file_hit@1", "file_map_found@10")}
    assert v == pytest.approx({"file_mrr": 1.0, "file_map": (1 + 2 / 3) / 3, "file_map_found": (1 + 2 / 3) / 2,
                               "file_hit@1": 1.0, "file_map_found@10": (1 + 2 / 3) / 2})
