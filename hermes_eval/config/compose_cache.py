"""Composed configs kept on disk between processes, so a run whose config files and overrides did not change
skips Hydra's composition (and Hydra's import): about a quarter of a small run's second (issue 55).

The key is everything composition reads: the overrides, every file under the config folder (path, size,
change time), the modules of ``hermes_eval/config`` that turn conf/benchmarks/ records into overlays, the
``HERMES_*`` environment (record paths expand it), and the Python, Hydra and OmegaConf versions. Only a
composition that worked is stored, so a refused option is refused every time. The composed config is
unresolved (interpolations such as ``${oc.env:...}`` are resolved later, as before). ``HERMES_COMPOSE_CACHE``
names the folder (default ``$XDG_CACHE_HOME/hermes-eval/compose``); ``off`` turns it off. Overrides that add
search paths (``hydra.searchpath``) compose every time: the key does not list other folders.
"""
from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from retrievers import user_cache

ENV = "HERMES_COMPOSE_CACHE"
FORMAT = 1  # bump when what is stored changes
KEEP = 512  # configs kept; the oldest half goes when there are more
CODE_DIR = Path(__file__).resolve().parent  # the modules that make overlays and check options
# a value Hydra's grammar reads as this very string (no number, bool, null, list, quote, sweep or interpolation)
PLAIN_VALUE = re.compile(r"[A-Za-z_/][A-Za-z0-9_./:@+-]*")
NOT_STRINGS = {"true", "false", "null"}  # and what float() reads (numbers, inf, nan): see _number


def folder() -> Path | None:
    """Where composed configs are kept; None when turned off."""
    return user_cache.folder(ENV, "compose")


@lru_cache(maxsize=None)
def _version(distribution: str) -> str:
    """The installed version (the distribution's metadata, the same whether or not it is imported yet)."""
    from retrievers.identity import distributions

    return distributions.installed(distribution) or "absent"


def key(overrides: list[str], conf_dir: Path) -> str:
    """The digest naming ``overrides`` composed from ``conf_dir`` with today's code and environment."""
    parts: dict[str, Any] = {
        "format": FORMAT, "python": sys.version, "conf": str(conf_dir.resolve()), "overrides": list(overrides),
        "files": user_cache.listing(conf_dir), "code": user_cache.listing(CODE_DIR, (".py",)),
        "env": sorted((k, v) for k, v in os.environ.items() if k.startswith("HERMES_") and k != ENV),
        "libraries": [_version("hydra-core"), _version("omegaconf")],
    }
    return hashlib.sha256(json.dumps(parts, sort_keys=True).encode()).hexdigest()


def split(overrides: Sequence[str], conf_dir: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """(the overrides composition needs, the plain values set after it): ``key=value`` on a dotted key
    (outside ``hydra.``) or a top-level key that is no config group, with a value Hydra reads as that very string (a path, a name).
    Hydra sets those on the composed config after the defaults, in order, as :func:`apply` does, so a run
    that changes only its folders or a query set's name reads back the same composition."""
    groups = {p.name for p in conf_dir.iterdir() if p.is_dir()} | {"hydra", "benchmark", "experiment"}
    structural: list[str] = []
    values: list[tuple[str, str]] = []
    for word in overrides:
        name, eq, value = word.partition("=")
        plain = eq and (all(part.isidentifier() for part in name.split(".")) and name.split(".")[0] != "hydra"
                        if "." in name else name.isidentifier() and name not in groups)  # a dotted key is no group
        if plain and PLAIN_VALUE.fullmatch(value) and value.lower() not in NOT_STRINGS and not _number(value):
            values.append((name, value))
        else:
            structural.append(word)
    touched = {o.partition("=")[0].lstrip("+~") for o in structural}
    if touched & {k for k, _ in values} or len({k for k, _ in values}) < len(values):
        return list(overrides), []  # a key set twice: Hydra's order decides, so Hydra composes it all
    return structural, values


def _number(value: str) -> bool:
    try:
        float(value)  # "infinity", "nan": Hydra's grammar reads these as floats too
    except ValueError:
        return False
    return True


def apply(cfg: Any, values: Sequence[tuple[str, str]]) -> None:
    """Set each plain value as Hydra's override would, refusing (``ValueError``) what Hydra might treat
    otherwise: a key the config lacks, a container, a typed non-string node."""
    from omegaconf import OmegaConf, ValueNode

    for name, value in values:
        parent_key, _, leaf = name.rpartition(".")
        parent = OmegaConf.select(cfg, parent_key, throw_on_missing=False) if parent_key else cfg
        node = parent._get_node(leaf) if OmegaConf.is_dict(parent) else None
        if not isinstance(node, ValueNode) or not (node._value() is None or isinstance(node._value(), str)):
            raise ValueError(f"{name}: not a string value of the composed config")
        OmegaConf.update(cfg, name, value, merge=True)


def cached(overrides: list[str], conf_dir: Path, compose: Callable[[list[str]], Any]) -> Any:
    """The config ``compose(overrides)`` makes, read back when the composition of its structural overrides
    (:func:`split`) was stored under the same key, with the plain values set on it."""
    where = folder()
    if where is None or any("searchpath" in o for o in overrides):  # config folders the key does not list
        return compose(list(overrides))
    structural, values = split(overrides, conf_dir)
    path = where / f"{key(structural, conf_dir)}.pickle"
    try:
        with path.open("rb") as fh:
            cfg = pickle.load(fh)
    except Exception:  # noqa: BLE001 - missing, torn or from another library: composed again
        cfg = None
    if cfg is None:
        cfg = compose(structural)  # every override when none is a plain value
        _store(path, cfg)
    try:
        apply(cfg, values)
    except Exception:  # noqa: BLE001 - Hydra composes it all and says in its words what it refuses
        return compose(list(overrides))
    return cfg


def _store(path: Path, cfg: Any) -> None:
    user_cache.store(path, pickle.dumps(cfg, protocol=pickle.HIGHEST_PROTOCOL), KEEP)


__all__ = ["ENV", "apply", "cached", "folder", "key", "split"]
