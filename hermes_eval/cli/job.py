"""The Hydra task: one job = one run record. Failures are recorded; a sweep goes on."""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from omegaconf import DictConfig

from hermes_eval.core.errors import error_line

if TYPE_CHECKING:
    from hermes_eval.config.settings import RunSettings


def summary_line(outcome) -> str:
    """One line per job: skipped, ok with headline metrics, or failed with its error."""
    rec = outcome.record
    if outcome.status == "busy":
        return f"[busy] {rec['error']}"
    if outcome.status == "shard":
        return f"[shard {rec.get('shard')}] {outcome.run_dir}: part written; the run is merged by its last shard"
    if outcome.skipped:
        return f"[skip] {outcome.run_dir} (finished record with the same config hash and parts)"
    if outcome.status == "ok":
        m = rec["metrics"]
        head = f"[rerun] {outcome.run_dir} ({outcome.rerun})" if outcome.rerun else f"[ok] {outcome.run_dir}"
        return (f"{head}  R@10={m['recall@10']['mean']:.3f} "
                f"nDCG@10={m['ndcg@10']['mean']:.3f} fileR@10={m['file_recall@10']['mean']:.3f} "
                f"p50={rec['latency_ms']['total']['p50']:.1f}ms")
    why = f" (rerun: {outcome.rerun})" if outcome.rerun else ""
    return f"[failed] {outcome.run_dir}{why}: {rec['error']}"


def job_progress_mode(mode: str, multirun: bool) -> str:
    """A sweep's jobs run side by side under the parent's arms bar: they never draw bars of their
    own (two processes redrawing one terminal line garble it), they log coarse lines instead."""
    from hermes_eval.core.progress import resolve

    resolved = resolve(mode)
    return "log" if multirun and resolved == "bar" else resolved


def show_traceback() -> bool:
    """A failed arm's traceback is printed only when asked for (``HYDRA_FULL_ERROR=1``); the record
    keeps it either way."""
    return os.environ.get("HYDRA_FULL_ERROR") == "1"


def task(cfg: DictConfig):
    """The Hydra task of a sweep's job (and of a run Hydra launches)."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    return run_job(cfg, multirun=HydraConfig.get().mode == RunMode.MULTIRUN)


def run_job(cfg: DictConfig, multirun: bool, settings: "RunSettings | None" = None):
    """One job on a composed config: its summary line; a single run that fails exits 1 with its error.
    ``hermes-eval run`` calls it directly on the config it composed to validate the overrides: Hydra's
    own launch would compose it twice more and copy it once (0.6 s of a small run) for a run folder
    of its own that nothing reads, and passes the settings it validated (``settings_from``) with it."""
    from hermes_eval.api import execute_config
    from hermes_eval.core.log import setup_logging
    from hermes_eval.core.progress import after_of, configure

    setup_logging()
    configure(job_progress_mode(str(cfg.get("progress", "auto")), multirun), after=after_of(cfg))
    from hermes_eval.cli.sweep_summary import arm_result

    outcome = execute_config(cfg, settings)
    print(summary_line(outcome), flush=True)
    if outcome.status == "failed" and show_traceback() and outcome.record.get("traceback"):
        print(outcome.record["traceback"], file=sys.stderr)
    if outcome.status == "failed" and not multirun:
        print(error_line(f"{outcome.run_dir}: {outcome.record['error']}"), file=sys.stderr)
        sys.exit(1)
    return arm_result(outcome)
