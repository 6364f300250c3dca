"""Average precision, the one function every metric and reproduction calls, its denominator a parameter.

With ``r_1 < r_2 < ...`` the 1-based ranks at which a ranking retrieves relevant documents (within the
cut-off ``k``; 0: the whole ranking) and ``P@r_i = i / r_i``, the sum ``S = sum_i P@r_i`` is divided by
one of (ir_measures-style variants of one measure, not copies):

- ``all_gold`` (trec_eval's ``map``/``map_cut_k``, ranx's ``map``/``map@k``, Ye et al.'s MAP): the
  number of relevant documents ``n_gold``; 0 when there is none. A gold file the ranking never reaches
  counts as a miss: gold a, b, c found at ranks 1 and 3 scores (1 + 2/3) / 3.
- ``gold_found`` (BLIZZARD's ``BLIZZARDResultProvider.getAP``, masud-technope/BLIZZARD; Gandhi et al.'s
  ``SearchEvaluator``, Siddharth-Gandhi/ds): the relevant documents retrieved within the cut; 0 when
  none is. Never below ``all_gold``; equal when every gold file is found.
- ``fixed_files`` (Bench4BL's ``scripts/results/Evaluator.py``): the report's fixed files, every one of
  them, including those the corpus lacks (``n_gold`` is that count, not the judged documents'); a report
  has at least one.

A rank given twice counts once (a position holds one document: BLIZZARD's ``HashSet`` of found
indices). The sum runs in ascending rank order, as ranx's kernel does, so ``all_gold`` equals ranx bit
for bit (tests/hermes_eval/judge/measures/test_ranx_parity.py).
"""
from __future__ import annotations

from typing import Callable, Iterable, Literal

Denominator = Literal["all_gold", "gold_found", "fixed_files"]


def rescale(ap_all_gold: float, n_gold: int, found: int) -> float:
    """``gold_found`` from ``all_gold`` (``S / n_gold``) and the count found: ``S / n_gold * n_gold / found``,
    the order of operations runs recorded (and trec_eval's ``map`` and ``num_rel_ret`` re-score), so a
    record's values stay bit-identical; 0 when nothing is found."""
    if found <= 0 or n_gold <= 0:
        return 0.0
    return ap_all_gold * n_gold / found


def _all_gold(total: float, found: int, n_gold: int) -> float:
    return total / n_gold if n_gold > 0 else 0.0


def _gold_found(total: float, found: int, n_gold: int) -> float:
    if n_gold > 0:  # the recorded order of operations (bit-identical records); S / found within an ulp
        return rescale(total / n_gold, n_gold, found)
    return total / found if found else 0.0


def _fixed_files(total: float, found: int, n_gold: int) -> float:
    if n_gold <= 0:
        raise ValueError("average_precision(denominator='fixed_files'): n_gold must count the report's fixed "
                         "files (a report has at least one)")
    return total / n_gold


DENOMINATORS: dict[str, Callable[[float, int, int], float]] = {
    "all_gold": _all_gold, "gold_found": _gold_found, "fixed_files": _fixed_files,
}


def average_precision(ranks: Iterable[int], n_gold: int = 0, denominator: Denominator = "all_gold",
                      k: int = 0) -> float:
    """AP of one query from the 1-based ``ranks`` of the relevant documents retrieved (any order), the
    number of gold documents ``n_gold`` (unused by ``gold_found`` but for its recorded rounding), the
    ``denominator`` variant and the cut-off ``k`` (0: every rank)."""
    if denominator not in DENOMINATORS:
        raise ValueError(f"average_precision: denominator {denominator!r}; use one of {', '.join(DENOMINATORS)}")
    found, total = 0, 0.0
    for r in sorted(set(ranks)):
        if r < 1:
            raise ValueError(f"average_precision: rank {r}; ranks are 1-based")
        if k and r > k:
            break
        found += 1
        total += found / r
    return DENOMINATORS[denominator](total, found, n_gold)


def ranks_of(ranking: Iterable[str], gold: Iterable[str]) -> list[int]:
    """The 1-based ranks at which ``ranking`` holds a ``gold`` document."""
    g = set(gold)
    return [i for i, d in enumerate(ranking, start=1) if d in g]
