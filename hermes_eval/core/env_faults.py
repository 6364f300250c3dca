"""Failures the machine causes, not the config: no space, no permission, a read-only disk, no memory.

:func:`classify` finds one in an exception (or the exceptions it was raised from) and says what it
is and how to fix it, so a sweep can print one line per arm and count its failures by cause.
"""
from __future__ import annotations

import errno
from dataclasses import dataclass

RESUME = "then run the same command again: finished arms are kept"


@dataclass(frozen=True)
class Cause:
    """One kind of environment failure: a short key, what happened, what to do."""

    key: str
    what: str
    fix: str


NO_SPACE = Cause("no_space", "no space left on device",
                 "free space there or point paths.runs / paths.cache at a larger disk, " + RESUME)
QUOTA = Cause("quota", "disk quota exceeded", "free space within the quota or point paths.runs / paths.cache "
              "elsewhere, " + RESUME)
PERMISSION = Cause("permission", "permission denied", "make the folder writable by this user or point "
                   "paths.runs / paths.cache at one that is, " + RESUME)
READ_ONLY = Cause("read_only", "read-only file system", "point paths.runs / paths.cache at a writable "
                  "disk, " + RESUME)
NO_MEMORY = Cause("no_memory", "out of memory", "run fewer arms at once (hydra.launcher.n_jobs=1) or free "
                  "memory, " + RESUME)

BY_ERRNO = {errno.ENOSPC: NO_SPACE, errno.EDQUOT: QUOTA, errno.EACCES: PERMISSION, errno.EPERM: PERMISSION,
            errno.EROFS: READ_ONLY, errno.ENOMEM: NO_MEMORY}


@dataclass(frozen=True)
class EnvFault:
    """An environment failure found in an exception: its cause and the file it hit (if known)."""

    cause: Cause
    path: str | None

    def message(self) -> str:
        """``<what> (<file>): <fix>``: what a failed arm's line says after its run folder."""
        where = f" ({self.path})" if self.path else ""
        return f"{self.cause.what}{where}: {self.cause.fix}"

    def to_dict(self) -> dict:
        return {"cause": self.cause.key, "what": self.cause.what, "path": self.path, "fix": self.cause.fix}


def _chain(exc: BaseException):
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def classify(exc: BaseException) -> EnvFault | None:
    """The environment failure behind ``exc`` (it or what it was raised from), or None."""
    for e in _chain(exc):
        if isinstance(e, MemoryError):
            return EnvFault(NO_MEMORY, None)
        if isinstance(e, OSError) and e.errno in BY_ERRNO:
            path = e.filename if isinstance(e.filename, str) else None
            return EnvFault(BY_ERRNO[e.errno], path)
        text = str(e)
        if "No space left on device" in text:  # libraries that wrap the OSError in their own type (pyarrow)
            return EnvFault(NO_SPACE, None)
    return None
