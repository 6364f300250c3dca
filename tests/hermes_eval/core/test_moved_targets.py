"""Modules moved into rooms keep what names a run: old targets still build, hashes stay the same."""
from __future__ import annotations

import functools
import importlib
import json
from pathlib import Path

import pytest
from hydra._internal.utils import _locate

from hermes_eval.config.compose import CONF_DIR, compose
from hermes_eval.config.identity import config_hash
from hermes_eval.config.parts import instantiate_part, plain
from hermes_eval.core.moved_targets import MOVED, as_current, as_recorded, current_target, recorded_target
from hermes_eval.gate.spec import load_spec

ROOT = Path(__file__).resolve().parents[3]


def _targets(node) -> list[str]:
    if isinstance(node, dict):
        own = [node["_target_"]] if isinstance(node.get("_target_"), str) else []
        return own + [t for v in node.values() for t in _targets(v)]
    if isinstance(node, list):
        return [t for v in node for t in _targets(v)]
    return []


@functools.cache
def _preset_nodes() -> tuple[tuple[str, dict], ...]:
    """Every preset of the groups whose parts moved, composed once for this module."""
    out = []
    for group in ("embedder", "fusion", "expander", "reranker", "retriever", "queryset", "chunker"):
        for path in sorted((CONF_DIR / group).glob("*.yaml")):
            out.append((f"{group}/{path.stem}", plain(compose([f"{group}={path.stem}"])[group])))
    return tuple(out)


@pytest.mark.parametrize("old,new", sorted(MOVED.items()))
def test_every_new_module_imports(old, new):
    assert importlib.import_module(new).__name__ == new


def test_every_conf_target_is_written_with_its_current_module():
    stale = [(name, t) for name, node in _preset_nodes() for t in _targets(node) if current_target(t) != t]
    assert stale == []


def test_recorded_and_current_forms_round_trip_over_every_preset():
    for name, node in _preset_nodes():
        recorded = as_recorded(node)
        assert as_current(recorded) == node, name
        for target in _targets(recorded):  # the recorded form names no module that was moved in
            assert recorded_target(target) == target, (name, target)


@pytest.mark.parametrize("old,new", sorted(MOVED.items()))
def test_an_old_target_resolves_to_the_class_in_its_new_module(old, new):
    module = importlib.import_module(new)
    classes = [n for n, v in vars(module).items() if isinstance(v, type) and v.__module__ == new]
    assert classes, new
    for name in classes:
        assert _locate(current_target(f"{old}.{name}")) is getattr(module, name)


def test_a_config_written_with_an_old_module_still_builds():
    fusion = instantiate_part({"_target_": "retrievers.fusion.WeightedRRF", "k": 60, "dense_weight": 0.5})
    assert type(fusion).__module__ == "retrievers.fusion.rrf"
    assert fusion.dense_weight == 0.5


def test_hash_is_the_same_whichever_module_a_config_names():
    cfg = plain(compose(["fusion=rrf", "embedder=minilm"]))
    old = as_recorded(cfg)
    assert old != cfg  # the composed config names moved modules ...
    assert config_hash(old) == config_hash(cfg)  # ... and hashes as its recorded form


def test_the_nightly_baseline_still_matches_its_arms():
    """The committed baseline's config hashes are what this code computes for the gate's arms."""
    spec = load_spec(CONF_DIR / "gate" / "nightly.yaml")
    baseline = json.loads((ROOT / "reports" / "baseline" / "nightly.json").read_text())
    got = {arm.id: config_hash(compose([*spec.common, *arm.overrides, *baseline.get("overrides", [])]))
           for arm in spec.arms}
    want = {arm_id: entry["config_hash"] for arm_id, entry in baseline["arms"].items()}
    assert got == want, "a gate arm's config changed: re-record with `hermes-eval gate --update-baseline --reason ...`"
