"""Config nodes to objects: ``_target_`` instantiation after dropping descriptive keys."""
from __future__ import annotations

from typing import Any

from omegaconf import DictConfig, OmegaConf

from retrievers.identity.names import buildable

META_KEYS = ("name", "notes", "substitutes")


def plain(cfg: DictConfig | dict | None) -> Any:
    if cfg is None:
        return None
    if isinstance(cfg, DictConfig):
        return OmegaConf.to_container(cfg, resolve=True)
    return cfg


def instantiate_part(node: DictConfig | dict | None) -> Any:
    """``hydra.utils.instantiate`` after dropping descriptive keys (name, notes) at the top; a
    ``_target_`` naming a part by its declared name, or by a module it has since left, builds it."""
    if node is None:
        return None
    from hydra.utils import instantiate

    data = buildable(plain(node))
    for key in META_KEYS:
        data.pop(key, None)
    return instantiate(data, _convert_="all")
