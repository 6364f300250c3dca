"""`hermes-eval decide NAME`: run the arms (reusing finished records), apply the rule, write the record."""
from __future__ import annotations

import json
import logging
import os
from dataclasses import replace
from pathlib import Path
from typing import Callable

from omegaconf import OmegaConf

from hermes_eval.cache.content import atomic_write_bytes
from hermes_eval.config.parts import plain
from hermes_eval.decide.analysis import ArmRun, analyze
from hermes_eval.decide.apply import apply_decision
from hermes_eval.decide.chart import decision_chart
from hermes_eval.decide.latency import LatencySample, snapshot
from hermes_eval.decide.render import render_decision
from hermes_eval.decide.rule import judge, overall
from hermes_eval.decide.spec import Arm, DecisionSpec, load_spec
from hermes_eval.core.errors import UserError
from hermes_eval.core.metrics import known, metric
from hermes_eval.record.folder import RunFiles

DECISIONS = "decisions"
REPORT_MODE = 0o644

log = logging.getLogger(__name__)


def _check_fair(spec: DecisionSpec, cfgs: list) -> None:
    """A chunk-level primary metric cannot compare arms whose chunkers differ."""
    # an unknown name is not refused here: analysis names the field and lists the recorded metrics
    chunk_level = known(spec.primary_metric) and not metric(spec.primary_metric).chunking_fair
    chunkers = {json.dumps(plain(c.chunker), sort_keys=True) for c in cfgs}
    if chunk_level and len(chunkers) > 1:
        raise UserError(f"{spec.path}: field 'primary_metric' {spec.primary_metric!r} is chunk-level but the arms "
                        "use different chunkers; use a chunking-fair metric such as file_recall@10")


def _compose_all(spec: DecisionSpec, compose: Callable, extra: list[str]) -> list:
    cfgs = []
    for arm in spec.arms:
        try:
            cfgs.append(compose([*spec.common, *arm.overrides, *extra]))
        except UserError as exc:
            raise UserError(f"{spec.path}: field 'arms.{arm.name}.overrides' (with 'common') does not compose: "
                            f"{exc}; fix the override") from None
    return cfgs


def _execute(spec: DecisionSpec, arm: Arm, cfg, what: str):
    from hermes_eval.api import execute_config

    res = execute_config(cfg)
    if res.status != "ok":
        raise UserError(f"{spec.path}: arm {arm.name} failed in {res.run_dir}: {res.record.get('error')}")
    state = "reused" if res.skipped else "ran"
    log.info("[decide %s] %s arm %s (%s): %s %s", spec.name, what, arm.name, arm.label, state, res.run_dir)
    return res


def run_arms(spec: DecisionSpec, compose: Callable, runs_dir: Path, rerun: bool) -> list[ArmRun]:
    """Quality from each arm's record (reused by config hash unless ``rerun``); latency measured now in
    the order A, B, …, A (arms whose record was reused are re-measured)."""
    extra = [f"paths.runs={runs_dir}"] + (["rerun=true"] if rerun else [])
    cfgs = _compose_all(spec, compose, extra)
    _check_fair(spec, cfgs)
    again = [OmegaConf.merge(c, {"rerun": True}) for c in cfgs]
    stage, pct = spec.rule.latency_stage, spec.rule.latency_percentile
    samples: dict[str, list[LatencySample]] = {a.name: [] for a in spec.arms}
    outcomes = {}

    def measure(i: int, res) -> None:
        arm = spec.arms[i]
        files = RunFiles(Path(res.run_dir))
        samples[arm.name].append(snapshot(arm.name, sum(map(len, samples.values())), res.record, files, stage, pct))

    for arm, cfg in zip(spec.arms, cfgs):
        outcomes[arm.name] = _execute(spec, arm, cfg, "quality:")
    fresh = not any(r.skipped for r in outcomes.values())
    for i, arm in enumerate(spec.arms):
        measure(i, outcomes[arm.name] if fresh else _execute(spec, arm, again[i], "latency:"))
    last = _execute(spec, spec.arms[0], again[0], "latency again:")
    measure(0, last)
    outcomes[spec.arms[0].name] = replace(last, skipped=outcomes[spec.arms[0].name].skipped)
    return [ArmRun(a, dict(outcomes[a.name].record, _dir=str(outcomes[a.name].run_dir)),
                   RunFiles(Path(outcomes[a.name].run_dir)), outcomes[a.name].skipped, tuple(samples[a.name]))
            for a in spec.arms]


def _write(path: Path, data: bytes) -> None:
    atomic_write_bytes(path, data)
    os.chmod(path, REPORT_MODE)


def run_decision(name: str, compose: Callable, conf_dir: Path, runs_dir: Path, out_dir: Path,
                 rerun: bool = False, rebaseline: Callable[[str, str], int] | None = None) -> int:
    """Run, judge and record one decision; prints (the product, on stdout) the verdict and the record's
    path; progress goes to the log. With ``rebaseline`` (``--apply``), an ADOPT writes the config change
    the spec's ``apply`` names and re-baselines its gates through ``rebaseline(gate, reason)``."""
    spec = load_spec(name, Path(conf_dir) / "decision")
    runs = run_arms(spec, compose, runs_dir, rerun)
    comps = analyze(spec, runs)
    verdicts = [judge(spec.rule, c) for c in comps]
    final = overall(verdicts, list(comps))
    folder = Path(out_dir) / DECISIONS
    chart_rel = f"charts/{spec.name}.png"
    _write(folder / chart_rel, decision_chart(spec, runs, comps))
    text = render_decision(spec, runs, comps, verdicts, final, chart_rel, str(runs_dir), str(out_dir))
    _write(folder / f"{spec.name}.md", text.encode("utf-8"))
    print(f"{final.verdict} {final.arm}: {'; '.join(final.reasons)}")
    print(folder / f"{spec.name}.md")
    if rebaseline is not None:
        adopted = next((a for a in spec.arms if a.name == final.arm), spec.baseline)
        record = folder / f"{spec.name}.md"
        lines = apply_decision(spec.name, spec.apply, final.verdict, (*spec.common, *adopted.overrides),
                               Path(conf_dir), record, rebaseline)
        if lines:
            _write(record, (text.rstrip("\n") + "\n" + "\n".join(lines) + "\n").encode("utf-8"))
    return 0
