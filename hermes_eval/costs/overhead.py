"""Harness overhead: the bm25s arm through the pipeline and runner loop vs raw bm25s."""
from __future__ import annotations

import time
from pathlib import Path

from hermes_eval.costs.common import default_chunks_and_queries, median_ms
from retrievers.pipeline import Depths, Pipeline
from retrievers.sparse.bm25s import BM25SIndex
from retrievers.sparse.tokenizer import CodeTokenizer

K = 100
REPEATS = 3


def run(cache: Path) -> dict:
    import bm25s

    chunks, queries = default_chunks_and_queries(cache)
    tok = CodeTokenizer()
    raw = bm25s.BM25(method="lucene", k1=1.5, b=0.75)
    raw.index([tok(c.text) for c in chunks], show_progress=False)
    vocab = raw.vocab_dict
    pipe = Pipeline(legs={"sparse": BM25SIndex()}, depths=Depths(k=K, sparse_top_k=K, fused_top_k=K))
    pipe.build(chunks)
    raw_ns, ours_ns, outside = [], [], []
    for _ in range(REPEATS):  # interleaved, so both see the same machine state
        for q in queries:
            t = time.perf_counter_ns()
            ids = [vocab[t_] for t_ in tok(q) if t_ in vocab]
            if ids:
                raw.retrieve([ids], k=min(K, len(chunks)), show_progress=False, n_threads=1)
            raw_ns.append(time.perf_counter_ns() - t)
            t = time.perf_counter_ns()
            res = pipe.search(q, K)
            total = time.perf_counter_ns() - t
            ours_ns.append(total)
            outside.append(max(total - sum(res.timings_ns.values()), 0) / max(total, 1))
    ratio = median_ms(ours_ns) / max(median_ms(raw_ns), 1e-9)
    share = float(sorted(outside)[len(outside) // 2])
    return {"raw_bm25s_p50_ms": median_ms(raw_ns), "pipeline_p50_ms": median_ms(ours_ns),
            "ratio": round(ratio, 3), "outside_stages_share_p50": round(share, 4),
            "queries": len(queries), "repeats": REPEATS, "target": "ratio <= 1.2, outside < 5%",
            "passed": ratio <= 1.2 and share < 0.05}
