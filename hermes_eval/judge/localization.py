"""Localization metrics as SWE-bench papers report them, per query, from the hit counts of ranx's ``hits`` (judge/measures/).

With ``hits@k`` the relevant documents in the top k and ``n`` the relevant documents of the query:
- ``hit@k`` (any gold in the top k): ``hits@k >= 1``;
- ``acc@k`` (LocAgent's Acc@k, ``evaluation/eval_metric.py::acc_at_k`` in gersteinlab/LocAgent,
  also SweRank's): ``hits@k >= min(n, k)``: every gold item fits, or the top k are all gold;
- ``acc_all@k`` (strict): ``hits@k == n``: every gold item is in the top k.
Each is 1 or 0 per query; at file level over files in the order of their first chunk, at chunk
level over the run's documents (functions, with a function chunker, as LocAgent ranks them).
"""
from __future__ import annotations

from typing import Mapping, Sequence

from hermes_eval.core.metrics import LOCALIZATION_FAMILIES as FAMILIES


def from_hits(family: str, hits: float, n_relevant: int, k: int) -> float:
    """One query's value of ``family`` at ``k`` from its hit count and number of relevant documents."""
    if n_relevant <= 0:
        return 0.0
    if family == "hit":
        return float(hits >= 1)
    if family == "acc":
        return float(hits >= min(n_relevant, k))
    if family == "acc_all":
        return float(hits >= n_relevant)
    raise ValueError(f"no localization family {family!r}: use one of {FAMILIES}")


def hit_counts(names: Mapping[str, tuple[str, int]]) -> list[str]:
    """The ranx metrics that ``names`` (name -> (family, k)) are derived from: ``hits@k`` per k."""
    return [f"hits@{k}" for k in sorted({k for _, k in names.values()})]


def from_counts(qrels: Mapping[str, Mapping[str, int]], hits: Mapping[str, Mapping[str, float]],
                names: Mapping[str, tuple[str, int]]) -> dict[str, dict[str, float]]:
    """metric name -> qid -> value for ``names``, from the per-query ``hits@k`` (:func:`hit_counts`)."""
    n_rel = {q: sum(1 for r in rel.values() if r > 0) for q, rel in qrels.items()}
    return {name: {q: from_hits(family, hits[f"hits@{k}"][q], n_rel[q], k) for q in qrels}
            for name, (family, k) in names.items()}


def localization(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, Sequence[str]],
                 names: Mapping[str, tuple[str, int]]) -> dict[str, dict[str, float]]:
    """:func:`from_counts` with the measures run here (a run's scoring asks for them in its one call)."""
    from hermes_eval.judge.ranking import per_query

    return from_counts(qrels, per_query(qrels, rankings, hit_counts(names)), names)
