"""How one run searches its queries: one mode per kind of run, picked in one place (:func:`pick_mode`).

- ``sharded``: the parts a sharded run's jobs wrote (each searched its share of the snapshots) are merged;
- ``snapshots``: a snapshot query set, one index per repository snapshot, each query searching its own;
- ``single``: one set of indexes over the chunks, fusion tuned on a train split when asked, every
  (held-out) query searched.

Every mode hands back the same :class:`Searched`, which the judge and the record take from there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from hermes_eval.config.settings import RunSettings
from hermes_eval.core import Query
from hermes_eval.core.measured import Measured
from hermes_eval.judge.relevance import ChunkLookup
from hermes_eval.stages.build import Built, build
from hermes_eval.stages.prepare import Prepared
from hermes_eval.stages.scoped import search_snapshots
from hermes_eval.stages.search import run_queries
from hermes_eval.stages.shard_run import merge_parts
from hermes_eval.stages.tuning import apply_fusion_tuning
from retrievers.chunk import Chunk


@dataclass(frozen=True)
class SearchInput:
    """What every mode may search with. ``overfetch``: how many more hits each stage fetches for queries
    with ``exclude`` spans (dropped before scoring); ``shard_parts``: a sharded run's parts, all present."""

    settings: RunSettings
    prepared: Prepared
    chunks: Sequence[Chunk]
    lookup: ChunkLookup
    overfetch: int
    shard_parts: Sequence[Any] | None = None


@dataclass(frozen=True)
class Searched:
    """What searching left: the queries judged (tuning keeps only its held-out split), their rankings
    and timings, the parts built, and what the mode records of itself (else None)."""

    queries: list[Query]
    measured: Measured
    built: Built
    fusion_tuning: dict[str, Any] | None = None
    snapshots: dict | None = None
    snapshot_work: dict | None = None
    shards: dict | None = None


def _sharded(i: SearchInput) -> Searched:
    queries = list(i.prepared.queryset.queries)
    measured, built, snapshots, work, shards = merge_parts(i.settings, i.prepared.indexed, queries, i.shard_parts,
                                                           i.overfetch)
    return Searched(queries, measured, built, snapshots=snapshots, snapshot_work=work, shards=shards)


def _snapshots(i: SearchInput) -> Searched:
    queries = list(i.prepared.queryset.queries)
    measured, built, snapshots, work = search_snapshots(i.settings, i.prepared.indexed, i.chunks, queries, i.lookup,
                                                        i.prepared.reuse, i.overfetch)
    return Searched(queries, measured, built, snapshots=snapshots, snapshot_work=work)


def _single(i: SearchInput) -> Searched:
    s = i.settings
    built = build(s, i.prepared.indexed, i.chunks, i.overfetch)
    # tuning fits fusion on a train split of the queries and hands back the held-out rest
    queries, tuning = apply_fusion_tuning(s.fusion_tuning, built.pipeline, list(i.prepared.queryset.queries),
                                          i.lookup, s.seed, i.overfetch)
    measured = run_queries(built.pipeline, queries, i.lookup, int(s.depths["k"]), i.overfetch, s.warmup,
                           built.parts.foreign)
    return Searched(queries, measured, built, fusion_tuning=tuning)


@dataclass(frozen=True)
class RunMode:
    name: str
    applies: Callable[[SearchInput], bool]
    search: Callable[[SearchInput], Searched]


# the first mode that applies is the run's
MODES: tuple[RunMode, ...] = (
    RunMode("sharded", lambda i: i.shard_parts is not None, _sharded),
    RunMode("snapshots", lambda i: i.prepared.reuse is not None, _snapshots),
    RunMode("single", lambda i: True, _single),
)


def pick_mode(i: SearchInput) -> RunMode:
    return next(mode for mode in MODES if mode.applies(i))


def search(i: SearchInput) -> Searched:
    """Search ``i``'s queries the way its run calls for."""
    return pick_mode(i).search(i)
