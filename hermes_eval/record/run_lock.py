"""One writer per run folder: a file lock taken before any work, naming the process that holds it.

The lock is ``<run folder>/.writer.lock`` (filelock; the operating system releases it when its
process dies, even by SIGKILL). Beside it, ``.writer.json`` says who holds it (pid, host, since), so
a second process can say whose run it is skipping. A writer that takes the lock removes the
temporary files a dead writer left in the folder: while the lock is held nobody else writes there.
"""
from __future__ import annotations

import json
import os
import socket
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from filelock import FileLock, Timeout

LOCK_NAME = ".writer.lock"
HOLDER_NAME = ".writer.json"
TEMP_GLOB = ".*.tmp"  # record/write.py and cache/content.py name their temporary files so
MODES = ("skip", "wait")


@dataclass(frozen=True)
class Holder:
    """The process writing a run folder."""

    pid: int
    host: str
    since: str

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host} since {self.since}"


class RunBusy(Exception):
    """Another process holds the run folder's lock."""

    def __init__(self, run_dir: Path, holder: Holder | None):
        self.run_dir, self.holder = run_dir, holder
        who = holder.describe() if holder else "another process"
        super().__init__(f"{run_dir}: {who} is computing this run; skipped here (busy_run=wait waits for it)")


def read_holder(run_dir: Path) -> Holder | None:
    """Who holds ``run_dir``'s lock, as that process wrote it (None when unknown)."""
    try:
        data = json.loads((Path(run_dir) / HOLDER_NAME).read_text())
        return Holder(int(data["pid"]), str(data["host"]), str(data["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def is_locked(run_dir: Path) -> bool:
    """Whether a live process holds ``run_dir``'s lock now (a run in progress, not a dead one).

    Read from the holder's note, never by trying the lock: a reader that took it for an instant
    could make a writer skip its run. A holder on another host is taken as alive."""
    holder = read_holder(run_dir)
    if holder is None:
        return False
    if holder.host != socket.gethostname():
        return True
    try:
        os.kill(holder.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def remove_stale_temps(run_dir: Path) -> None:
    """Delete the temporary files in ``run_dir`` (call only while holding its lock)."""
    for tmp in Path(run_dir).glob(TEMP_GLOB):
        tmp.unlink(missing_ok=True)


@contextmanager
def run_lock(run_dir: Path, mode: str = "skip") -> Iterator[None]:
    """Hold ``run_dir``'s writer lock; ``mode`` ``skip`` raises :class:`RunBusy` when another
    process holds it, ``wait`` blocks until that process is done."""
    if mode not in MODES:
        raise ValueError(f"busy_run={mode!r}: use one of {', '.join(MODES)}")
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    lock = FileLock(str(run_dir / LOCK_NAME), timeout=-1 if mode == "wait" else 0, thread_local=False)
    try:
        lock.acquire()
    except Timeout:
        raise RunBusy(run_dir, read_holder(run_dir)) from None
    holder = run_dir / HOLDER_NAME
    try:
        remove_stale_temps(run_dir)
        me = Holder(os.getpid(), socket.gethostname(), time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
        holder.write_text(json.dumps(me.__dict__))
        yield
    finally:
        holder.unlink(missing_ok=True)
        lock.release()
