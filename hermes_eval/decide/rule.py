"""Apply a preregistered rule: ADOPT, REJECT or INCONCLUSIVE, each with the reasons that decided it."""
from __future__ import annotations

from dataclasses import dataclass

from hermes_eval.decide.analysis import Comparison
from hermes_eval.decide.spec import Rule

ADOPT, REJECT, INCONCLUSIVE = "ADOPT", "REJECT", "INCONCLUSIVE"


@dataclass(frozen=True)
class Verdict:
    """The outcome for one challenger (or for the whole decision) and why."""

    verdict: str
    arm: str
    reasons: tuple[str, ...]


def describe(rule: Rule, metric: str, stat_test: str) -> list[str]:
    """The rule in words, exactly as it is applied."""
    lat = f"{rule.latency_percentile} {rule.latency_stage} latency"
    if rule.kind == "non_inferiority":
        return [f"**ADOPT** B (non-inferiority) if the 95% CI of the {metric} difference B − A (mean of paired "
                f"per-query differences) lies entirely at or above {rule.min_effect:g} (B loses at most "
                f"{-rule.min_effect:g}) **and** B's {lat} is at most {rule.max_latency_ratio:g}× A's, both "
                f"measured in this run (A before and after the other arms; B is compared with the mean of A's "
                f"two measurements, paired per query).",
                f"**REJECT** B if the whole CI lies below {rule.min_effect:g} (B is worse by more than the margin), "
                f"or B's {lat} exceeds {rule.max_latency_ratio:g}× A's on a steady machine.",
                f"**INCONCLUSIVE** otherwise: the CI straddles {rule.min_effect:g}, or A's two latency "
                f"measurements differ by more than {rule.aa_tolerance:.0%} (the machine was not steady enough to "
                f"judge latency). The paired {stat_test} test's Holm p is reported, not used."]
    return [f"**ADOPT** B if {metric} rises by at least {rule.min_effect:g} (mean of paired per-query "
            f"differences) with Holm-adjusted p < {rule.alpha:g} (paired {stat_test} test, ranx) **and** B's "
            f"{lat} is at most {rule.max_latency_ratio:g}× A's, both measured in this run (A before and after "
            f"the other arms; B is compared with the mean of A's two measurements).",
            f"**REJECT** B if the difference is significant but below {rule.min_effect:g} (including worse), or "
            f"the 95% CI of the difference lies entirely below {rule.min_effect:g} (the data rule the required "
            f"gain out), or B's {lat} exceeds {rule.max_latency_ratio:g}× A's on a steady machine.",
            f"**INCONCLUSIVE** otherwise: not significant while the CI still admits the required gain, or A's "
            f"two latency measurements differ by more than {rule.aa_tolerance:.0%} (the machine was not steady "
            f"enough to judge latency)."]


def judge_non_inferiority(rule: Rule, c: Comparison) -> Verdict:
    """B may lose at most -min_effect: the CI's low end decides quality, then latency."""
    name, d, lat = c.arm.arm.name, c.effect.mean, c.latency
    quality = (f"Δ = {d:+.4f} [{c.effect.ci_low:+.4f}, {c.effect.ci_high:+.4f}], Holm p = {c.p_holm:.3g} "
               f"(need the CI's low end ≥ {rule.min_effect:g})")
    latency = (f"latency ratio {lat.ratio.mean:.2f}× [{lat.ratio.ci_low:.2f}, {lat.ratio.ci_high:.2f}] "
               f"(limit {rule.max_latency_ratio:g}×; A drifted {lat.drift:+.0%} between its two measurements, "
               f"tolerance ±{rule.aa_tolerance:.0%})")
    if c.effect.ci_high < rule.min_effect:
        return Verdict(REJECT, name, (quality + ": the CI lies below the margin", latency))
    steady = abs(lat.drift) <= rule.aa_tolerance
    latency_ok = lat.ratio.mean <= rule.max_latency_ratio
    if steady and not latency_ok:
        return Verdict(REJECT, name, (quality, latency + ": NOT met"))
    if c.effect.ci_low < rule.min_effect:
        return Verdict(INCONCLUSIVE, name, (quality + ": the CI reaches below the margin (more queries would "
                                                      "narrow it)", latency))
    if not steady:
        return Verdict(INCONCLUSIVE, name, (quality + ": met", latency + ": machine not steady, re-run "
                                                                          "`decide --rerun` on a quiet machine"))
    return Verdict(ADOPT, name, (quality + ": met", latency + ": met"))


def judge(rule: Rule, c: Comparison) -> Verdict:
    """The rule applied to one challenger: quality first, then latency."""
    if rule.kind == "non_inferiority":
        return judge_non_inferiority(rule, c)
    name = c.arm.arm.name
    d, p, lat = c.effect.mean, c.p_holm, c.latency
    quality = (f"Δ = {d:+.4f} [{c.effect.ci_low:+.4f}, {c.effect.ci_high:+.4f}], Holm p = {p:.3g} "
               f"(need Δ ≥ {rule.min_effect:g}, p < {rule.alpha:g})")
    latency = (f"latency ratio {lat.ratio.mean:.2f}× (limit {rule.max_latency_ratio:g}×; A drifted "
               f"{lat.drift:+.0%} between its two measurements, tolerance ±{rule.aa_tolerance:.0%})")
    significant = p < rule.alpha
    if significant and d < rule.min_effect:
        return Verdict(REJECT, name, (quality + ": significant but below the required gain", latency))
    if c.effect.ci_high < rule.min_effect:
        return Verdict(REJECT, name, (quality + ": the CI excludes the required gain", latency))
    steady = abs(lat.drift) <= rule.aa_tolerance
    latency_ok = lat.ratio.mean <= rule.max_latency_ratio
    if steady and not latency_ok:
        return Verdict(REJECT, name, (quality, latency + ": NOT met"))
    if not significant:
        return Verdict(INCONCLUSIVE, name, (quality + ": not significant, CI still admits the gain (more "
                                                      "queries would narrow it)", latency))
    if not steady:
        return Verdict(INCONCLUSIVE, name, (quality + ": met", latency + ": machine not steady, re-run "
                                                                          "`decide --rerun` on a quiet machine"))
    return Verdict(ADOPT, name, (quality + ": met", latency + ": met"))


def overall(verdicts: list[Verdict], comparisons: list[Comparison]) -> Verdict:
    """ADOPT the adopted arm with the largest effect; else INCONCLUSIVE if any is; else REJECT."""
    adopted = [(c.effect.mean, v) for v, c in zip(verdicts, comparisons) if v.verdict == ADOPT]
    if adopted:
        return max(adopted, key=lambda x: x[0])[1]
    for kind in (INCONCLUSIVE, REJECT):
        hits = [v for v in verdicts if v.verdict == kind]
        if hits:
            return Verdict(kind, ",".join(v.arm for v in hits), hits[0].reasons)
    return Verdict(INCONCLUSIVE, "", ("no challenger arm",))
