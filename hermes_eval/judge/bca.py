"""``scipy.stats.bootstrap(method='BCa')`` of a mean, step for step in numpy (scipy 1.17's
``_resampling.bootstrap``, ``_bca_interval`` and ``stats.quantile(method='linear')``).

Importing ``scipy.stats`` costs a fresh process about 0.5 s, a third of a small run, and even
``scipy.special`` (its ``ndtr``/``ndtri``) costs 0.1-0.2 s; the standard normal's CDF and quantile come
from the standard library instead (``math.erf``/``erfc`` as cephes' ``ndtr`` combines them, and
``statistics.NormalDist.inv_cdf``, Wichura's AS241), which agree with scipy's to about one unit in the last
place. The same generator calls, arithmetic and order give the same bootstrap distribution exactly and the
same interval to 1e-12: ``tests/hermes_eval/judge/test_bca.py`` holds both to ``scipy.stats.bootstrap``.
"""
from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

_SQRT1_2 = math.sqrt(0.5)


def _ndtr_scalar(a: float) -> float:
    if math.isnan(a):
        return math.nan
    x = a * _SQRT1_2
    if abs(x) < _SQRT1_2:
        return 0.5 + 0.5 * math.erf(x)
    y = 0.5 * math.erfc(abs(x))
    return 1.0 - y if x > 0 else y


def _ndtri_scalar(p: float) -> float:
    if not 0.0 < p < 1.0:
        return -math.inf if p == 0.0 else math.inf if p == 1.0 else math.nan
    return NormalDist().inv_cdf(p)


def ndtr(x) -> np.ndarray:
    """The standard normal CDF, elementwise (``scipy.special.ndtr``)."""
    return np.vectorize(_ndtr_scalar, otypes=[float])(x)


def ndtri(p) -> np.ndarray:
    """The standard normal quantile, elementwise; -inf/inf at 0/1, NaN outside (``scipy.special.ndtri``)."""
    return np.vectorize(_ndtri_scalar, otypes=[float])(p)


def _means(x: np.ndarray) -> np.ndarray:
    return np.mean(x, axis=-1)


def resampled_means(x: np.ndarray, n_resamples: int, batch: int, rng: np.random.Generator) -> np.ndarray:
    """The bootstrap distribution of the mean: ``batch`` resamples per draw, as scipy draws them. Rows of a
    2-d ``x`` share each draw and are gathered one at a time (a small gather stays in cache)."""
    n, out = x.shape[-1], []
    for k in range(0, n_resamples, batch):
        rows = min(batch, n_resamples - k)
        idx = rng.integers(0, n, (rows, n))
        out.append(_means(x[idx]) if x.ndim == 1 else np.stack([_means(row[idx]) for row in x]))
    return np.concatenate(out, axis=-1)


def _jackknife_means(x: np.ndarray, batch: int) -> np.ndarray:
    """The mean with each observation left out in turn (scipy's ``_jackknife_resample``); rows of a 2-d ``x``
    one at a time."""
    n, out = x.shape[-1], []
    for k in range(0, n, batch):
        rows = min(batch, n - k)
        keep = np.ones((rows, n), dtype=bool)
        np.fill_diagonal(keep[:, k:k + rows], False)
        i = np.broadcast_to(np.arange(n), (rows, n))[keep].reshape((rows, n - 1))
        out.append(_means(x[i]) if x.ndim == 1 else np.stack([_means(row[i]) for row in x]))
    return np.concatenate(out, axis=-1)


def bca_levels(x: np.ndarray, theta_b: np.ndarray, alpha: float, batch: int) -> tuple[float, float]:
    """The two quantile levels of the BCa interval (scipy's ``_bca_interval``)."""
    theta_hat = np.expand_dims(_means(x), axis=-1)
    below = np.count_nonzero(theta_b < theta_hat, axis=-1) + np.count_nonzero(theta_b <= theta_hat, axis=-1)
    z0 = ndtri(np.asarray(below.astype(theta_hat.dtype) / (2 * theta_b.shape[-1]), dtype=theta_hat.dtype))
    theta_i = _jackknife_means(x, batch)
    n = float(theta_i.shape[-1])
    u = (n - 1) * (np.mean(theta_i, axis=-1, keepdims=True) - theta_i)
    a_hat = 1 / 6 * (np.sum(u ** 3, axis=-1) / n ** 3) / (np.sum(u ** 2, axis=-1) / n ** 2) ** (3 / 2)
    z_alpha = float(ndtri(alpha))
    num1, num2 = z0 + z_alpha, z0 - z_alpha
    return ndtr(z0 + num1 / (1 - a_hat * num1)), ndtr(z0 + num2 / (1 - a_hat * num2))


def linear_quantiles(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """``scipy.stats.quantile(values, levels, method='linear')`` of 1-d ``values`` (NaN for a NaN level)."""
    y = np.sort(values)
    p = np.asarray(levels, dtype=y.dtype)
    mask = (p > 1) | (p < 0) | np.isnan(p)
    p = np.where(mask, 0.5, p)
    n = np.asarray(y.shape[-1], dtype=y.dtype)
    jg = p * n + (1 - p)
    jp1 = jg // 1
    j = jp1 - 1
    g = jg % 1
    g = np.where(j < 0, 0, g)
    j, jp1 = np.clip(j, 0., n - 1), np.clip(jp1, 0., n - 1)
    out = (1 - g) * y[j.astype(np.int64)] + g * y[jp1.astype(np.int64)]
    return np.where(mask, np.nan, out)


def bca_interval(x: np.ndarray, n_resamples: int, batch: int, confidence: float,
                 rng: np.random.Generator) -> tuple[float, float, np.ndarray]:
    """(low, high, bootstrap distribution) of the mean of 1-d ``x``, two-sided at ``confidence``."""
    [(low, high)], theta_b = bca_intervals(x[None, :], n_resamples, batch, confidence, rng)
    return low, high, theta_b[0]


def bca_intervals(xs: np.ndarray, n_resamples: int, batch: int, confidence: float,
                  rng: np.random.Generator) -> tuple[list[tuple[float, float]], np.ndarray]:
    """Each row's (low, high) of :func:`bca_interval`, and the rows' bootstrap distributions, for the rows
    of 2-d ``xs`` (samples of one size) resampled with the same indices: those a fresh ``rng`` draws for
    each row alone, drawn once. Each row is gathered and averaged as it is alone, so its numbers are the
    ones it gets alone, bit for bit (``tests/hermes_eval/judge/test_bca.py`` holds them equal)."""
    theta_b = resampled_means(xs, n_resamples, batch, rng)
    with np.errstate(all="ignore"):  # BCa undefined: NaN levels, as in scipy
        lows, highs = (np.broadcast_to(v, xs.shape[:1]) for v in bca_levels(xs, theta_b, (1 - confidence) / 2, batch))
        cis = [linear_quantiles(t, np.array([lo, hi])) for t, lo, hi in zip(theta_b, lows, highs)]
    return [(float(ci[0]), float(ci[1])) for ci in cis], theta_b
