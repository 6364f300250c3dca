"""Latency rules: this tree against the baseline ref's code, paired per query, with an A/A check.

For one arm and stage, each query's latency in a process is the median of its ``rounds`` timings.
``d_q = log(head_q / base_q)`` is the paired per-query log ratio and ``a_q = log(twin_q / head_q)``
the A/A one (two processes of the same code, same run). Reported: the median ratio
``exp(median d)`` with a bootstrap 95% CI over queries, a one-sided Wilcoxon signed-rank p-value
for ``d > 0``, the A/A spread ``exp(max |end of the 95% CI of median a|)`` and the A/A offset
``exp(|median a|)``: how far two processes of identical code sit apart in this run.

- **fail** (a slowdown): ratio >= ``min_ratio`` **and** p < ``alpha`` **and** the CI's lower end
  exceeds the A/A spread (the slowdown is larger than what identical code shows in this run);
- **pass**: the CI's upper end, times the A/A offset, < ``min_ratio``: a slowdown of ``min_ratio``
  is ruled out even allowing for the process-to-process offset seen between identical code;
- **inconclusive** otherwise: the data neither show nor rule out a slowdown of ``min_ratio``.
"""
from __future__ import annotations

import numpy as np

from hermes_eval.gate.interleave import Timings
from hermes_eval.gate.rules import Verdict
from hermes_eval.gate.spec import LatencyRule, PairedDesign

UNIT = "x baseline code"


def _per_query(samples: np.ndarray) -> np.ndarray:
    return np.log(np.maximum(np.median(samples, axis=0), 1.0))


def median_ci(x: np.ndarray, resamples: int, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(x), size=(resamples, len(x)))
    meds = np.median(x[idx], axis=1)
    return float(np.percentile(meds, 2.5)), float(np.percentile(meds, 97.5))


def paired_stats(head: np.ndarray, twin: np.ndarray, base: np.ndarray, design: PairedDesign) -> dict:
    """Ratio, its CI, Wilcoxon p and the A/A spread for one arm and stage (arrays: rounds x queries)."""
    from scipy.stats import wilcoxon

    d = _per_query(head) - _per_query(base)
    a = _per_query(twin) - _per_query(head)
    lo, hi = median_ci(d, design.bootstrap, design.seed)
    alo, ahi = median_ci(a, design.bootstrap, design.seed + 1)
    p = float(wilcoxon(d, alternative="greater").pvalue) if np.any(d != 0) else 1.0
    return {"ratio": float(np.exp(np.median(d))), "ci": (float(np.exp(lo)), float(np.exp(hi))), "p": p,
            "aa": float(np.exp(max(abs(alo), abs(ahi)))), "aa_offset": float(np.exp(abs(np.median(a)))),
            "head_ms": float(np.exp(np.median(_per_query(head))) / 1e6),
            "base_ms": float(np.exp(np.median(_per_query(base))) / 1e6), "n": int(len(d))}


def decide(rule: LatencyRule, st: dict) -> str:
    if st["ratio"] >= rule.min_ratio and st["p"] < rule.alpha and st["ci"][0] > st["aa"]:
        return "fail"
    if st["ci"][1] * st["aa_offset"] < rule.min_ratio:
        return "pass"
    return "inconclusive"


def latency_verdict(rule: LatencyRule, timings: Timings, design: PairedDesign, against: str) -> Verdict:
    name = f"latency/{rule.arm}/{rule.stage}"
    try:
        arrays = [timings.ns[role][rule.arm][rule.stage] for role in ("head", "twin", "base")]
    except KeyError:
        return Verdict(name, "error", 1.0, None, f"ratio < {rule.min_ratio}",
                       f"stage {rule.stage!r} was not timed for arm {rule.arm!r} in all three processes",
                       higher_is_better=False, unit=UNIT)
    st = paired_stats(*arrays, design)
    status = decide(rule, st)
    why = {"fail": "a slowdown", "pass": f"a {rule.min_ratio}x slowdown is ruled out",
           "inconclusive": f"neither shows nor rules out a {rule.min_ratio}x slowdown"}[status]
    detail = (f"{rule.stage} latency of {rule.arm} against the baseline code ({against[:12]}): median per-query "
              f"ratio {st['ratio']:.3f}x [{st['ci'][0]:.3f}, {st['ci'][1]:.3f}] ({st['base_ms']:.2f} -> "
              f"{st['head_ms']:.2f} ms), Wilcoxon p={st['p']:.2g}, A/A spread {st['aa']:.3f}x (offset "
              f"{st['aa_offset']:.3f}x); {why} "
              f"(fails at >= {rule.min_ratio}x with p < {rule.alpha}, CI above the A/A spread; n={st['n']}, "
              f"{timings.rounds} rounds)")
    return Verdict(name, status, 1.0, round(st["ratio"], 4), f"ratio < {rule.min_ratio}", detail,
                   higher_is_better=False, unit=UNIT, band=(0.0, rule.min_ratio),
                   extra={k: st[k] for k in ("ci", "p", "aa", "aa_offset", "head_ms", "base_ms", "n")})
