"""The latency half of the gate: this tree against the baseline ref's tree, in the same run.

Resolves the ref (``--against``, else the commit the baseline records), unpacks its tree, hands
both trees the same arms, query texts and absolute cache and dataset paths, times them
interleaved with an A/A twin (gate.interleave) and judges each latency rule (gate.latency).
The gate's command-line overrides are the change being tried: they apply to this tree (and its
twin), not to the baseline ref, which runs its arms as committed.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from hermes_eval.gate.interleave import measure_interleaved
from hermes_eval.gate.latency import latency_verdict
from hermes_eval.gate.rules import Verdict
from hermes_eval.gate.spec import GateSpec
from hermes_eval.gate.trees import TreeError, baseline_tree, resolve, this_tree


def _paths(cfg) -> list[str]:
    """Absolute cache and dataset paths, so both trees read the same caches and query set."""
    return [f"paths.cache={Path(str(cfg.paths.cache)).resolve()}",
            f"paths.datasets={Path(str(cfg.paths.datasets)).resolve()}"]


def _query_texts(cfg) -> list[str]:
    from hermes_eval.config.settings import settings_from
    from hermes_eval.stages.prepare import prepare_queries

    return [q.query for q in prepare_queries(settings_from(cfg)).queryset.queries]


def latency_verdicts(spec: GateSpec, overrides: list[str], compose: Callable, against: str | None,
                     baseline: dict | None) -> tuple[list[Verdict], dict]:
    """One verdict per latency rule, and what was measured against what (for the snapshot)."""
    ref = against or (baseline or {}).get("commit")
    if not ref:
        raise TreeError("the baseline records no commit to measure latency against: pass --against REF")
    repo = this_tree()
    commit = resolve(repo, ref)
    first = compose([*spec.common, *spec.arms[0].overrides, *overrides])
    shared = _paths(first)
    trees = {"head": repo, "twin": repo, "base": baseline_tree(repo, commit, Path(str(first.paths.cache)))}
    timed = [a for a in spec.arms if any(r.arm == a.id for r in spec.latency)]
    mine = {a.id: [*spec.common, *a.overrides, *overrides, *shared] for a in timed}
    theirs = {a.id: [*spec.common, *a.overrides, *shared] for a in timed}  # the ref as committed
    timings = measure_interleaved(trees, {"head": mine, "twin": mine, "base": theirs}, _query_texts(first),
                                  spec.paired)
    verdicts = [latency_verdict(rule, timings, spec.paired, commit) for rule in spec.latency]
    info = {"against": commit, "ref": ref, "queries": timings.queries, "rounds": timings.rounds,
            "rules": {v.rule: {"status": v.status, "ratio": v.current, **v.extra} for v in verdicts}}
    return verdicts, info


def unavailable(spec: GateSpec, reason: str) -> list[Verdict]:
    """Every latency rule as ``error`` (could not evaluate), with the reason."""
    return [Verdict(f"latency/{r.arm}/{r.stage}", "error", None, None, f"ratio < {r.min_ratio}", reason,
                    higher_is_better=False) for r in spec.latency]
