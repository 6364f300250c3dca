"""The two halves of a sharded run (``shard=I/N``, ``shards.py``): a shard prepares the set, searches
its own snapshots and hands back a part; the merge puts every part's searches together as one run."""
from __future__ import annotations

import time
from typing import Sequence

from hermes_eval.cache.content import Cache
from hermes_eval.config.settings import RunSettings
from hermes_eval.core import Corpus, Query, UserError
from hermes_eval.core.measured import Measured
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.core.heap import trim_heap_if_large
from hermes_eval.record.manifest import peak_rss_mb, reset_peak_rss
from hermes_eval.stages.build import Built, make_parts
from hermes_eval.stages.prepare import prepare, released
from hermes_eval.stages.scoped import in_query_order, search_snapshots
from hermes_eval.stages.shards import Part, assign
from hermes_eval.stages.snapshots import scopes_of


def search_shard(s: RunSettings) -> Part:
    """Prepare the set (chunks come from the per-file store) and search the snapshots of shard ``s.shard``."""
    reset_peak_rss()
    i, n = s.shard
    cache = Cache(s.paths.cache)
    prepared = prepare(s, cache)
    if (light := released(prepared, s)) is not prepared:  # texts chunked, not needed to search
        prepared = light
        trim_heap_if_large()
    if prepared.reuse is None:
        raise UserError(f"shard={i}/{n} splits a query set over several snapshots (SWE-bench); "
                        f"{s.queryset.name!r} searches one corpus: drop shard")
    queries = list(prepared.queryset.queries)
    mine = set(assign(scopes_of(queries), n)[i])
    own = [q for q in queries if str(q.meta.get("scope") or "") in mine]
    overfetch = s.exclude_overfetch if any(q.exclude for q in queries) else 0
    if not own:  # more shards than snapshots: an empty part
        return Part(shard=(i, n), scopes=[], measured=Measured())
    measured, built, report, work = search_snapshots(s, prepared.indexed, prepared.chunks, own,
                                                     ChunkLookup(prepared.chunks), prepared.reuse, overfetch)
    embedder = built.parts.embedder
    return Part(shard=(i, n), scopes=sorted(mine), measured=measured, snapshots=report, work=work,
                build_seconds=dict(built.build_seconds), build_total=built.build_total,
                embedder_stats=dict(embedder.stats) if embedder is not None else {}, events=list(built.events),
                peak_rss_mb=round(peak_rss_mb(), 1))


def merge_parts(s: RunSettings, indexed: Corpus, queries: Sequence[Query], parts: Sequence[Part],
                overfetch: int) -> tuple[Measured, Built, dict, dict, dict]:
    """(searches in query order, the parts' builds summed with un-built parts for the record, per snapshot
    facts and work in the order the queries list the snapshots, what each shard did)."""
    started = time.perf_counter()
    measured = in_query_order([p.measured for p in parts], [q.qid for q in queries])
    order = {scope or ".": k for k, scope in enumerate(scopes_of(queries))}
    snapshots = dict(sorted(((k, v) for p in parts for k, v in p.snapshots.items()), key=lambda kv: order[kv[0]]))
    work = dict(sorted(((k, v) for p in parts for k, v in p.work.items()), key=lambda kv: order[kv[0]]))
    built = Built(make_parts(s, indexed, overfetch))
    for p in parts:
        for leg, secs in p.build_seconds.items():
            built.build_seconds[leg] = built.build_seconds.get(leg, 0.0) + secs
        built.build_total += p.build_total
        built.events.extend(p.events)
    built.pipeline.build_sources = {leg: "computed" for leg in getattr(built.pipeline, "legs", {})}
    if built.parts.embedder is not None:
        for key in ("computed", "cached", "encode_seconds"):
            built.parts.embedder.stats[key] = sum(p.embedder_stats.get(key) or 0 for p in parts)
    sharded = {"n": len(parts), "merge_seconds": round(time.perf_counter() - started, 3),
               "parts": [{"shard": f"{p.shard[0]}/{p.shard[1]}", "snapshots": len(p.scopes),
                          "queries": len(p.measured.rankings), "wall_seconds": p.wall_seconds,
                          "peak_rss_mb": p.peak_rss_mb} for p in parts]}
    return measured, built, snapshots, work, sharded
