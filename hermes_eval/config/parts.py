"""Config nodes to objects: ``_target_`` instantiation after dropping descriptive keys."""
from __future__ import annotations

from typing import Any

from omegaconf import DictConfig, OmegaConf

from hermes_eval.core.moved_targets import as_current

META_KEYS = ("name", "notes", "substitutes")


def plain(cfg: DictConfig | dict | None) -> Any:
    if cfg is None:
        return None
    if isinstance(cfg, DictConfig):
        return OmegaConf.to_container(cfg, resolve=True)
    return cfg


def instantiate_part(node: DictConfig | dict | None) -> Any:
    """``hydra.utils.instantiate`` after dropping descriptive keys (name, notes) at the top; a
    ``_target_`` written with a module that has since moved builds from its new module."""
    if node is None:
        return None
    from hydra.utils import instantiate

    data = as_current(plain(node))
    for key in META_KEYS:
        data.pop(key, None)
    return instantiate(data, _convert_="all")
