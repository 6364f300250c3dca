"""Score rankings against gold spans: chunk, file and line level, token budgets, bootstrap CIs."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from hermes_eval.budget import budget_metrics
from hermes_eval.metrics import RANX_METRICS, per_query, summarize
from hermes_eval.relevance import ChunkLookup, chunk_qrels, file_qrels, file_ranking, line_coverage
from hermes_eval.spans import Query

COVERAGE_KS = (5, 10)


@dataclass(frozen=True)
class Scores:
    per_query: dict[str, dict[str, float]]  # metric -> qid -> value
    summary: dict[str, dict]  # metric -> mean, CI, n
    chunk_qrels: dict[str, dict[str, int]]
    file_qrels: dict[str, dict[str, int]]


def score(queries: Sequence[Query], rankings: dict[str, list[str]], lookup: ChunkLookup, seed: int,
          n_resamples: int) -> Scores:
    cq, fq = chunk_qrels(queries, lookup), file_qrels(queries)
    chunk_m = per_query(cq, rankings)
    file_m = per_query(fq, {qid: file_ranking(r, lookup) for qid, r in rankings.items()})
    values: dict[str, dict[str, float]] = {}
    for m in RANX_METRICS:
        values[m] = chunk_m[m]
        values[f"file_{m}"] = file_m[m]
    for k in COVERAGE_KS:
        values[f"line_coverage@{k}"] = {q.qid: line_coverage(q, rankings[q.qid], lookup, k) for q in queries}
    values.update(budget_metrics(queries, rankings, lookup))
    qids = [q.qid for q in queries]
    summary = {name: summarize([vals[q] for q in qids], seed=seed, n_resamples=n_resamples)
               for name, vals in values.items()}
    return Scores(per_query=values, summary=summary, chunk_qrels=cq, file_qrels=fq)
