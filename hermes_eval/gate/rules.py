"""Gate verdicts, and the quality rules: current metrics against the committed baseline, exactly."""
from __future__ import annotations

from dataclasses import dataclass, field

from hermes_eval.gate.spec import GateSpec, QualityRule

STATUSES = ("pass", "fail", "inconclusive", "error")


@dataclass(frozen=True)
class Verdict:
    rule: str  # a stable name, e.g. "quality/hybrid/ndcg@10"
    status: str  # one of STATUSES
    baseline: float | None
    current: float | None
    tolerance: str
    detail: str
    higher_is_better: bool = True
    unit: str = ""
    band: tuple[float | None, float | None] = (None, None)  # the values that pass, for the trend chart
    extra: dict = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.status == "pass"


def quality_verdicts(rule: QualityRule, spec: GateSpec, base: dict, cur: dict) -> list[Verdict]:
    out = []
    for arm_id in rule.arms:
        b = base["arms"][arm_id]["metrics"].get(rule.metric)
        c = cur["arms"][arm_id]["metrics"].get(rule.metric)
        name = f"quality/{arm_id}/{rule.metric}"
        if b is None or c is None:
            out.append(Verdict(name, "fail", b, c, "-", f"metric {rule.metric!r} missing from "
                               f"{'baseline' if b is None else 'this run'}"))
            continue
        tol = rule.tolerance(b, spec.arm(arm_id).approximate)
        delta = c - b
        bad = delta < -tol - 1e-12 if rule.sided == "one" else abs(delta) > tol + 1e-12
        side = "drop" if rule.sided == "one" else "change"
        band = (b - tol, None if rule.sided == "one" else b + tol)
        out.append(Verdict(name, "fail" if bad else "pass", b, c, f"{side} <= {tol:.4f}",
                           f"{rule.metric} {b:.4f} -> {c:.4f} (delta {delta:+.4f}, allowed {side} {tol:.4f})",
                           band=band))
    return out


def evaluate_quality(spec: GateSpec, base: dict, cur: dict) -> list[Verdict]:
    out: list[Verdict] = []
    for rule in spec.quality:
        out.extend(quality_verdicts(rule, spec, base, cur))
    return out
