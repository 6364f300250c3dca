"""The tests' oracle for the paired tests: ``ranx.compare`` itself, on ranx's ``Qrels`` and ``Run`` objects built
from two rankings (what report/compare.py computed before it read per-query tables; judge/significance.py's
``ranx_compare_values`` must equal it)."""
from __future__ import annotations

import warnings
from typing import Mapping, Sequence

from hermes_eval.core.order import ordered_scores
from hermes_eval.judge.significance import (DEFAULT_PERMUTATIONS, DEFAULT_STAT_TEST, RANX_SEED, STAT_TESTS,
                                            PairedTest, _clean)
from retrievers.fusion.fixed_width_ids import FixedWidthIds


def ranx_compare(qrels: Mapping[str, Mapping[str, int]], ranking_a: Mapping[str, Sequence[str]],
                 ranking_b: Mapping[str, Sequence[str]], metrics: Sequence[str],
                 stat_test: str = DEFAULT_STAT_TEST, n_permutations: int = DEFAULT_PERMUTATIONS,
                 seed: int = RANX_SEED) -> dict[str, PairedTest]:
    """``ranx.compare`` of two rankings on shared qrels, over every judged query (no results = 0)."""
    from ranx import Qrels, Run, compare

    if stat_test not in STAT_TESTS:
        raise ValueError(f"stat_test must be one of {STAT_TESTS}, got {stat_test!r}")
    qids = sorted(q for q in qrels if qrels[q])
    judged = {q: dict(qrels[q]) for q in qids}
    tables = {name: {q: ordered_scores(r.get(q, [])) for q in qids} for name, r in (("A", ranking_a), ("B", ranking_b))}
    ids = FixedWidthIds.of(judged, *tables.values())
    qr = Qrels(ids.rename(judged))
    runs = [Run(ids.rename(table), name=name) for name, table in tables.items()]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = compare(qr, runs, list(metrics), stat_test=stat_test, n_permutations=n_permutations,
                         max_p=1.0, random_seed=seed, rounding_digits=10)
    pair = report.comparisons[frozenset(["A", "B"])]
    return {m: PairedTest(m, float(report.results["A"][m]), float(report.results["B"][m]),
                          _clean(pair[m]["p_value"]), len(qids), "ranx.compare") for m in metrics}
