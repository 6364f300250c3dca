"""The benchmark overlays and experiments made from conf/benchmarks/*.yaml compose every arm of every
benchmark experiment to the config the hand-written conf/benchmark/*.yaml and conf/experiment/*.yaml
files composed (benchmark_arms.json, written from them): same sweeps, same configs, same config hashes,
so every committed run keeps its name and resumes."""
from __future__ import annotations

import json

from benchmark_arms import EXPERIMENTS, SNAPSHOT, differences, snapshot


def test_every_benchmark_arm_composes_as_the_hand_written_overlays_did():
    before = json.loads(SNAPSHOT.read_text())
    now = snapshot()
    assert sorted(before) == sorted(EXPERIMENTS)
    assert sum(len(e["arms"]) for e in now.values()) == 107
    assert differences(before, now) == []
