"""ranx's condorcet and w_condorcet fusions with each query's candidates in id order (ranx 0.3.21).

ranx gathers a query's candidates in a Python set and orders them with a pairwise vote that is not a total
order (a tie counts as a win for either side), so its fused list follows the set's iteration order: the
ids' string hashes, which PYTHONHASHSEED changes from one process to the next (on the fusion tests' data,
three seeds gave three different fused lists). Here the candidates are sorted by id before the vote; the
normalisation, the vote, its sort and the scores are ranx's own functions, as ``ranx.fuse`` calls them.
"""
from __future__ import annotations

from typing import Any, Sequence


def _normalized(runs: list, norm: str | None) -> list:
    """The runs as ``ranx.fuse`` normalises them before fusing."""
    from ranx.normalization import norm_switch

    if norm is None:
        return runs
    return norm_switch(norm)(runs) if norm == "borda" else [norm_switch(norm)(run) for run in runs]


def _candidates(tables: list) -> Any:
    """Per query (in the first run's order), the ids any run retrieved, sorted."""
    from numba.typed import List as TypedList
    from numba.types import unicode_type

    out = TypedList()
    for q in tables[0].keys():
        ids = sorted({d for table in tables for d in table[q].keys()})
        out.append(TypedList(ids) if ids else TypedList.empty_list(unicode_type))
    return out


def fuse_in_id_order(runs: list, norm: str | None, weights: Sequence[float] | None = None) -> Any:
    """``ranx.fuse(runs, norm, "condorcet")`` (``"w_condorcet"`` with ``weights``), candidates in id order."""
    from numba.typed import List as TypedList
    from ranx import Run
    from ranx.fusion.condorcet import _condorcet_parallel as plain, get_results
    from ranx.fusion.weighted_condorcet import _condorcet_parallel as weighted

    if len(runs) < 2 or any(run.keys() != runs[0].keys() for run in runs[1:]):
        raise ValueError("condorcet fuses two runs or more over the same queries")
    tables = [run.run for run in _normalized(runs, norm)]
    results, candidates, q_ids = get_results(TypedList(tables)), _candidates(tables), TypedList(runs[0].keys())
    fused = Run()
    fused.run = plain(q_ids, results, candidates) if weights is None else \
        weighted(q_ids, results, candidates, list(weights))
    return fused
