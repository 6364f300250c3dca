"""Evaluate quality and latency rules: current measurements against the baseline."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hermes_eval.gate.spec import GateSpec, LatencyRule, QualityRule


@dataclass(frozen=True)
class Verdict:
    rule: str  # a stable name, e.g. "quality/hybrid/ndcg@10"
    passed: bool
    baseline: float | None
    current: float | None
    tolerance: str
    detail: str
    higher_is_better: bool = True
    unit: str = ""


def quality_verdicts(rule: QualityRule, spec: GateSpec, base: dict, cur: dict) -> list[Verdict]:
    out = []
    for arm_id in rule.arms:
        b = base["arms"][arm_id]["metrics"].get(rule.metric)
        c = cur["arms"][arm_id]["metrics"].get(rule.metric)
        name = f"quality/{arm_id}/{rule.metric}"
        if b is None or c is None:
            out.append(Verdict(name, False, b, c, "-", f"metric {rule.metric!r} missing from "
                               f"{'baseline' if b is None else 'this run'}"))
            continue
        tol = rule.tolerance(b, spec.arm(arm_id).approximate)
        delta = c - b
        bad = delta < -tol - 1e-12 if rule.sided == "one" else abs(delta) > tol + 1e-12
        side = "drop" if rule.sided == "one" else "change"
        out.append(Verdict(name, not bad, b, c, f"{side} <= {tol:.4f}",
                           f"{rule.metric} {b:.4f} -> {c:.4f} (delta {delta:+.4f}, allowed {side} {tol:.4f})"))
    return out


def normalized(samples_ms: list[float], reference_ms: list[float]) -> np.ndarray:
    """Per-query latency of an arm divided by the reference arm's median in the same run."""
    return np.asarray(samples_ms, dtype=np.float64) / max(float(np.median(reference_ms)), 1e-9)


def latency_verdict(rule: LatencyRule, base: dict, cur: dict) -> Verdict:
    """Regression when the arm/reference ratio grew by >= min_ratio and Mann-Whitney U agrees."""
    from scipy.stats import mannwhitneyu

    name = f"latency/{rule.arm}/{rule.stage}"
    try:
        now = normalized(cur["arms"][rule.arm]["latency_samples"][rule.stage],
                         cur["arms"][rule.reference]["latency_samples"][rule.stage])
        then = normalized(base["arms"][rule.arm]["latency_samples"][rule.stage],
                          base["arms"][rule.reference]["latency_samples"][rule.stage])
    except KeyError as exc:
        return Verdict(name, False, None, None, "-", f"latency samples missing: {exc}", False, "x ref")
    ratio = float(np.median(now) / np.median(then))
    p = float(mannwhitneyu(now, then, alternative="greater").pvalue)
    bad = ratio >= rule.min_ratio and p < rule.alpha
    return Verdict(name, not bad, round(float(np.median(then)), 4), round(float(np.median(now)), 4),
                   f"ratio < {rule.min_ratio} or p >= {rule.alpha}",
                   f"{rule.stage} latency of {rule.arm} relative to {rule.reference}: median "
                   f"{np.median(then):.3f}x -> {np.median(now):.3f}x (change {ratio:.2f}x, Mann-Whitney "
                   f"p={p:.2g})", higher_is_better=False, unit="x reference")


def evaluate(spec: GateSpec, base: dict, cur: dict) -> list[Verdict]:
    out: list[Verdict] = []
    for rule in spec.quality:
        out.extend(quality_verdicts(rule, spec, base, cur))
    out.extend(latency_verdict(rule, base, cur) for rule in spec.latency)
    return out
