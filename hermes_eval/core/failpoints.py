"""Named failpoints: places in a run where a fault can be injected on purpose, as gofail and
FoundationDB do, so the fault suite can kill or starve a run at an exact step.

``HERMES_FAILPOINTS="run.files_written=killpg,write=enospc@3"`` arms two: the first SIGKILLs this
process's whole process group (a sweep and its workers, as ``kill -9 -PGID`` does) when a run has
written its files but not its record; the second makes the third write through
:func:`hermes_eval.cache.content.atomic_write_bytes` (records, run files, cache entries) fail with
``ENOSPC``, as a full disk does. Unset (always, outside tests), a failpoint costs one dict lookup.

Actions: ``killpg``, ``kill`` (this process only), ``stop``, ``enospc``, ``eacces``, ``erofs``.
``@N`` fires on the N-th hit in a process and every hit after it (default 1); ``stop`` fires on the
N-th hit only: it SIGSTOPs this process there (as Ctrl-Z does), holding whatever it holds, a run's
lock say, until a SIGCONT resumes it, so a test can make two processes meet at an exact step.
"""
from __future__ import annotations

import errno
import os
import signal
from dataclasses import dataclass
from functools import lru_cache

ENV = "HERMES_FAILPOINTS"
POINTS = {
    "run.locked": "the run folder's lock is taken, nothing chunked or indexed yet",
    "run.trec_written": "run.trec is written, its qrels and per_query.parquet not yet",
    "run.files_written": "every run file is written, record.json not yet",
    "run.recorded": "record.json is written, the lock not yet released",
    "write": "any atomic write (record, run files, cache entries)",
}
ERRNO = {"enospc": errno.ENOSPC, "eacces": errno.EACCES, "erofs": errno.EROFS}
ACTIONS = ("killpg", "kill", "stop", *ERRNO)


@dataclass(frozen=True)
class Armed:
    action: str
    from_hit: int


def parse(spec: str) -> dict[str, Armed]:
    """``name=action[@N],...`` -> armed points; a typo is an error, not a silent no-op."""
    out = {}
    for item in filter(None, (p.strip() for p in spec.split(","))):
        name, _, rest = item.partition("=")
        action, _, at = rest.partition("@")
        if name not in POINTS or action not in ACTIONS or (at and not at.isdigit()):
            raise ValueError(f"{ENV}={spec!r}: {item!r} is not NAME=ACTION[@N] with NAME in "
                             f"{sorted(POINTS)} and ACTION in {list(ACTIONS)}")
        out[name] = Armed(action, int(at or 1))
    return out


@lru_cache(maxsize=1)
def _armed(spec: str) -> dict[str, Armed]:
    return parse(spec)


_hits: dict[str, int] = {}


def failpoint(name: str, path: object = None) -> None:
    """Fire ``name`` if ``HERMES_FAILPOINTS`` arms it (``path``: the file an injected error names)."""
    spec = os.environ.get(ENV)
    if not spec:
        return
    armed = _armed(spec).get(name)
    if armed is None:
        return
    _hits[name] = _hits.get(name, 0) + 1
    if _hits[name] < armed.from_hit:
        return
    if armed.action == "stop":
        if _hits[name] == armed.from_hit:
            os.kill(os.getpid(), signal.SIGSTOP)
        return
    if armed.action == "killpg":
        os.killpg(os.getpgid(0), signal.SIGKILL)
    if armed.action == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    code = ERRNO[armed.action]
    raise OSError(code, os.strerror(code), None if path is None else str(path))
