"""Hydra's joblib launcher, reporting arms done/total with elapsed time and ETA as jobs finish.

The jobs run as under ``hydra_plugins.hydra_joblib_launcher`` (loky workers, the same returns in the same
order), each from the config its parent composed (``execute_job`` without composing it again:
:mod:`hermes_eval.cli.sweep_compose`); the parent collects them as they complete
(``return_as="generator_unordered"``) to count them. Progress goes to stderr through
:mod:`hermes_eval.core.progress` (``progress`` in conf/config.yaml).
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Sequence

from hydra.core.utils import JobReturn, JobStatus, configure_log, filter_overrides, setup_globals
from hydra_plugins.hydra_joblib_launcher import _core
from hydra_plugins.hydra_joblib_launcher.joblib_launcher import JoblibLauncher

from hermes_eval.cli.interrupted import Stopped, SweepInterrupted, changed, folder_times
from hermes_eval.cli.sweep_summary import ArmResult, closing_line
from hermes_eval.core.progress import after_of, configure
from retrievers.progress import track

log = logging.getLogger(__name__)

# Hydra instantiates launchers only from its plugin namespace (``hydra_plugins.*``); the top level of
# this repository is fixed, so the class is registered under that name by :func:`register` instead
# of living in a ``hydra_plugins`` folder. conf/hydra/launcher/per_core.yaml names it so.
PLUGIN_MODULE = "hydra_plugins.hermes_eval_progress"


LAST_SWEEP: list[ArmResult] = []  # the arms of the sweep this process launched last (for its exit code)


def _arm_result(ret: JobReturn) -> ArmResult:
    """What the job returned; a job whose task raised crashed (Hydra reports its error)."""
    value = getattr(ret, "_return_value", None)
    if ret.status != JobStatus.COMPLETED or not isinstance(value, ArmResult):
        return ArmResult("crashed")
    return value


def _indexed_job(idx: int, overrides: Sequence[str], composed, *args) -> tuple[int, JobReturn]:
    from hermes_eval.cli.sweep_compose import execute_composed
    from hermes_eval.stages.arm_share import sharing

    with sharing():  # the next job in this process reuses this one's corpus and chunks when they match
        return idx, execute_composed(idx, overrides, composed, *args)


def _indexed_batch(jobs: list[tuple[int, Sequence[str], object]], *args) -> list[tuple[int, JobReturn]]:
    """Several arms one after another in one worker, sharing their corpus and chunks (each job's config as the
    parent composed it: sweep_compose.py)."""
    return [_indexed_job(idx, overrides, composed, *args) for idx, overrides, composed in jobs]


def batches(keys: Sequence[object], workers: int) -> list[list[int]]:
    """Job positions in batches for ``workers`` processes: the jobs of one key (corpus and chunker) in one
    batch, so that they share them; a job without a key (resumed, or not composable: quick) alone. While
    fewer batches with a key than workers, the largest is halved."""
    out: list[list[int]] = []
    for i in grouped_order(keys):
        if out and keys[i] is not None and keys[out[-1][0]] == keys[i]:
            out[-1].append(i)
        else:
            out.append([i])
    keyed = [b for b in out if keys[b[0]] is not None]
    while keyed and len(keyed) < workers:
        big = max(keyed, key=len)
        if len(big) < 2:
            break
        half = (len(big) + 1) // 2
        at, k = out.index(big), keyed.index(big)
        out[at:at + 1] = keyed[k:k + 1] = [big[:half], big[half:]]
    return out


def grouped_order(keys: Sequence[object]) -> list[int]:
    """Job positions with the jobs of equal key next to each other, groups in the order of their first
    job and jobs in theirs (a key of None is a group of its own)."""
    first: dict[object, int] = {}
    rank = [first.setdefault(k, i) if k is not None else i for i, k in enumerate(keys)]
    return sorted(range(len(keys)), key=lambda i: (rank[i], i))


def _stopped(settings: Sequence, before: dict) -> Stopped:
    """Where an interrupted sweep stood: the arms whose run folder changed since ``before`` (they were
    running) without a finished record, and how many arms have one."""
    from hermes_eval.stages.chain import find_record

    arms = [s for s in settings if s is not None]
    finished = {s.paths.runs / s.run_name for s in arms if find_record(s.paths.runs, s.config_hash) is not None}
    running = tuple(d for d in changed(before) if d not in finished)
    return Stopped(running, len(finished), len(settings))


class ProgressJoblibLauncher(JoblibLauncher):
    """``hydra/launcher=per_core``: joblib with one job per core and a progress report per arm."""

    def launch(self, job_overrides: Sequence[Sequence[str]], initial_job_idx: int) -> Sequence[JobReturn]:
        from joblib import Parallel, delayed

        setup_globals()
        assert self.config is not None and self.task_function is not None and self.hydra_context is not None
        configure_log(self.config.hydra.hydra_logging, self.config.hydra.verbose)
        configure(str(self.config.get("progress", "auto")), after=after_of(self.config))
        Path(str(self.config.hydra.sweep.dir)).mkdir(parents=True, exist_ok=True)
        joblib_cfg = dict(self.joblib)
        joblib_cfg["backend"] = "loky"  # as the plugin: the threading backend is incompatible with Hydra
        _core.process_joblib_cfg(joblib_cfg)
        log.debug("joblib.Parallel(%s) launching %d jobs", joblib_cfg, len(job_overrides))
        for idx, overrides in enumerate(job_overrides):
            log.debug("  #%d: %s", initial_job_idx + idx, " ".join(filter_overrides(overrides)))
        from hydra.core.singleton import Singleton

        from joblib import effective_n_jobs

        from hermes_eval.stages.arm_share import clear
        from hermes_eval.stages.prefetch import pending
        from hermes_eval.stages.prepare import chunking_key

        state = Singleton.get_state()
        settings = self._arm_settings(job_overrides)
        composed = [self._loader.composed(self.config, o) for o in job_overrides]
        todo = pending([s for s in settings if s is not None])
        will_run = {id(s) for s in todo}
        keys = [chunking_key(s) if id(s) in will_run else None for s in settings]
        args = (self.hydra_context, self.config, self.task_function, state)
        workers = effective_n_jobs(joblib_cfg.get("n_jobs"))
        before = folder_times([s.paths.runs / s.run_name for s in settings if s is not None])
        returns: dict[int, JobReturn] = {}
        try:
            # arms of one corpus and chunker run one after another in one process and share them
            # (stages/arm_share.py): here, one arm at a time; in workers, a batch of such arms at a time
            if workers == 1:  # a prefetch would only load what the first arm of each group loads
                jobs = (delayed(_indexed_batch)([(initial_job_idx + i, job_overrides[i], composed[i])], *args)
                        for i in grouped_order(keys))
            else:
                if self.config.get("prefetch", True):
                    from hermes_eval.stages.prefetch import prefetch

                    prefetch(todo)
                jobs = (delayed(_indexed_batch)([(initial_job_idx + i, job_overrides[i], composed[i]) for i in batch],
                                                *args)
                        for batch in batches(keys, workers))
            with track("arms", len(job_overrides), "arms") as arms:
                for batch in Parallel(return_as="generator_unordered", **joblib_cfg)(jobs):
                    for idx, ret in batch:
                        returns[idx] = ret
                        arms.update()
        except KeyboardInterrupt:  # Ctrl-C: the CLI says in one line where the sweep stood
            raise SweepInterrupted(_stopped(settings, before)) from None
        finally:
            clear()
            self._loader.forget()
        ordered = [returns[initial_job_idx + i] for i in range(len(job_overrides))]
        LAST_SWEEP[:] = [_arm_result(r) for r in ordered]
        print(closing_line(LAST_SWEEP), flush=True)
        return ordered

    def setup(self, *, hydra_context, task_function, config) -> None:
        """As joblib's, with a config loader that composes each job once (sweep_compose.py): the sweeper's
        check, this launcher's plan and the job itself share one composition."""
        from hermes_eval.cli.sweep_compose import compose_once

        super().setup(hydra_context=hydra_context, task_function=task_function, config=config)
        self._loader = compose_once(hydra_context)

    def _arm_settings(self, job_overrides: Sequence[Sequence[str]]) -> list:
        """Each job's settings, from the config the job will run (None for an arm that does not validate:
        it records its own failure)."""
        from omegaconf import open_dict

        from hermes_eval.config.settings import settings_from

        out = []
        for overrides in job_overrides:
            try:  # a copy of its own (sweep_compose.py): the kept composition goes to the job, hydra's node included
                cfg = self._loader.load_sweep_config(self.config, list(overrides))
                with open_dict(cfg):
                    del cfg["hydra"]
                out.append(settings_from(cfg))
            except Exception as exc:  # noqa: BLE001 - the job itself reports it
                log.debug("no settings for %s: %s", overrides, exc)
                out.append(None)
        return out


def register() -> None:
    """Make ``hydra_plugins.hermes_eval_progress.ProgressJoblibLauncher`` known to Hydra (idempotent):
    this module answers to that name, and the class is in Hydra's plugin registry under it."""
    import sys

    from hydra.core.plugins import Plugins

    sys.modules.setdefault(PLUGIN_MODULE, sys.modules[__name__])
    ProgressJoblibLauncher.__module__ = PLUGIN_MODULE
    Plugins.instance().register(ProgressJoblibLauncher)
