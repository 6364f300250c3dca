"""trim_heap gives freed memory back: the allocator's own statistics say how much the heap held free,
the heap mapping's resident size says how much of it the trim returned."""
from __future__ import annotations

import ctypes
import ctypes.util
import gc
import os
import re
from pathlib import Path

from hermes_eval.core.heap import trim_heap


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
    """Bytes the main heap holds free (``fordblks``): freed by the program, not yet given back."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.mallinfo2.restype = Mallinfo2
    return libc.mallinfo2().fordblks


def heap_resident() -> int:
    """Resident bytes of this process's ``[heap]`` mapping (/proc/self/smaps)."""
    text = Path("/proc/self/smaps").read_text()
    block = re.search(r"\[heap\]\n(?:(?!^[0-9a-f]+-).*\n)*?Rss:\s+(\d+) kB", text, re.M)
    assert block, "no [heap] mapping in /proc/self/smaps"
    return int(block[1]) * 1024


def test_trim_heap_says_whether_it_can_trim():
    """The contract on every C library: True where glibc's malloc_trim runs, False elsewhere."""
    assert trim_heap() is (glibc_version() is not None and glibc_version().startswith("glibc"))


def test_freed_file_sized_strings_leave_the_heap():
    """Strings of a few KB (source files) live in glibc's heap; a survivor above them keeps the freed
    pages resident (the heap cannot shrink past it) until they are trimmed."""
    version = glibc_version()
    assert version and version.startswith("glibc"), f"the C library here is {version!r}: this test needs glibc"
    texts = [("x%07d" % i) * 250 for i in range(60_000)]  # ~120 MB of 2 KB strings
    last = texts[-1]
    del texts
    gc.collect()
    freed, resident = free_in_heap(), heap_resident()
    assert freed > 100 * 2**20  # the allocator holds the strings' memory free, in its heap
    assert resident > freed  # ... and resident: the survivor above them keeps the heap from shrinking
    assert trim_heap() is True
    returned = resident - heap_resident()
    assert returned > 0.9 * freed, (freed, returned)  # nearly all of it given back
    del last  # the survivor lived through the trim
