"""Build and search a snapshot query set: one index per snapshot, each query in its own snapshot."""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from hermes_eval.config.settings import RunSettings
from hermes_eval.core import Corpus, Query, UserError
from hermes_eval.core.measured import Measured
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.stages.build import Built, build
from hermes_eval.stages.search import run_queries
from hermes_eval.stages.snapshots import in_scope
from retrievers.chunk import Chunk


def _merge(into: Measured, part: Measured) -> None:
    into.rankings.update(part.rankings)
    into.raw_scores.update(part.raw_scores)
    into.total_ns.extend(part.total_ns)
    for stage, ns in part.stage_ns.items():
        into.stage_ns.setdefault(stage, []).extend(ns)
    into.warmup = max(into.warmup, part.warmup)


def search_snapshots(s: RunSettings, indexed: Corpus, chunks: Sequence[Chunk], queries: Sequence[Query],
                     lookup: ChunkLookup, reuse: dict, overfetch: int) -> tuple[Measured, Built, dict]:
    """(rankings and timings of every query, the builds summed, per snapshot: chunks, queries,
    files/chunks reused from an earlier snapshot, embeddings computed vs read from the cache)."""
    if s.fusion_tuning:
        raise UserError("fusion_tuning does not apply to a query set over several snapshots (each has its own "
                        "index): drop +fusion_tuning")
    groups: dict[str, list[Query]] = {}
    for q in queries:
        groups.setdefault(str(q.meta.get("scope") or ""), []).append(q)
    measured, total, report = Measured(), None, {}
    embeddings = {"computed": 0, "cached": 0, "encode_seconds": 0.0}
    for scope in groups:  # the order the chunk reuse was counted in (queries' order)
        part = in_scope(chunks, scope)
        if not part:
            raise UserError(f"snapshot {scope!r} has no chunks: its repository files were all skipped")
        built = build(s, indexed, part, overfetch)
        m = run_queries(built.pipeline, groups[scope], lookup, int(s.depths["k"]), overfetch, s.warmup,
                        built.parts.foreign)
        _merge(measured, m)
        emb = dict(built.parts.embedder.stats) if built.parts.embedder is not None else {}
        for key in embeddings:
            embeddings[key] += type(embeddings[key])(emb.get(key) or 0)
        report[scope or "."] = dict(reuse.get(scope, {}), queries=len(groups[scope]), indexed_chunks=len(part),
                                    embedded=int(emb.get("computed", 0)), embeddings_cached=int(emb.get("cached", 0)),
                                    build_seconds=round(built.build_total, 4))
        total = built if total is None else _add(total, built)
    if total is not None and total.parts.embedder is not None:
        total.parts.embedder.stats.update(embeddings)
    return measured, total, report


def _add(a: Built, b: Built) -> Built:
    """``b`` (its parts) with ``a``'s build seconds, bytes and cache events added in."""
    seconds = {k: a.build_seconds.get(k, 0.0) + b.build_seconds.get(k, 0.0)
               for k in set(a.build_seconds) | set(b.build_seconds)}
    nbytes = {k: a.index_bytes.get(k, 0) + b.index_bytes.get(k, 0) for k in set(a.index_bytes) | set(b.index_bytes)}
    return replace(b, build_seconds=seconds, build_total=a.build_total + b.build_total, index_bytes=nbytes,
                   events=a.events + b.events)
