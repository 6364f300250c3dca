"""The gate spec (conf/gate/NAME.yaml): the suite of arms and the rules, validated on load."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import yaml

from hermes_eval.core.errors import UserError
from hermes_eval.core.metrics import REGISTRY, known


@dataclass(frozen=True)
class Arm:
    id: str
    overrides: tuple[str, ...]
    approximate: bool = False  # ANN index or float-sensitive: gets the approximate tolerance


@dataclass(frozen=True)
class QualityRule:
    metric: str
    arms: tuple[str, ...]
    abs_tol: float = 0.0
    rel_tol: float = 0.0
    approx_abs_tol: float | None = None  # used instead of abs_tol for approximate arms
    sided: Literal["one", "two"] = "one"  # one: only a drop fails; two: any move fails

    def tolerance(self, baseline: float, approximate: bool) -> float:
        base = self.approx_abs_tol if approximate and self.approx_abs_tol is not None else self.abs_tol
        return max(base, abs(baseline) * self.rel_tol)


@dataclass(frozen=True)
class LatencyRule:
    """This tree against the baseline ref's code, measured in the same run (see gate.latency)."""

    arm: str
    stage: str = "total"
    min_ratio: float = 1.2  # the median per-query ratio this/baseline must reach ...
    alpha: float = 0.01  # ... a one-sided Wilcoxon signed-rank test must reject at this level ...
    # ... and the ratio must exceed the A/A spread (two processes of this tree) of the same run


@dataclass(frozen=True)
class PairedDesign:
    """How the latency rules measure: both trees (and an A/A twin) in rotating order, per block."""

    rounds: int = 8  # every query is timed once per round, each round by new processes; the median is kept
    block: int = 10  # queries per block; the processes take turns block by block
    warmup: int = 5  # untimed queries per arm after each process has built its pipelines
    max_queries: int | None = None  # the first N queries of the query set (None: all)
    bootstrap: int = 2000  # resamples for the CI of the median ratio
    seed: int = 0
    # libraries imported once by a zygote that forks every probe (gate/zygote.py); empty: each probe a new
    # interpreter that imports everything itself
    preload: tuple[str, ...] = ()


@dataclass(frozen=True)
class GateSpec:
    name: str
    common: tuple[str, ...]
    arms: tuple[Arm, ...]
    quality: tuple[QualityRule, ...]
    latency: tuple[LatencyRule, ...]
    source: Path
    paired: PairedDesign = PairedDesign()

    def arm(self, arm_id: str) -> Arm:
        return next(a for a in self.arms if a.id == arm_id)


def _need(data: dict, key: str, where: str, kind: type):
    if key not in data:
        raise UserError(f"{where}: missing field {key!r}")
    if not isinstance(data[key], kind):
        raise UserError(f"{where}: field {key!r} must be a {kind.__name__}")
    return data[key]


def load_spec(path: Path) -> GateSpec:
    try:
        data = yaml.safe_load(path.read_text())
    except OSError:
        raise UserError(f"gate spec {path} not found: pick one of conf/gate/*.yaml") from None
    except yaml.YAMLError as exc:
        raise UserError(f"{path}: invalid YAML ({' '.join(str(exc).split())[:160]})") from None
    if not isinstance(data, dict):
        raise UserError(f"{path}: expected a mapping at top level")
    arms = []
    for i, a in enumerate(_need(data, "arms", str(path), list)):
        where = f"{path} arms[{i}]"
        arms.append(Arm(id=str(_need(a, "id", where, str)), overrides=tuple(a.get("overrides") or ()),
                        approximate=bool(a.get("approximate", False))))
    ids = [a.id for a in arms]
    if len(set(ids)) != len(ids):
        raise UserError(f"{path}: arm ids must be unique, got {ids}")
    quality = []
    for i, r in enumerate(data.get("quality") or []):
        where = f"{path} quality[{i}]"
        targets = r.get("arms", "all")
        targets = tuple(ids) if targets == "all" else tuple(targets)
        for t in targets:
            if t not in ids:
                raise UserError(f"{where}: unknown arm {t!r}; arms are {ids}")
        if r.get("sided", "one") not in ("one", "two"):
            raise UserError(f"{where}: field 'sided' must be 'one' or 'two'")
        if not known(_need(r, "metric", where, str)):
            raise UserError(f"{where}: field 'metric' {r['metric']!r} is not a recorded metric; "
                            f"use one of {', '.join(REGISTRY)}")
        quality.append(QualityRule(metric=r["metric"], arms=targets,
                                   abs_tol=float(r.get("abs_tol", 0.0)), rel_tol=float(r.get("rel_tol", 0.0)),
                                   approx_abs_tol=r.get("approx_abs_tol"), sided=r.get("sided", "one")))
    latency = []
    for i, r in enumerate(data.get("latency") or []):
        where = f"{path} latency[{i}]"
        if "reference" in r:
            raise UserError(f"{where}: field 'reference' is gone: latency is now judged against the baseline "
                            f"ref's code measured in the same run; delete the field")
        if _need(r, "arm", where, str) not in ids:
            raise UserError(f"{where}: unknown arm {r['arm']!r} in field 'arm'; arms are {ids}")
        if float(r.get("min_ratio", 1.2)) <= 1.0:
            raise UserError(f"{where}: field 'min_ratio' must be above 1 (a slowdown factor such as 1.2)")
        latency.append(LatencyRule(arm=r["arm"], stage=r.get("stage", "total"),
                                   min_ratio=float(r.get("min_ratio", 1.2)), alpha=float(r.get("alpha", 0.01))))
    return GateSpec(name=str(data.get("name", path.stem)), common=tuple(data.get("common_overrides") or ()),
                    arms=tuple(arms), quality=tuple(quality), latency=tuple(latency), source=path,
                    paired=_paired(data.get("paired") or {}, f"{path} paired"))


def _paired(data: dict, where: str) -> PairedDesign:
    if not isinstance(data, dict):
        raise UserError(f"{where}: expected a mapping of {', '.join(PairedDesign.__dataclass_fields__)}")
    unknown = set(data) - set(PairedDesign.__dataclass_fields__)
    if unknown:
        raise UserError(f"{where}: unknown field {sorted(unknown)[0]!r}; fields are "
                        f"{', '.join(PairedDesign.__dataclass_fields__)}")
    for key in ("rounds", "block", "bootstrap"):
        if key in data and (not isinstance(data[key], int) or data[key] < 1):
            raise UserError(f"{where}: field {key!r} must be a positive integer")
    preload = data.get("preload", [])
    if not isinstance(preload, list) or not all(isinstance(m, str) and m for m in preload):
        raise UserError(f"{where}: field 'preload' must be a list of module names (e.g. [torch])")
    return PairedDesign(**{**data, "preload": tuple(preload)})
