"""Load and validate ``conf/decision/NAME.yaml``; every error names the file, the field and the fix."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from hermes_eval.core.errors import UserError
from hermes_eval.decide.apply import ApplySpec, parse_apply
from hermes_eval.core.metrics import REGISTRY, known
from hermes_eval.judge.significance import DEFAULT_RESAMPLES, DEFAULT_STAT_TEST, STAT_TESTS

BASELINE_ARM = "A"
PERCENTILES = ("p50", "p90", "p95", "p99")
TOP_LEVEL = ("question", "context", "written", "common", "arms", "primary_metric", "stat_test", "rule",
             "bootstrap", "apply")
RULE_FIELDS = ("kind", "min_effect", "alpha", "max_latency_ratio", "latency_stage", "latency_percentile",
               "aa_tolerance")
# superiority: B must gain at least min_effect, significantly; non_inferiority: B may lose at most
# -min_effect (min_effect <= 0), the whole CI of the difference above min_effect (e.g. a cheaper model)
RULE_KINDS = ("superiority", "non_inferiority")
DEFAULT_AA_TOLERANCE = 0.15  # A measured before and after the others may drift this much


@dataclass(frozen=True)
class Arm:
    """One arm: a name (A is the baseline), a label and its Hydra overrides."""

    name: str
    label: str
    overrides: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    """Adopt B when Δ ≥ min_effect with Holm p < alpha (``kind: non_inferiority``: when the CI's low
    end of Δ is ≥ min_effect) and B's latency ≤ max_latency_ratio × A's (A measured before and after
    B, its two measurements within aa_tolerance of each other)."""

    min_effect: float
    alpha: float
    max_latency_ratio: float
    latency_stage: str = "total"
    latency_percentile: str = "p95"
    aa_tolerance: float = DEFAULT_AA_TOLERANCE
    kind: str = "superiority"


@dataclass(frozen=True)
class DecisionSpec:
    """A preregistered decision: question, arms, primary metric and rule."""

    name: str
    path: Path
    question: str
    context: str
    written: str
    common: tuple[str, ...]
    arms: tuple[Arm, ...]
    primary_metric: str
    stat_test: str
    rule: Rule
    resamples: int
    seed: int
    apply: ApplySpec | None = None  # what --apply changes when an arm is adopted

    @property
    def baseline(self) -> Arm:
        return self.arms[0]

    @property
    def challengers(self) -> tuple[Arm, ...]:
        return self.arms[1:]


class _Check:
    """Raise one-line UserErrors that name the file and field."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, field: str, problem: str, fix: str) -> UserError:
        return UserError(f"{self.path}: field '{field}' {problem}; {fix}")

    def text(self, data: dict, field: str, required: bool = True, example: str = "") -> str:
        value = data.get(field.rsplit(".", 1)[-1])
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, "must be a non-empty string", f"e.g. `{field.rsplit('.', 1)[-1]}: {example}`")
        return value.strip()

    def metric(self, data: dict, field: str) -> str:
        """A metric name from the registry (core.metrics)."""
        name = self.text(data, field, example="ndcg@10")
        if not known(name):
            raise self.fail(field, f"{name!r} is not a recorded metric", f"use one of {', '.join(REGISTRY)}")
        return name

    def number(self, data: dict, field: str, lo: float, hi: float, example: str) -> float:
        value = data.get(field.rsplit(".", 1)[-1])
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
            raise self.fail(field, f"must be a number in [{lo}, {hi}] (got {value!r})",
                            f"e.g. `{field.rsplit('.', 1)[-1]}: {example}`")
        return float(value)

    def overrides(self, value: Any, field: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list) or not all(isinstance(v, str) and "=" in v for v in value):
            raise self.fail(field, "must be a list of Hydra overrides", "e.g. `[fusion.dense_weight=0.5]`")
        return tuple(v.strip() for v in value)

    def choice(self, value: Any, field: str, allowed: tuple[str, ...]) -> str:
        if value not in allowed:
            raise self.fail(field, f"must be one of {', '.join(allowed)} (got {value!r})",
                            f"e.g. `{field.rsplit('.', 1)[-1]}: {allowed[0]}`")
        return str(value)


def _arms(check: _Check, raw: Any) -> tuple[Arm, ...]:
    if not isinstance(raw, dict) or len(raw) < 2 or BASELINE_ARM not in raw:
        raise check.fail("arms", f"must map at least two arm names to overrides, one of them '{BASELINE_ARM}' "
                                 "(the baseline)", "e.g. `arms: {A: {overrides: [...]}, B: {overrides: [...]}}`")
    arms = []
    for name in [BASELINE_ARM, *[k for k in raw if k != BASELINE_ARM]]:
        body = raw[name]
        if isinstance(body, list):
            body = {"overrides": body}
        if not isinstance(body, dict):
            raise check.fail(f"arms.{name}", "must be a mapping with `label` and `overrides`",
                             "e.g. `{label: BM25, overrides: [fusion.dense_weight=0.0]}`")
        ov = check.overrides(body.get("overrides"), f"arms.{name}.overrides")
        label = body.get("label") or (" ".join(ov) if ov else "defaults")
        arms.append(Arm(str(name), str(label), ov))
    return tuple(arms)


def _rule(check: _Check, raw: Any) -> Rule:
    if not isinstance(raw, dict):
        raise check.fail("rule", "must be a mapping", "e.g. `rule: {min_effect: 0.01, alpha: 0.05, "
                                                      "max_latency_ratio: 1.2}`")
    unknown = sorted(set(raw) - set(RULE_FIELDS))
    if unknown:
        raise check.fail(f"rule.{unknown[0]}", "is not a rule field", f"use one of {', '.join(RULE_FIELDS)}")
    kind = check.choice(raw.get("kind", RULE_KINDS[0]), "rule.kind", RULE_KINDS)
    if kind == "non_inferiority" and not (isinstance(raw.get("min_effect"), (int, float)) and raw["min_effect"] <= 0):
        raise check.fail("rule.min_effect", f"must be <= 0 for a non_inferiority rule (got {raw.get('min_effect')!r}): "
                                            "it is the largest loss tolerated", "e.g. `min_effect: -0.01`")
    return Rule(kind=kind, min_effect=check.number(raw, "rule.min_effect", -1.0, 1.0, "0.01"),
                alpha=check.number(raw, "rule.alpha", 1e-6, 0.5, "0.05"),
                max_latency_ratio=check.number(raw, "rule.max_latency_ratio", 0.01, 1000.0, "1.2"),
                latency_stage=str(raw.get("latency_stage", "total")),
                latency_percentile=check.choice(raw.get("latency_percentile", "p95"),
                                                "rule.latency_percentile", PERCENTILES),
                aa_tolerance=check.number(raw, "rule.aa_tolerance", 0.0, 10.0, "0.15") if "aa_tolerance" in raw
                else DEFAULT_AA_TOLERANCE)


def available(decision_dir: Path) -> list[str]:
    return sorted(p.stem for p in Path(decision_dir).glob("*.yaml"))


def load_spec(name: str, decision_dir: Path) -> DecisionSpec:
    """The validated spec for ``name`` (a name under ``decision_dir`` or a path to a YAML file)."""
    path = Path(name) if name.endswith((".yaml", ".yml")) else Path(decision_dir) / f"{name}.yaml"
    if not path.exists():
        have = ", ".join(available(decision_dir)) or "none"
        raise UserError(f"{path}: decision not found; available: {have}")
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as exc:
        raise UserError(f"{path}: not valid YAML ({' '.join(str(exc).split())[:200]}); fix the syntax") from None
    check = _Check(path)
    if not isinstance(data, dict):
        raise check.fail("(top level)", "must be a mapping", "start with `question: ...`")
    unknown = sorted(set(data) - set(TOP_LEVEL))
    if unknown:
        raise check.fail(unknown[0], "is not a decision field", f"use one of {', '.join(TOP_LEVEL)}")
    boot = data.get("bootstrap") or {}
    if not isinstance(boot, dict):
        raise check.fail("bootstrap", "must be a mapping", "e.g. `bootstrap: {resamples: 2000, seed: 0}`")
    return DecisionSpec(
        name=path.stem, path=path, question=check.text(data, "question", example="Should we ...?"),
        context=check.text(data, "context", required=False), written=str(data.get("written") or ""),
        common=check.overrides(data.get("common"), "common"), arms=_arms(check, data.get("arms")),
        primary_metric=check.metric(data, "primary_metric"),
        stat_test=check.choice(data.get("stat_test", DEFAULT_STAT_TEST), "stat_test", STAT_TESTS),
        rule=_rule(check, data.get("rule")),
        resamples=int(check.number(boot, "bootstrap.resamples", 100, 100000, "2000")) if "resamples" in boot
        else DEFAULT_RESAMPLES,
        seed=int(check.number(boot, "bootstrap.seed", 0, 2**31, "0")) if "seed" in boot else 0,
        apply=parse_apply(data.get("apply"), str(path)))
