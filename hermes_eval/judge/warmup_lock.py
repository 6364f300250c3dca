"""A warm-up lock: ranx's numba kernels compiled (or loaded from numba's cache) by one process at a time.

Numba writes its on-disk cache into ranx's package folder the first time a kernel runs. Several
sweep workers doing that at once in a fresh virtualenv could read one another's half-written
cache entries, the suspected cause of records that disagreed with their own run files. Each
process therefore runs every metric kernel once on a tiny input while holding an interprocess lock
keyed by ranx's install folder; after that the compiled kernels are in memory and no process
compiles outside the lock. (Records are also re-scored from their files: record/rescore.py.)
"""
from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path
from typing import Sequence

from hermes_eval.judge.ranx_dicts import ranx_per_query

_WARM: set[str] = set()


def lock_path() -> Path:
    """One lock file per ranx installation (per virtualenv), in the system's temporary folder."""
    import ranx

    key = hashlib.sha256(str(Path(ranx.__file__).resolve().parent).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"hermes-eval-ranx-jit-{key}.lock"


def warm(metrics: Sequence[str]) -> None:
    """Compile or load the kernels of ``metrics`` under the lock, once per process and metric."""
    todo = sorted(set(metrics) - _WARM)
    if not todo:
        return
    from filelock import FileLock

    with FileLock(str(lock_path()), timeout=600):
        ranx_per_query({"q": {"a": 1, "b": 2}}, {"q": {"a": 2.0, "c": 1.0}}, todo)  # the metrics' own call
    _WARM.update(todo)
