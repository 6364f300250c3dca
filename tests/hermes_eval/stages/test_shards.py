"""A snapshot set's run split into shards (shard=I/N): each shard searches its snapshots and writes a
part, the last one merges, and the merged record is the unsharded run's (the sameness tool).

The sameness tool compares floats bit for bit, also between processes (the joblib sweep): that holds
here by construction, one machine and one environment, and a BM25 arm (no embedding's low bits)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hermes_eval.cli.main import main
from hermes_eval.record.sameness import runs_diffs
from hermes_eval.stages.shards import assign

BIN = Path(sys.executable).parent
def test_assign_deals_every_repository_round_robin():
    scopes = [f"a@{i}/" for i in range(5)] + [f"b@{i}/" for i in range(3)]
    groups = assign(scopes, 3)
    assert sorted(s for g in groups for s in g) == sorted(scopes)
    assert [len(g) for g in groups] == [3, 3, 2] and assign(scopes, 1) == [scopes]
    assert assign(["a@0/"], 3) == [["a@0/"], [], []]


def _record(runs: Path) -> dict:
    [rec] = [json.loads(p.read_text()) for p in runs.glob("*/record.json")]
    return rec


def _unsharded(tmp: Path, arm: list[str]) -> Path:
    """The unsharded run, moved aside: both trees then record the same paths.runs."""
    assert main(["run", *arm, f"paths.runs={tmp / 'runs'}"]) == 0
    return (tmp / "runs").rename(tmp / "whole")


def test_shards_merge_into_the_unsharded_record(snapshot_set):
    tmp, arm = snapshot_set
    whole = _unsharded(tmp, arm)
    for i in (2, 0):  # parts in any order; the first two only write parts
        assert main(["run", *arm, f"paths.runs={tmp / 'runs'}", f"shard={i}/3"]) == 0
        assert not list((tmp / "runs").glob("*/record.json"))
    assert main(["run", *arm, f"paths.runs={tmp / 'runs'}", "shard=1/3"]) == 0  # the last part merges
    merged = _record(tmp / "runs")
    assert merged["status"] == "ok", merged.get("error")
    assert merged["shards"]["n"] == 3 and [p["snapshots"] for p in merged["shards"]["parts"]] == [3, 3, 2]
    n, diffs = runs_diffs(whole, tmp / "runs")
    assert n == 1 and diffs == []
    assert merged["config_hash"] == _record(whole)["config_hash"]  # the shard key is not hashed
    before = (next((tmp / "runs").glob("*/record.json"))).read_text()
    assert main(["run", *arm, f"paths.runs={tmp / 'runs'}", "shard=0/3"]) == 0  # resumed: the record stands
    assert (next((tmp / "runs").glob("*/record.json"))).read_text() == before


def test_a_joblib_sweep_of_shards_equals_the_unsharded_run(snapshot_set):
    tmp, arm = snapshot_set
    whole = _unsharded(tmp, arm)
    proc = subprocess.run([str(BIN / "hermes-eval"), "sweep", *arm, f"paths.runs={tmp / 'runs'}",
                           "shard=0/4,1/4,2/4,3/4", "hydra.launcher.n_jobs=2"], capture_output=True, text=True,
                          timeout=900, cwd=tmp)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "shards (parts written" in proc.stdout + proc.stderr
    n, diffs = runs_diffs(whole, tmp / "runs")
    assert n == 1 and diffs == []
    assert len(list((tmp / "runs").glob("*/shards/*-of-4.pkl"))) == 4


def test_bad_shard_values_are_one_line(snapshot_set, capsys):
    tmp, arm = snapshot_set
    assert main(["run", *arm, f"paths.runs={tmp / 'bad'}", "shard=3/3"]) != 0
    assert "shard=3/3: write shard=I/N with 0 <= I < N" in capsys.readouterr().err
