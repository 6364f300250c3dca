"""Config nodes to objects: ``_target_`` instantiation after dropping descriptive keys."""
from __future__ import annotations

from typing import Any

from omegaconf import DictConfig, OmegaConf

from retrievers.identity.names import buildable, load_target

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
    data = buildable(plain(node))
    for key in META_KEYS:
        data.pop(key, None)
    if _special_keys(data):
        from hydra.utils import instantiate

        return instantiate(data, _convert_="all")
    return _construct(data)


def _special_keys(value: Any) -> bool:
    """Whether a node uses one of Hydra's instantiation keys other than ``_target_`` (``_partial_``,
    ``_args_``, ``_recursive_``, ``_convert_``): those nodes go through Hydra itself."""
    if isinstance(value, dict):
        return any(k.startswith("_") and k.endswith("_") and k != "_target_" for k in value) or \
            any(_special_keys(v) for v in value.values())
    if isinstance(value, list):
        return any(_special_keys(v) for v in value)
    return False


def _construct(value: Any) -> Any:
    """What ``instantiate(value, _convert_="all")`` builds for a plain node of ``_target_`` keys alone:
    children first, each ``_target_`` called with its other keys as keyword arguments, containers as
    plain lists and dicts. Hydra builds an OmegaConf tree first (about 1.3 ms a part, paid for every
    snapshot of a snapshot set), and importing Hydra for its locator alone is a tenth of a small run: the
    target is found as ``buildable`` already found it; tests/hermes_eval/config/test_parts.py compares both
    ways on every preset."""
    if isinstance(value, dict):
        args = {k: _construct(v) for k, v in value.items() if k != "_target_"}
        if "_target_" not in value:
            return args
        target = load_target(value["_target_"])
        if target is None:
            from hydra.utils import get_object

            return get_object(value["_target_"])(**args)  # Hydra's own error for a path that does not import
        return target(**args)
    if isinstance(value, list):
        return [_construct(v) for v in value]
    return value
