"""Statistics against independent implementations: Holm by hand, ranx p-values against scipy."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats as sp

from hermes_eval.judge.significance import (EffectCI, holm, paired_bootstrap, paired_pvalue, ratio_bootstrap,
                                      vector_test)
from tests.hermes_eval.judge.ranx_oracle import ranx_compare


def test_holm_matches_a_hand_worked_example():
    # sorted p: 0.005*4=0.02, 0.01*3=0.03, 0.03*2=0.06, 0.04*1=0.04 -> max(0.06, 0.04)=0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_is_monotone_capped_and_treats_nan_as_one():
    adj = holm([0.2, 0.5, float("nan"), 0.001])
    assert adj == pytest.approx([0.6, 1.0, 1.0, 0.004])
    assert holm([]) == [] and holm([0.03]) == [0.03]


def test_holm_agrees_with_statsmodels_when_installed():
    multitest = pytest.importorskip("statsmodels.stats.multitest")
    p = np.random.default_rng(1).uniform(0, 0.2, 12)
    assert holm(list(p)) == pytest.approx(list(multitest.multipletests(p, method="holm")[1]))


def _rankings(n: int = 60, seed: int = 0):
    """Qrels with one relevant doc per query; B finds it higher than A on average."""
    rng = np.random.default_rng(seed)
    qrels, a, b = {}, {}, {}
    for i in range(n):
        q = f"q{i}"
        qrels[q] = {"gold": 1}
        others = [f"d{j}" for j in range(12)]
        ra, rb = int(rng.integers(0, 12)), int(rng.integers(0, 6))
        a[q] = others[:ra] + ["gold"] + others[ra:]
        b[q] = others[:rb] + ["gold"] + others[rb:]
    return qrels, a, b


def _recall_at(rankings, k):
    return np.array([1.0 if "gold" in rankings[q][:k] else 0.0 for q in sorted(rankings)])


def test_ranx_compare_student_matches_scipy_ttest_rel_on_independent_values():
    qrels, a, b = _rankings()
    res = ranx_compare(qrels, a, b, ["recall@5", "mrr@10"], "student")["recall@5"]
    va, vb = _recall_at(a, 5), _recall_at(b, 5)
    assert res.mean_a == pytest.approx(va.mean()) and res.mean_b == pytest.approx(vb.mean())
    assert res.p_value == pytest.approx(sp.ttest_rel(va, vb).pvalue, rel=1e-9)
    assert res.method == "ranx.compare" and res.n == 60


def test_vector_test_matches_scipy_and_identical_arms_give_p_one():
    rng = np.random.default_rng(3)
    a = rng.random(50)
    b = a + rng.normal(0.05, 0.1, 50)
    assert vector_test("m", a, b).p_value == pytest.approx(sp.ttest_rel(a, b).pvalue, rel=1e-9)
    assert paired_pvalue(a, a) == 1.0


def test_fisher_randomization_agrees_with_an_independent_permutation_test():
    rng = np.random.default_rng(5)
    a = rng.random(40)
    b = a + rng.normal(0.08, 0.2, 40)
    ours = paired_pvalue(a, b, "fisher", n_permutations=4000)
    exact = sp.permutation_test((a, b), lambda x, y: np.mean(x - y), permutation_type="samples",
                                n_resamples=4000, random_state=0).pvalue
    assert ours == pytest.approx(exact, abs=0.03)


def test_paired_bootstrap_is_seeded_and_brackets_the_mean_difference():
    rng = np.random.default_rng(7)
    a = rng.random(80)
    b = a + 0.1 + rng.normal(0, 0.05, 80)
    e1, e2 = paired_bootstrap(a, b, seed=1), paired_bootstrap(a, b, seed=1)
    assert e1 == e2 and e1.ci_low < e1.mean < e1.ci_high and e1.ci_low > 0
    assert e1.mean == pytest.approx(float(np.mean(b - a)))
    assert paired_bootstrap([], []).n == 0


def test_paired_bootstrap_is_the_scipy_bca_bootstrap_of_the_differences():
    rng = np.random.default_rng(9)
    a = rng.random(50)
    b = np.clip(a + rng.normal(0.05, 0.2, 50), 0, 1)
    e = paired_bootstrap(a, b, n_resamples=1500, seed=4)
    direct = sp.bootstrap((b - a,), np.mean, n_resamples=1500, confidence_level=0.95, method="BCa",
                          rng=np.random.default_rng(4)).confidence_interval
    assert (e.ci_low, e.ci_high) == pytest.approx((float(direct.low), float(direct.high)), rel=1e-12, abs=0)
    assert e.mean == float(np.mean(b - a)) and e.n == 50


def test_paired_bootstrap_degenerate_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert paired_bootstrap([], []) == EffectCI(0.0, 0.0, 0.0, 0)
        assert paired_bootstrap([0.5], [0.75]) == EffectCI(0.25, 0.25, 0.25, 1)
        assert paired_bootstrap([0.5] * 9, [0.5] * 9) == EffectCI(0.0, 0.0, 0.0, 9)
        e = paired_bootstrap([0.0, 0.5, 1.0], [1.0, 1.0, 1.0], n_resamples=0)
        assert e == EffectCI(0.5, 0.5, 0.5, 3)


def test_ratio_bootstrap_of_a_percentile():
    a = np.linspace(1, 10, 100)
    r = ratio_bootstrap(a, 2 * a, 95)
    assert r.mean == pytest.approx(2.0) and r.ci_low == pytest.approx(2.0) and r.ci_high == pytest.approx(2.0)
