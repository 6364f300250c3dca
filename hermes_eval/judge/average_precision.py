"""Average precision as bug-localization papers report it, per query, from the ranx-defined measures' values (judge/measures/).

With ``R`` a query's relevant documents (gold files), ``r_1 < r_2 < ...`` the ranks at which the
ranking retrieves them, and ``P@r`` the precision of the top ``r``, the sum ``S = sum_i P@r_i``
(``P@r_i = i / r_i``) is divided two ways:

- ``map`` (trec_eval's ``map`` and ``map_cut_k``, ranx's ``map``/``map@k``, Ye et al.'s MAP, the
  standard): ``S / |R|``. A gold file the ranking never reaches counts as a miss, so a query whose
  three gold files are found at ranks 1 and 2 only scores (1 + 1) / 3.
- ``map_found`` (BLIZZARD's ``BLIZZARDResultProvider.getAP`` in masud-technope/BLIZZARD, also the AP of
  Gandhi et al.'s evaluation in Siddharth-Gandhi/ds): ``S / (number of gold files retrieved)``, 0 when
  none is retrieved. Missed gold files do not lower it: the query above scores 1.0. It is never below
  ``map`` and equals it when every gold file is retrieved; both are 0 when none is.

"The whole ranking" is as deep as the run retrieves (``depths.fused_top_k`` chunks, files in the order
of their first chunk), as trec_eval scores a run file; ``@k`` restricts both the sum and the count of
retrieved gold files to the top k. ``map_found`` is derived from ``map`` (``S / |R|``) and
``hits`` (the gold files retrieved) over the same cut: ``map * |R| / hits``.
"""
from __future__ import annotations

from typing import Mapping


def cut(family: str, k: int) -> str:
    """``family`` at ``k`` as ranx names it (``map``, ``map@10``; 0: the whole ranking)."""
    return f"{family}@{k}" if k else family


def ranx_names(names: Mapping[str, int]) -> list[str]:
    """The ranx metrics ``map_found`` metrics (name -> k) are derived from: ``map`` and ``hits`` per k."""
    return [cut(family, k) for k in sorted(set(names.values())) for family in ("map", "hits")]


def from_map(ap: float, hits: float, n_relevant: int) -> float:
    """One query's ``map_found`` from its trec_eval AP (``S / |R|``) and its retrieved gold count."""
    if hits <= 0 or n_relevant <= 0:
        return 0.0
    return ap * n_relevant / hits


def from_counts(qrels: Mapping[str, Mapping[str, int]], by_ranx: Mapping[str, Mapping[str, float]],
                names: Mapping[str, int]) -> dict[str, dict[str, float]]:
    """metric name -> qid -> ``map_found`` at each name's k, from the per-query values of :func:`ranx_names`."""
    n_rel = {q: sum(1 for r in rel.values() if r > 0) for q, rel in qrels.items()}
    return {name: {q: from_map(by_ranx[cut("map", k)][q], by_ranx[cut("hits", k)][q], n_rel[q]) for q in qrels}
            for name, k in names.items()}


def map_found(qrels: Mapping[str, Mapping[str, int]], rankings: Mapping[str, list[str]],
              names: Mapping[str, int]) -> dict[str, dict[str, float]]:
    """:func:`from_counts` with the measures run here (a run's scoring asks for them in its one call)."""
    from hermes_eval.judge.ranking import per_query

    return from_counts(qrels, per_query(qrels, rankings, ranx_names(names)), names)
