"""The latency half of the gate: this tree against the baseline ref's tree, in the same run.

Resolves the ref (``--against``, else the commit the baseline records), unpacks its tree, hands
both trees the same arms, query texts and absolute cache and dataset paths, times them
interleaved with an A/A twin (gate.interleave) and judges each latency rule (gate.latency).
The baseline tree reads the same query files through its own folder whose manifests name every
generator by its declared name (:mod:`retrievers.identity.names`, the import path it had when first
recorded): a tree from before a move checks a stored set's generator against its own config and knows
only those names.
The gate's command-line overrides are the change being tried: they apply to this tree (and its
twin), not to the baseline ref, which runs its arms as committed.
"""
from __future__ import annotations

import json
import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Callable

from retrievers.identity.names import named
from hermes_eval.gate.interleave import measure_interleaved
from hermes_eval.gate.latency import latency_verdict
from hermes_eval.gate.rules import Verdict
from hermes_eval.gate.spec import GateSpec
from hermes_eval.gate.trees import TreeError, baseline_tree, resolve, this_tree


def _paths(cfg) -> list[str]:
    """Absolute cache and dataset paths, so both trees read the same caches and query set."""
    return [f"paths.cache={Path(str(cfg.paths.cache)).resolve()}",
            f"paths.datasets={Path(str(cfg.paths.datasets)).resolve()}"]


def recorded_datasets(folders: list[Path], dest: Path) -> Path:
    """``dest`` holding each query-set folder's files, its manifest with generators in recorded form."""
    dest.mkdir(parents=True, exist_ok=True)
    for folder in folders:
        tmp = dest / f".{folder.name}.tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(folder, tmp)
        manifest = tmp / "manifest.json"
        if manifest.exists():
            data = json.loads(manifest.read_text())
            manifest.write_text(json.dumps(named(data), indent=2, sort_keys=True) + "\n")
        shutil.rmtree(dest / folder.name, ignore_errors=True)
        os.rename(tmp, dest / folder.name)
    return dest


def loads_models(cfg) -> bool:
    """Whether an arm loads a model (a dense leg, a reranker or an expander): what ``paired.preload`` is for; a
    gate of lexical arms alone starts its probes without it (a zygote importing torch for nothing)."""
    from hermes_eval.config.identity import active_legs

    return "dense" in active_legs(cfg) or cfg.get("reranker") is not None or cfg.get("expander") is not None


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
    cache = Path(str(first.paths.cache)).resolve()
    trees = {"head": repo, "twin": repo, "base": baseline_tree(repo, commit, cache)}
    timed = [a for a in spec.arms if any(r.arm == a.id for r in spec.latency)]
    mine = {a.id: [*spec.common, *a.overrides, *overrides, *shared] for a in timed}
    theirs = {a.id: [*spec.common, *a.overrides, *shared] for a in timed}  # the ref as committed
    texts = _query_texts(first)  # generates the query set first if it is missing
    composed = [compose(theirs[a.id]) for a in timed]
    folders = sorted({Path(str(c.paths.datasets)).resolve() / str(c.queryset.name) for c in composed})
    design = spec.paired if any(loads_models(c) for c in composed) else replace(spec.paired, preload=())
    base_sets = cache / "gate-trees" / f"{commit}.datasets" / f"p{os.getpid()}"
    try:
        recorded_datasets([f for f in folders if f.is_dir()], base_sets)
        theirs = {a: [*o, f"paths.datasets={base_sets}"] for a, o in theirs.items()}
        timings = measure_interleaved(trees, {"head": mine, "twin": mine, "base": theirs}, texts, design)
    finally:
        shutil.rmtree(base_sets, ignore_errors=True)
    verdicts = [latency_verdict(rule, timings, spec.paired, commit) for rule in spec.latency]
    info = {"against": commit, "ref": ref, "queries": timings.queries, "rounds": timings.rounds,
            "processes": sum(len(p) for p in timings.pids.values()),
            "rules": {v.rule: {"status": v.status, "ratio": v.current, **v.extra} for v in verdicts}}
    return verdicts, info


def unavailable(spec: GateSpec, reason: str) -> list[Verdict]:
    """Every latency rule as ``error`` (could not evaluate), with the reason."""
    return [Verdict(f"latency/{r.arm}/{r.stage}", "error", None, None, f"ratio < {r.min_ratio}", reason,
                    higher_is_better=False) for r in spec.latency]
