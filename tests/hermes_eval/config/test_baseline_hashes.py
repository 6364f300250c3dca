"""The config hash of every gate arm is the one its committed baseline recorded: a part's declared name
(not where its code lives) enters the hash, so moves and renames never orphan a baseline, a resumed
sweep or a committed board."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from hermes_eval.config.compose import compose
from hermes_eval.config.identity import config_hash
from hermes_eval.gate.spec import load_spec

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("gate", ["smoke", "nightly"])
def test_every_gate_arm_hashes_as_its_committed_baseline(gate):
    spec = load_spec(ROOT / "conf" / "gate" / f"{gate}.yaml")
    baseline = json.loads((ROOT / "reports" / "baseline" / f"{gate}.json").read_text())["arms"]
    assert {arm.id for arm in spec.arms} == set(baseline)
    for arm in spec.arms:
        cfg = compose([*spec.common, *arm.overrides, f"experiment_name=gate-{spec.name}"])
        assert config_hash(cfg) == baseline[arm.id]["config_hash"], arm.id
