"""Each job of a sweep composed once, not three times.

Hydra composes a sweep job's config in three places: its sweeper checks that every job composes
(``Sweeper.validate_batch_is_legal``), our launcher composes each job for its plan (which arms share a corpus,
which already finished), and ``execute_job`` composes it again in the worker. In a warm 10-arm ``make sweep``
the parent's 20 compositions took 6.9 of its 15.2 profiled seconds, and each worker composed its arms again.

:class:`ComposeOnce` stands in for Hydra's config loader for one sweep: the first composition of a job's
overrides is kept and handed to the second caller, and :func:`execute_composed` runs a job from the config
its parent composed, the same steps as ``hydra_joblib_launcher._core.execute_job`` without the composition.
A job whose config did not compose is left to ``execute_job``, which composes it and reports its failure.
"""
from __future__ import annotations

import pickle
from typing import Any, Sequence

from omegaconf import DictConfig


class ComposeOnce:
    """A config loader that composes each sweep job once (keyed by the master config and the job's overrides)
    and otherwise is the loader it wraps. A composition is kept pickled (about 18 KB, where the config object
    takes about 360 KB), and every later caller gets a copy of its own, so no caller sees another's changes.
    Pickled (for a worker), it is that loader: the kept configs stay here."""

    def __init__(self, loader: Any):
        self.loader = loader
        self._kept: dict[tuple[int, tuple[str, ...]], tuple[DictConfig, bytes]] = {}

    def load_sweep_config(self, master_config: DictConfig, sweep_overrides: list[str]) -> DictConfig:
        blob = self.composed(master_config, sweep_overrides)
        if blob is not None:
            return pickle.loads(blob)
        cfg = self.loader.load_sweep_config(master_config, list(sweep_overrides))
        # the master is held too: its id cannot be reused for another while it is kept
        self._kept[(id(master_config), tuple(sweep_overrides))] = (master_config, pickle.dumps(cfg))
        return cfg

    def composed(self, master_config: DictConfig, sweep_overrides: Sequence[str]) -> bytes | None:
        """The kept composition of a job, pickled (None: not composed here yet)."""
        kept = self._kept.get((id(master_config), tuple(sweep_overrides)))
        return kept[1] if kept is not None and kept[0] is master_config else None

    def forget(self) -> None:
        self._kept.clear()

    def __getattr__(self, name: str) -> Any:  # every instance is made by __init__ (a copy or pickle is the loader)
        return getattr(self.loader, name)

    def __reduce__(self):
        return _itself, (self.loader,)


def _itself(loader: Any) -> Any:
    """What a pickled :class:`ComposeOnce` comes back as: the loader it wrapped."""
    return loader


def compose_once(hydra_context: Any) -> ComposeOnce:
    """Give ``hydra_context`` (shared by Hydra's sweeper and launcher) a loader that composes each job once."""
    loader = hydra_context.config_loader
    if not isinstance(loader, ComposeOnce):
        loader = ComposeOnce(loader)
        hydra_context.config_loader = loader
    return loader


def execute_composed(idx: int, overrides: Sequence[str], composed: bytes | None, hydra_context: Any,
                     config: DictConfig, task_function: Any, singleton_state: dict) -> Any:
    """``execute_job`` for a job its parent composed already (``composed``: :meth:`ComposeOnce.composed`);
    None: ``execute_job`` itself."""
    from hydra_plugins.hydra_joblib_launcher import _core

    if composed is None:
        return _core.execute_job(idx, overrides, hydra_context, config, task_function, singleton_state)
    from hydra.core.hydra_config import HydraConfig
    from hydra.core.singleton import Singleton
    from hydra.core.utils import run_job, setup_globals
    from omegaconf import open_dict

    setup_globals()
    Singleton.set_state(singleton_state)
    sweep_config = pickle.loads(composed)
    with open_dict(sweep_config):
        sweep_config.hydra.job.id = f"{sweep_config.hydra.job.name}_{idx}"
        sweep_config.hydra.job.num = idx
    HydraConfig.instance().set_config(sweep_config)
    return run_job(hydra_context=hydra_context, config=sweep_config, task_function=task_function,
                   job_dir_key="hydra.sweep.dir", job_subdir_key="hydra.sweep.subdir")
