"""Which arms of a board a test cannot tell apart: every pair tested (ranx's paired test on the
per-query values of the board's ranking metric), Holm-corrected over all pairs at ``alpha``, then
shown as a compact letter display: arms sharing a letter are not separable; an arm may carry
several letters. With arms in rank order, a group is a maximal run of consecutive arms no two of
which differ (the usual display for ordered means, Piepho 2004 in its simple form)."""
from __future__ import annotations

import string
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Mapping, Sequence

import numpy as np

from hermes_eval.judge.significance import DEFAULT_ALPHA, DEFAULT_STAT_TEST, holm, paired_pvalue

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class TiedGroups:
    """``letters[arm]`` (e.g. "a", "ab"); ``p_adjusted[(a, b)]`` for every tested pair (a ranked first)."""

    letters: Mapping[str, str]
    p_adjusted: Mapping[tuple[str, str], float]
    alpha: float
    stat_test: str

    def separable(self, a: str, b: str) -> bool:
        """Whether arms ``a`` and ``b`` differ at ``alpha`` after Holm's correction."""
        p = self.p_adjusted.get((a, b), self.p_adjusted.get((b, a)))
        return p is not None and p < self.alpha

    def tied_with(self, arm: str) -> list[str]:
        """The arms sharing a letter with ``arm``, in rank order."""
        mine = set(self.letters.get(arm, ""))
        return [a for a in self.letters if a != arm and mine & set(self.letters[a])]


def aligned(frames: Mapping[str, "pd.DataFrame"], metric: str) -> dict[str, np.ndarray] | None:
    """Each arm's per-query ``metric`` over the queries every arm has, in qid order (None: an arm
    has no per-query values for it)."""
    if any(f.empty or metric not in f or "qid" not in f for f in frames.values()):
        return None
    common = sorted(set.intersection(*(set(f["qid"]) for f in frames.values())))
    return {a: f.set_index("qid").loc[common, metric].to_numpy(dtype=float) for a, f in frames.items()}


def _letter(i: int) -> str:
    alphabet = string.ascii_lowercase
    return alphabet[i] if i < len(alphabet) else f"{alphabet[i // len(alphabet) - 1]}{alphabet[i % len(alphabet)]}"


def tied_groups(order: Sequence[str], values: Mapping[str, Sequence[float]], alpha: float = DEFAULT_ALPHA,
                stat_test: str = DEFAULT_STAT_TEST) -> TiedGroups:
    """Groups of ``order`` (arms best first) from their per-query ``values`` (aligned, same queries)."""
    arms = [a for a in order if a in values]
    lengths = {len(values[a]) for a in arms}
    if len(lengths) > 1:
        raise ValueError(f"per-query values of different lengths {sorted(lengths)}: pair them by query first")
    pairs = list(combinations(arms, 2))
    raw = [paired_pvalue(np.asarray(values[a], float), np.asarray(values[b], float), stat_test) for a, b in pairs]
    p_adj = dict(zip(pairs, holm(raw)))
    same = {(a, b): p_adj[(a, b)] >= alpha for a, b in pairs}

    def tied(a: str, b: str) -> bool:
        return a == b or same.get((a, b), same.get((b, a), False))

    groups: list[tuple[int, int]] = []
    for i in range(len(arms)):
        j = i
        while j + 1 < len(arms) and all(tied(arms[k], arms[j + 1]) for k in range(i, j + 1)):
            j += 1
        if not any(s <= i and j <= e for s, e in groups):  # not inside a group already found
            groups.append((i, j))
    letters = {a: "" for a in arms}
    for n, (s, e) in enumerate(groups):
        for a in arms[s:e + 1]:
            letters[a] += _letter(n)
    return TiedGroups(letters, p_adj, alpha, stat_test)
