"""Build and search a snapshot query set: one index per snapshot, each query in its own snapshot."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

import numpy as np

from hermes_eval.cache.count_store import CountStore
from hermes_eval.config.settings import RunSettings
from hermes_eval.core import Corpus, Query, UserError
from hermes_eval.core.measured import Measured
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.stages.arm_share import kept
from hermes_eval.stages.build import Built, SnapshotShared, build
from hermes_eval.stages.prepare import chunking_key
from hermes_eval.stages.search import run_queries
from hermes_eval.core.queryset import scope_finder
from retrievers.progress import track
from retrievers.chunk import Chunk


def search_snapshots(s: RunSettings, indexed: Corpus, chunks: Sequence[Chunk], queries: Sequence[Query],
                     lookup: ChunkLookup, reuse: dict, overfetch: int, shared: SnapshotShared | None = None
                     ) -> tuple[Measured, Built, dict, dict]:
    """(rankings and timings of every query, the builds summed, per snapshot: its files, chunks and
    queries with the files/chunks reused from an earlier snapshot (what the run measured on), and per
    snapshot the work it took: build seconds, texts tokenized, embeddings computed vs read from the
    cache, which depend on what ran before in the same process, so shards differ there).
    ``shared``: a set run in batches hands each batch the memos, models and term-count store (opened and
    closed by the caller) of the one before; nothing of a batch is kept for a sweep's next arm."""
    if s.fusion_tuning:
        raise UserError("fusion_tuning does not apply to a query set over several snapshots (each has its own "
                        "index): drop +fusion_tuning")
    groups: dict[str, list[Query]] = {}
    for q in queries:
        groups.setdefault(str(q.meta.get("scope") or ""), []).append(q)
    total, report, work, searched = None, {}, {}, []
    embeddings = {"computed": 0, "cached": 0, "encode_seconds": 0.0}
    scopes = list(groups)
    if shared is not None:
        by_scope, order = _snapshots_in_order(chunks, scopes)
    else:
        by_scope, order = kept("chunking", chunking_key(s), ("snapshots", tuple(scopes)),
                               lambda: _snapshots_in_order(chunks, scopes))
    store, own = None, shared is None  # the caller's shared memos come with the caller's store
    if shared is None:
        store = CountStore(Path(s.paths.cache) / "counts" / "terms.sqlite") if s.index_cache else None
        shared = SnapshotShared(count_store=store)
    try:
        with track("snapshots", len(groups), "snapshots") as progress:
            for scope in order:
                total = _one(s, indexed, by_scope.get(scope, []), scope, groups[scope], lookup, reuse, overfetch,
                             shared, searched, embeddings, (report, work), total)
                progress.update()
        if total is not None and total.parts.embedder is not None:
            total.parts.embedder.stats.update(embeddings)
            if shared.dense is not None:
                total.parts.embedder.stats["vector_store"] = store_facts(shared)
    finally:
        if store is not None:
            store.close()
        if own:
            shared.close()
    return in_query_order(searched, [q.qid for q in queries]), total, report, work


def in_query_order(parts: Sequence[Measured], qids: Sequence[str]) -> Measured:
    """Several searches' results as one, in the query set's order: a query's timing samples sit at its
    index, as the per-query files read them (a snapshot's queries need not be adjacent in the set)."""
    out = Measured(warmup=max((p.warmup for p in parts), default=0))
    where: dict[str, tuple[Measured, int]] = {}
    for p in parts:
        for j, qid in enumerate(p.rankings):
            where[qid] = (p, j)
    for qid in qids:
        p, j = where[qid]
        out.rankings[qid] = p.rankings[qid]
        out.raw_scores[qid] = p.raw_scores[qid]
        out.total_ns.append(p.total_ns[j])
        for stage, ns in p.stage_ns.items():
            out.stage_ns.setdefault(stage, []).append(ns[j])
    return out


def _one(s: RunSettings, indexed: Corpus, part: list[Chunk], scope: str, queries: list[Query],
         lookup: ChunkLookup, reuse: dict, overfetch: int, shared: SnapshotShared,
         searched: list[Measured], embeddings: dict, facts: tuple[dict, dict], total: Built | None) -> Built:
    """Build one snapshot's indexes over ``part`` and search its ``queries`` (appended to ``searched``,
    facts into ``report``), with what the snapshots ``shared``. Returns the builds summed so far."""
    memos, loaded = shared.memos, shared.loaded
    if not part:
        raise UserError(f"snapshot {scope!r} has no chunks: its repository files were all skipped")
    tokenized = {name: (m.computed, m.loaded) for name, m in memos.items()}
    for memo in memos.values():  # keep the texts this snapshot shares with the last one, drop the rest
        memo.retain(c.text for c in part)
    prior = dict(loaded["embedder"].stats) if "embedder" in loaded else {}  # its counters run on
    built = build(s, indexed, part, overfetch, shared)
    searched.append(run_queries(built.pipeline, queries, lookup, int(s.depths["k"]), overfetch, s.warmup,
                                built.parts.foreign))
    emb = dict(built.parts.embedder.stats) if built.parts.embedder is not None else {}
    for key in embeddings:
        emb[key] = type(embeddings[key])((emb.get(key) or 0) - (prior.get(key) or 0))  # this snapshot's
        embeddings[key] += emb[key]
    report, work = facts
    report[scope or "."] = dict(reuse.get(scope, {}), queries=len(queries), indexed_chunks=len(part))
    work[scope or "."] = dict(position=len(work),  # the order snapshots were built in (record keys are sorted)
                              embedded=int(emb.get("computed", 0)), embeddings_cached=int(emb.get("cached", 0)),
                              texts_tokenized={n: m.computed - tokenized.get(n, (0, 0))[0] for n, m in memos.items()},
                              texts_counts_stored={n: m.loaded - tokenized.get(n, (0, 0))[1] for n, m in memos.items()},
                              build_seconds=round(built.build_total, 4))
    if shared.dense is not None:  # distinct texts this snapshot added to the set's one vector store (embedded
        # or read from the embedding cache); its other chunks' vectors were in the store already
        work[scope or "."]["vectors_stored"] = shared.dense.store.last_added
    return built if total is None else _add(total, built)


def store_facts(shared: SnapshotShared) -> dict:
    """The set's one vector store when the run ends: rows (distinct texts), MB allocated, blocks memory-mapped,
    and how each dense leg read it (:meth:`retrievers.dense.snapshot_legs.SnapshotDense.mode`)."""
    store = shared.dense.store
    return {"rows": len(store), "mb": round(store.nbytes / 2**20, 1), "mapped_blocks": store.mapped_blocks,
            "modes": dict(shared.dense.modes_seen)}


def _snapshots_in_order(chunks: Sequence[Chunk], scopes: list[str]) -> tuple[dict[str, list[Chunk]], list[str]]:
    """Each snapshot's chunks, and the order to build the snapshots in."""
    by_scope = _by_scope(chunks, scopes)
    return by_scope, build_order(scopes, by_scope)


def build_order(scopes: list[str], by_scope: dict[str, list[Chunk]]) -> list[str]:
    """The snapshots in the order to build them: repositories as first seen, and within one, from its
    first-seen snapshot on to the one sharing the most chunk texts with the last built (a greedy path).
    Rankings do not depend on the order; the work does: the tokenizer memo keeps only the texts the
    last snapshot shares with the next, and snapshots listed by instance id jump between releases
    (SWE-bench Lite's sympy at function level: 729k texts tokenized in query order)."""
    repos: dict[str, list[str]] = {}
    for scope in scopes:
        repos.setdefault(scope.split("@")[0], []).append(scope)
    out: list[str] = []
    for members in repos.values():
        shared = _shared_texts([by_scope.get(sc, ()) for sc in members])
        left, last = list(range(1, len(members))), 0
        out.append(members[0])
        while left:
            last = max(left, key=lambda j: shared[j, last])  # ties: the first listed
            left.remove(last)
            out.append(members[last])
    return out


FEW_PARTS = 16
DENSE_CELLS = 4_000_000  # texts x parts up to which the incidence matrix is a dense array (32 MB of float64)


def _shared_texts(parts: list[Sequence[Chunk]]) -> np.ndarray:
    """How many distinct chunk texts each two of ``parts`` have in common: one product of which texts each
    part holds, not a set intersection per pair. Up to :data:`FEW_PARTS` parts, the intersections
    themselves; up to :data:`DENSE_CELLS` cells, a dense float64 incidence (integer counts far below 2**53,
    so exact); beyond, scipy.sparse (memory grows with the chunks, not texts times parts; its import costs a
    small run 0.14 s, so a small set never pays it). The counts are the same integers on every path."""
    rows: dict[str, int] = {}
    holds = [{rows.setdefault(c.text, len(rows)) for c in part} for part in parts]
    if len(parts) <= FEW_PARTS:
        return np.array([[len(a & b) for b in holds] for a in holds], dtype=np.int64).reshape(len(parts), len(parts))
    if len(rows) * len(parts) <= DENSE_CELLS:
        incidence = np.zeros((len(rows), len(parts)), dtype=np.float64)
        for j, h in enumerate(holds):
            incidence[np.fromiter(h, dtype=np.int64, count=len(h)), j] = 1.0
        return np.rint(incidence.T @ incidence).astype(np.int64)
    from scipy import sparse

    cols = np.repeat(np.arange(len(parts)), [len(h) for h in holds])
    texts = np.fromiter((t for h in holds for t in h), dtype=np.int64, count=len(cols))
    incidence = sparse.csc_matrix((np.ones(len(cols), dtype=np.int64), (texts, cols)), shape=(len(rows), len(parts)))
    return (incidence.T @ incidence).toarray()


def _by_scope(chunks: Sequence[Chunk], scopes: list[str]) -> dict[str, list[Chunk]]:
    """Each snapshot's chunks, in one pass over the chunks (not one pass per snapshot)."""
    if scopes == [""]:
        return {"": list(chunks)}
    out: dict[str, list[Chunk]] = {s: [] for s in scopes}
    find = scope_finder(tuple(scopes))
    for c in chunks:
        own = find(c.path)
        if own in out:
            out[own].append(c)
    return out


def _add(a: Built, b: Built) -> Built:
    """``b`` (its parts) with ``a``'s build seconds, bytes and cache events added in."""
    seconds = {k: a.build_seconds.get(k, 0.0) + b.build_seconds.get(k, 0.0)
               for k in set(a.build_seconds) | set(b.build_seconds)}
    nbytes = {k: a.index_bytes.get(k, 0) + b.index_bytes.get(k, 0) for k in set(a.index_bytes) | set(b.index_bytes)}
    return replace(b, build_seconds=seconds, build_total=a.build_total + b.build_total, index_bytes=nbytes,
                   events=a.events + b.events)
