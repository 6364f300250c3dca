"""Faults: a sweep killed with SIGKILL resumes to the same result; sweeps racing on one cache agree."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent / "hermes-eval"
GRID = ["fusion.dense_weight=0.0,0.5,1.0", "corpus.name=req", "corpus.sources=[pkg:requests]",
        "queryset.generator.max_queries=30", "warmup=1", "bootstrap=200"]


def sweep_cmd(runs: Path, ds: Path, cache: Path, *extra: str) -> list[str]:
    return [str(BIN), "sweep", *GRID, f"paths.runs={runs}", f"paths.datasets={ds}", f"paths.cache={cache}", *extra]


def metrics_by_hash(runs: Path) -> dict[str, str]:
    out = {}
    for p in runs.glob("*/record.json"):
        rec = json.loads(p.read_text())
        assert rec["status"] == "ok", rec.get("error")
        out[rec["config_hash"]] = json.dumps(rec["metrics"], sort_keys=True)
    return out


@pytest.fixture(scope="module")
def solo(tmp_path_factory) -> dict:
    """One uninterrupted sweep of GRID on its own cold cache: the reference both tests compare
    with. Its query-set folder and (now warm) cache are reused by the kill -9 test."""
    root = tmp_path_factory.mktemp("solo")
    runs, ds, cache = root / "runs", root / "ds", root / "cache"
    done = subprocess.run(sweep_cmd(runs, ds, cache, "hydra.launcher.n_jobs=1"), capture_output=True, text=True,
                          timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    want = metrics_by_hash(runs)
    assert len(want) == 3
    return {"metrics": want, "ds": ds, "cache": cache}


def test_kill_9_then_resume_equals_an_uninterrupted_sweep(tmp_path, solo):
    ds, cache = solo["ds"], solo["cache"]
    runs = tmp_path / "killed"
    cmd = sweep_cmd(runs, ds, cache, "hydra.launcher.n_jobs=1", "rerun=true")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 600
    while time.time() < deadline and len(list(runs.glob("*/record.json"))) < 1:
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)  # the sweep and every worker it started
    proc.wait(timeout=60)
    finished = {p: p.read_bytes() for p in runs.glob("*/record.json")}
    assert 1 <= len(finished) < 3
    for data in finished.values():
        assert json.loads(data)["status"] == "ok"  # a record is whole or absent, never half-written

    again = subprocess.run(sweep_cmd(runs, ds, cache, "hydra.launcher.n_jobs=1"), capture_output=True,
                           text=True, timeout=900)
    assert again.returncode == 0, again.stderr[-2000:]
    assert again.stdout.count("[skip]") == len(finished)
    for path, data in finished.items():
        assert path.read_bytes() == data  # finished records untouched by the resume
    assert metrics_by_hash(runs) == solo["metrics"]


def test_two_sweeps_racing_on_one_cold_cache_agree_with_one(tmp_path, solo):
    cache = tmp_path / "cache"  # cold: nothing chunked, embedded or indexed yet
    ds = solo["ds"]  # the query set, made once (by the solo sweep)
    racers = [subprocess.Popen(sweep_cmd(tmp_path / f"runs{i}", ds, cache, "hydra.launcher.n_jobs=1"),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for i in range(2)]
    for p in racers:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err[-2000:]
        assert "[failed]" not in out
    a, b = metrics_by_hash(tmp_path / "runs0"), metrics_by_hash(tmp_path / "runs1")
    assert len(a) == 3 and a == b
    assert a == solo["metrics"]
