"""Fusion parameter tuning on a train split of the queries; the held-out split is what gets scored.

Queries are split by a seeded hash of their qid (stable under reordering and subsetting). Every
leg is searched once per train query through the pipeline's own ``legs_for``, and either a grid
over the fusion's fields is scored (``strategy: grid``; keys like ``dense_weight``, ``k``, ``norm``,
``params.phi``, ``weights.dense``) or ranx's ``optimize_fusion`` fits a ranx method (``strategy:
ranx``, needed by trained methods such as bayesfuse or posfuse). Each candidate fusion is scored on
what the run would score: ``pipeline.finish`` (fusion, fused_top_k, the reranker when there is one),
exclude-overlapping hits dropped, cut to k. The test queries are never searched or scored here.
"""
from __future__ import annotations

import dataclasses
import hashlib
import itertools
from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence

import numpy as np

from hermes_eval.judge.ranking import per_query
from hermes_eval.judge.relevance import ChunkLookup, chunk_qrels, overlaps_any
from hermes_eval.core import Query
from retrievers.fusion.fixed_width_ids import FixedWidthIds
from retrievers.index import Hit

LegLists = dict[str, dict[str, list[Hit]]]
"""qid -> leg name -> that leg's hits."""


@dataclass(frozen=True)
class TuningConfig:
    enabled: bool = False
    train_share: float = 0.5
    metric: str = "ndcg@10"
    strategy: Literal["grid", "ranx"] = "grid"
    grid: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)  # ranx optimize_fusion keywords

    def __post_init__(self) -> None:
        if not 0.0 < self.train_share < 1.0:
            raise ValueError(f"fusion_tuning.train_share must be in (0, 1), got {self.train_share}")
        if self.strategy not in ("grid", "ranx"):
            raise ValueError(f"fusion_tuning.strategy must be grid or ranx, got {self.strategy!r}")


@dataclass(frozen=True)
class TuningResult:
    params: dict[str, Any]
    train_score: float
    trials: list[dict[str, Any]]
    fusion: Any


def in_train(qid: str, train_share: float, seed: int) -> bool:
    """Whether ``qid`` falls in the train split: a seeded hash mapped to [0, 1)."""
    h = hashlib.sha256(f"{seed}\x00{qid}".encode()).digest()
    return int.from_bytes(h[:8], "big") / 2.0**64 < train_share


def split_qids(qids: Sequence[str], train_share: float, seed: int) -> tuple[list[str], list[str]]:
    """(train, test) qids in their given order; disjoint, and together every qid."""
    train = [q for q in qids if in_train(q, train_share, seed)]
    chosen = set(train)
    return train, [q for q in qids if q not in chosen]


def with_params(fusion: Any, assignment: Mapping[str, Any]) -> Any:
    """A copy of the fusion dataclass with fields (``k``) or mapping entries (``params.phi``) set."""
    changes: dict[str, Any] = {}
    for key, value in assignment.items():
        name, _, sub = key.partition(".")
        if name not in {f.name for f in dataclasses.fields(fusion)}:
            raise ValueError(f"fusion_tuning.grid: {type(fusion).__name__} has no field {name!r}")
        if sub:
            inner = dict(changes.get(name, getattr(fusion, name)) or {})
            inner[sub] = value
            changes[name] = inner
        else:
            changes[name] = value
    return dataclasses.replace(fusion, **changes)


@dataclass
class TrainLegs:
    """The train queries' leg lists, searched once; each query's vector goes with them so a
    reranker finishing that query later sees its own vector, not the last one searched."""

    lists: LegLists
    vectors: dict[str, Any] = field(default_factory=dict)  # qid -> query vector (dense legs only)


def leg_lists(pipeline: Any, queries: Sequence[Query]) -> TrainLegs:
    """Every leg's hits for ``queries`` through the pipeline's own step (``legs_for``: expanded
    into ``<leg>@q<i>`` lists when it has an expander, embedded, searched at leg depth)."""
    out = TrainLegs(lists={})
    for q in queries:
        out.lists[q.qid], _ = pipeline.legs_for(q.query)
        last = getattr(pipeline, "last_query_vector", None) if pipeline.needs_vectors else None
        if last is not None and last[0] == q.query:
            out.vectors[q.qid] = last[1]
    return out


def rankings(pipeline: Any, fusion: Any, legs: TrainLegs, queries: Sequence[Query],
             lookup: ChunkLookup, k: int, overfetch: int = 0) -> dict[str, list[str]]:
    """Chunk ids each query would be scored on with ``fusion``, exactly as the search stage makes
    them: finished by the pipeline (fused, cut to fused_top_k, reranked when it has a reranker),
    cut to ``k + overfetch``, excluded spans dropped, cut to k."""
    out: dict[str, list[str]] = {}
    for q in queries:
        hits, _ = pipeline.finish(q.query, legs.lists[q.qid], fusion=fusion,
                                  query_vector=legs.vectors.get(q.qid))
        kept = [cid for cid, _ in hits[:k + overfetch] if not overlaps_any(lookup.by_id[cid], q.exclude)]
        out[q.qid] = kept[:k]
    return out


def _score(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, list[str]], metric: str) -> float:
    values = per_query(qrels, rankings, [metric])[metric]
    return float(np.mean(list(values.values()))) if values else 0.0


def grid_search(pipeline: Any, legs: TrainLegs, queries: Sequence[Query], lookup: ChunkLookup,
                grid: Mapping[str, Sequence[Any]], metric: str, k: int, overfetch: int = 0) -> TuningResult:
    """Score every combination of ``grid`` over the pipeline's fusion on ``queries``; the first
    best (grid order) wins."""
    fusion = pipeline.fusion
    qrels = chunk_qrels(queries, lookup)
    keys = list(grid)
    trials: list[dict[str, Any]] = []
    best: tuple[float, dict[str, Any], Any] | None = None
    for values in itertools.product(*(list(grid[key]) for key in keys)):
        params = dict(zip(keys, values))
        candidate = with_params(fusion, params)
        score = _score(qrels, rankings(pipeline, candidate, legs, queries, lookup, k, overfetch), metric)
        trials.append({"params": params, metric: round(score, 10)})
        if best is None or score > best[0]:
            best = (score, params, candidate)
    if best is None:
        raise ValueError("fusion_tuning.grid is empty: give at least one key with values")
    return TuningResult(params=best[1], train_score=best[0], trials=trials, fusion=best[2])


def ranx_optimize(pipeline: Any, legs: TrainLegs, queries: Sequence[Query], lookup: ChunkLookup,
                  metric: str, options: Mapping[str, Any], k: int, overfetch: int = 0) -> TuningResult:
    """Fit the pipeline's :class:`~retrievers.fusion.ranx_methods.RanxFusion` params with
    ``ranx.optimize_fusion`` on the leg lists; the train score is of the finished (reranked)
    rankings."""
    from ranx import Qrels, Run, optimize_fusion

    fusion, lists = pipeline.fusion, legs.lists
    if not hasattr(fusion, "method") or not hasattr(fusion, "norm"):
        raise ValueError("fusion_tuning.strategy=ranx needs a ranx fusion (retrievers.fusion.ranx_methods)")
    qrels = chunk_qrels(queries, lookup)
    names = list(next(iter(lists.values()))) if lists else []
    usable = [q.qid for q in queries if qrels[q.qid] and all(lists[q.qid][n] for n in names)]
    if len(names) < 2 or not usable:
        raise ValueError("fusion_tuning.strategy=ranx needs two legs and judged train queries with hits")
    tables = {n: {qid: {d: float(s) for d, s in lists[qid][n]} for qid in usable} for n in names}
    judged = {qid: qrels[qid] for qid in usable}
    ids = FixedWidthIds.of(judged, *tables.values())
    runs = [Run(ids.rename(t), name=n) for n, t in tables.items()]
    kwargs = dict(options)
    if fusion.method not in ("bayesfuse", "mapfuse", "posfuse", "segfuse"):
        kwargs.setdefault("show_progress", False)
        kwargs["metric"] = metric
    best = optimize_fusion(Qrels(ids.rename(judged)), runs, norm=fusion.norm,
                           method=fusion.method, **kwargs)
    tuned = dataclasses.replace(fusion, params={**dict(fusion.params), **best})
    score = _score(qrels, rankings(pipeline, tuned, legs, queries, lookup, k, overfetch), metric)
    return TuningResult(params=jsonable(best), train_score=score,
                        trials=[{"fitted_on_queries": len(usable)}], fusion=tuned)


def jsonable(value: Any) -> Any:
    """Numpy arrays and scalars inside ``value`` as plain lists and numbers."""
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def apply_fusion_tuning(node: Mapping[str, Any] | None, pipeline: Any, queries: Sequence[Query],
                        lookup: ChunkLookup, seed: int, overfetch: int = 0) -> tuple[list[Query], dict[str, Any]]:
    """The runner's hook: tune ``pipeline.fusion`` on the train split when enabled, and return
    the queries to evaluate (the test split, or all of them) and the record's ``fusion_tuning``."""
    cfg = TuningConfig(**dict(node or {}))
    if not cfg.enabled:
        return list(queries), {"enabled": False, "evaluated_on": "all queries"}
    train_ids, test_ids = split_qids([q.qid for q in queries], cfg.train_share, seed)
    if not train_ids or not test_ids:
        raise ValueError(f"fusion_tuning: train_share {cfg.train_share} leaves an empty split of "
                         f"{len(queries)} queries")
    train_set = set(train_ids)
    train = [q for q in queries if q.qid in train_set]
    test = [q for q in queries if q.qid not in train_set]
    if len(pipeline.legs) < 2:
        result = None
    else:
        legs = leg_lists(pipeline, train)
        k = pipeline.depths.k
        result = (grid_search(pipeline, legs, train, lookup, cfg.grid, cfg.metric, k, overfetch)
                  if cfg.strategy == "grid" else
                  ranx_optimize(pipeline, legs, train, lookup, cfg.metric, cfg.options, k, overfetch))
        pipeline.fusion = result.fusion
    return test, {
        "enabled": True, "strategy": cfg.strategy, "metric": cfg.metric, "seed": seed,
        "train_share": cfg.train_share, "tuned_on": "train", "evaluated_on": "test",
        "n_train": len(train), "n_test": len(test), "train_qids": train_ids,
        "best_params": jsonable(result.params) if result else None,
        "train_score": round(result.train_score, 10) if result else None,
        "trials": jsonable(result.trials) if result else [],
        "note": None if result else "one leg: nothing to fuse, so nothing was tuned",
    }
