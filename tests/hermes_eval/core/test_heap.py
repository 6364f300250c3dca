"""trim_heap gives freed memory back: the allocator's own statistics say how much the freed strings gave
its heap, and the kernel's page map says whether the pages that held them are still resident."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import mmap
import os
import sys

from hermes_eval.core.heap import trim_heap

PAGE = mmap.PAGESIZE


def glibc_version() -> str | None:
    try:
        return os.confstr("CS_GNU_LIBC_VERSION")  # "glibc 2.36"; None or an error elsewhere
    except (ValueError, OSError):
        return None


class Mallinfo2(ctypes.Structure):
    """glibc's ``struct mallinfo2`` (malloc.h, glibc >= 2.33)."""
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def free_in_heap() -> int:
    """Bytes glibc's heap holds free (``fordblks``): freed by the program, not yet given back."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.mallinfo2.restype = Mallinfo2
    return libc.mallinfo2().fordblks


def pages_of(objects) -> set[int]:
    """The page numbers the objects' memory spans (CPython: ``id`` is the address)."""
    return {p for o in objects for p in range(id(o) // PAGE, (id(o) + sys.getsizeof(o) - 1) // PAGE + 1)}


def resident(pages: set[int]) -> int:
    """How many of ``pages`` are in memory now (/proc/self/pagemap: bit 63 of each page's entry)."""
    with open("/proc/self/pagemap", "rb") as fh:
        n = 0
        for page in pages:
            fh.seek(page * 8)
            n += int.from_bytes(fh.read(8), "little") >> 63
    return n


def test_trim_heap_says_whether_it_can_trim():
    """The contract on every C library: True where glibc's malloc_trim runs, False elsewhere."""
    version = glibc_version()
    assert trim_heap() is (version is not None and version.startswith("glibc"))


def test_freed_file_sized_strings_leave_memory():
    """Strings of a few KB (source files) live in glibc's heap; a survivor above them keeps the freed
    pages resident (the heap cannot shrink past it) until they are trimmed. Measured on the strings' own
    pages, so what else this process holds (other tests' leftovers, other arenas) does not count."""
    version = glibc_version()
    assert version and version.startswith("glibc"), f"the C library here is {version!r}: this test needs glibc"
    texts = [("x%07d" % i) * 250 for i in range(60_000)]  # ~120 MB of 2 KB strings
    last = texts[-1]
    pages = pages_of(texts[:-1]) - pages_of([last])
    free_before = free_in_heap()
    del texts
    gc.collect()
    assert free_in_heap() - free_before > 100 * 2**20  # the allocator took the strings' memory back, as free
    assert resident(pages) > 0.95 * len(pages)  # ... and kept it resident: nothing gave it to the system yet
    assert trim_heap() is True
    left = resident(pages)
    assert left < 0.1 * len(pages), (left, len(pages))  # the trim gave nearly all of it back
    del last  # the survivor lived through the trim


def test_a_small_process_is_not_collected_and_a_large_one_is(monkeypatch):
    """Below the threshold the full collection (tens of ms in a small run) is skipped; at or above it, or
    where the size is unknown, the heap is trimmed as before."""
    from hermes_eval.core import heap

    rss = heap.resident_mb()
    assert rss is not None and 1 < rss < 1e6  # /proc answers on Linux, in MB
    collected = []
    monkeypatch.setattr(heap.gc, "collect", lambda *a: collected.append(1) or 0)
    assert heap.trim_heap_if_large(above_mb=rss * 100) is False and not collected
    assert heap.trim_heap_if_large(above_mb=0) is (glibc_version() or "").startswith("glibc") and collected
    monkeypatch.setattr(heap, "resident_mb", lambda: None)
    heap.trim_heap_if_large(above_mb=1e12)
    assert len(collected) == 2
