"""``percentiles`` gives numpy's own floats (its default linear method), in this process, on every shape of input
a run hands it: latencies, chunk sizes in lines and tokens (integers), ties, one value, NaN."""
from __future__ import annotations

import sys
import subprocess

import numpy as np
import pytest

from hermes_eval.judge.percentiles import latency_summary, percentiles

QS = [0, 1, 2.5, 5, 10, 25, 33.3, 50, 66.6, 75, 90, 95, 97.5, 99, 99.9, 100]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 10, 100, 1001])
def test_floats_are_numpys(n):
    rng = np.random.default_rng(n)
    for x in (rng.lognormal(size=n), rng.normal(size=n) * 1e6, np.round(rng.random(n), 2)):
        assert np.array_equal(percentiles(x, QS), np.percentile(x, QS))


@pytest.mark.parametrize("n", [1, 2, 5, 64, 999])
def test_integers_are_numpys(n):
    rng = np.random.default_rng(n)
    for x in (rng.integers(0, 2000, size=n), np.full(n, 7), rng.integers(0, 3, size=n)):
        assert np.array_equal(percentiles(x, QS), np.percentile(x, QS))
        assert np.array_equal(percentiles(list(x), [50, 95]), np.percentile(list(x), [50, 95]))


def test_nan_and_bad_input():
    assert np.isnan(percentiles([1.0, np.nan, 2.0], [50, 95])).all()
    with pytest.raises(ValueError):
        percentiles([], [50])
    with pytest.raises(ValueError):
        percentiles([1, 2], [101])


def test_latency_summary_imports_no_numpy_ma():
    code = ("import sys; from hermes_eval.judge.percentiles import latency_summary; "
            "s = latency_summary([1_000_000, 2_000_000, 5_000_000]); print(s['p50'], s['p99'], 'numpy.ma' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["2.0", "4.94", "False"]
    assert latency_summary([]) == {"n": 0}
