"""The Python API: compose a config, run it, read every record back."""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from hermes_eval.config.compose import compose

if TYPE_CHECKING:
    import pandas as pd
    from omegaconf import DictConfig

    from hermes_eval.config.settings import RunSettings
    from hermes_eval.stages.chain import RunOutcome

__all__ = ["compose", "execute_config", "load_results", "run"]


def run(config: "Sequence[str] | DictConfig | RunSettings" = ()) -> "RunOutcome":
    """Run one configuration (Hydra overrides, a composed config, or settings) and return its
    outcome: ``.status``, ``.run_dir`` and ``.record`` (the record.json written there)."""
    from omegaconf import DictConfig

    from hermes_eval.config.settings import RunSettings
    from hermes_eval.stages.chain import execute

    if isinstance(config, RunSettings):
        return execute(config)
    return execute_config(config if isinstance(config, DictConfig) else compose(list(config)))


def execute_config(cfg: "DictConfig", settings: "RunSettings | None" = None) -> "RunOutcome":
    """Validate ``cfg`` and run it; a config that does not validate still leaves a failed record.
    ``settings``: ``settings_from(cfg)`` when the caller already made them (validating is not free)."""
    from hermes_eval.config.identity import config_hash, slug
    from hermes_eval.config.settings import settings_from
    from hermes_eval.core.errors import one_line
    from hermes_eval.record.write import write_record
    from hermes_eval.stages.chain import RunOutcome, execute

    if settings is not None:
        return execute(settings)
    try:
        settings = settings_from(cfg)
    except Exception as exc:  # noqa: BLE001 - a sweep arm with a bad value is recorded and skipped
        chash = config_hash(cfg)
        run_dir = Path(cfg.paths.runs) / f"{slug(str(cfg.chunker.get('name', 'invalid')))}-invalid-{chash}"
        record = {"schema": 1, "config_hash": chash, "status": "failed", "error": one_line(exc),
                  "finished_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        write_record(run_dir, record)
        return RunOutcome("failed", run_dir, record)
    return execute(settings)


def load_results(runs_dir: str | Path = "runs") -> "pd.DataFrame":
    """Every run record under ``runs_dir`` (any depth) as one tidy table, one row per run."""
    from hermes_eval.record.results import collect

    return collect(Path(runs_dir))[0]
