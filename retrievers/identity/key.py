"""The cache identity of a built part: what it is (declared names and versions), what it runs on
(library versions, Python) and what it does (the digest of its probe's output)."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import platform
from typing import Any, Callable, Iterable

import numpy as np

from retrievers.identity.declare import PartId, declared

DECIMALS = 4  # floats in a probe's output are compared to this many decimals (thread counts move the last bits)


def part_id(obj: Any) -> str:
    """``name@version`` a part declares (or a :class:`PartId` itself), else its import path (an undeclared part of a user's own)."""
    ident = obj if isinstance(obj, PartId) else declared(obj)
    if ident is not None:
        return str(ident)
    cls = obj if isinstance(obj, type) or callable(obj) and hasattr(obj, "__qualname__") else type(obj)
    return f"{cls.__module__}.{cls.__qualname__}"


def _plain(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (float, np.floating)):
        return round(float(value), DECIMALS) + 0.0  # -0.0 and 0.0 alike
    if isinstance(value, (np.integer,)):
        return int(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (str, int, bool)):
        return value
    return repr(value)


def output_digest(output: Any) -> str:
    """A digest of a probe's output (floats to :data:`DECIMALS` decimals)."""
    blob = json.dumps(_plain(output), sort_keys=True, separators=(",", ":")).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def part_key(parts: Iterable[Any], output: Any, libraries: Iterable[str] = ()) -> str:
    """16 hex digits over the parts' declared identities, ``libraries`` (``dist==version`` strings),
    the Python version and the probe ``output``'s digest."""
    blob = json.dumps({"parts": [part_id(p) for p in parts], "libs": sorted(set(libraries)),
                       "python": platform.python_version(), "probe": output_digest(output)},
                      sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:16]


def config_key(node: Any, output: Callable[[], Any], libraries: Iterable[str] = ()) -> str:
    """The key of what a plain config builds: every part its ``_target_``s name (declared identities and
    the libraries their modules import, plus ``libraries``) and ``output()``, the probe run on the built
    part."""
    from retrievers.identity.libraries import library_versions
    from retrievers.identity.names import targets

    parts = [t for t in targets(node) if t is not None]
    modules = sorted({p.__module__ for p in parts})
    return part_key(parts, output(), library_versions(modules, libraries))
