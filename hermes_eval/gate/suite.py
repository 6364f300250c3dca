"""Run the gate suite's arms in this process (quality, through the run chain) into a snapshot dict."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import pandas as pd

from hermes_eval.gate.spec import GateSpec
from hermes_eval.gate.trees import dirty, this_tree
from hermes_eval.record.manifest import git_commit, machine, versions
from hermes_eval.api import execute_config


def bare_snapshot(spec: GateSpec, overrides: list[str]) -> dict:
    """Where and when this gate run happened, before any arm has run."""
    return {"gate": spec.name, "arms": {}, "machine": machine(), "versions": versions(),
            "commit": git_commit(), "dirty": dirty(this_tree()),
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "overrides": list(overrides)}


def measure(spec: GateSpec, overrides: list[str], compose: Callable, runs_dir: Path) -> dict:
    """Snapshot: per arm the metric means (and, for reading, per-query latency samples per stage)."""
    snap = bare_snapshot(spec, overrides)
    for arm in spec.arms:
        cfg = compose([*spec.common, *arm.overrides, *overrides, f"paths.runs={runs_dir}", "rerun=true",
                       f"experiment_name=gate-{spec.name}"])
        out = execute_config(cfg)
        entry: dict = {"status": out.status, "run_dir": str(out.run_dir),
                       "config_hash": out.record.get("config_hash"), "system": out.record.get("system")}
        if out.status != "ok":
            entry["error"] = out.record.get("error")
        else:
            entry["metrics"] = {k: v["mean"] for k, v in out.record["metrics"].items()}
            pq = pd.read_parquet(out.run_dir / "per_query.parquet")
            entry["latency_samples"] = {c[3:]: [round(float(x), 5) for x in pq[c]]
                                        for c in pq.columns if c.startswith("ms_")}
            entry["latency_p50_ms"] = {k: v.get("p50") for k, v in out.record["latency_ms"].items()}
        snap["arms"][arm.id] = entry
    return snap
