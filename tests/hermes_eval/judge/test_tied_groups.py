"""Tied groups on synthetic arms whose separation is known, and Holm's correction across all pairs
checked against statsmodels."""
from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from hermes_eval.judge.significance import paired_pvalue
from hermes_eval.judge.tied_groups import tied_groups


def arms(shifts: dict[str, float], n: int = 400, noise: float = 0.3, seed: int = 0) -> dict[str, np.ndarray]:
    """Per-query scores: a shared query difficulty plus an arm's shift and noise of its own (the
    paired difference of two arms then has sd noise * sqrt(2) and standard error that / sqrt(n)).
    Each arm's noise is one draw shuffled, so arms differ in mean by exactly their shifts."""
    rng = np.random.default_rng(seed)
    base, noise_draw = rng.random(n), rng.normal(0, noise, n)
    return {a: base + s + rng.permutation(noise_draw) for a, s in shifts.items()}


def test_two_clear_tiers():
    v = arms({"A": 0.20, "B": 0.20, "C": 0.0, "D": 0.0})
    g = tied_groups(["A", "B", "C", "D"], v)
    assert g.letters == {"A": "a", "B": "a", "C": "b", "D": "b"}
    assert g.tied_with("A") == ["B"] and g.separable("A", "C") and not g.separable("C", "D")


def test_an_arm_between_two_tiers_carries_both_letters():
    # standard error of a paired difference 0.005: B is 2 of them from A and from C (not separable
    # after Holm), A and C are 4 apart (separable)
    v = arms({"A": 0.02, "B": 0.01, "C": 0.0}, n=40000, noise=0.707)
    g = tied_groups(["A", "B", "C"], v)
    assert g.separable("A", "C") and not g.separable("A", "B") and not g.separable("B", "C")
    assert g.letters == {"A": "a", "B": "ab", "C": "b"}


def test_identical_arms_and_one_arm():
    v = arms({"A": 0.0})
    v["B"] = v["A"].copy()
    assert tied_groups(["A", "B"], v).letters == {"A": "a", "B": "a"}
    assert tied_groups(["A"], {"A": v["A"]}).letters == {"A": "a"}


def test_holm_over_every_pair_matches_statsmodels():
    v = arms({"A": 0.03, "B": 0.02, "C": 0.01, "D": 0.0}, n=200, noise=0.1, seed=5)
    order = ["A", "B", "C", "D"]
    g = tied_groups(order, v)
    pairs = list(combinations(order, 2))
    raw = [paired_pvalue(v[a], v[b]) for a, b in pairs]
    want = multipletests(raw, alpha=0.05, method="holm")[1]
    assert [g.p_adjusted[p] for p in pairs] == pytest.approx(list(want), abs=1e-12)


def test_unaligned_values_are_refused():
    with pytest.raises(ValueError, match="pair them by query first"):
        tied_groups(["A", "B"], {"A": [0.1, 0.2], "B": [0.3]})
