"""The Hydra task: one job = one run record. Failures are recorded; a sweep goes on."""
from __future__ import annotations

import sys

from omegaconf import DictConfig


def task(cfg: DictConfig) -> str:
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    from hermes_eval.run.chain import execute

    outcome = execute(cfg)
    rec = outcome.record
    if outcome.skipped:
        line = f"[skip] {outcome.run_dir} (finished record with the same config hash)"
    elif outcome.status == "ok":
        m = rec["metrics"]
        line = (f"[ok] {outcome.run_dir}  R@10={m['recall@10']['mean']:.3f} "
                f"nDCG@10={m['ndcg@10']['mean']:.3f} fileR@10={m['file_recall@10']['mean']:.3f} "
                f"p50={rec['latency_ms']['total']['p50']:.1f}ms")
    else:
        line = f"[failed] {outcome.run_dir}: {rec['error']}"
    print(line, flush=True)
    if outcome.status != "ok" and HydraConfig.get().mode == RunMode.RUN:
        print(f"hermes-eval: error: {rec['error']}", file=sys.stderr)
        sys.exit(1)
    return outcome.status
