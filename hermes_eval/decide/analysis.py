"""The numbers a decision rests on: paired effects, Holm p-values, latency ratios, per-repo strata."""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from hermes_eval.decide.latency import LatencyComparison, LatencySample, compare_latency
from hermes_eval.decide.spec import Arm, DecisionSpec
from hermes_eval.core.errors import UserError
from hermes_eval.report.compare import paired
from hermes_eval.record.folder import RunFiles
from hermes_eval.report.options import ReportSettings
from hermes_eval.judge.significance import EffectCI, PairedTest, holm, paired_bootstrap

NO_REPO = "(none)"


@dataclass(frozen=True)
class ArmRun:
    """An arm, the run record of its quality, and its latency measurements in this decision."""

    arm: Arm
    record: dict
    files: RunFiles
    reused: bool
    latency: tuple[LatencySample, ...] = ()


@dataclass(frozen=True)
class Stratum:
    """One repository's paired effect."""

    repo: str
    n: int
    mean_a: float
    mean_b: float
    effect: EffectCI


@dataclass(frozen=True)
class Comparison:
    """Challenger B against baseline A on the primary metric, and what B costs."""

    arm: ArmRun
    test: PairedTest
    p_holm: float
    effect: EffectCI
    latency: LatencyComparison
    strata: tuple[Stratum, ...]


def aligned(a: RunFiles, b: RunFiles, metric: str) -> tuple[np.ndarray, np.ndarray, list[str], list[str]]:
    """Per-query values of both arms on shared qids, with each query's repo."""
    va, vb = a.values(metric), b.values(metric)
    qids = sorted(set(va.index) & set(vb.index))
    repos = a.per_query.set_index("qid")["repo"].fillna(NO_REPO).replace("", NO_REPO)
    return (va.loc[qids].to_numpy(), vb.loc[qids].to_numpy(), qids, [str(repos.get(q, NO_REPO)) for q in qids])


def compare_arm(spec: DecisionSpec, base: ArmRun, arm: ArmRun) -> tuple[PairedTest, Comparison]:
    """Everything but the Holm correction, which needs every challenger's p-value."""
    metric, rule = spec.primary_metric, spec.rule
    for run in (base, arm):
        if metric not in (run.record.get("metrics") or {}):
            have = ", ".join(sorted(run.record.get("metrics") or {}))
            raise UserError(f"{spec.path}: field 'primary_metric' {metric!r} is not in the run records; "
                            f"use one of {have}")
    settings = ReportSettings(stat_test=spec.stat_test)
    test = paired(base.files, arm.files, metric, settings)
    if test is None:
        raise UserError(f"runs {base.files.run_dir} and {arm.files.run_dir} share no queries to pair; "
                        "give every arm the same queryset")
    a, b, _, repos = aligned(base.files, arm.files, metric)
    effect = paired_bootstrap(a, b, spec.resamples, spec.seed)
    if len(base.latency) < 2 or not arm.latency:
        raise UserError(f"{spec.path}: latency needs A measured before and after {arm.arm.name}")
    ordered = sorted(base.latency, key=lambda x: x.order)
    lat = compare_latency(ordered[0], ordered[-1], arm.latency[-1], float(rule.latency_percentile.lstrip("p")),
                          spec.resamples, spec.seed)
    strata = []
    for repo in sorted(set(repos)):
        idx = [i for i, r in enumerate(repos) if r == repo]
        strata.append(Stratum(repo, len(idx), float(a[idx].mean()), float(b[idx].mean()),
                              paired_bootstrap(a[idx], b[idx], spec.resamples, spec.seed)))
    return test, Comparison(arm, test, 1.0, effect, lat, tuple(strata))


def analyze(spec: DecisionSpec, runs: list[ArmRun]) -> tuple[Comparison, ...]:
    """Every challenger against arm A; Holm across the challengers."""
    base, challengers = runs[0], runs[1:]
    pairs = [compare_arm(spec, base, arm) for arm in challengers]
    adjusted = holm([t.p_value for t, _ in pairs])
    return tuple(replace(c, p_holm=p) for (_, c), p in zip(pairs, adjusted))
