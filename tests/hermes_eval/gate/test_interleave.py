"""The interleaved timing of three source trees through real probe processes: every round is timed by
three processes started for it, so no process's own speed (where its memory landed) runs through
the whole measurement."""
from __future__ import annotations

from pathlib import Path

from hermes_eval.config.compose import compose
from hermes_eval.gate.against_ref import _paths, _query_texts
from hermes_eval.gate.interleave import ROLES, measure_interleaved
from hermes_eval.gate.spec import PairedDesign, load_spec

ROOT = Path(__file__).resolve().parents[3]


def test_each_round_is_timed_by_three_new_processes_in_every_role():
    spec = load_spec(ROOT / "conf" / "gate" / "smoke.yaml")
    bm25 = spec.arm("bm25")
    first = compose([*spec.common, *bm25.overrides, f"paths.cache={ROOT / '.cache'}"])
    arms = {"bm25": [*spec.common, *bm25.overrides, *_paths(first)]}
    design = PairedDesign(rounds=3, block=4, warmup=1, max_queries=10)
    timings = measure_interleaved({r: ROOT for r in ROLES}, {r: arms for r in ROLES}, _query_texts(first), design)
    pids = [pid for role in ROLES for pid in timings.pids[role]]
    assert [len(timings.pids[r]) for r in ROLES] == [3, 3, 3] and len(set(pids)) == 9
    for role in ROLES:
        total = timings.ns[role]["bm25"]["total"]
        assert total.shape == (3, 10) and (total > 0).all()
        assert {"total"} < set(timings.ns[role]["bm25"])  # the pipeline's own stages came back too
