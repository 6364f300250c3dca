"""trim_heap gives freed memory back: measured on this process's resident set."""
from __future__ import annotations

import gc
import sys

import pytest

from hermes_eval.core.heap import trim_heap


def _rss_mb() -> float:
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS")) / 1024


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_freed_file_sized_strings_leave_the_resident_set():
    """Strings of a few KB (source files) live in glibc's heap; a survivor above them keeps the freed pages
    resident (the heap cannot shrink past it) until they are trimmed."""
    texts = [("x%07d" % i) * 250 for i in range(60_000)]  # ~120 MB of 2 KB strings
    last = texts[-1]
    grown = _rss_mb()
    del texts
    gc.collect()
    assert trim_heap() is True  # glibc here
    assert _rss_mb() < grown - 80
    del last  # the survivor lived through the trim
