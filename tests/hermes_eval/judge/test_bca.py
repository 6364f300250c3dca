"""judge/bca.py gives scipy.stats.bootstrap's bootstrap distribution exactly and its BCa interval to 1e-12
(the normal CDF and quantile come from the standard library, not scipy.special): continuous, binary,
few-valued and one-outlier samples, several resample counts and batch sizes, degenerate cases."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from hermes_eval.judge.bca import bca_interval, linear_quantiles
from hermes_eval.judge.bootstrap import bootstrap_ci


def _scipy(x, n_resamples, batch, seed):
    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = stats.bootstrap((x,), lambda a, axis=-1: np.mean(a, axis=axis), n_resamples=n_resamples, batch=batch,
                            vectorized=True, confidence_level=0.95, method="BCa", rng=np.random.default_rng(seed))
    return float(r.confidence_interval.low), float(r.confidence_interval.high), r.bootstrap_distribution


def _sample(kind: int, n: int, rng):
    return [rng.random(n), (rng.random(n) < 0.3).astype(float), rng.integers(0, 4, n) / 3.0,
            np.r_[np.zeros(n - 1), 1.0]][kind]


@pytest.mark.parametrize("kind", range(4))
@pytest.mark.parametrize("n_resamples,batch", [(1000, 100), (7, 100), (250, 64), (1000, 1000)])
def test_interval_and_distribution_equal_scipy(kind, n_resamples, batch):
    rng = np.random.default_rng(kind * 100 + n_resamples)
    for trial in range(8):
        x = _sample(kind, int(rng.integers(2, 300)), rng)
        lo, hi, dist = _scipy(x, n_resamples, batch, trial)
        got = bca_interval(x, n_resamples, batch, 0.95, np.random.default_rng(trial))
        assert np.array_equal(got[2], dist)
        assert np.allclose([got[0], got[1]], [lo, hi], rtol=1e-12, atol=0, equal_nan=True)


def test_a_level_outside_zero_one_is_nan_as_scipy_gives():
    from scipy import stats

    v = np.random.default_rng(1).random(50)
    levels = np.array([-0.1, 0.0, 0.025, 0.5, 0.975, 1.0, 1.2, np.nan])
    assert np.array_equal(linear_quantiles(v, levels), stats.quantile(v, levels), equal_nan=True)


def test_the_ci_the_records_hold_is_scipys():
    x = (np.random.default_rng(9).random(120) < 0.4).astype(float)
    lo, hi, _ = _scipy(x, 1000, 100, 0)
    assert bootstrap_ci(x, n_resamples=1000, seed=0) == pytest.approx((lo, hi), rel=1e-12, abs=0)


def test_the_normal_functions_are_scipys():
    from scipy import special

    from hermes_eval.judge.bca import ndtr, ndtri

    rng = np.random.default_rng(3)
    x = np.r_[rng.normal(0, 3, 5000), [-40.0, -8.0, -0.5, 0.0, 0.5, 8.0, 40.0, np.inf, -np.inf, np.nan]]
    assert np.allclose(ndtr(x), special.ndtr(x), rtol=1e-14, atol=1e-300, equal_nan=True)
    p = np.r_[rng.random(5000), [0.0, 1.0, -0.1, 1.1, np.nan, 1e-300, 0.5]]
    assert np.allclose(ndtri(p), special.ndtri(p), rtol=1e-13, atol=0, equal_nan=True)
    assert ndtri(np.float64(0.025)).shape == () and ndtri(0.975) == pytest.approx(1.959963984540054)


@pytest.mark.parametrize("n_resamples", [1000, 7, 0])
def test_columns_resampled_together_summarize_as_each_alone(n_resamples):
    """A run's metrics are summarized together (summarize_all): every mean and CI must equal what each
    column gets alone (summarize), bit for bit, whatever sizes and degenerate columns they come in."""
    from hermes_eval.judge import bootstrap

    rng = np.random.default_rng(n_resamples + 3)
    columns = {f"m{i}": list(_sample(i % 4, n, rng)) for i, n in enumerate([40, 40, 40, 40, 7, 7, 300, 40, 2])}
    columns.update({"same": [0.5] * 40, "none": [], "one": [1.0]})
    alone = {name: bootstrap.summarize(v, seed=3, n_resamples=n_resamples) for name, v in columns.items()}
    assert bootstrap.summarize_all(columns, seed=3, n_resamples=n_resamples) == alone
    assert list(bootstrap.summarize_all(columns, seed=3, n_resamples=n_resamples)) == list(columns)
