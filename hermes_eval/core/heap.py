"""Hand freed memory back to the operating system, so a run's peak RSS is what it holds, not what it held."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
from functools import lru_cache


@lru_cache(maxsize=1)
def _libc():
    name = ctypes.util.find_library("c")
    try:
        lib = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return lib if lib is not None and hasattr(lib, "malloc_trim") else None


def trim_heap() -> bool:
    """Collect garbage and ask glibc to return the free pages of its heap (``malloc_trim``): Python frees
    many small strings into the heap, which the process keeps otherwise. False where there is no glibc."""
    gc.collect()
    lib = _libc()
    if lib is None:
        return False
    lib.malloc_trim(0)
    return True
