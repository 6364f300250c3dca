"""Stage 3, search: every query through the built pipeline, each stage timed; warmup queries untimed."""
from __future__ import annotations

import time
from typing import Sequence

from hermes_eval.core.measured import Measured
from hermes_eval.judge.relevance import ChunkLookup, overlaps_any
from hermes_eval.core import Query


def run_queries(pipeline, queries: Sequence[Query], lookup: ChunkLookup, k: int, overfetch: int,
                warmup: int, foreign=None) -> Measured:
    """Search each query for ``k + overfetch`` hits, drop those overlapping its exclude spans."""
    out = Measured(warmup=min(warmup, len(queries)))
    for q in queries[:out.warmup]:
        pipeline.search(q.query, k + overfetch)
    for q in queries:
        t = time.perf_counter_ns()
        res = pipeline.search(q.query, k + overfetch)
        if foreign is not None:  # a service's chunks need not be this run's chunks
            foreign.add(res.hits, lookup.by_id)
        hits = [(cid, s) for cid, s in res.hits if not overlaps_any(lookup.by_id[cid], q.exclude)][:k]
        out.total_ns.append(time.perf_counter_ns() - t)
        for stage, ns in res.timings_ns.items():
            out.stage_ns.setdefault(stage, []).append(ns)
        out.rankings[q.qid] = [cid for cid, _ in hits]
        out.raw_scores[q.qid] = [s for _, s in hits]
    return out
