"""Hydra's joblib launcher, reporting arms done/total with elapsed time and ETA as jobs finish.

The jobs run exactly as under ``hydra_plugins.hydra_joblib_launcher`` (same ``execute_job``, loky
workers, the same returns in the same order); only the parent collects them as they complete
(``return_as="generator_unordered"``) to count them. Progress goes to stderr through
:mod:`hermes_eval.core.progress` (``progress`` in conf/config.yaml).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

from hydra.core.utils import JobReturn, configure_log, filter_overrides, setup_globals
from hydra_plugins.hydra_joblib_launcher import _core
from hydra_plugins.hydra_joblib_launcher.joblib_launcher import JoblibLauncher

from hermes_eval.core.progress import configure
from retrievers.progress import track

log = logging.getLogger(__name__)


def _indexed_job(idx: int, *args) -> tuple[int, JobReturn]:
    return idx, _core.execute_job(idx, *args)


class ProgressJoblibLauncher(JoblibLauncher):
    """``hydra/launcher=per_core``: joblib with one job per core and a progress report per arm."""

    def launch(self, job_overrides: Sequence[Sequence[str]], initial_job_idx: int) -> Sequence[JobReturn]:
        from joblib import Parallel, delayed

        setup_globals()
        assert self.config is not None and self.task_function is not None and self.hydra_context is not None
        configure_log(self.config.hydra.hydra_logging, self.config.hydra.verbose)
        configure(str(self.config.get("progress", "auto")))
        Path(str(self.config.hydra.sweep.dir)).mkdir(parents=True, exist_ok=True)
        joblib_cfg = dict(self.joblib)
        joblib_cfg["backend"] = "loky"  # as the plugin: the threading backend is incompatible with Hydra
        _core.process_joblib_cfg(joblib_cfg)
        log.debug("joblib.Parallel(%s) launching %d jobs", joblib_cfg, len(job_overrides))
        for idx, overrides in enumerate(job_overrides):
            log.debug("  #%d: %s", initial_job_idx + idx, " ".join(filter_overrides(overrides)))
        from hydra.core.singleton import Singleton

        state = Singleton.get_state()
        jobs = (delayed(_indexed_job)(initial_job_idx + idx, overrides, self.hydra_context, self.config,
                                      self.task_function, state)
                for idx, overrides in enumerate(job_overrides))
        returns: dict[int, JobReturn] = {}
        with track("arms", len(job_overrides), "arms") as arms:
            for idx, ret in Parallel(return_as="generator_unordered", **joblib_cfg)(jobs):
                returns[idx] = ret
                arms.update()
        return [returns[initial_job_idx + i] for i in range(len(job_overrides))]
