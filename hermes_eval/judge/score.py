"""Score rankings against gold spans at every registered level, with bootstrap CIs."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from hermes_eval.core import Query
from hermes_eval.core.metrics import REGISTRY, at_level
from hermes_eval.judge.bootstrap import summarize_all
from hermes_eval.judge.budget import budget_metrics
from hermes_eval.judge.localization import FAMILIES, from_counts, hit_counts
from hermes_eval.judge.ranking import per_query
from hermes_eval.judge.relevance import (ChunkLookup, chunk_qrels, file_qrels, file_rankings, line_coverage,
                                         line_qrels, module_qrels, module_rankings, with_sentinel)


@dataclass(frozen=True)
class Scores:
    per_query: dict[str, dict[str, float]]  # metric -> qid -> value
    summary: dict[str, dict]  # metric -> mean, CI, n
    chunk_qrels: dict[str, dict[str, int]]  # with the sentinel for unanswerable queries
    file_qrels: dict[str, dict[str, int]]
    line_qrels: Mapping[str, Mapping[str, int]]  # a history set's batched run: made per query when written
    module_qrels: dict[str, dict[str, int]] = field(default_factory=dict)
    module_rankings: dict[str, list[str]] = field(default_factory=dict)  # run.module.trec
    # files as a declared file score ranks them (judge/file_score.py), run.file.trec; empty: by their best chunk
    file_rankings: dict[str, list[str]] = field(default_factory=dict)


def score(queries: Sequence[Query], rankings: dict[str, list[str]], lookup: ChunkLookup, seed: int,
          n_resamples: int, files: dict[str, list[str]] | None = None) -> Scores:
    """Every metric of the registry, per query and summarized, in registry order; the qrels
    carry the unanswerable sentinel, so the TREC files re-score to the same numbers."""
    return summarized(score_queries(queries, rankings, lookup, files=files), [q.qid for q in queries], seed,
                      n_resamples)


def score_queries(queries: Sequence[Query], rankings: dict[str, list[str]], lookup: ChunkLookup,
                  lines: bool = True, files: dict[str, list[str]] | None = None) -> Scores:
    """:func:`score` without the summary: every value is a query's own, whatever else is scored with it
    (``lines=False``: without the line qrels, which the queries alone make: :class:`LineQrels`; ``files``: the
    file rankings of a declared file score, else files by their best chunk)."""
    raw = chunk_qrels(queries, lookup)
    cq, fq = with_sentinel(raw), with_sentinel(file_qrels(queries))
    mq, modules = with_sentinel(module_qrels(raw, lookup)), module_rankings(rankings, lookup)
    computed: dict[str, dict[str, float]] = {}
    for level, qrels, runs in (("chunk", cq, rankings), ("file", fq, files if files is not None else file_rankings(rankings)), ("module", mq, modules)):
        metrics = [m for m in at_level(level) if m.ranx]
        located = {m.name: (m.family, m.k) for m in at_level(level) if m.family in FAMILIES}
        found = {m.name: f"map_found@{m.k}" if m.k else "map_found" for m in at_level(level) if m.family == "map_found"}
        asked = [m.ranx for m in metrics] + hit_counts(located) + list(found.values())
        by_ranx = per_query(qrels, runs, list(dict.fromkeys(asked)))  # one call (judge/measures/)
        computed.update({m.name: by_ranx[m.ranx] for m in metrics})
        computed.update(from_counts(qrels, by_ranx, located))
        computed.update({name: by_ranx[measure] for name, measure in found.items()})
    for m in at_level("line"):
        computed[m.name] = {q.qid: line_coverage(q, rankings[q.qid], lookup, m.k) for q in queries}
    computed.update(budget_metrics(queries, rankings, lookup))
    values = {name: computed[name] for name in REGISTRY}
    return Scores(per_query=values, summary={}, chunk_qrels=cq, file_qrels=fq,
                  line_qrels=with_sentinel(line_qrels(queries)) if lines else {}, module_qrels=mq,
                  module_rankings=modules, file_rankings=files or {})


class LineQrels(Mapping):
    """The line qrels of ``queries`` (with the sentinel), each query's made when asked and not kept: a
    history set's run to millions of lines (Ye Tomcat: 2.5M), written once."""

    def __init__(self, queries: Sequence[Query]):
        self._queries = {q.qid: q for q in queries}

    def __getitem__(self, qid: str) -> dict[str, int]:
        return with_sentinel(line_qrels([self._queries[qid]]))[qid]

    def __iter__(self):
        return iter(self._queries)

    def __len__(self) -> int:
        return len(self._queries)


def summarized(s: Scores, qids: Sequence[str], seed: int, n_resamples: int) -> Scores:
    """``s`` with every metric's mean and bootstrap CI over ``qids``."""
    summary = summarize_all({name: [vals[q] for q in qids] for name, vals in s.per_query.items()},
                            seed=seed, n_resamples=n_resamples)
    return replace(s, summary=summary)


def joined(parts: Sequence[Scores], queries: Sequence[Query]) -> Scores:
    """Per-query scores of disjoint query groups (scored without line qrels) as one, every mapping in the
    order of ``queries`` (the order :func:`score_queries` gives one call over them all); no summary."""
    qids = [q.qid for q in queries]

    def by_qid(field_of) -> dict:
        merged = {q: v for p in parts for q, v in field_of(p).items()}
        return {q: merged[q] for q in qids if q in merged}

    names = list(parts[0].per_query) if parts else list(REGISTRY)
    return Scores(per_query={n: by_qid(lambda p, n=n: p.per_query[n]) for n in names}, summary={},
                  chunk_qrels=by_qid(lambda p: p.chunk_qrels), file_qrels=by_qid(lambda p: p.file_qrels),
                  line_qrels=LineQrels(queries), module_qrels=by_qid(lambda p: p.module_qrels),
                  module_rankings=by_qid(lambda p: p.module_rankings), file_rankings=by_qid(lambda p: p.file_rankings))
