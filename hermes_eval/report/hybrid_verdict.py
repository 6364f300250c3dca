"""Does hybrid beat BM25 on this set? The best hybrid arm (sparse and dense legs fused) against the best
BM25-only arm on the board's ranking metric, queries paired: the mean difference with its 95% BCa
bootstrap CI and the board's own paired test, over every query and inside each stratum the set declares
(the already-localized reports of Kochhar et al. among them, Holm across one set's strata)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

import numpy as np
import pandas as pd

from hermes_eval.judge.bootstrap import bootstrap_ci
from hermes_eval.judge.significance import holm, paired_pvalue
from hermes_eval.judge.strata import COLUMN_PREFIX
from hermes_eval.report.options import ReportSettings
from hermes_eval.report.table import SPARSE_ONLY, Board

HYBRID_LEGS = frozenset({"sparse", "dense"})
BETTER, WORSE, NOT_SEPARABLE = "hybrid better", "hybrid worse", "not separable"


@dataclass(frozen=True)
class Contrast:
    """Hybrid minus BM25 over one group of queries."""

    group: str  # "all queries", or a stratum's value
    n: int
    bm25: float
    hybrid: float
    delta: float
    ci: tuple[float, float]
    p_value: float
    p_holm: float
    verdict: str


@dataclass(frozen=True)
class HybridVerdict:
    """One set's answer: the two arms compared, over all its queries and per declared stratum."""

    queryset: str
    metric: str
    bm25: str  # config hash
    hybrid: str
    overall: Contrast
    strata: tuple[tuple[str, tuple[Contrast, ...]], ...]  # (stratum name, its groups)


def _legs(row: pd.Series) -> frozenset[str]:
    return frozenset(str(row.get("legs") or "").split(","))


def arms(b: Board) -> tuple[str, str] | None:
    """(BM25 arm, hybrid arm): the board's baseline when it is BM25-only (else its best BM25-only arm) and
    its best-ranked hybrid; None when the set lacks either."""
    sparse = [str(h) for h, legs in zip(b.rows["config_hash"], b.rows["legs"]) if legs == SPARSE_ONLY]
    hybrid = [str(r["config_hash"]) for _, r in b.rows.iterrows() if _legs(r) == HYBRID_LEGS]
    if not sparse or not hybrid:
        return None
    return (b.baseline if b.baseline in sparse else sparse[0]), hybrid[0]


def contrast(group: str, a: np.ndarray, b: np.ndarray, s: ReportSettings) -> Contrast:
    """Hybrid (``b``) minus BM25 (``a``) on paired per-query values (verdict set by :func:`judged`)."""
    d = b - a
    p = paired_pvalue(a, b, s.stat_test, s.n_permutations) if len(d) > 1 and np.any(d != 0) else 1.0
    return Contrast(group, len(d), float(a.mean()), float(b.mean()), float(d.mean()),
                    bootstrap_ci(d, seed=s.seed), p, p, NOT_SEPARABLE)


def judged(c: Contrast, p_holm: float, alpha: float) -> Contrast:
    verdict = NOT_SEPARABLE if p_holm >= alpha or c.delta == 0 else (BETTER if c.delta > 0 else WORSE)
    return replace(c, p_holm=p_holm, verdict=verdict)


def hybrid_verdict(b: Board, frames: Mapping[str, pd.DataFrame], s: ReportSettings) -> HybridVerdict | None:
    """The verdict of board ``b`` (``frames``: config hash -> its per-query table); None without both arms
    or without per-query values of the ranking metric."""
    pair = arms(b)
    if pair is None:
        return None
    base, hyb = (frames.get(h) for h in pair)
    metric = b.sort_metric
    if any(f is None or f.empty or metric not in f or "qid" not in f for f in (base, hyb)):
        return None
    joined = base.merge(hyb[["qid", metric]], on="qid", how="inner", suffixes=("", "__hybrid")).sort_values("qid")
    a, h = (joined[c].to_numpy(dtype=np.float64) for c in (metric, f"{metric}__hybrid"))
    overall = contrast("all queries", a, h, s)
    overall = judged(overall, overall.p_value, s.alpha)
    strata = []
    for col in sorted(c for c in joined.columns if c.startswith(COLUMN_PREFIX)):
        groups = [(str(v), (joined[col] == v).to_numpy()) for v in sorted(joined[col].dropna().unique(), key=str)]
        if len(groups) < 2:
            continue
        found = [contrast(v, a[m], h[m], s) for v, m in groups]
        adjusted = holm([c.p_value for c in found])
        strata.append((col[len(COLUMN_PREFIX):], tuple(judged(c, p, s.alpha) for c, p in zip(found, adjusted))))
    return HybridVerdict(b.queryset, metric, pair[0], pair[1], overall, tuple(strata))


__all__ = ["BETTER", "Contrast", "HybridVerdict", "NOT_SEPARABLE", "WORSE", "arms", "hybrid_verdict"]
