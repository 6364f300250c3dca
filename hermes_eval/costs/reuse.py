"""Sweep reuse: a 6-arm fusion-weight grid against one arm, both from a cold cache."""
from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

WEIGHTS = "0.2,0.3,0.4,0.5,0.6,0.7"


def _sweep(weights: str, n_queries: int) -> float:
    with tempfile.TemporaryDirectory(prefix="hermes-bench-") as tmp:
        t = Path(tmp)
        cmd = [sys.executable, "-m", "hermes_eval.cli.main", "sweep", f"fusion.dense_weight={weights}",
               "chunker=python_ast", f"paths.runs={t / 'runs'}", f"paths.cache={t / 'cache'}",
               f"paths.datasets={t / 'ds'}", f"queryset.generator.max_queries={n_queries}"]
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - start
        if proc.returncode != 0 or "[failed]" in proc.stdout:
            raise RuntimeError(f"bench sweep failed: {proc.stderr[-500:]}{proc.stdout[-500:]}")
        return wall


def run(n_queries: int = 100) -> dict:
    single = _sweep("0.5", n_queries)
    grid = _sweep(WEIGHTS, n_queries)
    return {"single_arm_s": round(single, 2), "grid_6_arms_s": round(grid, 2),
            "ratio": round(grid / single, 3), "target": "<= 1.5", "queries": n_queries,
            "passed": grid / single <= 1.5}
