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
    arm: str
    reference: str
    stage: str = "total"
    min_ratio: float = 1.25  # the arm/reference ratio must grow by at least this factor ...
    alpha: float = 0.01  # ... and a one-sided Mann-Whitney U test must reject at this level


@dataclass(frozen=True)
class GateSpec:
    name: str
    common: tuple[str, ...]
    arms: tuple[Arm, ...]
    quality: tuple[QualityRule, ...]
    latency: tuple[LatencyRule, ...]
    source: Path

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
        for key in ("arm", "reference"):
            if _need(r, key, where, str) not in ids:
                raise UserError(f"{where}: unknown arm {r[key]!r} in field {key!r}; arms are {ids}")
        latency.append(LatencyRule(arm=r["arm"], reference=r["reference"], stage=r.get("stage", "total"),
                                   min_ratio=float(r.get("min_ratio", 1.25)), alpha=float(r.get("alpha", 0.01))))
    return GateSpec(name=str(data.get("name", path.stem)), common=tuple(data.get("common_overrides") or ()),
                    arms=tuple(arms), quality=tuple(quality), latency=tuple(latency), source=path)
