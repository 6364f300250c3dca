"""Hand freed memory back to the operating system, so a run's peak RSS is what it holds, not what it held."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
from functools import lru_cache

# below this resident size a run's heap is not worth a full collection (about 40 ms each in a small run,
# which holds a few MB of freed strings); snapshot sets of large repositories hold GBs
TRIM_ABOVE_MB = 512


@lru_cache(maxsize=1)
def _libc():
    name = ctypes.util.find_library("c")
    try:
        lib = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return lib if lib is not None and hasattr(lib, "malloc_trim") else None


def resident_mb() -> float | None:
    """The process's resident size now (``/proc/self/statm``), None where there is no /proc."""
    try:
        with open("/proc/self/statm") as fh:
            pages = int(fh.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def trim_heap_if_large(above_mb: float = TRIM_ABOVE_MB) -> bool:
    """:func:`trim_heap` when the process holds at least ``above_mb`` (or its size is unknown)."""
    rss = resident_mb()
    return trim_heap() if rss is None or rss >= above_mb else False


def trim_heap() -> bool:
    """Collect garbage and ask glibc to return the free pages of its heap (``malloc_trim``): Python frees
    many small strings into the heap, which the process keeps otherwise. False where there is no glibc."""
    gc.collect()
    lib = _libc()
    if lib is None:
        return False
    lib.malloc_trim(0)
    return True
