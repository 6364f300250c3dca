"""The program's exit without the interpreter's teardown. Once a command has returned, everything it wrote is
closed, yet Python would still free every module and object one by one: about 50 ms after a small run (pyarrow's
and numpy's modules most), a tenth of its time. ``leave`` runs what a normal exit runs that can matter (the
``atexit`` handlers: logging's flush and close, the libraries' own), flushes the standard streams and ends the
process; with another thread or a child process still running it exits normally, which waits for them.
``HERMES_FAST_EXIT=0`` turns it off."""
from __future__ import annotations

import atexit
import os
import sys
import threading
from typing import NoReturn

from retrievers import user_cache

ENV = "HERMES_FAST_EXIT"


def _alone() -> bool:
    """Whether nothing but the main thread runs and no child process of ``multiprocessing`` is alive."""
    if threading.active_count() > 1:
        return False
    mp = sys.modules.get("multiprocessing")
    return mp is None or not mp.active_children()


def leave(code: int) -> NoReturn:
    """End the process with ``code`` (see the module's docstring)."""
    if user_cache.turned_off(ENV) or not _alone():
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken pipe: nothing more can reach it
            pass
    os._exit(code)
